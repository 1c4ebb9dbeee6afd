// SPDX-License-Identifier: MIT
// BreakerBookkeeper: every transition of the breaker becomes one "breaker" entry of the
// history, and its state reads as the snapshot shows it (seconds left rounded up).
#include "recovery/breakerbookkeeper.h"
#include "util/clock.h"

#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {
// The transition recorded `at`: another kind of entry throws, which fails the test.
HistoryEvent::Breaker transition(const QSignalSpy &recorded, qsizetype at)
{
    return std::get<HistoryEvent::Breaker>(recorded.at(at).at(0).value<HistoryEvent>().body);
}
} // namespace

class TestBreakerBookkeeper : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<Sonde::HistoryEvent>(); }

    void theThirdStrikeIsRecordedAsClosedToOpen()
    {
        ManualClock clock;
        BreakerBookkeeper b(clock, {3, 60'000});
        QSignalSpy recorded(&b, &BreakerBookkeeper::recorded);
        QSignalSpy transitioned(&b, &BreakerBookkeeper::transitioned);
        b.strike(u"timeout"_s);
        b.strike(u"timeout"_s);
        QCOMPARE(recorded.size(), 0); // strikes below the threshold move nothing
        b.strike(u"the server is reachable and rejected the call (isError)"_s);
        QCOMPARE(recorded.size(), 1);
        QCOMPARE(transitioned.size(), 1);
        const HistoryEvent e = recorded.at(0).at(0).value<HistoryEvent>();
        const auto *transition = e.as<HistoryEvent::Breaker>();
        QVERIFY(transition);
        QCOMPARE(transition->from, BreakerPhase::Closed);
        QCOMPARE(transition->to, BreakerPhase::Open);
        QCOMPARE(transition->strikes, 3);
        QCOMPARE(transition->threshold, 3);
        QCOMPARE(transition->cause, u"the server is reachable and rejected the call (isError)"_s);
    }

    void theSecondsLeftAreRoundedUp_data()
    {
        QTest::addColumn<qint64>("elapsedMs");
        QTest::addColumn<qint64>("retryInS");
        QTest::newRow("just opened: the whole cooldown") << qint64(0) << qint64(60);
        QTest::newRow("1 ms before the end still shows 1 s") << qint64(59'999) << qint64(1);
        QTest::newRow("over: 0") << qint64(60'000) << qint64(0);
    }
    void theSecondsLeftAreRoundedUp()
    {
        QFETCH(qint64, elapsedMs);
        QFETCH(qint64, retryInS);
        ManualClock clock;
        BreakerBookkeeper b(clock, {1, 60'000});
        b.strike(u"x"_s);
        clock.advance(elapsedMs);
        const BreakerState s = b.state();
        QCOMPARE(s.retryInS, retryInS);
        QCOMPARE(s.strikes, 1);
        QCOMPARE(s.threshold, 1);
        QCOMPARE(s.cooldownS, 60.0);
    }

    void theHalfOpenProbeAndItsSuccessAreBothRecorded()
    {
        ManualClock clock;
        BreakerBookkeeper b(clock, {1, 1000});
        b.strike(u"x"_s);
        clock.advance(1000);
        QSignalSpy recorded(&b, &BreakerBookkeeper::recorded);
        const CircuitBreaker::Admission a = b.admit(u"s"_s);
        QVERIFY(a.allowed && a.probe);
        QVERIFY(b.probeInFlight());
        QCOMPARE(b.phase(), BreakerPhase::HalfOpen);
        b.succeeded(u"a call succeeded"_s);
        QCOMPARE(recorded.size(), 2);
        QCOMPARE(transition(recorded, 0).to, BreakerPhase::HalfOpen);
        QCOMPARE(transition(recorded, 1).to, BreakerPhase::Closed);
        QVERIFY(!b.probeInFlight());
    }

    void aTripAndAResetByHandAreRecordedWithTheirCause()
    {
        ManualClock clock;
        BreakerBookkeeper b(clock, {3, 60'000});
        QSignalSpy recorded(&b, &BreakerBookkeeper::recorded);
        b.trip(u"user"_s);
        b.reset(u"user"_s);
        QCOMPARE(recorded.size(), 2);
        QCOMPARE(transition(recorded, 0).cause, u"tripped by hand: user"_s);
        QCOMPARE(transition(recorded, 1).cause, u"reset by hand: user"_s);
        QCOMPARE(b.state().strikes, 0);
    }
};

QTEST_GUILESS_MAIN(TestBreakerBookkeeper)
#include "tst_breakerbookkeeper.moc"
