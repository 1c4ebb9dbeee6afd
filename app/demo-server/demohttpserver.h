// SPDX-License-Identifier: MIT
#pragma once

#include "demohttpmessage.h"
#include "demoprotocol.h"

#include <QHash>
#include <QHostAddress>
#include <QJsonValue>
#include <QList>
#include <QObject>
#include <QPointer>

#include <memory>

class QTcpServer;
class QTcpSocket;

namespace Sonde {

class Clock;
class DemoAuthServer;
class DemoResourceGuard;
class DemoServer;
class DemoState;
class Rev20260728HttpEndpoint;

// The demo server over Streamable HTTP (MCP 2025-11-25), so the engine's HTTP transport can
// be tested without Node. One DemoServer per session; POST answers JSON when the request is
// answered at once and an SSE stream otherwise; a standalone GET stream; every SSE event
// has an id and is stored, so a stream cut mid-response can be resumed with Last-Event-ID
// (replaying what was missed, then continuing on the new connection); DELETE ends a session;
// an unknown session id gets 404, a missing one 400. Host and Origin are validated against
// the loopback names (DNS rebinding). Plain HTTP/1.1 with keep-alive: a connection carries
// request after request (pipelined ones too) until an answer closes it ("Connection: close",
// an HTTP/1.0 client, an error) or turns it into an SSE stream, which is the rest of it.
// 2026-07-28 POSTs (per-request _meta, or that MCP-Protocol-Version) go to a
// Rev20260728HttpEndpoint instead, sessionless; setEra() restricts the server to one era.
// enableAuthorization() (--auth) makes /mcp a protected resource with the demo's own
// authorization server on the same origin (DemoResourceGuard, DemoAuthServer).
class DemoHttpServer : public QObject
{
    Q_OBJECT
public:
    explicit DemoHttpServer(std::shared_ptr<DemoState> state, QObject *parent = nullptr);
    ~DemoHttpServer() override;
    bool listen(const QHostAddress &address, quint16 port, QString *error);
    quint16 port() const;
    void setEra(DemoEra era);
    void setKeepAliveInterval(int ms);
    // Before listen(): every MCP request needs a bearer token from the demo's authorization
    // server, whose access tokens live `tokenTtlMs` on `clock` (the steady clock if null;
    // a given clock must outlive the server).
    void enableAuthorization(qint64 tokenTtlMs, const Clock *clock = nullptr);
    // http://HOST:PORT/mcp once listening.
    QString endpointUrl() const;
    // Ends the modern subscriptions gracefully, before the process exits.
    void shutdown();

Q_SIGNALS:
    void logLine(const QString &line);

private:
    using Request = DemoHttpRequest;
    struct StoredEvent
    {
        QString stream;
        int seq = 0;
        QByteArray data;
    };
    struct Session
    {
        QString id;
        DemoServer *server = nullptr;
        QHash<QString, QPointer<QTcpSocket>> streams; // stream key -> open connection
        QHash<QString, QString> streamOfRequest;      // request idKey -> stream key
        QHash<QString, int> nextSeq;
        QList<StoredEvent> events; // bounded event store
        int nextPostStream = 1;
        // Frames answered synchronously while a POST is being handled, before we know
        // whether a JSON answer will do.
        QList<QPair<QByteArray, QJsonValue>> *collecting = nullptr;
        bool dropCurrentPost = false; // increment-then-drop: close the POST unanswered
    };

    void onConnection();
    void onReadable(QTcpSocket *socket);
    void handle(QTcpSocket *socket, const Request &r);
    void handlePost(QTcpSocket *socket, const Request &r);
    bool acceptable(QTcpSocket *socket, const Request &r);
    void handleGet(QTcpSocket *socket, const Request &r);
    void route(Session &s, const QByteArray &frame, const QJsonValue &related);
    void writeEvent(Session &s, const QString &stream, const QByteArray &data);
    Session *createSession();
    void endSession(const QString &id);
    // Answers the request being handled; the connection stays open for the next one when
    // the request allowed it (m_keepAlive), and is closed otherwise.
    void reply(QTcpSocket *socket, int status, const QByteArray &body,
               const QByteArray &contentType = "application/json",
               const QList<QPair<QByteArray, QByteArray>> &extra = {});
    void startStream(QTcpSocket *socket, const QString &sessionId);
    void detach(QTcpSocket *socket, bool close);
    bool hostAllowed(const Request &r) const;
    // The authorization server's and the guard's answer, when --auth has one for `r`.
    bool authorizationAnswered(QTcpSocket *socket, const Request &r);
    void startAuthorization();

    std::shared_ptr<DemoState> m_state;
    QTcpServer *m_server = nullptr;
    QHash<QString, Session> m_sessions;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    QTcpSocket *m_keepAlive = nullptr; // the request being handled may keep its connection
    DemoEra m_era = DemoEra::Both;
    Rev20260728HttpEndpoint *m_modern = nullptr;
    qint64 m_tokenTtlMs = 0; // 0: no authorization
    const Clock *m_clock = nullptr;
    std::unique_ptr<Clock> m_ownClock;
    DemoAuthServer *m_authServer = nullptr;
    std::unique_ptr<DemoResourceGuard> m_guard;
};

} // namespace Sonde
