// SPDX-License-Identifier: MIT
#pragma once
// The demo server's authorization flow as the engine records it, step by step, for the
// Authorization view's tests.

#include "values/authvalues.h"

namespace AuthFlowData {

constexpr qint64 Start = 1'796'131'880'000; // 2026-12-01

inline Sonde::AuthStep step(const QString &name, const QString &method, const QString &url,
                            int status, const QString &chosen = {}, const QString &why = {})
{
    Sonde::AuthStep s;
    s.name = name;
    s.method = method;
    s.url = QUrl(url);
    s.status = status;
    s.chosen = chosen;
    s.why = why;
    s.startedMs = Start;
    s.elapsedMs = 9;
    return s;
}

inline QList<Sonde::AuthStep> flow()
{
    using namespace Qt::StringLiterals;
    return {step(u"protected-resource-metadata"_s, u"GET"_s,
                 u"http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp"_s, 200,
                 u"http://127.0.0.1:3000/"_s, u"the only authorization server listed"_s),
            step(u"authorization-server-metadata"_s, u"GET"_s,
                 u"http://127.0.0.1:3000/.well-known/oauth-authorization-server"_s, 200),
            step(u"client-identity"_s, u"POST"_s, u"http://127.0.0.1:3000/register"_s, 201,
                 u"dynamic-registration"_s, u"no client id given and no CIMD support"_s),
            step(u"authorization"_s, u"GET"_s, u"http://127.0.0.1:3000/authorize"_s, 302,
                 u"mcp:read"_s, u"scope from WWW-Authenticate"_s),
            step(u"token"_s, u"POST"_s, u"http://127.0.0.1:3000/token"_s, 200,
                 u"client_secret_basic"_s, u"token endpoint auth: as advertised"_s)};
}

} // namespace AuthFlowData
