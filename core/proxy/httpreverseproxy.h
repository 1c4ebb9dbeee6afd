// SPDX-License-Identifier: MIT
#pragma once

#include "proxy/proxyfault.h"

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTcpServer>
#include <QUrl>

class QNetworkAccessManager;

namespace Sonde {

class HttpProxyConnection;
class ProxySession;

// `sonde-cli proxy --listen ADDR:PORT --target URL`, the HTTP half (issue 31): a reverse
// proxy a client's `url` points at, for Streamable HTTP (both revisions) and legacy
// HTTP+SSE. Each client connection gets one upstream connection of its own
// (HttpProxyConnection), so keep-alive and the order of exchanges stay the client's; a body
// is relayed as it comes, an SSE answer event by event. The request target (path and query)
// is kept and only the scheme and authority change, so the client's URL is the target's
// with the proxy's address.
// Trust: it listens on loopback unless allowRemote; it refuses (403) a request whose Origin
// is not a loopback origin (a web page must not drive it) and a peer that is not loopback
// when remote access was not allowed. Headers the client sends (Authorization, cookies,
// Mcp-Session-Id) go upstream unchanged, hop-by-hop ones excepted. Thread: the proxy's.
class HttpReverseProxy : public QObject
{
    Q_OBJECT
public:
    HttpReverseProxy(QUrl target, ProxySession &session, QObject *parent = nullptr);
    ~HttpReverseProxy() override;

    // Listens; false with `error` set when the address is not loopback and remote access was
    // not allowed, or the port is taken.
    bool listen(const QHostAddress &address, quint16 port, bool allowRemote, QString *error);
    quint16 port() const { return m_server.serverPort(); }
    QHostAddress address() const { return m_server.serverAddress(); }
    QUrl target() const { return m_target; }
    // The URL a client uses: the target's path on the proxy's address.
    QUrl clientUrl() const;

    // What the connections share.
    ProxySession &session() { return m_session; }
    bool allowRemote() const { return m_allowRemote; }
    bool isDead(const QByteArray &sessionId) const { return m_dead.contains(sessionId); }
    // A response's Mcp-Session-Id (the client's current session, what expire-session ends).
    void sawSession(const QByteArray &sessionId, const QByteArray &protocolVersion,
                    const QByteArray &authorization);
    // A GET SSE stream opened (or closed) on a connection: where `notify` writes.
    void streamOpened(HttpProxyConnection *connection);
    void streamClosed(HttpProxyConnection *connection);
    qint64 exchanges() const { return m_exchanges; }
    void countExchange() { ++m_exchanges; }

private:
    void accept();
    void act(int id, const ProxyFault &fault);
    void expireSession(int id);

    QUrl m_target;
    ProxySession &m_session;
    QTcpServer m_server;
    bool m_allowRemote = false;
    QSet<QByteArray> m_dead; // session ids expired by the user: 404 from now on
    QByteArray m_sessionId, m_protocolVersion, m_authorization; // the current session's
    QList<QPointer<HttpProxyConnection>> m_streams;             // open GET streams, oldest first
    QNetworkAccessManager *m_nam = nullptr;                     // the DELETE, made when needed
    qint64 m_exchanges = 0;
};

} // namespace Sonde
