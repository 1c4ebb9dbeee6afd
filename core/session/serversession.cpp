// SPDX-License-Identifier: MIT
// Over 500 lines, for now: this is one state machine (the handshake, request/response
// pairing, timeouts, the queue of calls waiting for a session, restart and drain), and every
// part reads the same pending table and generation. What had other jobs has left it: the
// wire protocols (core/transport), faults (FaultInjectingTransport), pagination
// (ListFetcher). The next cut, the request table with its timeouts as a class of its own,
// comes with the 2026-07-28 revision, which needs that table without the handshake.
#include "session/serversession.h"

#include "protocol/mcp.h"
#include "transport/faultinjectingtransport.h"
#include "transport/httpfallbacktransport.h"
#include "transport/stdiotransport.h"
#include "util/clock.h"
#include "util/clocktimer.h"
#include "util/logging.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QNetworkAccessManager>
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
    s.restartCount = std::max(0, m_starts - 1);
    s.startedMs = m_readyMs;
    s.lastError = m_lastError;
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
    std::unique_ptr<Transport> route = m_factory(m_config, m_clock);
    if (auto *http = qobject_cast<HttpFallbackTransport *>(route.get())) {
        if (!m_network)
            m_network = new QNetworkAccessManager(this);
        http->setNetworkManager(m_network);
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
            [this](EventKind kind, const QJsonObject &details) {
                record(kind, details);
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
    const QJsonObject params{
        {"protocolVersion"_L1, QString::fromLatin1(Mcp::LatestProtocolVersion)},
        {"capabilities"_L1, m_clientCapabilities},
        {"clientInfo"_L1,
         QJsonObject{{"name"_L1, u"sonde"_s},
                     {"title"_L1, u"Sonde"_s},
                     {"version"_L1, QCoreApplication::applicationVersion().isEmpty()
                                        ? u"0.1.0"_s
                                        : QCoreApplication::applicationVersion()}}}};
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
    if (failure.isError()) {
        Error e = Error::protocol(u"initialize failed: %1"_s.arg(failure.message()));
        e.setCause(failure);
        m_lastError = e;
        record(EventKind::InitializeFailed, e.toJson());
        failAll(e);
        setState(SessionSnapshot::State::Failed);
        if (m_transport)
            m_transport->close();
        return;
    }
    if (m_transport)
        m_transport->setProtocolVersion(m_protocolVersion);
    sendFrame(JsonRpcMessage::notification(u"notifications/initialized"_s));
    ++m_generation;
    m_readyMs = m_clock.nowMs();
    record(EventKind::Ready,
           {{"protocol_version"_L1, m_protocolVersion}, {"server_info"_L1, m_serverInfo}});
    setState(SessionSnapshot::State::Ready);
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
    Transport *old = m_transport;
    if (!old->canDrain())
        return false;
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
        if (e.method == "initialize"_L1) {
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
    if (m_transport)
        return m_transport->injectFault(fault);
    // Between transports only the faults that outlive one can be applied.
    if (const std::optional<Error> e =
            FaultInjectingTransport::applyStanding(*m_standingFaults, fault))
        return *e;
    return Error::transport(u"%1 is not connected"_s.arg(m_config.name),
                            Error::Condition::NotConnected);
}

void ServerSession::onTransportClosed(const Error &reason)
{
    Transport *t = m_transport;
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
    }
    for (const JsonRpcMessage &m : parsed.messages)
        handleMessage(m);
}

void ServerSession::handleMessage(const JsonRpcMessage &message)
{
    if (message.isResponse()) {
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
                    const QJsonArray items = it->items();
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
    sendFrame(JsonRpcMessage::request(id, method, params));
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
    const QJsonValue id = sendRequest(it->request.method, params, it->request.timeoutMs, token,
                                      [this, ticket](const JsonRpcMessage &r, const Error &e) {
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
                        switch (op->list.addPage(r.result().toObject())) {
                        case ListFetcher::Step::NextPage:
                            sendPage(ticket);
                            return;
                        case ListFetcher::Step::Stopped:
                            finishOperation(ticket, {}, op->list.error());
                            return;
                        case ListFetcher::Step::Done:
                            if (op->request.followPages)
                                m_cache.insert(op->request.method, op->list.items());
                            finishOperation(ticket, op->list.result(), {});
                            return;
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
    outcome.requestId = m_ticketRequestId.take(ticket);
    m_waitingForReady.removeAll(ticket);
    outcome.finishedMs = m_clock.nowMs();
    outcome.result = result;
    outcome.error = error;
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
    const QJsonValue id = m_ticketRequestId.value(ticket);
    if (!id.isUndefined() && m_pending.retire(id)) {
        m_handlers.remove(JsonRpcMessage::idKey(id));
        if (m_transport)
            m_transport->abandon(id);
        sendFrame(JsonRpcMessage::notification(u"notifications/cancelled"_s,
                                               {{"requestId"_L1, id}, {"reason"_L1, reason}}));
        armTimer();
    }
    finishOperation(ticket, {}, Error::cancelled(reason));
}

void ServerSession::reply(const ServerReply &reply)
{
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
        if (e.method != "initialize"_L1)
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

} // namespace Sonde
