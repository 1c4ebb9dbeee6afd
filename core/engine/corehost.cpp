// SPDX-License-Identifier: MIT
#include "engine/corehost.h"

#include "engine/engine.h"
#include "protocol/jsonrpcmessage.h"
#include "secrets/secretstore.h"
#include "util/clock.h"

#include <QThread>

using namespace Qt::StringLiterals;

namespace Sonde {

static void registerTypes()
{
    qRegisterMetaType<Sonde::Error>();
    qRegisterMetaType<Sonde::ServerConfig>();
    qRegisterMetaType<Sonde::SessionSnapshot>();
    qRegisterMetaType<Sonde::CallRequest>();
    qRegisterMetaType<Sonde::CallOutcome>();
    qRegisterMetaType<Sonde::ServerRequest>();
    qRegisterMetaType<Sonde::ServerReply>();
    qRegisterMetaType<Sonde::ServerNotification>();
    qRegisterMetaType<Sonde::ServerNotificationBatch>();
    qRegisterMetaType<Sonde::HistoryEvent>();
    qRegisterMetaType<Sonde::LifecycleDetails>();
    qRegisterMetaType<Sonde::RecoveryState>();
    qRegisterMetaType<Sonde::AuthState>();
    qRegisterMetaType<Sonde::AuthStep>();
    qRegisterMetaType<Sonde::CallRecovery>();
    qRegisterMetaType<Sonde::TranscriptEvent>();
    qRegisterMetaType<Sonde::TranscriptBatch>();
    qRegisterMetaType<Sonde::Fault>();
}

CoreHost::CoreHost(QObject *parent) : CoreHost(std::make_shared<SteadyClock>(), parent)
{
}

CoreHost::CoreHost(std::shared_ptr<const Clock> clock, QObject *parent)
    : EngineSignals(parent), m_clock(std::move(clock))
{
    registerTypes();
    m_thread = new QThread(this);
    m_thread->setObjectName(u"sonde-engine"_s);
    m_engine = new Engine(m_clock);
    m_engine->setClientCapabilities(defaultClientCapabilities());
    m_engine->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_engine, &QObject::deleteLater);

    // Engine -> host: queued (different threads), so every slot below runs on our thread.
    connect(m_engine, &Engine::sessionChanged, this, [this](const SessionSnapshot &s) {
        m_snapshots.insert(s.server, s);
        Q_EMIT sessionChanged(s);
    });
    connect(m_engine, &Engine::callFinished, this, &CoreHost::callFinished);
    connect(m_engine, &Engine::authChanged, this, &CoreHost::authChanged);
    connect(m_engine, &Engine::serverRequestReceived, this, &CoreHost::onServerRequest);
    connect(m_engine, &Engine::notificationsReceived, this, &CoreHost::notificationsReceived);
    connect(m_engine, &Engine::listRefreshed, this, &CoreHost::listRefreshed);
    connect(m_engine, &Engine::transcriptBatch, this, &CoreHost::transcriptBatch);
    connect(m_engine, &Engine::shutdownFinished, this, &CoreHost::shutdownFinished);
    m_thread->start();
}

CoreHost::~CoreHost()
{
    // The engine and its sessions are deleted on the worker when the thread finishes;
    // transports still running kill their children then.
    m_thread->quit();
    m_thread->wait();
}

template <typename F> void CoreHost::post(F &&f)
{
    QMetaObject::invokeMethod(m_engine, std::forward<F>(f), Qt::QueuedConnection);
}

QJsonObject CoreHost::defaultClientCapabilities()
{
    return QJsonObject{
        {"roots"_L1, QJsonObject{{"listChanged"_L1, true}}},
        {"sampling"_L1, QJsonObject{}},
        {"elicitation"_L1, QJsonObject{{"form"_L1, QJsonObject{}}, {"url"_L1, QJsonObject{}}}}};
}

void CoreHost::setClientCapabilities(const QJsonObject &capabilities)
{
    post([e = m_engine, capabilities] { e->setClientCapabilities(capabilities); });
}

void CoreHost::addServer(const ServerConfig &config, bool connectNow)
{
    ServerConfig c = config;
    c.recordHttpExchanges = c.recordHttpExchanges || m_recordHttpExchanges;
    post([e = m_engine, c, connectNow] { e->addServer(c, connectNow); });
}

void CoreHost::connectServer(const QString &name)
{
    post([e = m_engine, name] { e->connectServer(name); });
}

void CoreHost::disconnectServer(const QString &name)
{
    post([e = m_engine, name] { e->disconnectServer(name); });
}

void CoreHost::removeServer(const QString &name)
{
    m_snapshots.remove(name);
    post([e = m_engine, name] { e->removeServer(name); });
}

quint64 CoreHost::call(const QString &server, const QString &method, const QJsonObject &params,
                       int timeoutMs)
{
    CallRequest r;
    r.server = server;
    r.method = method;
    r.params = params;
    r.timeoutMs = timeoutMs;
    return call(r);
}

quint64 CoreHost::call(CallRequest request)
{
    request.ticket = m_nextTicket++;
    post([e = m_engine, request] { e->call(request); });
    return request.ticket;
}

void CoreHost::cancel(quint64 ticket, const QString &reason)
{
    post([e = m_engine, ticket, reason] { e->cancel(ticket, reason); });
}

void CoreHost::reply(const ServerReply &reply)
{
    post([e = m_engine, reply] { e->reply(reply); });
}

void CoreHost::requestSnapshot(const QString &server)
{
    post([e = m_engine, server] { e->requestSnapshot(server); });
}

quint64 CoreHost::injectFault(const QString &server, const Fault &fault)
{
    const quint64 ticket = m_nextTicket++;
    post([e = m_engine, ticket, server, fault] { e->injectFault(ticket, server, fault); });
    return ticket;
}

quint64 CoreHost::breaker(const QString &server, BreakerAction action)
{
    const quint64 ticket = m_nextTicket++;
    post([e = m_engine, ticket, server, action] { e->breakerCommand(ticket, server, action); });
    return ticket;
}

quint64 CoreHost::auth(const QString &server, AuthAction action)
{
    const quint64 ticket = m_nextTicket++;
    post([e = m_engine, ticket, server, action] { e->authCommand(ticket, server, action); });
    return ticket;
}

void CoreHost::setSecretStoreFactory(std::function<std::unique_ptr<SecretStore>()> factory)
{
    post([e = m_engine, factory = std::move(factory)] { e->setSecretStore(factory()); });
}

void CoreHost::setToolOverride(const QString &server, const QString &tool,
                               std::optional<bool> readOnly)
{
    post([e = m_engine, server, tool, readOnly] { e->setToolOverride(server, tool, readOnly); });
}

void CoreHost::shutdown()
{
    post([e = m_engine] { e->shutdown(); });
}

void CoreHost::onServerRequest(const ServerRequest &request)
{
    Q_EMIT serverRequestReceived(request);
    if (m_handler) {
        m_handler->handleServerRequest(request);
        return;
    }
    ServerReply r{request.server,
                  request.generation,
                  request.id,
                  {},
                  Error::remote(JsonRpcCode::MethodNotFound,
                                u"Sonde has no handler for %1"_s.arg(request.method))};
    reply(r);
}

} // namespace Sonde
