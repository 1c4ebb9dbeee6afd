// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "transport/forwardingtransport.h"

#include <QJsonValue>

class QNetworkAccessManager;

namespace Sonde {

class HttpAuthorization;
class LegacySseTransport;
class StreamableHttpTransport;

// The transport a session gets for a URL. It tries Streamable HTTP first and falls back to
// the legacy HTTP+SSE transport (2024-11-05) when POSTing initialize answers 400, 404 or 405;
// a configuration that says "sse" goes to legacy directly. It says which route it took and
// why ("route", "route_reason" in details()), and passes everything else to that route.
// When both fail, the error says why for both. Thread: the engine's; owns the route it
// chose (a child) and, without setNetworkManager(), its own network manager.
class HttpFallbackTransport final : public ForwardingTransport
{
    Q_OBJECT
public:
    explicit HttpFallbackTransport(const ServerConfig &config, QObject *parent = nullptr);
    ~HttpFallbackTransport() override;

    // Use this manager (and its connection pool) instead of a private one: a session hands
    // the same manager to each transport it builds, so a reconnect reuses warm connections.
    void setNetworkManager(QNetworkAccessManager *manager) { m_sharedNam = manager; }
    void setAuthorization(HttpAuthorization *authorization) { m_authorization = authorization; }
    void open() override;
    void send(const QByteArray &frame) override;
    TransportDetails details() const override;

private:
    void adopt(Transport *route);
    void onRequestFailed(const QJsonValue &id, const Error &error);
    void onRouteClosed(const Error &reason);
    void fallBack(const Error &why, int status);

    ServerConfig m_config;
    QNetworkAccessManager *m_sharedNam = nullptr;
    HttpAuthorization *m_authorization = nullptr;
    QNetworkAccessManager *m_nam = nullptr;
    Transport *m_route = nullptr;                    // the route in use: m_streamable or m_legacy
    StreamableHttpTransport *m_streamable = nullptr; // while initialize may still fall back
    LegacySseTransport *m_legacy = nullptr;
    QString m_routeReason;
    QJsonValue m_initializeId = QJsonValue(QJsonValue::Undefined); // until initialize is sent
    QByteArray m_initializeFrame;
    Error m_streamableError; // why Streamable HTTP was given up, kept as the fallback's cause
    bool m_opened = false;
};

} // namespace Sonde
