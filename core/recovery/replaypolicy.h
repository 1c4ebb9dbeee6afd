// SPDX-License-Identifier: MIT
#pragma once

#include "values/recoveryvalues.h"

#include <QHash>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace Sonde {

// Decides what may be sent again after a session died under a request (docs/recovery.md §2):
// read methods always; tools/call only when the tool's annotations.readOnlyHint is exactly
// the JSON boolean true, unless the user overrode that tool. The verdict says which source
// decided, because readOnlyHint is only the server's claim. Pure; any thread.
class ReplayPolicy
{
public:
    using Source = ReplaySource;
    using Verdict = ReplayVerdict;

    // true: the user says the tool is read-only; false: write-capable.
    void setOverride(const QString &tool, bool readOnly) { m_overrides.insert(tool, readOnly); }
    void clearOverride(const QString &tool) { m_overrides.remove(tool); }

    // `tool` is the tools/list entry of the tool being called (empty if unknown).
    Verdict verdict(const QString &method, const QString &toolName, const QJsonObject &tool) const;

    static bool isReadMethod(const QString &method);
    // How the request failed decides before any hint (docs/recovery.md §2): refused before
    // it ran (http-404-with-session, http-400-invalid-session, connection-refused) is sent
    // once more whatever the method; a tools/call whose stdio server died after it was
    // written is never sent again. None: the method or the tool decides.
    static std::optional<Verdict> transportVerdict(ExpiryRule rule, bool toolCall,
                                                   bool diedAfterWrite);
    static QString sourceName(Source source);

private:
    QHash<QString, bool> m_overrides;
};

} // namespace Sonde
