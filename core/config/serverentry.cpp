// SPDX-License-Identifier: MIT
#include "config/serverentry.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Sonde {

QJsonObject ServerEntry::toJson(const ServerConfig &c)
{
    QJsonObject s;
    if (c.route == ServerConfig::Route::Stdio) {
        s.insert("command"_L1, c.program);
        s.insert("args"_L1, QJsonArray::fromStringList(c.arguments));
        QJsonObject env;
        for (auto it = c.environment.begin(); it != c.environment.end(); ++it)
            env.insert(it.key(), it.value());
        if (!env.isEmpty())
            s.insert("env"_L1, env);
        if (!c.workingDirectory.isEmpty())
            s.insert("cwd"_L1, c.workingDirectory);
    } else {
        s.insert("type"_L1, c.route == ServerConfig::Route::LegacySse ? u"sse"_s : u"http"_s);
        s.insert("url"_L1, c.url.toString());
        QJsonObject headers;
        for (const auto &[k, v] : c.headers)
            headers.insert(QString::fromUtf8(k), QString::fromUtf8(v));
        if (!headers.isEmpty())
            s.insert("headers"_L1, headers);
    }
    if (c.era != ServerConfig::Era::Auto)
        s.insert("era"_L1, ServerConfig::eraName(c.era));
    // What identifies Sonde at the server; the client secret is a secret and lives in the
    // keyring, never in the workspace (docs/auth.md).
    if (!c.auth.enabled) {
        s.insert("auth"_L1, false);
    } else {
        QJsonObject auth;
        if (!c.auth.clientId.isEmpty())
            auth.insert("clientId"_L1, c.auth.clientId);
        if (!c.auth.scope.isEmpty())
            auth.insert("scope"_L1, c.auth.scope);
        if (!c.auth.clientMetadataUrl.isEmpty())
            auth.insert("clientMetadataUrl"_L1, c.auth.clientMetadataUrl.toString());
        if (!auth.isEmpty())
            s.insert("auth"_L1, auth);
    }
    return s;
}

} // namespace Sonde
