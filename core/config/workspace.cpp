// SPDX-License-Identifier: MIT
#include "config/workspace.h"

#include "config/serverentry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
const QString ServersKey = u"workspace/servers"_s;
const QString ExtrasKey = u"workspace/sonde"_s;
// Added later: without it (an older workspace) the servers come back sorted by name, which
// is the order "mcpServers", a JSON object, has.
const QString OrderKey = u"workspace/order"_s;
const QString CurrentKey = u"workspace/current"_s;
const QString GeometryKey = u"window/geometry"_s;
const QString StateKey = u"window/state"_s;
const QString SplitKey = u"window/split"_s;
const QString TabKey = u"window/tab"_s;
const QString TranscriptColumnsKey = u"window/transcriptColumns"_s;
const QString DarkKey = u"window/dark"_s;
// The extras' marker of the built-in HTTP demo (its saved URL is only the last run's).
const QString BuiltInHttpDemo = u"http-demo"_s;

QJsonObject extrasJson(const Workspace::Server &server)
{
    const ServerConfig &c = server.config;
    QJsonObject x{{"timeoutMs"_L1, c.requestTimeoutMs},
                  {"breakerThreshold"_L1, c.breakerThreshold},
                  {"breakerCooldownMs"_L1, c.breakerCooldownMs},
                  {"pingIntervalMs"_L1, c.pingIntervalMs},
                  {"roots"_L1, QJsonArray::fromStringList(server.roots)}};
    if (server.builtInHttpDemo)
        x.insert("builtIn"_L1, BuiltInHttpDemo);
    if (!c.recordPayloads)
        x.insert("recordPayloads"_L1, false);
    if (!c.mcpApps)
        x.insert("mcpApps"_L1, false);
    if (!c.plainEnvironment.isEmpty())
        x.insert("plainEnv"_L1, QJsonArray::fromStringList(c.plainEnvironment));
    return x;
}

Workspace::Server withExtras(ServerConfig c, const QJsonObject &x)
{
    c.requestTimeoutMs = x.value("timeoutMs"_L1).toInt(c.requestTimeoutMs);
    c.breakerThreshold = x.value("breakerThreshold"_L1).toInt(c.breakerThreshold);
    c.breakerCooldownMs = x.value("breakerCooldownMs"_L1).toInt(c.breakerCooldownMs);
    c.pingIntervalMs = x.value("pingIntervalMs"_L1).toInt(c.pingIntervalMs);
    c.recordPayloads = x.value("recordPayloads"_L1).toBool(c.recordPayloads);
    c.mcpApps = x.value("mcpApps"_L1).toBool(c.mcpApps);
    for (const QJsonValue &v : x.value("plainEnv"_L1).toArray())
        c.plainEnvironment.append(v.toString());
    QStringList roots;
    for (const QJsonValue &v : x.value("roots"_L1).toArray())
        roots.append(v.toString());
    return {c, roots, x.value("builtIn"_L1).toString() == BuiltInHttpDemo};
}
} // namespace

QStringList Workspace::keys()
{
    return {ServersKey, ExtrasKey, OrderKey, CurrentKey,           GeometryKey,
            StateKey,   SplitKey,  TabKey,   TranscriptColumnsKey, DarkKey};
}

QVariantMap Workspace::toValues() const
{
    QJsonObject configs;
    QJsonObject extras;
    QStringList order;
    for (const Server &s : servers) {
        configs.insert(s.config.name, ServerEntry::toJson(s.config));
        extras.insert(s.config.name, extrasJson(s));
        order.append(s.config.name);
    }
    return {{ServersKey,
             QJsonDocument(QJsonObject{{"mcpServers"_L1, configs}}).toJson(QJsonDocument::Compact)},
            {ExtrasKey, QJsonDocument(extras).toJson(QJsonDocument::Compact)},
            {OrderKey, order},
            {CurrentKey, current},
            {GeometryKey, geometry},
            {StateKey, windowState},
            {SplitKey, splitter},
            {TabKey, tab},
            {TranscriptColumnsKey, transcriptColumns},
            {DarkKey, darkMode}};
}

Workspace Workspace::fromValues(const QVariantMap &values, Error *error)
{
    Workspace w;
    const QByteArray stored = values.value(ServersKey).toByteArray();
    const QJsonObject extras =
        QJsonDocument::fromJson(values.value(ExtrasKey).toByteArray()).object();
    if (!stored.isEmpty()) {
        // Saved values were resolved when imported: read them as they are.
        ServerConfigFile::Options verbatim;
        verbatim.resolvePlaceholders = false;
        ServerConfigFile::Result r =
            ServerConfigFile::parse(stored, u"saved workspace"_s, verbatim);
        for (const QString &name : values.value(OrderKey).toStringList()) {
            if (r.servers.contains(name))
                w.servers.append(withExtras(r.servers.take(name), extras.value(name).toObject()));
        }
        for (auto it = r.servers.cbegin(); it != r.servers.cend(); ++it)
            w.servers.append(withExtras(it.value(), extras.value(it.key()).toObject()));
        if (error)
            *error = r.error;
    }
    w.current = values.value(CurrentKey).toString();
    w.geometry = values.value(GeometryKey).toByteArray();
    w.windowState = values.value(StateKey).toByteArray();
    w.splitter = values.value(SplitKey).toByteArray();
    w.tab = values.value(TabKey, w.tab).toInt();
    w.transcriptColumns = values.value(TranscriptColumnsKey).toByteArray();
    w.darkMode = values.value(DarkKey, false).toBool();
    return w;
}

} // namespace Sonde
