// SPDX-License-Identifier: MIT
// CallRecoveryUnit on its own, with the server's progress set by the test (the supervisor
// does it in the program): calls that wait for a reconnect, their recovery budget on a
// ManualClock, cancelling and stopping them, and a reconnect by hand answered on the next
// generation only. The recovery of calls on the wire is held by tst_serversupervisor.
#include "faketransport.h"
#include "recovery/breakerbookkeeper.h"
#include "recovery/callrecoveryunit.h"
#include "recovery/reconnectcontroller.h"
#include "recovery/serverprogress.h"
#include "session/serversession.h"
#include "util/clock.h"

#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

ServerConfig config()
{
    ServerConfig c;
    c.name = u"wpcom"_s;
    c.route = ServerConfig::Route::StreamableHttp;
    return c;
}

struct Fixture
{
    Fixture()
        : cfg(config()), session(cfg, clock, QJsonObject{},
                                 [](const ServerConfig &, const Clock &) {
                                     return std::make_unique<FakeTransport>();
                                 }),
          breaker(clock, {cfg.breakerThreshold, cfg.breakerCooldownMs}),
          reconnect(clock, progress, 0), unit(cfg, clock, progress, session, breaker, reconnect),
          answers(&unit, &CallRecoveryUnit::callFinished),
          restarts(&reconnect, &ReconnectController::restartRequested),
          recorded(&unit, &CallRecoveryUnit::recorded)
    {
        // Nothing to send on: the session failed after its first generation.
        progress.state = SessionSnapshot::State::Failed;
        progress.generation = 1;
    }
    void call(const QString &method, quint64 ticket = 7)
    {
        CallRequest r;
        r.ticket = ticket;
        r.server = cfg.name;
        r.method = method;
        r.params = {{"name"_L1, "t"_L1}};
        unit.call(r);
    }
    void newGeneration(int generation)
    {
        progress.state = SessionSnapshot::State::Ready;
        progress.generation = generation;
        reconnect.sessionReady();
        unit.sessionReady();
    }
    CallOutcome answer() const { return answers.last().at(0).value<CallOutcome>(); }

    ManualClock clock;
    ServerConfig cfg;
    ServerProgress progress;
    ServerSession session;
    BreakerBookkeeper breaker;
    ReconnectController reconnect;
    CallRecoveryUnit unit;
    QSignalSpy answers;
    QSignalSpy restarts;
    QSignalSpy recorded;
};

} // namespace

class TestCallRecoveryUnit : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        qRegisterMetaType<Sonde::CallOutcome>();
        qRegisterMetaType<Sonde::HistoryEvent>();
    }

    void aCallWithNothingToSendOnWaitsAndAsksForAReconnect()
    {
        Fixture f;
        f.call(u"tools/list"_s);
        QCOMPARE(f.answers.size(), 0);
        QCOMPARE(f.restarts.size(), 1);
        QCOMPARE(f.restarts.at(0).at(0).toString(),
                 u"a call arrived while the server was failed"_s);
        const HistoryEvent e = f.recorded.last().at(0).value<HistoryEvent>();
        const auto *waits = e.as<HistoryEvent::CallWaitsForReconnect>();
        QVERIFY(waits);
        QCOMPARE(waits->method, u"tools/list"_s);
        QCOMPARE(waits->state, u"failed"_s);
    }

    void aWaitingCallWhoseBudgetRunsOutIsAnsweredNotSent_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<int>("strikes");
        QTest::newRow("a read is answered not sent, and is no strike") << u"tools/list"_s << 0;
        QTest::newRow("a tool call is answered not sent, and strikes the breaker")
            << u"tools/call"_s << 1;
    }
    void aWaitingCallWhoseBudgetRunsOutIsAnsweredNotSent()
    {
        QFETCH(QString, method);
        QFETCH(int, strikes);
        Fixture f;
        f.call(method);
        f.clock.advance(f.cfg.recoveryBudgetMs - 1);
        QCOMPARE(f.answers.size(), 0);
        f.clock.advance(1);
        QCOMPARE(f.answers.size(), 1);
        const CallOutcome o = f.answer();
        QCOMPARE(o.error.condition(), Error::Condition::NotConnected);
        QVERIFY2(o.error.message().contains("the call was not sent"_L1),
                 qPrintable(o.error.message()));
        QCOMPARE(o.attempts, 0);
        QVERIFY(o.recovery);
        QCOMPARE(o.recovery->reconnect, ReconnectOutcome::Pending);
        QCOMPARE(o.recovery->outcomeUncertain, std::nullopt);
        QCOMPARE(f.breaker.state().strikes, strikes);
    }

    void aWaitingCallIsCancelledAtOnce()
    {
        Fixture f;
        f.call(u"tools/call"_s);
        f.unit.cancel(7, u"user"_s);
        QCOMPARE(f.answers.size(), 1);
        QCOMPARE(f.answer().error.kind(), Error::Kind::Cancelled);
        QCOMPARE(f.breaker.state().strikes, 0);
    }

    void stoppingAnswersTheWaitingCalls()
    {
        Fixture f;
        f.call(u"tools/list"_s, 7);
        f.call(u"prompts/list"_s, 8);
        f.unit.stop();
        QCOMPARE(f.answers.size(), 2);
        QCOMPARE(f.answer().error.kind(), Error::Kind::Cancelled);
        QCOMPARE(f.answer().error.message(), u"the session was closed"_s);
    }

    void aReconnectByHandAnswersOnANewerGenerationOnly()
    {
        Fixture f;
        f.progress.state = SessionSnapshot::State::Ready;
        f.call(CallRecoveryUnit::ReconnectCommand);
        QCOMPARE(f.restarts.size(), 1);
        QCOMPARE(f.restarts.at(0).at(0).toString(), u"by hand"_s);
        f.unit.sessionReady(); // generation 1 again: not the one it waits for
        QCOMPARE(f.answers.size(), 0);
        f.clock.advance(25);
        f.newGeneration(2);
        QCOMPARE(f.answers.size(), 1);
        const CallOutcome o = f.answer();
        QVERIFY(o.ok());
        QCOMPARE(o.generation, 2);
        QCOMPARE(o.result.toObject().value("generation"_L1).toInt(), 2);
        QCOMPARE(o.recovery->waitedMs, 25);
    }
};

QTEST_GUILESS_MAIN(TestCallRecoveryUnit)
#include "tst_callrecoveryunit.moc"
