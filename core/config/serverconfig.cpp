// SPDX-License-Identifier: MIT
#include "config/serverconfig.h"

#include "config/jsoncreader.h"
#include "util/enumnames.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

using namespace Qt::StringLiterals;

namespace Sonde {

static const char *const kRouteNames[] = {"stdio", "streamable-http", "sse"};

QString ServerConfig::routeName(Route route)
{
    return enumName(kRouteNames, route);
}

std::optional<ServerConfig::Route> ServerConfig::routeFromName(QStringView name)
{
    return enumFromName<Route>(kRouteNames, name);
}

static const char *const kEraNames[] = {"auto", "initialize", "2026-07-28"};
// What the settings were called before the next revision made "modern" and "legacy" wrong:
// still read (saved workspaces, scripts), never written.
static const char *const kOldEraNames[] = {"", "legacy", "modern"};

QString ServerConfig::eraName(Era era)
{
    return enumName(kEraNames, era);
}

std::optional<ServerConfig::Era> ServerConfig::eraFromName(const QString &name)
{
    if (const std::optional<Era> e = enumFromName<Era>(kEraNames, name))
        return e;
    if (name.isEmpty())
        return std::nullopt;
    return enumFromName<Era>(kOldEraNames, name);
}

static const char *const kRecoveryProfileNames[] = {"interactive", "agent"};

QString ServerConfig::recoveryProfileName(RecoveryProfile profile)
{
    return enumName(kRecoveryProfileNames, profile);
}

std::optional<ServerConfig::RecoveryProfile>
ServerConfig::recoveryProfileFromName(const QString &name)
{
    return enumFromName<RecoveryProfile>(kRecoveryProfileNames, name);
}

static const char *const kAuthAgentNames[] = {"browser", "no-browser", "headless"};

QString ServerConfig::authAgentName(Auth::Agent agent)
{
    return enumName(kAuthAgentNames, agent);
}

std::optional<ServerConfig::Auth::Agent> ServerConfig::authAgentFromName(const QString &name)
{
    return enumFromName<Auth::Agent>(kAuthAgentNames, name);
}

static QString suggestion(const QString &key, const QStringList &known);

// "auth": false (a 401 is only an error), or {"clientId", "clientSecret", "scope",
// "clientMetadataUrl"} (docs/auth.md). Returns why it is wrong, or nothing.
static QString readAuth(const QJsonValue &value, ServerConfig::Auth *auth)
{
    if (value.isBool()) {
        auth->enabled = value.toBool();
        return {};
    }
    if (!value.isObject())
        return u"\"auth\" must be an object or false"_s;
    static const QStringList keys = {u"clientId"_s, u"clientSecret"_s, u"scope"_s,
                                     u"clientMetadataUrl"_s};
    const QJsonObject o = value.toObject();
    for (auto k = o.begin(); k != o.end(); ++k) {
        if (!keys.contains(k.key()))
            return u"auth: unknown key \"%1\"%2"_s.arg(k.key(), suggestion(k.key(), keys));
        if (!k.value().isString())
            return u"auth: \"%1\" must be a string"_s.arg(k.key());
    }
    auth->clientId = o.value("clientId"_L1).toString();
    auth->clientSecret = o.value("clientSecret"_L1).toString();
    auth->scope = o.value("scope"_L1).toString().simplified();
    if (const QString url = o.value("clientMetadataUrl"_L1).toString(); !url.isEmpty()) {
        auth->clientMetadataUrl = QUrl(url, QUrl::StrictMode);
        if (auth->clientMetadataUrl.scheme() != "https"_L1 ||
            auth->clientMetadataUrl.path().isEmpty())
            return u"auth: \"clientMetadataUrl\" must be an https URL with a path"_s;
    }
    return {};
}

static QString shellQuote(const QString &s)
{
    if (!s.isEmpty() && s.indexOf(QRegularExpression(u"[^A-Za-z0-9_@%+=:,./-]"_s)) < 0)
        return s;
    QString q = s;
    q.replace(u'\'', u"'\\''"_s);
    return u'\'' + q + u'\'';
}

QString ServerConfig::displayCommand() const
{
    if (route != Route::Stdio)
        return url.toString();
    QStringList parts;
    for (auto it = environment.begin(); it != environment.end(); ++it)
        parts.append(it.key() + u'=' + shellQuote(it.value()));
    parts.append(shellQuote(program));
    for (const QString &a : arguments)
        parts.append(shellQuote(a));
    return parts.join(u' ');
}

static int editDistance(const QString &a, const QString &b)
{
    QList<int> prev(b.size() + 1), cur(b.size() + 1);
    for (qsizetype j = 0; j <= b.size(); ++j)
        prev[j] = int(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        cur[0] = int(i);
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int sub = prev[j - 1] + (a[i - 1].toLower() == b[j - 1].toLower() ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

static QString suggestion(const QString &key, const QStringList &known)
{
    QString best;
    int bestDistance = 3;
    for (const QString &k : known) {
        const int d = editDistance(key, k);
        if (d < bestDistance) {
            bestDistance = d;
            best = k;
        }
    }
    return best.isEmpty() ? QString() : u" (did you mean \"%1\"?)"_s.arg(best);
}

static QPair<int, int> lineAndColumn(const QByteArray &text, qsizetype offset)
{
    int line = 1, col = 1;
    for (qsizetype i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return {line, col};
}

ServerConfigFile::Result ServerConfigFile::parse(const QByteArray &jsonc, const QString &source,
                                                 const Options &options)
{
    Result r;
    QString jsoncError;
    qsizetype jsoncOffset = 0;
    const std::optional<QByteArray> json = JsoncReader::toJson(jsonc, &jsoncError, &jsoncOffset);
    if (!json) {
        const auto [line, col] = lineAndColumn(jsonc, jsoncOffset);
        r.error = Error::protocol(u"%1:%2:%3: %4"_s.arg(source).arg(line).arg(col).arg(jsoncError));
        return r;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(*json, &pe);
    if (pe.error != QJsonParseError::NoError) {
        // JsoncReader keeps every offset, so this is the position in the file as written.
        const auto [line, col] = lineAndColumn(jsonc, pe.offset);
        r.error =
            Error::protocol(u"%1:%2:%3: %4"_s.arg(source).arg(line).arg(col).arg(pe.errorString()));
        return r;
    }
    if (!doc.isObject()) {
        r.error = Error::protocol(u"%1: the top level must be an object"_s.arg(source));
        return r;
    }
    const QJsonObject root = doc.object();
    QJsonValue serversValue = root.value("mcpServers"_L1);
    QString mapKey = u"mcpServers"_s;
    if (serversValue.isUndefined()) {
        serversValue = root.value("servers"_L1);
        mapKey = u"servers"_s;
    }
    if (serversValue.isUndefined()) {
        r.error = Error::protocol(u"%1: no \"mcpServers\" or \"servers\" object%2"_s.arg(
            source, root.isEmpty()
                        ? QString()
                        : suggestion(root.keys().constFirst(), {u"mcpServers"_s, u"servers"_s})));
        return r;
    }
    if (!serversValue.isObject()) {
        r.error = Error::protocol(
            u"%1: \"%2\" must be an object mapping names to servers"_s.arg(source, mapKey));
        return r;
    }
    // VS Code: "inputs": [{"type": "promptString", "id": "api-key", "description": "...",
    // "password": true}]
    for (const QJsonValue &v : root.value("inputs"_L1).toArray()) {
        const QJsonObject o = v.toObject();
        ConfigInput input;
        input.id = o.value("id"_L1).toString();
        input.description = o.value("description"_L1).toString();
        input.password = o.value("password"_L1).toBool();
        if (!input.id.isEmpty())
            r.inputs.insert(input.id, input);
    }
    // One resolver for the whole file: an input used by several servers is asked for once.
    PlaceholderResolver resolver;
    if (options.environment)
        resolver.setEnvironment(options.environment);
    resolver.setWorkspaceFolder(options.workspaceFolder);
    resolver.setInputs(r.inputs);
    if (options.inputProvider)
        resolver.setInputProvider(options.inputProvider);

    static const QStringList known = {
        u"command"_s,     u"args"_s,        u"env"_s,         u"cwd"_s,       u"type"_s,
        u"url"_s,         u"headers"_s,     u"envFile"_s,     u"disabled"_s,  u"timeout"_s,
        u"description"_s, u"autoApprove"_s, u"alwaysAllow"_s, u"transport"_s, u"era"_s,
        u"auth"_s,        u"mcpApps"_s};
    const QJsonObject servers = serversValue.toObject();
    for (auto it = servers.begin(); it != servers.end(); ++it) {
        const QString name = it.key();
        auto fail = [&](const QString &why) {
            r.error = Error::protocol(u"%1: server \"%2\": %3"_s.arg(source, name, why));
        };
        if (!it.value().isObject()) {
            fail(u"must be an object"_s);
            return r;
        }
        const QJsonObject s = it.value().toObject();
        for (auto k = s.begin(); k != s.end(); ++k) {
            if (!known.contains(k.key())) {
                fail(u"unknown key \"%1\"%2"_s.arg(k.key(), suggestion(k.key(), known)));
                return r;
            }
        }
        ServerConfig c;
        c.name = name;
        const QString type = s.value("type"_L1).toString(s.value("transport"_L1).toString());
        const bool hasCommand = s.contains("command"_L1);
        const bool hasUrl = s.contains("url"_L1);
        if (hasCommand && hasUrl) {
            fail(u"has both \"command\" and \"url\"; keep one"_s);
            return r;
        }
        if (!hasCommand && !hasUrl) {
            fail(u"needs \"command\" (stdio) or \"url\" (HTTP)"_s);
            return r;
        }
        QString urlText;
        if (hasCommand) {
            if (!s.value("command"_L1).isString() || s.value("command"_L1).toString().isEmpty()) {
                fail(u"\"command\" must be a non-empty string"_s);
                return r;
            }
            c.route = ServerConfig::Route::Stdio;
            c.program = s.value("command"_L1).toString();
            const QJsonValue args = s.value("args"_L1);
            if (!args.isUndefined()) {
                if (!args.isArray()) {
                    fail(u"\"args\" must be an array of strings"_s);
                    return r;
                }
                for (const QJsonValue &a : args.toArray()) {
                    if (!a.isString()) {
                        fail(u"\"args\" must be an array of strings"_s);
                        return r;
                    }
                    c.arguments.append(a.toString());
                }
            }
            const QJsonValue cwd = s.value("cwd"_L1);
            if (!cwd.isUndefined() && !cwd.isString()) {
                fail(u"\"cwd\" must be a string"_s);
                return r;
            }
            c.workingDirectory = cwd.toString();
        } else {
            if (!s.value("url"_L1).isString()) {
                fail(u"\"url\" must be an http or https URL"_s);
                return r;
            }
            urlText = s.value("url"_L1).toString();
            c.route = type == "sse"_L1 ? ServerConfig::Route::LegacySse
                                       : ServerConfig::Route::StreamableHttp;
            const QJsonObject headers = s.value("headers"_L1).toObject();
            for (auto h = headers.begin(); h != headers.end(); ++h)
                c.headers.append({h.key().toUtf8(), h.value().toString().toUtf8()});
        }
        const QJsonValue env = s.value("env"_L1);
        if (!env.isUndefined()) {
            if (!env.isObject()) {
                fail(u"\"env\" must be an object of strings"_s);
                return r;
            }
            const QJsonObject e = env.toObject();
            for (auto v = e.begin(); v != e.end(); ++v) {
                if (!v.value().isString()) {
                    fail(u"env \"%1\" must be a string"_s.arg(v.key()));
                    return r;
                }
                c.environment.insert(v.key(), v.value().toString());
            }
        }
        if (!type.isEmpty() && type != "stdio"_L1 && type != "http"_L1 && type != "sse"_L1 &&
            type != "streamable-http"_L1 && type != "streamableHttp"_L1) {
            fail(u"unknown type \"%1\" (stdio, http or sse)"_s.arg(type));
            return r;
        }
        if (const QJsonValue apps = s.value("mcpApps"_L1); !apps.isUndefined()) {
            if (!apps.isBool()) {
                fail(u"mcpApps wants true or false"_s);
                return r;
            }
            c.mcpApps = apps.toBool();
        }
        if (const QJsonValue era = s.value("era"_L1); !era.isUndefined()) {
            const std::optional<ServerConfig::Era> e = ServerConfig::eraFromName(era.toString());
            if (!e) {
                fail(u"unknown era \"%1\" (auto, initialize or 2026-07-28)"_s.arg(
                    era.isString()
                        ? era.toString()
                        : QString::fromUtf8(
                              QJsonDocument(QJsonArray{era}).toJson(QJsonDocument::Compact))));
                return r;
            }
            c.era = *e;
        }
        if (const QJsonValue auth = s.value("auth"_L1); !auth.isUndefined()) {
            const QString why = readAuth(auth, &c.auth);
            if (!why.isEmpty()) {
                fail(why);
                return r;
            }
        }
        if (type == "stdio"_L1 && !hasCommand) {
            fail(u"type \"stdio\" needs \"command\""_s);
            return r;
        }

        if (options.resolvePlaceholders) {
            // Stops at the first failure, so no further input is asked for a server that
            // cannot start anyway.
            Error unresolved;
            auto resolve = [&](QString *value, const QString &where) {
                if (unresolved.isError())
                    return;
                Error e;
                const QString v = resolver.resolve(*value, &e);
                if (e.isError())
                    unresolved = Error::protocol(
                        u"%1: server \"%2\": %3: %4"_s.arg(source, name, where, e.message()));
                else
                    *value = v;
            };
            resolve(&c.program, u"\"command\""_s);
            for (qsizetype i = 0; i < c.arguments.size(); ++i)
                resolve(&c.arguments[i], u"\"args\"[%1]"_s.arg(i));
            for (auto v = c.environment.begin(); v != c.environment.end(); ++v)
                resolve(&v.value(), u"env \"%1\""_s.arg(v.key()));
            resolve(&c.workingDirectory, u"\"cwd\""_s);
            resolve(&urlText, u"\"url\""_s);
            for (auto &[key, value] : c.headers) {
                QString v = QString::fromUtf8(value);
                resolve(&v, u"header \"%1\""_s.arg(QString::fromUtf8(key)));
                value = v.toUtf8();
            }
            if (unresolved.isError()) {
                r.unresolved.insert(name, unresolved);
                continue;
            }
        }
        if (!hasCommand) {
            const QUrl url(urlText, QUrl::StrictMode);
            if (!url.isValid() || (url.scheme() != "http"_L1 && url.scheme() != "https"_L1)) {
                fail(u"\"url\" must be an http or https URL"_s);
                return r;
            }
            c.url = url;
        }
        if (s.value("disabled"_L1).toBool())
            r.warnings.append(u"server \"%1\" is marked disabled"_s.arg(name));
        r.servers.insert(name, c);
    }
    return r;
}

ServerConfigFile::Result ServerConfigFile::parse(const QByteArray &json, const QString &sourceName)
{
    return parse(json, sourceName, Options());
}

ServerConfigFile::Result ServerConfigFile::load(const QString &path)
{
    return load(path, Options());
}

QString ServerConfigFile::workspaceFolderFor(const QString &configPath)
{
    const QFileInfo file(configPath);
    const QDir folder = file.absoluteDir();
    if (folder.dirName() == ".vscode"_L1)
        return QFileInfo(folder.absolutePath()).absolutePath();
    return folder.absolutePath();
}

ServerConfigFile::Result ServerConfigFile::load(const QString &path, const Options &options)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        Result r;
        r.error = Error::protocol(u"%1: cannot read: %2"_s.arg(path, f.errorString()));
        return r;
    }
    // Checked before reading, so pointing --config at a huge file costs nothing.
    if (f.size() > JsoncReader::MaxInputBytes) {
        Result r;
        r.error = Error::protocol(
            u"%1: %2 bytes is more than a configuration file may hold (%3 bytes)"_s.arg(path)
                .arg(f.size())
                .arg(JsoncReader::MaxInputBytes));
        return r;
    }
    Options o = options;
    if (o.workspaceFolder.isEmpty())
        o.workspaceFolder = workspaceFolderFor(path);
    return parse(f.read(JsoncReader::MaxInputBytes + 1), path, o);
}

} // namespace Sonde
