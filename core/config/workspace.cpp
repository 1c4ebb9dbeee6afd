// SPDX-License-Identifier: MIT
#include "config/workspace.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
const QString ServersKey = u"workspace/servers"_s;
const QString ExtrasKey = u"workspace/sonde"_s;
// Added later: without it (an older workspace) the servers come back sorted by name, which
// is the order "mcpServers", a JSON object, has.
const QString OrderKey = u"workspace/order"_s;
const QString CurrentKey = u"workspace/current"_s;

QJsonObject serverJson(const ServerConfig &c)
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
    return s;
}

QJsonObject extrasJson(const Workspace::Server &server)
{
    const ServerConfig &c = server.config;
    return {{"timeoutMs"_L1, c.requestTimeoutMs},
            {"breakerThreshold"_L1, c.breakerThreshold},
            {"breakerCooldownMs"_L1, c.breakerCooldownMs},
            {"pingIntervalMs"_L1, c.pingIntervalMs},
            {"roots"_L1, QJsonArray::fromStringList(server.roots)}};
}

Workspace::Server withExtras(ServerConfig c, const QJsonObject &x)
{
    c.requestTimeoutMs = x.value("timeoutMs"_L1).toInt(c.requestTimeoutMs);
    c.breakerThreshold = x.value("breakerThreshold"_L1).toInt(c.breakerThreshold);
    c.breakerCooldownMs = x.value("breakerCooldownMs"_L1).toInt(c.breakerCooldownMs);
    c.pingIntervalMs = x.value("pingIntervalMs"_L1).toInt(c.pingIntervalMs);
    QStringList roots;
    for (const QJsonValue &v : x.value("roots"_L1).toArray())
        roots.append(v.toString());
    return {c, roots};
}
} // namespace

void Workspace::write(QSettings &settings) const
{
    QJsonObject configs;
    QJsonObject extras;
    QStringList order;
    for (const Server &s : servers) {
        configs.insert(s.config.name, serverJson(s.config));
        extras.insert(s.config.name, extrasJson(s));
        order.append(s.config.name);
    }
    settings.setValue(
        ServersKey,
        QJsonDocument(QJsonObject{{"mcpServers"_L1, configs}}).toJson(QJsonDocument::Compact));
    settings.setValue(ExtrasKey, QJsonDocument(extras).toJson(QJsonDocument::Compact));
    settings.setValue(OrderKey, order);
    settings.setValue(CurrentKey, current);
    settings.setValue(u"window/geometry"_s, geometry);
    settings.setValue(u"window/state"_s, windowState);
    settings.setValue(u"window/split"_s, splitter);
    settings.setValue(u"window/tab"_s, tab);
    settings.setValue(u"window/transcriptColumns"_s, transcriptColumns);
}

Workspace Workspace::read(QSettings &settings, Error *error)
{
    Workspace w;
    const QByteArray stored = settings.value(ServersKey).toByteArray();
    const QJsonObject extras =
        QJsonDocument::fromJson(settings.value(ExtrasKey).toByteArray()).object();
    if (!stored.isEmpty()) {
        // Saved values were resolved when imported: read them as they are.
        ServerConfigFile::Options verbatim;
        verbatim.resolvePlaceholders = false;
        ServerConfigFile::Result r =
            ServerConfigFile::parse(stored, u"saved workspace"_s, verbatim);
        for (const QString &name : settings.value(OrderKey).toStringList()) {
            if (r.servers.contains(name))
                w.servers.append(withExtras(r.servers.take(name), extras.value(name).toObject()));
        }
        for (auto it = r.servers.cbegin(); it != r.servers.cend(); ++it)
            w.servers.append(withExtras(it.value(), extras.value(it.key()).toObject()));
        if (error)
            *error = r.error;
    }
    w.current = settings.value(CurrentKey).toString();
    w.geometry = settings.value(u"window/geometry"_s).toByteArray();
    w.windowState = settings.value(u"window/state"_s).toByteArray();
    w.splitter = settings.value(u"window/split"_s).toByteArray();
    w.tab = settings.value(u"window/tab"_s, 1).toInt();
    w.transcriptColumns = settings.value(u"window/transcriptColumns"_s).toByteArray();
    return w;
}

} // namespace Sonde
