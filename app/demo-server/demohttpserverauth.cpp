// SPDX-License-Identifier: MIT
// DemoHttpServer's --auth: the demo's authorization server and the guard at /mcp's door, on
// the origin it listens on. Kept apart from demohttpserver.cpp so no file passes 500 lines.
#include "demoauthserver.h"
#include "demohttpserver.h"
#include "demoresourceguard.h"
#include "util/clock.h"

#include <QTcpServer>

using namespace Qt::StringLiterals;

namespace Sonde {

void DemoHttpServer::enableAuthorization(qint64 tokenTtlMs, const Clock *clock)
{
    m_tokenTtlMs = tokenTtlMs;
    if (!clock) {
        m_ownClock = std::make_unique<SteadyClock>();
        clock = m_ownClock.get();
    }
    m_clock = clock;
}

void DemoHttpServer::startAuthorization()
{
    // The issuer, the resource and every metadata URL are on the origin we listen on.
    const QString endpoint = endpointUrl();
    const QString origin = endpoint.chopped(4); // "/mcp"
    m_authServer = new DemoAuthServer(origin, endpoint, *m_clock, m_tokenTtlMs, this);
    m_guard = std::make_unique<DemoResourceGuard>(origin, u"/mcp"_s, *m_authServer);
}

QString DemoHttpServer::endpointUrl() const
{
    const QHostAddress host = m_server->serverAddress();
    const QString hostText = host.protocol() == QAbstractSocket::IPv6Protocol
                                 ? u"[%1]"_s.arg(host.toString())
                                 : host.toString();
    return u"http://%1:%2/mcp"_s.arg(hostText).arg(m_server->serverPort());
}

bool DemoHttpServer::authorizationAnswered(QTcpSocket *socket, const Request &r)
{
    std::optional<DemoHttpResponse> answer = m_guard->serveMetadata(r);
    if (!answer)
        answer = m_authServer->serve(r);
    // The door: nothing reaches a DemoServer (or changes state) before it is passed.
    if (!answer && r.path() == "/mcp")
        answer = m_guard->refusal(r);
    if (!answer)
        return false;
    if (answer->status >= 400 && answer->status != 401 && answer->status != 403)
        Q_EMIT logLine(u"demo: auth: %1 %2 answered %3: %4"_s
                           .arg(QString::fromUtf8(r.method), QString::fromUtf8(r.path()))
                           .arg(answer->status)
                           .arg(QString::fromUtf8(answer->body)));
    reply(socket, answer->status, answer->body, answer->contentType, answer->headers);
    return true;
}

} // namespace Sonde
