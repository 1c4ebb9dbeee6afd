// SPDX-License-Identifier: MIT
#include "session/serversession.h"

#include "protocol/mcp.h"
#include "protocol/rev20260728.h"
#include "session/eraprobe.h"
#include "session/initializeera.h"
#include "session/rev20260728era.h"
#include "session/sessionlimits.h"
#include "transport/faultinjectingtransport.h"
#include "transport/httpfallbacktransport.h"
#include "transport/stdiotransport.h"
#include "util/clock.h"
#include "util/logging.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QScopeGuard>
#include <QScopedValueRollback>
#include <QThread>

using namespace Qt::StringLiterals;

namespace Sonde {

ServerSession::ServerSession(const ServerConfig &config, const Clock &clock,
                             const QJsonObject &clientCapabilities, TransportFactory factory,
                             QObject *parent)
    : QObject(parent), m_config(config), m_clock(clock), m_clientCapabilities(clientCapabilities),
      m_factory(std::move(factory))
{
    if (!m_factory) {
        m_factory = [](const ServerConfig &c, const Clock &clk) -> std::unique_ptr<Transport> {
            if (c.route == ServerConfig::Route::Stdio)
                return std::make_unique<StdioTransport>(c, clk);
            return std::make_unique<HttpFallbackTransport>(c);
        };
    }
    m_standingFaults = std::make_shared<FaultInjectingTransport::Standing>();
    m_requests = new RequestChannel(clock, this);
    connect(m_requests, &RequestChannel::deadlinePassed, this, &ServerSession::checkTimeouts);
    setEras(defaultEras());
}

ServerSession::~ServerSession()
{
    // Transports before the network manager they share: a transport aborts its open replies
    // as it goes, and those replies belong to the manager. Children die in creation order,
    // and after a reconnect the manager is older than the current transport.
    const QList<Transport *> transports = findChildren<Transport *>(Qt::FindDirectChildrenOnly);
    qDeleteAll(transports);
}

QList<ServerSession::EraFactory> ServerSession::defaultEras()
{
    return {[](SessionHost &host) { return std::make_unique<InitializeEra>(host); },
            [](SessionHost &host) { return std::make_unique<Rev20260728Era>(host); }};
}

void ServerSession::setEras(const QList<EraFactory> &eras)
{
    Q_ASSERT(!eras.isEmpty());
    m_era = nullptr;
    m_eras.clear();
    for (const EraFactory &make : eras)
        m_eras.push_back(make(*this));
}

void ServerSession::setState(SessionSnapshot::State state)
{
    m_state = state;
    Q_EMIT snapshotChanged(snapshot());
}

SessionSnapshot ServerSession::snapshot() const
{
    SessionSnapshot s;
    s.server = m_config.name;
    s.state = m_state;
    s.generation = m_generation;
    s.route = m_config.route;
    s.routeReason = m_config.route == ServerConfig::Route::Stdio ? u"configured with a command"_s
                                                                 : u"configured with a URL"_s;
    s.protocolVersion = m_protocolVersion;
    s.serverInfo = m_serverInfo;
    s.serverCapabilities = m_serverCapabilities;
    s.clientCapabilities = m_clientCapabilities;
    s.instructions = m_instructions;
    s.transport = m_transport ? m_transport->details() : m_lastTransportDetails;
    if (s.transport.route) {
        // The route the fallback took (an "auto" URL may end on the legacy one).
        s.route = *s.transport.route;
        s.routeReason = s.transport.routeReason.value_or(QString());
        s.transport.route.reset();
        s.transport.routeReason.reset();
    }
    s.sessionId = s.transport.sessionId.value_or(QString());
    s.transport.sessionId.reset();
    if (m_era) {
        s.era = m_era->kind();
        s.eraReason = m_eraReason;
        m_era->describe(s);
    }
    s.restartCount = std::max(0, m_starts - 1);
    s.startedMs = m_readyMs;
    s.lastError = m_lastError;
    s.armedFaults = (m_transport ? m_transport->armedOnce() : QStringList()) +
                    FaultInjectingTransport::describeStanding(*m_standingFaults);
    s.droppedFaults = m_droppedFaults;
    return s;
}

void ServerSession::record(TranscriptEvent::Direction direction, const QByteArray &raw,
                           const QString &event)
{
    TranscriptEvent e;
    e.timeMs = m_clock.nowMs();
    e.server = m_config.name;
    e.generation = m_generation;
    e.direction = direction;
    e.raw = raw;
    e.event = event;
    Q_EMIT transcriptEvent(e);
}

void ServerSession::record(LifecycleDetails details)
{
    Q_EMIT transcriptEvent(TranscriptEvent::lifecycle(m_clock.nowMs(), m_config.name, m_generation,
                                                      std::move(details)));
}

void ServerSession::recordViolation(const QString &why, const QByteArray &raw)
{
    record(TranscriptEvent::Direction::Violation, raw, why);
}

Operation *ServerSession::operation(quint64 ticket)
{
    const auto it = m_operations.find(ticket);
    return it == m_operations.end() ? nullptr : &*it;
}

QNetworkAccessManager *ServerSession::network()
{
    if (!m_network)
        m_network = new QNetworkAccessManager(this);
    return m_network;
}

void ServerSession::start()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_state == SessionSnapshot::State::Starting ||
        m_state == SessionSnapshot::State::Initializing ||
        m_state == SessionSnapshot::State::Ready || m_state == SessionSnapshot::State::Closing)
        return;
    ++m_starts;
    m_lastError = Error();
    m_protocolVersion.clear();
    // The era is chosen again for each connection: a restarted server may be another build.
    m_era = nullptr;
    m_eraReason.clear();
    for (const std::unique_ptr<SessionEra> &e : m_eras)
        e->reset();
    m_initializeFirst = false;
    m_initializeRefusal = Error();
    m_strayLine.clear();
    m_lists.forgetHints();
    std::unique_ptr<Transport> route = m_factory(m_config, m_clock);
    if (auto *http = qobject_cast<HttpFallbackTransport *>(route.get())) {
        http->setNetworkManager(network());
        http->setAuthorization(m_authorization);
    }
    // Faults are applied by this decorator alone; the session only forwards them to it.
    m_transport = new FaultInjectingTransport(std::move(route), m_clock, m_standingFaults, this);
    connectTransport();
    record(LifecycleDetails::Starting{.route = m_config.routeName(),
                                      .command = m_config.displayCommand()});
    setState(SessionSnapshot::State::Starting);
    m_transport->open();
}

void ServerSession::connectTransport()
{
    connect(m_transport, &Transport::opened, this, &ServerSession::onTransportOpened);
    connect(m_transport, &Transport::frameReceived, this, &ServerSession::processFrame);
    connect(m_transport, &Transport::frameWithheld, this, [this](const QByteArray &frame) {
        record(TranscriptEvent::Direction::Incoming, frame);
    });
    connect(m_transport, &Transport::frameDropped, this,
            [this](const QString &why) { recordViolation(why); });
    connect(m_transport, &Transport::stderrLine, this, [this](const QString &line) {
        record(TranscriptEvent::Direction::Stderr, line.toUtf8());
    });
    connect(m_transport, &Transport::closed, this, &ServerSession::onTransportClosed);
    connect(m_transport, &Transport::requestFailed, this, &ServerSession::onRequestFailed);
    connect(m_transport, &Transport::connectionLost, this, [this](const Error &error) {
        record(LifecycleDetails::ConnectionLost{error});
        Q_EMIT connectionLost(error);
    });
    connect(m_transport, &Transport::lifecycleEvent, this, [this](LifecycleDetails details) {
        // A front end follows its call by the progress token, not the JSON-RPC id: what
        // happens to the call's stream, and that it waits for new credentials (a step-up),
        // is said to the call's view.
        std::visit(
            [this](auto &d) {
                if constexpr (requires { d.progressToken, d.id; }) {
                    if (const QString token = m_requests->progressTokenOf(d.id); !token.isEmpty())
                        d.progressToken = token;
                }
            },
            details.body);
        const bool wire = details.kind() == EventKind::HttpExchange;
        record(std::move(details));
        // An HTTP exchange is a record of the wire, not a change of the session: a snapshot
        // for each would reach the front end once per request.
        if (!wire)
            Q_EMIT snapshotChanged(snapshot());
    });
}

void ServerSession::onRequestFailed(const QJsonValue &id, const Error &error)
{
    if (era().takeRequestFailure(id, error))
        return;
    std::optional<RequestChannel::Taken> taken = m_requests->take(id);
    if (!taken)
        return;
    // No response frame will say how this request ended: the transcript does. The error's
    // session id stays out (it is a secret the exports would not see).
    record(LifecycleDetails::RequestFailed{.id = id,
                                           .method = taken->entry.method,
                                           .errorKind = error.kind(),
                                           .message = error.message(),
                                           .httpStatus = error.httpStatus()});
    if (taken->handler)
        taken->handler({}, error);
}

// --- The choice of era ---------------------------------------------------------------------

SessionEra *ServerSession::eraSpeaking(const QString &version) const
{
    for (const std::unique_ptr<SessionEra> &e : m_eras)
        if (e->speaks(version))
            return e.get();
    return nullptr;
}

QStringList ServerSession::probedVersions() const
{
    QStringList versions;
    for (auto e = m_eras.rbegin(); e != m_eras.rend(); ++e)
        versions += (*e)->probedVersions();
    return versions;
}

void ServerSession::choose(SessionEra *era, const QString &reason, const QString &version)
{
    m_era = era;
    m_eraReason = reason;
    if (m_era)
        m_era->adopt(version);
}

void ServerSession::onTransportOpened()
{
    if (m_state == SessionSnapshot::State::Closing)
        return; // stopped while the process was still starting: nothing to initialize
    record(LifecycleDetails::TransportOpen{m_transport->details()});
    setState(SessionSnapshot::State::Initializing);
    if (m_config.era == ServerConfig::Era::Initialize) {
        choose(eraSpeaking(QString::fromLatin1(Mcp::LatestProtocolVersion)),
               u"configured: the handshake of 2025-11-25 and earlier"_s);
        sendInitialize();
        return;
    }
    if (m_config.era == ServerConfig::Era::Rev20260728 &&
        m_config.route != ServerConfig::Route::Stdio) {
        startConfiguredRevisionOverHttp();
        return;
    }
    if (m_config.era == ServerConfig::Era::Auto && m_config.route == ServerConfig::Route::Stdio) {
        // Over stdio the handshake goes first, and server/discover only when it is refused:
        // a probe before initialize breaks servers that work with the handshake (bridges such
        // as supergateway start their own upstream session on any other first request, and
        // the initialize that follows is refused), and a server that ignores unknown methods
        // would cost the probe's whole timeout. A modern-only server names 2026-07-28 when it
        // refuses initialize (basic/versioning.mdx), and discover then confirms it.
        m_initializeFirst = true;
        sendInitialize();
        return;
    }
    sendDiscover();
}

void ServerSession::startConfiguredRevisionOverHttp()
{
    // Over HTTP a modern client may call anything inline (basic/versioning.mdx): calls go
    // out at once, and server/discover runs beside them for what only it tells (the
    // capabilities, hence the listen stream). stdio keeps the probe: there it is what makes
    // a legacy server fail deterministically.
    m_protocolVersion = QString::fromLatin1(Rev20260728::ProtocolVersion);
    choose(eraSpeaking(m_protocolVersion), u"configured; over HTTP no probe is needed"_s,
           m_protocolVersion);
    if (m_transport)
        m_transport->setProtocolVersion(m_protocolVersion);
    record(LifecycleDetails::EraChosen{
        .era = era().name(), .reason = m_eraReason, .protocolVersion = m_protocolVersion});
    // A reconnect follows a failure (a refused connection, a broken stream): nothing but an
    // answer says the server is back, so calls wait for server/discover's instead of going
    // out at once to be refused again.
    const bool reconnecting = m_generation > 0;
    if (!reconnecting)
        becomeReady();
    if (!m_config.discoverBesideCalls && !reconnecting)
        return;
    sendRequest(u"server/discover"_s, {}, m_config.initializeTimeoutMs, {},
                [this, reconnecting](const JsonRpcMessage &r, const Error &e) {
                    if (reconnecting && m_state == SessionSnapshot::State::Initializing) {
                        if (e.isError() && e.kind() != Error::Kind::Remote) {
                            failHandshake(e);
                            return;
                        }
                        becomeReady(); // answered, even with an error: the server is there
                    }
                    if (e.isError()) {
                        recordViolation(
                            u"server/discover failed: %1"_s.arg(Rev20260728::explain(e).message()));
                        return;
                    }
                    takeDiscovered(r.result().toObject());
                    era().connected();
                    Q_EMIT snapshotChanged(snapshot());
                });
}

void ServerSession::takeDiscovered(const QJsonObject &discover)
{
    m_serverInfo = discover.value("_meta"_L1)
                       .toObject()
                       .value(QLatin1StringView(Rev20260728::MetaServerInfo))
                       .toObject();
    m_serverCapabilities = discover.value("capabilities"_L1).toObject();
    m_instructions = discover.value("instructions"_L1).toString();
    m_lists.noteHints(u"server/discover"_s, discover);
}

void ServerSession::sendDiscover()
{
    // The probe speaks the newest revision already: its _meta and, on HTTP, its headers.
    if (m_transport)
        m_transport->setProtocolVersion(probeEra().probedVersions().value(0));
    const int timeout = m_config.era == ServerConfig::Era::Rev20260728
                            ? m_config.initializeTimeoutMs
                            : std::min(m_config.discoverTimeoutMs, m_config.initializeTimeoutMs);
    sendRequest(u"server/discover"_s, {}, timeout, {},
                [this](const JsonRpcMessage &r, const Error &e) { handleDiscoverAnswer(r, e); });
}

void ServerSession::handleDiscoverAnswer(const JsonRpcMessage &response, const Error &error)
{
    if (m_state != SessionSnapshot::State::Initializing)
        return;
    const EraProbe::Decision d =
        EraProbe::decide(m_config.era, response, error, m_initializeRefusal, probedVersions());
    LifecycleDetails::EraChosen details{.reason = d.reason, .supported = d.offered};
    switch (d.next) {
    case EraProbe::Decision::Next::Revision: {
        SessionEra *chosen = eraSpeaking(d.version);
        if (!chosen) {
            m_eraReason = d.reason;
            failHandshake(Error::protocol(u"no era of this session speaks %1"_s.arg(d.version)));
            return;
        }
        choose(chosen, d.reason, d.version);
        m_protocolVersion = d.version;
        takeDiscovered(d.discover);
        details.era = chosen->name();
        details.protocolVersion = m_protocolVersion;
        record(details);
        if (m_transport)
            m_transport->setProtocolVersion(m_protocolVersion);
        becomeReady();
        return;
    }
    case EraProbe::Decision::Next::Initialize:
        choose(eraSpeaking(QString::fromLatin1(Mcp::LatestProtocolVersion)), d.reason);
        details.era = era().name();
        record(details);
        // The handshake is sent as a client of that era sends it: no version header before
        // the server has chosen one.
        if (m_transport)
            m_transport->setProtocolVersion({});
        sendInitialize();
        return;
    case EraProbe::Decision::Next::Fail:
        m_eraReason = d.reason;
        failHandshake(d.error);
        return;
    }
}

void ServerSession::sendInitialize()
{
    const QJsonObject params{
        {"protocolVersion"_L1, QString::fromLatin1(Mcp::LatestProtocolVersion)},
        {"capabilities"_L1, m_clientCapabilities},
        {"clientInfo"_L1, SessionEra::clientInfo()}};
    sendRequest(u"initialize"_s, params, m_config.initializeTimeoutMs, {},
                [this](const JsonRpcMessage &r, const Error &e) { handleInitializeAnswer(r, e); });
}
void ServerSession::handleInitializeAnswer(const JsonRpcMessage &response, const Error &error)
{
    if (m_state != SessionSnapshot::State::Initializing)
        return;
    Error failure = error;
    if (!failure.isError()) {
        const QJsonObject result = response.result().toObject();
        const QString version = result.value("protocolVersion"_L1).toString();
        if (!Mcp::isSupportedProtocolVersion(version)) {
            failure = Error::protocol(
                u"the server answered initialize with protocol version \"%1\", which Sonde does not support (supported: %2)"_s
                    .arg(version, Mcp::supportedProtocolVersions().join(u", "_s)));
        } else {
            m_protocolVersion = version;
            m_serverInfo = result.value("serverInfo"_L1).toObject();
            m_serverCapabilities = result.value("capabilities"_L1).toObject();
            m_instructions = result.value("instructions"_L1).toString();
        }
    }
    if (failure.isError() && m_initializeFirst && failure.kind() == Error::Kind::Remote) {
        // The server answered, and refused the handshake: whether it speaks 2026-07-28 is
        // server/discover's to say (any refusal, not one code: a modern-only server names
        // its versions, but need not).
        m_initializeRefusal = failure;
        record(LifecycleDetails::InitializeFailed{failure});
        sendDiscover();
        return;
    }
    if (failure.isError()) {
        QString message = failure.message();
        // A modern-only server refusing the handshake names what it speaks: say so.
        if (Rev20260728::jsonRpcErrorOf(failure).value("code"_L1).toInt() ==
            Rev20260728::UnsupportedProtocolVersion) {
            message = Rev20260728::describeUnsupportedVersion(failure);
            bool offersRevision = false;
            for (const QString &v : Rev20260728::offeredVersions(failure))
                offersRevision |= probedVersions().contains(v);
            if (offersRevision && m_config.era == ServerConfig::Era::Initialize)
                message +=
                    u" (the era is set to initialize: use auto or 2026-07-28 for this server)"_s;
            else if (offersRevision)
                message +=
                    u" (the server/discover probe before it did not say so: %1)"_s.arg(m_eraReason);
        }
        // A program that is not an MCP server often says what it is on stdout instead.
        if (failure.kind() == Error::Kind::Timeout && !m_strayLine.isEmpty())
            message += u" (meanwhile it wrote \"%1\" on stdout, which is not JSON-RPC: is it "
                       u"an MCP server?)"_s.arg(m_strayLine);
        Error e = Error::protocol(u"initialize failed: %1"_s.arg(message));
        e.setCause(failure);
        failHandshake(e);
        return;
    }
    if (m_transport)
        m_transport->setProtocolVersion(m_protocolVersion);
    if (m_initializeFirst) {
        choose(eraSpeaking(m_protocolVersion),
               u"auto over stdio: the initialize handshake went first and the server answered %1"_s
                   .arg(m_protocolVersion),
               m_protocolVersion);
        record(LifecycleDetails::EraChosen{
            .era = era().name(), .reason = m_eraReason, .protocolVersion = m_protocolVersion});
    } else if (m_era) {
        m_era->adopt(m_protocolVersion);
    }
    sendFrame(JsonRpcMessage::notification(u"notifications/initialized"_s));
    becomeReady();
}

void ServerSession::failHandshake(const Error &e)
{
    m_lastError = e;
    record(LifecycleDetails::InitializeFailed{e});
    failAll(e);
    setState(SessionSnapshot::State::Failed);
    if (m_transport)
        m_transport->close();
}

void ServerSession::becomeReady()
{
    ++m_generation;
    m_readyMs = m_clock.nowMs();
    record(LifecycleDetails::Ready{
        .protocolVersion = m_protocolVersion, .serverInfo = m_serverInfo, .era = era().name()});
    setState(SessionSnapshot::State::Ready);
    era().connected();
    const QList<quint64> waiting = std::exchange(m_waitingForReady, {});
    for (quint64 ticket : waiting)
        dispatch(ticket);
}

// --- Lifecycle ------------------------------------------------------------------------------

void ServerSession::stop()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_transport) {
        if (m_state != SessionSnapshot::State::Failed)
            m_state = SessionSnapshot::State::Closed;
        Q_EMIT snapshotChanged(snapshot());
        Q_EMIT stopped();
        return;
    }
    if (m_state == SessionSnapshot::State::Closing)
        return;
    // Closing first: the failures below must not act on a session that is going away (a
    // pending initialize would otherwise close the transport under us).
    record(LifecycleDetails::Closing{});
    setState(SessionSnapshot::State::Closing);
    failAll(Error::cancelled(u"the session was closed"_s));
    if (m_transport)
        m_transport->close();
}

void ServerSession::restart(const QString &cause, bool politely)
{
    Q_ASSERT(QThread::currentThread() == thread());
    record(LifecycleDetails::Restarting{cause});
    if (!m_transport) {
        m_state = SessionSnapshot::State::Closed;
        start();
        return;
    }
    if (m_restarting)
        return;
    if (!politely && drainAndStartAgain())
        return;
    m_restarting = true;
    failAll(Error::transport(u"aborted by a reconnect teardown (%1)"_s.arg(cause),
                             Error::Condition::Closed));
    setState(SessionSnapshot::State::Closing);
    if (m_transport && politely)
        m_transport->close();
    else if (m_transport)
        m_transport->abort();
}

bool ServerSession::drainAndStartAgain()
{
    // Streamable HTTP: the requests in flight on the dead session are not torn down. Each
    // gets its own answer from the server (an expired session: 404, so it never ran and is
    // sent again; or its real result), instead of "aborted by a reconnect teardown", which
    // for a write could only be "outcome uncertain". Their ids stay pending in this session,
    // and ids are never reused, so the answers find their callers whichever transport
    // brings them. The new session starts at once beside it.
    FaultInjectingTransport *old = m_transport;
    if (!old->canDrain())
        return false;
    noteDroppedFaults(old, u"the session was replaced before a request came"_s);
    // Before drain(): it may close `old` at once, and that is no longer this session's end.
    disconnect(old, &Transport::closed, this, &ServerSession::onTransportClosed);
    disconnect(old, &Transport::opened, this, &ServerSession::onTransportOpened);
    disconnect(old, &Transport::connectionLost, this, nullptr);
    m_state = SessionSnapshot::State::Closing; // the handlers below must not act on `old`
    m_transport = nullptr;
    m_lastTransportDetails = old->details();
    connect(old, &Transport::closed, this, [this, old, generation = m_generation] {
        record(LifecycleDetails::Drained{generation});
        old->deleteLater();
    });
    old->drain();
    // A handshake in flight belonged to the old session: its answer must not initialize the
    // new one.
    QList<RequestChannel::Taken> all = m_requests->takeAll();
    for (RequestChannel::Taken &t : all) {
        if (t.entry.method == "initialize"_L1 || t.entry.method == "server/discover"_L1) {
            if (t.handler)
                t.handler(
                    {}, Error::transport(u"replaced by a new session"_s, Error::Condition::Closed));
        } else {
            m_requests->restore(std::move(t));
        }
    }
    m_state = SessionSnapshot::State::Closed;
    start();
    return true;
}

Error ServerSession::injectFault(const Fault &fault)
{
    record(LifecycleDetails::Fault{.description = fault.describe()});
    m_droppedFaults.clear();
    // What is armed now shows at once (the Health tab lists it).
    const auto armedShown = qScopeGuard([this] { Q_EMIT snapshotChanged(snapshot()); });
    if (m_transport)
        return m_transport->injectFault(fault);
    // Between transports only the faults that outlive one can be applied.
    if (const std::optional<Error> e =
            FaultInjectingTransport::applyStanding(*m_standingFaults, fault))
        return *e;
    return Error::transport(u"%1 is not connected"_s.arg(m_config.name),
                            Error::Condition::NotConnected);
}

void ServerSession::noteDroppedFaults(const FaultInjectingTransport *t, const QString &why)
{
    const QStringList armed = t ? t->armedOnce() : QStringList();
    if (armed.isEmpty())
        return;
    // Said, not silently lost: they waited for a request on a connection that is gone.
    m_droppedFaults = armed;
    record(LifecycleDetails::Fault{.dropped = armed, .why = why});
}

void ServerSession::onTransportClosed(const Error &reason)
{
    FaultInjectingTransport *t = m_transport;
    if (reason.isError() && m_state != SessionSnapshot::State::Closing)
        noteDroppedFaults(
            t, u"the connection closed before a request came: %1"_s.arg(reason.message()));
    m_lastTransportDetails = t ? t->details() : TransportDetails();
    m_transport = nullptr;
    if (t)
        t->deleteLater();
    const bool wasClosing = m_state == SessionSnapshot::State::Closing;
    record(LifecycleDetails::Closed{.transport = m_lastTransportDetails,
                                    .reason =
                                        reason.isError() ? std::optional(reason) : std::nullopt});
    if (m_restarting) {
        m_restarting = false;
        m_state = SessionSnapshot::State::Closed;
        start();
        return;
    }
    if (reason.isError() && !wasClosing) {
        if (!m_lastError.isError())
            m_lastError = reason;
        Error e = Error::transport(
            u"the connection to %1 closed while the request was outstanding: %2"_s.arg(
                m_config.name, reason.message()),
            Error::Condition::Closed);
        e.setCause(reason);
        // The state first: the failures below may start a new connection at once (recovery),
        // and that one's state must not be overwritten afterwards.
        setState(SessionSnapshot::State::Failed);
        failAll(e);
    } else {
        setState(m_state == SessionSnapshot::State::Failed ? SessionSnapshot::State::Failed
                                                           : SessionSnapshot::State::Closed);
        failAll(Error::cancelled(u"the session was closed"_s));
    }
    if (wasClosing || m_state == SessionSnapshot::State::Failed)
        Q_EMIT stopped();
}

// --- What the server sends ----------------------------------------------------------------

void ServerSession::processFrame(const QByteArray &frame)
{
    record(TranscriptEvent::Direction::Incoming, frame);
    JsonRpcMessage::Parsed parsed = JsonRpcMessage::parse(frame);
    const bool asItCame = !parsed.error.isError();
    if (parsed.error.isError() && !QUtf8StringView(frame).isValidUtf8()) {
        // Qt's JSON parser refuses invalid UTF-8 outright, and the request it answers would
        // wait forever. The official SDKs decode lossily (U+FFFD), so the answer gets through;
        // the transcript still says the server broke the rules. Only on the error path: a
        // valid frame costs nothing more.
        const QByteArray lossy = QString::fromUtf8(frame).toUtf8();
        record(TranscriptEvent::Direction::Violation, {},
               u"invalid UTF-8 in a frame (%1 bytes); decoded with U+FFFD replacements"_s.arg(
                   frame.size()));
        parsed = JsonRpcMessage::parse(lossy);
    }
    if (parsed.error.isError()) {
        // A bad line is reported and skipped: the session goes on (stdio servers often
        // print banners or logs to stdout by mistake).
        qCDebug(lcSession) << m_config.name << "protocol violation:" << parsed.error.message();
        record(TranscriptEvent::Direction::Violation, frame, parsed.error.message());
        if (m_state == SessionSnapshot::State::Initializing && m_strayLine.isEmpty())
            m_strayLine = QString::fromUtf8(frame.left(120)).simplified();
    }
    // A frame that is one message, parsed as it came: the answer it carries goes out with
    // its frame (CallOutcome::frame), shared, never copied.
    const QScopedValueRollback answering(
        m_answeringFrame, asItCame && parsed.messages.size() == 1 ? frame : QByteArray());
    for (const JsonRpcMessage &m : parsed.messages)
        handleMessage(m);
}

void ServerSession::handleMessage(const JsonRpcMessage &message)
{
    if (message.isResponse()) {
        if (era().takeResponse(message))
            return;
        const std::optional<RequestChannel::Taken> taken = m_requests->take(message.id());
        if (!taken) {
            if (m_requests->wasRetired(message.id()))
                record(LifecycleDetails::LateResponseIgnored{message.id()});
            else
                recordViolation(u"response to an id that was never sent"_s,
                                message.toCompactJson());
            return;
        }
        if (taken->handler)
            taken->handler(message, message.type() == JsonRpcMessage::Type::ErrorResponse
                                        ? message.toError()
                                        : Error());
        return;
    }
    if (message.isRequest()) {
        if (message.method() == "ping"_L1) {
            sendFrame(JsonRpcMessage::response(message.id(), QJsonObject{}));
            return;
        }
        ServerRequest r{m_config.name, m_generation, message.id(), message.method(),
                        message.params()};
        Q_EMIT serverRequestReceived(r);
        return;
    }
    if (message.isNotification())
        handleNotification(message);
}

void ServerSession::handleNotification(const JsonRpcMessage &message)
{
    const QString method = message.method();
    if (era().takeNotification(message))
        return;
    if (method == "notifications/progress"_L1) {
        const QJsonValue token = message.params().value("progressToken"_L1);
        m_requests->touchProgress(token.isString() ? token.toString()
                                                   : QString::number(token.toInteger()));
    } else if (method == "notifications/cancelled"_L1) {
        // The server gave up on one of our requests: fail it now instead of at timeout.
        const QJsonValue id = message.params().value("requestId"_L1);
        if (const std::optional<RequestChannel::Taken> taken = m_requests->retire(id);
            taken && taken->handler) {
            const QString why = message.params().value("reason"_L1).toString();
            taken->handler({}, Error::cancelled(u"the server cancelled the request"_s +
                                                (why.isEmpty() ? QString() : u": "_s + why)));
        }
    } else if (method == "notifications/tools/list_changed"_L1) {
        m_lists.refresh(u"tools/list"_s);
    } else if (method == "notifications/prompts/list_changed"_L1) {
        m_lists.refresh(u"prompts/list"_s);
    } else if (method == "notifications/resources/list_changed"_L1) {
        m_lists.refresh(u"resources/list"_s);
        m_lists.refresh(u"resources/templates/list"_s);
    }
    Q_EMIT notificationReceived(
        ServerNotification{m_config.name, m_generation, m_clock.nowMs(), method, message.params()});
}

// --- Requests and calls ---------------------------------------------------------------------

QJsonValue ServerSession::sendRequest(const QString &method, const QJsonObject &params,
                                      int timeoutMs, const QString &progressToken, Handler handler)
{
    const qint64 timeout = timeoutMs > 0 ? timeoutMs : m_config.requestTimeoutMs;
    const QJsonValue id =
        m_requests->add(method, timeout, std::max<qint64>(timeout, m_config.maxRequestTotalMs),
                        progressToken, std::move(handler));
    // The probe speaks the newest revision whatever the era; all else speaks the era's.
    SessionEra &speaker = method == "server/discover"_L1 ? probeEra() : era();
    sendFrame(JsonRpcMessage::request(id, method, speaker.requestParams(method, params)));
    return id;
}

void ServerSession::sendFrame(const JsonRpcMessage &message)
{
    const QByteArray frame = message.toCompactJson();
    record(TranscriptEvent::Direction::Outgoing, frame);
    if (m_transport)
        m_transport->send(frame);
}

void ServerSession::call(const CallRequest &request)
{
    Q_ASSERT(QThread::currentThread() == thread());
    Operation op;
    op.request = request;
    op.outcome.ticket = request.ticket;
    op.outcome.server = m_config.name;
    op.outcome.method = request.method;
    op.outcome.startedMs = m_clock.nowMs();
    m_operations.insert(request.ticket, op);
    switch (m_state) {
    case SessionSnapshot::State::Ready:
        dispatch(request.ticket);
        break;
    case SessionSnapshot::State::Starting:
    case SessionSnapshot::State::Initializing:
        m_waitingForReady.append(request.ticket);
        break;
    default: {
        Error e = Error::transport(
            u"%1 is not connected (%2)"_s.arg(m_config.name, SessionSnapshot::stateName(m_state)),
            Error::Condition::NotConnected);
        if (m_lastError.isError())
            e.setCause(m_lastError);
        finish(request.ticket, {}, e);
    }
    }
}

void ServerSession::dispatch(quint64 ticket)
{
    auto it = m_operations.find(ticket);
    if (it == m_operations.end())
        return;
    it->outcome.generation = m_generation;
    if (era().answerLocally(ticket))
        return;
    if (!Mcp::listKeyFor(it->request.method).isEmpty() &&
        !it->request.params.contains("cursor"_L1)) {
        it->list = ListFetcher(it->request.method, it->request.method, it->request.params,
                               it->request.followPages, {SessionLimits::MaxPages});
        sendPage(ticket);
        return;
    }
    QJsonObject params = it->request.params;
    QString token;
    if (const QString t = it->request.progressToken(); !t.isEmpty()) {
        token = t;
        QJsonObject meta = params.value("_meta"_L1).toObject();
        meta.insert("progressToken"_L1, token);
        params.insert("_meta"_L1, meta);
    }
    ++it->outcome.attempts;
    it->sentParams = params;
    it->rounds = 0;
    it->input.reset();
    const QJsonValue id = sendRequest(it->request.method, params, it->request.timeoutMs, token,
                                      [this, ticket](const JsonRpcMessage &r, const Error &e) {
                                          if (era().continueCall(ticket, r, e))
                                              return;
                                          finish(ticket, r.result(), e);
                                      });
    m_ticketRequestId.insert(ticket, id);
}

void ServerSession::sendPage(quint64 ticket)
{
    auto it = m_operations.find(ticket);
    if (it == m_operations.end())
        return;
    ++it->outcome.attempts;
    const QJsonValue id =
        sendRequest(it->request.method, it->list.pageParams(), it->request.timeoutMs, {},
                    [this, ticket](const JsonRpcMessage &r, const Error &e) {
                        auto op = m_operations.find(ticket);
                        if (op == m_operations.end())
                            return;
                        if (e.isError()) {
                            finish(ticket, {}, e);
                            return;
                        }
                        era().listRead(op->request.method, r.result().toObject());
                        switch (op->list.addPage(r.result().toObject())) {
                        case ListFetcher::Step::NextPage:
                            sendPage(ticket);
                            return;
                        case ListFetcher::Step::Stopped:
                            finish(ticket, {}, op->list.error());
                            return;
                        case ListFetcher::Step::Done: {
                            QJsonObject result = op->list.result();
                            if (op->request.method == "tools/list"_L1) {
                                const QJsonArray tools =
                                    era().acceptTools(result.value("tools"_L1).toArray());
                                result.insert("tools"_L1, tools);
                                if (op->request.followPages)
                                    m_lists.store(op->request.method, tools);
                            } else if (op->request.followPages) {
                                m_lists.store(op->request.method, op->list.items());
                            }
                            finish(ticket, result, {});
                            return;
                        }
                        }
                    });
    m_ticketRequestId.insert(ticket, id);
}

void ServerSession::finish(quint64 ticket, QJsonValue result, Error error)
{
    auto it = m_operations.find(ticket);
    if (it == m_operations.end())
        return;
    CallOutcome outcome = it->outcome;
    m_operations.erase(it);
    for (const std::unique_ptr<SessionEra> &e : m_eras)
        e->finished(ticket);
    outcome.requestId = m_ticketRequestId.take(ticket);
    m_waitingForReady.removeAll(ticket);
    outcome.finishedMs = m_clock.nowMs();
    outcome.result = result;
    outcome.frame = m_answeringFrame;
    outcome.error = error.isError() ? Rev20260728::explain(error) : error;
    if (!error.isError() && outcome.method == "tools/call"_L1 &&
        result.toObject().value("isError"_L1).toBool()) {
        // The call worked at the protocol level; the tool itself reported failure.
        outcome.error =
            Error::application(Mcp::toolAnswer(result.toObject()).value("error"_L1).toString());
    }
    Q_EMIT callFinished(outcome);
}

void ServerSession::cancel(quint64 ticket, const QString &reason)
{
    if (!m_operations.contains(ticket))
        return;
    for (const std::unique_ptr<SessionEra> &e : m_eras)
        if (e->cancel(ticket, reason))
            return;
    const QJsonValue id = m_ticketRequestId.value(ticket);
    if (!id.isUndefined() && m_requests->retire(id)) {
        if (m_transport)
            m_transport->abandon(id);
        if (era().cancelsWithNotification())
            sendFrame(JsonRpcMessage::notification(u"notifications/cancelled"_s,
                                                   {{"requestId"_L1, id}, {"reason"_L1, reason}}));
    }
    finish(ticket, {}, Error::cancelled(reason));
}

void ServerSession::reply(const ServerReply &reply)
{
    // An era's own questions (input a 2026-07-28 call asked for) are answered to it, whichever
    // era the connection is in now.
    for (const std::unique_ptr<SessionEra> &e : m_eras)
        if (e->takeReply(reply))
            return;
    if (reply.generation != m_generation || !m_transport) {
        record(LifecycleDetails::ReplyDropped{.id = reply.id,
                                              .reason = u"the session that asked is gone"_s});
        return;
    }
    if (reply.error.isError())
        sendFrame(JsonRpcMessage::errorResponse(
            reply.id, reply.error.jsonRpcCode().value_or(JsonRpcCode::InternalError),
            reply.error.message()));
    else
        sendFrame(JsonRpcMessage::response(reply.id, reply.result));
}

void ServerSession::checkTimeouts()
{
    const qint64 now = m_clock.nowMs();
    const QList<RequestChannel::Taken> expired = m_requests->takeExpired();
    for (const RequestChannel::Taken &t : expired) {
        const PendingRequests::Entry &e = t.entry;
        const qint64 waited = now - e.sentMs;
        const QString why = u"%1 timed out after %2 ms"_s.arg(e.method).arg(waited);
        record(
            LifecycleDetails::RequestTimedOut{.id = e.id, .method = e.method, .afterMs = waited});
        // initialize must not be cancelled (lifecycle.mdx); everything else is told.
        if (e.method != "initialize"_L1 && e.method != "server/discover"_L1 &&
            era().cancelsWithNotification())
            sendFrame(JsonRpcMessage::notification(u"notifications/cancelled"_s,
                                                   {{"requestId"_L1, e.id}, {"reason"_L1, why}}));
        if (m_transport)
            m_transport->abandon(e.id);
        if (t.handler)
            t.handler({}, Error::timeout(why));
    }
}

void ServerSession::failAll(const Error &error)
{
    // Take everything first, call back after: a callback may start a new connection and
    // send again (a new initialize, a replayed call under the same ticket), and none of
    // that may be caught by this sweep.
    const QList<RequestChannel::Taken> all = m_requests->takeAll();
    QList<Operation> ops;
    const QList<quint64> tickets = m_operations.keys();
    for (quint64 t : tickets) {
        ops.append(m_operations.take(t));
        ops.last().outcome.requestId = m_ticketRequestId.value(t);
    }
    m_ticketRequestId.clear();
    m_waitingForReady.clear();
    for (const std::unique_ptr<SessionEra> &e : m_eras)
        e->clear();
    for (const RequestChannel::Taken &t : all)
        if (t.handler)
            t.handler({}, error); // operations are gone, so their continuations do nothing
    for (const Operation &op : std::as_const(ops)) {
        CallOutcome outcome = op.outcome;
        outcome.finishedMs = m_clock.nowMs();
        outcome.error = error;
        Q_EMIT callFinished(outcome);
    }
}

} // namespace Sonde
