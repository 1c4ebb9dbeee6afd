// SPDX-License-Identifier: MIT
#include "auth/scopeselection.h"

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

constexpr auto offlineAccess = "offline_access"_L1;

ScopeSelection::Choice withOfflineAccess(ScopeSelection::Choice c, const QStringList &serverScopes)
{
    if (!serverScopes.contains(offlineAccess) || c.scopes.contains(offlineAccess))
        return c;
    c.scopes.append(offlineAccess);
    c.why += u"; offline_access because the authorization server lists it"_s;
    return c;
}

} // namespace

QStringList ScopeSelection::split(const QString &scope)
{
    QStringList out;
    for (const QString &s : scope.split(u' ', Qt::SkipEmptyParts))
        if (!out.contains(s))
            out.append(s);
    return out;
}

QStringList ScopeSelection::unite(const QStringList &a, const QStringList &b)
{
    QStringList out = a;
    for (const QString &s : b)
        if (!out.contains(s))
            out.append(s);
    return out;
}

ScopeSelection::Choice ScopeSelection::initial(const QString &userScope,
                                               const QString &challengeScope,
                                               const QStringList &resourceScopes,
                                               const QStringList &serverScopes)
{
    Choice c;
    if (!split(userScope).isEmpty())
        c = {split(userScope), u"scope from the configuration"_s};
    else if (!split(challengeScope).isEmpty())
        c = {split(challengeScope), u"scope from WWW-Authenticate"_s};
    else if (!resourceScopes.isEmpty())
        c = {unite({}, resourceScopes), u"scope from scopes_supported of the protected resource"_s};
    else
        c = {{}, u"scope omitted: neither WWW-Authenticate nor scopes_supported names one"_s};
    return withOfflineAccess(c, serverScopes);
}

ScopeSelection::Choice ScopeSelection::stepUp(const QStringList &granted, const QString &required,
                                              const QStringList &serverScopes)
{
    Choice c{unite(granted, split(required)),
             u"step-up: the scopes held and the ones the 403 requires"_s};
    return withOfflineAccess(c, serverScopes);
}

} // namespace Sonde
