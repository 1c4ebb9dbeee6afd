// SPDX-License-Identifier: MIT
#include "rev20260728httpendpoint.h"

#include "demoserver.h"
#include "protocol/jsonrpcmessage.h"
#include "rev20260728headervalidator.h"

#include <QJsonDocument>
#include <QTcpSocket>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

static QByteArray errorFrame(const QJsonValue &id, int code, const QString &message,
                             const QJsonValue &data = {})
{
    return JsonRpcMessage::errorResponse(id, code, message, data).toCompactJson();
}

// What goes out with our id for a request put back to the client's: the response's id and
// a subscription's id in _meta.
static QByteArray toClient(const QByteArray &frame, const QJsonValue &inner,
                           const QJsonValue &client)
{
    const QJsonDocument doc = QJsonDocument::fromJson(frame);
    if (!doc.isObject())
        return frame;
    QJsonObject o = doc.object();
    if (o.value("id"_L1) == inner)
        o.insert("id"_L1, client);
    for (const QLatin1StringView holder : {"params"_L1, "result"_L1}) {
        QJsonObject h = o.value(holder).toObject();
        QJsonObject meta = h.value("_meta"_L1).toObject();
        if (meta.value(DemoProtocol::SubscriptionIdKey) == inner) {
            meta.insert(DemoProtocol::SubscriptionIdKey, client);
            h.insert("_meta"_L1, meta);
            o.insert(holder, h);
        }
    }
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

Rev20260728HttpEndpoint::Rev20260728HttpEndpoint(std::shared_ptr<DemoState> state, QObject *parent)
    : QObject(parent), m_server(new DemoServer(std::move(state), this)),
      m_keepAlive(new QTimer(this))
{
    connect(m_server, &DemoServer::frameReady, this, &Rev20260728HttpEndpoint::route);
    connect(m_server, &DemoServer::stderrLine, this, &Rev20260728HttpEndpoint::logLine);
    // No session to expire: both drops close the request's connection, if it is unanswered.
    connect(m_server, &DemoServer::connectionDropRequested, this,
            [this] { m_dropCurrentPost = true; });
    connect(m_server, &DemoServer::sessionExpiryRequested, this,
            [this] { m_dropCurrentPost = true; });
    connect(m_keepAlive, &QTimer::timeout, this, [this] {
        for (const QPointer<QTcpSocket> &socket : std::as_const(m_streams))
            if (socket)
                socket->write(":\n\n");
    });
    setKeepAliveInterval(15'000);
}

void Rev20260728HttpEndpoint::setEra(DemoEra era)
{
    m_server->setEra(era);
}

void Rev20260728HttpEndpoint::setKeepAliveInterval(int ms)
{
    m_keepAlive->start(ms);
}

bool Rev20260728HttpEndpoint::accepts(const QHash<QByteArray, QByteArray> &headers,
                                      const QByteArray &body) const
{
    const DemoEra era = m_server->era();
    if (era != DemoEra::Both)
        return era == DemoEra::Rev20260728;
    // A modern client's malformed request (no _meta) is still modern: its header says so.
    const QString version = QString::fromUtf8(headers.value("mcp-protocol-version"));
    if (DemoProtocol::rev20260728Versions(era).contains(version))
        return true;
    // A legacy session's POST is not parsed twice: without these words it cannot be modern.
    if (!body.contains("io.modelcontextprotocol/") && !body.contains("server/discover") &&
        !body.contains("subscriptions/listen"))
        return false;
    const JsonRpcMessage::Parsed parsed = JsonRpcMessage::parse(body);
    return parsed.messages.size() == 1 &&
           m_server->validator().isRev20260728(parsed.messages.first());
}

int Rev20260728HttpEndpoint::statusFor(const JsonRpcMessage &request, const QByteArray &answer)
{
    const JsonRpcMessage a = JsonRpcMessage::parse(answer).messages.value(0);
    if (a.type() != JsonRpcMessage::Type::ErrorResponse)
        return 200;
    const int code = a.errorCode();
    if (code == JsonRpcCode::MethodNotFound)
        return 404;
    if (code == DemoProtocol::HeaderMismatch || code == DemoProtocol::UnsupportedProtocolVersion ||
        code == DemoProtocol::MissingRequiredClientCapability ||
        request.method() == "initialize"_L1)
        return 400;
    return 200;
}

void Rev20260728HttpEndpoint::handlePost(QTcpSocket *socket,
                                         const QHash<QByteArray, QByteArray> &headers,
                                         const QByteArray &body, const Reply &reply,
                                         const Detach &detach)
{
    const JsonRpcMessage::Parsed parsed = JsonRpcMessage::parse(body);
    if (parsed.error.isError() && parsed.messages.isEmpty()) {
        reply(400, errorFrame(QJsonValue::Null, JsonRpcCode::ParseError,
                              u"Parse error: "_s + parsed.error.message()));
        return;
    }
    if (parsed.messages.size() != 1 || parsed.messages.first().isResponse()) {
        reply(400, errorFrame(QJsonValue::Null, JsonRpcCode::InvalidRequest,
                              u"Invalid Request: a POST carries one JSON-RPC request or "
                              "notification"_s));
        return;
    }
    const JsonRpcMessage m = parsed.messages.first();
    if (m.isNotification()) {
        m_server->handleFrame(m.toCompactJson());
        reply(202, {});
        return;
    }
    // initialize reaches here only in --era modern, to be refused with the versions we speak.
    if (m.method() != "initialize"_L1) {
        const Rev20260728RequestValidator::Verdict verdict = m_server->validator().validate(m);
        if (!verdict.request) {
            reply(400, errorFrame(m.id(), verdict.code, verdict.message, verdict.data));
            return;
        }
        const QJsonObject tool =
            m.method() == "tools/call"_L1
                ? m_server->toolDefinition(m.params().value("name"_L1).toString())
                : QJsonObject();
        const QString why = Rev20260728HeaderValidator::check(headers, m, tool);
        if (!why.isEmpty()) {
            Q_EMIT logLine(u"demo: refused: "_s + why);
            reply(400, errorFrame(m.id(), DemoProtocol::HeaderMismatch, why));
            return;
        }
    }
    // Clients number their own requests, so two may send the same id at once (two listens
    // with id 1): inside, each POST has an id of ours, and what goes out has the client's.
    const QJsonValue inner = u"http-%1"_s.arg(++m_lastInnerId);
    const QString key = JsonRpcMessage::idKey(inner);
    m_clientIds.insert(key, m.id());
    QList<QPair<QByteArray, QJsonValue>> collected;
    m_collecting = &collected;
    m_dropCurrentPost = false;
    m_server->handleFrame(JsonRpcMessage::request(inner, m.method(), m.params()).toCompactJson());
    m_collecting = nullptr;
    bool answered = false;
    for (const auto &[frame, related] : std::as_const(collected)) {
        const QJsonObject o = QJsonDocument::fromJson(frame).object();
        answered |= !o.contains("method"_L1) && o.value("id"_L1) == inner;
    }
    if (std::exchange(m_dropCurrentPost, false) && !answered) {
        m_clientIds.remove(key);
        detach();
        socket->abort(); // not a byte of response
        return;
    }
    if (answered && collected.size() == 1) {
        m_clientIds.remove(key);
        const QByteArray frame = collected.first().first;
        reply(statusFor(m, frame), toClient(frame, inner, m.id()));
        return;
    }
    detach();
    openStream(socket, inner);
    for (const auto &[frame, related] : std::as_const(collected))
        route(frame, related);
}

void Rev20260728HttpEndpoint::openStream(QTcpSocket *socket, const QJsonValue &id)
{
    // No length and no chunking: the stream is the rest of the connection. No event ids:
    // modern streams are not resumable.
    socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: "
                  "no-cache\r\nX-Accel-Buffering: no\r\nConnection: close\r\n\r\n");
    const QString key = JsonRpcMessage::idKey(id);
    m_streams.insert(key, socket);
    connect(socket, &QTcpSocket::disconnected, this, [this, key, id, socket] {
        // Still registered: the client closed it before the answer. That is cancellation.
        if (m_streams.value(key) != socket)
            return;
        m_streams.remove(key);
        Q_EMIT logLine(u"demo: the client closed the stream of request %1 (%2 here)"_s.arg(
            JsonRpcMessage::idKey(m_clientIds.take(key)), key));
        m_server->cancelRequest(id);
    });
}

void Rev20260728HttpEndpoint::route(const QByteArray &frame, const QJsonValue &related)
{
    if (m_collecting) {
        m_collecting->append({frame, related});
        return;
    }
    const QString key = JsonRpcMessage::idKey(related);
    const QPointer<QTcpSocket> socket = m_streams.value(key);
    if (!socket)
        return; // its stream is gone (cancelled), or it belongs to no request
    socket->write("event: message\ndata: " + toClient(frame, related, m_clientIds.value(key)) +
                  "\n\n");
    const QJsonObject o = QJsonDocument::fromJson(frame).object();
    if (!o.contains("method"_L1) && o.value("id"_L1) == related) {
        // The answer ends the request's stream.
        m_streams.remove(key);
        m_clientIds.remove(key);
        socket->flush();
        socket->disconnectFromHost();
    }
}

void Rev20260728HttpEndpoint::shutdown()
{
    m_server->shutdown();
}

} // namespace Sonde
