// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "protocol/jsonrpcmessage.h"
#include "protocol/mcpheaders.h"
#include "protocol/modernprotocol.h"
#include "session/inputround.h"
#include "session/listensubscription.h"
#include "session/listfetcher.h"
#include "session/pendingrequests.h"
#include "session/sessionsnapshot.h"
#include "session/taskhandle.h"
#include "transcript/transcriptevent.h"
#include "transport/fault.h"
#include "transport/faultinjectingtransport.h"
#include "values/callvalues.h"

#include <QHash>
#include <QJsonArray>
#include <QList>
#include <QObject>

#include <functional>
#include <memory>

class QNetworkAccessManager;

namespace Sonde {

class Clock;
class HttpAuthorization;
class ClockTimer;
class Transport;

// One server's MCP session: the transport, the initialize handshake, request/response
// pairing with timeouts, pagination, server requests and notifications, the cached lists,
// and the generation counter. Thread: the engine's (asserted); owned by the Engine.
// Emits value types only: snapshotChanged, callFinished, serverRequestReceived,
// notificationReceived, listRefreshed, transcriptEvent, stopped.
class ServerSession : public QObject
{
    Q_OBJECT
public:
    using TransportFactory =
        std::function<std::unique_ptr<Transport>(const ServerConfig &, const Clock &)>;

    ServerSession(const ServerConfig &config, const Clock &clock,
                  const QJsonObject &clientCapabilities, TransportFactory factory = {},
                  QObject *parent = nullptr);
    ~ServerSession() override;

    // Starts (or, from Closed/Failed, restarts) the transport and the handshake.
    void start();
    // Graceful close; stopped() follows. Outstanding calls fail as cancelled.
    void stop();
    // Tears the transport down and starts a new one on the configured route (a new process
    // or a new HTTP session): in-flight requests fail as "aborted by a reconnect teardown".
    // `politely`: close as usual (HTTP DELETE); otherwise the old session is known dead.
    void restart(const QString &cause, bool politely = false);
    // Applies a fault through the transport's FaultInjectingTransport.
    Error injectFault(const Fault &fault);
    // Queued until the session is ready; fails at once if it has failed.
    void call(const CallRequest &request);
    void cancel(quint64 ticket, const QString &reason);
    void reply(const ServerReply &reply);
    // Fails every request whose deadline has passed on the session's clock. Called by the
    // session's own timer; tests call it after advancing a ManualClock.
    void checkTimeouts();

    SessionSnapshot snapshot() const;
    // The network manager of this server's HTTP transports and its authorization flows (one
    // connection pool), made on first use. The session's thread.
    QNetworkAccessManager *network();
    // Before start(): the credentials its HTTP transports send and renew (docs/auth.md). Not
    // owned; outlives the session's generations.
    void setAuthorization(HttpAuthorization *authorization) { m_authorization = authorization; }
    QString name() const { return m_config.name; }
    // Empty when the server's caching hint (ttlMs, modern) says the list has gone stale,
    // unless `justRead`: a list read to answer a question answers it, whatever its ttlMs
    // (0 means "read again next time", not "what was just read is wrong").
    QJsonArray cachedList(const QString &method, bool justRead = false) const;
    int pendingCount() const { return m_pending.size(); }
    // The JSON-RPC id of the request now outstanding for a call; null when none is.
    QJsonValue requestIdOf(quint64 ticket) const { return m_ticketRequestId.value(ticket); }

Q_SIGNALS:
    void snapshotChanged(const Sonde::SessionSnapshot &snapshot);
    void callFinished(const Sonde::CallOutcome &outcome);
    void serverRequestReceived(const Sonde::ServerRequest &request);
    void notificationReceived(const Sonde::ServerNotification &notification);
    void listRefreshed(const QString &server, const QString &method, const QJsonArray &items);
    // The transport broke outside any request (see Transport::connectionLost).
    void connectionLost(const Sonde::Error &error);
    void transcriptEvent(const Sonde::TranscriptEvent &event);
    void stopped();

private:
    using ResponseHandler = std::function<void(const JsonRpcMessage &response, const Error &error)>;

    struct Operation
    {
        CallRequest request;
        CallOutcome outcome;
        ListFetcher list;                // paginated lists: the pages so far
        QJsonObject sentParams;          // what the first leg sent, for the retries of an MRTR call
        std::optional<InputRound> input; // the round of input being gathered (modern)
        int rounds = 0;
        bool headersRefreshed = false;  // a -32020 has been answered by reading the tools again
        std::optional<TaskHandle> task; // the task the server turned the call into
        qint64 taskStartedMs = 0;
    };
    enum class Era
    {
        Undecided,
        Legacy,
        Modern
    };

    void setState(SessionSnapshot::State state);
    void onTransportOpened();
    void processFrame(const QByteArray &frame);
    void onTransportClosed(const Error &reason);
    void noteDroppedFaults(const FaultInjectingTransport *t, const QString &why);
    // restart() on a route whose requests are independent (Transport::drain): true if done.
    bool drainAndStartAgain();
    void handleMessage(const JsonRpcMessage &message);
    void handleNotification(const JsonRpcMessage &message);
    void handleInitializeAnswer(const JsonRpcMessage &response, const Error &error);
    void sendInitialize();
    void sendDiscover();
    void handleDiscoverAnswer(const JsonRpcMessage &response, const Error &error);
    void failHandshake(const Error &e, EventKind kind);
    void becomeReady();
    // Modern: what a call answers when it is not a plain result (input_required, an unknown
    // resultType); false when the answer is the call's outcome.
    bool continueModernCall(quint64 ticket, const JsonRpcMessage &response);
    void sendInputRetry(quint64 ticket);
    // -32020 on a tools/call: read the tools again (their x-mcp-header annotations may have
    // changed, or were never read) and send the call once more; true when that is under way.
    bool retryAfterHeaderMismatch(quint64 ticket, const Error &error);
    void followTask(quint64 ticket, const QJsonObject &createTaskResult);
    void pollTask(quint64 ticket);
    void onTaskAnswer(quint64 ticket, const JsonRpcMessage &response, const Error &error);
    void sendTaskUpdate(quint64 ticket);
    void stopTaskTimer(quint64 ticket);
    QJsonObject modernCapabilities() const;
    // The _meta a modern request carries (the probe's included).
    Modern::RequestContext requestContext();
    bool takeInputReply(const ServerReply &reply);
    // Modern: calls the session answers itself (logging/setLevel, resource subscriptions,
    // ping); true when it did.
    bool answerLocally(quint64 ticket);
    void openListen();
    void closeListen();
    void onListenFailed(const Error &error);
    void onListenAnswered(const JsonRpcMessage &response);
    bool handleSubscriptionNotification(const JsonRpcMessage &message);
    void noteCacheHints(const QString &method, const QJsonObject &result);
    QJsonArray acceptTools(const QJsonArray &tools);
    Error explainModernError(const Error &error) const;
    bool isModern() const { return m_era == Era::Modern; }
    // Cancellation travels as notifications/cancelled, except on modern HTTP where closing the
    // request's stream is the cancellation (basic/patterns/cancellation.mdx).
    bool cancelsWithNotification() const;
    QJsonValue sendRequest(const QString &method, const QJsonObject &params, int timeoutMs,
                           const QString &progressToken, ResponseHandler handler);
    void sendFrame(const JsonRpcMessage &message);
    void dispatch(quint64 ticket);
    void sendPage(quint64 ticket);
    // By value: callers pass parts of the operation this erases (its fetcher's error).
    void finishOperation(quint64 ticket, QJsonValue result, Error error);
    void failAll(const Error &error);
    void refreshList(const QString &method);
    void sendRefreshPage(const QString &method);
    void armTimer();
    // A lifecycle event named by its kind, so the name cannot drift from what front ends read.
    void record(EventKind kind, const QJsonObject &details = {});
    void record(TranscriptEvent::Direction direction, const QByteArray &raw,
                const QString &event = {}, const QJsonObject &details = {});

    ServerConfig m_config;
    const Clock &m_clock;
    QJsonObject m_clientCapabilities;
    TransportFactory m_factory;
    FaultInjectingTransport *m_transport = nullptr;                      // wraps the route
    std::shared_ptr<FaultInjectingTransport::Standing> m_standingFaults; // kept across routes
    QNetworkAccessManager *m_network = nullptr; // shared by this session's HTTP transports
    HttpAuthorization *m_authorization = nullptr;
    ClockTimer *m_timeoutTimer = nullptr;
    qint64 m_armedForMs = 0; // the deadline the timeout timer is armed for

    SessionSnapshot::State m_state = SessionSnapshot::State::Idle;
    int m_generation = 0;
    int m_starts = 0;
    qint64 m_readyMs = 0;
    qint64 m_nextId = 1; // never reused for the lifetime of this object
    QString m_protocolVersion;
    QJsonObject m_serverInfo;
    QJsonObject m_serverCapabilities;
    QString m_instructions;
    QJsonObject m_lastTransportDetails;
    Error m_lastError;

    PendingRequests m_pending;
    QHash<QString, ResponseHandler> m_handlers;   // idKey -> continuation
    QHash<quint64, Operation> m_operations;       // ticket -> operation in progress
    QHash<quint64, QJsonValue> m_ticketRequestId; // ticket -> JSON-RPC id now outstanding
    QList<quint64> m_waitingForReady;
    QHash<QString, QJsonArray> m_cache;      // list method -> items
    QHash<QString, ListFetcher> m_refreshes; // list method -> its refresh in flight
    QSet<QString> m_refreshAgain;            // changed again while being refreshed
    bool m_restarting = false;

    // The 2026-07-28 revision (docs/protocol.md)
    Era m_era = Era::Undecided;
    QString m_eraReason;
    // Auto over stdio asks with the handshake first (docs/protocol.md, "Choosing the era"):
    // its refusal is kept here while server/discover decides.
    QStringList m_droppedFaults;
    bool m_initializeFirst = false;
    Error m_initializeRefusal;
    QString m_strayLine; // the first line that was not JSON-RPC, during the handshake
    QString m_logLevel;  // modern: sent in every request's _meta once the user set one
    Modern::RequestContext m_requestContext; // its unchanging part, built on first use
    ListenSubscription m_listen;
    ClockTimer *m_listenTimer = nullptr;
    bool m_listenReopened = false; // the next acknowledgment is of a stream opened again
    QSet<QString> m_resourceSubscriptions;
    QJsonObject m_cacheHints;
    McpHeaders::ToolParams m_toolHeaders;
    QHash<QString, QPair<quint64, QString>> m_inputRequests; // MRTR request id -> ticket, key
    QHash<quint64, ClockTimer *> m_taskTimers;               // ticket -> its next tasks/get
};

} // namespace Sonde
