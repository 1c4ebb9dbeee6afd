// SPDX-License-Identifier: MIT
#include "proxy/httpreverseproxy.h"

#include "proxy/httpproxyconnection.h"
#include "proxy/proxysession.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTcpSocket>

using namespace Qt::StringLiterals;

namespace Sonde {

HttpReverseProxy::HttpReverseProxy(QUrl target, ProxySession &session, QObject *parent)
    : QObject(parent), m_target(std::move(target)), m_session(session)
{
    connect(&m_server, &QTcpServer::newConnection, this, &HttpReverseProxy::accept);
    connect(&session, &ProxySession::actNow, this, &HttpReverseProxy::act);
}

HttpReverseProxy::~HttpReverseProxy() = default;

bool HttpReverseProxy::listen(const QHostAddress &address, quint16 port, bool allowRemote,
                              QString *error)
{
    if (!address.isLoopback() && !allowRemote) {
        *error = u"--listen %1: not a loopback address; a proxy others can reach needs "
                 "--allow-remote"_s.arg(address.toString());
        return false;
    }
    m_allowRemote = allowRemote;
    if (!m_server.listen(address, port)) {
        *error =
            u"--listen %1:%2: %3"_s.arg(address.toString()).arg(port).arg(m_server.errorString());
        return false;
    }
    return true;
}

QUrl HttpReverseProxy::clientUrl() const
{
    QUrl url = m_target;
    url.setScheme(u"http"_s);
    const QHostAddress a = m_server.serverAddress();
    url.setHost(a == QHostAddress::Any || a == QHostAddress::AnyIPv4 ? u"127.0.0.1"_s
                                                                     : a.toString());
    url.setPort(m_server.serverPort());
    url.setUserInfo({});
    return url;
}

void HttpReverseProxy::accept()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection())
        new HttpProxyConnection(socket, *this);
}

void HttpReverseProxy::sawSession(const QByteArray &sessionId, const QByteArray &protocolVersion,
                                  const QByteArray &authorization)
{
    if (m_dead.contains(sessionId))
        return;
    m_sessionId = sessionId;
    m_session.sessionIdSeen(sessionId);
    if (!protocolVersion.isEmpty())
        m_protocolVersion = protocolVersion;
    // Kept in memory only, for the DELETE that ends an expired session on a protected server.
    if (!authorization.isEmpty())
        m_authorization = authorization;
}

void HttpReverseProxy::streamOpened(HttpProxyConnection *connection)
{
    m_streams.removeAll(nullptr);
    m_streams.append(connection);
}

void HttpReverseProxy::streamClosed(HttpProxyConnection *connection)
{
    m_streams.removeAll(connection);
    m_streams.removeAll(nullptr);
}

void HttpReverseProxy::act(int id, const ProxyFault &fault)
{
    if (fault.kind == ProxyFault::Kind::ExpireSession) {
        expireSession(id);
        return;
    }
    if (fault.kind != ProxyFault::Kind::Notify)
        return;
    const QByteArray json = QJsonDocument(QJsonObject{{u"jsonrpc"_s, u"2.0"_s},
                                                      {u"method"_s, fault.method},
                                                      {u"params"_s, fault.params}})
                                .toJson(QJsonDocument::Compact);
    // The newest stream of the current session: the one its client listens on now.
    for (qsizetype i = m_streams.size() - 1; i >= 0; --i) {
        HttpProxyConnection *c = m_streams.at(i);
        if (!c || (!m_sessionId.isEmpty() && c->streamSessionId() != m_sessionId))
            continue;
        if (c->inject("event: message\ndata: " + json + "\n\n")) {
            m_session.fired(id, {}, {},
                            u"sent %1 through the client's GET stream"_s.arg(fault.method));
            return;
        }
    }
    m_session.failed(id, u"the client has no GET stream open, so no server could notify it "
                         "outside an answer"_s);
}

void HttpReverseProxy::expireSession(int id)
{
    if (m_sessionId.isEmpty()) {
        m_session.failed(id, u"no session to expire: the client has no Mcp-Session-Id yet (or "
                             "the server is sessionless)"_s);
        return;
    }
    const QByteArray sid = std::exchange(m_sessionId, {});
    m_dead.insert(sid);
    // The server's session ends too, so a client that starts a new one gets a real one.
    if (!m_nam)
        m_nam = new QNetworkAccessManager(this);
    QNetworkRequest request(m_target);
    request.setRawHeader("Mcp-Session-Id", sid);
    if (!m_protocolVersion.isEmpty())
        request.setRawHeader("MCP-Protocol-Version", m_protocolVersion);
    if (!m_authorization.isEmpty())
        request.setRawHeader("Authorization", m_authorization);
    request.setTransferTimeout(10'000);
    QNetworkReply *reply = m_nam->deleteResource(request);
    connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
    ObservedRequest dead;
    dead.sessionId = QString::fromUtf8(sid);
    m_session.fired(id, dead, {},
                    u"the client's session answers 404 from now on; DELETE sent to the server"_s);
}

} // namespace Sonde
