// SPDX-License-Identifier: MIT
#include "protocol/error.h"
#include "recovery/circuitbreaker.h"
#include "util/clock.h"

#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestCircuitBreaker : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void opensAtTheThresholdAndRefusesWithoutDispatch()
    {
        ManualClock clock;
        CircuitBreaker b(clock);
        for (int i = 0; i < 2; ++i) {
            QVERIFY(b.admit(u"s"_s).allowed);
            b.recordStrike(u"timeout"_s);
            QCOMPARE(b.state(), CircuitBreaker::State::Closed);
        }
        b.recordStrike(u"timeout"_s);
        QCOMPARE(b.state(), CircuitBreaker::State::Open);
        const auto a = b.admit(u"everything"_s);
        QVERIFY(!a.allowed);
        QCOMPARE(a.retryInMs, 60'000);
        QVERIFY2(a.message.contains(u"everything"_s) &&
                     a.message.contains(u"3 consecutive failures"_s) &&
                     a.message.contains(u"retry in 60 s"_s),
                 qPrintable(a.message));
    }

    void aBreakerTrippedByHandSaysSoWhenItRefuses()
    {
        ManualClock clock;
        CircuitBreaker b(clock);
        b.recordStrike(u"timeout"_s);
        b.trip(u"user"_s);
        const auto a = b.admit(u"demo"_s);
        QVERIFY(!a.allowed);
        QVERIFY2(a.message.contains(u"tripped by hand (user)"_s) &&
                     !a.message.contains(u"consecutive failures"_s) &&
                     a.message.contains(u"retry in 60 s"_s),
                 qPrintable(a.message));
        // A failed probe after the cooldown reopens it on a failure, which it then names.
        clock.advance(60'000);
        QVERIFY(b.admit(u"demo"_s).probe);
        b.recordStrike(u"timeout"_s);
        QVERIFY2(b.admit(u"demo"_s).message.contains(u"consecutive failures"_s),
                 qPrintable(b.admit(u"demo"_s).message));
    }

    void theSecondsLeftNeverShowZeroWhileOpen()
    {
        ManualClock clock;
        CircuitBreaker b(clock, {1, 60'000});
        b.recordStrike(u"x"_s);
        clock.advance(59'999);
        QVERIFY(b.admit(u"s"_s).message.contains(u"retry in 1 s"_s));
    }

    void everyStrikeWhileOpenReArmsTheCooldown()
    {
        ManualClock clock;
        CircuitBreaker b(clock, {3, 60'000});
        for (int i = 0; i < 3; ++i)
            b.recordStrike(u"x"_s);
        clock.advance(50'000);
        b.recordStrike(u"still failing"_s);
        clock.advance(50'000);
        QCOMPARE(b.state(), CircuitBreaker::State::Open);
        QCOMPARE(b.retryInMs(), 10'000);
    }

    void halfOpenLetsExactlyOneProbeThrough()
    {
        ManualClock clock;
        CircuitBreaker b(clock, {3, 60'000});
        for (int i = 0; i < 3; ++i)
            b.recordStrike(u"x"_s);
        clock.advance(60'000);
        QCOMPARE(b.state(), CircuitBreaker::State::HalfOpen);
        const auto probe = b.admit(u"s"_s);
        QVERIFY(probe.allowed && probe.probe);
        const auto second = b.admit(u"s"_s);
        QVERIFY(!second.allowed);
        QVERIFY(second.message.contains(u"probe"_s));
    }

    void aSuccessfulProbeClosesAndAFailedOneReopens_data()
    {
        QTest::addColumn<bool>("probeSucceeds");
        QTest::newRow("the probe succeeds") << true;
        QTest::newRow("the probe fails") << false;
    }
    void aSuccessfulProbeClosesAndAFailedOneReopens()
    {
        QFETCH(bool, probeSucceeds);
        ManualClock clock;
        CircuitBreaker b(clock, {3, 1000});
        for (int i = 0; i < 3; ++i)
            b.recordStrike(u"x"_s);
        clock.advance(1000);
        QVERIFY(b.admit(u"s"_s).probe);
        if (probeSucceeds)
            b.recordSuccess(u"probe ok"_s);
        else
            b.recordStrike(u"probe failed"_s);
        QCOMPARE(b.state(),
                 probeSucceeds ? CircuitBreaker::State::Closed : CircuitBreaker::State::Open);
        QCOMPARE(b.strikes(), probeSucceeds ? 0 : 4);
        if (!probeSucceeds)
            QCOMPARE(b.retryInMs(), 1000);
    }

    void anySuccessResetsTheCount()
    {
        ManualClock clock;
        CircuitBreaker b(clock);
        b.recordStrike(u"x"_s);
        b.recordStrike(u"x"_s);
        b.recordSuccess(u"call ok"_s);
        b.recordStrike(u"x"_s);
        b.recordStrike(u"x"_s);
        QCOMPARE(b.state(), CircuitBreaker::State::Closed);
        QCOMPARE(b.strikes(), 2);
    }

    void resetAndTripByHandAreTransitionsInTheHistory()
    {
        ManualClock clock;
        CircuitBreaker b(clock);
        b.trip(u"user"_s);
        QCOMPARE(b.state(), CircuitBreaker::State::Open);
        clock.advance(5);
        b.reset(u"user"_s);
        QCOMPARE(b.state(), CircuitBreaker::State::Closed);
        const auto t = b.takeTransitions();
        QCOMPARE(t.size(), 2);
        QCOMPARE(t[0].to, CircuitBreaker::State::Open);
        QVERIFY(t[0].cause.contains(u"tripped by hand"_s));
        QCOMPARE(t[1].to, CircuitBreaker::State::Closed);
        QCOMPARE(t[1].timeMs - t[0].timeMs, 5);
    }

    void whatCountsAsAStrike_data()
    {
        QTest::addColumn<Error>("error");
        QTest::addColumn<bool>("strike");
        QTest::newRow("a transport failure") << Error::transport(u"refused"_s) << true;
        QTest::newRow("a timeout") << Error::timeout(u"t"_s) << true;
        QTest::newRow("a tool's isError (an application strike)")
            << Error::application(u"boom"_s) << true;
        QTest::newRow("not connected")
            << Error::transport(u"not connected"_s, Error::Condition::NotConnected) << true;
        QTest::newRow("a user cancellation is never a strike")
            << Error::cancelled(u"user"_s) << false;
        QTest::newRow("a JSON-RPC error answer is not a strike")
            << Error::remote(-32602, u"bad args"_s) << false;
        QTest::newRow("a 401 the credentials could not cure is no strike: the server is well")
            << Error::transport(u"needs_reauth: refresh: invalid_grant"_s).setHttpStatus(401)
            << false;
        QTest::newRow("a 403 insufficient_scope past the step-up limit is no strike")
            << Error::transport(u"needs_reauth: step-up"_s).setHttpStatus(403) << false;
        QTest::newRow("a 503 is a strike")
            << Error::transport(u"busy"_s).setHttpStatus(503) << true;
    }
    void whatCountsAsAStrike()
    {
        QFETCH(Error, error);
        QFETCH(bool, strike);
        QCOMPARE(CircuitBreaker::isStrike(error), strike);
    }
};

QTEST_APPLESS_MAIN(TestCircuitBreaker)
#include "tst_circuitbreaker.moc"
