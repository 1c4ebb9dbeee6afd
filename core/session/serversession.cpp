// SPDX-License-Identifier: MIT
// Over 1,500 lines, for now, and knowingly: this is one state machine (the handshake or the
// era probe, request/response pairing, timeouts, the queue of calls waiting for a session,
// restart and drain, and in the 2026-07-28 era the input rounds and the listen stream), and
// every part reads the same pending table, operations and generation. The pure parts have
// left it: the era decision (EraProbe), an input round (InputRound), the listen filter and
// its backoff (ListenSubscription), the headers (McpHeaders), the wire protocols
// (core/transport), faults (FaultInjectingTransport), pagination (ListFetcher). The next
// cut is the request table with its timeouts and continuations as a class of its own, which
// the modern half below would then use without the session's other state.
#include "session/serversession.h"
#include "util/version.h"

#include "protocol/mcp.h"
#include "session/eraprobe.h"
#include "transport/faultinjectingtransport.h"
#include "transport/httpfallbacktransport.h"
#include "transport/stdiotransport.h"
#include "util/clock.h"
#include "util/clocktimer.h"
#include "util/logging.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QScopeGuard>
#include <QThread>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

static constexpr int MaxPages = 10'000;
// The session's own cache stops there: a user's list call takes what it asked for.
static constexpr qsizetype MaxRefreshItems = 1'000'000;

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
    m_timeoutTimer = clock.createTimer(this);
    connect(m_timeoutTimer, &ClockTimer::timeout, this, &ServerSession::checkTimeouts);
    m_listenTimer = clock.createTimer(this);
    connect(m_listenTimer, &ClockTimer::timeout, this, [this] {
        m_listenTimer->stop();
        openListen();
    });
}

ServerSession::~ServerSession()
{
    // Transports before the network manager they share: a transport aborts its open replies
    // as it goes, and those replies belong to the manager. Children die in creation order,
    // and after a reconnect the manager is older than the current transport.
    const QList<Transport *> transports = findChildren<Transport *>(Qt::FindDirectChildrenOnly);
    qDeleteAll(transports);
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
    s.route = m_config.routeName();
    s.routeReason = m_config.route == ServerConfig::Route::Stdio ? u"configured with a command"_s
                                                                 : u"configured with a URL"_s;
    s.protocolVersion = m_protocolVersion;
    s.serverInfo = m_serverInfo;
    s.serverCapabilities = m_serverCapabilities;
    s.clientCapabilities = m_clientCapabilities;
    s.instructions = m_instructions;
    s.transport = m_transport ? m_transport->details() : m_lastTransportDetails;
    if (s.transport.contains("route"_L1)) {
        s.route = s.transport.take("route"_L1).toString();
        s.routeReason = s.transport.take("route_reason"_L1).toString();
    }
    s.sessionId = s.transport.take("session_id"_L1).toString();
    if (m_era != Era::Undecided) {
        s.era = isModern() ? u"modern"_s : u"legacy"_s;
        s.eraReason = m_eraReason;
    }
    if (isModern()) {
        s.sessionId.clear(); // this revision has none; an id a server sends means nothing
        s.subscriptions = m_listen.toJson();
        s.cacheHints = m_cacheHints;
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
                           const QString &event, const QJsonObject &details)
{
    TranscriptEvent e;
    e.timeMs = m_clock.nowMs();
    e.server = m_config.name;
    e.generation = m_generation;
    e.direction = direction;
    e.raw = raw;
    e.event = event;
    e.details = details;
    Q_EMIT transcriptEvent(e);
}

void ServerSession::record(EventKind kind, const QJsonObject &details)
{
    Q_EMIT transcriptEvent(
        TranscriptEvent::lifecycle(m_clock.nowMs(), m_config.name, m_generation, kind, details));
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
    // The era is decided again for each connection: a restarted server may be another build.
    m_era = Era::Undecided;
    m_eraReason.clear();
    m_initializeFirst = false;
    m_initializeRefusal = Error();
    m_strayLine.clear();
    m_listen.reset();
    m_listenTimer->stop();
    m_listenReopened = false;
    m_cacheHints = {};
    std::unique_ptr<Transport> route = m_factory(m_config, m_clock);
    if (auto *http = qobject_cast<HttpFallbackTransport *>(route.get())) {
        http->setNetworkManager(network());
        http->setAuthorization(m_authorization);
    }
    // Faults are applied by this decorator alone; the session only forwards them to it.
    m_transport = new FaultInjectingTransport(std::move(route), m_clock, m_standingFaults, this);
    connect(m_transport, &Transport::opened, this, &ServerSession::onTransportOpened);
    connect(m_transport, &Transport::frameReceived, this, &ServerSession::processFrame);
    connect(m_transport, &Transport::frameWithheld, this, [this](const QByteArray &frame) {
        record(TranscriptEvent::Direction::Incoming, frame);
    });
    connect(m_transport, &Transport::frameDropped, this,
            [this](const QString &why) { record(TranscriptEvent::Direction::Violation, {}, why); });
    connect(m_transport, &Transport::stderrLine, this, [this](const QString &line) {
        record(TranscriptEvent::Direction::Stderr, line.toUtf8());
    });
    connect(m_transport, &Transport::closed, this, &ServerSession::onTransportClosed);
    connect(m_transport, &Transport::requestFailed, this,
            [this](const QJsonValue &id, const Error &error) {
                if (!id.isUndefined() && id == m_listen.id()) {
                    onListenFailed(error);
                    return;
                }
                const std::optional<PendingRequests::Entry> entry = m_pending.take(id);
                if (!entry)
                    return;
                // No response frame will say how this request ended: the transcript does. The
                // error's session id stays out (it is a secret the exports would not see).
                QJsonObject details{{"id"_L1, id},
                                    {"method"_L1, entry->method},
                                    {"kind"_L1, Error::kindName(error.kind())},
                                    {"message"_L1, error.message()}};
                if (error.httpStatus())
                    details.insert("http_status"_L1, *error.httpStatus());
                record(EventKind::RequestFailed, details);
                armTimer();
                const ResponseHandler handler = m_handlers.take(JsonRpcMessage::idKey(id));
                if (handler)
                    handler({}, error);
            });
    connect(m_transport, &Transport::connectionLost, this, [this](const Error &error) {
        record(EventKind::ConnectionLost, error.toJson());
        Q_EMIT connectionLost(error);
    });
    connect(m_transport, &Transport::lifecycleEvent, this,
            [this](EventKind kind, QJsonObject details) {
                // A front end follows its call by the progress token, not the JSON-RPC id:
                // what happens to the call's stream, and that it waits for new credentials
                // (a step-up), is said to the call's view.
                if (kind == EventKind::StreamResume || kind == EventKind::StreamResumeFailed ||
                    kind == EventKind::AuthChallenge) {
                    if (const QString token = m_pending.progressTokenOf(details.value("id"_L1));
                        !token.isEmpty())
                        details.insert("progress_token"_L1, token);
                }
                record(kind, details);
                // An HTTP exchange is a record of the wire, not a change of the session: a
                // snapshot for each would reach the front end once per request.
                if (kind != EventKind::HttpExchange)
                    Q_EMIT snapshotChanged(snapshot());
            });
    record(EventKind::Starting,
           {{"route"_L1, m_config.routeName()}, {"command"_L1, m_config.displayCommand()}});
    setState(SessionSnapshot::State::Starting);
    m_transport->open();
}

void ServerSession::onTransportOpened()
{
    if (m_state == SessionSnapshot::State::Closing)
        return; // stopped while the process was still starting: nothing to initialize
    record(EventKind::TransportOpen, m_transport->details());
    setState(SessionSnapshot::State::Initializing);
    if (m_config.era == ServerConfig::Era::Legacy) {
        m_era = Era::Legacy;
        m_eraReason = u"configured: legacy (2025-11-25 and earlier)"_s;
        sendInitialize();
        return;
    }
    if (m_config.era == ServerConfig::Era::Modern && m_config.route != ServerConfig::Route::Stdio) {
        // Over HTTP a modern client may call anything inline (basic/versioning.mdx): calls go
        // out at once, and server/discover runs beside them for what only it tells (the
        // capabilities, hence the listen stream). stdio keeps the probe: there it is what
        // makes a legacy server fail deterministically.
        m_era = Era::Modern;
        m_eraReason = u"configured: modern (2026-07-28); over HTTP no probe is needed"_s;
        m_protocolVersion = QString::fromLatin1(Modern::ProtocolVersion);
        if (m_transport)
            m_transport->setProtocolVersion(m_protocolVersion);
        record(EventKind::EraChosen, {{"era"_L1, u"modern"_s},
                                      {"reason"_L1, m_eraReason},
                                      {"protocol_version"_L1, m_protocolVersion}});
        // A reconnect follows a failure (a refused connection, a broken stream): nothing but
        // an answer says the server is back, so calls wait for server/discover's instead of
        // going out at once to be refused again.
        const bool reconnecting = m_generation > 0;
        if (!reconnecting)
            becomeReady();
        if (!m_config.discoverBesideCalls && !reconnecting)
            return;
        sendRequest(
            u"server/discover"_s, {}, m_config.initializeTimeoutMs, {},
            [this, reconnecting](const JsonRpcMessage &r, const Error &e) {
                if (reconnecting && m_state == SessionSnapshot::State::Initializing) {
                    if (e.isError() && e.kind() != Error::Kind::Remote) {
                        failHandshake(e, EventKind::InitializeFailed);
                        return;
                    }
                    becomeReady(); // answered, even with an error: the server is there
                }
                if (e.isError()) {
                    record(TranscriptEvent::Direction::Violation, {},
                           u"server/discover failed: %1"_s.arg(explainModernError(e).message()));
                    return;
                }
                const QJsonObject d = r.result().toObject();
                m_serverInfo = d.value("_meta"_L1)
                                   .toObject()
                                   .value(QLatin1StringView(Modern::MetaServerInfo))
                                   .toObject();
                m_serverCapabilities = d.value("capabilities"_L1).toObject();
                m_instructions = d.value("instructions"_L1).toString();
                noteCacheHints(u"server/discover"_s, d);
                if (m_listen.id().isUndefined())
                    openListen();
                Q_EMIT snapshotChanged(snapshot());
            });
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

static QJsonObject clientInfo()
{
    return QJsonObject{{"name"_L1, u"sonde"_s},
                       {"title"_L1, u"Sonde"_s},
                       {"version"_L1, QCoreApplication::applicationVersion().isEmpty()
                                          ? QStringLiteral(SONDE_VERSION)
                                          : QCoreApplication::applicationVersion()}};
}

void ServerSession::sendDiscover()
{
    // The probe speaks the modern revision already: its _meta and, on HTTP, its headers.
    if (m_transport)
        m_transport->setProtocolVersion(QString::fromLatin1(Modern::ProtocolVersion));
    const int timeout = m_config.era == ServerConfig::Era::Modern
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
        EraProbe::decide(m_config.era, response, error, m_initializeRefusal);
    QJsonObject details{{"reason"_L1, d.reason},
                        {"supported"_L1, QJsonArray::fromStringList(d.offered)}};
    switch (d.next) {
    case EraProbe::Decision::Next::Modern: {
        m_era = Era::Modern;
        m_eraReason = d.reason;
        m_protocolVersion = d.version;
        m_serverInfo = d.discover.value("_meta"_L1)
                           .toObject()
                           .value(QLatin1StringView(Modern::MetaServerInfo))
                           .toObject();
        m_serverCapabilities = d.discover.value("capabilities"_L1).toObject();
        m_instructions = d.discover.value("instructions"_L1).toString();
        noteCacheHints(u"server/discover"_s, d.discover);
        details.insert("era"_L1, u"modern"_s);
        details.insert("protocol_version"_L1, m_protocolVersion);
        record(EventKind::EraChosen, details);
        if (m_transport)
            m_transport->setProtocolVersion(m_protocolVersion);
        becomeReady();
        return;
    }
    case EraProbe::Decision::Next::Initialize:
        m_era = Era::Legacy;
        m_eraReason = d.reason;
        details.insert("era"_L1, u"legacy"_s);
        record(EventKind::EraChosen, details);
        // The handshake is sent as a legacy client sends it: no version header before the
        // server has chosen one.
        if (m_transport)
            m_transport->setProtocolVersion({});
        sendInitialize();
        return;
    case EraProbe::Decision::Next::Fail:
        m_eraReason = d.reason;
        failHandshake(d.error, EventKind::InitializeFailed);
        return;
    }
}

void ServerSession::sendInitialize()
{
    const QJsonObject params{
        {"protocolVersion"_L1, QString::fromLatin1(Mcp::LatestProtocolVersion)},
        {"capabilities"_L1, m_clientCapabilities},
        {"clientInfo"_L1, clientInfo()}};
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
        record(EventKind::InitializeFailed, failure.toJson());
        sendDiscover();
        return;
    }
    if (failure.isError()) {
        QString message = failure.message();
        // A modern-only server refusing the handshake names what it speaks: say so.
        if (Modern::jsonRpcErrorOf(failure).value("code"_L1).toInt() ==
            Modern::UnsupportedProtocolVersion) {
            message = Modern::describeUnsupportedVersion(failure);
            bool offersModern = false;
            for (const QString &v : Modern::offeredVersions(failure))
                offersModern |= Modern::isModernProtocolVersion(v);
            if (offersModern && m_config.era == ServerConfig::Era::Legacy)
                message += u" (the era is set to legacy: use auto or modern for this server)"_s;
            else if (offersModern)
                message +=
                    u" (the server/discover probe before it did not say so: %1)"_s.arg(m_eraReason);
        }
        // A program that is not an MCP server often says what it is on stdout instead.
        if (failure.kind() == Error::Kind::Timeout && !m_strayLine.isEmpty())
            message += u" (meanwhile it wrote \"%1\" on stdout, which is not JSON-RPC: is it "
                       u"an MCP server?)"_s.arg(m_strayLine);
        Error e = Error::protocol(u"initialize failed: %1"_s.arg(message));
        e.setCause(failure);
        failHandshake(e, EventKind::InitializeFailed);
        return;
    }
    if (m_transport)
        m_transport->setProtocolVersion(m_protocolVersion);
    if (m_initializeFirst) {
        m_era = Era::Legacy;
        m_eraReason =
            u"auto over stdio: the initialize handshake went first and the server answered %1"_s
                .arg(m_protocolVersion);
        record(EventKind::EraChosen, {{"era"_L1, u"legacy"_s},
                                      {"reason"_L1, m_eraReason},
                                      {"protocol_version"_L1, m_protocolVersion}});
    }
    sendFrame(JsonRpcMessage::notification(u"notifications/initialized"_s));
    becomeReady();
}

void ServerSession::failHandshake(const Error &e, EventKind kind)
{
    m_lastError = e;
    record(kind, e.toJson());
    failAll(e);
    setState(SessionSnapshot::State::Failed);
    if (m_transport)
        m_transport->close();
}

void ServerSession::becomeReady()
{
    ++m_generation;
    m_readyMs = m_clock.nowMs();
    record(EventKind::Ready, {{"protocol_version"_L1, m_protocolVersion},
                              {"server_info"_L1, m_serverInfo},
                              {"era"_L1, isModern() ? u"modern"_s : u"legacy"_s}});
    setState(SessionSnapshot::State::Ready);
    if (isModern())
        openListen();
    const QList<quint64> waiting = std::exchange(m_waitingForReady, {});
    for (quint64 ticket : waiting)
        dispatch(ticket);
}

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
    record(EventKind::Closing);
    setState(SessionSnapshot::State::Closing);
    failAll(Error::cancelled(u"the session was closed"_s));
    if (m_transport)
        m_transport->close();
}

void ServerSession::restart(const QString &cause, bool politely)
{
    Q_ASSERT(QThread::currentThread() == thread());
    record(EventKind::Restarting, {{"cause"_L1, cause}});
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
        record(EventKind::Drained, {{"generation"_L1, generation}});
        old->deleteLater();
    });
    old->drain();
    // A handshake in flight belonged to the old session: its answer must not initialize the
    // new one.
    const QList<PendingRequests::Entry> all = m_pending.takeAll();
    for (const PendingRequests::Entry &e : all) {
        if (e.method == "initialize"_L1 || e.method == "server/discover"_L1) {
            if (const ResponseHandler h = m_handlers.take(JsonRpcMessage::idKey(e.id)))
                h({}, Error::transport(u"replaced by a new session"_s, Error::Condition::Closed));
        } else {
            m_pending.add(e);
        }
    }
    m_state = SessionSnapshot::State::Closed;
    start();
    return true;
}

Error ServerSession::injectFault(const Fault &fault)
{
    record(EventKind::Fault, {{"kind"_L1, fault.describe()}});
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
    record(EventKind::Fault, {{"dropped"_L1, QJsonArray::fromStringList(armed)}, {"why"_L1, why}});
}

void ServerSession::onTransportClosed(const Error &reason)
{
    FaultInjectingTransport *t = m_transport;
    if (reason.isError() && m_state != SessionSnapshot::State::Closing)
        noteDroppedFaults(
            t, u"the connection closed before a request came: %1"_s.arg(reason.message()));
    m_lastTransportDetails = t ? t->details() : QJsonObject();
    m_transport = nullptr;
    if (t)
        t->deleteLater();
    const bool wasClosing = m_state == SessionSnapshot::State::Closing;
    QJsonObject details = m_lastTransportDetails;
    if (reason.isError())
        details.insert("reason"_L1, reason.toJson());
    record(EventKind::Closed, details);
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

void ServerSession::processFrame(const QByteArray &frame)
{
    record(TranscriptEvent::Direction::Incoming, frame);
    JsonRpcMessage::Parsed parsed = JsonRpcMessage::parse(frame);
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
    for (const JsonRpcMessage &m : parsed.messages)
        handleMessage(m);
}

void ServerSession::handleMessage(const JsonRpcMessage &message)
{
    if (message.isResponse()) {
        if (m_listen.isCurrent(message.id())) {
            onListenAnswered(message);
            return;
        }
        const std::optional<PendingRequests::Entry> entry = m_pending.take(message.id());
        if (!entry) {
            if (m_pending.wasRetired(message.id()))
                record(EventKind::LateResponseIgnored, {{"id"_L1, message.id()}});
            else
                record(TranscriptEvent::Direction::Violation, message.toCompactJson(),
                       u"response to an id that was never sent"_s);
            return;
        }
        armTimer();
        const ResponseHandler handler = m_handlers.take(JsonRpcMessage::idKey(message.id()));
        if (handler)
            handler(message, message.type() == JsonRpcMessage::Type::ErrorResponse
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
    if (isModern() && handleSubscriptionNotification(message))
        return;
    if (method == "notifications/progress"_L1) {
        const QJsonValue token = message.params().value("progressToken"_L1);
        const QString key =
            token.isString() ? token.toString() : QString::number(token.toInteger());
        if (m_pending.touchProgress(key, m_clock.nowMs()))
            armTimer();
    } else if (method == "notifications/cancelled"_L1) {
        // The server gave up on one of our requests: fail it now instead of at timeout.
        const QJsonValue id = message.params().value("requestId"_L1);
        if (m_pending.contains(id)) {
            m_pending.retire(id);
            const ResponseHandler handler = m_handlers.take(JsonRpcMessage::idKey(id));
            if (handler) {
                const QString why = message.params().value("reason"_L1).toString();
                handler({}, Error::cancelled(u"the server cancelled the request"_s +
                                             (why.isEmpty() ? QString() : u": "_s + why)));
            }
            armTimer();
        }
    } else if (method == "notifications/tools/list_changed"_L1) {
        refreshList(u"tools/list"_s);
    } else if (method == "notifications/prompts/list_changed"_L1) {
        refreshList(u"prompts/list"_s);
    } else if (method == "notifications/resources/list_changed"_L1) {
        refreshList(u"resources/list"_s);
        refreshList(u"resources/templates/list"_s);
    }
    Q_EMIT notificationReceived(
        ServerNotification{m_config.name, m_generation, m_clock.nowMs(), method, message.params()});
}

void ServerSession::refreshList(const QString &method)
{
    // Only lists someone has fetched are cached; a change before that costs nothing.
    if (!m_cache.contains(method) || m_state != SessionSnapshot::State::Ready)
        return;
    if (m_refreshes.contains(method)) {
        // The list in flight may predate this change: fetch once more when it is in. Any
        // number of changes meanwhile cost one more fetch, not one each.
        m_refreshAgain.insert(method);
        return;
    }
    m_refreshes.insert(
        method, ListFetcher(method, method + u" refresh"_s, {}, true, {MaxPages, MaxRefreshItems}));
    sendRefreshPage(method);
}

void ServerSession::sendRefreshPage(const QString &method)
{
    sendRequest(method, m_refreshes.value(method).pageParams(), m_config.requestTimeoutMs, {},
                [this, method](const JsonRpcMessage &r, const Error &e) {
                    auto it = m_refreshes.find(method);
                    if (it == m_refreshes.end())
                        return;
                    if (e.isError()) {
                        m_refreshes.erase(it);
                        m_refreshAgain.remove(method);
                        return;
                    }
                    const ListFetcher::Step step = it->addPage(r.result().toObject());
                    if (step == ListFetcher::Step::NextPage) {
                        sendRefreshPage(method);
                        return;
                    }
                    // A misbehaving server: keep what came, say why it stopped.
                    if (step == ListFetcher::Step::Stopped)
                        record(TranscriptEvent::Direction::Violation, {}, it->error().message());
                    if (isModern())
                        noteCacheHints(method, r.result().toObject());
                    const QJsonArray items =
                        method == "tools/list"_L1 ? acceptTools(it->items()) : it->items();
                    m_refreshes.erase(it);
                    m_cache.insert(method, items);
                    Q_EMIT listRefreshed(m_config.name, method, items);
                    if (m_refreshAgain.remove(method))
                        refreshList(method);
                });
}

QJsonValue ServerSession::sendRequest(const QString &method, const QJsonObject &params,
                                      int timeoutMs, const QString &progressToken,
                                      ResponseHandler handler)
{
    const QJsonValue id = QJsonValue(m_nextId++);
    const qint64 now = m_clock.nowMs();
    PendingRequests::Entry entry;
    entry.id = id;
    entry.method = method;
    entry.progressToken = progressToken;
    entry.sentMs = now;
    entry.lastActivityMs = now;
    entry.timeoutMs = timeoutMs > 0 ? timeoutMs : m_config.requestTimeoutMs;
    entry.maxTotalMs = std::max<qint64>(entry.timeoutMs, m_config.maxRequestTotalMs);
    m_pending.add(entry);
    m_handlers.insert(JsonRpcMessage::idKey(id), std::move(handler));
    if (isModern() || method == "server/discover"_L1) {
        sendFrame(
            JsonRpcMessage::request(id, method, Modern::withRequestMeta(params, requestContext())));
    } else {
        sendFrame(JsonRpcMessage::request(id, method, params));
    }
    armTimer();
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
        finishOperation(request.ticket, {}, e);
    }
    }
}

void ServerSession::dispatch(quint64 ticket)
{
    auto it = m_operations.find(ticket);
    if (it == m_operations.end())
        return;
    it->outcome.generation = m_generation;
    if (isModern() && answerLocally(ticket))
        return;
    if (!Mcp::listKeyFor(it->request.method).isEmpty() &&
        !it->request.params.contains("cursor"_L1)) {
        it->list = ListFetcher(it->request.method, it->request.method, it->request.params,
                               it->request.followPages, {MaxPages});
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
    const QJsonValue id =
        sendRequest(it->request.method, params, it->request.timeoutMs, token,
                    [this, ticket](const JsonRpcMessage &r, const Error &e) {
                        if (!e.isError() && isModern() && continueModernCall(ticket, r))
                            return;
                        if (e.isError() && retryAfterHeaderMismatch(ticket, e))
                            return;
                        finishOperation(ticket, r.result(), e);
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
                            finishOperation(ticket, {}, e);
                            return;
                        }
                        if (isModern())
                            noteCacheHints(op->request.method, r.result().toObject());
                        switch (op->list.addPage(r.result().toObject())) {
                        case ListFetcher::Step::NextPage:
                            sendPage(ticket);
                            return;
                        case ListFetcher::Step::Stopped:
                            finishOperation(ticket, {}, op->list.error());
                            return;
                        case ListFetcher::Step::Done: {
                            QJsonObject result = op->list.result();
                            if (op->request.method == "tools/list"_L1) {
                                const QJsonArray tools =
                                    acceptTools(result.value("tools"_L1).toArray());
                                result.insert("tools"_L1, tools);
                                if (op->request.followPages)
                                    m_cache.insert(op->request.method, tools);
                            } else if (op->request.followPages) {
                                m_cache.insert(op->request.method, op->list.items());
                            }
                            finishOperation(ticket, result, {});
                            return;
                        }
                        }
                    });
    m_ticketRequestId.insert(ticket, id);
}

void ServerSession::finishOperation(quint64 ticket, QJsonValue result, Error error)
{
    auto it = m_operations.find(ticket);
    if (it == m_operations.end())
        return;
    CallOutcome outcome = it->outcome;
    m_operations.erase(it);
    stopTaskTimer(ticket);
    outcome.requestId = m_ticketRequestId.take(ticket);
    m_waitingForReady.removeAll(ticket);
    outcome.finishedMs = m_clock.nowMs();
    outcome.result = result;
    outcome.error = error.isError() ? explainModernError(error) : error;
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
    const auto op = m_operations.constFind(ticket);
    if (op == m_operations.constEnd())
        return;
    if (op->task) {
        // A task is cancelled by its own method, never by notifications/cancelled (SEP-2663);
        // the acknowledgment changes nothing here, so nothing waits for it.
        sendRequest(u"tasks/cancel"_s, {{"taskId"_L1, op->task->taskId()}},
                    m_config.requestTimeoutMs, {}, [](const JsonRpcMessage &, const Error &) {});
        finishOperation(ticket, {}, Error::cancelled(reason));
        return;
    }
    const QJsonValue id = m_ticketRequestId.value(ticket);
    if (!id.isUndefined() && m_pending.retire(id)) {
        m_handlers.remove(JsonRpcMessage::idKey(id));
        if (m_transport)
            m_transport->abandon(id);
        if (cancelsWithNotification())
            sendFrame(JsonRpcMessage::notification(u"notifications/cancelled"_s,
                                                   {{"requestId"_L1, id}, {"reason"_L1, reason}}));
        armTimer();
    }
    finishOperation(ticket, {}, Error::cancelled(reason));
}

void ServerSession::reply(const ServerReply &reply)
{
    if (takeInputReply(reply))
        return;
    if (reply.generation != m_generation || !m_transport) {
        record(EventKind::ReplyDropped,
               {{"id"_L1, reply.id}, {"reason"_L1, u"the session that asked is gone"_s}});
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
    const QList<PendingRequests::Entry> expired = m_pending.takeExpired(now);
    for (const PendingRequests::Entry &e : expired) {
        const qint64 waited = now - e.sentMs;
        const QString why = u"%1 timed out after %2 ms"_s.arg(e.method).arg(waited);
        record(EventKind::RequestTimedOut,
               {{"id"_L1, e.id}, {"method"_L1, e.method}, {"after_ms"_L1, waited}});
        // initialize must not be cancelled (lifecycle.mdx); everything else is told.
        if (e.method != "initialize"_L1 && e.method != "server/discover"_L1 &&
            cancelsWithNotification())
            sendFrame(JsonRpcMessage::notification(u"notifications/cancelled"_s,
                                                   {{"requestId"_L1, e.id}, {"reason"_L1, why}}));
        if (m_transport)
            m_transport->abandon(e.id);
        const ResponseHandler handler = m_handlers.take(JsonRpcMessage::idKey(e.id));
        if (handler)
            handler({}, Error::timeout(why));
    }
    armTimer();
}

void ServerSession::armTimer()
{
    // Re-arming a QTimer costs a timer (un)registration; doing it twice per request is a
    // measurable share of a local round trip. So the timer is only moved earlier: a timer
    // armed for a deadline that went away fires once, finds nothing, and re-arms.
    const std::optional<qint64> next = m_pending.nextDeadline();
    if (!next)
        return;
    if (m_timeoutTimer->isActive() && m_armedForMs <= *next)
        return;
    const qint64 in = std::max<qint64>(0, *next - m_clock.nowMs());
    m_armedForMs = *next;
    m_timeoutTimer->start(in);
}

void ServerSession::failAll(const Error &error)
{
    // Take everything first, call back after: a callback may start a new connection and
    // send again (a new initialize, a replayed call under the same ticket), and none of
    // that may be caught by this sweep.
    const QList<PendingRequests::Entry> all = m_pending.takeAll();
    QList<ResponseHandler> handlers;
    for (const PendingRequests::Entry &e : all)
        if (ResponseHandler h = m_handlers.take(JsonRpcMessage::idKey(e.id)))
            handlers.append(std::move(h));
    QList<Operation> ops;
    const QList<quint64> tickets = m_operations.keys();
    for (quint64 t : tickets) {
        ops.append(m_operations.take(t));
        ops.last().outcome.requestId = m_ticketRequestId.value(t);
    }
    m_ticketRequestId.clear();
    m_waitingForReady.clear();
    m_inputRequests.clear();
    const QList<quint64> tasks = m_taskTimers.keys();
    for (quint64 t : tasks)
        stopTaskTimer(t);
    m_timeoutTimer->stop();
    for (const ResponseHandler &h : std::as_const(handlers))
        h({}, error); // operations are gone, so their continuations do nothing
    for (const Operation &op : std::as_const(ops)) {
        CallOutcome outcome = op.outcome;
        outcome.finishedMs = m_clock.nowMs();
        outcome.error = error;
        Q_EMIT callFinished(outcome);
    }
}

// --- The 2026-07-28 revision --------------------------------------------------------------

static constexpr int MaxInputRounds = 8;

bool ServerSession::cancelsWithNotification() const
{
    return !isModern() || m_config.route == ServerConfig::Route::Stdio;
}

QJsonArray ServerSession::cachedList(const QString &method, bool justRead) const
{
    const QJsonObject hint = m_cacheHints.value(method).toObject();
    if (!justRead && isModern() && hint.contains("ttl_ms"_L1) &&
        m_clock.nowMs() >
            hint.value("fetched_ms"_L1).toInteger() + hint.value("ttl_ms"_L1).toInteger())
        return {}; // stale by the server's own word: readers fetch it again
    return m_cache.value(method);
}

void ServerSession::noteCacheHints(const QString &method, const QJsonObject &result)
{
    const QJsonValue ttl = result.value("ttlMs"_L1);
    const QJsonValue scope = result.value("cacheScope"_L1);
    if (ttl.isUndefined() && scope.isUndefined())
        return;
    QJsonObject hint{{"fetched_ms"_L1, m_clock.nowMs()}};
    if (ttl.isDouble())
        hint.insert("ttl_ms"_L1, ttl.toInteger());
    if (scope.isString())
        hint.insert("cache_scope"_L1, scope.toString());
    m_cacheHints.insert(method, hint);
}

QJsonArray ServerSession::acceptTools(const QJsonArray &tools)
{
    // Over HTTP a tool whose x-mcp-header annotations break the rules must be left out
    // (transports/streamable-http.mdx, "Custom Headers"); on stdio they mean nothing.
    if (!isModern() || m_config.route == ServerConfig::Route::Stdio)
        return tools;
    QJsonArray accepted;
    McpHeaders::ToolParams params;
    for (const QJsonValue &v : tools) {
        const QJsonObject tool = v.toObject();
        const QString name = tool.value("name"_L1).toString();
        QString why;
        const std::optional<QList<McpHeaders::Param>> p =
            McpHeaders::paramsOf(tool.value("inputSchema"_L1).toObject(), &why);
        if (!p) {
            record(TranscriptEvent::Direction::Violation, {},
                   u"tool \"%1\" left out of tools/list: %2"_s.arg(name, why));
            continue;
        }
        if (!p->isEmpty())
            params.insert(name, *p);
        accepted.append(v);
    }
    m_toolHeaders = params;
    if (m_transport)
        m_transport->setToolHeaders(m_toolHeaders);
    return accepted;
}

Error ServerSession::explainModernError(const Error &error) const
{
    const QJsonObject rpc = Modern::jsonRpcErrorOf(error);
    if (rpc.isEmpty())
        return error;
    const int code = rpc.value("code"_L1).toInt();
    QString text;
    if (code == Modern::UnsupportedProtocolVersion)
        text = Modern::describeUnsupportedVersion(error);
    else if (code == Modern::HeaderMismatch)
        text =
            u"header mismatch (error -32020): the server says the request's headers do not match its body: %1"_s
                .arg(rpc.value("message"_L1).toString());
    else if (code == Modern::MissingRequiredClientCapability)
        text = u"missing client capability (error -32021): %1"_s.arg(
            rpc.value("message"_L1).toString());
    else
        return error;
    Error e = Error::remote(code, text, rpc.value("data"_L1));
    e.setCause(error);
    if (error.httpStatus())
        e.setHttpStatus(*error.httpStatus());
    return e;
}

bool ServerSession::continueModernCall(quint64 ticket, const JsonRpcMessage &response)
{
    auto it = m_operations.find(ticket);
    if (it == m_operations.end())
        return true;
    const QJsonObject result = response.result().toObject();
    const QString type = Modern::resultType(result);
    if (type == "complete"_L1)
        return false;
    if (type == "task"_L1) {
        followTask(ticket, result);
        return true;
    }
    if (type != "input_required"_L1) {
        finishOperation(ticket, {},
                        Error::protocol(u"the server answered with resultType \"%1\", which "
                                        u"2026-07-28 does not define"_s.arg(type)));
        return true;
    }
    const QString method = it->request.method;
    if (method != "tools/call"_L1 && method != "resources/read"_L1 && method != "prompts/get"_L1) {
        finishOperation(ticket, {},
                        Error::protocol(u"the server asked for input on %1, where 2026-07-28 "
                                        u"does not allow it (only tools/call, resources/read "
                                        u"and prompts/get)"_s.arg(method)));
        return true;
    }
    if (++it->rounds > MaxInputRounds) {
        finishOperation(ticket, {},
                        Error::protocol(u"the server asked for input %1 times in a row; Sonde "
                                        u"stops at %2"_s.arg(it->rounds)
                                            .arg(MaxInputRounds)));
        return true;
    }
    QString why;
    std::optional<InputRound> round = InputRound::from(result, &why);
    if (!round) {
        finishOperation(ticket, {}, Error::protocol(u"a malformed input_required: "_s + why));
        return true;
    }
    it->input = std::move(round);
    if (it->input->requests().isEmpty()) {
        sendInputRetry(ticket); // only requestState: retry at once (mrtr.mdx)
        return true;
    }
    // Each input request goes to the front end as the server request it would have been in
    // 2025-11-25, under an id of this session's own that never reaches the wire.
    const QList<InputRound::Request> requests = it->input->requests();
    for (const InputRound::Request &r : requests) {
        const QString id = u"input-%1-%2-%3"_s.arg(ticket).arg(it->rounds).arg(r.key);
        m_inputRequests.insert(id, {ticket, r.key});
        Q_EMIT serverRequestReceived(
            ServerRequest{m_config.name, m_generation, QJsonValue(id), r.method, r.params});
    }
    return true;
}

bool ServerSession::takeInputReply(const ServerReply &reply)
{
    if (!reply.id.isString())
        return false;
    const auto found = m_inputRequests.constFind(reply.id.toString());
    if (found == m_inputRequests.constEnd())
        return false;
    const auto [ticket, key] = *found;
    m_inputRequests.erase(found);
    auto it = m_operations.find(ticket);
    if (it == m_operations.end() || !it->input)
        return true;
    if (reply.error.isError()) {
        // The input was refused locally (no answer given): the call ends here; nothing is
        // retried behind the user's back.
        finishOperation(
            ticket, {},
            Error::cancelled(u"the input the server asked for (%1) was not given: %2"_s.arg(
                key, reply.error.message())));
        return true;
    }
    it->input->answer(key, reply.result);
    if (it->input->isAnswered()) {
        if (it->task)
            sendTaskUpdate(ticket);
        else
            sendInputRetry(ticket);
    }
    return true;
}

void ServerSession::sendInputRetry(quint64 ticket)
{
    auto it = m_operations.find(ticket);
    if (it == m_operations.end() || !it->input)
        return;
    if (m_state != SessionSnapshot::State::Ready) {
        finishOperation(ticket, {},
                        Error::transport(u"the connection closed while the input was gathered"_s,
                                         Error::Condition::NotConnected));
        return;
    }
    const QJsonObject params = it->input->retryParams(it->sentParams);
    QJsonObject requests;
    for (const InputRound::Request &r : it->input->requests())
        requests.insert(r.key, r.method);
    const QJsonValue previous = m_ticketRequestId.value(ticket);
    const int round = it->rounds;
    const QString method = it->request.method;
    const QString name =
        it->request.params.value("name"_L1).toString(it->request.params.value("uri"_L1).toString());
    it->input.reset();
    const QJsonValue id =
        sendRequest(method, params, it->request.timeoutMs, it->request.progressToken(),
                    [this, ticket](const JsonRpcMessage &r, const Error &e) {
                        if (!e.isError() && continueModernCall(ticket, r))
                            return;
                        finishOperation(ticket, r.result(), e);
                    });
    m_ticketRequestId.insert(ticket, id);
    record(EventKind::InputRequired, {{"id"_L1, previous},
                                      {"next_id"_L1, id},
                                      {"round"_L1, round},
                                      {"method"_L1, method},
                                      {"name"_L1, name},
                                      {"requests"_L1, requests}});
}

bool ServerSession::answerLocally(quint64 ticket)
{
    auto it = m_operations.find(ticket);
    const QString method = it->request.method;
    const QJsonObject params = it->request.params;
    if (method == "logging/setLevel"_L1) {
        // There is no setLevel in 2026-07-28: the level rides on every request's _meta.
        m_logLevel = params.value("level"_L1).toString();
        finishOperation(
            ticket,
            QJsonObject{
                {"_meta"_L1, QJsonObject{{"sonde/local"_L1, u"2026-07-28 has no logging/setLevel; "
                                                            u"the level is sent in each request's "
                                                            u"_meta"_s}}}},
            {});
        return true;
    }
    if (method == "resources/subscribe"_L1 || method == "resources/unsubscribe"_L1) {
        // subscriptions/listen replaces them: the stream is opened again with the new set.
        const QString uri = params.value("uri"_L1).toString();
        if (method == "resources/subscribe"_L1)
            m_resourceSubscriptions.insert(uri);
        else
            m_resourceSubscriptions.remove(uri);
        closeListen();
        openListen();
        finishOperation(ticket, QJsonObject{{"subscriptions"_L1, m_listen.toJson()}}, {});
        return true;
    }
    if (method == "ping"_L1) {
        // No ping in this revision: server/discover is the cheapest request that proves the
        // server answers (keepalive, the check after a timed-out write).
        ++it->outcome.attempts;
        const QJsonValue id =
            sendRequest(u"server/discover"_s, {}, it->request.timeoutMs, {},
                        [this, ticket](const JsonRpcMessage &, const Error &e) {
                            finishOperation(ticket, e.isError() ? QJsonValue() : QJsonObject{}, e);
                        });
        m_ticketRequestId.insert(ticket, id);
        return true;
    }
    return false;
}

void ServerSession::openListen()
{
    if (!isModern() || m_state != SessionSnapshot::State::Ready || !m_transport)
        return;
    const QJsonObject filter =
        ListenSubscription::filterFor(m_serverCapabilities, m_resourceSubscriptions);
    if (filter.isEmpty()) {
        m_listen.reset();
        return;
    }
    // Not a pending request: it has no deadline and its answer only ever ends it.
    const QJsonValue id = QJsonValue(m_nextId++);
    m_listen.opened(id, filter);
    sendFrame(JsonRpcMessage::request(
        id, u"subscriptions/listen"_s,
        Modern::withRequestMeta(QJsonObject{{"notifications"_L1, filter}}, requestContext())));
    Q_EMIT snapshotChanged(snapshot());
}

void ServerSession::closeListen()
{
    const QJsonValue id = m_listen.id();
    if (id.isUndefined())
        return;
    m_listen.reset();
    if (!m_transport)
        return;
    m_transport->abandon(id);
    if (m_config.route == ServerConfig::Route::Stdio)
        sendFrame(JsonRpcMessage::notification(
            u"notifications/cancelled"_s,
            {{"requestId"_L1, id}, {"reason"_L1, u"the subscriptions changed"_s}}));
}

void ServerSession::onListenFailed(const Error &error)
{
    const QJsonValue id = m_listen.id();
    if (error.httpStatus() && *error.httpStatus() >= 400) {
        // Refused, not broken: asking again would be refused again.
        m_listen.ended(ListenSubscription::State::Refused, error.message());
        record(EventKind::ListenEnded,
               {{"id"_L1, id}, {"graceful"_L1, false}, {"reason"_L1, error.message()}});
        Q_EMIT snapshotChanged(snapshot());
        return;
    }
    const int delay = m_listen.dropped(error.message());
    m_listenReopened = true;
    record(EventKind::ListenDropped,
           {{"id"_L1, id}, {"reason"_L1, error.message()}, {"retry_in_ms"_L1, delay}});
    Q_EMIT snapshotChanged(snapshot());
    if (m_state == SessionSnapshot::State::Ready)
        m_listenTimer->start(delay);
}

void ServerSession::onListenAnswered(const JsonRpcMessage &response)
{
    const QJsonValue id = m_listen.id();
    if (response.type() == JsonRpcMessage::Type::ErrorResponse) {
        m_listen.ended(ListenSubscription::State::Refused, response.toError().message());
        record(
            EventKind::ListenEnded,
            {{"id"_L1, id}, {"graceful"_L1, false}, {"reason"_L1, response.toError().message()}});
    } else {
        m_listen.ended(ListenSubscription::State::Ended, u"the server ended it"_s);
        record(EventKind::ListenEnded, {{"id"_L1, id}, {"graceful"_L1, true}});
    }
    Q_EMIT snapshotChanged(snapshot());
}

bool ServerSession::handleSubscriptionNotification(const JsonRpcMessage &message)
{
    const QJsonValue subscription = message.params()
                                        .value("_meta"_L1)
                                        .toObject()
                                        .value(QLatin1StringView(Modern::MetaSubscriptionId));
    if (subscription.isUndefined())
        return false; // request-scoped (progress, log messages): handled as before
    if (!m_listen.isCurrent(subscription)) {
        record(TranscriptEvent::Direction::Violation, message.toCompactJson(),
               u"a notification for subscription %1, which is not open"_s.arg(
                   subscription.isString() ? subscription.toString()
                                           : QString::number(subscription.toInteger())));
        return true;
    }
    if (message.method() == "notifications/subscriptions/acknowledged"_L1) {
        const QJsonObject granted = message.params().value("notifications"_L1).toObject();
        const bool reopened =
            m_listen.state() == ListenSubscription::State::Open && m_listenReopened;
        m_listen.acknowledged(granted);
        record(EventKind::ListenAcknowledged, {{"id"_L1, m_listen.id()},
                                               {"requested"_L1, m_listen.requested()},
                                               {"granted"_L1, granted}});
        if (reopened && m_config.route != ServerConfig::Route::Stdio) {
            // A re-established stream is a new generation on HTTP (docs/recovery.md §8): what
            // was said on the old one may have been missed.
            m_listenReopened = false;
            ++m_generation;
        }
        Q_EMIT snapshotChanged(snapshot());
        Q_EMIT notificationReceived(ServerNotification{m_config.name, m_generation, m_clock.nowMs(),
                                                       message.method(), message.params()});
        return true;
    }
    return false; // list_changed, resources/updated: handled as before
}

bool ServerSession::retryAfterHeaderMismatch(quint64 ticket, const Error &error)
{
    auto it = m_operations.find(ticket);
    if (it == m_operations.end() || !isModern() || it->headersRefreshed ||
        it->request.method != "tools/call"_L1 ||
        Modern::jsonRpcErrorOf(error).value("code"_L1).toInt() != Modern::HeaderMismatch)
        return false;
    // The server refused the request before running it (header validation), so sending it
    // again is safe; the spec asks for exactly this (streamable-http.mdx, "Client Behavior").
    it->headersRefreshed = true;
    auto fetcher =
        std::make_shared<ListFetcher>(u"tools/list"_s, u"tools/list (headers)"_s, QJsonObject{},
                                      true, ListFetcher::Limits{MaxPages, MaxRefreshItems});
    auto page = std::make_shared<std::function<void()>>();
    *page = [this, ticket, fetcher, page] {
        sendRequest(u"tools/list"_s, fetcher->pageParams(), m_config.requestTimeoutMs, {},
                    [this, ticket, fetcher, page](const JsonRpcMessage &r, const Error &e) {
                        if (!e.isError() && fetcher->addPage(r.result().toObject()) ==
                                                ListFetcher::Step::NextPage) {
                            (*page)();
                            return;
                        }
                        // Deferred: this lambda is what `page` holds.
                        QTimer::singleShot(0, this, [page] { *page = nullptr; });
                        if (e.isError()) {
                            finishOperation(ticket, {}, e);
                            return;
                        }
                        m_cache.insert(u"tools/list"_s, acceptTools(fetcher->items()));
                        dispatch(ticket);
                    });
    };
    (*page)();
    return true;
}

// --- The tasks extension (io.modelcontextprotocol/tasks, SEP-2663) ---------------------

static constexpr auto TasksExtension = "io.modelcontextprotocol/tasks";

Modern::RequestContext ServerSession::requestContext()
{
    // What the client says of itself is the same on every request: built once, not per call.
    if (m_requestContext.clientInfo.isEmpty()) {
        m_requestContext.clientCapabilities = modernCapabilities();
        m_requestContext.clientInfo = clientInfo();
    }
    m_requestContext.protocolVersion =
        isModern() ? m_protocolVersion : QString::fromLatin1(Modern::ProtocolVersion);
    m_requestContext.logLevel = m_logLevel;
    return m_requestContext;
}

QJsonObject ServerSession::modernCapabilities() const
{
    // Sonde follows tasks, so it says so on every request; a server may then answer a call
    // with one instead of making it wait (declared only where it is followed: modern).
    QJsonObject caps = m_clientCapabilities;
    QJsonObject extensions = caps.value("extensions"_L1).toObject();
    extensions.insert(QLatin1StringView(TasksExtension), QJsonObject{});
    caps.insert("extensions"_L1, extensions);
    return caps;
}

void ServerSession::followTask(quint64 ticket, const QJsonObject &createTaskResult)
{
    auto it = m_operations.find(ticket);
    QString why;
    std::optional<TaskHandle> task = TaskHandle::from(createTaskResult, &why);
    if (!task) {
        finishOperation(ticket, {}, Error::protocol(u"a malformed task: "_s + why));
        return;
    }
    it->task = std::move(task);
    it->taskStartedMs = m_clock.nowMs();
    QJsonObject details = it->task->toJson();
    details.insert("id"_L1, m_ticketRequestId.value(ticket));
    details.insert("poll_ms"_L1, it->task->nextDelayMs());
    record(EventKind::TaskStatus, details);
    pollTask(ticket); // scheduled: the first tasks/get after pollIntervalMs
}

void ServerSession::pollTask(quint64 ticket)
{
    auto it = m_operations.find(ticket);
    if (it == m_operations.end() || !it->task)
        return;
    ClockTimer *&timer = m_taskTimers[ticket];
    if (!timer) {
        timer = m_clock.createTimer(this);
        connect(timer, &ClockTimer::timeout, this, [this, ticket] {
            auto op = m_operations.find(ticket);
            if (op == m_operations.end() || !op->task)
                return;
            if (ClockTimer *t = m_taskTimers.value(ticket))
                t->stop();
            if (m_clock.nowMs() - op->taskStartedMs > m_config.maxRequestTotalMs) {
                finishOperation(
                    ticket, {},
                    Error::timeout(u"task %1 was still %2 after %3 ms; Sonde stopped polling it"_s
                                       .arg(op->task->taskId(), op->task->status())
                                       .arg(m_config.maxRequestTotalMs)));
                return;
            }
            sendRequest(u"tasks/get"_s, {{"taskId"_L1, op->task->taskId()}},
                        m_config.requestTimeoutMs, {},
                        [this, ticket](const JsonRpcMessage &r, const Error &e) {
                            onTaskAnswer(ticket, r, e);
                        });
        });
    }
    timer->start(it->task->nextDelayMs());
}

void ServerSession::onTaskAnswer(quint64 ticket, const JsonRpcMessage &response, const Error &error)
{
    auto it = m_operations.find(ticket);
    if (it == m_operations.end() || !it->task)
        return;
    if (error.isError()) {
        finishOperation(ticket, {}, error);
        return;
    }
    const TaskHandle::Next next = it->task->update(response.result().toObject());
    if (it->task->statusChanged()) {
        QJsonObject details = it->task->toJson();
        details.insert("id"_L1, m_ticketRequestId.value(ticket));
        record(EventKind::TaskStatus, details);
        // What a front end already shows for a running call: its progress line.
        const QString token = it->request.progressToken();
        if (!token.isEmpty())
            Q_EMIT notificationReceived(ServerNotification{
                m_config.name, m_generation, m_clock.nowMs(), u"notifications/progress"_s,
                QJsonObject{{"progressToken"_L1, token},
                            {"progress"_L1, 0},
                            {"message"_L1,
                             u"task %1: %2%3"_s.arg(it->task->taskId(), it->task->status(),
                                                    it->task->statusMessage().isEmpty()
                                                        ? QString()
                                                        : u" — "_s + it->task->statusMessage())},
                            {"_meta"_L1, QJsonObject{{"sonde/from"_L1, u"tasks/get"_s}}}}});
    }
    switch (next) {
    case TaskHandle::Next::Poll:
        pollTask(ticket);
        return;
    case TaskHandle::Next::Input: {
        QString why;
        it->input = InputRound::from(it->task->inputTask(), &why);
        if (!it->input) {
            finishOperation(ticket, {},
                            Error::protocol(u"a malformed input_required task: "_s + why));
            return;
        }
        ++it->rounds;
        const QList<InputRound::Request> requests = it->input->requests();
        for (const InputRound::Request &r : requests) {
            const QString id = u"task-%1-%2-%3"_s.arg(ticket).arg(it->rounds).arg(r.key);
            m_inputRequests.insert(id, {ticket, r.key});
            Q_EMIT serverRequestReceived(
                ServerRequest{m_config.name, m_generation, QJsonValue(id), r.method, r.params});
        }
        return;
    }
    case TaskHandle::Next::Completed:
        finishOperation(ticket, it->task->result(), {});
        return;
    case TaskHandle::Next::Failed: {
        const QJsonObject e = it->task->error();
        finishOperation(ticket, {},
                        Error::remote(e.value("code"_L1).toInt(JsonRpcCode::InternalError),
                                      u"task %1 failed: %2"_s.arg(it->task->taskId(),
                                                                  e.value("message"_L1).toString()),
                                      e.value("data"_L1)));
        return;
    }
    case TaskHandle::Next::Cancelled:
        finishOperation(ticket, {},
                        Error::cancelled(u"the server cancelled task %1%2"_s.arg(
                            it->task->taskId(), it->task->statusMessage().isEmpty()
                                                    ? QString()
                                                    : u": "_s + it->task->statusMessage())));
        return;
    case TaskHandle::Next::Invalid:
        finishOperation(ticket, {}, Error::protocol(it->task->why()));
        return;
    }
}

void ServerSession::sendTaskUpdate(quint64 ticket)
{
    auto it = m_operations.find(ticket);
    if (it == m_operations.end() || !it->task || !it->input)
        return;
    const QJsonObject params = it->input->retryParams({{"taskId"_L1, it->task->taskId()}});
    it->input.reset();
    sendRequest(u"tasks/update"_s, params, m_config.requestTimeoutMs, {},
                [this, ticket](const JsonRpcMessage &, const Error &e) {
                    if (e.isError()) {
                        finishOperation(ticket, {}, e);
                        return;
                    }
                    pollTask(ticket);
                });
}

void ServerSession::stopTaskTimer(quint64 ticket)
{
    if (ClockTimer *t = m_taskTimers.take(ticket)) {
        t->stop();
        t->deleteLater();
    }
}

} // namespace Sonde
