// SPDX-License-Identifier: MIT
#pragma once

#include "demoprotocol.h"

#include <QByteArray>
#include <QHash>
#include <QJsonValue>
#include <QList>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>

class QTcpSocket;
class QTimer;

namespace Sonde {

class DemoServer;
class DemoState;
class JsonRpcMessage;

// The demo's Streamable HTTP endpoint for 2026-07-28 requests, beside DemoHttpServer's
// sessions: no session id minted or read, no GET, no resumption. One DemoServer serves every
// modern POST (they are stateless, so a toggle-extra-tool by one client is heard by every
// listener). A POST is checked (_meta, then the mirrored headers: -32020 HeaderMismatch,
// HTTP 400) and answered as JSON, or as an SSE stream scoped to the request when it sends
// progress or log notifications first; subscriptions/listen's stream stays open with a
// ':' comment every keep-alive interval. A client closing a stream cancels its request.
// Thread: the server's; owned by DemoHttpServer.
class Rev20260728HttpEndpoint : public QObject
{
    Q_OBJECT
public:
    // Answers the POST with a complete response (status, JSON body or none); the caller
    // keeps or closes the connection by its own rules.
    using Reply = std::function<void(int status, const QByteArray &body)>;
    // The connection is an SSE stream from now on: the caller reads no more requests from it.
    using Detach = std::function<void()>;

    Rev20260728HttpEndpoint(std::shared_ptr<DemoState> state, QObject *parent = nullptr);
    void setEra(DemoEra era);
    void setKeepAliveInterval(int ms);
    // Whether a POST belongs here rather than to a legacy session.
    bool accepts(const QHash<QByteArray, QByteArray> &headers, const QByteArray &body) const;
    void handlePost(QTcpSocket *socket, const QHash<QByteArray, QByteArray> &headers,
                    const QByteArray &body, const Reply &reply, const Detach &detach);
    // Ends every subscription with its graceful result and closes the streams.
    void shutdown();

Q_SIGNALS:
    void logLine(const QString &line);

private:
    void route(const QByteArray &frame, const QJsonValue &related);
    void openStream(QTcpSocket *socket, const QJsonValue &id);
    static int statusFor(const JsonRpcMessage &request, const QByteArray &answer);

    DemoServer *m_server = nullptr;
    QHash<QString, QPointer<QTcpSocket>> m_streams; // our request idKey -> its open SSE stream
    QHash<QString, QJsonValue> m_clientIds;         // our request idKey -> the client's id
    qint64 m_lastInnerId = 0;
    // Frames sent synchronously while a POST is handled, before JSON or SSE is chosen.
    QList<QPair<QByteArray, QJsonValue>> *m_collecting = nullptr;
    bool m_dropCurrentPost = false; // increment-then-drop: close the POST unanswered
    QTimer *m_keepAlive = nullptr;
};

} // namespace Sonde
