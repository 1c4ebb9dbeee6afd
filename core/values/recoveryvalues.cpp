// SPDX-License-Identifier: MIT
#include "values/recoveryvalues.h"

#include "util/enumnames.h"

#include <QJsonArray>

#include <tuple>
#include <type_traits>
#include <variant>

using namespace Qt::StringLiterals;

namespace Sonde {

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

const char *const BreakerPhaseNames[] = {"closed", "open", "half-open"};
const char *const ReconnectOutcomeNames[] = {"ok", "pending", "failed"};
const char *const BreakerActionNames[] = {"reset", "trip"};
const char *const ReplaySourceNames[] = {"method", "server hint", "user override", "default",
                                         "transport"};

// One conversion per field type, used by the field lists below in both directions.
template <typename T> QJsonValue toValue(const T &v)
{
    if constexpr (std::is_same_v<T, BreakerPhase>)
        return breakerPhaseName(v);
    else if constexpr (std::is_same_v<T, ReconnectOutcome>)
        return reconnectOutcomeName(v);
    else if constexpr (std::is_same_v<T, quint64>)
        return QJsonValue(qint64(v));
    else
        return QJsonValue(v);
}

// Absent and null both read as unset (and a name this build does not know, for an enum).
template <typename T> std::optional<T> fromValue(const QJsonValue &j)
{
    if (j.isUndefined() || j.isNull())
        return std::nullopt;
    if constexpr (std::is_same_v<T, int>)
        return j.toInt();
    else if constexpr (std::is_same_v<T, qint64>)
        return j.toInteger();
    else if constexpr (std::is_same_v<T, quint64>)
        return quint64(j.toInteger());
    else if constexpr (std::is_same_v<T, bool>)
        return j.toBool();
    else if constexpr (std::is_same_v<T, double>)
        return j.toDouble();
    else if constexpr (std::is_same_v<T, BreakerPhase>)
        return breakerPhaseFromName(j.toString());
    else if constexpr (std::is_same_v<T, ReconnectOutcome>)
        return reconnectOutcomeFromName(j.toString());
    else
        return j.toString();
}

// How an unset optional field is written: left out, or (for the two the docs name) a null.
enum class Unset
{
    Omitted,
    Null
};

template <typename T>
void put(QJsonObject &o, QLatin1StringView key, const std::optional<T> &v,
         Unset unset = Unset::Omitted)
{
    if (v)
        o.insert(key, toValue(*v));
    else if (unset == Unset::Null)
        o.insert(key, QJsonValue::Null);
}

// A field every entry of its kind has: always written; read as its default when missing.
template <typename T> void put(QJsonObject &o, QLatin1StringView key, const T &v)
{
    o.insert(key, toValue(v));
}

template <typename T> void take(const QJsonObject &o, QLatin1StringView key, std::optional<T> &v)
{
    v = fromValue<T>(o.value(key));
}

template <typename T> void take(const QJsonObject &o, QLatin1StringView key, T &v)
{
    if (std::optional<T> read = fromValue<T>(o.value(key)))
        v = *read;
}

using H = HistoryEvent;

// Every field's JSON key, once: a name means one thing in whichever kind has it ("method",
// "generation", "cause"), as it always has. toJson and fromJson walk this for a kind's
// struct, which has some of these members.
template <typename F, typename S> void fields(F &&f, S &e)
{
    if constexpr (requires { e.call; }) // a verdict: the call it is about
        fields(f, e.call);
    if constexpr (requires { e.ticket; })
        f("ticket"_L1, e.ticket);
    if constexpr (requires { e.method; })
        f("method"_L1, e.method);
    if constexpr (requires { e.tool; })
        f("tool"_L1, e.tool);
    if constexpr (requires { e.progressToken; })
        f("progress_token"_L1, e.progressToken);
    if constexpr (requires { e.requestId; })
        f("request_id"_L1, e.requestId);
    if constexpr (requires { e.generation; })
        f("generation"_L1, e.generation);
    if constexpr (requires { e.newRequestId; })
        f("new_request_id"_L1, e.newRequestId);
    if constexpr (requires { e.newGeneration; })
        f("new_generation"_L1, e.newGeneration);
    if constexpr (requires { e.fromGeneration; })
        f("from_generation"_L1, e.fromGeneration);
    if constexpr (requires { e.attempt; })
        f("attempt"_L1, e.attempt);
    if constexpr (requires { e.trigger; })
        f("trigger"_L1, e.trigger);
    if constexpr (requires { e.durationMs; })
        f("duration_ms"_L1, e.durationMs);
    if constexpr (requires { e.outcome; })
        f("outcome"_L1, e.outcome);
    if constexpr (requires { e.inMs; })
        f("in_ms"_L1, e.inMs);
    if constexpr (requires { e.parked; })
        f("parked"_L1, e.parked);
    if constexpr (requires { e.from; })
        f("from"_L1, e.from);
    if constexpr (requires { e.to; })
        f("to"_L1, e.to);
    if constexpr (requires { e.strikes; })
        f("strikes"_L1, e.strikes);
    if constexpr (requires { e.threshold; })
        f("threshold"_L1, e.threshold);
    if constexpr (requires { e.rule; })
        f("rule"_L1, e.rule);
    if constexpr (requires { e.detail; })
        f("detail"_L1, e.detail);
    if constexpr (requires { e.expired; })
        f("expired"_L1, e.expired);
    if constexpr (requires { e.source; })
        f("source"_L1, e.source);
    if constexpr (requires { e.protocolVersion; })
        f("protocol_version"_L1, e.protocolVersion);
    if constexpr (requires { e.transport; })
        f("transport"_L1, e.transport);
    if constexpr (requires { e.state; })
        f("state"_L1, e.state);
    if constexpr (requires { e.cause; })
        f("cause"_L1, e.cause);
    if constexpr (requires { e.budgetMs; })
        f("budget_ms"_L1, e.budgetMs);
    if constexpr (requires { e.reconnect; })
        f("reconnect"_L1, e.reconnect);
    if constexpr (requires { e.description; })
        f("kind"_L1, e.description);
    if constexpr (requires { e.applied; })
        f("applied"_L1, e.applied);
    if constexpr (requires { e.verdict; })
        f("verdict"_L1, e.verdict);
    if constexpr (requires { e.retryInS; })
        f("retry_in_s"_L1, e.retryInS);
    // The two nulls the docs name: a failed reconnect reached no generation, and an applied
    // fault has no error.
    if constexpr (requires { e.toGeneration; })
        f("to_generation"_L1, e.toGeneration, Unset::Null);
    if constexpr (std::is_same_v<std::remove_const_t<S>, H::Fault>)
        f("error"_L1, e.error, Unset::Null);
    else if constexpr (requires { e.error; })
        f("error"_L1, e.error);
}

template <typename S> QJsonObject bodyJson(const S &body)
{
    if constexpr (std::is_same_v<S, H::Untyped>) {
        return body.fields;
    } else {
        QJsonObject o;
        fields(
            [&o](QLatin1StringView key, const auto &v, auto... unset) { put(o, key, v, unset...); },
            body);
        return o;
    }
}

// The struct of `kind` read from `o`; Untyped when no struct has that kind.
template <typename... Typed>
H::Body bodyFromJson(const QJsonObject &o, const QString &type,
                     std::variant<H::Untyped, Typed...> * /* the alternatives */)
{
    const EventKind kind = eventKindFromName(type);
    H::Body body;
    const auto read = [&]<typename S>(S *) {
        if (S::Kind != kind)
            return false;
        S e;
        fields([&o](QLatin1StringView key, auto &v, auto...) { take(o, key, v); }, e);
        body = e;
        return true;
    };
    if (!(read(static_cast<Typed *>(nullptr)) || ...)) {
        H::Untyped u{type, o};
        u.fields.remove("type"_L1);
        u.fields.remove("t_ms"_L1);
        body = u;
    }
    return body;
}

} // namespace

QString eventKindName(EventKind kind)
{
    return enumName(EventKindNames, kind);
}

EventKind eventKindFromName(QStringView name)
{
    return enumFromName<EventKind>(EventKindNames, name).value_or(EventKind::Other);
}

QString breakerPhaseName(BreakerPhase phase)
{
    return enumName(BreakerPhaseNames, phase);
}

std::optional<BreakerPhase> breakerPhaseFromName(QStringView name)
{
    return enumFromName<BreakerPhase>(BreakerPhaseNames, name);
}

QString breakerActionName(BreakerAction action)
{
    return enumName(BreakerActionNames, action);
}

std::optional<BreakerAction> breakerActionFromName(QStringView name)
{
    return enumFromName<BreakerAction>(BreakerActionNames, name);
}

QString reconnectOutcomeName(ReconnectOutcome outcome)
{
    return enumName(ReconnectOutcomeNames, outcome);
}

std::optional<ReconnectOutcome> reconnectOutcomeFromName(QStringView name)
{
    return enumFromName<ReconnectOutcome>(ReconnectOutcomeNames, name);
}

QString replaySourceName(ReplaySource source)
{
    return enumName(ReplaySourceNames, source);
}

std::optional<ReplaySource> replaySourceFromName(QStringView name)
{
    return enumFromName<ReplaySource>(ReplaySourceNames, name);
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
    return {o.value("t_ms"_L1).toInteger(),
            bodyFromJson(o, o.value("type"_L1).toString(), static_cast<Body *>(nullptr))};
}

QJsonObject BreakerState::toJson() const
{
    QJsonObject o{{"state"_L1, breakerPhaseName(phase)}, {"strikes"_L1, strikes},
                  {"threshold"_L1, threshold},           {"cooldown_s"_L1, cooldownS},
                  {"retry_in_s"_L1, retryInS},           {"probe_in_flight"_L1, probeInFlight}};
    if (trippedBy)
        o.insert("tripped_by"_L1, *trippedBy);
    return o;
}

BreakerState BreakerState::fromJson(const QJsonObject &o)
{
    BreakerState b;
    b.phase = breakerPhaseFromName(o.value("state"_L1).toString()).value_or(BreakerPhase::Closed);
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
    return {{"replay"_L1, replay}, {"source"_L1, replaySourceName(source)}, {"reason"_L1, reason}};
}

ReplayVerdict ReplayVerdict::fromJson(const QJsonObject &o)
{
    ReplayVerdict v;
    v.replay = o.value("replay"_L1).toBool();
    v.source =
        replaySourceFromName(o.value("source"_L1).toString()).value_or(ReplaySource::Default);
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
