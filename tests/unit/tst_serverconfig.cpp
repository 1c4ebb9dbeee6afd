// SPDX-License-Identifier: MIT
#include "config/serverconfig.h"

#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

// JSON test data without raw strings (moc cannot read raw string literals).
#define JSON_TEXT(...) #__VA_ARGS__

class TestServerConfig : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rejectsBadFilesWithAClearMessage_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("a syntax error names line and column")
            << QByteArray("{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\",}\n  }\n}") << u"cfg.json:3:"_s;
        QTest::newRow("a misspelt key suggests the right one")
            << QByteArray(JSON_TEXT({"mcpServers":{"a":{"comand":"x"}}})) << u"unknown key \"comand\" (did you mean \"command\"?)"_s;
        QTest::newRow("args that are not strings are refused")
            << QByteArray(JSON_TEXT({"mcpServers":{"a":{"command":"x","args":["ok",3]}}})) << u"\"args\" must be an array of strings"_s;
        QTest::newRow("an entry without command or url is refused")
            << QByteArray(JSON_TEXT({"mcpServers":{"a":{"args":[]}}})) << u"needs \"command\" (stdio) or \"url\" (HTTP)"_s;
        QTest::newRow("a url that is not http is refused")
            << QByteArray(JSON_TEXT({"servers":{"a":{"url":"ftp://x"}}})) << u"must be an http or https URL"_s;
        QTest::newRow("a file without a server map says which keys it wanted")
            << QByteArray(JSON_TEXT({"mcpServer":{}})) << u"no \"mcpServers\" or \"servers\" object (did you mean \"mcpServers\"?)"_s;
        QTest::newRow("an unknown type is refused")
            << QByteArray(JSON_TEXT({"servers":{"a":{"type":"websocket","url":"http://x"}}})) << u"unknown type \"websocket\""_s;
        QTest::newRow("env values must be strings")
            << QByteArray(JSON_TEXT({"mcpServers":{"a":{"command":"x","env":{"N":1}}}})) << u"env \"N\" must be a string"_s;
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
        const auto r = ServerConfigFile::parse(JSON_TEXT({"mcpServers":{"everything":{"command":"npx","args":["-y","@modelcontextprotocol/server-everything"],"env":{"TOKEN":"abc"},"cwd":"/tmp"}}}), u"c"_s);
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
        const auto r = ServerConfigFile::parse(JSON_TEXT({"servers":{"h":{"type":"http","url":"http://127.0.0.1:3001/mcp","headers":{"Authorization":"Bearer x"}},"s":{"type":"sse","url":"http://127.0.0.1:3001/sse"}}}), u"c"_s);
        QVERIFY2(!r.error.isError(), qPrintable(r.error.message()));
        QCOMPARE(r.servers.value(u"h"_s).route, ServerConfig::Route::StreamableHttp);
        QCOMPARE(r.servers.value(u"h"_s).headers.value(0).first, QByteArray("Authorization"));
        QCOMPARE(r.servers.value(u"s"_s).route, ServerConfig::Route::LegacySse);
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
