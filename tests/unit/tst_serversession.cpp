// SPDX-License-Identifier: MIT
#include "faketransport.h"
#include "session/serversession.h"
#include "transport/transport.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

// JSON test data without raw strings (moc cannot read raw string literals).
#define JSON_TEXT(...) #__VA_ARGS__

namespace {

struct Fixture
{
    ManualClock clock;
    QPointer<FakeTransport> transport;
    std::unique_ptr<ServerSession> session;

    Fixture()
    {
        ServerConfig c;
        c.name = u"fake"_s;
        c.era = ServerConfig::Era::Initialize; // the handshake's rules; modern ones in
                                               // tst_rev20260728session
        c.requestTimeoutMs = 1000;
        c.maxRequestTotalMs = 5000;
        session =
            std::make_unique<ServerSession>(c, clock, QJsonObject{{"roots"_L1, QJsonObject{}}},
                                            [this](const ServerConfig &, const Clock &) {
                                                auto t = std::make_unique<FakeTransport>();
                                                transport = t.get();
                                                return t;
                                            });
    }

    void answer(const QJsonObject &request, const QJsonObject &result)
    {
        transport->deliver(QJsonObject{
            {"jsonrpc"_L1, "2.0"_L1}, {"id"_L1, request.value("id"_L1)}, {"result"_L1, result}});
    }

    void startReady(const QString &version = u"2025-11-25"_s)
    {
        session->start();
        answer(
            transport->sent.at(0),
            {{"protocolVersion"_L1, version},
             {"capabilities"_L1, QJsonObject{{"tools"_L1, QJsonObject{{"listChanged"_L1, true}}}}},
             {"serverInfo"_L1, QJsonObject{{"name"_L1, "fake"_L1}, {"version"_L1, "1"_L1}}}});
    }

    quint64 call(const QString &method, const QJsonObject &params = {}, quint64 ticket = 1)
    {
        CallRequest r;
        r.ticket = ticket;
        r.server = u"fake"_s;
        r.method = method;
        r.params = params;
        session->call(r);
        return ticket;
    }
};

} // namespace

class TestServerSession : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initializesOffersLatestAndAcceptsOlderAnswers_data()
    {
        QTest::addColumn<QString>("answered");
        QTest::addColumn<bool>("ready");
        QTest::newRow("the server answers 2025-11-25") << u"2025-11-25"_s << true;
        QTest::newRow("the server answers 2025-06-18") << u"2025-06-18"_s << true;
        QTest::newRow("the server answers 2025-03-26") << u"2025-03-26"_s << true;
        QTest::newRow("the server answers 2024-11-05") << u"2024-11-05"_s << true;
        QTest::newRow("the server answers an unknown version") << u"1999-01-01"_s << false;
    }
    void initializesOffersLatestAndAcceptsOlderAnswers()
    {
        QFETCH(QString, answered);
        QFETCH(bool, ready);
        Fixture f;
        QSignalSpy stopped(f.session.get(), &ServerSession::stopped);
        f.startReady(answered);
        const QJsonObject init = f.transport ? f.transport->sent.value(0) : QJsonObject();
        const SessionSnapshot s = f.session->snapshot();
        if (ready) {
            QCOMPARE(init.value("method"_L1).toString(), u"initialize"_s);
            QCOMPARE(init.value("params"_L1).toObject().value("protocolVersion"_L1).toString(),
                     u"2025-11-25"_s);
            QVERIFY(init.value("params"_L1)
                        .toObject()
                        .value("capabilities"_L1)
                        .toObject()
                        .contains("roots"_L1));
            QCOMPARE(s.state, SessionSnapshot::State::Ready);
            QCOMPARE(s.generation, 1);
            QCOMPARE(s.protocolVersion, answered);
            QCOMPARE(f.transport->last().value("method"_L1).toString(),
                     u"notifications/initialized"_s);
        } else {
            QVERIFY(s.state == SessionSnapshot::State::Failed ||
                    s.state == SessionSnapshot::State::Closed);
            QVERIFY2(s.lastError.message().contains(u"does not support"_s),
                     qPrintable(s.lastError.message()));
            QCOMPARE(s.generation, 0);
        }
    }

    void toleratesNotificationsBeforeTheInitializeAnswer()
    {
        Fixture f;
        QSignalSpy notes(f.session.get(), &ServerSession::notificationReceived);
        f.session->start();
        f.transport->deliver(
            JSON_TEXT({"method" : "notifications/tools/list_changed", "jsonrpc" : "2.0"}));
        f.answer(f.transport->sent.at(0), {{"protocolVersion"_L1, "2025-11-25"_L1}});
        QCOMPARE(f.session->snapshot().state, SessionSnapshot::State::Ready);
        QCOMPARE(notes.size(), 1);
        QCOMPARE(notes[0][0].value<ServerNotification>().method,
                 u"notifications/tools/list_changed"_s);
    }

    void callsMadeBeforeReadyWaitForTheHandshake()
    {
        Fixture f;
        f.session->start();
        f.call(u"ping"_s);
        QCOMPARE(f.transport->sent.size(), 1); // only initialize so far
        f.answer(f.transport->sent.at(0), {{"protocolVersion"_L1, "2025-11-25"_L1}});
        QCOMPARE(f.transport->last().value("method"_L1).toString(), u"ping"_s);
    }

    void listsFollowNextCursorToTheEnd()
    {
        Fixture f;
        f.startReady();
        QSignalSpy done(f.session.get(), &ServerSession::callFinished);
        f.call(u"tools/list"_s);
        for (int page = 0; page < 3; ++page) {
            const QJsonObject req = f.transport->last();
            QCOMPARE(req.value("method"_L1).toString(), u"tools/list"_s);
            if (page == 0)
                QVERIFY(!req.value("params"_L1).toObject().contains("cursor"_L1));
            else
                QCOMPARE(req.value("params"_L1).toObject().value("cursor"_L1).toString(),
                         u"c%1"_s.arg(page));
            QJsonObject result{
                {"tools"_L1, QJsonArray{QJsonObject{{"name"_L1, u"t%1"_s.arg(page)}}}}};
            if (page < 2)
                result.insert("nextCursor"_L1, u"c%1"_s.arg(page + 1));
            f.answer(req, result);
        }
        QCOMPARE(done.size(), 1);
        const CallOutcome o = done[0][0].value<CallOutcome>();
        QVERIFY(o.ok());
        QCOMPARE(o.attempts, 3);
        QCOMPARE(o.result.toObject().value("tools"_L1).toArray().size(), 3);
        QCOMPARE(o.result.toObject().value("pages"_L1).toInt(), 3);
        QVERIFY(!o.result.toObject().contains("nextCursor"_L1));
        QCOMPARE(f.session->cachedList(u"tools/list"_s).size(), 3);
    }

    void aServerThatRepeatsACursorIsStoppedWithAnError()
    {
        Fixture f;
        f.startReady();
        QSignalSpy done(f.session.get(), &ServerSession::callFinished);
        f.call(u"resources/list"_s);
        for (int i = 0; i < 3 && done.isEmpty(); ++i)
            f.answer(f.transport->last(),
                     {{"resources"_L1, QJsonArray{}}, {"nextCursor"_L1, "same"_L1}});
        QCOMPARE(done.size(), 1);
        const CallOutcome o = done[0][0].value<CallOutcome>();
        QCOMPARE(o.error.kind(), Error::Kind::Protocol);
        QVERIFY(o.error.message().contains(u"repeated cursor"_s));
    }

    void aRefreshOfAListWhoseServerRepeatsACursorStops()
    {
        Fixture f;
        f.startReady();
        f.call(u"tools/list"_s);
        f.answer(f.transport->last(), {{"tools"_L1, QJsonArray{QJsonObject{{"name"_L1, "a"_L1}}}}});
        f.transport->deliver(
            JSON_TEXT({"jsonrpc" : "2.0", "method" : "notifications/tools/list_changed"}));
        const qsizetype before = f.transport->sentWithMethod(u"tools/list"_s).size();
        for (int i = 0; i < 5; ++i) {
            const QJsonObject last = f.transport->last();
            if (last.value("method"_L1).toString() != "tools/list"_L1)
                break;
            f.answer(last, {{"tools"_L1, QJsonArray{QJsonObject{{"name"_L1, "a"_L1}}}},
                            {"nextCursor"_L1, "same"_L1}});
        }
        // The first page, then the repeated cursor once: no third request.
        QCOMPARE(f.transport->sentWithMethod(u"tools/list"_s).size() - before, 1);
        QCOMPARE(f.session->snapshot().state, SessionSnapshot::State::Ready);
    }

    void aRefreshWhoseServerRepeatsACursorSaysWhyItStoppedAndKeepsWhatCame()
    {
        Fixture f;
        f.startReady();
        QSignalSpy refreshed(f.session.get(), &ServerSession::listRefreshed);
        QSignalSpy events(f.session.get(), &ServerSession::transcriptEvent);
        f.call(u"tools/list"_s);
        f.answer(f.transport->last(), {{"tools"_L1, QJsonArray{QJsonObject{{"name"_L1, "a"_L1}}}}});
        f.transport->deliver(
            JSON_TEXT({"jsonrpc" : "2.0", "method" : "notifications/tools/list_changed"}));
        // A server whose every page points at the same next page, answered as long as asked.
        for (int page = 0; page < 50; ++page) {
            const QJsonObject last = f.transport->last();
            if (last.value("method"_L1).toString() != "tools/list"_L1 || !refreshed.isEmpty())
                break;
            f.answer(last, {{"tools"_L1, QJsonArray{QJsonObject{{"name"_L1, u"p%1"_s.arg(page)}}}},
                            {"nextCursor"_L1, "same"_L1}});
        }
        QCOMPARE(refreshed.size(), 1);
        QStringList violations;
        for (const QList<QVariant> &e : std::as_const(events)) {
            const TranscriptEvent event = e.at(0).value<TranscriptEvent>();
            if (event.direction == TranscriptEvent::Direction::Violation)
                violations << event.event;
        }
        QCOMPARE(violations,
                 QStringList{u"tools/list refresh: the server repeated cursor \"same\" (or sent "
                             u"over 10000 pages); stopped following it"_s});
        // The two pages that came (the first, and the one the cursor pointed at) are kept.
        QCOMPARE(f.session->cachedList(u"tools/list"_s).size(), 2);
        QCOMPARE(f.session->snapshot().state, SessionSnapshot::State::Ready);
    }

    void aLineThatIsNotJsonIsReportedAndTheSessionGoesOn()
    {
        Fixture f;
        f.startReady();
        QSignalSpy events(f.session.get(), &ServerSession::transcriptEvent);
        QSignalSpy done(f.session.get(), &ServerSession::callFinished);
        f.transport->deliver(QByteArray("Server listening... (a log line on stdout)"));
        bool violation = false;
        for (const auto &args : events)
            violation |=
                args[0].value<TranscriptEvent>().direction == TranscriptEvent::Direction::Violation;
        QVERIFY(violation);
        f.call(u"ping"_s);
        f.answer(f.transport->last(), {});
        QCOMPARE(done.size(), 1);
        QVERIFY(done[0][0].value<CallOutcome>().ok());
        QCOMPARE(f.session->snapshot().state, SessionSnapshot::State::Ready);
    }

    void aPingFromTheServerIsAnsweredAtOnce()
    {
        Fixture f;
        f.startReady();
        QSignalSpy requests(f.session.get(), &ServerSession::serverRequestReceived);
        f.transport->deliver(JSON_TEXT({"jsonrpc" : "2.0", "id" : "p1", "method" : "ping"}));
        QCOMPARE(f.transport->last().value("id"_L1).toString(), u"p1"_s);
        QVERIFY(f.transport->last().contains("result"_L1));
        QCOMPARE(requests.size(), 0);
    }

    void otherServerRequestsGoToTheFrontEndAndItsReplyIsSent()
    {
        Fixture f;
        f.startReady();
        QSignalSpy requests(f.session.get(), &ServerSession::serverRequestReceived);
        f.transport->deliver(JSON_TEXT({"jsonrpc" : "2.0", "id" : 0, "method" : "roots/list"}));
        QCOMPARE(requests.size(), 1);
        const ServerRequest r = requests[0][0].value<ServerRequest>();
        QCOMPARE(r.method, u"roots/list"_s);
        f.session->reply({r.server, r.generation, r.id, {{"roots"_L1, QJsonArray{}}}, {}});
        QCOMPARE(f.transport->last().value("id"_L1).toInt(-1), 0);
        QVERIFY(f.transport->last().value("result"_L1).toObject().contains("roots"_L1));
    }

    void aTimeoutCancelsTheRequestAndItsLateAnswerIsIgnored()
    {
        Fixture f;
        f.startReady();
        QSignalSpy done(f.session.get(), &ServerSession::callFinished);
        QSignalSpy events(f.session.get(), &ServerSession::transcriptEvent);
        f.call(u"tools/call"_s, {{"name"_L1, "slow"_L1}});
        const QJsonObject req = f.transport->last();
        f.clock.advance(999);
        f.session->checkTimeouts();
        QCOMPARE(done.size(), 0);
        f.clock.advance(1);
        f.session->checkTimeouts();
        QCOMPARE(done.size(), 1);
        QCOMPARE(done[0][0].value<CallOutcome>().error.kind(), Error::Kind::Timeout);
        const QJsonObject cancelled = f.transport->last();
        QCOMPARE(cancelled.value("method"_L1).toString(), u"notifications/cancelled"_s);
        QCOMPARE(cancelled.value("params"_L1).toObject().value("requestId"_L1), req.value("id"_L1));
        events.clear();
        f.answer(req, {{"content"_L1, QJsonArray{}}});
        QCOMPARE(done.size(), 1);
        QCOMPARE(events.size(), 2); // the frame itself and "late-response-ignored"
        QCOMPARE(events[1][0].value<TranscriptEvent>().event, u"late-response-ignored"_s);
    }

    void aCallWithNoTimeoutOfItsOwnGetsTheSixtySecondDefault()
    {
        ManualClock clock;
        QPointer<FakeTransport> transport;
        ServerConfig c; // the defaults, as a new server gets them
        c.name = u"fake"_s;
        c.era = ServerConfig::Era::Initialize;
        ServerSession session(c, clock, {}, [&](const ServerConfig &, const Clock &) {
            auto t = std::make_unique<FakeTransport>();
            transport = t.get();
            return t;
        });
        session.start();
        transport->answer(transport->sent.at(0), {{"protocolVersion"_L1, "2025-11-25"_L1},
                                                  {"capabilities"_L1, QJsonObject{}}});
        QSignalSpy done(&session, &ServerSession::callFinished);
        CallRequest r;
        r.ticket = 1;
        r.method = u"tools/call"_s;
        r.params = {{"name"_L1, "never-answers"_L1}};
        session.call(r);
        clock.advance(59'999);
        session.checkTimeouts();
        QCOMPARE(done.size(), 0);
        clock.advance(1);
        session.checkTimeouts();
        QCOMPARE(done.size(), 1);
        QCOMPARE(done[0][0].value<CallOutcome>().error.kind(), Error::Kind::Timeout);
    }

    void anAnswerWithInvalidUtf8IsDecodedLossilyAndFlagged()
    {
        Fixture f;
        f.startReady();
        QSignalSpy done(f.session.get(), &ServerSession::callFinished);
        QSignalSpy events(f.session.get(), &ServerSession::transcriptEvent);
        f.call(u"tools/call"_s, {{"name"_L1, "t"_L1}});
        const QByteArray id = QByteArray::number(f.transport->last().value("id"_L1).toInteger());
        f.transport->deliver(
            QByteArray("{\"jsonrpc\":\"2.0\",\"id\":") + id +
            QByteArray(",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"a\xff\xc3\"}]}}"));
        QCOMPARE(done.size(), 1);
        const CallOutcome o = done[0][0].value<CallOutcome>();
        QVERIFY(o.ok());
        QCOMPARE(o.result.toObject()
                     .value("content"_L1)
                     .toArray()
                     .at(0)
                     .toObject()
                     .value("text"_L1)
                     .toString(),
                 u"a\uFFFD\uFFFD"_s);
        bool flagged = false;
        for (const auto &args : events) {
            const TranscriptEvent e = args[0].value<TranscriptEvent>();
            flagged |= e.direction == TranscriptEvent::Direction::Violation &&
                       e.event.contains("invalid UTF-8"_L1);
        }
        QVERIFY(flagged);
    }

    void progressKeepsALongCallAlive()
    {
        Fixture f;
        f.startReady();
        QSignalSpy done(f.session.get(), &ServerSession::callFinished);
        f.call(u"tools/call"_s, {{"name"_L1, "slow"_L1}});
        const QJsonObject req = f.transport->last();
        const QString token = req.value("params"_L1)
                                  .toObject()
                                  .value("_meta"_L1)
                                  .toObject()
                                  .value("progressToken"_L1)
                                  .toString();
        QVERIFY(!token.isEmpty());
        for (int i = 0; i < 3; ++i) {
            f.clock.advance(900);
            f.transport->deliver(QJsonObject{
                {"jsonrpc"_L1, "2.0"_L1},
                {"method"_L1, "notifications/progress"_L1},
                {"params"_L1, QJsonObject{{"progressToken"_L1, token}, {"progress"_L1, i}}}});
            f.session->checkTimeouts();
        }
        QCOMPARE(done.size(), 0);
        f.answer(req, {{"content"_L1,
                        QJsonArray{QJsonObject{{"type"_L1, "text"_L1}, {"text"_L1, "done"_L1}}}}});
        QCOMPARE(done.size(), 1);
        QVERIFY(done[0][0].value<CallOutcome>().ok());
    }

    void cancellingSendsNotificationsCancelled()
    {
        Fixture f;
        f.startReady();
        QSignalSpy done(f.session.get(), &ServerSession::callFinished);
        const quint64 t = f.call(u"tools/call"_s, {{"name"_L1, "slow"_L1}});
        const QJsonValue id = f.transport->last().value("id"_L1);
        f.session->cancel(t, u"user pressed Cancel"_s);
        QCOMPARE(f.transport->last().value("method"_L1).toString(), u"notifications/cancelled"_s);
        QCOMPARE(f.transport->last().value("params"_L1).toObject().value("requestId"_L1), id);
        QCOMPARE(done.size(), 1);
        QCOMPARE(done[0][0].value<CallOutcome>().error.kind(), Error::Kind::Cancelled);
    }

    void aToolResultWithIsErrorIsAnApplicationError()
    {
        Fixture f;
        f.startReady();
        QSignalSpy done(f.session.get(), &ServerSession::callFinished);
        f.call(u"tools/call"_s, {{"name"_L1, "fail"_L1}});
        f.answer(f.transport->last(),
                 {{"isError"_L1, true},
                  {"content"_L1,
                   QJsonArray{QJsonObject{{"type"_L1, "text"_L1}, {"text"_L1, "nope"_L1}}}}});
        const CallOutcome o = done[0][0].value<CallOutcome>();
        QCOMPARE(o.error.kind(), Error::Kind::Application);
        QCOMPARE(o.error.message(), u"nope"_s);
    }

    void aListChangeRefreshesACachedList()
    {
        Fixture f;
        f.startReady();
        QSignalSpy refreshed(f.session.get(), &ServerSession::listRefreshed);
        f.call(u"tools/list"_s);
        f.answer(f.transport->last(), {{"tools"_L1, QJsonArray{QJsonObject{{"name"_L1, "a"_L1}}}}});
        f.transport->deliver(
            JSON_TEXT({"jsonrpc" : "2.0", "method" : "notifications/tools/list_changed"}));
        QCOMPARE(f.transport->last().value("method"_L1).toString(), u"tools/list"_s);
        f.answer(f.transport->last(), {{"tools"_L1, QJsonArray{QJsonObject{{"name"_L1, "a"_L1}},
                                                               QJsonObject{{"name"_L1, "b"_L1}}}}});
        QCOMPARE(refreshed.size(), 1);
        QCOMPARE(f.session->cachedList(u"tools/list"_s).size(), 2);
    }

    void changesAnnouncedDuringARefreshCostExactlyOneMoreRefresh()
    {
        Fixture f;
        f.startReady();
        QSignalSpy refreshed(f.session.get(), &ServerSession::listRefreshed);
        f.call(u"tools/list"_s);
        f.answer(f.transport->last(), {{"tools"_L1, QJsonArray{QJsonObject{{"name"_L1, "a"_L1}}}}});
        const qsizetype sentBefore = f.transport->sentWithMethod(u"tools/list"_s).size();
        // A burst, as server-everything sends when it registers tools after initialized.
        for (int i = 0; i < 4; ++i)
            f.transport->deliver(
                JSON_TEXT({"jsonrpc" : "2.0", "method" : "notifications/tools/list_changed"}));
        QCOMPARE(f.transport->sentWithMethod(u"tools/list"_s).size(), sentBefore + 1);
        // The first refresh answers with the list as it was before the later changes...
        f.answer(f.transport->last(), {{"tools"_L1, QJsonArray{QJsonObject{{"name"_L1, "a"_L1}}}}});
        // ...so one more is sent, and its answer is what the cache ends with.
        QCOMPARE(f.transport->sentWithMethod(u"tools/list"_s).size(), sentBefore + 2);
        f.answer(f.transport->last(), {{"tools"_L1, QJsonArray{QJsonObject{{"name"_L1, "a"_L1}},
                                                               QJsonObject{{"name"_L1, "b"_L1}}}}});
        QCOMPARE(f.transport->sentWithMethod(u"tools/list"_s).size(), sentBefore + 2);
        QCOMPARE(refreshed.size(), 2);
        QCOMPARE(f.session->cachedList(u"tools/list"_s).size(), 2);
    }

    void aTransportThatDiesFailsOutstandingCallsAsClosed()
    {
        Fixture f;
        f.startReady();
        QSignalSpy done(f.session.get(), &ServerSession::callFinished);
        f.call(u"tools/call"_s, {{"name"_L1, "x"_L1}});
        f.transport->die(u"server process 42 was killed by signal 9"_s);
        QCOMPARE(done.size(), 1);
        const CallOutcome o = done[0][0].value<CallOutcome>();
        QCOMPARE(o.error.kind(), Error::Kind::Transport);
        QCOMPARE(o.error.condition(), Error::Condition::Closed);
        QVERIFY(o.error.cause());
        QVERIFY(o.error.cause()->message().contains(u"signal 9"_s));
        QCOMPARE(f.session->snapshot().state, SessionSnapshot::State::Failed);
    }

    void idsAreNeverReusedAcrossARestart()
    {
        Fixture f;
        f.startReady();
        QSet<qint64> ids;
        for (const QJsonObject &o : f.transport->sent)
            if (o.contains("id"_L1))
                ids.insert(o.value("id"_L1).toInteger());
        f.transport->die(u"gone"_s);
        f.startReady();
        QCOMPARE(f.session->snapshot().generation, 2);
        QCOMPARE(f.session->snapshot().restartCount, 1);
        for (const QJsonObject &o : f.transport->sent)
            if (o.contains("id"_L1))
                QVERIFY(!ids.contains(o.value("id"_L1).toInteger()));
    }
};

QTEST_GUILESS_MAIN(TestServerSession)
#include "tst_serversession.moc"
