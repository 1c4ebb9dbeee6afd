// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>

namespace Sonde {

class ExportOutput;
class ExportReader;

// A bug report in Markdown from transcript records, one section per server: the versions
// (client, server info, protocol version), the era and why, the calls with their outcomes
// and times, the errors, and the recovery story (reconnects, verdicts, resumptions) in time
// order. Pure; any thread.
class MarkdownReport
{
public:
    // Lines a section lists at most (errors, the recovery story); the rest are counted.
    static constexpr qsizetype MaxListed = 10'000;
    // Requests held while their answers may still come (CallPairer).
    static constexpr qsizetype Window = 20'000;

    static QByteArray write(const QList<QJsonObject> &records);
    // The same, streamed: a pass for each server's facts, then a pass per server for its
    // calls, a window of calls at a time.
    static bool write(ExportReader &in, ExportOutput &out);
};

} // namespace Sonde
