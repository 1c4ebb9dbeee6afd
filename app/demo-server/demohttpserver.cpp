// SPDX-License-Identifier: MIT
#include "demohttpserver.h"

#include "demoresourceguard.h" // for the destructor
#include "demoserver.h"
#include "protocol/jsonrpcmessage.h"
#include "rev20260728httpendpoint.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QUuid>

using namespace Qt::StringLiterals;

namespace Sonde {

static constexpr qsizetype MaxRequestBytes = 64 * 1024 * 1024;
static constexpr qsizetype MaxStoredEvents = 10'000;
static constexpr int RetryMs = 300;

DemoHttpServer::DemoHttpServer(std::shared_ptr<DemoState> state, QObject *parent)
    : QObject(parent), m_state(std::move(state))
{
    m_server = new QTcpServer(this);
    connect(m_server, &QTcpServer::newConnection, this, &DemoHttpServer::onConnection);
    m_modern = new Rev20260728HttpEndpoint(m_state, this);
    connect(m_modern, &Rev20260728HttpEndpoint::logLine, this, &DemoHttpServer::logLine);
}

DemoHttpServer::~DemoHttpServer() = default;

void DemoHttpServer::setEra(DemoEra era)
{
    m_era = era;
    m_modern->setEra(era);
}

void DemoHttpServer::setKeepAliveInterval(int ms)
{
    m_modern->setKeepAliveInterval(ms);
}

void DemoHttpServer::shutdown()
{
    m_modern->shutdown();
}

bool DemoHttpServer::listen(const QHostAddress &address, quint16 port, QString *error)
{
    if (!m_server->listen(address, port)) {
        *error = m_server->errorString();
        return false;
    }
    if (m_tokenTtlMs > 0)
        startAuthorization();
    return true;
}

quint16 DemoHttpServer::port() const
{
    return m_server->serverPort();
}

void DemoHttpServer::onConnection()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadable(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            m_buffers.remove(socket);
            socket->deleteLater();
        });
    }
}

void DemoHttpServer::onReadable(QTcpSocket *socket)
{
    // Taken out while requests are handled (handling may add or remove other entries).
    QByteArray buf = m_buffers.take(socket) + socket->readAll();
    // HTTP/1.1 keeps the connection for the next request (a client's pool reuses it), so
    // several requests may arrive on one socket, even pipelined in one read.
    while (!buf.isEmpty()) {
        const qsizetype headerEnd = buf.indexOf("\r\n\r\n");
        if (headerEnd < 0) {
            if (buf.size() > 64 * 1024) {
                m_keepAlive = nullptr;
                reply(socket, 431, R"({"error":"request headers too large"})");
                return;
            }
            m_buffers.insert(socket, buf);
            return;
        }
        Request r;
        const QList<QByteArray> lines = buf.left(headerEnd).split('\n');
        const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
        r.method = first.value(0);
        r.target = first.value(1);
        r.fromLoopback = socket->peerAddress().isLoopback();
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const qsizetype colon = lines[i].indexOf(':');
            if (colon > 0)
                r.headers.insert(lines[i].left(colon).trimmed().toLower(),
                                 lines[i].mid(colon + 1).trimmed());
        }
        const qsizetype length = r.headers.value("content-length", "0").toLongLong();
        if (length < 0 || length > MaxRequestBytes) {
            m_keepAlive = nullptr;
            reply(socket, 413, R"({"error":"request too large"})");
            return;
        }
        if (buf.size() < headerEnd + 4 + length) {
            m_buffers.insert(socket, buf); // the body is still coming
            return;
        }
        r.body = buf.mid(headerEnd + 4, length);
        buf.remove(0, headerEnd + 4 + length);
        const bool keepAlive =
            first.value(2) == "HTTP/1.1" && r.headers.value("connection").toLower() != "close";
        m_keepAlive = keepAlive ? socket : nullptr;
        handle(socket, r);
        // The answer closed the connection or turned it into a stream: nothing more to read.
        if (m_keepAlive != socket)
            return;
        m_keepAlive = nullptr;
    }
}

bool DemoHttpServer::hostAllowed(const Request &r) const
{
    // DNS rebinding protection looks at the name, not the port (a local proxy may sit between).
    auto loopbackName = [](QByteArray hostPort) {
        if (hostPort.startsWith('['))
            return hostPort.startsWith("[::1]");
        const qsizetype colon = hostPort.indexOf(':');
        if (colon >= 0)
            hostPort.truncate(colon);
        return hostPort == "127.0.0.1" || hostPort == "localhost";
    };
    if (!loopbackName(r.headers.value("host")))
        return false;
    const QByteArray origin = r.headers.value("origin");
    return origin.isEmpty() || loopbackName(origin.mid(origin.indexOf("//") + 2));
}

void DemoHttpServer::reply(QTcpSocket *socket, int status, const QByteArray &body,
                           const QByteArray &contentType,
                           const QList<QPair<QByteArray, QByteArray>> &extra)
{
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) +
                      (status < 300    ? " OK"
                       : status == 302 ? " Found"
                                       : " Error") +
                      "\r\n";
    if (!body.isEmpty())
        head += "Content-Type: " + contentType + "\r\n";
    for (const auto &[k, v] : extra)
        head += k + ": " + v + "\r\n";
    const bool keepAlive = socket == m_keepAlive;
    head += "Content-Length: " + QByteArray::number(body.size()) +
            (keepAlive ? "\r\n\r\n" : "\r\nConnection: close\r\n\r\n");
    socket->write(head + body);
    if (!keepAlive)
        detach(socket, true);
}

void DemoHttpServer::startStream(QTcpSocket *socket, const QString &sessionId)
{
    // No length and no chunking: the stream is the rest of the connection.
    socket->write(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
        "Mcp-Session-Id: " +
        sessionId.toUtf8() + "\r\nConnection: close\r\n\r\n");
    detach(socket, false);
}

void DemoHttpServer::detach(QTcpSocket *socket, bool close)
{
    // The connection carries no more requests: stop parsing it, free it when it goes.
    if (m_keepAlive == socket)
        m_keepAlive = nullptr;
    m_buffers.remove(socket);
    socket->disconnect(this, nullptr);
    connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    if (close)
        socket->disconnectFromHost();
}

static QByteArray jsonError(int code, const QString &message)
{
    return QJsonDocument(
               QJsonObject{{"jsonrpc"_L1, "2.0"_L1},
                           {"id"_L1, QJsonValue::Null},
                           {"error"_L1, QJsonObject{{"code"_L1, code}, {"message"_L1, message}}}})
        .toJson(QJsonDocument::Compact);
}

void DemoHttpServer::handle(QTcpSocket *socket, const Request &r)
{
    if (!hostAllowed(r)) {
        reply(socket, 403,
              jsonError(-32000, u"Forbidden: Host or Origin is not a loopback name"_s));
        return;
    }
    if (m_guard && authorizationAnswered(socket, r))
        return;
    if (r.target != "/mcp") {
        reply(socket, 404, jsonError(-32000, u"Not found: the endpoint is /mcp"_s));
        return;
    }
    if (m_era == DemoEra::Rev20260728 && r.method != "POST") {
        // 2026-07-28 has no GET stream and no session to DELETE.
        reply(socket, 405,
              jsonError(-32000, u"Method not allowed: this server speaks only "
                                "2026-07-28, which POSTs every message"_s),
              "application/json", {{"Allow", "POST"}});
        return;
    }
    if (r.method == "POST" && m_modern->accepts(r.headers, r.body)) {
        if (!acceptable(socket, r))
            return;
        m_modern->handlePost(
            socket, r.headers, r.body,
            [this, socket](int status, const QByteArray &body) { reply(socket, status, body); },
            [this, socket] { detach(socket, false); });
        return;
    }
    const QByteArray version = r.headers.value("mcp-protocol-version");
    if (!version.isEmpty() &&
        !DemoProtocol::legacyVersions().contains(QString::fromUtf8(version))) {
        reply(socket, 400, jsonError(-32000, u"Bad Request: unsupported MCP-Protocol-Version"_s));
        return;
    }
    if (r.method == "POST")
        handlePost(socket, r);
    else if (r.method == "GET")
        handleGet(socket, r);
    else if (r.method == "DELETE") {
        const QString id = QString::fromUtf8(r.headers.value("mcp-session-id"));
        if (!m_sessions.contains(id)) {
            reply(socket, id.isEmpty() ? 400 : 404, jsonError(-32000, u"Session not found"_s));
            return;
        }
        endSession(id);
        Q_EMIT logLine(u"demo: session %1 terminated by DELETE"_s.arg(id));
        reply(socket, 200, {});
    } else {
        reply(socket, 405, jsonError(-32000, u"Method not allowed"_s), "application/json",
              {{"Allow", "GET, POST, DELETE"}});
    }
}

DemoHttpServer::Session *DemoHttpServer::createSession()
{
    const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    Session &s = m_sessions[id];
    s.id = id;
    s.server = new DemoServer(m_state, this);
    // Modern requests never reach a session: Rev20260728HttpEndpoint takes them first.
    s.server->setEra(DemoEra::Initialize);
    connect(s.server, &DemoServer::sessionExpiryRequested, this, [this, id] {
        // After the current frame is handled: the session is forgotten, its streams closed.
        QTimer::singleShot(0, this, [this, id] {
            if (m_sessions.contains(id)) {
                endSession(id);
                Q_EMIT logLine(u"demo: session %1 expired on request"_s.arg(id));
            }
        });
    });
    connect(s.server, &DemoServer::connectionDropRequested, this, [this, id] {
        if (auto it = m_sessions.find(id); it != m_sessions.end())
            it->dropCurrentPost = true;
    });
    connect(s.server, &DemoServer::frameReady, this,
            [this, id](const QByteArray &frame, const QJsonValue &related) {
                auto it = m_sessions.find(id);
                if (it != m_sessions.end())
                    route(*it, frame, related);
            });
    connect(s.server, &DemoServer::stderrLine, this, &DemoHttpServer::logLine);
    Q_EMIT logLine(u"demo: session %1 started"_s.arg(id));
    return &s;
}

void DemoHttpServer::endSession(const QString &id)
{
    Session s = m_sessions.take(id);
    for (const QPointer<QTcpSocket> &socket : std::as_const(s.streams))
        if (socket)
            socket->disconnectFromHost();
    s.server->deleteLater();
}

bool DemoHttpServer::acceptable(QTcpSocket *socket, const Request &r)
{
    const QByteArray accept = r.headers.value("accept");
    if (!accept.contains("application/json") || !accept.contains("text/event-stream")) {
        reply(socket, 406,
              jsonError(
                  -32000,
                  u"Not Acceptable: Accept must list application/json and text/event-stream"_s));
        return false;
    }
    if (!r.headers.value("content-type").startsWith("application/json")) {
        reply(
            socket, 415,
            jsonError(-32000, u"Unsupported Media Type: Content-Type must be application/json"_s));
        return false;
    }
    return true;
}

void DemoHttpServer::handlePost(QTcpSocket *socket, const Request &r)
{
    if (!acceptable(socket, r))
        return;
    const JsonRpcMessage::Parsed parsed = JsonRpcMessage::parse(r.body);
    if (parsed.error.isError() && parsed.messages.isEmpty()) {
        reply(socket, 400, jsonError(-32700, u"Parse error: "_s + parsed.error.message()));
        return;
    }
    bool isInitialize = false;
    QList<QJsonValue> requestIds;
    for (const JsonRpcMessage &m : parsed.messages) {
        isInitialize |= m.isRequest() && m.method() == "initialize"_L1;
        if (m.isRequest())
            requestIds.append(m.id());
    }
    Session *s = nullptr;
    const QString sessionId = QString::fromUtf8(r.headers.value("mcp-session-id"));
    if (isInitialize) {
        if (!sessionId.isEmpty()) {
            reply(socket, 400,
                  jsonError(-32600, u"Invalid Request: initialize must not carry a session id"_s));
            return;
        }
        s = createSession();
    } else if (sessionId.isEmpty()) {
        reply(socket, 400, jsonError(-32000, u"Bad Request: No valid session ID provided"_s));
        return;
    } else if (!m_sessions.contains(sessionId)) {
        reply(socket, 404, jsonError(-32001, u"Session not found"_s));
        return;
    } else {
        s = &m_sessions[sessionId];
    }
    const QString id = s->id;

    if (requestIds.isEmpty()) {
        for (const JsonRpcMessage &m : parsed.messages)
            s->server->handleFrame(m.toCompactJson());
        reply(socket, 202, {}, {}, {{"Mcp-Session-Id", id.toUtf8()}});
        return;
    }
    // Serve the requests while collecting what they send at once: a lone immediate answer
    // goes back as JSON, anything more (progress, questions, late answers) as SSE.
    QList<QPair<QByteArray, QJsonValue>> collected;
    const QString stream = u"p%1"_s.arg(s->nextPostStream++);
    for (const QJsonValue &rid : std::as_const(requestIds))
        s->streamOfRequest.insert(JsonRpcMessage::idKey(rid), stream);
    s->collecting = &collected;
    for (const JsonRpcMessage &m : parsed.messages)
        s->server->handleFrame(m.toCompactJson());
    auto it = m_sessions.find(id);
    if (it == m_sessions.end())
        return;
    Session &session = *it;
    session.collecting = nullptr;
    if (std::exchange(session.dropCurrentPost, false)) {
        for (const QJsonValue &rid : std::as_const(requestIds))
            session.streamOfRequest.remove(JsonRpcMessage::idKey(rid));
        m_keepAlive = nullptr; // nothing more is read from this connection
        socket->abort();       // not a byte of response
        return;
    }
    int answered = 0;
    for (const auto &[frame, related] : std::as_const(collected)) {
        const QJsonObject o = QJsonDocument::fromJson(frame).object();
        answered += !o.contains("method"_L1) && requestIds.contains(o.value("id"_L1));
    }
    if (requestIds.size() == 1 && answered == 1 && collected.size() == 1) {
        for (const QJsonValue &rid : std::as_const(requestIds))
            session.streamOfRequest.remove(JsonRpcMessage::idKey(rid));
        reply(socket, 200, collected.first().first, "application/json",
              {{"Mcp-Session-Id", id.toUtf8()}});
        return;
    }
    startStream(socket, id);
    session.streams.insert(stream, socket);
    socket->write("id: " + stream.toUtf8() + "-0\nretry: " + QByteArray::number(RetryMs) +
                  "\ndata: \n\n");
    for (const auto &[frame, related] : std::as_const(collected))
        route(session, frame, related);
}

void DemoHttpServer::handleGet(QTcpSocket *socket, const Request &r)
{
    if (!r.headers.value("accept").contains("text/event-stream")) {
        reply(socket, 406,
              jsonError(-32000, u"Not Acceptable: GET wants Accept: text/event-stream"_s));
        return;
    }
    const QString sessionId = QString::fromUtf8(r.headers.value("mcp-session-id"));
    if (sessionId.isEmpty() || !m_sessions.contains(sessionId)) {
        reply(socket, sessionId.isEmpty() ? 400 : 404, jsonError(-32000, u"Session not found"_s));
        return;
    }
    Session &s = m_sessions[sessionId];
    const QString lastId = QString::fromUtf8(r.headers.value("last-event-id"));
    QString stream = u"g"_s;
    int after = -1;
    if (!lastId.isEmpty()) {
        const qsizetype dash = lastId.lastIndexOf(u'-');
        stream = lastId.left(dash);
        after = lastId.mid(dash + 1).toInt();
        if (dash <= 0 ||
            (!s.nextSeq.contains(stream) && !s.streamOfRequest.values().contains(stream))) {
            reply(socket, 404, jsonError(-32000, u"Unknown Last-Event-ID"_s));
            return;
        }
        Q_EMIT logLine(u"demo: resuming stream %1 after event %2"_s.arg(stream).arg(after));
    } else if (s.streams.value(stream)) {
        reply(socket, 409,
              jsonError(-32000, u"Conflict: only one standalone stream per session"_s));
        return;
    }
    startStream(socket, sessionId);
    s.streams.insert(stream, socket);
    socket->write("id: " + stream.toUtf8() + "-0\nretry: " + QByteArray::number(RetryMs) +
                  "\ndata: \n\n");
    for (const StoredEvent &e : std::as_const(s.events))
        if (e.stream == stream && e.seq > after)
            socket->write("event: message\nid: " + stream.toUtf8() + '-' +
                          QByteArray::number(e.seq) + "\ndata: " + e.data + "\n\n");
}

void DemoHttpServer::route(Session &s, const QByteArray &frame, const QJsonValue &related)
{
    if (s.collecting) {
        s.collecting->append({frame, related});
        return;
    }
    const bool isRelated = !related.isNull() && !related.isUndefined();
    const QString stream =
        isRelated ? s.streamOfRequest.value(JsonRpcMessage::idKey(related), u"g"_s) : u"g"_s;
    writeEvent(s, stream, frame);
    const QJsonObject o = QJsonDocument::fromJson(frame).object();
    if (isRelated && !o.contains("method"_L1) && o.value("id"_L1) == related) {
        // The answer ends the request's stream once no other request shares it.
        s.streamOfRequest.remove(JsonRpcMessage::idKey(related));
        if (!s.streamOfRequest.values().contains(stream) && stream != "g"_L1) {
            if (QTcpSocket *socket = s.streams.take(stream))
                socket->disconnectFromHost();
        }
    }
}

void DemoHttpServer::writeEvent(Session &s, const QString &stream, const QByteArray &data)
{
    const int seq = ++s.nextSeq[stream];
    s.events.append({stream, seq, data});
    if (s.events.size() > MaxStoredEvents)
        s.events.removeFirst();
    if (QTcpSocket *socket = s.streams.value(stream))
        socket->write("event: message\nid: " + stream.toUtf8() + '-' + QByteArray::number(seq) +
                      "\ndata: " + data + "\n\n");
}

} // namespace Sonde
