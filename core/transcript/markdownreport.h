// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>

namespace Sonde {

// A bug report in Markdown from transcript records, one section per server: the versions
// (client, server info, protocol version), the era and why, the calls with their outcomes
// and times, the errors, and the recovery story (reconnects, verdicts, resumptions) in time
// order. Pure; any thread.
class MarkdownReport
{
public:
    static QByteArray write(const QList<QJsonObject> &records);
};

} // namespace Sonde
