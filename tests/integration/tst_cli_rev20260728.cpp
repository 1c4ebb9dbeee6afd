// SPDX-License-Identifier: MIT
// sonde-cli in the 2026-07-28 era against the official v2 TypeScript SDK server (modern
// only: tests/fixtures/v2-server.mjs, legacy: 'reject'), over HTTP and stdio: auto picks the
// era, lists every page, calls, follows progress, hears list changes on the listen stream,
// answers an MRTR round from flags, and recovers from a broken stream the way
// docs/recovery.md §8 says: a read is sent again, a write is answered uncertain and runs once.
// auto against server-everything (2025-11-25 only) falls back to the handshake.
#include "clifixtures.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace SondeTest;
using namespace Qt::StringLiterals;

#define JSON_TEXT(...) #__VA_ARGS__

namespace {

// The v2 fixture over HTTP on a free loopback port; it prints its endpoint first.
class V2HttpServer
{
public:
    ~V2HttpServer()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(3000))
            m_process.kill();
    }
    bool start(const QStringList &extra = {})
    {
        m_process.start(u"node"_s, QStringList{QString::fromUtf8(SONDE_V2_SERVER_PATH)} + extra);
        if (!m_process.waitForStarted(10000) || !m_process.waitForReadyRead(15000))
            return false;
        m_url = QString::fromUtf8(m_process.readLine().trimmed());
        return m_url.startsWith("http://127.0.0.1:"_L1);
    }
    QString url() const { return m_url; }

private:
    QProcess m_process;
    QString m_url;
};

QStringList stdioConnection(const QStringList &extra = {})
{
    QStringList a{u"--command"_s, u"node"_s,   u"--arg"_s, QString::fromUtf8(SONDE_V2_SERVER_PATH),
                  u"--arg"_s,     u"--stdio"_s};
    for (const QString &e : extra)
        a << u"--arg"_s << e;
    return a;
}

// This suite is about what auto decides: it says so, rather than take the fixtures' legacy.
Run cliAuto(const QStringList &args, const QByteArray &input = {})
{
    return cli(args.contains(u"--era"_s) ? args : QStringList{u"--era"_s, u"auto"_s} + args, input);
}

QByteArray steps(const QStringList &lines)
{
    return lines.join(u'\n').toUtf8() + '\n';
}

QList<QJsonObject> transcriptLines(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return jsonLines(f.readAll());
}

} // namespace

class TestCliRev20260728 : public QObject
{
    Q_OBJECT
private:
    // Both transports, the same expectations.
    void transports()
    {
        QTest::addColumn<bool>("http");
        QTest::newRow("over HTTP") << true;
        QTest::newRow("over stdio") << false;
    }
    QStringList connection(bool http, V2HttpServer &server, const QStringList &extra = {})
    {
        if (!http)
            return stdioConnection(extra);
        if (!server.start(extra))
            return {};
        return {u"--url"_s, server.url()};
    }

    // The demo server over stdio, or over HTTP on `server`; empty when it did not start.
    static QStringList demoConnection(bool http, DemoHttpServer &server)
    {
        if (!http)
            return {u"--command"_s, QString::fromUtf8(SONDE_DEMO_SERVER_PATH)};
        if (!server.start())
            return {};
        return {u"--url"_s, server.url()};
    }

private Q_SLOTS:
    void autoFindsTheModernEraAndListsEveryPage_data() { transports(); }
    void autoFindsTheModernEraAndListsEveryPage()
    {
        QFETCH(bool, http);
        V2HttpServer server;
        const QStringList c = connection(http, server, {u"--page-size"_s, u"2"_s});
        QVERIFY(!c.isEmpty());
        const Run info = cliAuto(c + QStringList{u"info"_s});
        QVERIFY2(info.exitCode == 0, info.err.constData());
        const QJsonObject i = QJsonDocument::fromJson(info.out).object();
        QCOMPARE(i.value("protocolVersion"_L1).toString(), u"2026-07-28"_s);
        const QJsonObject session = i.value("session"_L1).toObject();
        QCOMPARE(session.value("era"_L1).toString(), u"2026-07-28"_s);
        QVERIFY(session.value("session_id"_L1).isNull());
        QCOMPARE(i.value("serverInfo"_L1).toObject().value("name"_L1).toString(),
                 u"sonde-v2-fixture"_s);
        const Run list = cliAuto(c + QStringList{u"tools"_s, u"list"_s});
        QVERIFY2(list.exitCode == 0, list.err.constData());
        QStringList names;
        for (const QJsonValue &t :
             QJsonDocument::fromJson(list.out).object().value("tools"_L1).toArray())
            names.append(t.toObject().value("name"_L1).toString());
        // Five tools at two a page: three pages, all of them.
        QCOMPARE(names, (QStringList{u"echo"_s, u"add-note"_s, u"slow-progress"_s,
                                     u"toggle-extra-tool"_s, u"ask-name"_s}));
    }

    void aCallWithProgressAndAnMrtrRoundAnsweredFromFlags_data() { transports(); }
    void aCallWithProgressAndAnMrtrRoundAnsweredFromFlags()
    {
        QFETCH(bool, http);
        V2HttpServer server;
        const QStringList c = connection(http, server);
        QVERIFY(!c.isEmpty());
        QTemporaryDir dir;
        const QString transcript = dir.filePath(u"t.jsonl"_s);
        const Run r = cliAuto(
            c + QStringList{u"--transcript"_s, transcript, u"--elicitation"_s, u"accept"_s,
                            u"--elicitation-content"_s, u"{\"name\":\"Ada\"}"_s, u"exec"_s},
            steps(
                {QString::fromUtf8(
                     JSON_TEXT({"op" : "call", "tool" : "echo", "args" : {"message" : "hi"}})),
                 QString::fromUtf8(JSON_TEXT(
                     {"op" : "call", "tool" : "slow-progress", "args" : {"steps" : 3, "ms" : 20}})),
                 QString::fromUtf8(JSON_TEXT({"op" : "notifications"})),
                 QString::fromUtf8(JSON_TEXT({"op" : "call", "tool" : "ask-name"}))}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QJsonObject> lines = jsonLines(r.out);
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0].value("result"_L1).toString(), u"Echo: hi"_s);
        int progress = 0;
        for (const QJsonValue &n : lines[2].value("notifications"_L1).toArray())
            progress += n.toObject().value("method"_L1).toString() == "notifications/progress"_L1;
        QCOMPARE(progress, 3);
        QCOMPARE(lines[3].value("result"_L1).toString(), u"hello Ada"_s);
        // One call, two legs: the transcript links the first request to its retry.
        QJsonObject leg;
        for (const QJsonObject &l : transcriptLines(transcript))
            if (l.value("event"_L1).toString() == "input-required"_L1)
                leg = l.value("details"_L1).toObject();
        QCOMPARE(leg.value("name"_L1).toString(), u"ask-name"_s);
        QVERIFY(leg.value("next_id"_L1) != leg.value("id"_L1));
        QCOMPARE(leg.value("requests"_L1).toObject().value("name"_L1).toString(),
                 u"elicitation/create"_s);
    }

    void theListenStreamBringsTheToolListChange_data() { transports(); }
    void theListenStreamBringsTheToolListChange()
    {
        QFETCH(bool, http);
        V2HttpServer server;
        const QStringList c = connection(http, server);
        QVERIFY(!c.isEmpty());
        QTemporaryDir dir;
        const QString transcript = dir.filePath(u"t.jsonl"_s);
        const Run r = cliAuto(
            c + QStringList{u"--transcript"_s, transcript, u"exec"_s},
            steps({QString::fromUtf8(JSON_TEXT({"op" : "sleep", "ms" : 300})),
                   QString::fromUtf8(JSON_TEXT({"op" : "call", "tool" : "toggle-extra-tool"})),
                   QString::fromUtf8(JSON_TEXT({"op" : "sleep", "ms" : 500})),
                   QString::fromUtf8(JSON_TEXT({"op" : "state"}))}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        bool acknowledged = false, changed = false;
        QJsonValue listenId;
        for (const QJsonObject &l : transcriptLines(transcript)) {
            if (l.value("event"_L1).toString() == "listen-acknowledged"_L1) {
                acknowledged = true;
                listenId = l.value("details"_L1).toObject().value("id"_L1);
            }
            const QJsonObject msg = l.value("msg"_L1).toObject();
            if (msg.value("method"_L1).toString() == "notifications/tools/list_changed"_L1)
                changed = msg.value("params"_L1)
                              .toObject()
                              .value("_meta"_L1)
                              .toObject()
                              .value("io.modelcontextprotocol/subscriptionId"_L1) == listenId;
        }
        QVERIFY(acknowledged);
        QVERIFY2(changed, "no tools/list_changed on the listen stream, tagged with its id");
    }

    void aBrokenStreamSendsAReadAgainAndAnswersAWriteUncertain_data()
    {
        QTest::addColumn<bool>("http");
        QTest::addColumn<QString>("fault");
        QTest::addColumn<QString>("read");
        // HTTP: a request's own response stream breaks. stdio has no stream per request: the
        // channel breaking is the process dying after the write.
        QTest::newRow("over HTTP the stream breaks")
            << true << u"drop-stream"_s
            << QString::fromUtf8(
                   JSON_TEXT({"op" : "call", "tool" : "echo", "args" : {"message" : "again"}}));
        QTest::newRow("over stdio the process dies")
            << false << u"kill-during-next-call"_s
            << QString::fromUtf8(JSON_TEXT({"op" : "tools/list"}));
    }
    void aBrokenStreamSendsAReadAgainAndAnswersAWriteUncertain()
    {
        QFETCH(bool, http);
        QFETCH(QString, fault);
        QFETCH(QString, read);
        V2HttpServer server;
        const QStringList c = connection(http, server);
        QVERIFY(!c.isEmpty());
        const QString inject = u"{\"op\":\"fault\",\"kind\":\"%1\"}"_s.arg(fault);
        const Run r = cliAuto(
            c + QStringList{u"exec"_s},
            steps({inject, read, inject,
                   QString::fromUtf8(
                       JSON_TEXT({"op" : "call", "tool" : "add-note", "args" : {"text" : "a"}})),
                   QString::fromUtf8(
                       JSON_TEXT({"op" : "call", "tool" : "add-note", "args" : {"text" : "b"}}))}));
        const QList<QJsonObject> lines = jsonLines(r.out);
        QCOMPARE(lines.size(), 5);
        // The read: lost, sent again with a new id, answered.
        QVERIFY2(lines[1].value("replayed"_L1).toBool(),
                 QJsonDocument(lines[1]).toJson().constData());
        if (http)
            QCOMPARE(lines[1].value("result"_L1).toString(), u"Echo: again"_s);
        else
            QVERIFY(!lines[1].value("tools"_L1).toArray().isEmpty());
        // The write may have run and its answer was lost: uncertain, never sent again...
        QVERIFY2(lines[3].value("outcome_uncertain"_L1).toBool(),
                 QJsonDocument(lines[3]).toJson().constData());
        QCOMPARE(lines[3].value("replayed"_L1).toBool(true), false);
        // ...which the server's own count shows over HTTP (one process keeps the notes): the
        // next note is the second, not the third.
        if (http)
            QCOMPARE(lines[4].value("result"_L1).toString(), u"notes: 2"_s);
        else
            QVERIFY(!lines[4].value("result"_L1).toString().isEmpty());
    }

    void theModernFaultsDoWhatTheySay_data() { transports(); }
    void theModernFaultsDoWhatTheySay()
    {
        QFETCH(bool, http);
        V2HttpServer server;
        const QStringList c = connection(http, server);
        QVERIFY(!c.isEmpty());
        QTemporaryDir dir;
        const QString transcript = dir.filePath(u"t.jsonl"_s);
        const Run r = cliAuto(
            c + QStringList{u"--transcript"_s, transcript, u"--elicitation"_s, u"accept"_s,
                            u"exec"_s},
            steps({QString::fromUtf8(JSON_TEXT({"op" : "sleep", "ms" : 300})),
                   QString::fromUtf8(JSON_TEXT({"op" : "fault", "kind" : "unsupported-version"})),
                   QString::fromUtf8(
                       JSON_TEXT({"op" : "call", "tool" : "add-note", "args" : {"text" : "a"}})),
                   QString::fromUtf8(JSON_TEXT({"op" : "fault", "kind" : "input-required-twice"})),
                   QString::fromUtf8(
                       JSON_TEXT({"op" : "call", "tool" : "add-note", "args" : {"text" : "b"}})),
                   QString::fromUtf8(JSON_TEXT({"op" : "fault", "kind" : "drop-listen"})),
                   QString::fromUtf8(JSON_TEXT({"op" : "sleep", "ms" : 1500})),
                   QString::fromUtf8(JSON_TEXT({"op" : "state"}))}));
        const QList<QJsonObject> lines = jsonLines(r.out);
        QCOMPARE(lines.size(), 8);
        // unsupported-version: answered -32022 here, never sent, so the write did not run...
        QCOMPARE(lines[2].value("code"_L1).toInt(), -32022);
        QVERIFY2(lines[2].value("error"_L1).toString().contains("1999-01-01"_L1),
                 QJsonDocument(lines[2]).toJson().constData());
        // ...input-required-twice: two local rounds answered from the flags, then the call
        // goes out once: the server's count says this is the first note.
        QCOMPARE(lines[4].value("result"_L1).toString(), u"notes: 1"_s);
        // drop-listen: the stream broke and was opened again (1 s later) and acknowledged.
        QCOMPARE(lines[7].value("subscriptions"_L1).toObject().value("state"_L1).toString(),
                 u"acknowledged"_s);
        int rounds = 0, listens = 0, dropped = 0;
        for (const QJsonObject &l : transcriptLines(transcript)) {
            rounds += l.value("event"_L1).toString() == "input-required"_L1;
            dropped += l.value("event"_L1).toString() == "listen-dropped"_L1;
            listens += l.value("dir"_L1).toString() == "send"_L1 &&
                       l.value("msg"_L1).toObject().value("method"_L1).toString() ==
                           "subscriptions/listen"_L1;
        }
        QCOMPARE(rounds, 2);
        QCOMPARE(dropped, 1);
        QCOMPARE(listens, 2);
    }

    void theDemoServerAnswersTheSameInBothEras_data()
    {
        QTest::addColumn<bool>("http");
        QTest::addColumn<QString>("era");
        QTest::addColumn<bool>("modern"); // the era the session ends up in
        QTest::newRow("stdio, 2025-11-25") << false << u"initialize"_s << false;
        QTest::newRow("stdio, 2026-07-28 asked for") << false << u"2026-07-28"_s << true;
        // Over stdio auto asks with the handshake first, and a dual-era server answers it.
        QTest::newRow("stdio, auto: the handshake a dual-era server answers")
            << false << u"auto"_s << false;
        QTest::newRow("HTTP, 2025-11-25") << true << u"initialize"_s << false;
        QTest::newRow("HTTP, auto finds 2026-07-28") << true << u"auto"_s << true;
    }
    void theDemoServerAnswersTheSameInBothEras()
    {
        QFETCH(bool, http);
        QFETCH(QString, era);
        QFETCH(bool, modern);
        DemoHttpServer server;
        const QStringList c = demoConnection(http, server);
        QVERIFY(!c.isEmpty());
        QTemporaryDir dir;
        const QString transcript = dir.filePath(u"t.jsonl"_s);
        // The same questions reach the same flags whether the server asks in its own request
        // (2025-11-25) or in an input_required round (2026-07-28): one round, then two.
        const Run r =
            cli(c + QStringList{u"--era"_s, era, u"--transcript"_s, transcript, u"--elicitation"_s,
                                u"accept"_s, u"exec"_s},
                steps({QString::fromUtf8(JSON_TEXT({"op" : "tools/list"})),
                       QString::fromUtf8(JSON_TEXT(
                           {"op" : "call", "tool" : "echo", "args" : {"message" : "hi"}})),
                       QString::fromUtf8(JSON_TEXT({"op" : "call", "tool" : "ask-user"})),
                       QString::fromUtf8(JSON_TEXT({"op" : "call", "tool" : "confirm-twice"})),
                       QString::fromUtf8(JSON_TEXT({"op" : "call", "tool" : "toggle-extra-tool"})),
                       QString::fromUtf8(JSON_TEXT({"op" : "sleep", "ms" : 300})),
                       QString::fromUtf8(JSON_TEXT({"op" : "state"}))}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QJsonObject> lines = jsonLines(r.out);
        QCOMPARE(lines.size(), 7);
        QCOMPARE(lines[0].value("tools"_L1).toArray().size(), 24); // every page of five
        QVERIFY(lines[1].value("result"_L1).toString().contains("hi"_L1));
        QVERIFY2(lines[2].value("result"_L1).toString().contains("action=accept"_L1),
                 QJsonDocument(lines[2]).toJson().constData());
        QCOMPARE(lines[3].value("result"_L1).toString(),
                 u"confirmed twice: first=accept second=accept"_s);
        QCOMPARE(lines[6].value("era"_L1).toString(), modern ? u"2026-07-28"_s : u"initialize"_s);
        int rounds = 0, listChanges = 0;
        for (const QJsonObject &l : transcriptLines(transcript)) {
            rounds += l.value("event"_L1).toString() == "input-required"_L1;
            const QJsonObject msg = l.value("msg"_L1).toObject();
            if (msg.value("method"_L1).toString() == "notifications/tools/list_changed"_L1)
                ++listChanges;
        }
        // ask-user one round, confirm-twice two; a 2025-11-25 session has none.
        QCOMPARE(rounds, modern ? 3 : 0);
        // The change reaches the client either way: the GET stream or stdout (2025-11-25),
        // the listen stream (2026-07-28).
        QVERIFY(listChanges >= 1);
    }

    void aLongCallBecomesATaskThatIsPolledToItsResult_data()
    {
        QTest::addColumn<bool>("http");
        QTest::addColumn<QString>("era");
        QTest::newRow("stdio, 2026-07-28: a task, polled") << false << u"2026-07-28"_s;
        QTest::newRow("HTTP, 2026-07-28: a task, polled") << true << u"auto"_s;
        QTest::newRow("HTTP, 2025-11-25: the call waits") << true << u"initialize"_s;
    }
    void aLongCallBecomesATaskThatIsPolledToItsResult()
    {
        QFETCH(bool, http);
        QFETCH(QString, era);
        DemoHttpServer server;
        const QStringList c = demoConnection(http, server);
        QVERIFY(!c.isEmpty());
        QTemporaryDir dir;
        const QString transcript = dir.filePath(u"t.jsonl"_s);
        const Run r = cli(c + QStringList{u"--era"_s, era, u"--transcript"_s, transcript,
                                          u"tools"_s, u"call"_s, u"long-job"_s, u"{\"ms\":400}"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(QJsonDocument::fromJson(r.out).object().value("result"_L1).toString(),
                 u"long job done after 400 ms"_s);
        QStringList statuses;
        int polls = 0;
        for (const QJsonObject &l : transcriptLines(transcript)) {
            if (l.value("event"_L1).toString() == "task-status"_L1)
                statuses.append(l.value("details"_L1).toObject().value("status"_L1).toString());
            polls += l.value("dir"_L1).toString() == "send"_L1 &&
                     l.value("msg"_L1).toObject().value("method"_L1).toString() == "tasks/get"_L1;
        }
        if (era == "initialize"_L1) {
            QVERIFY(statuses.isEmpty());
            return;
        }
        QCOMPARE(statuses.value(0), u"working"_s);
        QCOMPARE(statuses.value(statuses.size() - 1), u"completed"_s);
        // Polled at the server's 100 ms for a 400 ms job: a few, not a busy loop.
        QVERIFY2(polls >= 2 && polls <= 10, qPrintable(QString::number(polls)));
    }

    void aHeaderMismatchIsAnsweredByReadingTheToolsAndSendingOnceMore()
    {
        // A one-shot call has not read the tools, so it cannot know get-weather mirrors its
        // city into Mcp-Param-City: the demo refuses it (-32020) before running it.
        DemoHttpServer server;
        QVERIFY(server.start());
        QTemporaryDir dir;
        const QString transcript = dir.filePath(u"t.jsonl"_s);
        const Run r = cliAuto({u"--url"_s, server.url(), u"--transcript"_s, transcript, u"tools"_s,
                               u"call"_s, u"get-weather"_s, u"{\"city\":\"Paris\"}"_s});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        QStringList sent;
        bool refused = false;
        for (const QJsonObject &l : transcriptLines(transcript)) {
            const QJsonObject msg = l.value("msg"_L1).toObject();
            if (l.value("dir"_L1).toString() == "send"_L1)
                sent.append(msg.value("method"_L1).toString());
            refused |= l.value("event"_L1).toString() == "request-failed"_L1 &&
                       l.value("details"_L1)
                           .toObject()
                           .value("message"_L1)
                           .toString()
                           .contains("Mcp-Param-City"_L1);
        }
        QVERIFY(refused);
        QCOMPARE(sent.filter(u"tools/call"_s).size(), 2);
        QVERIFY(sent.indexOf(u"tools/list"_s) > sent.indexOf(u"tools/call"_s));
    }

    void autoFallsBackToTheHandshakeForALegacyServer()
    {
        EverythingServer everything(u"streamableHttp"_s);
        QVERIFY(everything.start());
        const Run r = cliAuto({u"--url"_s, everything.url(u"/mcp"_s), u"info"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject session =
            QJsonDocument::fromJson(r.out).object().value("session"_L1).toObject();
        QCOMPARE(session.value("era"_L1).toString(), u"initialize"_s);
        QVERIFY2(session.value("era_reason"_L1).toString().contains("initialize"_L1),
                 qPrintable(session.value("era_reason"_L1).toString()));
        QCOMPARE(session.value("protocol_version"_L1).toString(), u"2025-11-25"_s);
        QVERIFY(!session.value("session_id"_L1).isNull());
    }

    void theLegacyEraAgainstAModernOnlyServerNamesWhatItOffers()
    {
        V2HttpServer server;
        QVERIFY(server.start());
        const Run r =
            cli({u"--url"_s, server.url(), u"--era"_s, u"initialize"_s, u"tools"_s, u"list"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("offers 2026-07-28"), r.err.constData());
        QVERIFY2(!r.err.contains("legacy SSE fallback"), r.err.constData());
        const Run m =
            cliAuto(stdioConnection() + QStringList{u"--era"_s, u"initialize"_s, u"info"_s});
        QCOMPARE(m.exitCode, 2);
        QVERIFY2(m.err.contains("2026-07-28"), m.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliRev20260728)
#include "tst_cli_rev20260728.moc"
