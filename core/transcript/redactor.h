// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

namespace Sonde {

// Removes secrets from text that leaves the process (transcripts, exports, error lines):
// bearer tokens, sk- style API keys, token=/key=/password=/secret= values, and the session
// ids it has been told about. Thread: any (no shared state after construction).
class Redactor
{
public:
    static QString redact(const QString &text, const QStringList &sessionIds = {});
    static constexpr auto Mask = "[REDACTED]";
};

} // namespace Sonde
