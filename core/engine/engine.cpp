// SPDX-License-Identifier: MIT
#include "engine/engine.h"

#include "session/serversession.h"
#include "util/clock.h"
#include "util/logging.h"

#include <QThread>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

Engine::Engine(std::shared_ptr<const Clock> clock, QObject *parent)
    : QObject(parent), m_clock(std::move(clock))
{
    m_flushTimer = new QTimer(this);
    m_flushTimer->setInterval(50);
    m_flushTimer->setSingleShot(true);
    connect(m_flushTimer, &QTimer::timeout, this, &Engine::flush);
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
    auto *session = new ServerSession(config, *m_clock, m_clientCapabilities, {}, this);
    m_sessions.insert(config.name, session);
    connect(session, &ServerSession::snapshotChanged, this, &Engine::sessionChanged);
    connect(session, &ServerSession::transcriptEvent, this, &Engine::append);
    connect(session, &ServerSession::serverRequestReceived, this, [this](const ServerRequest &r) {
        flush();
        Q_EMIT serverRequestReceived(r);
    });
    connect(session, &ServerSession::notificationReceived, this, &Engine::notificationReceived);
    connect(session, &ServerSession::listRefreshed, this, &Engine::listRefreshed);
    connect(session, &ServerSession::callFinished, this, [this](const CallOutcome &o) {
        m_ticketServer.remove(o.ticket);
        flush();
        Q_EMIT callFinished(o);
    });
    connect(session, &ServerSession::stopped, this, [this] {
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
    if (ServerSession *s = m_sessions.value(name))
        s->start();
}

void Engine::disconnectServer(const QString &name)
{
    if (ServerSession *s = m_sessions.value(name))
        s->stop();
}

void Engine::removeServer(const QString &name)
{
    if (ServerSession *s = m_sessions.take(name)) {
        s->disconnect(this);
        s->stop();
        s->deleteLater();
    }
}

void Engine::call(const CallRequest &request)
{
    ServerSession *s = m_sessions.value(request.server);
    if (!s) {
        CallOutcome o;
        o.ticket = request.ticket;
        o.server = request.server;
        o.method = request.method;
        o.startedMs = o.finishedMs = m_clock->nowMs();
        o.error = Error::transport(u"no server named \"%1\""_s.arg(request.server), Error::Condition::NotConnected);
        Q_EMIT callFinished(o);
        return;
    }
    m_ticketServer.insert(request.ticket, request.server);
    s->call(request);
}

void Engine::cancel(quint64 ticket, const QString &reason)
{
    if (ServerSession *s = m_sessions.value(m_ticketServer.value(ticket)))
        s->cancel(ticket, reason);
}

void Engine::reply(const ServerReply &reply)
{
    if (ServerSession *s = m_sessions.value(reply.server))
        s->reply(reply);
}

void Engine::requestSnapshot(const QString &name)
{
    if (ServerSession *s = m_sessions.value(name))
        Q_EMIT sessionChanged(s->snapshot());
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

void Engine::shutdown()
{
    if (m_shuttingDown)
        return;
    m_shuttingDown = true;
    m_stillOpen = int(m_sessions.size());
    const QList<ServerSession *> sessions = m_sessions.values();
    for (ServerSession *s : sessions)
        s->stop();
    maybeFinishShutdown();
}

void Engine::maybeFinishShutdown()
{
    if (m_stillOpen > 0)
        return;
    flush();
    Q_EMIT shutdownFinished();
}

} // namespace Sonde
