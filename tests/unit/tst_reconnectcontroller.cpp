// SPDX-License-Identifier: MIT
// ReconnectController on a ManualClock: one attempt at a time, the backoff after failed
// attempts, parking after five and the 300 s probe, a reconnect by hand, and the keepalive.
#include "recovery/reconnectcontroller.h"
#include "recovery/serverprogress.h"
#include "util/clock.h"

#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

// No jitter: the random source sits in the middle of its range.
ReconnectPolicy exactPolicy()
{
    return ReconnectPolicy(ReconnectPolicy::Settings{}, [] { return 0.5; });
}

struct Fixture
{
    explicit Fixture(int pingIntervalMs = 0)
        : controller(clock, progress, pingIntervalMs, nullptr, exactPolicy()),
          restarts(&controller, &ReconnectController::restartRequested),
          recorded(&controller, &ReconnectController::recorded),
          failures(&controller, &ReconnectController::attemptFailed),
          pings(&controller, &ReconnectController::pingRequested)
    {
        progress.state = SessionSnapshot::State::Ready;
        progress.generation = 1;
    }

    // The last entry recorded, a T: another kind throws, which fails the test.
    template <typename T> T last() const
    {
        return std::get<T>(recorded.last().at(0).value<HistoryEvent>().body);
    }
    QList<EventKind> kinds() const
    {
        QList<EventKind> out;
        for (const QList<QVariant> &args : recorded)
            out.append(args.at(0).value<HistoryEvent>().kind());
        return out;
    }
    void fail()
    {
        progress.state = SessionSnapshot::State::Failed;
        controller.sessionFailed(u"connect: Connection refused"_s);
    }
    void ready()
    {
        progress.state = SessionSnapshot::State::Ready;
        ++progress.generation;
        controller.sessionReady();
    }

    ManualClock clock;
    ServerProgress progress;
    ReconnectController controller;
    QSignalSpy restarts;
    QSignalSpy recorded;
    QSignalSpy failures;
    QSignalSpy pings;
};

} // namespace

class TestReconnectController : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<Sonde::HistoryEvent>(); }

    void anAttemptIsRecordedAndAsksForARestart()
    {
        Fixture f;
        f.controller.request(u"session expired (text-marker)"_s);
        QCOMPARE(f.restarts.size(), 1);
        QCOMPARE(f.restarts.at(0).at(0).toString(), u"session expired (text-marker)"_s);
        QCOMPARE(f.restarts.at(0).at(1).toBool(), false); // not by hand: no polite close
        QVERIFY(f.controller.inProgress());
        QCOMPARE(f.controller.outcome(), ReconnectOutcome::Pending);
        const auto attempt = f.last<HistoryEvent::ReconnectAttempt>();
        QCOMPARE(attempt.fromGeneration, 1);
        QCOMPARE(attempt.attempt, 1);
    }

    void aSecondRequestWhileOneIsUnderWayStartsNothing()
    {
        Fixture f;
        f.controller.request(u"a"_s);
        f.controller.request(u"b"_s);
        QCOMPARE(f.restarts.size(), 1);
    }

    void nothingIsAttemptedWhileTheSupervisorStops()
    {
        Fixture f;
        f.progress.stopping = true;
        f.controller.request(u"a"_s);
        QCOMPARE(f.restarts.size(), 0);
    }

    void aNewGenerationEndsTheAttemptWithItsDuration()
    {
        Fixture f;
        f.controller.request(u"a"_s);
        f.clock.advance(30);
        f.ready();
        QVERIFY(!f.controller.inProgress());
        QCOMPARE(f.controller.outcome(), ReconnectOutcome::Ok);
        const auto reconnect = f.last<HistoryEvent::Reconnect>();
        QCOMPARE(reconnect.outcome, ReconnectOutcome::Ok);
        QCOMPARE(reconnect.fromGeneration, 1);
        QCOMPARE(reconnect.toGeneration, 2);
        QCOMPARE(reconnect.durationMs, 30);
    }

    void failedAttemptsBackOffDoublingFromOneSecond_data()
    {
        QTest::addColumn<int>("failures");
        QTest::addColumn<qint64>("delayMs");
        QTest::newRow("one failed attempt waits 1 s") << 1 << qint64(1000);
        QTest::newRow("two failed attempts wait 2 s") << 2 << qint64(2000);
        QTest::newRow("three failed attempts wait 4 s") << 3 << qint64(4000);
        QTest::newRow("four failed attempts wait 8 s") << 4 << qint64(8000);
        QTest::newRow("five failed attempts park the server: 300 s") << 5 << qint64(300'000);
    }
    void failedAttemptsBackOffDoublingFromOneSecond()
    {
        QFETCH(int, failures);
        QFETCH(qint64, delayMs);
        Fixture f;
        f.controller.request(u"session expired"_s);
        for (int i = 1; i <= failures; ++i) {
            f.fail();
            QCOMPARE(f.failures.size(), i);
            const auto scheduled = f.last<HistoryEvent::ReconnectScheduled>();
            QCOMPARE(scheduled.parked, i >= 5);
            if (i < failures) {
                f.clock.advance(scheduled.inMs); // the next attempt starts on its own
                QCOMPARE(f.restarts.size(), i + 1);
            }
        }
        QCOMPARE(f.last<HistoryEvent::ReconnectScheduled>().inMs, delayMs);
        QCOMPARE(f.controller.state().failedAttempts, failures);
        QCOMPARE(f.controller.state().nextAttemptInMs, delayMs);
        QCOMPARE(f.controller.state().parked, failures >= 5);
        QCOMPARE(f.controller.outcome(), ReconnectOutcome::Failed);
        // Not a moment before the delay.
        f.clock.advance(delayMs - 1);
        QCOMPARE(f.restarts.size(), failures);
        f.clock.advance(1);
        QCOMPARE(f.restarts.size(), failures + 1);
        QCOMPARE(f.restarts.last().at(0).toString(),
                 failures >= 5 ? u"parked: periodic probe"_s : u"backoff: next attempt"_s);
    }

    void aFailedReconnectIsRecordedWithNoGeneration()
    {
        Fixture f;
        f.controller.request(u"a"_s);
        f.clock.advance(12);
        f.fail();
        const QList<EventKind> kinds = f.kinds();
        QCOMPARE(kinds, (QList<EventKind>{EventKind::ReconnectAttempt, EventKind::Reconnect,
                                          EventKind::ReconnectScheduled}));
        const HistoryEvent e = f.recorded.at(1).at(0).value<HistoryEvent>();
        const auto *reconnect = e.as<HistoryEvent::Reconnect>();
        QVERIFY(reconnect);
        QCOMPARE(reconnect->outcome, ReconnectOutcome::Failed);
        QVERIFY(!reconnect->toGeneration);
        QCOMPARE(reconnect->durationMs, 12);
        QCOMPARE(reconnect->error, u"connect: Connection refused"_s);
    }

    void aReconnectByHandUnparksAndClosesPolitely()
    {
        Fixture f;
        f.controller.request(u"a"_s);
        for (int i = 0; i < 5; ++i) {
            f.fail();
            if (i < 4)
                f.clock.advance(f.last<HistoryEvent::ReconnectScheduled>().inMs);
        }
        QVERIFY(f.controller.state().parked);
        f.controller.reconnectByHand();
        QVERIFY(!f.controller.state().parked);
        QCOMPARE(f.controller.state().nextAttemptInMs, -1); // the parked probe is off
        QCOMPARE(f.restarts.last().at(0).toString(), u"by hand"_s);
        QCOMPARE(f.restarts.last().at(1).toBool(), true);
        QCOMPARE(f.last<HistoryEvent::ReconnectAttempt>().attempt, 1);
    }

    void theKeepalivePingsOnlyAReadySessionAndReconnectsWhenItFails()
    {
        Fixture f(1000);
        f.controller.sessionReady();
        f.clock.advance(1000);
        QCOMPARE(f.pings.size(), 1);
        QCOMPARE(f.pings.at(0).at(0).toInt(), 1000);
        f.clock.advance(1000); // still waiting for the first answer: no second ping
        QCOMPARE(f.pings.size(), 1);
        CallOutcome failed;
        failed.error = Error::transport(u"timeout"_s);
        f.controller.pingAnswered(failed);
        QCOMPARE(f.kinds().first(), EventKind::KeepaliveFailed);
        QCOMPARE(f.restarts.size(), 1);
        QCOMPARE(f.restarts.at(0).at(0).toString(), u"keepalive ping failed: timeout"_s);
    }

    void aCancelledPingIsNoFailure()
    {
        Fixture f(1000);
        f.controller.sessionReady();
        f.clock.advance(1000);
        CallOutcome cancelled;
        cancelled.error = Error::cancelled(u"the session was closed"_s);
        f.controller.pingAnswered(cancelled);
        QCOMPARE(f.recorded.size(), 0);
        QCOMPARE(f.restarts.size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestReconnectController)
#include "tst_reconnectcontroller.moc"
