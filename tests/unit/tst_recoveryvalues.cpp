// SPDX-License-Identifier: MIT
// The recovery value types: every EventKind is written as the name the transcript, the CLI
// and the timeline have always used, and every type survives toJson then fromJson.
#include "values/authvalues.h"
#include "values/recoveryvalues.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(Sonde::EventKind)
Q_DECLARE_METATYPE(Sonde::BreakerPhase)
Q_DECLARE_METATYPE(Sonde::ReconnectOutcome)
Q_DECLARE_METATYPE(Sonde::ReplaySource)

namespace {

HistoryEvent history(EventKind kind, qint64 t = 1000)
{
    HistoryEvent e;
    e.kind = kind;
    e.timeMs = t;
    return e;
}

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

class TestRecoveryValues : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void eventKindsAreWrittenAsTodaysNames_data()
    {
        QTest::addColumn<EventKind>("kind");
        QTest::addColumn<QString>("name");
        const QList<std::pair<EventKind, const char *>> rows = {
            {EventKind::Starting, "starting"},
            {EventKind::TransportOpen, "transport-open"},
            {EventKind::InitializeFailed, "initialize-failed"},
            {EventKind::Ready, "ready"},
            {EventKind::Closing, "closing"},
            {EventKind::Restarting, "restarting"},
            {EventKind::Drained, "drained"},
            {EventKind::Fault, "fault"},
            {EventKind::Closed, "closed"},
            {EventKind::ConnectionLost, "connection-lost"},
            {EventKind::LateResponseIgnored, "late-response-ignored"},
            {EventKind::FaultExpireAfterDispatch, "fault-expire-after-dispatch"},
            {EventKind::ReplyDropped, "reply-dropped"},
            {EventKind::Draining, "draining"},
            {EventKind::FaultCorruptSessionId, "fault-corrupt-session-id"},
            {EventKind::FaultDropConnection, "fault-drop-connection"},
            {EventKind::FaultHttpStatus, "fault-http-status"},
            {EventKind::FaultKill, "fault-kill"},
            {EventKind::GetStreamClosed, "get-stream-closed"},
            {EventKind::GetStreamFailed, "get-stream-failed"},
            {EventKind::GetStreamOpen, "get-stream-open"},
            {EventKind::GetStreamUnavailable, "get-stream-unavailable"},
            {EventKind::LegacyEndpoint, "legacy-endpoint"},
            {EventKind::LegacySse, "legacy-sse"},
            {EventKind::SessionDelete, "session-delete"},
            {EventKind::TornDown, "torn-down"},
            {EventKind::StreamResume, "stream-resume"},
            {EventKind::StreamResumeFailed, "stream-resume-failed"},
            {EventKind::FaultExpireSession, "fault-expire-session"},
            {EventKind::Classification, "classification"},
            {EventKind::SessionStart, "session-start"},
            {EventKind::Reconnect, "reconnect"},
            {EventKind::SessionEnd, "session-end"},
            {EventKind::ReconnectScheduled, "reconnect-scheduled"},
            {EventKind::Breaker, "breaker"},
            {EventKind::CallWaitsForReconnect, "call-waits-for-reconnect"},
            {EventKind::SuspectSession, "suspect-session"},
            {EventKind::RecoveryBudgetSpent, "recovery-budget-spent"},
            {EventKind::ReconnectAttempt, "reconnect-attempt"},
            {EventKind::KeepaliveFailed, "keepalive-failed"},
            {EventKind::ReplayOverride, "replay-override"},
            {EventKind::OutcomeUncertain, "outcome-uncertain"},
            {EventKind::SentAgain, "sent-again"},
            {EventKind::BreakerRefused, "breaker-refused"},
            {EventKind::RequestFailed, "request-failed"},
            {EventKind::RequestTimedOut, "request-timed-out"},
        };
        // Every kind but Other has a row: a new kind needs its name checked here.
        QCOMPARE(rows.size(), qsizetype(EventKind::RequestTimedOut));
        for (const auto &[kind, name] : rows)
            QTest::addRow("a %s event is written as %s", name, name)
                << kind << QString::fromUtf8(name);
    }
    void eventKindsAreWrittenAsTodaysNames()
    {
        QFETCH(EventKind, kind);
        QFETCH(QString, name);
        QCOMPARE(eventKindName(kind), name);
        QCOMPARE(eventKindFromName(name), kind);
        QCOMPARE(HistoryEvent::fromJson(history(kind).toJson()).kind, kind);
    }

    void aNameThisBuildDoesNotKnowReadsAsOther()
    {
        QCOMPARE(eventKindFromName(u"spawned"_s), EventKind::Other);
    }

    void theSmallEnumsKeepTheirNames_data()
    {
        QTest::addColumn<QString>("written");
        QTest::addColumn<QString>("expected");
        QTest::newRow("a closed breaker is written as closed")
            << breakerPhaseName(BreakerPhase::Closed) << u"closed"_s;
        QTest::newRow("an open breaker is written as open")
            << breakerPhaseName(BreakerPhase::Open) << u"open"_s;
        QTest::newRow("a half-open breaker is written as half-open")
            << breakerPhaseName(BreakerPhase::HalfOpen) << u"half-open"_s;
        QTest::newRow("a reconnect that worked is written as ok")
            << reconnectOutcomeName(ReconnectOutcome::Ok) << u"ok"_s;
        QTest::newRow("a reconnect under way is written as pending")
            << reconnectOutcomeName(ReconnectOutcome::Pending) << u"pending"_s;
        QTest::newRow("a reconnect that failed is written as failed")
            << reconnectOutcomeName(ReconnectOutcome::Failed) << u"failed"_s;
        QTest::newRow("a verdict from the method is written as method")
            << replaySourceName(ReplaySource::Method) << u"method"_s;
        QTest::newRow("a verdict from readOnlyHint is written as server hint")
            << replaySourceName(ReplaySource::ServerHint) << u"server hint"_s;
        QTest::newRow("a verdict from the user is written as user override")
            << replaySourceName(ReplaySource::UserOverride) << u"user override"_s;
        QTest::newRow("a verdict by default is written as default")
            << replaySourceName(ReplaySource::Default) << u"default"_s;
        QTest::newRow("a verdict from how it failed is written as transport")
            << replaySourceName(ReplaySource::Transport) << u"transport"_s;
    }
    void theSmallEnumsKeepTheirNames()
    {
        QFETCH(QString, written);
        QFETCH(QString, expected);
        QCOMPARE(written, expected);
        // Read back through the same tables.
        QVERIFY(breakerPhaseFromName(written) || reconnectOutcomeFromName(written) ||
                replaySourceFromName(written));
    }

    void historyEventsRoundTripThroughJson_data()
    {
        QTest::addColumn<HistoryEvent>("event");
        QTest::addColumn<QByteArray>("json");

        HistoryEvent trip = history(EventKind::Breaker);
        trip.from = BreakerPhase::Closed;
        trip.to = BreakerPhase::Open;
        trip.cause = u"timeout"_s;
        trip.strikes = 3;
        trip.threshold = 3;
        QTest::newRow("a breaker trip is written as breaker, closed to open")
            << trip
            << QByteArray("{\"cause\":\"timeout\",\"from\":\"closed\",\"strikes\":3,"
                          "\"t_ms\":1000,\"threshold\":3,\"to\":\"open\",\"type\":\"breaker\"}");

        HistoryEvent failed = history(EventKind::Reconnect);
        failed.trigger = u"by hand"_s;
        failed.fromGeneration = 1;
        failed.durationMs = 12;
        failed.outcome = ReconnectOutcome::Failed;
        failed.error = u"exited with code 1"_s;
        QTest::newRow("a failed reconnect names no generation with a null")
            << failed
            << QByteArray("{\"duration_ms\":12,\"error\":\"exited with code 1\","
                          "\"from_generation\":1,\"outcome\":\"failed\",\"t_ms\":1000,"
                          "\"to_generation\":null,\"trigger\":\"by hand\",\"type\":\"reconnect\"}");

        HistoryEvent ok = failed;
        ok.toGeneration = 2;
        ok.outcome = ReconnectOutcome::Ok;
        ok.error.reset();
        QTest::newRow("a reconnect that worked names both generations")
            << ok
            << QByteArray("{\"duration_ms\":12,\"from_generation\":1,\"outcome\":\"ok\","
                          "\"t_ms\":1000,\"to_generation\":2,\"trigger\":\"by hand\","
                          "\"type\":\"reconnect\"}");

        HistoryEvent fault = history(EventKind::Fault);
        fault.fault = u"drop-next"_s;
        fault.applied = true;
        QTest::newRow("an applied fault has a null error")
            << fault
            << QByteArray("{\"applied\":true,\"error\":null,\"kind\":\"drop-next\","
                          "\"t_ms\":1000,\"type\":\"fault\"}");

        HistoryEvent classified = history(EventKind::Classification);
        classified.method = u"tools/call"_s;
        classified.rule = u"http-404-with-session"_s;
        classified.detail = QString(); // present, and empty
        classified.expired = true;
        classified.generation = 1;
        QTest::newRow("a classification keeps an empty detail")
            << classified
            << QByteArray("{\"detail\":\"\",\"expired\":true,\"generation\":1,"
                          "\"method\":\"tools/call\",\"rule\":\"http-404-with-session\","
                          "\"t_ms\":1000,\"type\":\"classification\"}");

        HistoryEvent spent = history(EventKind::RecoveryBudgetSpent);
        spent.method = u"ping"_s;
        spent.budgetMs = 15000;
        spent.reconnect = ReconnectOutcome::Pending;
        QTest::newRow("a spent budget says where the reconnect stands")
            << spent
            << QByteArray("{\"budget_ms\":15000,\"method\":\"ping\",\"reconnect\":\"pending\","
                          "\"t_ms\":1000,\"type\":\"recovery-budget-spent\"}");

        HistoryEvent scheduled = history(EventKind::ReconnectScheduled);
        scheduled.inMs = 300000;
        scheduled.parked = true;
        QTest::newRow("a parked probe is scheduled in 300 s")
            << scheduled
            << QByteArray("{\"in_ms\":300000,\"parked\":true,\"t_ms\":1000,"
                          "\"type\":\"reconnect-scheduled\"}");

        HistoryEvent start = history(EventKind::SessionStart);
        start.generation = 2;
        start.protocolVersion = u"2025-06-18"_s;
        start.transport = u"streamable-http"_s;
        QTest::newRow("a session start names its protocol and transport")
            << start
            << QByteArray("{\"generation\":2,\"protocol_version\":\"2025-06-18\",\"t_ms\":1000,"
                          "\"transport\":\"streamable-http\",\"type\":\"session-start\"}");

        HistoryEvent override = history(EventKind::ReplayOverride);
        override.tool = u"echo"_s;
        override.verdict = u"read-only"_s;
        QTest::newRow("a replay override names the tool and the verdict")
            << override
            << QByteArray("{\"t_ms\":1000,\"tool\":\"echo\",\"type\":\"replay-override\","
                          "\"verdict\":\"read-only\"}");

        HistoryEvent uncertain = history(EventKind::OutcomeUncertain);
        uncertain.requestId = 7;
        uncertain.generation = 1;
        uncertain.method = u"tools/call"_s;
        uncertain.tool = u"increment-counter"_s;
        uncertain.rule = u"text-marker"_s;
        uncertain.reconnect = ReconnectOutcome::Ok;
        uncertain.ticket = 3;
        uncertain.progressToken = u"sonde-3"_s;
        QTest::newRow("an uncertain verdict names the original request")
            << uncertain
            << QByteArray("{\"generation\":1,\"method\":\"tools/call\",\"progress_token\":"
                          "\"sonde-3\",\"reconnect\":\"ok\",\"request_id\":7,\"rule\":"
                          "\"text-marker\",\"t_ms\":1000,\"ticket\":3,\"tool\":"
                          "\"increment-counter\",\"type\":\"outcome-uncertain\"}");

        HistoryEvent again = history(EventKind::SentAgain);
        again.requestId = 7;
        again.generation = 1;
        again.newRequestId = 12;
        again.newGeneration = 2;
        again.method = u"resources/read"_s;
        QTest::newRow("a replay names both requests and both generations")
            << again
            << QByteArray("{\"generation\":1,\"method\":\"resources/read\",\"new_generation\":2,"
                          "\"new_request_id\":12,\"request_id\":7,\"t_ms\":1000,"
                          "\"type\":\"sent-again\"}");

        HistoryEvent refused = history(EventKind::BreakerRefused);
        refused.ticket = 4;
        refused.cause = u"open after 3 consecutive failures"_s;
        refused.retryInS = 42;
        QTest::newRow("a breaker refusal has no request id, but its cause and retry time")
            << refused
            << QByteArray("{\"cause\":\"open after 3 consecutive failures\",\"retry_in_s\":42,"
                          "\"t_ms\":1000,\"ticket\":4,\"type\":\"breaker-refused\"}");

        HistoryEvent waits = history(EventKind::CallWaitsForReconnect);
        waits.method = u"tools/list"_s;
        waits.state = u"failed"_s;
        QTest::newRow("a call that waits names the session state")
            << waits
            << QByteArray("{\"method\":\"tools/list\",\"state\":\"failed\",\"t_ms\":1000,"
                          "\"type\":\"call-waits-for-reconnect\"}");

        HistoryEvent lost = history(EventKind::Classification);
        lost.rule = u"transport-closed"_s;
        lost.detail = u"closed"_s;
        lost.expired = true;
        lost.source = u"connection lost outside any call"_s;
        QTest::newRow("a connection lost outside any call says so")
            << lost
            << QByteArray("{\"detail\":\"closed\",\"expired\":true,\"rule\":\"transport-closed\","
                          "\"source\":\"connection lost outside any call\",\"t_ms\":1000,"
                          "\"type\":\"classification\"}");

        HistoryEvent attempt = history(EventKind::ReconnectAttempt);
        attempt.trigger = u"backoff: next attempt"_s;
        attempt.fromGeneration = 1;
        attempt.attempt = 2;
        QTest::newRow("a reconnect attempt counts itself")
            << attempt
            << QByteArray("{\"attempt\":2,\"from_generation\":1,\"t_ms\":1000,"
                          "\"trigger\":\"backoff: next attempt\",\"type\":\"reconnect-attempt\"}");
    }
    void historyEventsRoundTripThroughJson()
    {
        QFETCH(HistoryEvent, event);
        QFETCH(QByteArray, json);
        QCOMPARE(compact(event.toJson()), json);
        QCOMPARE(HistoryEvent::fromJson(event.toJson()), event);
    }

    void theSnapshotsRecoveryStateRoundTrips()
    {
        RecoveryState r;
        r.breaker.phase = BreakerPhase::HalfOpen;
        r.breaker.strikes = 3;
        r.breaker.threshold = 3;
        r.breaker.cooldownS = 60;
        r.breaker.retryInS = 0;
        r.breaker.probeInFlight = true;
        r.reconnect.inProgress = true;
        r.reconnect.failedAttempts = 2;
        r.reconnect.parked = false;
        r.reconnect.nextAttemptInMs = 1800;
        HistoryEvent e = history(EventKind::KeepaliveFailed);
        e.error = u"timeout"_s;
        r.history = {history(EventKind::SessionEnd), e};
        r.history.first().cause = u"closed"_s;
        r.history.first().generation = 1;
        QCOMPARE(compact(r.breaker.toJson()),
                 QByteArray("{\"cooldown_s\":60,\"probe_in_flight\":true,\"retry_in_s\":0,"
                            "\"state\":\"half-open\",\"strikes\":3,\"threshold\":3}"));
        QCOMPARE(compact(r.reconnect.toJson()),
                 QByteArray("{\"failed_attempts\":2,\"in_progress\":true,"
                            "\"next_attempt_in_ms\":1800,\"parked\":false}"));
        const QJsonObject j = r.toJson();
        QCOMPARE(j.keys(), (QStringList{u"breaker"_s, u"history"_s, u"reconnect"_s}));
        QCOMPARE(j.value("history"_L1).toArray().size(), 2);
        QCOMPARE(RecoveryState::fromJson(j), r);
    }

    void aBreakerTrippedByHandRoundTripsItsCause()
    {
        BreakerState b;
        b.phase = BreakerPhase::Open;
        b.trippedBy = u"user"_s;
        QCOMPARE(b.toJson().value("tripped_by"_L1).toString(), u"user"_s);
        QCOMPARE(BreakerState::fromJson(b.toJson()), b);
        b.trippedBy.reset(); // opened on failures: no key at all
        QVERIFY(!b.toJson().contains("tripped_by"_L1));
        QCOMPARE(BreakerState::fromJson(b.toJson()), b);
    }

    void aCallsRecoveryRoundTrips_data()
    {
        QTest::addColumn<CallRecovery>("recovery");
        QTest::addColumn<QByteArray>("json");

        CallRecovery replayed;
        replayed.generations = {1, 2};
        replayed.waitedMs = 40;
        replayed.replayed = true;
        replayed.rule = ExpiryRule::Http404WithSession;
        replayed.recoveryMs = 41.5;
        replayed.verdict = ReplayVerdict{true, ReplaySource::Transport, u"refused"_s};
        QTest::newRow("a replayed read names its rule, its cost and the verdict")
            << replayed
            << QByteArray("{\"generations\":[1,2],\"recovery_ms\":41.5,\"replay_verdict\":"
                          "{\"reason\":\"refused\",\"replay\":true,\"source\":\"transport\"},"
                          "\"replayed\":true,\"rule\":\"http-404-with-session\","
                          "\"waited_ms\":40}");

        CallRecovery uncertain;
        uncertain.generations = {1};
        uncertain.rule = ExpiryRule::TransportClosed;
        uncertain.outcomeUncertain = true;
        uncertain.server = u"wpcom"_s;
        uncertain.reconnect = ReconnectOutcome::Ok;
        QTest::newRow("an uncertain answer names the server and the reconnect")
            << uncertain
            << QByteArray("{\"generations\":[1],\"outcome_uncertain\":true,\"reconnect\":\"ok\","
                          "\"replayed\":false,\"rule\":\"transport-closed\",\"server\":\"wpcom\","
                          "\"waited_ms\":0}");

        CallRecovery refused;
        refused.breaker = BreakerPhase::Open;
        refused.retryInS = 60;
        QTest::newRow("a refusal names the breaker and the seconds left")
            << refused
            << QByteArray("{\"breaker\":\"open\",\"generations\":[],\"replayed\":false,"
                          "\"retry_in_s\":60,\"waited_ms\":0}");
    }
    void aCallsRecoveryRoundTrips()
    {
        QFETCH(CallRecovery, recovery);
        QFETCH(QByteArray, json);
        QCOMPARE(compact(recovery.toJson()), json);
        QCOMPARE(CallRecovery::fromJson(recovery.toJson()), recovery);
    }

    void aVerdictRoundTrips()
    {
        const ReplayVerdict v{false, ReplaySource::ServerHint, u"readOnlyHint is not true"_s};
        QCOMPARE(ReplayVerdict::fromJson(v.toJson()), v);
    }

    // The rule is a type in the core and a name where it is written: each keeps its name, and
    // a history written by a newer Sonde (a rule this build does not know) decides nothing.
    void everyExpiryRuleKeepsItsStoredName_data()
    {
        QTest::addColumn<int>("rule");
        QTest::addColumn<QString>("name");
        const QList<std::pair<ExpiryRule, QString>> rows = {
            {ExpiryRule::Http404WithSession, u"http-404-with-session"_s},
            {ExpiryRule::Http400InvalidSession, u"http-400-invalid-session"_s},
            {ExpiryRule::ConnectionRefused, u"connection-refused"_s},
            {ExpiryRule::TransportClosed, u"transport-closed"_s},
            {ExpiryRule::StreamBroken, u"stream-broken"_s},
            {ExpiryRule::TextMarker, u"text-marker"_s},
            {ExpiryRule::Timeout, u"timeout"_s},
            {ExpiryRule::NoSignal, u"no-signal"_s},
            {ExpiryRule::CancelledByUser, u"cancelled-by-user"_s},
            {ExpiryRule::BudgetExhausted, u"budget-exhausted"_s},
            {ExpiryRule::None, QString()},
        };
        for (const auto &[rule, name] : rows)
            QTest::newRow(qPrintable(name.isEmpty() ? u"no rule is written as nothing"_s
                                                    : name + u" is written and read as such"_s))
                << int(rule) << name;
    }
    void everyExpiryRuleKeepsItsStoredName()
    {
        QFETCH(int, rule);
        QFETCH(QString, name);
        QCOMPARE(ExpiryRules::name(ExpiryRule(rule)), name);
        QCOMPARE(ExpiryRules::fromName(name), std::optional<ExpiryRule>(ExpiryRule(rule)));
        CallRecovery r;
        r.rule = ExpiryRule(rule);
        QCOMPARE(r.toJson().value("rule"_L1).toString(), name);
        QCOMPARE(CallRecovery::fromJson(r.toJson()).rule, ExpiryRule(rule));
    }

    void aRuleFromANewerSondeReadsAsNone()
    {
        QCOMPARE(ExpiryRules::fromName(u"http-418-teapot"_s), std::nullopt);
        const CallRecovery r = CallRecovery::fromJson({{"rule"_L1, "http-418-teapot"_L1}});
        QCOMPARE(r.rule, ExpiryRule::None);
    }

    // The user's commands are types in the core; their names are what the CLI and exec read.
    void theCommandActionsKeepTheirNames()
    {
        for (const auto &[action, name] : {std::pair{BreakerAction::Reset, u"reset"_s},
                                           std::pair{BreakerAction::Trip, u"trip"_s}}) {
            QCOMPARE(breakerActionName(action), name);
            QCOMPARE(breakerActionFromName(name), std::optional<BreakerAction>(action));
        }
        QCOMPARE(breakerActionFromName(u"open"_s), std::nullopt);
        for (const auto &[action, name] : {std::pair{AuthAction::Login, u"login"_s},
                                           std::pair{AuthAction::Refresh, u"refresh"_s},
                                           std::pair{AuthAction::SignOut, u"sign-out"_s},
                                           std::pair{AuthAction::Status, u"status"_s}}) {
            QCOMPARE(authActionName(action), name);
            QCOMPARE(authActionFromName(name), std::optional<AuthAction>(action));
        }
        QCOMPARE(authActionFromName(u"logout"_s), std::nullopt); // the CLI's word, not a name
    }
};

QTEST_GUILESS_MAIN(TestRecoveryValues)
#include "tst_recoveryvalues.moc"
