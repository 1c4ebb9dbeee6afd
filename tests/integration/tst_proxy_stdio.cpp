// SPDX-License-Identifier: MIT
// sonde-cli proxy -- COMMAND (issue 31, the stdio relay): a client running the proxy in place
// of its server reads exactly what the server wrote, a line that is not JSON included, and 20
// MiB arrive whole and in order; the server's stderr passes through; the proxy exits as its
// server did; a command line without a server is refused in one line. Each stdio fault,
// injected live into the official 1.x SDK client's session with server-everything, gets the
// client's own reaction and the proxy's verdict on it.
#include "proxyfixtures.h"

#include "config/serverconfig.h"

#include <QElapsedTimer>
#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace SondeTest;
using Sonde::ServerConfig;
using Sonde::ServerConfigFile;

namespace {

QString cli()
{
    return QString::fromUtf8(SONDE_CLI_PATH);
}

} // namespace

class TestProxyStdio : public QObject
{
    Q_OBJECT
    PrivateProxyFolders m_folders;

private Q_SLOTS:
    void initTestCase() { m_folders.apply(); }

    void theClientReadsWhatTheServerWroteByteForByte()
    {
        const QByteArray input =
            R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"
            "\n"
            R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
            "\n"
            "not json at all\n"
            R"({"jsonrpc":"2.0","id":"two","method":"tools/list"})"
            "\n"
            R"({"jsonrpc":"2.0","id":3,"method":"ping"})"
            "\n";
        const QString server = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
        const Run direct = runProgram(server, {}, input);
        const Run proxied = runProgram(cli(), {u"proxy"_s, u"--"_s, server}, input);
        QCOMPARE(direct.exitCode, 0);
        QVERIFY2(direct.out.count('\n') == 4, direct.out.constData()); // 3 answers, 1 parse error
        QCOMPARE(proxied.exitCode, direct.exitCode);
        QCOMPARE(proxied.out, direct.out);
        // The server's own stderr, passed through.
        QVERIFY2(proxied.err.contains("sonde-demo-server ready on stdio"), proxied.err.constData());
    }

    // More than the proxy holds for a server that has not read yet (StdioRelay::
    // MaxPendingBytes): the client's input waits instead, and nothing is lost or reordered.
    void aServerThatEchoesTwentyMebibytesGetsBackEveryByteInOrder()
    {
        QByteArray input;
        for (int i = 0; input.size() < 20 * 1024 * 1024; ++i)
            input += R"({"jsonrpc":"2.0","method":"notifications/message","params":{"n":)" +
                     QByteArray::number(i) + "}}\n";
        const Run r = runProgram(cli(), {u"proxy"_s, u"--"_s, u"/bin/cat"_s}, input);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.size(), input.size());
        QVERIFY(r.out == input);
    }

    void theProxyExitsAsItsServerDid_data()
    {
        QTest::addColumn<QStringList>("server");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("said");
        QTest::newRow("a server that exits with 3 after a line makes the proxy exit with 3")
            << QStringList{u"/bin/sh"_s, u"-c"_s, u"echo last words; exit 3"_s} << 3
            << QByteArray();
        QTest::newRow("a server killed by SIGKILL makes the proxy exit with 137")
            << QStringList{u"/bin/sh"_s, u"-c"_s, u"echo last words; kill -9 $$"_s} << 137
            << QByteArray("sonde-cli proxy: the server was killed by signal 9");
        QTest::newRow("a program that cannot start makes the proxy exit with 127")
            << QStringList{u"/nonexistent/mcp-server"_s} << 127
            << QByteArray("sonde-cli proxy: could not start /nonexistent/mcp-server");
    }
    void theProxyExitsAsItsServerDid()
    {
        QFETCH(QStringList, server);
        QFETCH(int, status);
        QFETCH(QByteArray, said);
        const Run r = runProgram(cli(), QStringList{u"proxy"_s, u"--"_s} + server);
        QCOMPARE(r.exitCode, status);
        if (status != 127)
            QCOMPARE(r.out, QByteArray("last words\n"));
        if (said.isEmpty())
            QCOMPARE(r.err, QByteArray());
        else
            QVERIFY2(r.err.startsWith(said) && r.err.count('\n') == 1, r.err.constData());
    }

    void aCommandLineWithoutAServerIsRefusedInOneLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("said");
        QTest::newRow("no -- at all")
            << QStringList{u"proxy"_s, u"my-server"_s}
            << QByteArray("sonde-cli: proxy: the server's command goes after --");
        QTest::newRow("nothing after --")
            << QStringList{u"proxy"_s, u"--"_s}
            << QByteArray("sonde-cli: proxy: no server command after --");
        QTest::newRow("an option the proxy does not know")
            << QStringList{u"proxy"_s, u"--bogus"_s, u"--"_s, u"x"_s}
            << QByteArray("sonde-cli: proxy: unknown option --bogus");
    }
    void aCommandLineWithoutAServerIsRefusedInOneLine()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, said);
        const Run r = runProgram(cli(), args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith(said) && r.err.count('\n') == 1, r.err.constData());
    }

    void eachStdioFaultGetsTheClientsReactionAndItsVerdict_data()
    {
        QTest::addColumn<QJsonObject>("fault");
        QTest::addColumn<bool>("ok");          // the answer to the call after the fault
        QTest::addColumn<QString>("answered"); // words of that answer
        QTest::addColumn<QString>("state");
        QTest::addColumn<QString>("verdict");
        auto fault = [](const QString &kind, QJsonObject fields = {}) {
            fields.insert(u"op"_s, u"fault"_s);
            fields.insert(u"kind"_s, kind);
            return fields;
        };
        QTest::newRow("a dropped answer is timed out and cancelled by the client")
            << fault(u"drop-response"_s) << false << u"Request timed out"_s << u"pass"_s
            << u"cancelled it (notifications/cancelled)"_s;
        QTest::newRow("a corrupt answer is refused and the request cancelled")
            << fault(u"corrupt-response"_s) << false << u"Request timed out"_s << u"pass"_s
            << u"cancelled it"_s;
        QTest::newRow("a delayed answer arrives late")
            << fault(u"delay"_s, {{u"ms"_s, 300}}) << true << u"Echo: two"_s << u"note"_s
            << u"waited for the delayed answer"_s;
        QTest::newRow("a killed server closes the client's connection")
            << fault(u"kill-server"_s) << false << u"Not connected"_s << u"note"_s
            << u"the server was killed"_s;
    }
    void eachStdioFaultGetsTheClientsReactionAndItsVerdict()
    {
        QFETCH(QJsonObject, fault);
        QFETCH(bool, ok);
        QFETCH(QString, answered);
        QFETCH(QString, state);
        QFETCH(QString, verdict);
        QTemporaryDir dir;
        const QString socket = dir.filePath(u"control.sock"_s);
        LineProcess client;
        client.startSdk(u"v1"_s, u"--stdio"_s,
                        {u"--"_s, cli(), u"proxy"_s, u"--control"_s, socket, u"--verdict-window"_s,
                         u"1500"_s, u"--"_s, u"node"_s, QString::fromUtf8(SONDE_EVERYTHING_PATH),
                         u"stdio"_s});
        QVERIFY2(client.waitForReady(), client.stderrText().constData());
        auto control = [&](const QJsonObject &line) {
            const Run r = runProgram(cli(), {u"proxy-control"_s, socket},
                                     QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n');
            return jsonLines(r.out).value(0);
        };
        auto echo = [](const QString &text) {
            return QJsonObject{{u"do"_s, u"call"_s},
                               {u"tool"_s, u"echo"_s},
                               {u"args"_s, QJsonObject{{u"message"_s, text}}},
                               {u"timeoutMs"_s, 1000}};
        };
        QVERIFY(client.ask(echo(u"one"_s)).value(u"ok"_s).toBool());
        const QJsonObject armed = control(fault);
        QVERIFY2(armed.value(u"ok"_s).toBool(), QJsonDocument(armed).toJson().constData());
        // A killed server takes the proxy, and its control socket, with it: the verdict is in
        // the fault's own answer and on stderr.
        const bool killed = fault.value(u"kind"_s) == "kill-server"_L1;
        if (killed)
            QVERIFY(client.waitForEvent(
                [](const QJsonObject &e) { return e.value(u"event"_s) == "closed"_L1; }));
        const QJsonObject answer = client.ask(echo(u"two"_s));
        QCOMPARE(answer.value(u"ok"_s).toBool(), ok);
        const QByteArray text = QJsonDocument(answer).toJson(QJsonDocument::Compact);
        QVERIFY2(text.contains(answered.toUtf8()), text.constData());
        const QJsonObject v =
            killed ? armed
                   : control({{u"op"_s, u"verdict"_s}, {u"id"_s, 1}, {u"wait_ms"_s, 10000}});
        QCOMPARE(v.value(u"state"_s).toString(), state);
        QVERIFY2(v.value(u"summary"_s).toString().contains(verdict),
                 QJsonDocument(v).toJson().constData());
        if (killed)
            QVERIFY(client.stderrText().contains("sonde-cli proxy: fault 1 kill-server: note"));
        // Recorded into the window's history (here: this test's data folder), under the
        // client's name and the server's script.
        QVERIFY(client.ask({{u"do"_s, u"close"_s}}).value(u"ok"_s).toBool() || killed);
        QVERIFY(client.waitForExit());
        const Run sessions =
            runProgram(cli(), {u"history"_s, u"sessions"_s, u"--db"_s,
                               m_folders.data.filePath(u"Sonde/Sonde/history.sqlite"_s)});
        QVERIFY2(sessions.out.contains("\"server\":\"sdk-driver-v1 \u2192 node index.js\""),
                 sessions.out.constData());
    }

    void aNotificationReachesTheStdioClientBetweenLines()
    {
        QTemporaryDir dir;
        const QString socket = dir.filePath(u"control.sock"_s);
        LineProcess client;
        client.startSdk(u"v1"_s, u"--stdio"_s,
                        {u"--"_s, cli(), u"proxy"_s, u"--control"_s, socket, u"--verdict-window"_s,
                         u"1000"_s, u"--"_s, u"node"_s, QString::fromUtf8(SONDE_EVERYTHING_PATH),
                         u"stdio"_s});
        QVERIFY(client.waitForReady());
        const Run r = runProgram(
            cli(), {u"proxy-control"_s, socket},
            R"({"op":"fault","kind":"notify","method":"notifications/prompts/list_changed"})"
            "\n");
        QCOMPARE(r.exitCode, 0);
        QVERIFY(client.waitForEvent([](const QJsonObject &e) {
            return e.value(u"method"_s) == "notifications/prompts/list_changed"_L1;
        }));
        // The session goes on after it.
        QVERIFY(client.ask({{u"do"_s, u"list"_s}}).value(u"ok"_s).toBool());
        // The SDK client was not told to list the prompts again on its own: said as a fact.
        const Run v = runProgram(cli(), {u"proxy-control"_s, socket},
                                 R"({"op":"verdict","id":1,"wait_ms":10000})"
                                 "\n");
        const QJsonObject verdict = jsonLines(v.out).value(0);
        QCOMPARE(verdict.value(u"state"_s).toString(), u"note"_s);
        QVERIFY2(verdict.value(u"summary"_s).toString().contains(u"did not send prompts/list"_s),
                 v.out.constData());
    }

    // sonde-cli proxy wrap on a client's config: asks first (refused without a terminal or
    // --yes), writes a backup, and the entry it wrote runs the server through the proxy;
    // unwrap gives the file its bytes back.
    void aWrappedConfigEntryRunsTheServerThroughTheProxy()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u".mcp.json"_s);
        const QByteArray original =
            "{\n  // the project's servers\n  \"mcpServers\": {\n    \"demo\": {"
            "\"command\": \"" SONDE_DEMO_SERVER_PATH "\"},\n"
            "    \"other\": {\"command\": \"true\"}\n  }\n}\n";
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(original);
        f.close();
        const QStringList wrap{u"proxy"_s, u"wrap"_s,     u"--config"_s,
                               path,       u"--server"_s, u"demo"_s};
        const Run asked = runProgram(cli(), wrap);
        QCOMPARE(asked.exitCode, 2);
        QVERIFY2(asked.err.contains("needs --yes when no terminal can ask"), asked.err.constData());
        QVERIFY(!QFile::exists(path + u".sonde-backup"_s));

        const Run wrapped = runProgram(cli(), wrap + QStringList{u"--yes"_s});
        QCOMPARE(wrapped.exitCode, 0);
        QVERIFY(QFile::exists(path + u".sonde-backup"_s));
        const Run listed = runProgram(cli(), {u"proxy"_s, u"wrapped"_s, u"--config"_s, path});
        QVERIFY2(listed.out.startsWith("demo\twrapped\t") &&
                     listed.out.contains("other\tdirect\ttrue"),
                 listed.out.constData());

        // The client runs what the entry now says; it reaches the server through the proxy.
        ServerConfigFile::Options options;
        options.resolvePlaceholders = false;
        const ServerConfig entry = ServerConfigFile::load(path, options).servers.value(u"demo"_s);
        QCOMPARE(entry.arguments.mid(0, 2), QStringList({u"proxy"_s, u"--"_s}));
        const QByteArray initialize =
            R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"
            "\n";
        const Run served = runProgram(entry.program, entry.arguments, initialize);
        QCOMPARE(served.exitCode, 0);
        QVERIFY2(served.out.contains("\"serverInfo\""), served.out.constData());

        const Run unwrapped = runProgram(cli(), {u"proxy"_s, u"unwrap"_s, u"--config"_s, path,
                                                 u"--server"_s, u"demo"_s, u"--yes"_s});
        QCOMPARE(unwrapped.exitCode, 0);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), original);
    }

    // A client that floods faster than SQLite writes: the proxy relays every answer, keeps
    // what it holds for the history bounded, and the history says how many frames it left
    // out; what it kept plus what it says it left out is every frame, and no answer is kept
    // without its request.
    void aFloodFasterThanTheHistoryIsRecordedInPartAndSaysSo()
    {
        const int pings = 60'000;
        QByteArray input =
            R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"flood","version":"1"}}})"
            "\n";
        for (int i = 1; i <= pings; ++i)
            input +=
                "{\"jsonrpc\":\"2.0\",\"id\":" + QByteArray::number(i) + ",\"method\":\"ping\"}\n";
        QTemporaryDir dir;
        const QString db = dir.filePath(u"h.sqlite"_s);
        QElapsedTimer t;
        t.start();
        const Run r = runProgram(
            cli(),
            {u"proxy"_s, u"--history"_s, db, u"--"_s, QString::fromUtf8(SONDE_DEMO_SERVER_PATH)},
            input);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.count('\n'), pings + 1); // every answer relayed
        QVERIFY2(t.elapsed() < 60'000, qPrintable(QString::number(t.elapsed())));
        const QString jsonl = dir.filePath(u"out.jsonl"_s);
        QCOMPARE(runProgram(cli(), {u"history"_s, u"export"_s, u"--db"_s, db, u"--format"_s,
                                    u"jsonl"_s, u"--out"_s, jsonl})
                     .exitCode,
                 0);
        QFile f(jsonl);
        QVERIFY(f.open(QIODevice::ReadOnly));
        qint64 frames = 0, leftOut = 0;
        QSet<int> sent;
        int orphans = 0;
        for (const QByteArray &l : f.readAll().split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(l).object();
            if (o.value(u"event"_s) == "proxy-history-dropped"_L1) {
                leftOut += o.value(u"details"_s).toObject().value(u"events"_s).toInteger();
            } else if (o.contains(u"msg"_s)) {
                ++frames;
                const QJsonObject msg = o.value(u"msg"_s).toObject();
                if (o.value(u"dir"_s) == "send"_L1)
                    sent.insert(msg.value(u"id"_s).toInt());
                else if (!sent.contains(msg.value(u"id"_s).toInt()))
                    ++orphans;
            }
        }
        QVERIFY2(leftOut > 0, "the flood was expected to outrun the writer");
        QCOMPARE(frames + leftOut, qint64(2 * (pings + 1)));
        QCOMPARE(orphans, 0);
    }
};

QTEST_GUILESS_MAIN(TestProxyStdio)
#include "tst_proxy_stdio.moc"
