// SPDX-License-Identifier: MIT
#include "config/serverconfig.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

// JSON test data without raw strings (moc cannot read raw string literals).
#define JSON_TEXT(...) #__VA_ARGS__

static PlaceholderResolver::Environment fakeEnvironment()
{
    return [](const QString &name) -> std::optional<QString> {
        static const QMap<QString, QString> env{
            {u"TOKEN"_s, u"t0k"_s}, {u"EMPTY"_s, QString()}, {u"NESTED"_s, u"${env:TOKEN}"_s}};
        if (!env.contains(name))
            return std::nullopt;
        return env.value(name);
    };
}

class TestServerConfig : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rejectsBadFilesWithAClearMessage_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("a syntax error names line and column")
            << QByteArray("{\n  \"mcpServers\": {\n    \"a\": {\"command\" \"x\"}\n  }\n}")
            << u"cfg.json:3:"_s;
        QTest::newRow(
            "a syntax error after comments keeps the line and column of the file as written")
            << QByteArray("// top\n/* a\n   b */ {\"mcpServers\": {\"a\": {\"command\" \"x\"}}}")
            << u"cfg.json:3:42:"_s;
        QTest::newRow("an unclosed block comment names where it starts")
            << QByteArray("{\"mcpServers\": {}\n  /* never closed\n}")
            << u"cfg.json:2:3: a /* comment is not closed"_s;
        QTest::newRow("a comma with no value before it is still an error") << QByteArray(JSON_TEXT({
            "mcpServers" : {
                "a" : {
                    "command" : "x",
                    "args" : [
                        ,
                    ]
                }
            }
        })) << u"cfg.json:1:"_s;
        QTest::newRow("a file over the size bound is refused")
            << (QByteArray(JSON_TEXT({"mcpServers" : {}})) + QByteArray(8 * 1024 * 1024, ' '))
            << u"more than a configuration file may hold"_s;
        QTest::newRow("a misspelt key suggests the right one")
            << QByteArray(JSON_TEXT({"mcpServers" : {"a" : {"comand" : "x"}}}))
            << u"unknown key \"comand\" (did you mean \"command\"?)"_s;
        QTest::newRow("args that are not strings are refused")
            << QByteArray(
                   JSON_TEXT({"mcpServers" : {"a" : {"command" : "x", "args" : [ "ok", 3 ]}}}))
            << u"\"args\" must be an array of strings"_s;
        QTest::newRow("an entry without command or url is refused")
            << QByteArray(JSON_TEXT({"mcpServers" : {"a" : {"args" : []}}}))
            << u"needs \"command\" (stdio) or \"url\" (HTTP)"_s;
        QTest::newRow("a url that is not http is refused")
            << QByteArray(JSON_TEXT({"servers" : {"a" : {"url" : "ftp://x"}}}))
            << u"must be an http or https URL"_s;
        QTest::newRow("a file without a server map says which keys it wanted")
            << QByteArray(JSON_TEXT({"mcpServer" : {}}))
            << u"no \"mcpServers\" or \"servers\" object (did you mean \"mcpServers\"?)"_s;
        QTest::newRow("an unknown type is refused")
            << QByteArray(
                   JSON_TEXT({"servers" : {"a" : {"type" : "websocket", "url" : "http://x"}}}))
            << u"unknown type \"websocket\""_s;
        QTest::newRow("env values must be strings")
            << QByteArray(JSON_TEXT({"mcpServers" : {"a" : {"command" : "x", "env" : {"N" : 1}}}}))
            << u"env \"N\" must be a string"_s;
    }
    void rejectsBadFilesWithAClearMessage()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        const auto r = ServerConfigFile::parse(json, u"cfg.json"_s);
        QVERIFY(r.error.isError());
        QVERIFY2(r.error.message().contains(expected), qPrintable(r.error.message()));
        QVERIFY(r.servers.isEmpty());
    }

    void readsClaudeDesktopStdioEntries()
    {
        const auto r = ServerConfigFile::parse(
            JSON_TEXT({
                "mcpServers" : {
                    "everything" : {
                        "command" : "npx",
                        "args" : [ "-y", "@modelcontextprotocol/server-everything" ],
                        "env" : {"TOKEN" : "abc"},
                        "cwd" : "/tmp"
                    }
                }
            }),
            u"c"_s);
        QVERIFY(!r.error.isError());
        const ServerConfig c = r.servers.value(u"everything"_s);
        QCOMPARE(c.route, ServerConfig::Route::Stdio);
        QCOMPARE(c.program, u"npx"_s);
        QCOMPARE(c.arguments, (QStringList{u"-y"_s, u"@modelcontextprotocol/server-everything"_s}));
        QCOMPARE(c.environment.value(u"TOKEN"_s), u"abc"_s);
        QCOMPARE(c.workingDirectory, u"/tmp"_s);
        QCOMPARE(c.displayCommand(), u"TOKEN=abc npx -y @modelcontextprotocol/server-everything"_s);
    }

    void readsVsCodeHttpAndSseEntries()
    {
        const auto r = ServerConfigFile::parse(
            JSON_TEXT({
                "servers" : {
                    "h" : {
                        "type" : "http",
                        "url" : "http://127.0.0.1:3001/mcp",
                        "headers" : {"Authorization" : "Bearer x"}
                    },
                    "s" : {"type" : "sse", "url" : "http://127.0.0.1:3001/sse"}
                }
            }),
            u"c"_s);
        QVERIFY2(!r.error.isError(), qPrintable(r.error.message()));
        QCOMPARE(r.servers.value(u"h"_s).route, ServerConfig::Route::StreamableHttp);
        QCOMPARE(r.servers.value(u"h"_s).headers.value(0).first, QByteArray("Authorization"));
        QCOMPARE(r.servers.value(u"s"_s).route, ServerConfig::Route::LegacySse);
    }

    void readsJsoncAsVsCodeWritesIt_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("a line comment before a key is ignored")
            << QByteArray("{\"servers\": {\n  // the demo\n  \"a\": {\"command\": \"x\", \"args\": "
                          "[\"1\"]}}}")
            << QStringList{u"1"_s};
        QTest::newRow("a block comment across lines is ignored")
            << QByteArray("{\"servers\": {/* one\n two */ \"a\": {\"command\": \"x\", \"args\": "
                          "[\"1\"]}}}")
            << QStringList{u"1"_s};
        QTest::newRow("a comment at the end of the file is ignored")
            << QByteArray("{\"servers\": {\"a\": {\"command\": \"x\", \"args\": [\"1\"]}}} // end")
            << QStringList{u"1"_s};
        QTest::newRow("trailing commas in arrays and objects are accepted")
            << QByteArray(
                   "{\"servers\": {\"a\": {\"command\": \"x\", \"args\": [\"1\", \"2\",],},},}")
            << QStringList{u"1"_s, u"2"_s};
        QTest::newRow("a trailing comma followed by a comment is accepted")
            << QByteArray(
                   "{\"servers\": {\"a\": {\"command\": \"x\", \"args\": [\"1\", // last\n ]}}}")
            << QStringList{u"1"_s};
        QTest::newRow("a string holding // survives")
            << QByteArray(
                   "{\"servers\": {\"a\": {\"command\": \"x\", \"args\": [\"http://h//p\"]}}}")
            << QStringList{u"http://h//p"_s};
        QTest::newRow("a string holding /* */ survives")
            << QByteArray("{\"servers\": {\"a\": {\"command\": \"x\", \"args\": [\"/* not a "
                          "comment */\"]}}}")
            << QStringList{u"/* not a comment */"_s};
        QTest::newRow("a string holding ,] and ,} survives")
            << QByteArray(
                   "{\"servers\": {\"a\": {\"command\": \"x\", \"args\": [\"a,]\", \"b,}\"]}}}")
            << QStringList{u"a,]"_s, u"b,}"_s};
        QTest::newRow("an escaped quote does not end a string")
            << QByteArray("{\"servers\": {\"a\": {\"command\": \"x\", \"args\": [\"q\\\" // still "
                          "text\"]}}}")
            << QStringList{u"q\" // still text"_s};
        QTest::newRow("a string ending in a backslash ends there")
            << QByteArray(
                   "{\"servers\": {\"a\": {\"command\": \"x\", \"args\": [\"c:\\\\\", \"//x\"]}}}")
            << QStringList{u"c:\\"_s, u"//x"_s};
    }
    void readsJsoncAsVsCodeWritesIt()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, arguments);
        const auto r = ServerConfigFile::parse(json, u"mcp.json"_s);
        QVERIFY2(!r.error.isError(), qPrintable(r.error.message()));
        QCOMPARE(r.servers.value(u"a"_s).arguments, arguments);
    }

    void resolvesPlaceholders_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("${env:VAR} is the environment variable (VS Code)")
            << u"${env:TOKEN}"_s << u"t0k"_s;
        QTest::newRow("${VAR} is the environment variable (Claude Code)")
            << u"${TOKEN}"_s << u"t0k"_s;
        QTest::newRow("${VAR:-default} is VAR when it is set") << u"${TOKEN:-none}"_s << u"t0k"_s;
        QTest::newRow("${VAR:-default} is the default when VAR is unset")
            << u"${MISSING:-none}"_s << u"none"_s;
        QTest::newRow("${VAR:-default} is the default when VAR is empty, as in sh")
            << u"${EMPTY:-none}"_s << u"none"_s;
        QTest::newRow("an empty default is allowed") << u"a${MISSING:-}b"_s << u"ab"_s;
        QTest::newRow("a default may hold a placeholder")
            << u"${MISSING:-${env:TOKEN}}"_s << u"t0k"_s;
        QTest::newRow("${env:VAR} set but empty is empty") << u"[${env:EMPTY}]"_s << u"[]"_s;
        QTest::newRow("${workspaceFolder} is the workspace folder")
            << u"${workspaceFolder}/data"_s << u"/home/u/proj/data"_s;
        QTest::newRow("${workspaceFolderBasename} is its last part")
            << u"${workspaceFolderBasename}"_s << u"proj"_s;
        QTest::newRow("${pathSeparator} and ${/} are the separator")
            << u"a${pathSeparator}b${/}c"_s << u"a/b/c"_s;
        QTest::newRow("several placeholders in one value, text kept around them")
            << u"--db=${workspaceFolder}/${env:TOKEN}.db"_s << u"--db=/home/u/proj/t0k.db"_s;
        QTest::newRow("a substituted value is not scanned again")
            << u"${env:NESTED}"_s << u"${env:TOKEN}"_s;
        QTest::newRow("a lone $ or { is plain text") << u"$HOME {x} $"_s << u"$HOME {x} $"_s;
    }
    void resolvesPlaceholders()
    {
        QFETCH(QString, value);
        QFETCH(QString, expected);
        ServerConfigFile::Options o;
        o.environment = fakeEnvironment();
        o.workspaceFolder = u"/home/u/proj"_s;
        const QByteArray json =
            QJsonDocument(
                QJsonObject{{"servers"_L1,
                             QJsonObject{{"a"_L1, QJsonObject{{"command"_L1, "x"_L1},
                                                              {"args"_L1, QJsonArray{value}}}}}}})
                .toJson();
        const auto r = ServerConfigFile::parse(json, u"mcp.json"_s, o);
        QVERIFY2(!r.error.isError(), qPrintable(r.error.message()));
        QVERIFY2(r.unresolved.isEmpty(), qPrintable(r.unresolved.value(u"a"_s).message()));
        QCOMPARE(r.servers.value(u"a"_s).arguments, QStringList{expected});
    }

    void resolvesPlaceholdersInEveryFieldThatReachesAProcessOrAServer()
    {
        ServerConfigFile::Options o;
        o.environment = fakeEnvironment();
        o.workspaceFolder = u"/w"_s;
        o.inputProvider = [](const ConfigInput &input) -> std::optional<QString> {
            return u"typed-"_s + input.id;
        };
        const auto r = ServerConfigFile::parse(
            JSON_TEXT({
                "inputs" : [ {"type" : "promptString", "id" : "key", "password" : true} ],
                "servers" : {
                    "s" : {
                        "command" : "${workspaceFolder}/bin/${env:TOKEN}",
                        "args" : ["${TOKEN}"],
                        "cwd" : "${workspaceFolder}",
                        "env" : {"MEMFILE" : "${env:TOKEN}.json", "API_KEY" : "${input:key}"}
                    },
                    "h" : {
                        "type" : "http",
                        "url" : "http://127.0.0.1:${PORT:-3001}/${env:TOKEN}",
                        "headers" : {"Authorization" : "Bearer ${input:key}"}
                    }
                }
            }),
            u"mcp.json"_s, o);
        QVERIFY2(!r.error.isError(), qPrintable(r.error.message()));
        QVERIFY(r.unresolved.isEmpty());
        const ServerConfig s = r.servers.value(u"s"_s);
        QCOMPARE(s.program, u"/w/bin/t0k"_s);
        QCOMPARE(s.arguments, QStringList{u"t0k"_s});
        QCOMPARE(s.workingDirectory, u"/w"_s);
        QCOMPARE(s.environment.value(u"MEMFILE"_s), u"t0k.json"_s);
        QCOMPARE(s.environment.value(u"API_KEY"_s), u"typed-key"_s);
        const ServerConfig h = r.servers.value(u"h"_s);
        QCOMPARE(h.url, QUrl(u"http://127.0.0.1:3001/t0k"_s));
        QCOMPARE(h.headers.value(0).second, QByteArray("Bearer typed-key"));
    }

    void anUnresolvedPlaceholderIsAnErrorNamingIt_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("an unset ${env:VAR} is named")
            << u"${env:MEMFILE}"_s << u"args\"[0]: ${env:MEMFILE} is not set"_s;
        QTest::newRow("an unset ${VAR} without a default is named")
            << u"x${MEMFILE}"_s << u"${MEMFILE} is not set"_s;
        QTest::newRow("an unset variable inside a default is named")
            << u"${A:-${MEMFILE}}"_s << u"${MEMFILE} is not set"_s;
        QTest::newRow("${input:ID} without anyone to ask is named")
            << u"Bearer ${input:api-key}"_s
            << u"${input:api-key} needs a value typed in by the user"_s;
        QTest::newRow("an unclosed ${ is refused") << u"${env:TOKEN"_s << u"is not closed"_s;
        QTest::newRow("a VS Code form Sonde cannot resolve is refused")
            << u"${command:pick}"_s << u"${command:pick} is not a placeholder Sonde knows"_s;
        QTest::newRow("${env:} names no variable")
            << u"${env:}"_s << u"${env:} names no variable"_s;
        QTest::newRow("${workspaceFolder} of a config not read from a file is refused")
            << u"${workspaceFolder}"_s << u"${workspaceFolder} is unknown"_s;
    }
    void anUnresolvedPlaceholderIsAnErrorNamingIt()
    {
        QFETCH(QString, value);
        QFETCH(QString, expected);
        ServerConfigFile::Options o;
        o.environment = fakeEnvironment();
        const QByteArray json =
            QJsonDocument(
                QJsonObject{{"mcpServers"_L1,
                             QJsonObject{{"a"_L1, QJsonObject{{"command"_L1, "x"_L1},
                                                              {"args"_L1, QJsonArray{value}}}},
                                         {"ok"_L1, QJsonObject{{"command"_L1, "y"_L1}}}}}})
                .toJson();
        const auto r = ServerConfigFile::parse(json, u"cfg.json"_s, o);
        // Only the entry that cannot be resolved is left out; the file stays usable.
        QVERIFY2(!r.error.isError(), qPrintable(r.error.message()));
        QVERIFY(!r.servers.contains(u"a"_s));
        QVERIFY(r.servers.contains(u"ok"_s));
        const QString message = r.unresolved.value(u"a"_s).message();
        QVERIFY2(message.startsWith(u"cfg.json: server \"a\": "_s), qPrintable(message));
        QVERIFY2(message.contains(expected), qPrintable(message));
    }

    void anInputIsAskedForOnceWithItsDeclaration()
    {
        QList<ConfigInput> asked;
        ServerConfigFile::Options o;
        o.inputProvider = [&asked](const ConfigInput &input) -> std::optional<QString> {
            asked.append(input);
            return u"secret"_s;
        };
        const auto r = ServerConfigFile::parse(
            JSON_TEXT({
                "inputs" : [
                    {
                        "type" : "promptString",
                        "id" : "api-key",
                        "description" : "GitHub token",
                        "password" : true
                    },
                    {"type" : "promptString", "id" : "name"}
                ],
                "servers" : {
                    "a" : {"command" : "x", "env" : {"K" : "${input:api-key}"}},
                    "b" : {"command" : "y", "args" : [ "${input:api-key}", "${input:name}" ]}
                }
            }),
            u"mcp.json"_s, o);
        QVERIFY(r.unresolved.isEmpty());
        QCOMPARE(asked.size(), 2);
        QCOMPARE(asked[0].id, u"api-key"_s);
        QCOMPARE(asked[0].description, u"GitHub token"_s);
        QVERIFY(asked[0].password);
        QCOMPARE(asked[1].id, u"name"_s);
        QVERIFY(!asked[1].password);
        QCOMPARE(r.servers.value(u"b"_s).arguments, (QStringList{u"secret"_s, u"secret"_s}));
        QVERIFY(r.inputs.value(u"api-key"_s).password);
    }

    void aDeclinedInputLeavesItsServerOut()
    {
        int asked = 0;
        ServerConfigFile::Options o;
        o.inputProvider = [&asked](const ConfigInput &) -> std::optional<QString> {
            ++asked;
            return std::nullopt;
        };
        const auto r = ServerConfigFile::parse(
            JSON_TEXT({
                "servers" : {
                    "a" : {
                        "type" : "http",
                        "url" : "http://h/mcp",
                        "headers" :
                            {"Authorization" : "Bearer ${input:key}", "X-Other" : "${input:other}"}
                    }
                }
            }),
            u"mcp.json"_s, o);
        QVERIFY(r.servers.isEmpty());
        QVERIFY(r.unresolved.value(u"a"_s).message().contains(
            u"header \"Authorization\": ${input:key} was not given"_s));
        QCOMPARE(asked, 1); // the server cannot start: nothing more is asked for it
    }

    void theProcessEnvironmentIsTheDefault()
    {
        qputenv("SONDE_TST_SERVERCONFIG", "from-env");
        const auto r = ServerConfigFile::parse(
            JSON_TEXT({
                "servers" : {"a" : {"command" : "x", "args" : ["${env:SONDE_TST_SERVERCONFIG}"]}}
            }),
            u"c"_s);
        qunsetenv("SONDE_TST_SERVERCONFIG");
        QCOMPARE(r.servers.value(u"a"_s).arguments, QStringList{u"from-env"_s});
    }

    void savedWorkspacesAreReadWithoutResolving()
    {
        ServerConfigFile::Options o;
        o.resolvePlaceholders = false;
        const auto r = ServerConfigFile::parse(
            JSON_TEXT({"mcpServers" : {"a" : {"command" : "x", "args" : ["${input:k}"]}}}), u"c"_s,
            o);
        QCOMPARE(r.servers.value(u"a"_s).arguments, QStringList{u"${input:k}"_s});
    }

    void workspaceFolderIsTheParentOfDotVscodeElseTheFilesFolder_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("folder");
        QTest::newRow("a VS Code workspace's .vscode/mcp.json")
            << u"/home/u/proj/.vscode/mcp.json"_s << u"/home/u/proj"_s;
        QTest::newRow("a Claude Code .mcp.json at the project's root")
            << u"/home/u/proj/.mcp.json"_s << u"/home/u/proj"_s;
        QTest::newRow("any other file") << u"/etc/sonde/servers.json"_s << u"/etc/sonde"_s;
    }
    void workspaceFolderIsTheParentOfDotVscodeElseTheFilesFolder()
    {
        QFETCH(QString, path);
        QFETCH(QString, folder);
        QCOMPARE(ServerConfigFile::workspaceFolderFor(path), folder);
    }

    void loadResolvesWorkspaceFolderFromTheFilesPath()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(u".vscode"_s));
        QFile f(dir.filePath(u".vscode/mcp.json"_s));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"servers\": {\"a\": {\"command\": \"x\", \"cwd\": \"${workspaceFolder}\",}}}");
        f.close();
        const auto r = ServerConfigFile::load(f.fileName());
        QVERIFY2(!r.error.isError(), qPrintable(r.error.message()));
        QCOMPARE(r.servers.value(u"a"_s).workingDirectory, QDir(dir.path()).absolutePath());
    }

    void eraNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("era"); // -1: refused
        QTest::newRow("auto probes") << u"auto"_s << int(ServerConfig::Era::Auto);
        QTest::newRow("initialize is the handshake")
            << u"initialize"_s << int(ServerConfig::Era::Initialize);
        QTest::newRow("2026-07-28 is that revision")
            << u"2026-07-28"_s << int(ServerConfig::Era::Rev20260728);
        QTest::newRow("the old legacy is still read")
            << u"legacy"_s << int(ServerConfig::Era::Initialize);
        QTest::newRow("the old modern is still read")
            << u"modern"_s << int(ServerConfig::Era::Rev20260728);
        QTest::newRow("an empty name is refused") << QString() << -1;
        QTest::newRow("another date is refused") << u"2026-12-15"_s << -1;
    }

    void eraNames()
    {
        QFETCH(QString, name);
        QFETCH(int, era);
        const std::optional<ServerConfig::Era> e = ServerConfig::eraFromName(name);
        QCOMPARE(e ? int(*e) : -1, era);
        // Written back under its new name only.
        if (e)
            QCOMPARE(ServerConfig::eraFromName(ServerConfig::eraName(*e)), e);
        if (e && *e != ServerConfig::Era::Auto)
            QVERIFY(ServerConfig::eraName(*e) != u"legacy"_s &&
                    ServerConfig::eraName(*e) != u"modern"_s);
    }

    void quotesArgumentsForDisplay()
    {
        ServerConfig c;
        c.program = u"/usr/bin/my server"_s;
        c.arguments = {u"it's"_s, u"plain"_s};
        QCOMPARE(c.displayCommand(), u"'/usr/bin/my server' 'it'\\''s' plain"_s);
    }
};

QTEST_APPLESS_MAIN(TestServerConfig)
#include "tst_serverconfig.moc"
