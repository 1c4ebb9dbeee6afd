// SPDX-License-Identifier: MIT
#pragma once

#include "util/enumnames.h"
#include "values/expiryrule.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringView>

#include <optional>
#include <variant>

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
template <> struct EnumNames<BreakerPhase>
{
    static constexpr const char *const names[] = {"closed", "open", "half-open"};
};

// What the user asks of a server's circuit breaker (CoreHost::breaker); the name is the
// exec step's and the transcript's.
enum class BreakerAction
{
    Reset,
    Trip
};
template <> struct EnumNames<BreakerAction>
{
    static constexpr const char *const names[] = {"reset", "trip"};
};

// How a reconnect went, or where it stands when a call has to answer before it ends.
enum class ReconnectOutcome
{
    Ok,
    Pending,
    Failed
};
template <> struct EnumNames<ReconnectOutcome>
{
    static constexpr const char *const names[] = {"ok", "pending", "failed"};
};

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
template <> struct EnumNames<ReplaySource>
{
    static constexpr const char *const names[] = {"method", "server hint", "user override",
                                                  "default", "transport"};
};

// One entry of the server's history (docs/recovery.md §3, §4, §7): when, and one struct for
// the kind of entry, holding the fields that kind has. Its JSON is {"type", "t_ms"} and the
// struct's fields, an optional one only when set (two say so with a null instead: a failed
// reconnect's to_generation, an applied fault's error). A record of a kind with no struct
// here (a session's own event read back from a transcript, or a kind a newer Sonde writes)
// reads as Untyped, which keeps its name and its keys as they were. An optional field is
// unset unless given, so a designated initializer names only what the entry has.
struct HistoryEvent
{
    // Why a request failed, as the classifier read it: for a call (its method and the
    // generation it was sent on), or outside any (source says who noticed).
    struct Classification
    {
        static constexpr EventKind Kind = EventKind::Classification;
        std::optional<QString> method = std::nullopt;
        std::optional<int> generation = std::nullopt;
        QString rule; // an ExpiryRule's name
        QString detail;
        bool expired = false;
        std::optional<QString> source = std::nullopt;
        bool operator==(const Classification &) const = default;
    };
    struct SessionStart
    {
        static constexpr EventKind Kind = EventKind::SessionStart;
        int generation = 0;
        QString protocolVersion;
        QString transport; // a route's name
        bool operator==(const SessionStart &) const = default;
    };
    struct SessionEnd
    {
        static constexpr EventKind Kind = EventKind::SessionEnd;
        int generation = 0;
        QString cause;
        bool operator==(const SessionEnd &) const = default;
    };
    struct ReconnectAttempt
    {
        static constexpr EventKind Kind = EventKind::ReconnectAttempt;
        QString trigger;
        int fromGeneration = 0;
        int attempt = 0; // 1 for the first after a success
        bool operator==(const ReconnectAttempt &) const = default;
    };
    // An attempt's end: the generation it reached (none when it failed, written as null),
    // and why it failed.
    struct Reconnect
    {
        static constexpr EventKind Kind = EventKind::Reconnect;
        QString trigger;
        int fromGeneration = 0;
        std::optional<int> toGeneration = std::nullopt;
        qint64 durationMs = 0;
        ReconnectOutcome outcome = ReconnectOutcome::Ok;
        std::optional<QString> error = std::nullopt;
        bool operator==(const Reconnect &) const = default;
    };
    struct ReconnectScheduled
    {
        static constexpr EventKind Kind = EventKind::ReconnectScheduled;
        qint64 inMs = 0;
        bool parked = false;
        bool operator==(const ReconnectScheduled &) const = default;
    };
    struct KeepaliveFailed
    {
        static constexpr EventKind Kind = EventKind::KeepaliveFailed;
        QString error;
        bool operator==(const KeepaliveFailed &) const = default;
    };
    // One transition of the circuit breaker.
    struct Breaker
    {
        static constexpr EventKind Kind = EventKind::Breaker;
        BreakerPhase from = BreakerPhase::Closed;
        BreakerPhase to = BreakerPhase::Closed;
        QString cause;
        int strikes = 0;
        int threshold = 0;
        bool operator==(const Breaker &) const = default;
    };
    struct CallWaitsForReconnect
    {
        static constexpr EventKind Kind = EventKind::CallWaitsForReconnect;
        QString method;
        QString state; // the session state's name
        bool operator==(const CallWaitsForReconnect &) const = default;
    };
    struct SuspectSession
    {
        static constexpr EventKind Kind = EventKind::SuspectSession;
        QString cause;
        bool operator==(const SuspectSession &) const = default;
    };
    struct RecoveryBudgetSpent
    {
        static constexpr EventKind Kind = EventKind::RecoveryBudgetSpent;
        QString method;
        qint64 budgetMs = 0;
        ReconnectOutcome reconnect = ReconnectOutcome::Pending; // where it stood then
        bool operator==(const RecoveryBudgetSpent &) const = default;
    };
    // A fault injected by the user: its description ("kind" in JSON), and why it did not
    // apply (none, written as null, when it did).
    struct Fault
    {
        static constexpr EventKind Kind = EventKind::Fault;
        QString description;
        bool applied = false;
        std::optional<QString> error = std::nullopt;
        bool operator==(const Fault &) const = default;
    };
    struct ReplayOverride
    {
        static constexpr EventKind Kind = EventKind::ReplayOverride;
        QString tool;
        QString verdict; // "read-only", "write-capable" or "server hint"
        bool operator==(const ReplayOverride &) const = default;
    };

    // The call a verdict is about: the front end's ticket, which the progress token
    // ("sonde-<ticket>") carries on every attempt, and the first request of it that reached
    // the wire (none for a breaker refusal, which never did).
    struct VerdictCall
    {
        quint64 ticket = 0;
        QString method;
        std::optional<QString> tool = std::nullopt;
        std::optional<QString> progressToken = std::nullopt;
        std::optional<qint64> requestId = std::nullopt;
        std::optional<int> generation = std::nullopt;
        bool operator==(const VerdictCall &) const = default;
    };
    // The verdicts (CallTrail). rule: the classification that failed the call; detail: the
    // replay verdict's reason.
    struct OutcomeUncertain
    {
        static constexpr EventKind Kind = EventKind::OutcomeUncertain;
        VerdictCall call;
        std::optional<QString> rule = std::nullopt;
        std::optional<QString> detail = std::nullopt;
        ReconnectOutcome reconnect = ReconnectOutcome::Ok;
        bool operator==(const OutcomeUncertain &) const = default;
    };
    // The request that sent the call again: newRequestId in newGeneration.
    struct SentAgain
    {
        static constexpr EventKind Kind = EventKind::SentAgain;
        VerdictCall call;
        std::optional<QString> rule = std::nullopt;
        std::optional<QString> detail = std::nullopt;
        std::optional<qint64> newRequestId = std::nullopt;
        int newGeneration = 0;
        bool operator==(const SentAgain &) const = default;
    };
    struct BreakerRefused
    {
        static constexpr EventKind Kind = EventKind::BreakerRefused;
        VerdictCall call;
        QString cause; // why the breaker is open
        qint64 retryInS = 0;
        bool operator==(const BreakerRefused &) const = default;
    };

    // A record of any other kind, as it was read: its "type" and its other keys.
    struct Untyped
    {
        QString type;
        QJsonObject fields; // without "type" and "t_ms"
        bool operator==(const Untyped &) const = default;
    };

    using Body = std::variant<Untyped, Classification, SessionStart, SessionEnd, ReconnectAttempt,
                              Reconnect, ReconnectScheduled, KeepaliveFailed, Breaker,
                              CallWaitsForReconnect, SuspectSession, RecoveryBudgetSpent, Fault,
                              ReplayOverride, OutcomeUncertain, SentAgain, BreakerRefused>;

    qint64 timeMs = 0;
    Body body;

    // The body's kind; an Untyped one's by its name (Other for a name this build does not
    // know).
    EventKind kind() const;
    // The body when it is a T, else null.
    template <typename T> const T *as() const { return std::get_if<T>(&body); }
    // The call a verdict is about; null for the other kinds.
    const VerdictCall *verdictCall() const;

    QJsonObject toJson() const;
    static HistoryEvent fromJson(const QJsonObject &o);
    bool operator==(const HistoryEvent &other) const = default;
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
