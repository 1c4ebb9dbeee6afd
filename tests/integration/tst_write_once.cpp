// SPDX-License-Identifier: MIT
// A write is sent once, whatever happens to the exchanges around it (docs/recovery.md §1):
// a resumption GET refused by a restarting server, answered 404 or 400 for the old session,
// answered HTML, or yielding nothing; a stream with no event ids; the GET stream refused for
// the session; a reconnect by hand whose DELETE fails; the 2026-07-28 listen stream dropping.
// Each row runs the real sonde-cli, with a write in flight, and counts the write's POSTs on
// the server's side of the wire (both processes, when the server restarts): always 1. Servers
// with and without SSE event ids, both eras; the demo server killed and started again as a
// file watcher would.
#include "clifixtures.h"
#include "scriptedhttpserver.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace Qt::StringLiterals;
using namespace SondeTest;

namespace {

using Request = ScriptedHttpServer::Request;

// The head of an SSE answer: the body follows event by event, the connection stays open.
const QByteArray SseHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n";

QByteArray sseEvent(const QJsonObject &message, const QByteArray &id = {})
{
    QByteArray e = "event: message\n";
    if (!id.isEmpty())
        e += "id: " + id + '\n';
    return e + "data: " + QJsonDocument(message).toJson(QJsonDocument::Compact) + "\n\n";
}

QJsonObject progress(const QJsonObject &call)
{
    const QJsonValue token =
        call.value("params"_L1).toObject().value("_meta"_L1).toObject().value("progressToken"_L1);
    return {{"jsonrpc"_L1, u"2.0"_s},
            {"method"_L1, u"notifications/progress"_s},
            {"params"_L1, QJsonObject{{"progressToken"_L1, token}, {"progress"_L1, 1}}}};
}

QJsonObject result(const QJsonValue &id, const QString &text, bool modern)
{
    QJsonObject r = ScriptedHttpServer::textResult(text);
    if (modern)
        r.insert("resultType"_L1, u"complete"_s);
    return {{"jsonrpc"_L1, u"2.0"_s}, {"id"_L1, id}, {"result"_L1, r}};
}

QByteArray jsonError(int status, const QByteArray &message)
{
    return ScriptedHttpServer::response(status, "application/json",
                                        R"({"jsonrpc":"2.0","error":{"code":-32000,"message":")" +
                                            message + R"("},"id":null})");
}

QByteArray step(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QByteArray callStep(const QString &tool, bool async = false)
{
    QJsonObject o{{"op"_L1, u"call"_s}, {"tool"_L1, tool}, {"args"_L1, QJsonObject{}}};
    if (async)
        o.insert("async"_L1, true);
    return step(o);
}

Run execOn(const QString &url, const QList<QByteArray> &steps, const QStringList &extra)
{
    QByteArray input;
    for (const QByteArray &s : steps)
        input += s + '\n';
    Run r = cli(QStringList{u"--url"_s, url, u"--quiet"_s} + extra + QStringList{u"exec"_s}, input);
    r.lines = jsonLines(r.out);
    return r;
}

QJsonObject answerOfStep(const Run &r, int n)
{
    for (const QJsonObject &l : r.lines)
        if (l.value("step"_L1).toInt() == n)
            return l;
    return {};
}

} // namespace

class TestWriteOnce : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The server goes away under the write after its SSE answer began, and comes back on the
    // same port: before the resumption (which then meets a server that does not know the
    // session) or after it (the resumption is refused at connect). Rows without event ids
    // have nothing to resume; rows in the 2026-07-28 era never resume.
    void aWriteIsSentOnceWhenTheServerRestartsUnderIt_data()
    {
        QTest::addColumn<bool>("modern");
        QTest::addColumn<bool>("eventIds");
        QTest::addColumn<int>("backAfterMs");
        QTest::addColumn<QByteArray>("resumeAnswer"); // the restarted server's answer to it
        QTest::addColumn<QString>("rule");
        QTest::newRow("event ids, back after the resumption: it is refused at connect")
            << false << true << 1200 << QByteArray() << u"transport-closed"_s;
        QTest::newRow("event ids, back before the resumption, which gets 404 for the session")
            << false << true << 80 << jsonError(404, "Session not found") << u"transport-closed"_s;
        QTest::newRow("event ids, back before the resumption, which gets the SDK servers' 400")
            << false << true << 80 << jsonError(400, "Bad Request: No valid session ID provided")
            << u"transport-closed"_s;
        QTest::newRow("no event ids: nothing to resume")
            << false << false << 300 << QByteArray() << u"transport-closed"_s;
        QTest::newRow("2026-07-28, event ids: a broken stream is never resumed")
            << true << true << 300 << QByteArray() << u"stream-broken"_s;
        QTest::newRow("2026-07-28, no event ids")
            << true << false << 300 << QByteArray() << u"stream-broken"_s;
    }
    void aWriteIsSentOnceWhenTheServerRestartsUnderIt()
    {
        QFETCH(bool, modern);
        QFETCH(bool, eventIds);
        QFETCH(int, backAfterMs);
        QFETCH(QByteArray, resumeAnswer);
        QFETCH(QString, rule);
        ScriptedHttpServer first;
        QVERIFY(first.listen());
        const quint16 port = first.port();
        ScriptedHttpServer second; // the same program started again, on the same port
        int resumes = 0;
        second.on(u"GET"_s, [&](const Request &r) -> QByteArray {
            if (!r.headers.contains("last-event-id:"))
                return ScriptedHttpServer::response(405, {}, {});
            ++resumes;
            return resumeAnswer;
        });
        first.on(u"tools/call"_s, [&](const Request &r) -> QByteArray {
            // The answer begins (a priming event with an id and a short retry, as the SDK
            // servers send, and a progress notification), then the process dies.
            QTimer::singleShot(100, &first, [&] { first.close(); });
            QTimer::singleShot(100 + backAfterMs, &second,
                               [&, port] { QVERIFY(second.listen(port)); });
            return SseHead + (eventIds ? QByteArray("id: e1\nretry: 300\ndata: \n\n") : "") +
                   sseEvent(progress(r.body), eventIds ? "e2" : "");
        });
        QElapsedTimer clock;
        clock.start();
        const Run r = execOn(first.url(), {callStep(u"write-thing"_s), R"({"op":"tools/list"})"},
                             {u"--era"_s, modern ? u"2026-07-28"_s : u"initialize"_s});
        QCOMPARE(r.lines.size(), 2);
        const QJsonObject answer = r.lines.first();
        QCOMPARE(first.posts(u"tools/call"_s, u"write-thing"_s) +
                     second.posts(u"tools/call"_s, u"write-thing"_s),
                 1);
        QVERIFY2(answer.value("outcome_uncertain"_L1).toBool(), r.out.constData());
        QCOMPARE(answer.value("replayed"_L1).toBool(), false);
        QCOMPARE(answer.value("rule"_L1).toString(), rule);
        if (!resumeAnswer.isEmpty())
            QCOMPARE(resumes, 1);
        // Not the request's own timeout (60 s): as soon as the resumption failed.
        QVERIFY2(clock.elapsed() < 20'000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY2(!r.lines.at(1).contains("error"_L1), r.out.constData());
    }

    // The server stays up; the write's stream breaks after the answer began, and what the
    // resumption meets decides nothing about the write.
    void aWriteIsSentOnceWhateverItsResumptionMeets_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QByteArray>("resumeAnswer");
        QTest::addColumn<int>("posts");
        const QByteArray quiet = SseHead; // headers, then nothing
        const QByteArray html = ScriptedHttpServer::response(
            502, "text/html", "<html><body><h1>502 Bad Gateway</h1></body></html>");
        QTest::newRow("a resumption that yields nothing leaves a write uncertain")
            << u"write-thing"_s << quiet << 1;
        QTest::newRow("a resumption that yields nothing sends a read again")
            << u"read-thing"_s << quiet << 2;
        QTest::newRow("a resumption answered with a proxy's HTML 502 leaves a write uncertain")
            << u"write-thing"_s << html << 1;
        QTest::newRow("a resumption answered 404 leaves a write uncertain")
            << u"write-thing"_s << jsonError(404, "Session not found") << 1;
    }
    void aWriteIsSentOnceWhateverItsResumptionMeets()
    {
        QFETCH(QString, tool);
        QFETCH(QByteArray, resumeAnswer);
        QFETCH(int, posts);
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        int calls = 0;
        server.on(u"GET"_s, [&](const Request &r) -> QByteArray {
            if (!r.headers.contains("last-event-id: e2"))
                return ScriptedHttpServer::response(405, {}, {});
            return resumeAnswer == SseHead ? SseHead : resumeAnswer;
        });
        server.on(u"tools/call"_s, [&](const Request &r) -> QByteArray {
            if (++calls > 1) // a read sent again
                return ScriptedHttpServer::jsonResult(
                    r.id, ScriptedHttpServer::textResult(u"read again"_s));
            return ScriptedHttpServer::thenClose(SseHead + "id: e1\nretry: 100\ndata: \n\n" +
                                                 sseEvent(progress(r.body), "e2"));
        });
        QElapsedTimer clock;
        clock.start();
        const Run r = execOn(server.url(), {callStep(tool)},
                             {u"--era"_s, u"initialize"_s, u"--resume-timeout"_s, u"1"_s});
        QCOMPARE(r.lines.size(), 1);
        const QJsonObject answer = r.lines.first();
        QCOMPARE(server.posts(u"tools/call"_s, tool), posts);
        if (posts == 1) {
            QVERIFY2(answer.value("outcome_uncertain"_L1).toBool(), r.out.constData());
            QCOMPARE(answer.value("rule"_L1).toString(), u"transport-closed"_s);
        } else {
            QCOMPARE(answer.value("result"_L1).toString(), u"read again"_s);
            QCOMPARE(answer.value("replayed"_L1).toBool(), true);
        }
        QVERIFY2(clock.elapsed() < 20'000, qPrintable(QString::number(clock.elapsed())));
    }

    // Exchanges that are not the write's own fail while it runs; the write gets its own
    // answer, sent once.
    void anotherExchangeFailingWhileAWriteRunsLeavesTheWriteAlone_data()
    {
        QTest::addColumn<QString>("exchange");
        QTest::newRow("the GET stream is refused for the session (the session is replaced)")
            << u"get-stream"_s;
        QTest::newRow("the 2026-07-28 subscriptions/listen stream drops") << u"listen"_s;
    }
    void anotherExchangeFailingWhileAWriteRunsLeavesTheWriteAlone()
    {
        QFETCH(QString, exchange);
        const bool modern = exchange == "listen"_L1;
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        int gets = 0;
        server.on(u"GET"_s, [&](const Request &) -> QByteArray {
            if (++gets == 1)
                return SseHead + "retry: 10\n\n";
            return jsonError(404, "Session not found");
        });
        QPointer<QTcpSocket> listen;
        server.on(u"server/discover"_s, [&](const Request &r) -> QByteArray {
            const QJsonObject discover{
                {"supportedVersions"_L1, QJsonArray{u"2026-07-28"_s}},
                {"capabilities"_L1,
                 QJsonObject{{"tools"_L1, QJsonObject{{"listChanged"_L1, true}}}}},
                {"resultType"_L1, u"complete"_s}};
            return ScriptedHttpServer::jsonResult(r.id, discover);
        });
        server.on(u"subscriptions/listen"_s, [&](const Request &) -> QByteArray {
            listen = server.currentSocket();
            return SseHead;
        });
        server.on(u"tools/call"_s, [&](const Request &r) -> QByteArray {
            QPointer<QTcpSocket> post = server.currentSocket();
            const QJsonObject call = r.body;
            QTimer::singleShot(150, &server, [&, modern] {
                if (modern && listen)
                    listen->abort(); // the listen stream breaks
                else
                    server.endGetStreams(); // reopened, it is refused: the session is gone
            });
            QTimer::singleShot(1500, &server, [post, call, modern] {
                if (post)
                    post->write(sseEvent(result(call.value("id"_L1), u"done once"_s, modern)));
            });
            return SseHead + sseEvent(progress(r.body));
        });
        const Run r = execOn(server.url(), {callStep(u"write-thing"_s)},
                             {u"--era"_s, modern ? u"2026-07-28"_s : u"initialize"_s});
        QCOMPARE(r.lines.size(), 1);
        const QJsonObject answer = r.lines.first();
        QCOMPARE(server.posts(u"tools/call"_s, u"write-thing"_s), 1);
        QCOMPARE(answer.value("result"_L1).toString(), u"done once"_s);
        QVERIFY(!answer.value("outcome_uncertain"_L1).toBool());
        QVERIFY(!answer.value("replayed"_L1).toBool());
        if (modern)
            QVERIFY2(listen.isNull() || server.posts(u"subscriptions/listen"_s) >= 1,
                     "the listen stream was opened");
        else
            QVERIFY2(gets >= 2, "the GET stream was refused for the session");
    }

    void aReconnectByHandWhoseDeleteFailsLeavesTheWriteUncertainAndSentOnce()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        server.on(u"DELETE"_s, [&](const Request &) -> QByteArray {
            return QByteArray(); // the connection drops without a byte
        });
        server.on(u"tools/call"_s, [&](const Request &) -> QByteArray {
            return SseHead + "id: e1\nretry: 100\ndata: \n\n";
        });
        const Run r = execOn(server.url(),
                             {callStep(u"write-thing"_s, true), R"({"op":"sleep","ms":300})",
                              R"({"op":"reconnect"})"},
                             {u"--era"_s, u"initialize"_s});
        QCOMPARE(r.lines.size(), 3);
        const QJsonObject write = answerOfStep(r, 1);
        QVERIFY2(write.value("outcome_uncertain"_L1).toBool(), r.out.constData());
        QCOMPARE(server.posts(u"tools/call"_s, u"write-thing"_s), 1);
        // DELETE is idempotent (RFC 9110 §9.2.2): Qt may send it again on a new connection
        // when one closes without an answer, and that is allowed; the write is not.
        QVERIFY(server.deletes() >= 1);
        QCOMPARE(answerOfStep(r, 3).value("generation"_L1).toInt(), 2);
    }

    // server-everything (SDK 1.x, an event store that replays only what it held when a GET
    // came, and that ends one resumed GET when another names an id it registered): a read
    // whose stream drops mid-call sat at 33 % for 62 s before its timeout. Now it is resumed
    // or sent again within the resumption's bound, and the standalone GET stream, whose
    // headers come at once but whose first byte only with a keepalive 15 s later, is open
    // again at its reconnect delay.
    void aReadWhoseStreamDropsOnTheReferenceServerIsAnsweredWithinTheBound()
    {
        EverythingServer everything(u"streamableHttp"_s);
        QVERIFY(everything.start());
        QTemporaryDir dir;
        const QString transcript = dir.filePath(u"t.jsonl"_s);
        const QByteArray call = step({{"op"_L1, u"call"_s},
                                      {"tool"_L1, u"trigger-long-running-operation"_s},
                                      {"args"_L1, QJsonObject{{"duration"_L1, 6}, {"steps"_L1, 3}}},
                                      {"async"_L1, true}});
        QElapsedTimer clock;
        clock.start();
        const Run r = execOn(
            everything.url(u"/mcp"_s),
            {call, R"({"op":"sleep","ms":2500})", R"({"op":"fault","kind":"drop-connection"})"},
            {u"--era"_s, u"initialize"_s, u"--read-only"_s, u"trigger-long-running-operation"_s,
             u"--resume-timeout"_s, u"1"_s, u"--transcript"_s, transcript});
        const QJsonObject answer = answerOfStep(r, 1);
        QVERIFY2(!answer.contains("error"_L1), r.out.constData());
        QVERIFY2(answer.value("result"_L1).toString().contains("Long running operation"_L1),
                 r.out.constData());
        QVERIFY2(clock.elapsed() < 20'000, qPrintable(QString::number(clock.elapsed())));
        qint64 closedAt = -1, reopenedAt = -1;
        QFile f(transcript);
        QVERIFY(f.open(QIODevice::ReadOnly));
        for (const QByteArray &line : f.readAll().split('\n')) {
            const QJsonObject l = QJsonDocument::fromJson(line).object();
            const QString event = l.value("event"_L1).toString();
            const qint64 t = qint64(l.value("t_ms"_L1).toDouble());
            if (event == "get-stream-closed"_L1 && closedAt < 0)
                closedAt = t;
            else if (event == "get-stream-open"_L1 && closedAt >= 0 && reopenedAt < 0)
                reopenedAt = t;
        }
        QVERIFY2(closedAt >= 0 && reopenedAt >= 0, "the GET stream dropped and came back");
        QVERIFY2(reopenedAt - closedAt < 3000,
                 qPrintable(u"open again %1 ms after it dropped"_s.arg(reopenedAt - closedAt)));
    }

    // The issue's own reproduction: the demo server (event ids, a state file) is killed 1 s
    // into a write of 3 s and started again on the same port 0.3 s later, as nodemon does.
    void theDemoServerKilledAndStartedAgainRunsTheWriteOnce_data()
    {
        QTest::addColumn<QString>("era");
        QTest::newRow("the initialize era: SSE event ids, resumption refused or 404")
            << u"initialize"_s;
        QTest::newRow("2026-07-28: no resumption") << u"2026-07-28"_s;
    }
    void theDemoServerKilledAndStartedAgainRunsTheWriteOnce()
    {
        QFETCH(QString, era);
        QTemporaryDir dir;
        const QString state = dir.filePath(u"state.json"_s);
        DemoHttpServer demo;
        QVERIFY(demo.start(state));
        const quint16 port = demo.port();
        QTimer::singleShot(1000, [&] { demo.kill(); });
        QTimer::singleShot(1300, [&, port] { QVERIFY(demo.start(state, port)); });
        const QByteArray write = step({{"op"_L1, u"call"_s},
                                       {"tool"_L1, u"increment-counter"_s},
                                       {"args"_L1, QJsonObject{{"delay_ms"_L1, 3000}}}});
        const Run r =
            execOn(demo.url(), {write, R"({"op":"call","tool":"get-counter"})"}, {u"--era"_s, era});
        QCOMPARE(r.lines.size(), 2);
        const QJsonObject answer = r.lines.first();
        QVERIFY2(answer.value("outcome_uncertain"_L1).toBool(), r.out.constData());
        QCOMPARE(answer.value("replayed"_L1).toBool(), false);
        // The server's own record: the write ran once.
        QCOMPARE(r.lines.at(1).value("result"_L1).toString(), u"counter = 1"_s);
    }
};

QTEST_GUILESS_MAIN(TestWriteOnce)
#include "tst_write_once.moc"
