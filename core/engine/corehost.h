// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "engine/enginesignals.h"
#include "session/sessionsnapshot.h"
#include "transcript/transcriptevent.h"
#include "transport/fault.h"
#include "values/authvalues.h"
#include "values/callvalues.h"

#include <QHash>
#include <QJsonArray>
#include <QObject>

#include <functional>
#include <memory>

class QThread;

namespace Sonde {

class Clock;
class Engine;
class SecretStore;

// Answers the requests a server sends to the client (sampling, elicitation, roots). The
// front end implements it: the CLI from its flags, the GUI by asking the user. It is called
// on the caller's thread and answers, now or later, through CoreHost::reply().
class ServerRequestHandler
{
public:
    virtual ~ServerRequestHandler() = default;
    virtual void handleServerRequest(const ServerRequest &request) = 0;
};

// The front end's only handle on the core. It lives on the caller's thread, owns the worker
// thread and the Engine on it, queues every command there and re-emits the engine's value
// signals (EngineSignals) on the caller's thread. Never blocks: no BlockingQueuedConnection, no
// waitFor*. Destroying it shuts the engine down and joins the thread.
class CoreHost : public EngineSignals
{
    Q_OBJECT
public:
    explicit CoreHost(QObject *parent = nullptr);
    // With an injected clock (tests). The clock must be usable from the worker thread.
    explicit CoreHost(std::shared_ptr<const Clock> clock, QObject *parent = nullptr);
    ~CoreHost() override;

    // The capabilities Sonde declares in initialize (default: roots, sampling, elicitation
    // form + url). Applies to servers added afterwards.
    void setClientCapabilities(const QJsonObject &capabilities);
    static QJsonObject defaultClientCapabilities();
    void setServerRequestHandler(ServerRequestHandler *handler) { m_handler = handler; }

    // Servers added afterwards record one http-exchange event per HTTP request
    // (ServerConfig::recordHttpExchanges), for front ends that keep the transcript.
    void setRecordHttpExchanges(bool on) { m_recordHttpExchanges = on; }
    void addServer(const ServerConfig &config, bool connectNow = true);
    void connectServer(const QString &name);
    void disconnectServer(const QString &name);
    void removeServer(const QString &name);
    // Returns the ticket that callFinished will carry.
    quint64 call(const QString &server, const QString &method, const QJsonObject &params = {},
                 int timeoutMs = 0);
    quint64 call(CallRequest request);
    void cancel(quint64 ticket, const QString &reason = QStringLiteral("cancelled by the user"));
    void reply(const ServerReply &reply);
    void requestSnapshot(const QString &server);
    // Recovery controls; each answers through callFinished with its ticket.
    quint64 injectFault(const QString &server, const Sonde::Fault &fault);
    quint64 reconnect(const QString &server)
    {
        return call(server, QStringLiteral("sonde/reconnect"));
    }
    quint64 breaker(const QString &server, BreakerAction action);
    // Authorization (docs/auth.md): sign in, refresh, sign out or status; answers through
    // callFinished with method "sonde/auth" and the AuthState as JSON. authChanged() follows
    // every change, including each step of a flow.
    quint64 auth(const QString &server, AuthAction action);
    // Where the engine keeps tokens: called once on the worker thread when the engine starts
    // (the front end's keyring store, or a memory store when none is given).
    void setSecretStoreFactory(std::function<std::unique_ptr<SecretStore>()> factory);
    void setToolOverride(const QString &server, const QString &tool, std::optional<bool> readOnly);
    // Asks the engine to close every session; shutdownFinished() follows.
    void shutdown();

    // The last snapshot seen for a server (kept on the caller's thread).
    SessionSnapshot lastSnapshot(const QString &server) const { return m_snapshots.value(server); }
    QThread *engineThread() const { return m_thread; }

private:
    template <typename F> void post(F &&f);
    void onServerRequest(const ServerRequest &request);

    std::shared_ptr<const Clock> m_clock;
    QThread *m_thread = nullptr;
    Engine *m_engine = nullptr;
    ServerRequestHandler *m_handler = nullptr;
    QHash<QString, SessionSnapshot> m_snapshots;
    quint64 m_nextTicket = 1;
    bool m_recordHttpExchanges = false;
};

} // namespace Sonde
