// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

namespace Sonde {

// Which scope an authorization request asks for (MCP "Scope Selection Strategy"): the user's
// override, else the challenge's `scope`, else the protected resource's `scopes_supported`,
// else none (the parameter is omitted). `offline_access` is added only when the authorization
// server lists it (2026-07-28 "Refresh Tokens"). Step-up asks for the union of what was
// granted and what the 403 requires. Stateless, any thread.
class ScopeSelection
{
public:
    struct Choice
    {
        QStringList scopes; // empty: omit `scope`
        QString why;
        QString text() const { return scopes.join(u' '); }
    };
    static Choice initial(const QString &userScope, const QString &challengeScope,
                          const QStringList &resourceScopes, const QStringList &serverScopes);
    static Choice stepUp(const QStringList &granted, const QString &required,
                         const QStringList &serverScopes);
    // Space-separated scope list (RFC 6749 §3.3), duplicates and empty items dropped.
    static QStringList split(const QString &scope);
    // `a` then the items of `b` not in `a`.
    static QStringList unite(const QStringList &a, const QStringList &b);
};

} // namespace Sonde
