// SPDX-License-Identifier: MIT
// sonde-cli's contract over stdio, against the pinned reference server
// (@modelcontextprotocol/server-everything) and against Sonde's own demo server.
#include "clifixtures.h"
#include "testpaths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace SondeTest;

// JSON test data without raw strings (moc cannot read raw string literals).
#define JSON_TEXT(...) #__VA_ARGS__

namespace {

QStringList serverArgs(const QString &server)
{
    if (server == "everything"_L1)
        return {u"--command"_s, u"node"_s, u"--arg"_s, QString::fromUtf8(SONDE_EVERYTHING_PATH),
                u"--arg"_s,     u"stdio"_s};
    return {u"--command"_s, QString::fromUtf8(SONDE_DEMO_SERVER_PATH)};
}

QByteArray steps(const QStringList &lines)
{
    return lines.join(u'\n').toUtf8() + '\n';
}

} // namespace

class TestCliStdio : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(
            QFile::exists(QString::fromUtf8(SONDE_EVERYTHING_PATH)),
            "server-everything is not installed: run ./dev.sh test (it runs npm ci in tests/)");
    }

    void oneShotCommands_data()
    {
        QTest::addColumn<QString>("server");
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QStringList>("mustContain");
        QTest::newRow("everything lists all its tools")
            << u"everything"_s << QStringList{u"tools"_s, u"list"_s} << 0
            << QStringList{u"\"name\": \"echo\""_s,
                           u"\"name\": \"trigger-long-running-operation\""_s,
                           u"\"name\": \"get-structured-content\""_s};
        QTest::newRow("demo lists its tools across five pages")
            << u"demo"_s << QStringList{u"tools"_s, u"list"_s} << 0
            << QStringList{u"\"pages\": 5"_s, u"\"name\": \"get-counter\""_s,
                           u"\"name\": \"admin-expire-session\""_s};
        QTest::newRow("everything echoes")
            << u"everything"_s
            << QStringList{u"tools"_s, u"call"_s, u"echo"_s, u"{\"message\":\"hi\"}"_s} << 0
            << QStringList{u"\"result\": \"Echo: hi\""_s};
        QTest::newRow("demo echoes")
            << u"demo"_s << QStringList{u"tools"_s, u"call"_s, u"echo"_s, u"{\"message\":\"hi\"}"_s}
            << 0 << QStringList{u"\"result\": \"Echo: hi\""_s};
        QTest::newRow("everything answers get-structured-content")
            << u"everything"_s
            << QStringList{u"tools"_s, u"call"_s, u"get-structured-content"_s,
                           u"{\"location\":\"Chicago\"}"_s}
            << 0 << QStringList{u"temperature"_s, u"\"generation\": 1"_s};
        // The demo returns its forecast as a sentence and as the JSON again (tools.mdx asks
        // for both): the answer says it once, in the text (tst_mcp covers a text that
        // differs, where structuredContent is kept).
        QTest::newRow("demo's structured content is said once when its text repeats it")
            << u"demo"_s
            << QStringList{u"tools"_s, u"call"_s, u"get-weather"_s, u"{\"city\":\"Oslo\"}"_s} << 0
            << QStringList{u"Oslo: 16.5 degrees, sunny"_s, u"{\\\"city\\\":\\\"Oslo\\\""_s};
        QTest::newRow("demo returns image content whole")
            << u"demo"_s << QStringList{u"tools"_s, u"call"_s, u"tiny-image"_s} << 0
            << QStringList{u"\"type\": \"image\""_s, u"\"mimeType\": \"image/png\""_s};
        QTest::newRow("everything lists resources")
            << u"everything"_s << QStringList{u"resources"_s, u"list"_s} << 0
            << QStringList{u"\"resources\""_s, u"demo://resource/static/document/"_s};
        QTest::newRow("everything reads a dynamic resource")
            << u"everything"_s
            << QStringList{u"resources"_s, u"read"_s, u"demo://resource/dynamic/text/1"_s} << 0
            << QStringList{u"Resource 1"_s};
        QTest::newRow("everything lists resource templates")
            << u"everything"_s << QStringList{u"resources"_s, u"templates"_s} << 0
            << QStringList{u"demo://resource/dynamic/text/{resourceId}"_s};
        QTest::newRow("demo lists resources across pages")
            << u"demo"_s << QStringList{u"resources"_s, u"list"_s} << 0
            << QStringList{u"\"pages\": 3"_s, u"demo://notes/10"_s};
        QTest::newRow("demo reads a note")
            << u"demo"_s << QStringList{u"resources"_s, u"read"_s, u"demo://notes/3"_s} << 0
            << QStringList{u"This is note 3."_s};
        QTest::newRow("everything lists prompts")
            << u"everything"_s << QStringList{u"prompts"_s, u"list"_s} << 0
            << QStringList{u"simple-prompt"_s, u"completable-prompt"_s};
        QTest::newRow("everything gets a prompt with arguments")
            << u"everything"_s
            << QStringList{u"prompts"_s, u"get"_s, u"args-prompt"_s, u"{\"city\":\"Paris\"}"_s} << 0
            << QStringList{u"Paris"_s};
        QTest::newRow("demo gets a prompt after two pages")
            << u"demo"_s
            << QStringList{u"prompts"_s, u"get"_s, u"greeting"_s,
                           u"{\"name\":\"Ada\",\"style\":\"pirate\"}"_s}
            << 0 << QStringList{u"Greet Ada in a pirate style."_s};
        QTest::newRow("everything answers ping")
            << u"everything"_s << QStringList{u"ping"_s} << 0 << QStringList{u"\"attempts\": 1"_s};
        QTest::newRow("info shows the negotiated version and the session")
            << u"everything"_s << QStringList{u"info"_s} << 0
            << QStringList{u"\"protocolVersion\": \"2025-11-25\""_s, u"\"state\": \"ready\""_s,
                           u"\"pid\""_s, u"Everything"_s};
        QTest::newRow("a tool's isError answer exits 1")
            << u"everything"_s
            << QStringList{u"tools"_s, u"call"_s, u"get-sum"_s, u"{\"a\":\"x\"}"_s} << 1
            << QStringList{u"\"error\""_s};
        QTest::newRow("demo's failing tool exits 1")
            << u"demo"_s << QStringList{u"tools"_s, u"call"_s, u"fail"_s} << 1
            << QStringList{u"\"error\": \"the demo tool failed: as asked\""_s};
        QTest::newRow("an unknown tool is a JSON-RPC error that exits 1")
            << u"demo"_s << QStringList{u"tools"_s, u"call"_s, u"no-such-tool"_s} << 1
            << QStringList{u"\"code\": -32602"_s, u"\"kind\": \"remote\""_s};
        QTest::newRow("arguments that are not JSON are a usage error")
            << u"demo"_s << QStringList{u"tools"_s, u"call"_s, u"echo"_s, u"{oops"_s} << 2
            << QStringList{};
    }
    void oneShotCommands()
    {
        QFETCH(QString, server);
        QFETCH(QStringList, command);
        QFETCH(int, exitCode);
        QFETCH(QStringList, mustContain);
        const Run r = cli(serverArgs(server) + QStringList{u"--quiet"_s} + command);
        QVERIFY2(
            r.exitCode == exitCode,
            qPrintable(u"exit %1, stderr: %2"_s.arg(r.exitCode).arg(QString::fromUtf8(r.err))));
        const QString out = QString::fromUtf8(r.out);
        for (const QString &s : mustContain)
            QVERIFY2(out.contains(s), qPrintable(u"missing %1 in:\n%2"_s.arg(s, out.left(3000))));
        if (exitCode == 2)
            QVERIFY(!r.err.isEmpty());
        else
            QVERIFY(QJsonDocument::fromJson(r.out).isObject());
    }

    // The GUI benchmark's servers of a thousand tools: every one is listed once (across 200
    // pages of five) and answers a call.
    void theDemoServerWithGeneratedToolsListsAndCallsEachOfThem()
    {
        auto toolNames = [](const QStringList &demoArgs) {
            const Run r = cli(serverArgs(u"demo"_s) + demoArgs +
                              QStringList{u"--quiet"_s, u"tools"_s, u"list"_s});
            QStringList names;
            if (r.exitCode != 0)
                return names;
            const QJsonArray tools =
                QJsonDocument::fromJson(r.out).object().value("tools"_L1).toArray();
            for (const QJsonValue &t : tools)
                names << t.toObject().value("name"_L1).toString();
            return names;
        };
        const QStringList builtIn = toolNames({});
        const QStringList all = toolNames({u"--arg"_s, u"--tools"_s, u"--arg"_s, u"1000"_s});
        QVERIFY(!builtIn.isEmpty());
        QCOMPARE(all.size(), builtIn.size() + 1000);
        QCOMPARE(QSet<QString>(all.begin(), all.end()).size(), all.size());
        QCOMPARE(all.mid(0, builtIn.size()), builtIn);
        QVERIFY(all.contains(u"git-action-0004"_s));
        QVERIFY(all.contains(u"billing-action-1000"_s));

        const Run call =
            cli(serverArgs(u"demo"_s) + QStringList{u"--arg"_s, u"--tools"_s, u"--arg"_s, u"1000"_s,
                                                    u"--quiet"_s, u"tools"_s, u"call"_s,
                                                    u"git-action-0004"_s, u"{\"query\":\"x\"}"_s});
        QCOMPARE(call.exitCode, 0);
        QVERIFY2(call.out.contains("git-action-0004 {\\\"query\\\":\\\"x\\\"}"),
                 call.out.constData());

        const Run bad =
            runProgram(QString::fromUtf8(SONDE_DEMO_SERVER_PATH), {u"--tools"_s, u"many"_s});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--tools wants a count"), bad.err.constData());
    }

    void execAgainstEverythingRunsEveryStepInOrderOnOneSession()
    {
        const Run r = cli(
            serverArgs(u"everything"_s) +
                QStringList{u"--quiet"_s, u"--sampling-text"_s, u"sampled!"_s, u"--elicitation"_s,
                            u"accept"_s, u"--root"_s, u"/tmp"_s, u"exec"_s, u"-"_s},
            steps({QString::fromUtf8(JSON_TEXT({
                       "op" : "call",
                       "tool" : "trigger-long-running-operation",
                       "args" : {"duration" : 1, "steps" : 3}
                   })),
                   QString::fromUtf8(JSON_TEXT({"op" : "notifications"})),
                   QString::fromUtf8(JSON_TEXT({
                       "op" : "call",
                       "tool" : "trigger-sampling-request",
                       "args" : {"prompt" : "hi"}
                   })),
                   QString::fromUtf8(
                       JSON_TEXT({"op" : "call", "tool" : "trigger-elicitation-request"})),
                   QString::fromUtf8(JSON_TEXT({
                       "op" : "complete",
                       "ref" : {"type" : "ref/prompt", "name" : "completable-prompt"},
                       "argument" : {"name" : "department", "value" : "E"}
                   })),
                   u"this step is not JSON"_s,
                   QString::fromUtf8(JSON_TEXT({"op" : "call", "tool" : "get-roots-list"})),
                   QString::fromUtf8(JSON_TEXT({"op" : "state"}))}));
        QCOMPARE(r.exitCode, 1); // one malformed step
        const QList<QJsonObject> lines = jsonLines(r.out);
        QCOMPARE(lines.size(), 8);
        for (int i = 0; i < lines.size(); ++i)
            QCOMPARE(lines[i].value("step"_L1).toInt(), i + 1);
        QVERIFY(
            lines[0].value("result"_L1).toString().contains(u"Long running operation completed"_s));
        int progress = 0;
        for (const QJsonValue &n : lines[1].value("notifications"_L1).toArray())
            if (n.toObject().value("method"_L1).toString() == "notifications/progress"_L1) {
                ++progress;
                QCOMPARE(n.toObject().value("params"_L1).toObject().value("total"_L1).toInt(), 3);
            }
        QCOMPARE(progress, 3);
        QVERIFY(lines[2].value("result"_L1).toString().contains(u"sampled!"_s));
        // Accepting with no content returns the schema's defaults.
        QVERIFY2(
            lines[3].value("result"_L1).toString().contains(u"It was a dark and stormy night."_s),
            qPrintable(lines[3].value("result"_L1).toString()));
        QCOMPARE(lines[4].value("completion"_L1).toObject().value("values"_L1).toArray(),
                 QJsonArray{u"Engineering"_s});
        QVERIFY(lines[5].value("error"_L1).toString().contains(u"not JSON"_s));
        QVERIFY(lines[5].value("op"_L1).isNull());
        QVERIFY(lines[6].value("result"_L1).toString().contains(u"file:///tmp"_s));
        QVERIFY(lines[7].value("pid"_L1).toInteger() > 0);
        QCOMPARE(lines[7].value("generation"_L1).toInt(), 1);
    }

    void execAgainstTheDemoServerCoversItsServerRequestsAndNotifications()
    {
        const Run r =
            cli(serverArgs(u"demo"_s) + QStringList{u"--quiet"_s, u"--sampling-text"_s,
                                                    u"forty-two"_s, u"--elicitation"_s, u"accept"_s,
                                                    u"--root"_s, u"file:///srv/a"_s, u"exec"_s},
                steps({QString::fromUtf8(
                           JSON_TEXT({"op" : "resources/subscribe", "uri" : "demo://counter"})),
                       QString::fromUtf8(JSON_TEXT(
                           {"op" : "call", "tool" : "increment-counter", "args" : {"by" : 2}})),
                       QString::fromUtf8(JSON_TEXT({"op" : "call", "tool" : "toggle-extra-tool"})),
                       QString::fromUtf8(JSON_TEXT({"op" : "tools/list"})),
                       QString::fromUtf8(JSON_TEXT({"op" : "notifications"})),
                       QString::fromUtf8(JSON_TEXT({"op" : "call", "tool" : "ask-user"})),
                       QString::fromUtf8(JSON_TEXT({"op" : "call", "tool" : "ask-model"})),
                       QString::fromUtf8(JSON_TEXT({"op" : "call", "tool" : "list-roots"})),
                       QString::fromUtf8(JSON_TEXT({
                           "op" : "complete",
                           "ref" : {"type" : "ref/prompt", "name" : "greeting"},
                           "argument" : {"name" : "style", "value" : "p"}
                       })),
                       QString::fromUtf8(
                           JSON_TEXT({"op" : "resources/read", "uri" : "demo://counter"}))}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QJsonObject> l = jsonLines(r.out);
        QCOMPARE(l.size(), 10);
        QCOMPARE(l[1].value("result"_L1).toString(), u"counter = 2"_s);
        QCOMPARE(l[3].value("tools"_L1).toArray().size(),
                 25); // with confirm-twice, long-job, counter-app
        QStringList methods;
        for (const QJsonValue &n : l[4].value("notifications"_L1).toArray())
            methods.append(n.toObject().value("method"_L1).toString());
        QVERIFY(methods.contains(u"notifications/resources/updated"_s));
        QVERIFY(methods.contains(u"notifications/message"_s));
        QVERIFY(methods.contains(u"notifications/tools/list_changed"_s));
        QCOMPARE(l[5].value("result"_L1).toString(),
                 u"action=accept content={\"confirm\":true,\"name\":\"Ada\"}"_s);
        QCOMPARE(l[6].value("result"_L1).toString(), u"model sonde-cli said: forty-two"_s);
        QCOMPARE(l[7].value("result"_L1).toString(), u"roots: file:///srv/a"_s);
        QCOMPARE(l[8].value("completion"_L1).toObject().value("values"_L1).toArray(),
                 QJsonArray{u"pirate"_s});
        QVERIFY(l[9].value("contents"_L1)
                    .toArray()
                    .at(0)
                    .toObject()
                    .value("text"_L1)
                    .toString()
                    .contains(u"\"counter\":2"_s));
    }

    void declinedServerRequestsAreAnsweredNotIgnored()
    {
        const Run r =
            cli(serverArgs(u"demo"_s) + QStringList{u"--quiet"_s, u"exec"_s},
                steps({QString::fromUtf8(JSON_TEXT({"op" : "call", "tool" : "ask-user"})),
                       QString::fromUtf8(JSON_TEXT({"op" : "call", "tool" : "ask-model"}))}));
        const QList<QJsonObject> l = jsonLines(r.out);
        QCOMPARE(l.size(), 2);
        QCOMPARE(l[0].value("result"_L1).toString(), u"action=decline content={}"_s);
        QVERIFY(l[1].value("error"_L1).toString().contains(u"sampling declined"_s));
    }

    void theTranscriptIsJsonLinesOfEveryMessageStderrLineAndEvent()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"t.jsonl"_s);
        const Run r =
            cli(serverArgs(u"demo"_s) + QStringList{u"--quiet"_s, u"--transcript"_s, path,
                                                    u"tools"_s, u"call"_s, u"write-stderr"_s});
        QCOMPARE(r.exitCode, 0);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QJsonObject> events = jsonLines(f.readAll());
        QVERIFY(events.size() >= 8);
        QStringList dirs, lifecycle;
        bool sentInitialize = false, gotResult = false;
        int stderrLines = 0;
        for (const QJsonObject &e : events) {
            QVERIFY(e.contains("t"_L1) && e.contains("server"_L1) && e.contains("gen"_L1));
            const QString d = e.value("dir"_L1).toString();
            dirs.append(d);
            if (d == "send"_L1 &&
                e.value("msg"_L1).toObject().value("method"_L1).toString() == "initialize"_L1)
                sentInitialize = true;
            if (d == "recv"_L1 && e.value("msg"_L1).toObject().contains("result"_L1))
                gotResult = true;
            if (d == "stderr"_L1 &&
                e.value("line"_L1).toString().startsWith("demo: stderr line"_L1))
                ++stderrLines;
            if (d == "event"_L1)
                lifecycle.append(e.value("event"_L1).toString());
        }
        QVERIFY(sentInitialize);
        QVERIFY(gotResult);
        QCOMPARE(stderrLines, 3);
        QVERIFY(lifecycle.contains(u"ready"_s));
        QVERIFY(lifecycle.contains(u"closed"_s));
    }

    void failuresBeforeAnyCallExit2WithOneLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<QString>("message");
        QTest::newRow("a program that does not exist")
            << QStringList{u"--command"_s, u"/nonexistent/server"_s, u"ping"_s} << QByteArray()
            << u"cannot connect"_s;
        QTest::newRow("a config file with a misspelt key")
            << QStringList{u"ping"_s}
            << QByteArray(JSON_TEXT({"mcpServers" : {"demo" : {"comand" : "x"}}}))
            << u"did you mean \"command\""_s;
        QTest::newRow("a config file without the named server")
            << QStringList{u"--server"_s, u"other"_s, u"ping"_s}
            << QByteArray(JSON_TEXT(
                   {"mcpServers" : {"demo" : {"command" : "x"}, "b" : {"command" : "y"}}}))
            << u"no server named \"other\""_s;
        QTest::newRow("no connection at all")
            << QStringList{u"ping"_s} << QByteArray() << u"say which server"_s;
        QTest::newRow("an unknown command") << QStringList{u"--command"_s, u"x"_s, u"dance"_s}
                                            << QByteArray() << u"unknown command"_s;
    }
    void failuresBeforeAnyCallExit2WithOneLine()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, config);
        QFETCH(QString, message);
        QTemporaryDir dir;
        if (!config.isEmpty()) {
            QFile f(dir.filePath(u"mcp.json"_s));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(config);
            f.close();
            args = QStringList{u"--config"_s, f.fileName()} + args;
        }
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    }

    void aConfigFileEntryLaunchesTheServer()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(u"claude_desktop_config.json"_s));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(
                    QJsonObject{
                        {"mcpServers"_L1,
                         QJsonObject{
                             {"demo"_L1,
                              QJsonObject{{"command"_L1, QString::fromUtf8(SONDE_DEMO_SERVER_PATH)},
                                          {"env"_L1, QJsonObject{{"DEMO_FLAG"_L1, "1"_L1}}}}}}}})
                    .toJson());
        f.close();
        const Run r = cli({u"--config"_s, f.fileName(), u"--server"_s, u"demo"_s, u"--quiet"_s,
                           u"tools"_s, u"call"_s, u"get-counter"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("counter = 0"));
    }
};

QTEST_GUILESS_MAIN(TestCliStdio)
#include "tst_cli_stdio.moc"
