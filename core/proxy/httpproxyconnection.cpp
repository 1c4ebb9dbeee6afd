// SPDX-License-Identifier: MIT
#include "proxy/httpproxyconnection.h"

#include "protocol/jsonrpcmessage.h"
#include "proxy/httpreverseproxy.h"
#include "proxy/proxysession.h"
#include "util/clock.h"

#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTimer>
#if QT_CONFIG(ssl)
#include <QSslSocket>
#endif

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
QByteArray reasonFor(int status)
{
    switch (status) {
    case 400:
        return "Bad Request";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    default:
        return "Error";
    }
}

// Origins a browser page on this machine has; anything else is a web page elsewhere.
bool loopbackOrigin(const QByteArray &origin)
{
    const QUrl url(QString::fromLatin1(origin));
    const QString host = url.host();
    return host == "localhost"_L1 || QHostAddress(host).isLoopback(); // 127.0.0.0/8, ::1
}

// Where the SSE payload sent so far ends: at an event boundary (a blank line) or not.
bool atEventBoundary(const QByteArray &tail)
{
    return tail.isEmpty() || tail.endsWith("\n\n") || tail.endsWith("\r\n\r\n") ||
           tail.endsWith("\r\r");
}

// The first complete event block in `buffer`: its length with the blank line, or -1.
qsizetype eventBlockEnd(const QByteArray &buffer)
{
    const qsizetype lf = buffer.indexOf("\n\n");
    const qsizetype crlf = buffer.indexOf("\r\n\r\n");
    if (lf < 0 && crlf < 0)
        return -1;
    if (crlf >= 0 && (lf < 0 || crlf < lf))
        return crlf + 4;
    return lf + 2;
}

// A block's id field and whether it carries data (a priming event has an empty data line).
void scanBlock(const QByteArray &block, QString *id, bool *hasData)
{
    for (QByteArray line : block.split('\n')) {
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.startsWith("id:"))
            *id = QString::fromUtf8(line.mid(3).trimmed());
        else if (line.startsWith("data:") && !line.mid(5).trimmed().isEmpty())
            *hasData = true;
    }
}
} // namespace

HttpProxyConnection::HttpProxyConnection(QTcpSocket *client, HttpReverseProxy &proxy)
    : QObject(&proxy), m_proxy(proxy), m_client(client)
{
    client->setParent(this);
    // Each answer goes out as it is written: with Nagle's algorithm a client that writes
    // several requests before reading waited ~40 ms per batch (sonde-bench-proxy).
    client->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    // What Qt reads ahead of us is bounded too: a client that sends faster than the server
    // takes waits in its own socket.
    client->setReadBufferSize(MaxUnwrittenBytes / 4);
    connect(client, &QTcpSocket::readyRead, this, &HttpProxyConnection::readClient);
    connect(client, &QTcpSocket::bytesWritten, this, [this] {
        if (m_client && m_client->bytesToWrite() < MaxUnwrittenBytes / 4)
            readUpstream();
    });
    connect(client, &QTcpSocket::disconnected, this, [this] { closeAll(); });
    m_delayTimer = new QTimer(this);
    m_delayTimer->setSingleShot(true);
    connect(m_delayTimer, &QTimer::timeout, this, [this] {
        m_ex.delayMs = 0;
        readUpstream();
    });
    QMetaObject::invokeMethod(this, &HttpProxyConnection::readClient, Qt::QueuedConnection);
}

HttpProxyConnection::~HttpProxyConnection() = default;

void HttpProxyConnection::readClient()
{
    if (!m_client)
        return;
    // The request goes upstream no faster than the server takes it.
    if (m_upstream && m_upstream->bytesToWrite() > MaxUnwrittenBytes)
        return;
    m_clientIn += m_client->readAll();
    processClient();
}

void HttpProxyConnection::processClient()
{
    while (!m_closing && !m_clientIn.isEmpty() && !m_request.done()) {
        const HttpMessageReader::Step step = m_request.feed(m_clientIn);
        if (m_request.failed()) {
            answerLocally(m_request.inHead() ? 431 : 400, m_request.error());
            finishExchange(true);
            return;
        }
        if (step.headDone)
            beginExchange();
        if (!step.payload.isEmpty())
            requestPayload(step.payload);
        if (step.messageDone)
            requestDone();
    }
}

void HttpProxyConnection::beginExchange()
{
    m_ex = Exchange();
    m_ex.active = true;
    m_ex.request = m_request.head();
    m_ex.sessionId = m_ex.request.value("mcp-session-id");
    m_proxy.countExchange();
    ProxySession &session = m_proxy.session();

    const QByteArray origin = m_ex.request.value("origin");
    if (!m_proxy.allowRemote() && !m_client->peerAddress().isLoopback()) {
        m_ex.localStatus = 403;
        m_ex.localMessage = u"Forbidden: this proxy serves loopback clients only"_s;
    } else if (!origin.isNull() && !loopbackOrigin(origin)) {
        m_ex.localStatus = 403;
        m_ex.localMessage = u"Forbidden: Origin %1 is not a loopback origin"_s.arg(
            QString::fromLatin1(origin.left(200)));
    } else if (!m_ex.sessionId.isEmpty() && m_proxy.isDead(m_ex.sessionId)) {
        // The SDK servers' answer to a session they do not know, word for word.
        m_ex.localStatus = 404;
        m_ex.localMessage = u"Session not found"_s;
    }
    if (m_ex.localStatus != 0)
        return;

    if (!m_ex.sessionId.isEmpty())
        m_proxy.sawSession(m_ex.sessionId, m_ex.request.value("mcp-protocol-version"),
                           m_ex.request.value("authorization"));
    const QByteArray lastEventId = m_ex.request.value("last-event-id");
    if (m_ex.request.method == "GET" && !lastEventId.isNull()) {
        session.judge().clientResumed(QString::fromUtf8(lastEventId));
        if (const auto f = session.take(ProxyFault::Kind::LoseResume)) {
            m_ex.request.remove("last-event-id");
            ObservedRequest resumed;
            resumed.method = u"GET"_s;
            session.fired(f->first, resumed, QString::fromUtf8(lastEventId),
                          u"sent the client's resumption upstream without Last-Event-ID %1"_s.arg(
                              QString::fromUtf8(lastEventId)));
        }
    }
    if (m_ex.request.method == "POST" && session.armedFor(ProxyFault::Kind::Status)) {
        m_ex.holding = true; // decided when the body shows whether it holds a request
        return;
    }
    forwardRequestHead();
}

void HttpProxyConnection::forwardRequestHead()
{
    HttpHead head = m_ex.request;
    head.removeHopByHop();
    const QUrl target = m_proxy.target();
    const int defaultPort = target.scheme() == "https"_L1 ? 443 : 80;
    head.set("Host", target.port(defaultPort) == defaultPort
                         ? target.host().toUtf8()
                         : (target.host() + u':' + QString::number(target.port())).toUtf8());
    ensureUpstream();
    m_upstream->write(head.serialize());
    m_ex.headForwarded = true;
    m_response.setRequestMethod(m_ex.request.method);
}

void HttpProxyConnection::requestPayload(const QByteArray &payload)
{
    if (m_ex.observedAll) {
        if (m_ex.observed.size() + payload.size() <= MaxObservedBytes)
            m_ex.observed += payload;
        else
            m_ex.observedAll = false;
    }
    if (m_ex.localStatus != 0)
        return;
    if (m_ex.holding) {
        m_ex.held += payload;
        if (m_ex.held.size() <= MaxObservedBytes)
            return;
        // Too large to be a call worth faulting: it goes up as it is.
        m_ex.holding = false;
        forwardRequestHead();
        writeUpstream(std::exchange(m_ex.held, {}));
        return;
    }
    writeUpstream(payload);
}

void HttpProxyConnection::writeUpstream(const QByteArray &payload)
{
    if (!m_upstream || payload.isEmpty())
        return;
    if (m_request.chunked())
        m_upstream->write(QByteArray::number(payload.size(), 16) + "\r\n" + payload + "\r\n");
    else
        m_upstream->write(payload);
}

void HttpProxyConnection::requestDone()
{
    ProxySession &session = m_proxy.session();
    // A refused stranger (403) is no part of the client's session; a request on an expired
    // session is: the judge counts those.
    if (m_ex.request.method == "POST" && m_ex.localStatus != 403 && m_ex.observedAll &&
        !m_ex.observed.isEmpty())
        m_ex.requests = session.clientFrame(m_ex.observed, QString::fromUtf8(m_ex.sessionId));
    m_ex.observed.clear();
    if (m_ex.localStatus != 0) {
        answerLocally(m_ex.localStatus, m_ex.localMessage);
        finishExchange(m_ex.localStatus == 403);
        return;
    }
    if (m_ex.holding) {
        m_ex.holding = false;
        const auto f =
            m_ex.requests.isEmpty() ? std::nullopt : session.take(ProxyFault::Kind::Status);
        if (f) {
            QList<QPair<QByteArray, QByteArray>> extra;
            if (f->second.retryAfterS >= 0)
                extra.append({"Retry-After", QByteArray::number(f->second.retryAfterS)});
            session.fired(
                f->first, firstRequest(), {},
                u"answered %1 with HTTP %2 in the server's place"_s.arg(firstRequest().method)
                    .arg(f->second.status));
            answerLocally(f->second.status,
                          u"%1 (injected by sonde proxy)"_s.arg(
                              QString::fromLatin1(reasonFor(f->second.status))),
                          extra);
            finishExchange(false);
            return;
        }
        forwardRequestHead();
        writeUpstream(std::exchange(m_ex.held, {}));
    }
    if (m_request.chunked() && m_upstream)
        m_upstream->write("0\r\n\r\n");
    if (!m_ex.requests.isEmpty()) {
        if (const auto f = session.take(ProxyFault::Kind::DropConnection))
            m_ex.dropId = f->first;
        if (const auto f = session.take(ProxyFault::Kind::Delay)) {
            m_ex.delayId = f->first;
            m_ex.delayMs = f->second.ms;
        }
    }
}

void HttpProxyConnection::ensureUpstream()
{
    const qint64 now = m_proxy.session().clock().nowMs();
    if (m_upstream && m_upstream->state() != QAbstractSocket::UnconnectedState &&
        (m_upstreamIdleSinceMs < 0 || now - m_upstreamIdleSinceMs <= MaxIdleReuseMs)) {
        m_upstreamIdleSinceMs = -1;
        return;
    }
    if (m_upstream) {
        m_upstream->disconnect(this);
        m_upstream->abort();
        m_upstream->deleteLater();
    }
    m_upstreamIdleSinceMs = -1;
    m_upstreamIn.clear();
    m_response.next();
    const QUrl target = m_proxy.target();
    const bool tls = target.scheme() == "https"_L1;
    QTcpSocket *up = nullptr;
#if QT_CONFIG(ssl)
    if (tls)
        up = new QSslSocket(this);
#endif
    if (!up)
        up = new QTcpSocket(this);
    m_upstream = up;
    up->setReadBufferSize(MaxUnwrittenBytes / 4);
    connect(up, &QTcpSocket::readyRead, this, &HttpProxyConnection::readUpstream);
    connect(up, &QTcpSocket::bytesWritten, this, [this] {
        if (m_upstream && m_upstream->bytesToWrite() < MaxUnwrittenBytes / 4)
            readClient();
    });
    connect(up, &QTcpSocket::disconnected, this, &HttpProxyConnection::upstreamClosed);
    connect(up, &QTcpSocket::errorOccurred, this, [this, up](QAbstractSocket::SocketError e) {
        if (e == QAbstractSocket::RemoteHostClosedError)
            return; // disconnected() follows
        if (up == m_upstream)
            upstreamFailed(up->errorString());
    });
    if (!m_connectTimer) {
        m_connectTimer = new QTimer(this);
        m_connectTimer->setSingleShot(true);
        connect(m_connectTimer, &QTimer::timeout, this, [this] {
            upstreamFailed(
                u"no connection to the server within %1 s"_s.arg(ConnectTimeoutMs / 1000));
        });
    }
    m_connectTimer->start(ConnectTimeoutMs);
    connect(up, &QTcpSocket::connected, m_connectTimer, &QTimer::stop);
    connect(up, &QTcpSocket::connected, up,
            [up] { up->setSocketOption(QAbstractSocket::LowDelayOption, 1); });
    const quint16 port = quint16(target.port(tls ? 443 : 80));
#if QT_CONFIG(ssl)
    if (tls) {
        auto *ssl = static_cast<QSslSocket *>(up);
        connect(ssl, &QSslSocket::encrypted, m_connectTimer, &QTimer::stop);
        ssl->connectToHostEncrypted(target.host(), port);
        return;
    }
#endif
    if (tls) {
        upstreamFailed(u"this Qt has no TLS support for an https target"_s);
        return;
    }
    up->connectToHost(target.host(), port);
}

void HttpProxyConnection::readUpstream()
{
    if (!m_upstream || m_closing)
        return;
    if (m_ex.delayMs > 0) {
        if (!m_ex.delayStarted && m_upstream->bytesAvailable() > 0) {
            m_ex.delayStarted = true;
            m_proxy.session().fired(
                m_ex.delayId, firstRequest(), {},
                u"held the answer to %1 for %2 ms"_s.arg(firstRequest().method).arg(m_ex.delayMs));
            m_delayTimer->start(m_ex.delayMs);
        }
        return;
    }
    // The answer goes to the client no faster than it reads.
    if (m_client && m_client->bytesToWrite() > MaxUnwrittenBytes)
        return;
    m_upstreamIn += m_upstream->readAll();
    processUpstream();
}

void HttpProxyConnection::processUpstream()
{
    while (!m_closing && !m_upstreamIn.isEmpty()) {
        if (!m_ex.active || !m_ex.headForwarded) {
            // Bytes no request asked for: nothing a client could be given.
            m_upstreamIn.clear();
            return;
        }
        const HttpMessageReader::Step step = m_response.feed(m_upstreamIn);
        if (m_response.failed()) {
            upstreamFailed(m_response.error());
            return;
        }
        if (step.headDone)
            responseHead();
        if (!step.payload.isEmpty())
            responsePayload(step.payload);
        if (step.messageDone && !m_closing)
            responseDone();
    }
}

void HttpProxyConnection::responseHead()
{
    const HttpHead &head = m_response.head();
    const QByteArray sid = head.value("mcp-session-id");
    if (!sid.isEmpty())
        m_proxy.sawSession(sid, m_ex.request.value("mcp-protocol-version"),
                           m_ex.request.value("authorization"));
    m_ex.sse = head.status == 200 &&
               head.value("content-type").trimmed().toLower().startsWith("text/event-stream");
    if (m_ex.sse) {
        if (const auto f = m_proxy.session().take(ProxyFault::Kind::CutStream))
            m_ex.cutId = f->first;
    }
    if (m_ex.dropId != 0)
        return; // the client gets nothing of it
    HttpHead out = head;
    out.removeHopByHop();
    if (m_ex.request.wantsClose())
        out.set("Connection", "close");
    m_client->write(out.serialize());
    m_ex.responseHeadSent = true;
    if (m_ex.sse && m_ex.request.method == "GET") {
        m_ex.stream = true;
        m_proxy.streamOpened(this);
    }
}

void HttpProxyConnection::responsePayload(const QByteArray &payload)
{
    ProxySession &session = m_proxy.session();
    bool answered = false; // the dropped request's answer went by
    const QString dropKey = m_ex.dropId ? firstRequest().idKey : QString();
    if (m_ex.sse) {
        for (const SseEvent &e : m_ex.events.feed(payload)) {
            if (e.data.isEmpty())
                continue;
            session.serverFrame(e.data);
            if (!dropKey.isEmpty()) {
                const auto env = JsonRpcMessage::peekEnvelope(e.data);
                answered = answered ||
                           (env && !env->hasMethod && JsonRpcMessage::idKey(env->id) == dropKey);
            }
        }
    } else if (m_ex.responseObservedAll) {
        if (m_ex.responseObserved.size() + payload.size() <= MaxObservedBytes)
            m_ex.responseObserved += payload;
        else
            m_ex.responseObservedAll = false;
    }
    if (m_ex.dropId != 0) {
        if (answered)
            drop(
                u"closed the client's connection before the answer to %1 (the server had answered it)"_s
                    .arg(firstRequest().tool.isEmpty() ? firstRequest().method
                                                       : u"tools/call "_s + firstRequest().tool));
        return;
    }
    if (m_ex.cutId != 0) {
        cutPayload(payload);
        return;
    }
    sendToClient(payload);
}

void HttpProxyConnection::sendToClient(const QByteArray &payload)
{
    if (!m_client || payload.isEmpty())
        return;
    if (m_response.chunked())
        m_client->write(QByteArray::number(payload.size(), 16) + "\r\n" + payload + "\r\n");
    else
        m_client->write(payload);
    if (!m_ex.sse)
        return;
    m_ex.tail = QByteArray(m_ex.tail + payload.right(4)).right(4);
    while (!m_ex.injections.isEmpty() && atEventBoundary(m_ex.tail)) {
        const QByteArray event = m_ex.injections.takeFirst();
        m_ex.tail.clear();
        sendToClient(event);
    }
}

bool HttpProxyConnection::inject(const QByteArray &event)
{
    if (!m_ex.stream || !m_ex.responseHeadSent || m_closing)
        return false;
    if (atEventBoundary(m_ex.tail)) {
        sendToClient(event);
        m_ex.tail = "\n\n";
    } else {
        m_ex.injections.append(event);
    }
    return true;
}

void HttpProxyConnection::cutPayload(const QByteArray &payload)
{
    m_ex.cutBuffer += payload;
    for (qsizetype end = eventBlockEnd(m_ex.cutBuffer); end >= 0;
         end = eventBlockEnd(m_ex.cutBuffer)) {
        const QByteArray block = m_ex.cutBuffer.left(end);
        QString id;
        bool hasData = false;
        scanBlock(block, &id, &hasData);
        if (!hasData) {
            // A priming event or a comment: the client gets it whole, and its id is the
            // point a resumption starts from.
            m_ex.cutBuffer.remove(0, end);
            if (!id.isEmpty())
                m_ex.lastSentEventId = id;
            sendToClient(block);
            continue;
        }
        sendToClient(block.left(block.size() / 2));
        m_proxy.session().fired(m_ex.cutId, firstRequest(), m_ex.lastSentEventId,
                                u"cut the SSE stream in the middle of an event"_s);
        closeAll(true);
        return;
    }
    if (m_ex.cutBuffer.size() > MaxObservedBytes) {
        // An event this large: cut inside it.
        sendToClient(m_ex.cutBuffer.left(m_ex.cutBuffer.size() / 2));
        m_proxy.session().fired(m_ex.cutId, firstRequest(), m_ex.lastSentEventId,
                                u"cut the SSE stream in the middle of an event"_s);
        closeAll(true);
    }
}

void HttpProxyConnection::responseDone()
{
    if (!m_ex.sse && m_ex.responseObservedAll && !m_ex.responseObserved.isEmpty())
        m_proxy.session().serverFrame(m_ex.responseObserved);
    if (m_ex.dropId != 0) {
        drop(
            u"closed the client's connection before the answer to %1"_s.arg(firstRequest().method));
        return;
    }
    if (m_ex.cutId != 0 && !m_ex.cutBuffer.isEmpty()) {
        // The stream ended before an event with data: it ends here all the same.
        sendToClient(std::exchange(m_ex.cutBuffer, {}));
    }
    if (m_response.chunked() && m_client)
        m_client->write("0\r\n\r\n");
    const bool close =
        m_ex.request.wantsClose() || m_response.head().wantsClose() || m_response.toClose();
    if (m_response.head().wantsClose() && m_upstream)
        m_upstream->disconnectFromHost();
    m_upstreamIdleSinceMs = m_proxy.session().clock().nowMs();
    finishExchange(close);
}

void HttpProxyConnection::finishExchange(bool closeClient)
{
    if (m_ex.stream)
        m_proxy.streamClosed(this);
    m_ex = Exchange();
    m_request.next();
    m_response.next();
    if (closeClient) {
        m_closing = true;
        if (m_client)
            m_client->disconnectFromHost();
        if (m_upstream)
            m_upstream->abort();
        return;
    }
    if (!m_clientIn.isEmpty())
        QMetaObject::invokeMethod(this, &HttpProxyConnection::processClient, Qt::QueuedConnection);
    else
        QMetaObject::invokeMethod(this, &HttpProxyConnection::readClient, Qt::QueuedConnection);
}

void HttpProxyConnection::drop(const QString &why)
{
    m_proxy.session().fired(m_ex.dropId, firstRequest(), {}, why);
    closeAll();
}

void HttpProxyConnection::answerLocally(int status, const QString &message,
                                        const QList<QPair<QByteArray, QByteArray>> &extra)
{
    if (!m_client)
        return;
    const QJsonObject error{{u"code"_s, status == 404 ? -32001 : -32000}, {u"message"_s, message}};
    const QByteArray body =
        QJsonDocument(
            QJsonObject{{u"jsonrpc"_s, u"2.0"_s}, {u"error"_s, error}, {u"id"_s, requestId()}})
            .toJson(QJsonDocument::Compact);
    HttpHead head;
    head.status = status;
    head.reason = reasonFor(status);
    head.fields = {{"Content-Type", "application/json"},
                   {"Content-Length", QByteArray::number(body.size())}};
    head.fields += extra;
    m_client->write(head.serialize() + body);
    // The client saw an answer: so does whoever watches (not for a stranger's request).
    if (status != 403)
        m_proxy.session().serverFrame(body);
}

QJsonValue HttpProxyConnection::requestId() const
{
    const QJsonValue id = m_ex.requests.isEmpty() ? QJsonValue() : [this] {
        const auto env =
            JsonRpcMessage::peekEnvelope(m_ex.held.isEmpty() ? QByteArray() : m_ex.held);
        return env ? env->id : QJsonValue();
    }();
    Q_UNUSED(id)
    // The id of the request answered here, parsed again from the ids the judge saw.
    if (m_ex.requests.isEmpty())
        return QJsonValue::Null;
    const QString key = m_ex.requests.first().idKey;
    if (key.startsWith("n:"_L1))
        return QJsonValue(key.mid(2).toDouble());
    if (key.startsWith("s:"_L1))
        return QJsonValue(key.mid(2));
    return QJsonValue::Null;
}

ObservedRequest HttpProxyConnection::firstRequest() const
{
    if (!m_ex.requests.isEmpty())
        return m_ex.requests.first();
    ObservedRequest r;
    r.method = QString::fromLatin1(m_ex.request.method);
    r.sessionId = QString::fromUtf8(m_ex.sessionId);
    return r;
}

void HttpProxyConnection::upstreamFailed(const QString &why)
{
    if (m_closing)
        return;
    if (m_connectTimer)
        m_connectTimer->stop();
    if (!m_ex.active || !m_ex.headForwarded) {
        // Idle: the next request opens a fresh connection.
        if (m_upstream)
            m_upstream->abort();
        return;
    }
    if (m_ex.responseHeadSent || m_ex.dropId != 0) {
        // The answer had begun: the client sees its connection end, as from the server.
        closeAll();
        return;
    }
    // Never sent again: the client decides, as it would with the server itself.
    answerLocally(502, u"Bad Gateway: the proxy lost the server at %1: %2"_s.arg(
                           m_proxy.target().toString(), why));
    finishExchange(true);
}

void HttpProxyConnection::upstreamClosed()
{
    if (m_closing)
        return;
    if (m_ex.active && m_ex.headForwarded && m_response.toClose()) {
        if (m_response.finishAtClose())
            responseDone();
        return;
    }
    if (m_ex.active && m_ex.headForwarded)
        upstreamFailed(u"the server closed the connection before its answer ended"_s);
}

void HttpProxyConnection::closeAll(bool flushClient)
{
    if (m_ex.stream) {
        m_ex.stream = false;
        m_proxy.streamClosed(this);
    }
    m_closing = true;
    if (m_upstream) {
        m_upstream->disconnect(this);
        m_upstream->abort();
    }
    if (m_client) {
        m_client->disconnect(this);
        if (flushClient) {
            // What was written (a cut stream's first half) reaches the client, then the
            // connection ends: the socket goes when it is closed.
            connect(m_client, &QTcpSocket::disconnected, m_client, &QObject::deleteLater);
            m_client->setParent(nullptr);
            QTimer::singleShot(ConnectTimeoutMs, m_client,
                               &QObject::deleteLater); // a peer that never reads
            m_client->disconnectFromHost();
        } else {
            m_client->abort();
        }
    }
    deleteLater();
}

} // namespace Sonde
