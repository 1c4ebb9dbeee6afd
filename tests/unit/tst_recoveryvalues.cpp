// SPDX-License-Identifier: MIT
// The recovery value types: every EventKind is written as the name the transcript, the CLI
// and the timeline have always used, and every type survives toJson then fromJson.
#include "values/authvalues.h"
#include "values/recoveryvalues.h"

#include "jsontestdata.h"
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

using JsonTestData::compact;

using H = HistoryEvent;

HistoryEvent history(H::Body body)
{
    return {1000, std::move(body)};
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
        const QJsonObject written{{"type"_L1, name}, {"t_ms"_L1, 1000}};
        const HistoryEvent read = HistoryEvent::fromJson(written);
        QCOMPARE(read.kind(), kind);
        QCOMPARE(read.toJson().value("type"_L1).toString(), name);
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
            << enumName(BreakerPhase::Closed) << u"closed"_s;
        QTest::newRow("an open breaker is written as open")
            << enumName(BreakerPhase::Open) << u"open"_s;
        QTest::newRow("a half-open breaker is written as half-open")
            << enumName(BreakerPhase::HalfOpen) << u"half-open"_s;
        QTest::newRow("a reconnect that worked is written as ok")
            << enumName(ReconnectOutcome::Ok) << u"ok"_s;
        QTest::newRow("a reconnect under way is written as pending")
            << enumName(ReconnectOutcome::Pending) << u"pending"_s;
        QTest::newRow("a reconnect that failed is written as failed")
            << enumName(ReconnectOutcome::Failed) << u"failed"_s;
        QTest::newRow("a verdict from the method is written as method")
            << enumName(ReplaySource::Method) << u"method"_s;
        QTest::newRow("a verdict from readOnlyHint is written as server hint")
            << enumName(ReplaySource::ServerHint) << u"server hint"_s;
        QTest::newRow("a verdict from the user is written as user override")
            << enumName(ReplaySource::UserOverride) << u"user override"_s;
        QTest::newRow("a verdict by default is written as default")
            << enumName(ReplaySource::Default) << u"default"_s;
        QTest::newRow("a verdict from how it failed is written as transport")
            << enumName(ReplaySource::Transport) << u"transport"_s;
    }
    void theSmallEnumsKeepTheirNames()
    {
        QFETCH(QString, written);
        QFETCH(QString, expected);
        QCOMPARE(written, expected);
        // Read back through the same tables.
        QVERIFY(enumFromName<BreakerPhase>(written) || enumFromName<ReconnectOutcome>(written) ||
                enumFromName<ReplaySource>(written));
    }

    void historyEventsRoundTripThroughJson_data()
    {
        QTest::addColumn<HistoryEvent>("event");
        QTest::addColumn<QByteArray>("json");

        const HistoryEvent trip = history(H::Breaker{.from = BreakerPhase::Closed,
                                                     .to = BreakerPhase::Open,
                                                     .cause = u"timeout"_s,
                                                     .strikes = 3,
                                                     .threshold = 3});
        QTest::newRow("a breaker trip is written as breaker, closed to open")
            << trip
            << QByteArray("{\"cause\":\"timeout\",\"from\":\"closed\",\"strikes\":3,"
                          "\"t_ms\":1000,\"threshold\":3,\"to\":\"open\",\"type\":\"breaker\"}");

        const H::Reconnect failed{.trigger = u"by hand"_s,
                                  .fromGeneration = 1,
                                  .durationMs = 12,
                                  .outcome = ReconnectOutcome::Failed,
                                  .error = u"exited with code 1"_s};
        QTest::newRow("a failed reconnect names no generation with a null")
            << history(failed)
            << QByteArray("{\"duration_ms\":12,\"error\":\"exited with code 1\","
                          "\"from_generation\":1,\"outcome\":\"failed\",\"t_ms\":1000,"
                          "\"to_generation\":null,\"trigger\":\"by hand\",\"type\":\"reconnect\"}");

        H::Reconnect ok = failed;
        ok.toGeneration = 2;
        ok.outcome = ReconnectOutcome::Ok;
        ok.error.reset();
        QTest::newRow("a reconnect that worked names both generations")
            << history(ok)
            << QByteArray("{\"duration_ms\":12,\"from_generation\":1,\"outcome\":\"ok\","
                          "\"t_ms\":1000,\"to_generation\":2,\"trigger\":\"by hand\","
                          "\"type\":\"reconnect\"}");

        QTest::newRow("an applied fault has a null error")
            << history(H::Fault{.description = u"drop-next"_s, .applied = true})
            << QByteArray("{\"applied\":true,\"error\":null,\"kind\":\"drop-next\","
                          "\"t_ms\":1000,\"type\":\"fault\"}");

        QTest::newRow("a classification keeps an empty detail")
            << history(H::Classification{.method = u"tools/call"_s,
                                         .generation = 1,
                                         .rule = u"http-404-with-session"_s,
                                         .detail = QString(), // present, and empty
                                         .expired = true})
            << QByteArray("{\"detail\":\"\",\"expired\":true,\"generation\":1,"
                          "\"method\":\"tools/call\",\"rule\":\"http-404-with-session\","
                          "\"t_ms\":1000,\"type\":\"classification\"}");

        QTest::newRow("a spent budget says where the reconnect stands")
            << history(H::RecoveryBudgetSpent{
                   .method = u"ping"_s, .budgetMs = 15000, .reconnect = ReconnectOutcome::Pending})
            << QByteArray("{\"budget_ms\":15000,\"method\":\"ping\",\"reconnect\":\"pending\","
                          "\"t_ms\":1000,\"type\":\"recovery-budget-spent\"}");

        QTest::newRow("a parked probe is scheduled in 300 s")
            << history(H::ReconnectScheduled{.inMs = 300000, .parked = true})
            << QByteArray("{\"in_ms\":300000,\"parked\":true,\"t_ms\":1000,"
                          "\"type\":\"reconnect-scheduled\"}");

        QTest::newRow("a session start names its protocol and transport")
            << history(H::SessionStart{.generation = 2,
                                       .protocolVersion = u"2025-06-18"_s,
                                       .transport = u"streamable-http"_s})
            << QByteArray("{\"generation\":2,\"protocol_version\":\"2025-06-18\",\"t_ms\":1000,"
                          "\"transport\":\"streamable-http\",\"type\":\"session-start\"}");

        QTest::newRow("a replay override names the tool and the verdict")
            << history(H::ReplayOverride{.tool = u"echo"_s, .verdict = u"read-only"_s})
            << QByteArray("{\"t_ms\":1000,\"tool\":\"echo\",\"type\":\"replay-override\","
                          "\"verdict\":\"read-only\"}");

        QTest::newRow("an uncertain verdict names the original request")
            << history(H::OutcomeUncertain{.call = {.ticket = 3,
                                                    .method = u"tools/call"_s,
                                                    .tool = u"increment-counter"_s,
                                                    .progressToken = u"sonde-3"_s,
                                                    .requestId = 7,
                                                    .generation = 1},
                                           .rule = u"text-marker"_s,
                                           .reconnect = ReconnectOutcome::Ok})
            << QByteArray("{\"generation\":1,\"method\":\"tools/call\",\"progress_token\":"
                          "\"sonde-3\",\"reconnect\":\"ok\",\"request_id\":7,\"rule\":"
                          "\"text-marker\",\"t_ms\":1000,\"ticket\":3,\"tool\":"
                          "\"increment-counter\",\"type\":\"outcome-uncertain\"}");

        // A verdict always names its call's ticket and method.
        QTest::newRow("a replay names both requests and both generations")
            << history(H::SentAgain{.call = {.ticket = 5,
                                             .method = u"resources/read"_s,
                                             .requestId = 7,
                                             .generation = 1},
                                    .newRequestId = 12,
                                    .newGeneration = 2})
            << QByteArray("{\"generation\":1,\"method\":\"resources/read\",\"new_generation\":2,"
                          "\"new_request_id\":12,\"request_id\":7,\"t_ms\":1000,"
                          "\"ticket\":5,\"type\":\"sent-again\"}");

        QTest::newRow("a breaker refusal has no request id, but its cause and retry time")
            << history(H::BreakerRefused{.call = {.ticket = 4, .method = u"tools/call"_s},
                                         .cause = u"open after 3 consecutive failures"_s,
                                         .retryInS = 42})
            << QByteArray("{\"cause\":\"open after 3 consecutive failures\","
                          "\"method\":\"tools/call\",\"retry_in_s\":42,"
                          "\"t_ms\":1000,\"ticket\":4,\"type\":\"breaker-refused\"}");

        QTest::newRow("a call that waits names the session state")
            << history(H::CallWaitsForReconnect{.method = u"tools/list"_s, .state = u"failed"_s})
            << QByteArray("{\"method\":\"tools/list\",\"state\":\"failed\",\"t_ms\":1000,"
                          "\"type\":\"call-waits-for-reconnect\"}");

        QTest::newRow("a connection lost outside any call says so")
            << history(H::Classification{.rule = u"transport-closed"_s,
                                         .detail = u"closed"_s,
                                         .expired = true,
                                         .source = u"connection lost outside any call"_s})
            << QByteArray("{\"detail\":\"closed\",\"expired\":true,\"rule\":\"transport-closed\","
                          "\"source\":\"connection lost outside any call\",\"t_ms\":1000,"
                          "\"type\":\"classification\"}");

        QTest::newRow("a reconnect attempt counts itself")
            << history(H::ReconnectAttempt{
                   .trigger = u"backoff: next attempt"_s, .fromGeneration = 1, .attempt = 2})
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

    // One row per kind the history records, each field set: the JSON has exactly its keys
    // (plus "type" and "t_ms"), and reads back to the same entry and the same bytes.
    void eachKindWritesExactlyItsKeys_data()
    {
        QTest::addColumn<HistoryEvent>("event");
        QTest::addColumn<EventKind>("kind");
        QTest::addColumn<QStringList>("keys");
        int rows = 0;
        const auto row = [&rows](const char *name, H::Body body, EventKind kind,
                                 const QStringList &keys) {
            QStringList all = keys + QStringList{u"t_ms"_s, u"type"_s};
            all.sort();
            QTest::newRow(name) << history(std::move(body)) << kind << all;
            ++rows;
        };
        const H::VerdictCall call{.ticket = 3,
                                  .method = u"tools/call"_s,
                                  .tool = u"increment-counter"_s,
                                  .progressToken = u"sonde-3"_s,
                                  .requestId = 7,
                                  .generation = 1};
        const QStringList callKeys{u"ticket"_s,         u"method"_s,     u"tool"_s,
                                   u"progress_token"_s, u"request_id"_s, u"generation"_s};
        row("a classification of a call, noticed outside it",
            H::Classification{.method = u"tools/call"_s,
                              .generation = 1,
                              .rule = u"http-404-with-session"_s,
                              .detail = u"404"_s,
                              .expired = true,
                              .source = u"the GET stream"_s},
            EventKind::Classification,
            {u"method"_s, u"generation"_s, u"rule"_s, u"detail"_s, u"expired"_s, u"source"_s});
        row("a session start",
            H::SessionStart{
                .generation = 2, .protocolVersion = u"2025-11-25"_s, .transport = u"stdio"_s},
            EventKind::SessionStart, {u"generation"_s, u"protocol_version"_s, u"transport"_s});
        row("a session end", H::SessionEnd{.generation = 2, .cause = u"closed"_s},
            EventKind::SessionEnd, {u"generation"_s, u"cause"_s});
        row("a reconnect attempt",
            H::ReconnectAttempt{.trigger = u"by hand"_s, .fromGeneration = 1, .attempt = 1},
            EventKind::ReconnectAttempt, {u"trigger"_s, u"from_generation"_s, u"attempt"_s});
        row("a reconnect that failed, with its null generation",
            H::Reconnect{.trigger = u"by hand"_s,
                         .fromGeneration = 1,
                         .durationMs = 40,
                         .outcome = ReconnectOutcome::Failed,
                         .error = u"refused"_s},
            EventKind::Reconnect,
            {u"trigger"_s, u"from_generation"_s, u"to_generation"_s, u"duration_ms"_s, u"outcome"_s,
             u"error"_s});
        row("a reconnect scheduled", H::ReconnectScheduled{.inMs = 1000, .parked = false},
            EventKind::ReconnectScheduled, {u"in_ms"_s, u"parked"_s});
        row("a keepalive that failed", H::KeepaliveFailed{.error = u"timeout"_s},
            EventKind::KeepaliveFailed, {u"error"_s});
        row("a breaker transition",
            H::Breaker{.from = BreakerPhase::Open,
                       .to = BreakerPhase::HalfOpen,
                       .cause = u"cooldown over"_s,
                       .strikes = 3,
                       .threshold = 3},
            EventKind::Breaker, {u"from"_s, u"to"_s, u"cause"_s, u"strikes"_s, u"threshold"_s});
        row("a call that waits for a reconnect",
            H::CallWaitsForReconnect{.method = u"tools/list"_s, .state = u"failed"_s},
            EventKind::CallWaitsForReconnect, {u"method"_s, u"state"_s});
        row("a suspect session", H::SuspectSession{.cause = u"ping failed"_s},
            EventKind::SuspectSession, {u"cause"_s});
        row("a spent recovery budget",
            H::RecoveryBudgetSpent{
                .method = u"ping"_s, .budgetMs = 15000, .reconnect = ReconnectOutcome::Failed},
            EventKind::RecoveryBudgetSpent, {u"method"_s, u"budget_ms"_s, u"reconnect"_s});
        row("a fault that did not apply",
            H::Fault{.description = u"kill"_s, .applied = false, .error = u"not stdio"_s},
            EventKind::Fault, {u"kind"_s, u"applied"_s, u"error"_s});
        row("a replay override",
            H::ReplayOverride{.tool = u"echo"_s, .verdict = u"write-capable"_s},
            EventKind::ReplayOverride, {u"tool"_s, u"verdict"_s});
        row("an uncertain outcome",
            H::OutcomeUncertain{.call = call,
                                .rule = u"transport-closed"_s,
                                .detail = u"a write"_s,
                                .reconnect = ReconnectOutcome::Pending},
            EventKind::OutcomeUncertain,
            callKeys + QStringList{u"rule"_s, u"detail"_s, u"reconnect"_s});
        row("a call sent again",
            H::SentAgain{.call = call,
                         .rule = u"http-404-with-session"_s,
                         .detail = u"a read"_s,
                         .newRequestId = 12,
                         .newGeneration = 2},
            EventKind::SentAgain,
            callKeys +
                QStringList{u"rule"_s, u"detail"_s, u"new_request_id"_s, u"new_generation"_s});
        row("a call the breaker refused",
            H::BreakerRefused{.call = {.ticket = 4,
                                       .method = u"tools/call"_s,
                                       .tool = u"echo"_s,
                                       .progressToken = u"sonde-4"_s},
                              .cause = u"tripped by hand"_s,
                              .retryInS = 60},
            EventKind::BreakerRefused,
            {u"ticket"_s, u"method"_s, u"tool"_s, u"progress_token"_s, u"cause"_s,
             u"retry_in_s"_s});
        // Every struct but Untyped has a row: a new kind needs its keys checked here.
        QCOMPARE(rows, int(std::variant_size_v<H::Body>) - 1);
    }
    void eachKindWritesExactlyItsKeys()
    {
        QFETCH(HistoryEvent, event);
        QFETCH(EventKind, kind);
        QFETCH(QStringList, keys);
        QCOMPARE(event.kind(), kind);
        const QJsonObject json = event.toJson();
        QCOMPARE(json.keys(), keys);
        QCOMPARE(json.value("type"_L1).toString(), eventKindName(kind));
        const HistoryEvent back = HistoryEvent::fromJson(json);
        QCOMPARE(back, event);
        QCOMPARE(back.kind(), kind);
        QCOMPARE(compact(back.toJson()), compact(json));
    }

    // A record of a kind with no struct: a session's own event read back from a transcript
    // (its kind is known), or a kind a newer Sonde writes (Other). Either keeps its name and
    // every key, and is written back as it was read.
    void aKindWithNoStructKeepsItsNameAndKeys_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<EventKind>("kind");
        QTest::newRow("a kind this build does not know reads as Other")
            << QByteArray("{\"generation\":2,\"pid\":4242,\"reason\":null,\"t_ms\":5,"
                          "\"type\":\"spawned\"}")
            << EventKind::Other;
        QTest::newRow("a session's own event keeps its kind")
            << QByteArray("{\"id\":3,\"kind\":\"timeout\",\"method\":\"tools/call\","
                          "\"t_ms\":5,\"type\":\"request-failed\"}")
            << EventKind::RequestFailed;
        QTest::newRow("no type at all reads as Other")
            << QByteArray("{\"cause\":\"x\",\"t_ms\":5,\"type\":\"\"}") << EventKind::Other;
    }
    void aKindWithNoStructKeepsItsNameAndKeys()
    {
        QFETCH(QByteArray, json);
        QFETCH(EventKind, kind);
        const QJsonObject o = QJsonDocument::fromJson(json).object();
        const HistoryEvent e = HistoryEvent::fromJson(o);
        QCOMPARE(e.kind(), kind);
        QCOMPARE(e.timeMs, qint64(5));
        const auto *untyped = e.as<H::Untyped>();
        QVERIFY(untyped);
        QCOMPARE(untyped->type, o.value("type"_L1).toString());
        QVERIFY(!untyped->fields.contains("type"_L1) && !untyped->fields.contains("t_ms"_L1));
        QVERIFY(!e.verdictCall());
        QCOMPARE(compact(e.toJson()), json);
        QCOMPARE(HistoryEvent::fromJson(e.toJson()), e);
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
        r.history = {history(H::SessionEnd{.generation = 1, .cause = u"closed"_s}),
                     history(H::KeepaliveFailed{.error = u"timeout"_s})};
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
            QCOMPARE(enumName(action), name);
            QCOMPARE(enumFromName<BreakerAction>(name), std::optional<BreakerAction>(action));
        }
        QCOMPARE(enumFromName<BreakerAction>(u"open"_s), std::nullopt);
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
