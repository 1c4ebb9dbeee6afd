// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "protocol/jsonrpcmessage.h"
#include "session/listcache.h"
#include "session/operation.h"
#include "session/requestchannel.h"
#include "session/sessionera.h"
#include "session/sessionhost.h"
#include "session/sessionsnapshot.h"
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
#include <vector>

class QNetworkAccessManager;

namespace Sonde {

class Clock;
class HttpAuthorization;
class Transport;

// One server's MCP session: the transport, the choice of era (the initialize handshake or
// the server/discover probe), the calls it carries with their pages and queue, server
// requests and notifications, restart and drain, and the generation counter. Its parts:
// the request channel (ids, deadlines, continuations), the list cache, and the era chosen
// for the connection, which does what a revision adds (SessionEra). Thread: the engine's
// (asserted); owned by the Engine. Emits value types only.
class ServerSession : public QObject, private SessionHost
{
    Q_OBJECT
public:
    using TransportFactory =
        std::function<std::unique_ptr<Transport>(const ServerConfig &, const Clock &)>;
    // A protocol revision the session can speak, made for this session.
    using EraFactory = std::function<std::unique_ptr<SessionEra>(SessionHost &host)>;

    ServerSession(const ServerConfig &config, const Clock &clock,
                  const QJsonObject &clientCapabilities, TransportFactory factory = {},
                  QObject *parent = nullptr);
    ~ServerSession() override;

    // The revisions Sonde speaks, oldest first: the last one speaks the probe.
    static QList<EraFactory> defaultEras();
    // Before start(): the revisions this session speaks instead (a test's fake revision).
    void setEras(const QList<EraFactory> &eras);

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
    // channel's timer; tests call it after advancing a ManualClock.
    void checkTimeouts();

    SessionSnapshot snapshot() const;
    // The network manager of this server's HTTP transports and its authorization flows (one
    // connection pool), made on first use. The session's thread.
    QNetworkAccessManager *network();
    // Before start(): the credentials its HTTP transports send and renew (docs/auth.md). Not
    // owned; outlives the session's generations.
    void setAuthorization(HttpAuthorization *authorization) { m_authorization = authorization; }
    QString name() const { return m_config.name; }
    // See ListCache::cached.
    QJsonArray cachedList(const QString &method, bool justRead = false) const
    {
        return m_lists.cached(method, justRead);
    }
    int pendingCount() const { return m_requests->size(); }
    // The JSON-RPC id of the request now outstanding for a call; null when none is.
    QJsonValue requestIdOf(quint64 ticket) const override
    {
        return m_ticketRequestId.value(ticket);
    }

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
    // SessionHost: what the era and the parts reach.
    const ServerConfig &config() const override { return m_config; }
    const Clock &clock() const override { return m_clock; }
    QObject *context() override { return this; }
    bool isReady() const override { return m_state == SessionSnapshot::State::Ready; }
    int generation() const override { return m_generation; }
    void startGeneration() override { ++m_generation; }
    QJsonObject clientCapabilities() const override { return m_clientCapabilities; }
    QJsonObject serverCapabilities() const override { return m_serverCapabilities; }
    FaultInjectingTransport *transport() const override { return m_transport; }
    SessionEra &era() override { return m_era ? *m_era : m_noEra; }
    ListCache &lists() override { return m_lists; }
    QJsonValue sendRequest(const QString &method, const QJsonObject &params, int timeoutMs,
                           const QString &progressToken, Handler handler) override;
    QJsonValue nextId() override { return m_requests->nextId(); }
    void sendFrame(const JsonRpcMessage &message) override;
    // A lifecycle event named by its kind, so the name cannot drift from what front ends read.
    void record(LifecycleDetails details) override;
    void recordViolation(const QString &why, const QByteArray &raw = {}) override;
    void publishSnapshot() override { Q_EMIT snapshotChanged(snapshot()); }
    Operation *operation(quint64 ticket) override;
    void setRequestId(quint64 ticket, const QJsonValue &id) override
    {
        m_ticketRequestId.insert(ticket, id);
    }
    void dispatch(quint64 ticket) override;
    // By value: callers pass parts of the operation this erases (its fetcher's error).
    void finish(quint64 ticket, QJsonValue result, Error error) override;
    void ask(const ServerRequest &request) override { Q_EMIT serverRequestReceived(request); }
    void notify(const ServerNotification &notification) override
    {
        Q_EMIT notificationReceived(notification);
    }
    void announceList(const QString &method, const QJsonArray &items) override
    {
        Q_EMIT listRefreshed(m_config.name, method, items);
    }

    void setState(SessionSnapshot::State state);
    void connectTransport();
    void onTransportOpened();
    void processFrame(const QByteArray &frame);
    void onTransportClosed(const Error &reason);
    void onRequestFailed(const QJsonValue &id, const Error &error);
    void noteDroppedFaults(const FaultInjectingTransport *t, const QString &why);
    // restart() on a route whose requests are independent (Transport::drain): true if done.
    bool drainAndStartAgain();
    void handleMessage(const JsonRpcMessage &message);
    void handleNotification(const JsonRpcMessage &message);

    // The choice of era: the only code that knows which revisions exist.
    SessionEra *eraSpeaking(const QString &version) const;
    // The era the server/discover probe speaks: the newest.
    SessionEra &probeEra() const { return *m_eras.back(); }
    // What the probe may choose, newest first.
    QStringList probedVersions() const;
    void choose(SessionEra *era, const QString &reason, const QString &version = {});
    void startConfiguredRevisionOverHttp();
    void sendInitialize();
    void handleInitializeAnswer(const JsonRpcMessage &response, const Error &error);
    void sendDiscover();
    void handleDiscoverAnswer(const JsonRpcMessage &response, const Error &error);
    void takeDiscovered(const QJsonObject &discover);
    void failHandshake(const Error &e);
    void becomeReady();

    void sendPage(quint64 ticket);
    void failAll(const Error &error);
    void record(TranscriptEvent::Direction direction, const QByteArray &raw,
                const QString &event = {});

    ServerConfig m_config;
    const Clock &m_clock;
    QJsonObject m_clientCapabilities;
    TransportFactory m_factory;
    FaultInjectingTransport *m_transport = nullptr;                      // wraps the route
    std::shared_ptr<FaultInjectingTransport::Standing> m_standingFaults; // kept across routes
    QNetworkAccessManager *m_network = nullptr; // shared by this session's HTTP transports
    HttpAuthorization *m_authorization = nullptr;
    RequestChannel *m_requests = nullptr;
    ListCache m_lists{*this};

    SessionSnapshot::State m_state = SessionSnapshot::State::Idle;
    int m_generation = 0;
    int m_starts = 0;
    qint64 m_readyMs = 0;
    QString m_protocolVersion;
    QJsonObject m_serverInfo;
    QJsonObject m_serverCapabilities;
    QString m_instructions;
    TransportDetails m_lastTransportDetails;
    Error m_lastError;
    QStringList m_droppedFaults;

    QHash<quint64, Operation> m_operations;       // ticket -> operation in progress
    QHash<quint64, QJsonValue> m_ticketRequestId; // ticket -> JSON-RPC id now outstanding
    QList<quint64> m_waitingForReady;
    bool m_restarting = false;

    // The eras (docs/protocol.md, "Choosing the era"), chosen again for each connection.
    std::vector<std::unique_ptr<SessionEra>> m_eras; // oldest first
    SessionEra m_noEra{*this};                       // before the choice
    SessionEra *m_era = nullptr;
    QString m_eraReason;
    // Auto over stdio asks with the handshake first: its refusal is kept here while
    // server/discover decides.
    bool m_initializeFirst = false;
    Error m_initializeRefusal;
    QString m_strayLine;         // the first line that was not JSON-RPC, during the handshake
    QByteArray m_answeringFrame; // while processFrame() handles a one-message frame
};

} // namespace Sonde
