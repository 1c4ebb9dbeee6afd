// SPDX-License-Identifier: MIT
// The engine end to end over stdio against Sonde's own demo server, through CoreHost.
#include "clifixtures.h"
#include "engine/corehost.h"
#include "testpaths.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QUrl>

#include <numeric>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

ServerConfig demo(const QString &name)
{
    ServerConfig c;
    c.name = name;
    c.program = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
    c.era = ServerConfig::Era::Initialize; // the recovery rules of docs/recovery.md §1-§7
    return c;
}

// Collects what the host emits, on the test's (caller's) thread.
struct Recorder
{
    QList<CallOutcome> outcomes;
    QList<TranscriptEvent> events;
    QHash<QString, SessionSnapshot> snapshots;
    int snapshotCount = 0;
    QHash<quint64, int> generationSeenAtOutcome; // the snapshot's generation when a result came
    QList<QThread *> deliveryThreads;

    explicit Recorder(CoreHost &host)
    {
        QObject::connect(&host, &CoreHost::callFinished, &host, [this](const CallOutcome &o) {
            outcomes.append(o);
            generationSeenAtOutcome.insert(o.ticket, snapshots.value(o.server).generation);
            deliveryThreads.append(QThread::currentThread());
        });
        QObject::connect(&host, &CoreHost::transcriptBatch, &host,
                         [this](const TranscriptBatch &b) { events += b; });
        QObject::connect(&host, &CoreHost::sessionChanged, &host, [this](const SessionSnapshot &s) {
            snapshots.insert(s.server, s);
            ++snapshotCount;
        });
    }
    std::optional<CallOutcome> outcome(quint64 ticket) const
    {
        for (const CallOutcome &o : outcomes)
            if (o.ticket == ticket)
                return o;
        return std::nullopt;
    }
    bool ready(const QString &server) const
    {
        return snapshots.value(server).state == SessionSnapshot::State::Ready;
    }
};

QJsonObject toolCall(const QString &name, const QJsonObject &args = {})
{
    return {{"name"_L1, name}, {"arguments"_L1, args}};
}

QString text(const CallOutcome &o)
{
    return o.result.toObject()
        .value("content"_L1)
        .toArray()
        .at(0)
        .toObject()
        .value("text"_L1)
        .toString();
}

class AcceptingHandler final : public ServerRequestHandler
{
public:
    explicit AcceptingHandler(CoreHost &host) : m_host(host) {}
    QList<ServerRequest> seen;
    void handleServerRequest(const ServerRequest &r) override
    {
        seen.append(r);
        m_host.reply(
            {r.server,
             r.generation,
             r.id,
             {{"action"_L1, "accept"_L1}, {"content"_L1, QJsonObject{{"name"_L1, "Grace"_L1}}}},
             {}});
    }

private:
    CoreHost &m_host;
};

} // namespace

class TestCoreHost : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theEngineRunsOnItsOwnThreadAndResultsArriveOnTheCallersThread()
    {
        CoreHost host;
        Recorder rec(host);
        QVERIFY(host.engineThread() != QThread::currentThread());
        QVERIFY(host.engineThread()->isRunning());
        host.addServer(demo(u"demo"_s));
        QTRY_VERIFY_WITH_TIMEOUT(rec.ready(u"demo"_s), 10000);
        const quint64 t =
            host.call(u"demo"_s, u"tools/call"_s, toolCall(u"echo"_s, {{"message"_L1, "hi"_L1}}));
        QTRY_VERIFY_WITH_TIMEOUT(rec.outcome(t).has_value(), 10000);
        QCOMPARE(text(*rec.outcome(t)), u"Echo: hi"_s);
        QCOMPARE(rec.deliveryThreads.value(0), QThread::currentThread());
    }

    void severalServersRunAtOnceWithTheirOwnState()
    {
        CoreHost host;
        Recorder rec(host);
        host.addServer(demo(u"a"_s));
        host.addServer(demo(u"b"_s));
        QTRY_VERIFY_WITH_TIMEOUT(rec.ready(u"a"_s) && rec.ready(u"b"_s), 10000);
        QVERIFY(rec.snapshots[u"a"_s].transport.pid != rec.snapshots[u"b"_s].transport.pid);
        const quint64 inc =
            host.call(u"a"_s, u"tools/call"_s, toolCall(u"increment-counter"_s, {{"by"_L1, 5}}));
        QTRY_VERIFY_WITH_TIMEOUT(rec.outcome(inc).has_value(), 10000);
        const quint64 ra = host.call(u"a"_s, u"tools/call"_s, toolCall(u"get-counter"_s));
        const quint64 rb = host.call(u"b"_s, u"tools/call"_s, toolCall(u"get-counter"_s));
        QTRY_VERIFY_WITH_TIMEOUT(rec.outcome(ra) && rec.outcome(rb), 10000);
        QCOMPARE(text(*rec.outcome(ra)), u"counter = 5"_s);
        QCOMPARE(text(*rec.outcome(rb)), u"counter = 0"_s);
    }

    void aServerThatDiesMidCallIsRespawnedAndTheWriteIsReportedUncertain()
    {
        CoreHost host;
        Recorder rec(host);
        host.addServer(demo(u"demo"_s));
        QTRY_VERIFY_WITH_TIMEOUT(rec.ready(u"demo"_s), 10000);
        const quint64 t = host.call(u"demo"_s, u"tools/call"_s, toolCall(u"crash"_s));
        QTRY_VERIFY_WITH_TIMEOUT(rec.outcome(t).has_value(), 15000);
        const CallOutcome o = *rec.outcome(t);
        QCOMPARE(o.error.kind(), Error::Kind::Transport);
        QVERIFY(o.recovery->outcomeUncertain.value_or(false));
        QCOMPARE(o.recovery->replayed, false);
        QCOMPARE(o.recovery->reconnect, ReconnectOutcome::Ok);
        QCOMPARE(ExpiryRules::name(o.recovery->rule), u"transport-closed"_s);
        QVERIFY2(o.error.message().contains(u"may or may not have taken effect"_s),
                 qPrintable(o.error.message()));
        QVERIFY(o.error.cause() && o.error.cause()->message().contains(u"exited with code 3"_s));
        QCOMPARE(o.attempts, 1);
        // The server was respawned: a new process, generation 2, and calls work again.
        QTRY_COMPARE(rec.snapshots[u"demo"_s].generation, 2);
        QCOMPARE(rec.snapshots[u"demo"_s].restartCount, 1);
        const quint64 next = host.call(u"demo"_s, u"ping"_s);
        QTRY_VERIFY_WITH_TIMEOUT(rec.outcome(next).has_value(), 5000);
        QVERIFY(rec.outcome(next)->ok());
        QCOMPARE(rec.outcome(next)->generation, 2);
    }

    // Killed while idle, the server is started again by itself (it stayed "failed" until a
    // call came); the call that follows reaches the new process, once.
    void aServerKilledWhileIdleIsRespawnedAndACallIsSentOnce()
    {
        CoreHost host;
        Recorder rec(host);
        host.addServer(demo(u"demo"_s));
        QTRY_VERIFY_WITH_TIMEOUT(rec.ready(u"demo"_s), 10000);
        Fault kill;
        kill.kind = Fault::Kind::KillProcess;
        const quint64 f = host.injectFault(u"demo"_s, kill);
        QTRY_VERIFY_WITH_TIMEOUT(rec.outcome(f).has_value(), 5000);
        QVERIFY(rec.outcome(f)->ok());
        // Back without any call: generation 2, the kill in its history.
        QTRY_COMPARE_WITH_TIMEOUT(rec.snapshots[u"demo"_s].generation, 2, 10000);
        QTRY_COMPARE(rec.snapshots[u"demo"_s].state, SessionSnapshot::State::Ready);
        bool ended = false;
        for (const HistoryEvent &e : rec.snapshots[u"demo"_s].recovery->history) {
            const auto *end = e.as<HistoryEvent::SessionEnd>();
            ended |= end && end->cause.contains(u"signal 9"_s);
        }
        QVERIFY(ended);
        const quint64 t = host.call(u"demo"_s, u"tools/call"_s, toolCall(u"increment-counter"_s));
        QTRY_VERIFY_WITH_TIMEOUT(rec.outcome(t).has_value(), 15000);
        const CallOutcome o = *rec.outcome(t);
        QVERIFY2(o.ok(), qPrintable(o.error.message()));
        QCOMPARE(o.attempts, 1); // it never reached the dead process: sent once, to the new one
        QCOMPARE(o.generation, 2);
        QCOMPARE(text(o), u"counter = 1"_s);
    }

    void aRecoveryReachesTheFrontEndAsFewSnapshotsAndTheNewGenerationBeforeTheAnswer()
    {
        SondeTest::DemoHttpServer server;
        QVERIFY(server.start());
        CoreHost host;
        Recorder rec(host);
        ServerConfig c;
        c.name = u"web"_s;
        c.era = ServerConfig::Era::Initialize;
        c.route = ServerConfig::Route::StreamableHttp;
        c.url = QUrl(server.url());
        host.addServer(c);
        QTRY_VERIFY_WITH_TIMEOUT(rec.ready(u"web"_s), 10000);
        Fault f;
        f.kind = Fault::Kind::CorruptSessionId;
        const quint64 fault = host.injectFault(u"web"_s, f);
        QTRY_VERIFY_WITH_TIMEOUT(rec.outcome(fault).has_value(), 5000);
        const int before = rec.snapshotCount;
        const quint64 t =
            host.call(u"web"_s, u"resources/read"_s, {{"uri"_L1, "demo://notes/1"_L1}});
        QTRY_VERIFY_WITH_TIMEOUT(rec.outcome(t).has_value(), 10000);
        const CallOutcome o = *rec.outcome(t);
        QVERIFY2(o.ok(), qPrintable(o.error.message()));
        QCOMPARE(o.attempts, 2);
        QCOMPARE(o.generation, 2);
        // The snapshot of the session that answered was delivered before the answer.
        QCOMPARE(rec.generationSeenAtOutcome.value(t), 2);
        QVERIFY(o.recovery->recoveryMs.value_or(0) > 0);
        // The teardown, the new transport and its initialize happen in one event-loop turn
        // (half a dozen state changes): the front end gets one snapshot for it, not one each.
        QVERIFY2(rec.snapshotCount - before <= 4,
                 qPrintable(QString::number(rec.snapshotCount - before)));
        // A reconnect by hand answers in the very turn its session becomes ready: the snapshot
        // of that generation must still come first.
        const quint64 r = host.reconnect(u"web"_s);
        QTRY_VERIFY_WITH_TIMEOUT(rec.outcome(r).has_value(), 10000);
        QVERIFY2(rec.outcome(r)->ok(), qPrintable(rec.outcome(r)->error.message()));
        QCOMPARE(rec.outcome(r)->generation, 3);
        QCOMPARE(rec.generationSeenAtOutcome.value(r), 3);
    }

    void httpExchangesAreRecordedOnlyWhenTheFrontEndAsks_data()
    {
        QTest::addColumn<bool>("record");
        QTest::newRow("a front end that keeps the transcript gets one per request") << true;
        QTest::newRow("a one-shot command that keeps nothing gets none") << false;
    }
    void httpExchangesAreRecordedOnlyWhenTheFrontEndAsks()
    {
        QFETCH(bool, record);
        SondeTest::DemoHttpServer server;
        QVERIFY(server.start());
        CoreHost host;
        host.setRecordHttpExchanges(record);
        Recorder rec(host);
        ServerConfig c;
        c.name = u"web"_s;
        c.era = ServerConfig::Era::Rev20260728;
        c.route = ServerConfig::Route::StreamableHttp;
        c.url = QUrl(server.url());
        host.addServer(c);
        QTRY_VERIFY_WITH_TIMEOUT(rec.ready(u"web"_s), 10000);
        const quint64 t =
            host.call(u"web"_s, u"tools/call"_s, toolCall(u"echo"_s, {{"message"_L1, "hi"_L1}}));
        QTRY_VERIFY_WITH_TIMEOUT(rec.outcome(t).has_value(), 10000);
        QVERIFY2(rec.outcome(t)->ok(), qPrintable(rec.outcome(t)->error.message()));
        // A second call, after the first has finished: once its answer is in the transcript,
        // so is everything recorded before it, the first POST's record included (one thread,
        // one order).
        const quint64 t2 =
            host.call(u"web"_s, u"tools/call"_s, toolCall(u"echo"_s, {{"message"_L1, "again"_L1}}));
        QTRY_VERIFY_WITH_TIMEOUT(rec.outcome(t2).has_value(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (const TranscriptEvent &e : std::as_const(rec.events)) {
                    if (e.direction == TranscriptEvent::Direction::Incoming &&
                        e.raw.contains("Echo: again"))
                        return true;
                }
                return false;
            }(),
            5000);
        int calls = 0, exchanges = 0;
        for (const TranscriptEvent &e : std::as_const(rec.events)) {
            if (e.event != "http-exchange"_L1)
                continue;
            ++exchanges;
            const QString body =
                e.detailsAs<LifecycleDetails::HttpExchange>()->requestBody.value_or(QString());
            calls += body.contains("Echo"_L1) || body.contains("\"hi\""_L1);
        }
        if (record) {
            QVERIFY2(calls >= 1, qPrintable(QString::number(exchanges)));
        } else {
            QCOMPARE(exchanges, 0);
        }
    }

    void stderrLinesAndLifecycleEventsReachTheTranscriptOnTheProtocolsClock()
    {
        CoreHost host;
        Recorder rec(host);
        host.addServer(demo(u"demo"_s));
        QTRY_VERIFY_WITH_TIMEOUT(rec.ready(u"demo"_s), 10000);
        const quint64 t =
            host.call(u"demo"_s, u"tools/call"_s, toolCall(u"write-stderr"_s, {{"lines"_L1, 3}}));
        QTRY_VERIFY_WITH_TIMEOUT(rec.outcome(t).has_value(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                int n = 0;
                for (const TranscriptEvent &e : rec.events)
                    n += e.direction == TranscriptEvent::Direction::Stderr &&
                         e.raw.startsWith("demo: stderr line");
                return n == 3;
            }(),
            5000);
        qint64 previous = 0;
        QStringList lifecycle;
        for (const TranscriptEvent &e : std::as_const(rec.events)) {
            QVERIFY(e.timeMs >= previous); // one clock, in order
            previous = e.timeMs;
            if (e.direction == TranscriptEvent::Direction::Lifecycle)
                lifecycle.append(e.event);
        }
        QCOMPARE(lifecycle.mid(0, 3),
                 (QStringList{u"starting"_s, u"transport-open"_s, u"ready"_s}));
    }

    void aLineThatIsNotJsonIsAViolationAndTheCallStillSucceeds()
    {
        CoreHost host;
        Recorder rec(host);
        host.addServer(demo(u"demo"_s));
        QTRY_VERIFY_WITH_TIMEOUT(rec.ready(u"demo"_s), 10000);
        const quint64 t = host.call(u"demo"_s, u"tools/call"_s, toolCall(u"print-garbage"_s));
        QTRY_VERIFY_WITH_TIMEOUT(rec.outcome(t).has_value(), 10000);
        QVERIFY(rec.outcome(t)->ok());
        bool violation = false;
        for (const TranscriptEvent &e : std::as_const(rec.events))
            violation |= e.direction == TranscriptEvent::Direction::Violation &&
                         e.raw.startsWith("this line is not JSON");
        QVERIFY(violation);
    }

    void aFiftyMegabyteAnswerArrivesWhole()
    {
        CoreHost host;
        Recorder rec(host);
        host.addServer(demo(u"demo"_s));
        QTRY_VERIFY_WITH_TIMEOUT(rec.ready(u"demo"_s), 10000);
        const qint64 bytes = 50 * 1024 * 1024;
        const quint64 t =
            host.call(u"demo"_s, u"tools/call"_s, toolCall(u"big-answer"_s, {{"bytes"_L1, bytes}}));
        QTRY_VERIFY_WITH_TIMEOUT(rec.outcome(t).has_value(), 60000);
        QVERIFY(rec.outcome(t)->ok());
        QCOMPARE(text(*rec.outcome(t)).size(), bytes);
    }

    void serverRequestsAreAnsweredThroughTheFrontEndsHandler()
    {
        CoreHost host;
        AcceptingHandler handler(host);
        host.setServerRequestHandler(&handler);
        Recorder rec(host);
        host.addServer(demo(u"demo"_s));
        QTRY_VERIFY_WITH_TIMEOUT(rec.ready(u"demo"_s), 10000);
        const quint64 t = host.call(u"demo"_s, u"tools/call"_s, toolCall(u"ask-user"_s));
        QTRY_VERIFY_WITH_TIMEOUT(rec.outcome(t).has_value(), 10000);
        QCOMPARE(handler.seen.size(), 1);
        QCOMPARE(handler.seen[0].method, u"elicitation/create"_s);
        QVERIFY2(text(*rec.outcome(t)).contains(u"action=accept"_s),
                 qPrintable(text(*rec.outcome(t))));
    }

    void cancellingAProgressingCallStopsItOnTheServer()
    {
        CoreHost host;
        Recorder rec(host);
        QList<ServerNotification> progress;
        connect(&host, &CoreHost::notificationsReceived, this,
                [&](const ServerNotificationBatch &batch) {
                    for (const ServerNotification &n : batch)
                        if (n.method == "notifications/progress"_L1)
                            progress.append(n);
                });
        host.addServer(demo(u"demo"_s));
        QTRY_VERIFY_WITH_TIMEOUT(rec.ready(u"demo"_s), 10000);
        const quint64 t =
            host.call(u"demo"_s, u"tools/call"_s,
                      toolCall(u"slow-task"_s, {{"duration_ms"_L1, 20000}, {"steps"_L1, 200}}));
        QTRY_VERIFY_WITH_TIMEOUT(progress.size() >= 2, 10000);
        host.cancel(t);
        QTRY_VERIFY_WITH_TIMEOUT(rec.outcome(t).has_value(), 5000);
        QCOMPARE(rec.outcome(t)->error.kind(), Error::Kind::Cancelled);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (const TranscriptEvent &e : rec.events)
                    if (e.direction == TranscriptEvent::Direction::Stderr &&
                        e.raw.contains("cancelled"))
                        return true;
                return false;
            }(),
            5000);
    }

    // A flood crosses from the engine's thread in batches: every notification, in the order
    // sent, and all of them before the call's result.
    void aFloodOfNotificationsCrossesInOrderedBatchesBeforeItsResult()
    {
        CoreHost host;
        Recorder rec(host);
        constexpr int Total = 30'000;
        QList<int> indices; // i of the flood's "flood i/N"
        int batches = 0, emptyBatches = 0;
        qsizetype seenAtResult = -1;
        quint64 t = 0;
        connect(&host, &CoreHost::notificationsReceived, this,
                [&](const ServerNotificationBatch &batch) {
                    ++batches;
                    emptyBatches += batch.isEmpty();
                    for (const ServerNotification &n : batch)
                        if (n.params.value("logger"_L1).toString() == "flood"_L1)
                            indices.append(n.params.value("data"_L1)
                                               .toString()
                                               .section(u' ', 1)
                                               .section(u'/', 0, 0)
                                               .toInt());
                });
        connect(&host, &CoreHost::callFinished, this, [&](const CallOutcome &o) {
            if (o.ticket == t)
                seenAtResult = indices.size();
        });
        host.addServer(demo(u"demo"_s));
        QTRY_VERIFY_WITH_TIMEOUT(rec.ready(u"demo"_s), 10000);
        t = host.call(u"demo"_s, u"tools/call"_s,
                      toolCall(u"flood"_s, {{"rate"_L1, 100'000}, {"seconds"_L1, 0.3}}));
        QTRY_VERIFY_WITH_TIMEOUT(rec.outcome(t).has_value(), 20000);
        QVERIFY2(rec.outcome(t)->ok(), qPrintable(rec.outcome(t)->error.message()));
        QCOMPARE(seenAtResult, Total);
        QList<int> inOrder(Total);
        std::iota(inOrder.begin(), inOrder.end(), 1);
        QCOMPARE(indices, inOrder);
        QCOMPARE(emptyBatches, 0);
        // The server writes a burst every 10 ms; one queued event per notification would be
        // 30,000 crossings.
        QVERIFY2(batches * 20 <= Total, qPrintable(u"%1 batches"_s.arg(batches)));
    }

    void removingOrReplacingAServerUnderARunningCallAnswersThatCall_data()
    {
        QTest::addColumn<bool>("replace");
        QTest::newRow("removing the server") << false;
        QTest::newRow("editing it (added again under the same name)") << true;
    }
    void removingOrReplacingAServerUnderARunningCallAnswersThatCall()
    {
        QFETCH(bool, replace);
        CoreHost host;
        Recorder rec(host);
        int progress = 0;
        connect(&host, &CoreHost::notificationsReceived, this,
                [&](const ServerNotificationBatch &batch) {
                    for (const ServerNotification &n : batch)
                        progress += n.method == "notifications/progress"_L1;
                });
        host.addServer(demo(u"demo"_s));
        QTRY_VERIFY_WITH_TIMEOUT(rec.ready(u"demo"_s), 10000);
        const quint64 t =
            host.call(u"demo"_s, u"tools/call"_s,
                      toolCall(u"slow-task"_s, {{"duration_ms"_L1, 20000}, {"steps"_L1, 100}}));
        QTRY_VERIFY_WITH_TIMEOUT(progress >= 1, 10000); // dispatched, and running on the server
        if (replace)
            host.addServer(demo(u"demo"_s));
        else
            host.removeServer(u"demo"_s);
        QTRY_VERIFY_WITH_TIMEOUT(rec.outcome(t).has_value(), 5000);
        QCOMPARE(rec.outcome(t)->error.kind(), Error::Kind::Cancelled);
        if (replace) { // and the server under that name takes calls again
            QTRY_VERIFY_WITH_TIMEOUT(rec.ready(u"demo"_s), 10000);
            const quint64 t2 = host.call(u"demo"_s, u"ping"_s, {});
            QTRY_VERIFY_WITH_TIMEOUT(rec.outcome(t2).has_value(), 5000);
            QVERIFY(rec.outcome(t2)->ok());
        }
    }

    void aShutdownWhileServersAreStillStartingFinishes_data()
    {
        QTest::addColumn<bool>("http");
        QTest::newRow("a stdio server whose process is starting") << false;
        QTest::newRow("an HTTP server nobody answers") << true;
    }
    void aShutdownWhileServersAreStillStartingFinishes()
    {
        QFETCH(bool, http);
        CoreHost host;
        QSignalSpy done(&host, &CoreHost::shutdownFinished);
        ServerConfig c = demo(u"demo"_s);
        if (http) {
            c.route = ServerConfig::Route::StreamableHttp;
            c.url = QUrl(u"http://127.0.0.1:9/mcp"_s);
        }
        host.addServer(c);
        host.shutdown(); // right away: the server is still starting
        QVERIFY(done.wait(5000));
    }

    void shutdownClosesStdinAndAPoliteServerExitsWithoutSignals()
    {
        CoreHost host;
        Recorder rec(host);
        QSignalSpy done(&host, &CoreHost::shutdownFinished);
        host.addServer(demo(u"demo"_s));
        QTRY_VERIFY_WITH_TIMEOUT(rec.ready(u"demo"_s), 10000);
        host.shutdown();
        QVERIFY(done.wait(5000));
        const SessionSnapshot s = rec.snapshots[u"demo"_s];
        QCOMPARE(s.state, SessionSnapshot::State::Closed);
        QCOMPARE(s.transport.exitCode.value_or(-1), 0);
        QVERIFY(!s.transport.exitSignal);
    }
};

QTEST_GUILESS_MAIN(TestCoreHost)
#include "tst_corehost.moc"
