// SPDX-License-Identifier: MIT
// The reference suite's recovery cases (hermes-session-reconnect-tests), in Sonde's terms,
// on a transport the test drives by hand: wait for a new generation, never the stale
// session; the four non-tool reads reconnect and retry once; read-only tools are replayed
// and write-capable ones answered "outcome uncertain"; a stdio death after the write is not
// replayed; the unannotated tool fails safe; no server record falls through.
#include "engine/engine.h"
#include "faketransport.h"
#include "recovery/serversupervisor.h"
#include "session/serversession.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QPointer>
#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

struct Fixture
{
    ManualClock clock;
    QList<QPointer<FakeTransport>> transports; // one per connection, in order
    bool drains = false;                       // the transports drain on a reconnect
    std::unique_ptr<ServerSupervisor> supervisor;
    std::unique_ptr<QSignalSpy> done;

    // The agent's profile by default: these rows hold the contract's own numbers (60 s,
    // 300 s, refused while open); the interactive departures have rows of their own.
    explicit Fixture(ServerConfig::Route route = ServerConfig::Route::StreamableHttp,
                     ServerConfig::RecoveryProfile profile = ServerConfig::RecoveryProfile::Agent)
    {
        ServerConfig c;
        c.name = u"wpcom"_s;
        c.route = route;
        c.recoveryProfile = profile;
        c.era = ServerConfig::Era::Initialize; // session expiry exists in the handshake era only
        supervisor = std::make_unique<ServerSupervisor>(
            c, clock, QJsonObject{}, nullptr, [this](const ServerConfig &, const Clock &) {
                auto t = std::make_unique<FakeTransport>();
                t->drains = drains;
                transports.append(t.get());
                return t;
            });
        done = std::make_unique<QSignalSpy>(supervisor.get(), &ServerSupervisor::callFinished);
    }
    FakeTransport *t() const { return transports.last(); }
    void initialize()
    {
        const QJsonObject init = t()->sentWithMethod(u"initialize"_s).value(0);
        t()->answer(init,
                    {{"protocolVersion"_L1, "2025-11-25"_L1}, {"capabilities"_L1, QJsonObject{}}});
    }
    void start()
    {
        supervisor->start();
        initialize();
    }
    void call(const QString &method, const QJsonObject &params = {}, quint64 ticket = 7)
    {
        CallRequest r;
        r.ticket = ticket;
        r.server = u"wpcom"_s;
        r.method = method;
        r.params = params;
        supervisor->call(r);
    }
    QJsonObject lastRequest() const
    {
        for (qsizetype i = t()->sent.size() - 1; i >= 0; --i)
            if (t()->sent[i].contains("id"_L1) && t()->sent[i].contains("method"_L1))
                return t()->sent[i];
        return {};
    }
    void expire()
    {
        t()->answerError(lastRequest(), -32602, u"Invalid params: Invalid or expired session"_s);
    }
    // `count` calls the server answers with isError: one strike each (tickets 10, 11, ...).
    void failToolCalls(int count)
    {
        for (int i = 0; i < count; ++i) {
            call(u"tools/call"_s, {{"name"_L1, "t"_L1}}, quint64(10 + i));
            t()->answer(lastRequest(), {{"isError"_L1, true}, {"content"_L1, QJsonArray{}}});
        }
    }
    CallOutcome outcome() const
    {
        return done->isEmpty() ? CallOutcome{} : done->last().at(0).value<CallOutcome>();
    }
};

QJsonObject tools(const QJsonObject &annotations)
{
    QJsonObject tool{{"name"_L1, "t"_L1},
                     {"inputSchema"_L1, QJsonObject{{"type"_L1, "object"_L1}}}};
    if (!annotations.isEmpty())
        tool.insert("annotations"_L1, annotations);
    return {{"tools"_L1, QJsonArray{tool}}};
}

} // namespace

class TestServerSupervisor : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aRetryWaitsForANewGenerationNotTheStaleSession()
    {
        Fixture f;
        f.start();
        f.call(u"resources/list"_s);
        FakeTransport *old = f.t();
        f.expire();
        // The old session is gone and nothing is re-sent until the new one is initialized.
        QCOMPARE(f.transports.size(), 2);
        QVERIFY(f.t() != old);
        QCOMPARE(f.t()->sentWithMethod(u"resources/list"_s).size(), 0);
        QCOMPARE(f.done->size(), 0);
        f.clock.advance(40);
        f.initialize();
        QCOMPARE(f.t()->sentWithMethod(u"resources/list"_s).size(), 1);
        f.clock.advance(2);
        f.t()->answer(f.lastRequest(), {{"resources"_L1, QJsonArray{}}});
        QCOMPARE(f.done->size(), 1);
        const CallOutcome o = f.outcome();
        QVERIFY(o.ok());
        QCOMPARE(o.recovery->generations, (QList<int>{1, 2}));
        QVERIFY(o.recovery->replayed);
        QCOMPARE(ExpiryRules::name(o.recovery->rule), u"text-marker"_s);
        // From the expiry verdict to the retried answer, on the engine's clock.
        QCOMPARE(o.recovery->recoveryMs.value_or(0), 42.0);
    }

    void theNonToolReadMethodsReconnectAndRetryOnce_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QJsonObject>("params");
        QTest::addColumn<QJsonObject>("result");
        QTest::newRow("resources/list")
            << u"resources/list"_s << QJsonObject() << QJsonObject{{"resources"_L1, QJsonArray{}}};
        QTest::newRow("resources/read")
            << u"resources/read"_s << QJsonObject{{"uri"_L1, "a://b"_L1}}
            << QJsonObject{{"contents"_L1, QJsonArray{}}};
        QTest::newRow("prompts/list")
            << u"prompts/list"_s << QJsonObject() << QJsonObject{{"prompts"_L1, QJsonArray{}}};
        QTest::newRow("prompts/get") << u"prompts/get"_s << QJsonObject{{"name"_L1, "p"_L1}}
                                     << QJsonObject{{"messages"_L1, QJsonArray{}}};
    }
    void theNonToolReadMethodsReconnectAndRetryOnce()
    {
        QFETCH(QString, method);
        QFETCH(QJsonObject, params);
        QFETCH(QJsonObject, result);
        Fixture f;
        f.start();
        f.call(method, params);
        f.expire();
        f.initialize();
        f.t()->answer(f.lastRequest(), result);
        QCOMPARE(f.done->size(), 1);
        QVERIFY(f.outcome().ok());
        QCOMPARE(f.outcome().attempts, 2);
    }

    void aFailedRetryReportsItsOwnErrorAndIsNotRetriedAgain()
    {
        Fixture f;
        f.start();
        f.call(u"prompts/list"_s);
        f.expire();
        f.initialize();
        f.t()->answerError(f.lastRequest(), -32603, u"the retry failed on its own"_s);
        QCOMPARE(f.done->size(), 1);
        QCOMPARE(f.outcome().error.message(), u"the retry failed on its own"_s);
        QCOMPARE(f.transports.size(), 2); // no second reconnect for the same action
    }

    void toolCallsAreReplayedOnlyWhenReadOnlyHintIsTrue_data()
    {
        QTest::addColumn<QJsonObject>("annotations");
        QTest::addColumn<bool>("replayed");
        QTest::newRow("readOnlyHint true: replayed")
            << QJsonObject{{"readOnlyHint"_L1, true}} << true;
        QTest::newRow("readOnlyHint false: uncertain")
            << QJsonObject{{"readOnlyHint"_L1, false}} << false;
        QTest::newRow("the unannotated tool fails safe") << QJsonObject() << false;
        QTest::newRow("the string \"true\" is not true")
            << QJsonObject{{"readOnlyHint"_L1, "true"_L1}} << false;
    }
    void toolCallsAreReplayedOnlyWhenReadOnlyHintIsTrue()
    {
        QFETCH(QJsonObject, annotations);
        QFETCH(bool, replayed);
        Fixture f;
        f.start();
        f.call(u"tools/call"_s, {{"name"_L1, "t"_L1}, {"arguments"_L1, QJsonObject{}}});
        f.expire();
        f.initialize();
        // The annotations are read from the new session before deciding.
        QCOMPARE(f.lastRequest().value("method"_L1).toString(), u"tools/list"_s);
        f.t()->answer(f.lastRequest(), tools(annotations));
        if (replayed) {
            QCOMPARE(f.lastRequest().value("method"_L1).toString(), u"tools/call"_s);
            f.t()->answer(f.lastRequest(),
                          {{"content"_L1, QJsonArray{QJsonObject{{"type"_L1, "text"_L1},
                                                                 {"text"_L1, "ok"_L1}}}}});
        }
        QCOMPARE(f.done->size(), 1);
        const CallOutcome o = f.outcome();
        QCOMPARE(f.t()->sentWithMethod(u"tools/call"_s).size(), replayed ? 1 : 0);
        if (replayed) {
            QVERIFY(o.ok());
            QCOMPARE(enumName(o.recovery->verdict.value().source), u"server hint"_s);
        } else {
            QVERIFY(o.recovery->outcomeUncertain.value_or(false));
            QCOMPARE(o.recovery->server.value_or(QString()), u"wpcom"_s);
            QCOMPARE(o.recovery->replayed, false);
            QCOMPARE(o.recovery->reconnect, ReconnectOutcome::Ok);
            QVERIFY(o.error.message().contains(u"may or may not have taken effect"_s));
            QVERIFY(o.error.message().contains(u"has been re-established"_s));
        }
    }

    void aStdioChildThatDiesAfterTheWriteIsNeverReplayed()
    {
        Fixture f(ServerConfig::Route::Stdio);
        f.start();
        // Even a read-only tool: the process may have run it before it died.
        f.call(u"tools/call"_s, {{"name"_L1, "t"_L1}});
        f.t()->die(u"server process 7 was killed by signal 9"_s);
        f.initialize();
        QCOMPARE(f.done->size(), 1);
        const CallOutcome o = f.outcome();
        QVERIFY(o.recovery->outcomeUncertain.value_or(false));
        QCOMPARE(ExpiryRules::name(o.recovery->rule), u"transport-closed"_s);
        QCOMPARE(f.t()->sentWithMethod(u"tools/call"_s).size(), 0);
    }

    void aCallToADeadServerIsSentOnceAfterTheRespawn()
    {
        Fixture f(ServerConfig::Route::Stdio);
        f.start();
        f.t()->die(u"exited with code 1"_s);
        f.call(u"tools/call"_s, {{"name"_L1, "t"_L1}});
        QCOMPARE(f.transports.size(), 2);
        f.initialize();
        QCOMPARE(f.t()->sentWithMethod(u"tools/call"_s).size(), 1);
        f.t()->answer(f.lastRequest(), {{"content"_L1, QJsonArray{}}});
        QVERIFY(f.outcome().ok());
        QCOMPARE(f.outcome().attempts, 1);
    }

    void aUserCancellationIsNeverRecoveredNorAStrike()
    {
        Fixture f;
        f.start();
        f.call(u"tools/call"_s, {{"name"_L1, "t"_L1}});
        f.supervisor->cancel(7, u"user"_s);
        QCOMPARE(f.done->size(), 1);
        QCOMPARE(f.outcome().error.kind(), Error::Kind::Cancelled);
        QCOMPARE(f.transports.size(), 1);
        QCOMPARE(f.supervisor->snapshot().recovery->breaker.strikes, 0);
    }

    void threeToolErrorsOpenTheBreakerAndTheFourthIsNotSent()
    {
        Fixture f;
        f.start();
        f.failToolCalls(3);
        const qsizetype sent = f.t()->sentWithMethod(u"tools/call"_s).size();
        f.call(u"tools/call"_s, {{"name"_L1, "t"_L1}}, 20);
        QCOMPARE(f.t()->sentWithMethod(u"tools/call"_s).size(), sent);
        QCOMPARE(f.outcome().error.kind(), Error::Kind::Refused);
        QCOMPARE(f.outcome().recovery->retryInS, 60);
        f.clock.advance(60'000); // the cooldown passes without sleeping
        f.call(u"tools/call"_s, {{"name"_L1, "t"_L1}}, 21);
        QCOMPARE(f.t()->sentWithMethod(u"tools/call"_s).size(), sent + 1); // the one probe
        f.call(u"tools/call"_s, {{"name"_L1, "t"_L1}}, 22);
        QCOMPARE(f.t()->sentWithMethod(u"tools/call"_s).size(), sent + 1); // refused while it runs
    }

    // The failure paths of recovery, on the injected clock: every wait below is a ClockTimer
    // on the ManualClock, so a 15 s budget or a 300 s parked probe costs no time.

    void theSharedRecoveryBudgetRunningOutAnswersTheWaitingCall_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<bool>("uncertain");
        QTest::newRow("a read answers with the expiry and the budget it waited")
            << u"prompts/list"_s << false;
        QTest::newRow("a write answers outcome uncertain, reconnect pending")
            << u"tools/call"_s << true;
    }
    void theSharedRecoveryBudgetRunningOutAnswersTheWaitingCall()
    {
        QFETCH(QString, method);
        QFETCH(bool, uncertain);
        Fixture f;
        f.start();
        f.call(method, {{"name"_L1, "t"_L1}});
        f.expire();
        QCOMPARE(f.transports.size(), 2); // the reconnect is under way and never finishes
        f.clock.advance(14'999);
        QCOMPARE(f.done->size(), 0);
        f.clock.advance(1);
        QCOMPARE(f.done->size(), 1);
        const CallOutcome o = f.outcome();
        QCOMPARE(o.recovery->reconnect, ReconnectOutcome::Pending);
        QCOMPARE(o.recovery->outcomeUncertain.value_or(false), uncertain);
        QCOMPARE(o.recovery->replayed, false);
        if (uncertain)
            QVERIFY(o.error.message().contains("is not recovered yet (reconnect pending)"_L1));
        else
            QVERIFY2(o.error.message().contains("recovery budget of 15000 ms"_L1),
                     qPrintable(o.error.message()));
        QCOMPARE(f.t()->sentWithMethod(method).size(), 0);
    }

    void aFailedReconnectStrikesBacksOffAndParksAfterFiveFailures()
    {
        Fixture f;
        f.start();
        f.call(u"prompts/list"_s);
        f.expire();
        auto recovery = [&] { return f.supervisor->snapshot().recovery.value(); };
        for (int attempt = 1; attempt <= 5; ++attempt) {
            QCOMPARE(f.transports.size(), 1 + attempt);
            f.t()->die(u"connect: Connection refused"_s); // this attempt fails
            const RecoveryState r = recovery();
            QCOMPARE(r.reconnect.failedAttempts, attempt);
            QCOMPARE(r.breaker.strikes, attempt);
            const qint64 next = r.reconnect.nextAttemptInMs;
            if (attempt < 5) {
                // 1 s doubling, +/-20 %
                const qint64 base = qint64(1000) << (attempt - 1);
                QVERIFY2(next >= base * 8 / 10 && next <= base * 12 / 10,
                         qPrintable(QString::number(next)));
                QVERIFY(!r.reconnect.parked);
                f.clock.advance(next);
            } else {
                QVERIFY(r.reconnect.parked);
                QCOMPARE(next, 300'000);
            }
        }
        // Parked: nothing for 300 s, then one probe.
        f.clock.advance(299'999);
        QCOMPARE(f.transports.size(), 6);
        // The call's 15 s budget ran out meanwhile: answered, saying the reconnect failed.
        QCOMPARE(f.done->size(), 1);
        QCOMPARE(f.outcome().recovery->reconnect, ReconnectOutcome::Failed);
        f.clock.advance(1);
        QCOMPARE(f.transports.size(), 7);
        f.initialize(); // the probe finds the server back: unparked, breaker reset
        const RecoveryState r = recovery();
        QCOMPARE(r.reconnect.failedAttempts, 0);
        QCOMPARE(r.breaker.strikes, 0);
        QCOMPARE(f.supervisor->snapshot().generation, 2);
    }

    // docs/recovery.md §10: a developer's server down for the seconds of a rebuild. Four
    // failed reconnects open the breaker (3 strikes); when the server is back, the agent's
    // profile refuses the next call unsent for the rest of the cooldown, the interactive one
    // reconnects at once for it and sends it, once.
    void aCallAfterAnOutageIsSentAsSoonAsTheServerIsBackInTheInteractiveProfile_data()
    {
        QTest::addColumn<int>("profile");
        QTest::addColumn<bool>("sent");
        QTest::addColumn<qint64>("backoffCapMs");
        QTest::addColumn<qint64>("parkedProbeMs");
        QTest::newRow("interactive: the call reconnects at once and is sent")
            << int(ServerConfig::RecoveryProfile::Interactive) << true << qint64(10'000)
            << qint64(30'000);
        QTest::newRow("agent: refused unsent while the breaker is open, as RECOVERY.md says")
            << int(ServerConfig::RecoveryProfile::Agent) << false << qint64(60'000)
            << qint64(300'000);
    }
    void aCallAfterAnOutageIsSentAsSoonAsTheServerIsBackInTheInteractiveProfile()
    {
        QFETCH(int, profile);
        QFETCH(bool, sent);
        QFETCH(qint64, backoffCapMs);
        QFETCH(qint64, parkedProbeMs);
        Fixture f(ServerConfig::Route::StreamableHttp, ServerConfig::RecoveryProfile(profile));
        f.start();
        f.t()->die(u"connection refused"_s);  // the server goes down
        f.call(u"sonde/reconnect"_s, {}, 99); // and the developer asks for a reconnect
        auto recovery = [&] { return f.supervisor->snapshot().recovery.value(); };
        qint64 longest = 0;
        for (int attempt = 1; attempt <= 5; ++attempt) {
            f.t()->die(u"connect: Connection refused"_s);
            const qint64 next = recovery().reconnect.nextAttemptInMs;
            if (attempt < 5) {
                longest = std::max(longest, next);
                f.clock.advance(next);
            } else {
                QCOMPARE(next, parkedProbeMs);
            }
        }
        QVERIFY2(longest <= backoffCapMs * 12 / 10, qPrintable(QString::number(longest)));
        QCOMPARE(recovery().breaker.phase, BreakerPhase::Open);
        // The server is back; the developer calls a tool before any probe ran.
        const qsizetype before = f.transports.size();
        const qsizetype answered = f.done->size(); // the reconnect by hand's own answer
        f.call(u"tools/call"_s, {{"name"_L1, "t"_L1}});
        if (!sent) {
            QCOMPARE(f.done->size(), answered + 1);
            QCOMPARE(f.outcome().recovery->breaker, BreakerPhase::Open);
            QCOMPARE(f.transports.size(), before);
            return;
        }
        QCOMPARE(f.done->size(), answered);
        QCOMPARE(f.transports.size(), before + 1); // a reconnect now, for the call
        f.initialize();
        QCOMPARE(recovery().breaker.phase, BreakerPhase::Closed);
        QCOMPARE(f.t()->sentWithMethod(u"tools/call"_s).size(), 1);
        f.t()->answer(f.lastRequest(), {{"content"_L1, QJsonArray{}}});
        // The reconnect by hand may answer here too (its budget was not spent): find the call.
        bool answeredOk = false;
        for (const QList<QVariant> &args : std::as_const(*f.done)) {
            const CallOutcome o = args.at(0).value<CallOutcome>();
            if (o.ticket == 7)
                answeredOk = o.ok();
        }
        QVERIFY(answeredOk);
    }

    void aBreakerTrippedByHandRefusesEvenWhileDisconnectedInTheInteractiveProfile()
    {
        Fixture f(ServerConfig::Route::StreamableHttp, ServerConfig::RecoveryProfile::Interactive);
        f.start();
        f.supervisor->tripBreaker();
        f.t()->die(u"connection refused"_s);
        const qsizetype answered = f.done->size();
        const qsizetype before = f.transports.size();
        f.call(u"tools/call"_s, {{"name"_L1, "t"_L1}});
        QCOMPARE(f.done->size(), answered + 1);
        QVERIFY2(f.outcome().error.message().contains("tripped by hand"_L1),
                 qPrintable(f.outcome().error.message()));
        QCOMPARE(f.transports.size(), before);
    }

    void aSuccessfulReconnectResetsTheBreaker()
    {
        Fixture f;
        f.start();
        f.failToolCalls(2);
        QCOMPARE(f.supervisor->snapshot().recovery->breaker.strikes, 2);
        f.call(u"prompts/list"_s, {}, 20);
        f.expire();
        f.initialize();
        QCOMPARE(f.supervisor->snapshot().recovery->breaker.strikes, 0);
    }

    void aRetryThatMeetsAnExpiryAgainIsNotRetried()
    {
        Fixture f;
        f.start();
        f.call(u"prompts/list"_s);
        f.expire();
        f.initialize();
        QCOMPARE(f.t()->sentWithMethod(u"prompts/list"_s).size(), 1);
        f.expire(); // the retry's session expires too
        QCOMPARE(f.done->size(), 1);
        QVERIFY(f.outcome().error.message().contains("Invalid or expired session"_L1));
        QCOMPARE(f.outcome().attempts, 2);
        QCOMPARE(f.transports.size(), 2); // no second reconnect for this call
    }

    void aCallInFlightWhenAnotherExpiresIsAbortedByTheTeardown()
    {
        Fixture f;
        f.start();
        f.call(u"tools/call"_s, {{"name"_L1, "t"_L1}}, 30); // a write, in flight
        f.call(u"prompts/list"_s, {}, 31);
        f.expire(); // the read's answer says the session expired: reconnect, tearing down
        f.initialize();
        // The read is sent again; the write was dispatched on the torn-down session.
        QCOMPARE(f.t()->sentWithMethod(u"prompts/list"_s).size(), 1);
        f.t()->answer(f.t()->sentWithMethod(u"prompts/list"_s).at(0),
                      {{"prompts"_L1, QJsonArray{}}});
        f.t()->answer(f.t()->sentWithMethod(u"tools/list"_s).value(0),
                      tools({})); // the write's annotations
        QCOMPARE(f.done->size(), 2);
        CallOutcome writeOutcome;
        for (const auto &args : *f.done)
            if (args[0].value<CallOutcome>().ticket == 30)
                writeOutcome = args[0].value<CallOutcome>();
        QVERIFY(writeOutcome.recovery->outcomeUncertain.value_or(false));
        QCOMPARE(ExpiryRules::name(writeOutcome.recovery->rule), u"transport-closed"_s);
        QVERIFY(writeOutcome.error.cause());
        QVERIFY(
            writeOutcome.error.cause()->message().contains("aborted by a reconnect teardown"_L1));
        QCOMPARE(f.t()->sentWithMethod(u"tools/call"_s).size(), 0);
    }

    void aLateExpiryFromTheReplacedSessionDoesNotReplaceTheNewOne()
    {
        // Two reads in flight when the session expires; the old transport drains, so each
        // gets its own answer. The second expiry comes after the new session is up: it is
        // sent again there, and the healthy new session is not replaced too (it was, when a
        // slow machine let the second 404 arrive late: generation 3).
        Fixture f;
        f.drains = true;
        f.start();
        f.call(u"resources/list"_s, {}, 40);
        f.call(u"prompts/list"_s, {}, 41);
        FakeTransport *old = f.t();
        const QString expired = u"Invalid params: Invalid or expired session"_s;
        old->answerError(old->sentWithMethod(u"resources/list"_s).at(0), -32602, expired);
        QCOMPARE(f.transports.size(), 2);
        QVERIFY(old->drained);
        f.initialize();
        old->answerError(old->sentWithMethod(u"prompts/list"_s).at(0), -32602, expired);
        QCOMPARE(f.transports.size(), 2);
        QCOMPARE(f.t()->sentWithMethod(u"resources/list"_s).size(), 1);
        QCOMPARE(f.t()->sentWithMethod(u"prompts/list"_s).size(), 1);
        f.t()->answer(f.t()->sentWithMethod(u"resources/list"_s).at(0),
                      {{"resources"_L1, QJsonArray{}}});
        f.t()->answer(f.t()->sentWithMethod(u"prompts/list"_s).at(0),
                      {{"prompts"_L1, QJsonArray{}}});
        QCOMPARE(f.done->size(), 2);
        for (const auto &args : *f.done) {
            const CallOutcome o = args[0].value<CallOutcome>();
            QVERIFY(o.ok());
            QCOMPARE(o.generation, 2);
            QVERIFY(o.recovery->replayed);
        }
    }

    void aRespawnThatDiesAgainSaysTheServerDoesNotStartCleanly()
    {
        Fixture f(ServerConfig::Route::Stdio);
        f.start();
        f.t()->die(u"exited with code 1"_s);
        f.call(u"tools/call"_s, {{"name"_L1, "t"_L1}});
        QCOMPARE(f.transports.size(), 2);
        f.t()->die(u"exited with code 1"_s); // the respawn dies before initialize
        QCOMPARE(f.supervisor->snapshot().recovery->breaker.strikes, 1);
        f.clock.advance(15'000);
        QCOMPARE(f.done->size(), 1);
        QVERIFY2(f.outcome().error.message().contains("does not start cleanly"_L1),
                 qPrintable(f.outcome().error.message()));
        QVERIFY(f.outcome().error.message().contains("stderr"_L1));
        for (const QPointer<FakeTransport> &t : f.transports)
            QVERIFY(!t || t->sentWithMethod(u"tools/call"_s).isEmpty()); // never sent
    }

    void aHalfOpenProbeThatMeetsAnExpiryRecoversAndClosesTheBreaker()
    {
        Fixture f;
        f.start();
        f.failToolCalls(3);
        f.clock.advance(60'000);
        f.call(u"tools/call"_s, {{"name"_L1, "t"_L1}}, 20); // the probe
        QCOMPARE(f.supervisor->snapshot().recovery->breaker.phase, BreakerPhase::HalfOpen);
        f.expire();
        f.initialize(); // reconnected: the breaker closes
        f.t()->answer(f.lastRequest(), tools({{"readOnlyHint"_L1, true}}));
        QCOMPARE(f.lastRequest().value("method"_L1).toString(), u"tools/call"_s); // replayed
        f.t()->answer(f.lastRequest(), {{"content"_L1, QJsonArray{}}});
        QVERIFY(f.outcome().ok());
        QCOMPARE(f.supervisor->snapshot().recovery->breaker.phase, BreakerPhase::Closed);
        f.call(u"tools/call"_s, {{"name"_L1, "t"_L1}}, 21); // admitted: the probe was released
        QCOMPARE(f.lastRequest().value("method"_L1).toString(), u"tools/call"_s);
    }

    void aCallForAServerWithNoRecordFallsThroughAtOnce()
    {
        Engine engine(std::make_shared<ManualClock>());
        QSignalSpy done(&engine, &Engine::callFinished);
        CallRequest r;
        r.ticket = 1;
        r.server = u"nobody"_s;
        r.method = u"tools/call"_s;
        engine.call(r);
        QCOMPARE(done.size(), 1);
        QCOMPARE(done[0][0].value<CallOutcome>().error.condition(), Error::Condition::NotConnected);
    }

    void aCallWhileShuttingDownFallsThroughAtOnce()
    {
        Fixture f;
        f.start();
        f.supervisor->stop();
        f.call(u"ping"_s);
        QCOMPARE(f.done->size(), 1);
        QCOMPARE(f.outcome().error.condition(), Error::Condition::NotConnected);
    }
};

QTEST_GUILESS_MAIN(TestServerSupervisor)
#include "tst_serversupervisor.moc"
