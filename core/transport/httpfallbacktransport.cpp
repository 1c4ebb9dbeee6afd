// SPDX-License-Identifier: MIT
#include "transport/httpfallbacktransport.h"

#include "protocol/jsonrpcmessage.h"
#include "protocol/rev20260728.h"
#include "transport/legacyssetransport.h"
#include "transport/streamablehttptransport.h"

#include <QNetworkAccessManager>

using namespace Qt::StringLiterals;

namespace Sonde {

HttpFallbackTransport::HttpFallbackTransport(const ServerConfig &config, QObject *parent)
    : ForwardingTransport(parent), m_config(config)
{
    if (config.route == ServerConfig::Route::LegacySse) {
        m_routeReason = u"the configuration asks for the legacy SSE transport"_s;
        m_legacy = new LegacySseTransport(config, m_routeReason, this);
        adopt(m_legacy);
    } else {
        m_routeReason = u"configured with a URL; Streamable HTTP tried first"_s;
        m_streamable = new StreamableHttpTransport(config, this);
        adopt(m_streamable);
    }
}

HttpFallbackTransport::~HttpFallbackTransport()
{
    // The route first: it aborts its replies, which belong to the network manager.
    delete next();
}

void HttpFallbackTransport::adopt(Transport *route)
{
    setNext(route);
    connect(route, &Transport::opened, this, [this] {
        // A legacy route that replaces Streamable HTTP opens too; the session opened once.
        if (!std::exchange(m_opened, true))
            Q_EMIT opened();
    });
    connect(route, &Transport::frameReceived, this, &Transport::frameReceived);
    connect(route, &Transport::requestFailed, this, &HttpFallbackTransport::onRequestFailed);
    connect(route, &Transport::closed, this, &HttpFallbackTransport::onRouteClosed);
}

void HttpFallbackTransport::open()
{
    m_nam = m_sharedNam ? m_sharedNam : new QNetworkAccessManager(this);
    m_nam->setRedirectPolicy(QNetworkRequest::NoLessSafeRedirectPolicy);
    if (m_streamable) {
        m_streamable->setNetworkManager(m_nam);
        m_streamable->setAuthorization(m_authorization);
    }
    if (m_legacy) {
        m_legacy->setNetworkManager(m_nam);
        m_legacy->setAuthorization(m_authorization);
    }
    next()->open();
}

void HttpFallbackTransport::send(const QByteArray &frame)
{
    if (m_streamable && m_initializeId.isUndefined() && next()->isOpen()) {
        if (const Outgoing out = outgoing(frame); out.method == "initialize"_L1) {
            m_initializeId = out.requestId;
            m_initializeFrame = frame;
        }
    }
    next()->send(frame);
}

void HttpFallbackTransport::onRequestFailed(const QJsonValue &id, const Error &error)
{
    const int status = error.httpStatus().value_or(0);
    // A modern server refusing the handshake says so in a JSON-RPC body (an unsupported
    // version, a method it does not have): that is its answer, not a sign of the legacy
    // transport (transports/streamable-http.mdx, "Backward Compatibility").
    const int code = Rev20260728::jsonRpcErrorOf(error).value("code"_L1).toInt();
    const bool rev20260728Refusal =
        Rev20260728::isErrorCode(code) || code == JsonRpcCode::MethodNotFound;
    if (m_streamable && !m_initializeId.isUndefined() && id == m_initializeId &&
        !rev20260728Refusal && (status == 400 || status == 404 || status == 405)) {
        fallBack(error, status);
        return;
    }
    Q_EMIT requestFailed(id, error);
}

void HttpFallbackTransport::fallBack(const Error &why, int status)
{
    m_streamableError = why;
    m_routeReason =
        u"POST initialize answered HTTP %1, so the legacy HTTP+SSE transport was tried"_s.arg(
            status);
    // Inside the Streamable route's own reply handling: it goes once that has returned.
    m_streamable->disconnect(this);
    m_streamable->deleteLater();
    m_streamable = nullptr;
    m_legacy = new LegacySseTransport(m_config, m_routeReason, this);
    m_legacy->setNetworkManager(m_nam);
    m_legacy->setAuthorization(m_authorization);
    adopt(m_legacy);
    m_legacy->open();
    m_legacy->send(m_initializeFrame);
}

void HttpFallbackTransport::onRouteClosed(const Error &reason)
{
    if (reason.isError() && m_legacy && !m_legacy->hasEndpoint() && m_streamableError.isError()) {
        // Neither transport works: say why for both.
        Error both = Error::transport(u"%1; the legacy SSE fallback failed too: %2"_s.arg(
            m_streamableError.message(), reason.message()));
        both.setHttpStatus(m_streamableError.httpStatus().value_or(0));
        both.setCause(reason);
        both.addChild(m_streamableError);
        Q_EMIT closed(both);
        return;
    }
    Q_EMIT closed(reason);
}

TransportDetails HttpFallbackTransport::details() const
{
    TransportDetails d = next()->details();
    d.routeReason = m_routeReason;
    return d;
}

} // namespace Sonde
