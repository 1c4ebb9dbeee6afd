// SPDX-License-Identifier: MIT
#include "collection.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Sonde {

// {"config": FILE, "server": NAME}: the entry NAME of that file, as --config reads it.
static std::optional<ServerConfig> serverFromConfigFile(const QJsonObject &o, const QString &folder,
                                                        QString *error)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (it.key() != "config"_L1 && it.key() != "server"_L1) {
            *error =
                u"\"server\" with \"config\" takes only \"config\" and \"server\", not \"%1\""_s
                    .arg(it.key());
            return std::nullopt;
        }
    }
    if (!o.value("config"_L1).isString() ||
        (o.contains("server"_L1) && !o.value("server"_L1).isString())) {
        *error = u"\"server.config\" and \"server.server\" must be strings"_s;
        return std::nullopt;
    }
    const QString path = QDir(folder).absoluteFilePath(o.value("config"_L1).toString());
    const ServerConfigFile::Result r = ServerConfigFile::load(path);
    if (r.error.isError()) {
        *error = r.error.message();
        return std::nullopt;
    }
    QString name = o.value("server"_L1).toString();
    const QStringList names = r.servers.keys() + r.unresolved.keys();
    if (name.isEmpty() && names.size() == 1)
        name = names.constFirst();
    if (r.unresolved.contains(name)) {
        *error = r.unresolved.value(name).message();
        return std::nullopt;
    }
    if (!r.servers.contains(name)) {
        *error = u"%1: no server named \"%2\" (has: %3)"_s.arg(path, name, names.join(u", "_s));
        return std::nullopt;
    }
    return r.servers.value(name);
}

// A config entry written in the collection: read as the one entry of an mcp.json, so every
// field (command/args/env/cwd, url/headers, type, era, auth) means what it means there.
static std::optional<ServerConfig> serverFromEntry(const QJsonObject &entry, const QString &name,
                                                   const QString &source, QString *error)
{
    const QJsonObject file{{"mcpServers"_L1, QJsonObject{{name, entry}}}};
    const ServerConfigFile::Result r = ServerConfigFile::parse(
        QJsonDocument(file).toJson(QJsonDocument::Compact), source + u" \"server\""_s);
    if (r.error.isError()) {
        *error = r.error.message();
        return std::nullopt;
    }
    if (r.unresolved.contains(name)) {
        *error = r.unresolved.value(name).message();
        return std::nullopt;
    }
    return r.servers.value(name);
}

static std::optional<CollectionCall> parseCall(const QJsonValue &value, int number, QString *error)
{
    const QJsonObject o = value.toObject();
    CollectionCall c;
    c.name = o.value("name"_L1).toString(u"call %1"_s.arg(number));
    auto fail = [&](const QString &why) {
        *error = u"call %1 (\"%2\"): %3"_s.arg(number).arg(c.name, why);
        return std::nullopt;
    };
    if (!value.isObject())
        return fail(u"must be an object"_s);
    static const QStringList known = {u"name"_s,   u"tool"_s,   u"args"_s,
                                      u"method"_s, u"params"_s, u"expect"_s};
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!known.contains(it.key()))
            return fail(u"unknown field \"%1\" (known: %2)"_s.arg(it.key(), known.join(u", "_s)));
    if (o.contains("name"_L1) && !o.value("name"_L1).isString())
        return fail(u"\"name\" must be a string"_s);
    const bool tool = o.contains("tool"_L1);
    if (tool == o.contains("method"_L1))
        return fail(
            u"needs \"tool\" (with \"args\") or \"method\" (with \"params\"), one of them"_s);
    if (tool && o.contains("params"_L1))
        return fail(u"\"params\" goes with \"method\"; a tool call takes \"args\""_s);
    if (!tool && o.contains("args"_L1))
        return fail(u"\"args\" goes with \"tool\"; a method call takes \"params\""_s);
    const QString field = tool ? u"tool"_s : u"method"_s;
    if (!o.value(field).isString() || o.value(field).toString().isEmpty())
        return fail(u"\"%1\" must be a non-empty string"_s.arg(field));
    const QString argsField = tool ? u"args"_s : u"params"_s;
    if (o.contains(argsField) && !o.value(argsField).isObject())
        return fail(u"\"%1\" must be an object"_s.arg(argsField));
    if (tool) {
        c.tool = o.value("tool"_L1).toString();
        c.method = u"tools/call"_s;
        c.params = {{"name"_L1, c.tool}, {"arguments"_L1, o.value("args"_L1).toObject()}};
    } else {
        c.method = o.value("method"_L1).toString();
        c.params = o.value("params"_L1).toObject();
    }
    QString why;
    const std::optional<CallExpectation> e =
        CallExpectation::fromJson(o.value("expect"_L1), tool, &why);
    if (!e)
        return fail(why);
    c.expect = *e;
    return c;
}

std::optional<Collection> Collection::parse(const QByteArray &json, const QString &source,
                                            const QString &folder, QString *error)
{
    auto fail = [&](const QString &why) {
        *error = u"%1: %2"_s.arg(source, why);
        return std::nullopt;
    };
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError)
        return fail(u"not JSON: %1 at byte %2"_s.arg(pe.errorString()).arg(pe.offset));
    if (!doc.isObject())
        return fail(u"a collection is a JSON object with \"server\" and \"calls\""_s);
    const QJsonObject root = doc.object();
    static const QStringList known = {u"name"_s, u"server"_s, u"calls"_s};
    for (auto it = root.begin(); it != root.end(); ++it)
        if (!known.contains(it.key()))
            return fail(u"unknown field \"%1\" (known: %2)"_s.arg(it.key(), known.join(u", "_s)));
    Collection c;
    if (root.contains("name"_L1) && !root.value("name"_L1).isString())
        return fail(u"\"name\" must be a string"_s);
    c.name = root.value("name"_L1).toString(QFileInfo(source).completeBaseName());
    if (!root.value("server"_L1).isObject())
        return fail(u"\"server\" must be an object: a config entry (command/args/env/cwd or "
                    u"url/headers) or {\"config\": FILE, \"server\": NAME}"_s);
    const QJsonObject server = root.value("server"_L1).toObject();
    QString why;
    const std::optional<ServerConfig> config =
        server.contains("config"_L1)
            ? serverFromConfigFile(server, folder, &why)
            : serverFromEntry(server, c.name.isEmpty() ? u"server"_s : c.name, source, &why);
    if (!config)
        return server.contains("config"_L1) ? fail(why) : (*error = why, std::nullopt);
    c.server = *config;
    if (!root.value("calls"_L1).isArray() || root.value("calls"_L1).toArray().isEmpty())
        return fail(u"\"calls\" must be a non-empty array"_s);
    const QJsonArray calls = root.value("calls"_L1).toArray();
    for (qsizetype i = 0; i < calls.size(); ++i) {
        const std::optional<CollectionCall> call = parseCall(calls.at(i), int(i + 1), &why);
        if (!call)
            return fail(why);
        c.calls.append(*call);
    }
    return c;
}

std::optional<Collection> Collection::load(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = u"cannot read %1: %2"_s.arg(path, f.errorString());
        return std::nullopt;
    }
    if (f.size() > MaxFileBytes) {
        *error =
            u"%1: %2 bytes is over the %3 MiB a collection may take"_s.arg(path).arg(f.size()).arg(
                MaxFileBytes / (1024 * 1024));
        return std::nullopt;
    }
    return parse(f.read(MaxFileBytes), path, QFileInfo(path).absolutePath(), error);
}

} // namespace Sonde
