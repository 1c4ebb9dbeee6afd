// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "recovery/circuitbreaker.h"
#include "recovery/reconnectpolicy.h"
#include "recovery/replaypolicy.h"
#include "session/sessionsnapshot.h"
#include "transcript/transcriptevent.h"
#include "transport/fault.h"
#include "values/callvalues.h"

#include <QHash>
#include <QJsonArray>
#include <QObject>

#include <functional>
#include <memory>
#include <optional>

namespace Sonde {

class Clock;
class ClockTimer;
class ServerSession;
class Transport;

// Recovery for one server (RECOVERY.md): it owns the server's session, its circuit breaker,
// the replay policy and the reconnect backoff. A failed call is classified; when the
// session died, the server is reconnected on its configured route and the call waits for a
// newer generation within one recovery budget; then read calls are sent again once, and
// write-capable calls come back as "outcome uncertain" instead of being replayed. Every
// step is an event in the server's history and in the transcript. Thread: the engine's;
// owned by the Engine. Emits value types only.
class ServerSupervisor : public QObject
{
    Q_OBJECT
public:
    using TransportFactory =
        std::function<std::unique_ptr<Transport>(const ServerConfig &, const Clock &)>;

    // `factory` replaces the transport of the configured route (tests use a fake one).
    ServerSupervisor(const ServerConfig &config, const Clock &clock,
                     const QJsonObject &clientCapabilities, QObject *parent = nullptr,
                     TransportFactory factory = {});
    ~ServerSupervisor() override;

    ServerSession *session() const { return m_session; }
    void start();
    void stop();
    void call(const CallRequest &request);
    void cancel(quint64 ticket, const QString &reason);
    void reply(const ServerReply &reply);
    Error injectFault(const Fault &fault);
    // A reconnect by hand: allowed at any time, and it unparks the server.
    void reconnect(const QString &cause);
    void resetBreaker();
    // The user's replay verdict for one tool (true: read-only), or none: the server's hint.
    void setToolOverride(const QString &tool, std::optional<bool> readOnly);
    void tripBreaker();
    SessionSnapshot snapshot() const;

Q_SIGNALS:
    // Something snapshot() shows has changed. No value: several changes in one burst (a
    // reconnect makes a dozen) are read once, by whoever coalesces them (the engine).
    void changed();
    void callFinished(const Sonde::CallOutcome &outcome);
    void serverRequestReceived(const Sonde::ServerRequest &request);
    void notificationReceived(const Sonde::ServerNotification &notification);
    void listRefreshed(const QString &server, const QString &method, const QJsonArray &items);
    void transcriptEvent(const Sonde::TranscriptEvent &event);
    void stopped();

private:
    enum class Stage
    {
        Dispatched,
        WaitingToDispatch,
        WaitingForRecovery,
        FetchingTools,
        WaitingForPing
    };
    struct Operation
    {
        CallRequest request;
        Stage stage = Stage::Dispatched;
        int attempts = 0;
        QJsonArray generations;
        int waitAfterGeneration = 0; // resume when a generation newer than this is ready
        qint64 startedMs = 0;
        qint64 deadlineMs = 0; // the end of this action's recovery budget
        qint64 waitStartedMs = 0;
        qint64 waitedMs = 0;
        std::optional<qint64> expiredAtUs; // when the session-expiry verdict was reached
        QString rule;
        Error firstError;
        bool probe = false;
        bool uncertain = false; // decided: never replayed, answer "outcome uncertain"
        bool replayed = false;
        QJsonObject verdict;
    };

    void onSessionSnapshot(const SessionSnapshot &s);
    void onSessionCallFinished(const CallOutcome &outcome);
    void dispatch(quint64 ticket);
    void handleExpired(quint64 ticket, const Error &error, const QString &rule,
                       const QString &detail);
    void resume(quint64 ticket);
    void decideToolReplay(quint64 ticket);
    void withToolEntry(quint64 ticket, std::function<void(const QJsonObject &)> then);
    void finish(quint64 ticket, CallOutcome outcome);
    void finishUncertain(quint64 ticket, const QString &reconnect);
    void requestReconnect(const QString &trigger);
    void attemptReconnect();
    void checkBudgets();
    void armBudgetTimer();
    void keepalive();
    quint64 internalCall(const QString &method, const QJsonObject &params, int timeoutMs,
                         std::function<void(const CallOutcome &)> then);
    QJsonObject toolEntry(const QString &name) const;
    void strike(const QString &cause);
    void recordBreakerTransitions();
    void history(const QString &type, QJsonObject details);
    QJsonObject recoveryState() const;
    QString reconnectWord() const;

    ServerConfig m_config;
    const Clock &m_clock;
    ServerSession *m_session = nullptr;
    CircuitBreaker m_breaker;
    ReplayPolicy m_replay;
    ReconnectPolicy m_reconnectPolicy;
    QHash<quint64, Operation> m_ops;
    QHash<quint64, std::function<void(const CallOutcome &)>> m_internal;
    quint64 m_nextInternal = quint64(1) << 60; // far from CoreHost's tickets
    ClockTimer *m_budgetTimer = nullptr;
    ClockTimer *m_retryTimer = nullptr;
    ClockTimer *m_pingTimer = nullptr;
    bool m_reconnecting = false;
    bool m_lastAttemptFailed = false;
    bool m_stopping = false;
    bool m_pingInFlight = false;
    QString m_attemptTrigger;
    int m_attemptFromGeneration = 0;
    qint64 m_attemptStartedMs = 0;
    int m_lastGeneration = 0;
    SessionSnapshot::State m_lastState = SessionSnapshot::State::Idle;
    QJsonArray m_history;
};

} // namespace Sonde
