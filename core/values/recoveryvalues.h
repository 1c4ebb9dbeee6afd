// SPDX-License-Identifier: MIT
#pragma once

#include "values/expiryrule.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringView>

#include <optional>

namespace Sonde {

// The recovery state of one server as values (docs/recovery.md §3, §4): what the supervisor
// keeps, what its snapshot and a call's answer carry to the front ends across threads. JSON
// exists only where the data leaves the program (the CLI, transcript lines, exports): each
// type converts itself in one place, toJson()/fromJson(), with its names in one table
// (util/enumnames.h), so the wire text cannot drift from the enum. Values only; any thread.

// Every lifecycle event a session, a transport or the supervisor records, by the name it has
// in the transcript ("event") and in the server's history ("type"). Other: a name this
// build does not know (the event keeps its own string).
enum class EventKind
{
    Other,
    // ServerSession
    Starting,
    TransportOpen,
    InitializeFailed,
    Ready,
    Closing,
    Restarting,
    Drained,
    Fault,
    Closed,
    ConnectionLost,
    LateResponseIgnored,
    FaultExpireAfterDispatch,
    ReplyDropped,
    // transports
    Draining,
    FaultCorruptSessionId,
    FaultDropConnection,
    FaultHttpStatus,
    FaultKill,
    GetStreamClosed,
    GetStreamFailed,
    GetStreamOpen,
    GetStreamUnavailable,
    LegacyEndpoint,
    LegacySse,
    SessionDelete,
    TornDown,
    StreamResume,
    StreamResumeFailed, // the resumption of a request's stream failed: the request may have run
    FaultExpireSession,
    // ServerSupervisor: the server's history
    Classification,
    SessionStart,
    Reconnect,
    SessionEnd,
    ReconnectScheduled,
    Breaker,
    CallWaitsForReconnect,
    SuspectSession,
    RecoveryBudgetSpent,
    ReconnectAttempt,
    KeepaliveFailed,
    ReplayOverride,
    // CallRecoveryUnit: the verdict a front end shows for one call, tied to the request it
    // was about (docs/recovery.md §7)
    OutcomeUncertain,
    SentAgain,
    BreakerRefused,
    // ServerSession: a request that ended without a response frame, by its id
    RequestFailed,
    RequestTimedOut,
    // ServerSession, modern era (2026-07-28): how the era was decided; an input_required
    // answer and the retry that carries the input (one call, several legs, linked by id);
    // the subscriptions/listen stream
    EraChosen,
    InputRequired,
    ListenAcknowledged,
    ListenEnded,
    ListenDropped,
    // FaultInjectingTransport: a modern fault answered or cut a request here
    FaultRev20260728,
    // ServerSession: a call the server turned into a task (io.modelcontextprotocol/tasks)
    TaskStatus,
    // Authorization (docs/auth.md): a request refused at the door (HTTP routes), each step
    // of a flow and where the server's authorization stands after it (ServerSession)
    AuthChallenge,
    AuthStep,
    AuthState,
    // HTTP routes: one HTTP request and its answer, as HAR needs it (HttpExchangeRecord)
    HttpExchange
};
QString eventKindName(EventKind kind);
// Other (never nullopt) for a name this build does not know.
EventKind eventKindFromName(QStringView name);

enum class BreakerPhase
{
    Closed,
    Open,
    HalfOpen
};
QString breakerPhaseName(BreakerPhase phase);
std::optional<BreakerPhase> breakerPhaseFromName(QStringView name);

// What the user asks of a server's circuit breaker (CoreHost::breaker); the name is the
// exec step's and the transcript's.
enum class BreakerAction
{
    Reset,
    Trip
};
QString breakerActionName(BreakerAction action);
std::optional<BreakerAction> breakerActionFromName(QStringView name);

// How a reconnect went, or where it stands when a call has to answer before it ends.
enum class ReconnectOutcome
{
    Ok,
    Pending,
    Failed
};
QString reconnectOutcomeName(ReconnectOutcome outcome);
std::optional<ReconnectOutcome> reconnectOutcomeFromName(QStringView name);

// Who decided whether a request may be sent again. Transport: how it failed decided (it was
// refused before it ran, or a stdio child died after it was written).
enum class ReplaySource
{
    Method,
    ServerHint,
    UserOverride,
    Default,
    Transport
};
QString replaySourceName(ReplaySource source);
std::optional<ReplaySource> replaySourceFromName(QStringView name);

// One entry of the server's history. The fields a kind has are set, the others are not (the
// JSON has exactly the set keys; "type" and "t_ms" always).
struct HistoryEvent
{
    EventKind kind = EventKind::Other;
    qint64 timeMs = 0;
    std::optional<int> generation;
    std::optional<int> fromGeneration;
    std::optional<int> toGeneration; // a reconnect: null when it failed
    std::optional<int> attempt;
    std::optional<int> strikes;
    std::optional<int> threshold;
    std::optional<qint64> durationMs;
    std::optional<qint64> inMs;
    std::optional<qint64> budgetMs;
    std::optional<bool> expired;
    std::optional<bool> parked;
    std::optional<bool> applied;
    std::optional<BreakerPhase> from;
    std::optional<BreakerPhase> to;
    std::optional<ReconnectOutcome> outcome;
    std::optional<ReconnectOutcome> reconnect;
    std::optional<QString> trigger;
    std::optional<QString> rule;
    std::optional<QString> detail;
    std::optional<QString> source;
    std::optional<QString> method;
    std::optional<QString> state; // a session state's name
    std::optional<QString> cause;
    std::optional<QString> error; // a fault: null when it applied
    std::optional<QString> fault; // a fault's description ("kind" in JSON)
    std::optional<QString> protocolVersion;
    std::optional<QString> transport;
    std::optional<QString> tool;
    std::optional<QString> verdict;
    // A verdict: the call it is about. requestId and generation are the original request's
    // (none for a breaker refusal, which never reached the wire); newRequestId and
    // newGeneration the request that sent it again; ticket the front end's handle, which the
    // progress token ("sonde-<ticket>") carries on every attempt.
    std::optional<qint64> requestId;
    std::optional<qint64> newRequestId;
    std::optional<int> newGeneration;
    std::optional<quint64> ticket;
    std::optional<QString> progressToken;
    std::optional<qint64> retryInS;

    QJsonObject toJson() const;
    static HistoryEvent fromJson(const QJsonObject &o);
    bool operator==(const HistoryEvent &other) const;
    bool operator!=(const HistoryEvent &other) const { return !(*this == other); }
};

struct BreakerState
{
    BreakerPhase phase = BreakerPhase::Closed;
    int strikes = 0;
    int threshold = 0;
    double cooldownS = 0;
    qint64 retryInS = 0;
    bool probeInFlight = false;
    // While open because the user tripped it: the cause given ("user"); unset when it opened
    // on failures. A refusal names it, and so does the window.
    std::optional<QString> trippedBy;

    QJsonObject toJson() const;
    static BreakerState fromJson(const QJsonObject &o);
    bool operator==(const BreakerState &other) const;
};

struct ReconnectState
{
    bool inProgress = false;
    int failedAttempts = 0;
    bool parked = false;
    qint64 nextAttemptInMs = 0;

    QJsonObject toJson() const;
    static ReconnectState fromJson(const QJsonObject &o);
    bool operator==(const ReconnectState &other) const;
};

struct ReplayVerdict
{
    bool replay = false;
    ReplaySource source = ReplaySource::Default;
    QString reason;

    QJsonObject toJson() const;
    static ReplayVerdict fromJson(const QJsonObject &o);
    bool operator==(const ReplayVerdict &other) const;
};

// What a supervisor's snapshot adds to its session's: the breaker, the reconnect, and the
// most recent history.
struct RecoveryState
{
    BreakerState breaker;
    ReconnectState reconnect;
    QList<HistoryEvent> history;

    // {"breaker", "reconnect", "history"}: merged into the snapshot's JSON.
    QJsonObject toJson() const;
    static RecoveryState fromJson(const QJsonObject &o);
    bool operator==(const RecoveryState &other) const;
};

// How a call's answer was reached (docs/recovery.md §2): the generations it was sent on, the
// classification rule, the time it waited, the replay verdict; and for the special answers
// outcome_uncertain / server / reconnect, or breaker / retry_in_s (a refusal).
struct CallRecovery
{
    QList<int> generations;
    qint64 waitedMs = 0;
    bool replayed = false;
    ExpiryRule rule = ExpiryRule::None;
    std::optional<double> recoveryMs;
    std::optional<ReplayVerdict> verdict;
    std::optional<bool> outcomeUncertain;
    std::optional<QString> server;
    std::optional<ReconnectOutcome> reconnect;
    std::optional<BreakerPhase> breaker;
    std::optional<qint64> retryInS;

    // Merged into the answer's JSON (CallOutcome::toJson, the CLI's answer).
    QJsonObject toJson() const;
    static CallRecovery fromJson(const QJsonObject &o);
    bool operator==(const CallRecovery &other) const;
};

} // namespace Sonde

Q_DECLARE_METATYPE(Sonde::HistoryEvent)
Q_DECLARE_METATYPE(Sonde::RecoveryState)
Q_DECLARE_METATYPE(Sonde::CallRecovery)
