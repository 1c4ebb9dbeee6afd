// SPDX-License-Identifier: MIT
#include "values/recoveryvalues.h"

#include "util/enumnames.h"
#include "values/jsonfields.h"

#include <QJsonArray>

#include <tuple>
#include <type_traits>
#include <variant>

using namespace Qt::StringLiterals;

namespace Sonde {

using namespace JsonFields;

namespace {

const char *const EventKindNames[] = {"",
                                      "starting",
                                      "transport-open",
                                      "initialize-failed",
                                      "ready",
                                      "closing",
                                      "restarting",
                                      "drained",
                                      "fault",
                                      "closed",
                                      "connection-lost",
                                      "late-response-ignored",
                                      "fault-expire-after-dispatch",
                                      "reply-dropped",
                                      "draining",
                                      "fault-corrupt-session-id",
                                      "fault-drop-connection",
                                      "fault-http-status",
                                      "fault-kill",
                                      "get-stream-closed",
                                      "get-stream-failed",
                                      "get-stream-open",
                                      "get-stream-unavailable",
                                      "legacy-endpoint",
                                      "legacy-sse",
                                      "session-delete",
                                      "torn-down",
                                      "stream-resume",
                                      "stream-resume-failed",
                                      "fault-expire-session",
                                      "classification",
                                      "session-start",
                                      "reconnect",
                                      "session-end",
                                      "reconnect-scheduled",
                                      "breaker",
                                      "call-waits-for-reconnect",
                                      "suspect-session",
                                      "recovery-budget-spent",
                                      "reconnect-attempt",
                                      "keepalive-failed",
                                      "replay-override",
                                      "outcome-uncertain",
                                      "sent-again",
                                      "breaker-refused",
                                      "request-failed",
                                      "request-timed-out",
                                      "era-chosen",
                                      "input-required",
                                      "listen-acknowledged",
                                      "listen-ended",
                                      "listen-dropped",
                                      "fault-modern",
                                      "task-status",
                                      "auth-challenge",
                                      "auth-step",
                                      "auth-state",
                                      "http-exchange"};
static_assert(std::size(EventKindNames) == std::size_t(EventKind::HttpExchange) + 1);
static_assert(std::size(EnumNames<BreakerPhase>::names) == std::size_t(BreakerPhase::HalfOpen) + 1);
static_assert(std::size(EnumNames<BreakerAction>::names) == std::size_t(BreakerAction::Trip) + 1);
static_assert(std::size(EnumNames<ReconnectOutcome>::names) ==
              std::size_t(ReconnectOutcome::Failed) + 1);
static_assert(std::size(EnumNames<ReplaySource>::names) ==
              std::size_t(ReplaySource::Transport) + 1);

} // namespace

QString eventKindName(EventKind kind)
{
    return enumName(EventKindNames, kind);
}

EventKind eventKindFromName(QStringView name)
{
    return enumFromName<EventKind>(EventKindNames, name).value_or(EventKind::Other);
}

EventKind HistoryEvent::kind() const
{
    return std::visit(
        []<typename S>(const S &b) {
            if constexpr (std::is_same_v<S, Untyped>)
                return eventKindFromName(b.type);
            else
                return S::Kind;
        },
        body);
}

const HistoryEvent::VerdictCall *HistoryEvent::verdictCall() const
{
    return std::visit(
        []<typename S>(const S &b) -> const VerdictCall * {
            if constexpr (requires { b.call; })
                return &b.call;
            else
                return nullptr;
        },
        body);
}

QJsonObject HistoryEvent::toJson() const
{
    QJsonObject o = std::visit([](const auto &b) { return bodyJson(b); }, body);
    const Untyped *untyped = as<Untyped>();
    o.insert("type"_L1, untyped ? untyped->type : eventKindName(kind()));
    o.insert("t_ms"_L1, timeMs);
    return o;
}

HistoryEvent HistoryEvent::fromJson(const QJsonObject &o)
{
    const QString type = o.value("type"_L1).toString();
    std::optional<Body> body =
        bodyFromJson(o, eventKindFromName(type), static_cast<Body *>(nullptr));
    if (!body) {
        Untyped u{type, o};
        u.fields.remove("type"_L1);
        u.fields.remove("t_ms"_L1);
        body = u;
    }
    return {o.value("t_ms"_L1).toInteger(), std::move(*body)};
}

QJsonObject BreakerState::toJson() const
{
    QJsonObject o{{"state"_L1, enumName(phase)}, {"strikes"_L1, strikes},
                  {"threshold"_L1, threshold},   {"cooldown_s"_L1, cooldownS},
                  {"retry_in_s"_L1, retryInS},   {"probe_in_flight"_L1, probeInFlight}};
    if (trippedBy)
        o.insert("tripped_by"_L1, *trippedBy);
    return o;
}

BreakerState BreakerState::fromJson(const QJsonObject &o)
{
    BreakerState b;
    b.phase =
        enumFromName<BreakerPhase>(o.value("state"_L1).toString()).value_or(BreakerPhase::Closed);
    b.strikes = o.value("strikes"_L1).toInt();
    b.threshold = o.value("threshold"_L1).toInt();
    b.cooldownS = o.value("cooldown_s"_L1).toDouble();
    b.retryInS = o.value("retry_in_s"_L1).toInteger();
    b.probeInFlight = o.value("probe_in_flight"_L1).toBool();
    if (o.value("tripped_by"_L1).isString())
        b.trippedBy = o.value("tripped_by"_L1).toString();
    return b;
}

bool BreakerState::operator==(const BreakerState &other) const
{
    return std::tie(phase, strikes, threshold, cooldownS, retryInS, probeInFlight, trippedBy) ==
           std::tie(other.phase, other.strikes, other.threshold, other.cooldownS, other.retryInS,
                    other.probeInFlight, other.trippedBy);
}

QJsonObject ReconnectState::toJson() const
{
    return {{"in_progress"_L1, inProgress},
            {"failed_attempts"_L1, failedAttempts},
            {"parked"_L1, parked},
            {"next_attempt_in_ms"_L1, nextAttemptInMs}};
}

ReconnectState ReconnectState::fromJson(const QJsonObject &o)
{
    ReconnectState r;
    r.inProgress = o.value("in_progress"_L1).toBool();
    r.failedAttempts = o.value("failed_attempts"_L1).toInt();
    r.parked = o.value("parked"_L1).toBool();
    r.nextAttemptInMs = o.value("next_attempt_in_ms"_L1).toInteger();
    return r;
}

bool ReconnectState::operator==(const ReconnectState &other) const
{
    return std::tie(inProgress, failedAttempts, parked, nextAttemptInMs) ==
           std::tie(other.inProgress, other.failedAttempts, other.parked, other.nextAttemptInMs);
}

QJsonObject ReplayVerdict::toJson() const
{
    return {{"replay"_L1, replay}, {"source"_L1, enumName(source)}, {"reason"_L1, reason}};
}

ReplayVerdict ReplayVerdict::fromJson(const QJsonObject &o)
{
    ReplayVerdict v;
    v.replay = o.value("replay"_L1).toBool();
    v.source =
        enumFromName<ReplaySource>(o.value("source"_L1).toString()).value_or(ReplaySource::Default);
    v.reason = o.value("reason"_L1).toString();
    return v;
}

bool ReplayVerdict::operator==(const ReplayVerdict &other) const
{
    return std::tie(replay, source, reason) == std::tie(other.replay, other.source, other.reason);
}

QJsonObject RecoveryState::toJson() const
{
    QJsonArray recent;
    for (const HistoryEvent &e : history)
        recent.append(e.toJson());
    return {{"breaker"_L1, breaker.toJson()},
            {"reconnect"_L1, reconnect.toJson()},
            {"history"_L1, recent}};
}

RecoveryState RecoveryState::fromJson(const QJsonObject &o)
{
    RecoveryState r;
    r.breaker = BreakerState::fromJson(o.value("breaker"_L1).toObject());
    r.reconnect = ReconnectState::fromJson(o.value("reconnect"_L1).toObject());
    for (const QJsonValue &v : o.value("history"_L1).toArray())
        r.history.append(HistoryEvent::fromJson(v.toObject()));
    return r;
}

bool RecoveryState::operator==(const RecoveryState &other) const
{
    return breaker == other.breaker && reconnect == other.reconnect && history == other.history;
}

QJsonObject CallRecovery::toJson() const
{
    QJsonArray gens;
    for (int g : generations)
        gens.append(g);
    QJsonObject o{{"generations"_L1, gens}, {"waited_ms"_L1, waitedMs}, {"replayed"_L1, replayed}};
    if (rule != ExpiryRule::None)
        o.insert("rule"_L1, ExpiryRules::name(rule));
    put(o, "recovery_ms"_L1, recoveryMs);
    if (verdict)
        o.insert("replay_verdict"_L1, verdict->toJson());
    put(o, "outcome_uncertain"_L1, outcomeUncertain);
    put(o, "server"_L1, server);
    put(o, "reconnect"_L1, reconnect);
    put(o, "breaker"_L1, breaker);
    put(o, "retry_in_s"_L1, retryInS);
    return o;
}

CallRecovery CallRecovery::fromJson(const QJsonObject &o)
{
    CallRecovery r;
    for (const QJsonValue &g : o.value("generations"_L1).toArray())
        r.generations.append(g.toInt());
    r.waitedMs = o.value("waited_ms"_L1).toInteger();
    r.replayed = o.value("replayed"_L1).toBool();
    // A rule this build does not know (a newer Sonde's) reads as none: it decides nothing here.
    r.rule = ExpiryRules::fromName(o.value("rule"_L1).toString()).value_or(ExpiryRule::None);
    take(o, "recovery_ms"_L1, r.recoveryMs);
    if (o.contains("replay_verdict"_L1))
        r.verdict = ReplayVerdict::fromJson(o.value("replay_verdict"_L1).toObject());
    take(o, "outcome_uncertain"_L1, r.outcomeUncertain);
    take(o, "server"_L1, r.server);
    take(o, "reconnect"_L1, r.reconnect);
    take(o, "breaker"_L1, r.breaker);
    take(o, "retry_in_s"_L1, r.retryInS);
    return r;
}

bool CallRecovery::operator==(const CallRecovery &other) const
{
    return std::tie(generations, waitedMs, replayed, rule, recoveryMs, verdict, outcomeUncertain,
                    server, reconnect, breaker, retryInS) ==
           std::tie(other.generations, other.waitedMs, other.replayed, other.rule, other.recoveryMs,
                    other.verdict, other.outcomeUncertain, other.server, other.reconnect,
                    other.breaker, other.retryInS);
}

} // namespace Sonde
