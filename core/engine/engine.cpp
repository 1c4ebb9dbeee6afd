// SPDX-License-Identifier: MIT
#include "engine/engine.h"

#include "protocol/mcpapps.h"
#include "recovery/serversupervisor.h"
#include "secrets/secretstore.h"
#include "util/clock.h"
#include "util/clocktimer.h"
#include "util/logging.h"

#include <QThread>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

Engine::Engine(std::shared_ptr<const Clock> clock, QObject *parent)
    : EngineSignals(parent), m_clock(std::move(clock))
{
    m_flushTimer = new QTimer(this);
    m_flushTimer->setInterval(50);
    m_flushTimer->setSingleShot(true);
    connect(m_flushTimer, &QTimer::timeout, this, &Engine::flush);
    m_notificationTimer = m_clock->createTimer(this);
    connect(m_notificationTimer, &ClockTimer::timeout, this, &Engine::flushNotifications);
}

Engine::~Engine()
{
    // Sessions are children; their transports kill any child still running.
    flush();
}

void Engine::setClientCapabilities(const QJsonObject &capabilities)
{
    m_clientCapabilities = capabilities;
}

void Engine::addServer(const ServerConfig &config, bool connectNow)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_sessions.contains(config.name))
        removeServer(config.name);
    // A server the user turned MCP Apps off for is not told the front end renders them.
    auto *session = new ServerSupervisor(
        config, *m_clock,
        config.mcpApps ? m_clientCapabilities : McpApps::withoutExtension(m_clientCapabilities),
        this);
    m_sessions.insert(config.name, session);
    session->setSecretStore(m_secrets.get());
    connect(session, &ServerSupervisor::authChanged, this, [this](const AuthState &state) {
        flushNotifications();
        flush(); // the steps' transcript lines come first
        Q_EMIT authChanged(state);
    });
    connect(session, &ServerSupervisor::changed, this,
            [this, name = config.name] { markChanged(name); });
    connect(session, &ServerSupervisor::transcriptEvent, this, &Engine::append);
    connect(session, &ServerSupervisor::serverRequestReceived, this,
            [this](const ServerRequest &r) {
                flushSnapshots();
                flush();
                Q_EMIT serverRequestReceived(r);
            });
    connect(session, &ServerSupervisor::notificationReceived, this, &Engine::queueNotification);
    // A refresh follows the list_changed that caused it.
    connect(session, &ServerSupervisor::listRefreshed, this,
            [this](const QString &server, const QString &method, const QJsonArray &items) {
                flushNotifications();
                Q_EMIT listRefreshed(server, method, items);
            });
    connect(session, &ServerSupervisor::callFinished, this, [this](const CallOutcome &o) {
        m_ticketServer.remove(o.ticket);
        flushSnapshots();
        flush();
        Q_EMIT callFinished(o);
    });
    connect(session, &ServerSupervisor::stopped, this, [this] {
        if (m_shuttingDown) {
            --m_stillOpen;
            maybeFinishShutdown();
        }
    });
    Q_EMIT sessionChanged(session->snapshot());
    if (connectNow)
        session->start();
}

void Engine::connectServer(const QString &name)
{
    if (ServerSupervisor *s = m_sessions.value(name))
        s->start();
}

void Engine::disconnectServer(const QString &name)
{
    if (ServerSupervisor *s = m_sessions.value(name))
        s->stop();
}

void Engine::removeServer(const QString &name)
{
    if (ServerSupervisor *s = m_sessions.take(name)) {
        // Stopped while still connected: the calls it fails (cancelled, "the session was
        // closed") must reach their callers, who would otherwise wait for them forever.
        s->stop();
        s->disconnect(this);
        s->deleteLater();
    }
}

void Engine::call(const CallRequest &request)
{
    ServerSupervisor *s = m_sessions.value(request.server);
    if (!s) {
        CallOutcome o;
        o.ticket = request.ticket;
        o.server = request.server;
        o.method = request.method;
        o.startedMs = o.finishedMs = m_clock->nowMs();
        o.error = Error::transport(u"no server named \"%1\""_s.arg(request.server),
                                   Error::Condition::NotConnected);
        Q_EMIT callFinished(o);
        return;
    }
    m_ticketServer.insert(request.ticket, request.server);
    s->call(request);
}

void Engine::cancel(quint64 ticket, const QString &reason)
{
    if (ServerSupervisor *s = m_sessions.value(m_ticketServer.value(ticket)))
        s->cancel(ticket, reason);
}

void Engine::reply(const ServerReply &reply)
{
    if (ServerSupervisor *s = m_sessions.value(reply.server))
        s->reply(reply);
}

void Engine::requestSnapshot(const QString &name)
{
    if (ServerSupervisor *s = m_sessions.value(name))
        Q_EMIT sessionChanged(s->snapshot());
}

void Engine::injectFault(quint64 ticket, const QString &server, const Fault &fault)
{
    CallOutcome o;
    o.ticket = ticket;
    o.server = server;
    o.method = u"sonde/fault"_s;
    o.startedMs = o.finishedMs = m_clock->nowMs();
    if (ServerSupervisor *s = m_sessions.value(server)) {
        o.error = s->injectFault(fault);
        if (!o.error.isError())
            o.result = QJsonObject{{"applied"_L1, fault.describe()}};
    } else {
        o.error = Error::transport(u"no server named \"%1\""_s.arg(server),
                                   Error::Condition::NotConnected);
    }
    flushSnapshots();
    flush();
    Q_EMIT callFinished(o);
}

void Engine::breakerCommand(quint64 ticket, const QString &server, BreakerAction action)
{
    CallOutcome o;
    o.ticket = ticket;
    o.server = server;
    o.method = u"sonde/breaker"_s;
    o.startedMs = o.finishedMs = m_clock->nowMs();
    ServerSupervisor *s = m_sessions.value(server);
    if (!s)
        o.error = Error::transport(u"no server named \"%1\""_s.arg(server),
                                   Error::Condition::NotConnected);
    else if (action == BreakerAction::Reset)
        s->resetBreaker();
    else
        s->tripBreaker();
    if (s && !o.error.isError())
        o.result = s->recoveryState().breaker.toJson();
    flushSnapshots();
    flush();
    Q_EMIT callFinished(o);
}

void Engine::setSecretStore(std::unique_ptr<SecretStore> store)
{
    m_secrets = std::move(store);
}

void Engine::authCommand(quint64 ticket, const QString &server, AuthAction action)
{
    ServerSupervisor *s = m_sessions.value(server);
    const qint64 started = m_clock->nowMs();
    auto answer = [this, ticket, server, started](const AuthState &state, const Error &error) {
        CallOutcome o;
        o.ticket = ticket;
        o.server = server;
        o.method = u"sonde/auth"_s;
        o.startedMs = started;
        o.finishedMs = m_clock->nowMs();
        o.error = error;
        if (!error.isError())
            o.result = state.toJson();
        flushSnapshots();
        flush();
        Q_EMIT callFinished(o);
    };
    if (!s) {
        answer({}, Error::transport(u"no server named \"%1\""_s.arg(server),
                                    Error::Condition::NotConnected));
        return;
    }
    s->authCommand(action, answer);
}

void Engine::setToolOverride(const QString &server, const QString &tool,
                             std::optional<bool> readOnly)
{
    if (ServerSupervisor *s = m_sessions.value(server))
        s->setToolOverride(tool, readOnly);
}

void Engine::append(const TranscriptEvent &event)
{
    m_batch.append(event);
    if (!m_flushTimer->isActive())
        m_flushTimer->start();
}

void Engine::flush()
{
    // The timer is left running: stopping and restarting it for every call result would
    // cost more than the one empty flush it causes.
    if (m_batch.isEmpty())
        return;
    Q_EMIT transcriptBatch(std::exchange(m_batch, {}));
}

void Engine::markChanged(const QString &server)
{
    if (!m_changed.contains(server))
        m_changed.append(server);
    if (!m_snapshotFlushQueued) {
        m_snapshotFlushQueued = true;
        QMetaObject::invokeMethod(this, &Engine::flushSnapshots, Qt::QueuedConnection);
    }
}

void Engine::flushSnapshots()
{
    // Every ordered point (a call's result, a server's request, the end) comes through here.
    flushNotifications();
    m_snapshotFlushQueued = false;
    const QStringList changed = std::exchange(m_changed, {});
    for (const QString &name : changed) {
        if (ServerSupervisor *s = m_sessions.value(name))
            Q_EMIT sessionChanged(s->snapshot());
    }
}

void Engine::queueNotification(const ServerNotification &notification)
{
    m_notifications.append(notification);
    if (m_notificationTimer->isActive())
        return;
    // Measured from the last batch, not from this notification: a progress step after a quiet
    // spell goes at once, and only a stream of them waits its turn.
    const qint64 sinceLast = m_clock->nowMs() - m_lastNotificationFlushMs;
    m_notificationTimer->start(std::max<qint64>(0, NotificationIntervalMs - sinceLast));
}

void Engine::flushNotifications()
{
    if (m_notifications.isEmpty())
        return;
    m_notificationTimer->stop();
    m_lastNotificationFlushMs = m_clock->nowMs();
    Q_EMIT notificationsReceived(std::exchange(m_notifications, {}));
}

void Engine::shutdown()
{
    if (m_shuttingDown)
        return;
    m_shuttingDown = true;
    // Each call still out is cancelled first, so its server is told (notifications/cancelled)
    // and does not run on for nobody; closing alone would only drop the answer.
    const auto tickets = std::exchange(m_ticketServer, {});
    for (auto it = tickets.cbegin(); it != tickets.cend(); ++it) {
        if (ServerSupervisor *s = m_sessions.value(it.value()))
            s->cancel(it.key(), u"Sonde is shutting down"_s);
    }
    m_stillOpen = int(m_sessions.size());
    const QList<ServerSupervisor *> sessions = m_sessions.values();
    for (ServerSupervisor *s : sessions)
        s->stop();
    maybeFinishShutdown();
}

void Engine::maybeFinishShutdown()
{
    if (m_stillOpen > 0)
        return;
    flushSnapshots();
    flush();
    Q_EMIT shutdownFinished();
}

} // namespace Sonde
