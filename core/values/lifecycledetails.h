// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/error.h"
#include "values/authvalues.h"
#include "values/recoveryvalues.h"
#include "values/transportdetails.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>
#include <variant>

namespace Sonde {

// What a lifecycle event of a session, a transport or the supervisor says beyond its kind:
// one struct per kind, as HistoryEvent has for the server's history, so what crosses from
// the engine to the front ends is typed and a renamed key cannot break a reader silently.
// JSON exists only where the event leaves the program: toJson() is the transcript's
// "details" object, written from the same key table as the history's (values/jsonfields.h),
// and fromJson() reads it back typed. A kind written in two shapes (a fault armed or
// dropped, an era chosen by the probe or by the handshake) has optionals for the keys only
// one shape has; an optional is written only when set. A kind this build does not know
// reads as Untyped, which keeps its name and its keys as they were. Values only; any thread.
struct LifecycleDetails
{
    // A JSON-RPC id as the wire had it (a number or a string); left out until one is set.
    static inline const QJsonValue NoId{QJsonValue::Undefined};

    // A kind whose event says nothing beyond its name.
    template <EventKind K> struct Nothing
    {
        static constexpr EventKind Kind = K;
    };
    // A kind whose details are one value type written whole (its own toJson/fromJson).
    template <typename T, EventKind K> struct Whole
    {
        static constexpr EventKind Kind = K;
        T value = {};
        QJsonObject toJson() const { return value.toJson(); }
        static Whole fromJson(const QJsonObject &o) { return {T::fromJson(o)}; }
    };

    // ServerSession
    struct Starting
    {
        static constexpr EventKind Kind = EventKind::Starting;
        QString route = {}; // the route's name
        QString command = {};
    };
    using TransportOpen = Whole<TransportDetails, EventKind::TransportOpen>;
    using InitializeFailed = Whole<Error, EventKind::InitializeFailed>;
    using ConnectionLost = Whole<Error, EventKind::ConnectionLost>;
    struct Ready
    {
        static constexpr EventKind Kind = EventKind::Ready;
        QString protocolVersion = {};
        QJsonObject serverInfo = {}; // as the server said it
        QString era = {};
    };
    using Closing = Nothing<EventKind::Closing>;
    struct Restarting
    {
        static constexpr EventKind Kind = EventKind::Restarting;
        QString cause = {};
    };
    struct Drained
    {
        static constexpr EventKind Kind = EventKind::Drained;
        int generation = 0;
    };
    // A fault the user injected (its description, "kind" in JSON), or the faults armed for
    // the next request that a closed connection dropped, and why.
    struct Fault
    {
        static constexpr EventKind Kind = EventKind::Fault;
        std::optional<QString> description = std::nullopt;
        std::optional<QStringList> dropped = std::nullopt;
        std::optional<QString> why = std::nullopt;
    };
    // The route's details as it closed, and why when it failed.
    struct Closed
    {
        static constexpr EventKind Kind = EventKind::Closed;
        TransportDetails transport = {};
        std::optional<Error> reason = std::nullopt;
        QJsonObject toJson() const;
        static Closed fromJson(const QJsonObject &o);
    };
    struct LateResponseIgnored
    {
        static constexpr EventKind Kind = EventKind::LateResponseIgnored;
        QJsonValue id = NoId;
    };
    struct ReplyDropped
    {
        static constexpr EventKind Kind = EventKind::ReplyDropped;
        QJsonValue id = NoId;
        QString reason = {};
    };
    // A request that ended without a response frame (its error's session id stays out).
    struct RequestFailed
    {
        static constexpr EventKind Kind = EventKind::RequestFailed;
        QJsonValue id = NoId;
        QString method = {};
        Error::Kind errorKind = Error::Kind::None;
        QString message = {};
        std::optional<int> httpStatus = std::nullopt;
    };
    // A request Sonde stopped waiting for (notifications/cancelled went out, unless it was
    // the handshake).
    struct RequestTimedOut
    {
        static constexpr EventKind Kind = EventKind::RequestTimedOut;
        QJsonValue id = NoId;
        QString method = {};
        qint64 afterMs = 0;
    };
    // How the era was decided: by the server/discover probe (what the server supports, and
    // the version when it chose a revision) or by configuration or the handshake.
    struct EraChosen
    {
        static constexpr EventKind Kind = EventKind::EraChosen;
        QString era = {};
        QString reason = {};
        std::optional<QString> protocolVersion = std::nullopt;
        std::optional<QStringList> supported = std::nullopt;
    };
    // 2026-07-28: an input_required answer and the retry that carries the input.
    struct InputRequired
    {
        static constexpr EventKind Kind = EventKind::InputRequired;
        QJsonValue id = NoId;
        QJsonValue nextId = NoId;
        int round = 0;
        QString method = {};
        QString name = {};         // the tool, prompt or resource
        QJsonObject requests = {}; // each input request's key -> its method
    };
    struct ListenAcknowledged
    {
        static constexpr EventKind Kind = EventKind::ListenAcknowledged;
        QJsonValue id = NoId;
        QJsonObject requested = {}; // the filters, as the protocol has them
        QJsonObject granted = {};
    };
    // The server ended the listen stream (graceful) or refused it (why).
    struct ListenEnded
    {
        static constexpr EventKind Kind = EventKind::ListenEnded;
        QJsonValue id = NoId;
        bool graceful = false;
        std::optional<QString> reason = std::nullopt;
    };
    // The listen stream broke; it is asked for again after the delay.
    struct ListenDropped
    {
        static constexpr EventKind Kind = EventKind::ListenDropped;
        QJsonValue id = NoId;
        int retryInMs = 0;
        QString reason = {};
    };
    // A call the server turned into a task: its status; the first says when it is polled.
    struct TaskStatus
    {
        static constexpr EventKind Kind = EventKind::TaskStatus;
        QJsonValue id = NoId;
        QString taskId = {};
        QString status = {};
        std::optional<QString> message = std::nullopt;
        std::optional<int> pollMs = std::nullopt;
    };

    // HTTP routes. The session adds the progress token of the call a request belongs to.
    struct AuthChallenge
    {
        static constexpr EventKind Kind = EventKind::AuthChallenge;
        QJsonValue id = NoId;
        int status = 0;
        QString wwwAuthenticate = {};
        std::optional<QString> progressToken = std::nullopt;
    };
    struct StreamResume
    {
        static constexpr EventKind Kind = EventKind::StreamResume;
        QJsonValue id = NoId;
        QString lastEventId = {};
        int delayMs = 0;
        std::optional<QString> progressToken = std::nullopt;
    };
    struct StreamResumeFailed
    {
        static constexpr EventKind Kind = EventKind::StreamResumeFailed;
        QJsonValue id = NoId;
        QString lastEventId = {};
        QString reason = {};
        std::optional<QString> progressToken = std::nullopt;
    };
    // A transport went away without its goodbye: what became of the closing DELETE.
    struct TornDown
    {
        static constexpr EventKind Kind = EventKind::TornDown;
        QString deleteNote = {};
    };
    struct Draining
    {
        static constexpr EventKind Kind = EventKind::Draining;
        int requestsInFlight = 0;
        QString deleteNote = {};
    };
    // A DELETE of the session was answered: the closing one, or the fault's.
    template <EventKind K> struct DeleteAnswered
    {
        static constexpr EventKind Kind = K;
        int status = 0;
        QString outcome = {}; // in words
    };
    using SessionDelete = DeleteAnswered<EventKind::SessionDelete>;
    using FaultExpireSession = DeleteAnswered<EventKind::FaultExpireSession>;
    struct GetStreamOpen
    {
        static constexpr EventKind Kind = EventKind::GetStreamOpen;
        QString lastEventId = {};
    };
    // The GET stream was refused with this status, and is not asked for again.
    template <EventKind K> struct GetStreamRefused
    {
        static constexpr EventKind Kind = K;
        int status = 0;
    };
    using GetStreamUnavailable = GetStreamRefused<EventKind::GetStreamUnavailable>;
    using GetStreamFailed = GetStreamRefused<EventKind::GetStreamFailed>;
    struct GetStreamClosed
    {
        static constexpr EventKind Kind = EventKind::GetStreamClosed;
        int reconnectInMs = 0;
        QString error = {};
    };
    struct LegacySse
    {
        static constexpr EventKind Kind = EventKind::LegacySse;
        QString reason = {};
    };
    struct LegacyEndpoint
    {
        static constexpr EventKind Kind = EventKind::LegacyEndpoint;
        QString endpoint = {};
    };
    // One HTTP request and its answer, as HAR needs it (HttpExchangeRecord builds it, with
    // credentials already masked). Times are microseconds from the request's start; bodies
    // past the record's limit are cut and say where.
    struct HttpExchange
    {
        static constexpr EventKind Kind = EventKind::HttpExchange;
        struct Header
        {
            QString name = {};
            QString value = {};
        };
        struct SseFrame
        {
            qint64 tUs = 0;
            QString event = {};
            QString data = {};
            std::optional<QString> id = std::nullopt;
            std::optional<qint64> dataTruncatedAt = std::nullopt;
        };
        QString method = {};
        QString url = {};
        QList<Header> requestHeaders = {};
        qint64 requestBytes = 0;
        std::optional<QString> requestBody = std::nullopt;
        std::optional<qint64> requestBodyTruncatedAt = std::nullopt;
        int status = 0;
        QString statusText = {};
        QList<Header> responseHeaders = {};
        qint64 firstByteUs = -1;
        qint64 totalUs = 0;
        qint64 responseBytes = 0;
        QString contentType = {};
        // An SSE answer's frames (and how many were not kept); any other answer's body.
        std::optional<QList<SseFrame>> sse = std::nullopt;
        std::optional<int> sseFramesKeptMax = std::nullopt;
        std::optional<int> sseFramesDropped = std::nullopt;
        std::optional<QString> responseBody = std::nullopt;
        std::optional<qint64> responseBodyTruncatedAt = std::nullopt;
        std::optional<QString> error = std::nullopt;
    };

    // FaultInjectingTransport
    struct FaultKill
    {
        static constexpr EventKind Kind = EventKind::FaultKill;
        qint64 pid = 0;
        QString when = {};
    };
    using FaultCorruptSessionId = Nothing<EventKind::FaultCorruptSessionId>;
    struct FaultDropConnection
    {
        static constexpr EventKind Kind = EventKind::FaultDropConnection;
        int openStreams = 0;
    };
    struct FaultHttpStatus
    {
        static constexpr EventKind Kind = EventKind::FaultHttpStatus;
        int status = 0;
    };
    struct FaultExpireAfterDispatch
    {
        static constexpr EventKind Kind = EventKind::FaultExpireAfterDispatch;
        QJsonValue id = NoId;
        QString note = {};
    };
    // A 2026-07-28 fault answered or cut a request here.
    struct FaultRev20260728
    {
        static constexpr EventKind Kind = EventKind::FaultRev20260728;
        QString fault = {};
        QJsonValue id = NoId;
        std::optional<QString> note = std::nullopt;
    };

    // ServerSupervisor: each step of an authorization flow, and where the server's
    // authorization stands after it (its steps are not repeated: each had its own event).
    using AuthStep = Whole<Sonde::AuthStep, EventKind::AuthStep>;
    struct AuthState
    {
        static constexpr EventKind Kind = EventKind::AuthState;
        Sonde::AuthState value = {};
        QJsonObject toJson() const;
        static AuthState fromJson(const QJsonObject &o);
    };

    // An event of any other kind, as it was read: its name and its keys.
    struct Untyped
    {
        QString type;
        QJsonObject fields;
    };

    // A supervisor's history entry is its own alternative: its details are the entry whole
    // (HistoryEvent::toJson, with "type" and "t_ms").
    using Body =
        std::variant<Untyped, HistoryEvent, Starting, TransportOpen, InitializeFailed,
                     ConnectionLost, Ready, Closing, Restarting, Drained, Fault, Closed,
                     LateResponseIgnored, ReplyDropped, RequestFailed, RequestTimedOut, EraChosen,
                     InputRequired, ListenAcknowledged, ListenEnded, ListenDropped, TaskStatus,
                     AuthChallenge, StreamResume, StreamResumeFailed, TornDown, Draining,
                     SessionDelete, FaultExpireSession, GetStreamOpen, GetStreamUnavailable,
                     GetStreamFailed, GetStreamClosed, LegacySse, LegacyEndpoint, HttpExchange,
                     FaultKill, FaultCorruptSessionId, FaultDropConnection, FaultHttpStatus,
                     FaultExpireAfterDispatch, FaultRev20260728, AuthStep, AuthState>;

    Body body;

    // Whether T is one of Body's alternatives.
    template <typename T>
    static constexpr bool Holds = []<typename... A>(std::variant<A...> *) {
        return (std::is_same_v<T, A> || ...);
    }(static_cast<Body *>(nullptr));

    // What the variant does per alternative, compiled once in lifecycledetails.cpp (a line per
    // alternative there) and only declared here: inline, a 44-way variant's constructors,
    // accessors and destructor were compiled again in every file that records or reads an
    // event (9,700 of the 10,200 functions in one test's object file, at -O0).
    template <typename T> struct Slot
    {
        static LifecycleDetails make(T &&alternative);
        static const T *get(const Body &body);
    };

    LifecycleDetails();
    LifecycleDetails(const LifecycleDetails &other);
    LifecycleDetails(LifecycleDetails &&other) noexcept;
    LifecycleDetails &operator=(const LifecycleDetails &other);
    LifecycleDetails &operator=(LifecycleDetails &&other) noexcept;
    ~LifecycleDetails();
    // From any alternative, so a producer writes record(LifecycleDetails::Ready{...}).
    template <typename T>
    requires Holds<std::remove_cvref_t<T>> LifecycleDetails(T &&alternative)
        : LifecycleDetails(Slot<std::remove_cvref_t<T>>::make(
              std::remove_cvref_t<T>(std::forward<T>(alternative))))
    {
    }

    // The body's kind; an Untyped one's by its name (Other for a name this build does not
    // know).
    EventKind kind() const;
    // The name the event is written under ("event"): the kind's, or an Untyped one's own.
    QString name() const;
    // The body when it is a T, else null.
    template <typename T> const T *as() const { return Slot<T>::get(body); }

    // The "details" object of the event's transcript record ({} when it says nothing).
    QJsonObject toJson() const;
    // The details of an event named `event`, as toJson wrote them. An object with "type"
    // naming the event and a "t_ms" is a history entry (a HistoryEvent).
    static LifecycleDetails fromJson(const QString &event, const QJsonObject &details);
};

} // namespace Sonde

Q_DECLARE_METATYPE(Sonde::LifecycleDetails)
