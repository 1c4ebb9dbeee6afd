// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/sseparser.h"
#include "proxy/clientjudge.h"
#include "proxy/httpwire.h"

#include <QByteArray>
#include <QJsonValue>
#include <QList>
#include <QObject>
#include <QPointer>

class QTcpSocket;
class QTimer;

namespace Sonde {

class HttpReverseProxy;

// One client connection through the HTTP reverse proxy and the upstream connection that is
// its own: exchanges one after another, the request's head and body relayed as they come
// (the body in the framing it came in), then the response the same way, an SSE response
// event by event as the server writes them. Nothing is ever sent upstream twice: an upstream
// connection that fails under a request answers the client 502 (or closes its connection,
// when the answer had begun), and the next request opens a fresh one. The faults that act on
// an exchange (drop-connection, cut-stream, status, delay, lose-resume) and the 404 of an
// expired session are applied here; notify writes into this connection's GET stream.
// Bounded: a client or server that does not read makes the other side wait (4 MiB written
// and unread at most), and what is kept of a body for the judge is 4 MiB.
// Thread: the proxy's.
class HttpProxyConnection : public QObject
{
    Q_OBJECT
public:
    HttpProxyConnection(QTcpSocket *client, HttpReverseProxy &proxy);
    ~HttpProxyConnection() override;

    // Writes a server-sent event into this connection's open GET stream at the next event
    // boundary. False when the connection holds no SSE stream.
    bool inject(const QByteArray &event);
    QByteArray streamSessionId() const { return m_ex.sessionId; }

    static constexpr qint64 MaxUnwrittenBytes = 4 * 1024 * 1024;
    static constexpr qsizetype MaxObservedBytes = 4 * 1024 * 1024;
    static constexpr int ConnectTimeoutMs = 10'000;
    // An idle upstream connection older than this is not reused: Node closes idle
    // connections after 5 s, and a request written as it closes would be lost.
    static constexpr qint64 MaxIdleReuseMs = 2'000;

private:
    // What the current exchange is and what the faults made of it.
    struct Exchange
    {
        bool active = false;
        HttpHead request;
        int localStatus = 0; // answered here: 403, 404, or a status fault
        QString localMessage;
        bool holding = false; // a status fault waits for the body to see a request
        QByteArray held;      // the body held meanwhile
        bool headForwarded = false;
        QByteArray observed; // the request body, for the judge
        bool observedAll = true;
        QList<ObservedRequest> requests;
        QByteArray sessionId;
        int dropId = 0;  // drop-connection
        int cutId = 0;   // cut-stream
        int delayId = 0; // delay
        int delayMs = 0;
        bool delayStarted = false;
        // The response.
        bool responseHeadSent = false;
        bool sse = false;
        bool stream = false; // a GET stream registered for notify
        SseParser events{MaxObservedBytes};
        QByteArray responseObserved;
        bool responseObservedAll = true;
        QByteArray tail;      // the last bytes of SSE payload sent: event boundaries
        QByteArray cutBuffer; // cut-stream: payload not yet sent
        QString lastSentEventId;
        QList<QByteArray> injections; // notify events waiting for a boundary
    };

    void readClient();
    void processClient();
    void beginExchange();
    void requestPayload(const QByteArray &payload);
    void requestDone();
    void forwardRequestHead();
    void writeUpstream(const QByteArray &payload);
    void ensureUpstream();
    void readUpstream();
    void processUpstream();
    void responseHead();
    void responsePayload(const QByteArray &payload);
    void responseDone();
    void sendToClient(const QByteArray &payload);
    void cutPayload(const QByteArray &payload);
    void drop(const QString &why);
    void answerLocally(int status, const QString &message,
                       const QList<QPair<QByteArray, QByteArray>> &extra = {});
    void upstreamFailed(const QString &why);
    void upstreamClosed();
    void finishExchange(bool closeClient);
    // Ends both connections; `flushClient`: what was written to the client reaches it first.
    void closeAll(bool flushClient = false);
    QJsonValue requestId() const;
    ObservedRequest firstRequest() const;

    HttpReverseProxy &m_proxy;
    QPointer<QTcpSocket> m_client;
    QPointer<QTcpSocket> m_upstream;
    QTimer *m_connectTimer = nullptr;
    QTimer *m_delayTimer = nullptr;
    HttpMessageReader m_request{HttpMessageReader::Kind::Request};
    HttpMessageReader m_response{HttpMessageReader::Kind::Response};
    QByteArray m_clientIn;
    QByteArray m_upstreamIn;
    Exchange m_ex;
    qint64 m_upstreamIdleSinceMs = -1;
    bool m_closing = false;
};

} // namespace Sonde
