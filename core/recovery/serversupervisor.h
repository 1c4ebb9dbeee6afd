// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "recovery/recoveryhistory.h"
#include "recovery/serverprogress.h"
#include "session/sessionsnapshot.h"
#include "transcript/transcriptevent.h"
#include "transport/fault.h"
#include "values/authvalues.h"
#include "values/callvalues.h"
#include "values/recoveryvalues.h"

#include <QJsonArray>
#include <QObject>

#include <functional>
#include <memory>
#include <optional>

namespace Sonde {

class Authorizer;
class BreakerBookkeeper;
class SecretStore;
class CallRecoveryUnit;
class Clock;
class ReconnectController;
class ServerSession;
class Transport;

// Recovery for one server (docs/recovery.md): it owns the server's session and wires it to
// the parts that recover it: the BreakerBookkeeper (the circuit breaker and its history), the
// ReconnectController (attempts, backoff, parking, keepalive), and the CallRecoveryUnit (each
// call from admission to its one answer: classification, the recovery budget, replay or
// "outcome uncertain"). Every step is an event in the server's RecoveryHistory and in the
// transcript. Thread: the engine's; owned by the Engine. Emits value types only.
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
    // A reconnect by hand is the call "sonde/reconnect": it answers on the new generation.
    void call(const CallRequest &request);
    void cancel(quint64 ticket, const QString &reason);
    void reply(const ServerReply &reply);
    Error injectFault(const Fault &fault);
    void resetBreaker();
    // The user's replay verdict for one tool (true: read-only), or none: the server's hint.
    void setToolOverride(const QString &tool, std::optional<bool> readOnly);
    void tripBreaker();
    SessionSnapshot snapshot() const;
    RecoveryState recoveryState() const;
    // Before start(): where this server's tokens live (null: memory only). Not owned.
    void setSecretStore(SecretStore *store) { m_secrets = store; }
    // docs/auth.md; `done` gets the state after it, or why it could not be done.
    void authCommand(AuthAction action,
                     std::function<void(const AuthState &state, const Error &error)> done);
    AuthState authState() const;

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
    void authChanged(const Sonde::AuthState &state);

private:
    void onSessionSnapshot(const SessionSnapshot &s);
    void onConnectionLost(const Error &error);
    void record(HistoryEvent event);
    // The server's credentials, made once for an HTTP server with authorization on; they
    // outlive every session generation.
    Authorizer *authorizer();

    ServerConfig m_config;
    const Clock &m_clock;
    ServerProgress m_progress;
    RecoveryHistory m_history;
    ServerSession *m_session = nullptr;
    BreakerBookkeeper *m_breaker = nullptr;
    ReconnectController *m_reconnect = nullptr;
    CallRecoveryUnit *m_calls = nullptr;
    SecretStore *m_secrets = nullptr;
    Authorizer *m_auth = nullptr;
    bool m_authLoaded = false;
};

} // namespace Sonde
