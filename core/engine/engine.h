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

#include <memory>

class QTimer;

namespace Sonde {

class Clock;
class ClockTimer;
class SecretStore;
class ServerSupervisor;

// The engine: every server's session, on the worker thread. It is driven only through
// queued calls from CoreHost and answers only with value signals (EngineSignals).
// - Wire traffic is batched: every 50 ms, and before any call result, so a front end never
//   sees a result before the frames that produced it.
// - Notifications are batched too: a lone one goes on the next event-loop turn, a stream at
//   most one batch per NotificationIntervalMs, and every batch before any other signal, so
//   they keep their order with what follows them.
// - Snapshots are coalesced: one per server per event-loop turn, built when sent, and also
//   sent before any call result, so a result never overtakes the state it was reached in.
// Thread: the worker; created and destroyed there by CoreHost.
class Engine : public EngineSignals
{
    Q_OBJECT
public:
    explicit Engine(std::shared_ptr<const Clock> clock, QObject *parent = nullptr);
    ~Engine() override;

    void setClientCapabilities(const QJsonObject &capabilities);
    void addServer(const ServerConfig &config, bool connectNow);
    void connectServer(const QString &name);
    void disconnectServer(const QString &name);
    void removeServer(const QString &name);
    void call(const CallRequest &request);
    void cancel(quint64 ticket, const QString &reason);
    void reply(const ServerReply &reply);
    void requestSnapshot(const QString &name);
    // Local commands that answer through callFinished, with method "sonde/fault" or
    // "sonde/breaker" (a reconnect by hand is the call "sonde/reconnect").
    void injectFault(quint64 ticket, const QString &server, const Sonde::Fault &fault);
    void breakerCommand(quint64 ticket, const QString &server, BreakerAction action);
    void authCommand(quint64 ticket, const QString &server, AuthAction action);
    void setSecretStore(std::unique_ptr<SecretStore> store);
    void setToolOverride(const QString &server, const QString &tool, std::optional<bool> readOnly);
    // Cancels every call still out (the servers are told), then closes every session;
    // shutdownFinished() follows when all transports are down.
    void shutdown();

private:
    void append(const TranscriptEvent &event);
    void flush();
    void markChanged(const QString &server);
    void flushSnapshots();
    void queueNotification(const ServerNotification &notification);
    void flushNotifications();
    void maybeFinishShutdown();

    std::shared_ptr<const Clock> m_clock;
    std::unique_ptr<SecretStore> m_secrets;
    QJsonObject m_clientCapabilities;
    QHash<QString, ServerSupervisor *> m_sessions;
    TranscriptBatch m_batch;
    QStringList m_changed; // servers whose snapshot is yet to be sent, in order of change
    bool m_snapshotFlushQueued = false;
    // A window repaints at most every 16 ms, so a batch this often is never seen late, and a
    // flood of 100,000 notifications a second crosses as about 100 queued events, not 100,000.
    static constexpr qint64 NotificationIntervalMs = 10;
    ServerNotificationBatch m_notifications;
    ClockTimer *m_notificationTimer = nullptr;
    qint64 m_lastNotificationFlushMs = 0;
    QTimer *m_flushTimer = nullptr;
    QHash<quint64, QString> m_ticketServer;
    bool m_shuttingDown = false;
    int m_stillOpen = 0;
};

} // namespace Sonde
