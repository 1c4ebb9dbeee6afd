// SPDX-License-Identifier: MIT
// The HTTP proxy (issue 31) with real clients in its path: the official TypeScript SDK
// client, 1.x and v2, and sonde-cli itself, against server-everything and a scripted server
// that counts every POST on its own side. Each fault is injected live through the control
// socket, the client's own reaction is read from its answers, and the proxy's verdict on it
// is checked against docs/recovery.md.
#include "proxyfixtures.h"
#include "scriptedhttpserver.h"

#include <QFileInfo>
#include <QLocalSocket>
#include <QTest>

using namespace SondeTest;
using namespace Qt::StringLiterals;

namespace {
QJsonObject call(const QString &tool, const QJsonObject &args, int timeoutMs = 0)
{
    QJsonObject c{{u"do"_s, u"call"_s}, {u"tool"_s, tool}, {u"args"_s, args}};
    if (timeoutMs > 0)
        c.insert(u"timeoutMs"_s, timeoutMs);
    return c;
}
QJsonObject echo(const QString &text, int timeoutMs = 0)
{
    return call(u"echo"_s, {{u"message"_s, text}}, timeoutMs);
}
QJsonObject fault(const QString &kind, QJsonObject fields = {})
{
    fields.insert(u"op"_s, u"fault"_s);
    fields.insert(u"kind"_s, kind);
    return fields;
}
QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}
} // namespace

class TestProxyHttp : public QObject
{
    Q_OBJECT
    PrivateProxyFolders m_folders;

private Q_SLOTS:
    void initTestCase() { m_folders.apply(); }

    void aRealClientGetsTheSameAnswersThroughTheProxy_data()
    {
        QTest::addColumn<QString>("sdk");
        QTest::addColumn<QString>("mode"); // server-everything's
        QTest::addColumn<QString>("transport");
        QTest::addColumn<QString>("path");
        QTest::newRow("the 1.x SDK client over Streamable HTTP")
            << u"v1"_s << u"streamableHttp"_s << u"--http"_s << u"/mcp"_s;
        QTest::newRow("the v2 SDK client over Streamable HTTP")
            << u"v2"_s << u"streamableHttp"_s << u"--http"_s << u"/mcp"_s;
        QTest::newRow("the 1.x SDK client over legacy HTTP+SSE")
            << u"v1"_s << u"sse"_s << u"--sse"_s << u"/sse"_s;
    }
    void aRealClientGetsTheSameAnswersThroughTheProxy()
    {
        QFETCH(QString, sdk);
        QFETCH(QString, mode);
        QFETCH(QString, transport);
        QFETCH(QString, path);
        EverythingServer server(mode);
        QVERIFY(server.start());
        ProxyProcess proxy;
        QVERIFY(proxy.startHttp(server.url(path)));
        QVERIFY(proxy.url().endsWith(path));
        const QList<QJsonObject> steps{QJsonObject{{u"do"_s, u"list"_s}}, echo(u"through"_s),
                                       call(u"get-sum"_s, {{u"a"_s, 2}, {u"b"_s, 40}})};
        QList<QByteArray> answers[2];
        const QString urls[2] = {server.url(path), proxy.url()};
        for (int i = 0; i < 2; ++i) {
            LineProcess client;
            client.startSdk(sdk, transport, {urls[i]});
            QVERIFY2(client.waitForReady(), client.stderrText().constData());
            for (const QJsonObject &s : steps)
                answers[i].append(compact(client.ask(s)));
        }
        QCOMPARE(answers[1], answers[0]);
        QVERIFY2(answers[1].value(1).contains("Echo: through"), answers[1].value(1).constData());
        QVERIFY2(answers[1].value(2).contains("42"), answers[1].value(2).constData());
        // The session's requests were seen and counted (the control socket's status).
        const QJsonObject status = proxy.control({QJsonObject{{u"op"_s, u"status"_s}}}).value(0);
        QCOMPARE(status.value(u"client"_s).toString(), u"sdk-driver-"_s + sdk);
        QVERIFY(status.value(u"client_messages"_s).toInt() >= 4);
    }

    // The sessionless 2026-07-28 revision through the proxy, both transports: the v2 SDK
    // client against the v2 SDK server (tests/fixtures/v2-server.mjs, modern only), the same
    // answers as direct, a write run once per call.
    void theV2ClientAndServerSpeak2026_07_28ThroughTheProxy_data()
    {
        QTest::addColumn<bool>("http");
        QTest::newRow("over Streamable HTTP") << true;
        QTest::newRow("over stdio") << false;
    }
    void theV2ClientAndServerSpeak2026_07_28ThroughTheProxy()
    {
        QFETCH(bool, http);
        const QString node22 = QString::fromUtf8(SONDE_NODE22_PATH);
        const QString v2 = QString::fromUtf8(SONDE_V2_SERVER_PATH);
        const QList<QJsonObject> steps{QJsonObject{{u"do"_s, u"list"_s}},
                                       call(u"echo"_s, {{u"message"_s, u"modern"_s}}),
                                       call(u"add-note"_s, {{u"text"_s, u"one"_s}}),
                                       call(u"add-note"_s, {{u"text"_s, u"two"_s}})};
        QList<QByteArray> answers[2];
        for (int proxied = 0; proxied < 2; ++proxied) {
            LineProcess client;
            ProxyProcess proxy;
            QProcess server;
            if (http) {
                server.start(node22, {v2, u"--port"_s, u"0"_s});
                QVERIFY(server.waitForStarted());
                QSignalSpy ready(&server, &QProcess::readyReadStandardOutput);
                QVERIFY(ready.wait(15000));
                const QString url = QString::fromUtf8(server.readLine().trimmed());
                QVERIFY2(url.startsWith(u"http://127.0.0.1:"_s), qPrintable(url));
                if (proxied)
                    QVERIFY(proxy.startHttp(url));
                client.start(node22, {QString::fromUtf8(SONDE_SDK_DRIVER_PATH), u"--sdk"_s, u"v2"_s,
                                      u"--negotiation"_s, u"2026-07-28"_s, u"--http"_s,
                                      proxied ? proxy.url() : url});
            } else {
                QStringList command{node22, v2, u"--stdio"_s};
                if (proxied)
                    command = QStringList{QString::fromUtf8(SONDE_CLI_PATH), u"proxy"_s,
                                          u"--no-history"_s, u"--"_s} +
                              command;
                client.start(node22, QStringList{QString::fromUtf8(SONDE_SDK_DRIVER_PATH),
                                                 u"--sdk"_s, u"v2"_s, u"--negotiation"_s,
                                                 u"2026-07-28"_s, u"--stdio"_s, u"--"_s} +
                                         command);
            }
            QVERIFY2(client.waitForReady(), client.stderrText().constData());
            for (const QJsonObject &step : steps)
                answers[proxied].append(compact(client.ask(step)));
            server.kill();
            server.waitForFinished(3000);
        }
        QCOMPARE(answers[1], answers[0]);
        QVERIFY2(answers[1].value(1).contains("modern"), answers[1].value(1).constData());
        // The write ran once per call through the proxy: the server's own count says so.
        QVERIFY2(answers[1].value(3).contains("notes: 2"), answers[1].value(3).constData());
    }

    void eachFaultGetsTheClientsReactionAndItsVerdict_data()
    {
        QTest::addColumn<QString>("sdk");
        QTest::addColumn<QList<QJsonObject>>("faults");
        QTest::addColumn<int>("judged");       // which fault's verdict is checked (1-based)
        QTest::addColumn<QJsonObject>("next"); // the client's command after the faults
        QTest::addColumn<bool>("ok");          // its answer
        QTest::addColumn<QString>("answered"); // words of that answer
        QTest::addColumn<QString>("state");
        QTest::addColumn<QString>("verdict");
        using F = QList<QJsonObject>;
        QTest::newRow("the 1.x SDK client never initializes again after its session expires")
            << u"v1"_s << F{fault(u"expire-session"_s)} << 1 << echo(u"two"_s) << false
            << u"Session not found"_s << u"fail"_s << u"never initialized again"_s;
        QTest::newRow("the v2 SDK client never initializes again after its session expires")
            << u"v2"_s << F{fault(u"expire-session"_s)} << 1 << echo(u"two"_s) << false
            << u"Session not found"_s << u"fail"_s << u"never initialized again"_s;
        QTest::newRow("the 1.x SDK client resumes a cut stream with Last-Event-ID")
            << u"v1"_s << F{fault(u"cut-stream"_s)} << 1 << echo(u"two"_s) << true << u"Echo: two"_s
            << u"pass"_s << u"resumed the stream with Last-Event-ID"_s;
        QTest::newRow("the v2 SDK client resumes a cut stream with Last-Event-ID")
            << u"v2"_s << F{fault(u"cut-stream"_s)} << 1 << echo(u"two"_s) << true << u"Echo: two"_s
            << u"pass"_s << u"resumed the stream with Last-Event-ID"_s;
        QTest::newRow("the 1.x SDK client loses the answer when its resumption gets no replay")
            << u"v1"_s << F{fault(u"cut-stream"_s), fault(u"lose-resume"_s, {{u"count"_s, 5}})} << 2
            << echo(u"two"_s, 4000) << false << u"timed out"_s << u"note"_s
            << u"its resumption got no replay"_s;
        QTest::newRow("the 1.x SDK client does not send a write again after a dropped connection")
            << u"v1"_s << F{fault(u"drop-connection"_s)} << 1 << echo(u"two"_s) << false
            << u"fetch failed"_s << u"pass"_s << u"did not send the write tools/call echo again"_s;
        QTest::newRow("the 1.x SDK client reports a 503 and does not retry")
            << u"v1"_s << F{fault(u"status"_s, {{u"status"_s, 503}})} << 1 << echo(u"two"_s)
            << false << u"Service Unavailable"_s << u"note"_s << u"did not retry"_s;
        QTest::newRow("the 1.x SDK client waits out a delayed answer")
            << u"v1"_s << F{fault(u"delay"_s, {{u"ms"_s, 600}})} << 1 << echo(u"two"_s) << true
            << u"Echo: two"_s << u"note"_s << u"waited for the delayed answer"_s;
    }
    void eachFaultGetsTheClientsReactionAndItsVerdict()
    {
        QFETCH(QString, sdk);
        QFETCH(QList<QJsonObject>, faults);
        QFETCH(int, judged);
        QFETCH(QJsonObject, next);
        QFETCH(bool, ok);
        QFETCH(QString, answered);
        QFETCH(QString, state);
        QFETCH(QString, verdict);
        EverythingServer server(u"streamableHttp"_s);
        QVERIFY(server.start());
        ProxyProcess proxy;
        QVERIFY(proxy.startHttp(server.url(u"/mcp"_s)));
        LineProcess client;
        client.startSdk(sdk, u"--http"_s, {proxy.url()});
        QVERIFY2(client.waitForReady(), client.stderrText().constData());
        QCOMPARE(client.ask(echo(u"one"_s)).value(u"ok"_s).toBool(), true);
        for (const QJsonObject &f : faults)
            QVERIFY2(proxy.fault(f).value(u"ok"_s).toBool(), proxy.stderrText().constData());
        const QJsonObject answer = client.ask(next);
        QCOMPARE(answer.value(u"ok"_s).toBool(), ok);
        QVERIFY2(compact(answer).contains(answered.toUtf8()), compact(answer).constData());
        const QJsonObject v = proxy.verdict(judged);
        QCOMPARE(v.value(u"state"_s).toString(), state);
        QVERIFY2(v.value(u"summary"_s).toString().contains(verdict), compact(v).constData());
        // The verdict is also a line of the proxy's own output.
        QVERIFY(
            proxy.stderrText().contains(QByteArray("fault " + QByteArray::number(judged) + ' ')));
    }

    void aNotificationReachesTheClientThroughItsGetStream()
    {
        EverythingServer server(u"streamableHttp"_s);
        QVERIFY(server.start());
        ProxyProcess proxy;
        QVERIFY(proxy.startHttp(server.url(u"/mcp"_s)));
        LineProcess client;
        client.startSdk(u"v1"_s, u"--http"_s, {proxy.url()});
        QVERIFY(client.waitForReady());
        QVERIFY(
            client.ask(echo(u"one"_s)).value(u"ok"_s).toBool()); // its GET stream is open by now
        const QJsonObject armed = proxy.fault(
            fault(u"notify"_s, {{u"method"_s, u"notifications/resources/list_changed"_s}}));
        QCOMPARE(armed.value(u"state"_s).toString(), u"pending"_s);
        QVERIFY(client.waitForEvent([](const QJsonObject &e) {
            return e.value(u"method"_s) == "notifications/resources/list_changed"_L1;
        }));
        // The SDK client was not told to list again on its own: said as a fact, not a failure.
        QCOMPARE(proxy.verdict(1).value(u"state"_s).toString(), u"note"_s);
    }

    // Sonde's recovery meeting Sonde's faults, with the POSTs counted on the server's side.
    void sondeCliRecoversThroughTheProxyAsTheContractSays_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("answered"); // a field of sonde-cli's answer
        QTest::addColumn<int>("posts");        // of that tool, on the server
        QTest::addColumn<QString>("verdict");
        QTest::newRow("an expired session is initialized again and the refused write sent once")
            << u"expire-session"_s << u"write-thing"_s << u"\"replayed\":true"_s << 1
            << u"initialized again"_s;
        QTest::newRow("a write whose connection dropped is answered outcome uncertain")
            << u"drop-connection"_s << u"write-thing"_s << u"\"outcome_uncertain\":true"_s << 1
            << u"did not send the write"_s;
        QTest::newRow("a read whose connection dropped is retried once")
            << u"drop-connection"_s << u"read-thing"_s << u"\"replayed\":true"_s << 2
            << u"retried the read"_s;
    }
    void sondeCliRecoversThroughTheProxyAsTheContractSays()
    {
        QFETCH(QString, kind);
        QFETCH(QString, tool);
        QFETCH(QString, answered);
        QFETCH(int, posts);
        QFETCH(QString, verdict);
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        ProxyProcess proxy;
        QVERIFY(proxy.startHttp(server.url()));
        LineProcess cli;
        cli.start(QString::fromUtf8(SONDE_CLI_PATH),
                  withEra({u"--url"_s, proxy.url(), u"--quiet"_s, u"exec"_s, u"-"_s}));
        QVERIFY(cli.ask({{u"op"_s, u"tools/list"_s}}).contains(u"tools"_s));
        QVERIFY(proxy.fault(fault(kind)).value(u"ok"_s).toBool());
        const QJsonObject answer =
            cli.ask({{u"op"_s, u"call"_s}, {u"tool"_s, tool}, {u"args"_s, QJsonObject{}}});
        QVERIFY2(compact(answer).contains(answered.toUtf8()), compact(answer).constData());
        const QJsonObject v = proxy.verdict(1);
        QCOMPARE(v.value(u"state"_s).toString(), u"pass"_s);
        QVERIFY2(v.value(u"summary"_s).toString().contains(verdict), compact(v).constData());
        QCOMPARE(server.posts(u"tools/call"_s, tool), posts);
        if (kind == "expire-session"_L1)
            QCOMPARE(server.deletes(), 1); // the server's own session was ended too
    }

    void aRequestFromAForeignOriginIsRefused()
    {
        // A server in a process of its own: rawHttp blocks this thread while it reads.
        EverythingServer server(u"streamableHttp"_s);
        QVERIFY(server.start());
        ProxyProcess proxy;
        QVERIFY(proxy.startHttp(server.url(u"/mcp"_s)));
        const QByteArray body = R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{)"
                                R"("protocolVersion":"2025-11-25","capabilities":{},)"
                                R"("clientInfo":{"name":"raw","version":"1"}}})";
        auto post = [&](const QByteArray &origin) {
            return rawPost(proxy.port(), "Origin: " + origin + "\r\n", body);
        };
        const QByteArray refused = post("https://evil.example");
        QVERIFY2(refused.startsWith("HTTP/1.1 403"), refused.constData());
        QVERIFY(
            refused.contains("is not a loopback origin")); // the proxy's words, not the server's
        const QByteArray allowed = post("http://localhost:6274");
        QVERIFY2(allowed.startsWith("HTTP/1.1 200"), allowed.constData());
        QVERIFY(allowed.contains("mcp-session-id: ") || allowed.contains("Mcp-Session-Id: "));
        // Only the allowed one reached the server: the client name was seen once.
        QCOMPARE(proxy.control({QJsonObject{{u"op"_s, u"status"_s}}})
                     .value(0)
                     .value(u"client_messages"_s)
                     .toInt(),
                 1);
    }

    // The session goes into the history as a session of its own, "client → server", with
    // its faults and verdicts; the client's Authorization, cookies and session id are not
    // written anywhere.
    void theSessionIsRecordedWithoutItsSecrets()
    {
        EverythingServer server(u"streamableHttp"_s);
        QVERIFY(server.start());
        ProxyProcess proxy;
        QVERIFY(proxy.startHttp(server.url(u"/mcp"_s)));
        const QByteArray body = R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{)"
                                R"("protocolVersion":"2025-11-25","capabilities":{},)"
                                R"("clientInfo":{"name":"raw","version":"1"}}})";
        const QByteArray raw =
            rawPost(proxy.port(),
                    "Authorization: Bearer sekrit-token-4711\r\nCookie: sid=cookie-4711\r\n", body);
        QVERIFY2(raw.startsWith("HTTP/1.1 200"), raw.constData());
        LineProcess client;
        client.startSdk(u"v1"_s, u"--http"_s, {proxy.url()});
        QVERIFY(client.waitForReady());
        QJsonObject ready;
        for (const QJsonObject &e : client.events())
            if (e.value(u"event"_s) == "ready"_L1)
                ready = e;
        const QByteArray sessionId = ready.value(u"sessionId"_s).toString().toUtf8();
        QVERIFY(!sessionId.isEmpty());
        QVERIFY(client.ask(echo(u"recorded"_s)).value(u"ok"_s).toBool());
        QVERIFY(proxy.fault(fault(u"expire-session"_s)).value(u"ok"_s).toBool());
        QVERIFY(!client.ask(echo(u"refused"_s)).value(u"ok"_s).toBool());
        QCOMPARE(proxy.verdict(1).value(u"state"_s).toString(), u"fail"_s);
        QCOMPARE(proxy.stop(), 143);

        const Run sessions = runProgram(QString::fromUtf8(SONDE_CLI_PATH),
                                        {u"history"_s, u"sessions"_s, u"--db"_s, proxy.history()});
        const QByteArray named = QByteArray("\"server\":\"sdk-driver-v1 \u2192 127.0.0.1:") +
                                 QByteArray::number(server.port()) + "/mcp\"";
        QVERIFY2(sessions.out.contains(named),
                 QByteArray(sessions.out + sessions.err + proxy.stderrText()).constData());
        QTemporaryDir out;
        const QString jsonl = out.filePath(u"session.jsonl"_s);
        const Run exported = runProgram(QString::fromUtf8(SONDE_CLI_PATH),
                                        {u"history"_s, u"export"_s, u"--db"_s, proxy.history(),
                                         u"--format"_s, u"jsonl"_s, u"--out"_s, jsonl});
        QCOMPARE(exported.exitCode, 0);
        QFile f(jsonl);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray records = f.readAll();
        QVERIFY(records.contains("Echo: recorded"));
        QVERIFY(records.contains("proxy fault 1 expire-session"));
        QVERIFY(records.contains("\"event\":\"proxy-verdict\""));
        QVERIFY(records.contains("never initialized again"));
        // Nothing secret, in the export or anywhere in the history's files.
        QByteArray files = records;
        for (const QString &suffix : {u""_s, u"-wal"_s, u"-shm"_s, u"-journal"_s}) {
            QFile db(proxy.history() + suffix);
            if (db.open(QIODevice::ReadOnly))
                files += db.readAll();
        }
        QVERIFY(!files.contains("sekrit-token-4711"));
        QVERIFY(!files.contains("cookie-4711"));
        QVERIFY(!files.contains(sessionId));
    }

    // Every proxy listens in the user's runtime folder, where the window looks: a socket
    // only the user can use, which answers `watch` with who the proxy is and then every
    // event, those from before the watcher came first.
    void aRunningProxyIsFoundInTheRuntimeFolderAndFeedsAWatcher()
    {
        EverythingServer server(u"streamableHttp"_s);
        QVERIFY(server.start());
        ProxyProcess proxy;
        QVERIFY(proxy.startHttp(server.url(u"/mcp"_s)));
        LineProcess client;
        client.startSdk(u"v1"_s, u"--http"_s, {proxy.url()});
        QVERIFY(client.waitForReady());

        const QString dir = m_folders.runtime.filePath(u"sonde"_s);
        // The user's bits only: nobody else may list it or reach a socket in it.
        QCOMPARE(int(QFileInfo(dir).permissions() & 0x0777), 0x0700);
        const QString path = u"%1/proxy-%2.sock"_s.arg(dir).arg(proxy.pid());
        QVERIFY2(QFileInfo::exists(path), qPrintable(path));
        QCOMPARE(int(QFileInfo(path).permissions() & 0x0777), 0x0600);

        QLocalSocket watcher;
        watcher.connectToServer(path);
        QVERIFY(watcher.waitForConnected(5000));
        watcher.write("{\"op\":\"watch\"}\n");
        QList<QJsonObject> lines;
        auto waitFor = [&](const std::function<bool(const QJsonObject &)> &match) {
            QElapsedTimer t;
            t.start();
            while (t.elapsed() < 15000) {
                for (const QJsonObject &l : std::as_const(lines))
                    if (match(l))
                        return true;
                if (watcher.canReadLine() || watcher.waitForReadyRead(200))
                    while (watcher.canReadLine())
                        lines.append(QJsonDocument::fromJson(watcher.readLine()).object());
            }
            return false;
        };
        QVERIFY(waitFor([](const QJsonObject &l) { return l.value(u"op"_s) == "watch"_L1; }));
        const QJsonObject hello = lines.first();
        QCOMPARE(hello.value(u"transport"_s).toString(), u"http"_s);
        QCOMPARE(hello.value(u"client"_s).toString(), u"sdk-driver-v1"_s);
        QCOMPARE(hello.value(u"server"_s).toString(), u"127.0.0.1:%1/mcp"_s.arg(server.port()));
        QVERIFY(hello.value(u"faults"_s).toArray().size() >= 8);
        // The initialize from before the watcher came, then a call made while it watches.
        QVERIFY(waitFor([](const QJsonObject &l) {
            return l.value(u"frame"_s).toString().contains(u"\"initialize\""_s);
        }));
        QVERIFY(client.ask(echo(u"watched"_s)).value(u"ok"_s).toBool());
        QVERIFY(waitFor([](const QJsonObject &l) {
            return l.value(u"from"_s) == "server"_L1 &&
                   l.value(u"frame"_s).toString().contains(u"Echo: watched"_s);
        }));
        // A fault armed through the same socket shows as a fault event and then a verdict.
        watcher.write("{\"op\":\"fault\",\"kind\":\"expire-session\"}\n");
        QVERIFY(waitFor([](const QJsonObject &l) { return l.value(u"event"_s) == "fault"_L1; }));
        QVERIFY(!client.ask(echo(u"refused"_s)).value(u"ok"_s).toBool());
        QVERIFY(waitFor([](const QJsonObject &l) {
            return l.value(u"event"_s) == "verdict"_L1 && l.value(u"state"_s) == "fail"_L1;
        }));
        QCOMPARE(proxy.stop(), 143);
        QVERIFY(!QFileInfo::exists(path)); // gone with its proxy
    }

    // An OAuth-protected server (sonde-demo-server --auth): its 401 challenge reaches the
    // client unchanged, resource_metadata still naming the server's own URL (docs/proxy.md
    // says what clients make of that), and the client's bearer token reaches the server
    // (which says it did not issue it).
    void anOAuthChallengeAndABearerTokenPassUnchanged()
    {
        QProcess demo;
        demo.start(QString::fromUtf8(SONDE_DEMO_SERVER_PATH),
                   {u"--http"_s, u"127.0.0.1:0"_s, u"--auth"_s});
        QVERIFY(demo.waitForStarted());
        QSignalSpy ready(&demo, &QProcess::readyReadStandardOutput);
        QVERIFY(ready.wait(10000));
        const QString url = QString::fromUtf8(demo.readLine().trimmed());
        QVERIFY2(url.endsWith(u"/mcp"_s), qPrintable(url));
        ProxyProcess proxy;
        QVERIFY(proxy.startHttp(url));
        const QByteArray body = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
        auto post = [&](const QByteArray &extra) { return rawPost(proxy.port(), extra, body); };
        const QByteArray challenge = post({});
        QVERIFY2(challenge.startsWith("HTTP/1.1 401"), challenge.constData());
        const QByteArray metadata = "WWW-Authenticate: Bearer resource_metadata=\"" +
                                    QUrl(url).adjusted(QUrl::RemovePath).toString().toUtf8() +
                                    "/.well-known/oauth-protected-resource/mcp\"";
        QVERIFY2(challenge.contains(metadata), challenge.constData());
        const QByteArray refused = post("Authorization: Bearer not-issued-4711\r\n");
        QVERIFY2(refused.startsWith("HTTP/1.1 401"), refused.constData());
        QVERIFY(refused.contains("error=\"invalid_token\""));
        demo.kill();
        demo.waitForFinished(3000);
    }

    void aLostServerIsA502AndNeverARetry()
    {
        ProxyProcess proxy;
        QVERIFY(proxy.startHttp(u"http://127.0.0.1:%1/mcp"_s.arg(freePort())));
        const QByteArray body =
            R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"w"}})";
        const QByteArray answer =
            rawHttp(proxy.port(), "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: " +
                                      QByteArray::number(body.size()) + "\r\n\r\n" + body);
        QVERIFY2(answer.startsWith("HTTP/1.1 502"), answer.constData());
        const QJsonObject error =
            QJsonDocument::fromJson(answer.mid(answer.indexOf("\r\n\r\n") + 4)).object();
        QCOMPARE(error.value(u"id"_s).toInt(), 7);
        QVERIFY(error.value(u"error"_s)
                    .toObject()
                    .value(u"message"_s)
                    .toString()
                    .contains(u"Bad Gateway"_s));
    }

    void aCommandLineTheHttpProxyRefusesIsOneLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("said");
        QTest::newRow("an address others can reach without --allow-remote")
            << QStringList{u"--listen"_s, u"0.0.0.0:0"_s, u"--target"_s,
                           u"http://127.0.0.1:9/mcp"_s}
            << QByteArray("sonde-cli proxy: --listen 0.0.0.0: not a loopback address");
        QTest::newRow("--listen without --target")
            << QStringList{u"--listen"_s, u"127.0.0.1:0"_s}
            << QByteArray("sonde-cli: proxy: --listen and --target go together");
        QTest::newRow("a target that is not an http URL")
            << QStringList{u"--listen"_s, u"127.0.0.1:0"_s, u"--target"_s, u"ftp://x/"_s}
            << QByteArray("sonde-cli: proxy: --target ftp://x/: not an http:// or https:// URL");
        QTest::newRow("a server command for an HTTP proxy")
            << QStringList{u"--listen"_s, u"127.0.0.1:0"_s,
                           u"--target"_s, u"http://127.0.0.1:9/"_s,
                           u"--"_s,       u"x"_s}
            << QByteArray("sonde-cli: proxy: an HTTP proxy (--target) takes no server command");
        QTest::newRow("a listen address without a port")
            << QStringList{u"--listen"_s, u"127.0.0.1"_s, u"--target"_s, u"http://127.0.0.1:9/"_s}
            << QByteArray("sonde-cli: proxy: --listen 127.0.0.1: ADDRESS:PORT");
    }
    void aCommandLineTheHttpProxyRefusesIsOneLine()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, said);
        const Run r = runProgram(QString::fromUtf8(SONDE_CLI_PATH), QStringList{u"proxy"_s} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith(said) && r.err.count('\n') == 1, r.err.constData());
    }

    void aControlLineTheProxyRefusesSaysWhy_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("error");
        QTest::newRow("a stdio fault on an HTTP proxy")
            << QByteArray(R"({"op":"fault","kind":"kill-server"})")
            << u"fault \"kill-server\" does not apply to a HTTP proxy"_s;
        QTest::newRow("an unknown fault")
            << QByteArray(R"({"op":"fault","kind":"melt"})") << u"unknown fault kind \"melt\""_s;
        QTest::newRow("a status that is not an error")
            << QByteArray(R"({"op":"fault","kind":"status","status":200})")
            << u"\"status\" must be a whole number from 400 to 599"_s;
        QTest::newRow("a line that is not JSON") << QByteArray("{nope") << u"not JSON"_s;
        QTest::newRow("a verdict on no fault")
            << QByteArray(R"({"op":"verdict","id":99})") << u"no fault with id 99"_s;
        QTest::newRow("expire-session before the client has a session")
            << QByteArray(R"({"op":"fault","kind":"expire-session"})") << QString();
    }
    void aControlLineTheProxyRefusesSaysWhy()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, error);
        ProxyProcess proxy;
        QVERIFY(proxy.startHttp(u"http://127.0.0.1:9/mcp"_s));
        const Run r = runProgram(QString::fromUtf8(SONDE_CLI_PATH),
                                 {u"proxy-control"_s, proxy.socket()}, line + '\n');
        const QJsonObject answer = jsonLines(r.out).value(0);
        if (error.isEmpty()) {
            // Taken, and settled at once as a note saying why it could not act.
            QCOMPARE(r.exitCode, 0);
            QCOMPARE(answer.value(u"state"_s).toString(), u"note"_s);
            QVERIFY(answer.value(u"summary"_s).toString().contains(u"no session to expire"_s));
            return;
        }
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(answer.value(u"ok"_s).toBool(), false);
        QVERIFY2(answer.value(u"error"_s).toString().contains(error), compact(answer).constData());
    }
};

QTEST_GUILESS_MAIN(TestProxyHttp)
#include "tst_proxy_http.moc"
