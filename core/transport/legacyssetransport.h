// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/sseparser.h"
#include "transport/httproute.h"

#include <QJsonValue>
#include <QUrl>

class QNetworkAccessManager;
class QNetworkReply;

namespace Sonde {

// One reply of the legacy route: the stream, or a POST.
struct LegacySseExchange
{
    bool isStream = false; // the GET; otherwise a POST
    QJsonValue requestId;
    bool decided = false; // the headers were read
    bool isSse = false;
    bool abandoned = false;
    SseParser sse;
    HttpExchangeRecord exchange;
    QByteArray body;
};

// The legacy HTTP+SSE route (MCP 2024-11-05): one GET opens an SSE stream whose `endpoint`
// event names where to POST (same origin only, since every configured header goes with each
// POST); every answer comes on that stream, and each POST gets 202. Frames sent before the
// endpoint is known wait for it. The stream ending ends the transport. Thread: the engine's.
// Owned by HttpFallbackTransport, which hands it the network manager.
class LegacySseTransport final : public HttpRoute<LegacySseExchange>
{
    Q_OBJECT
public:
    // `reason` says why this route was chosen (the configuration, or Streamable HTTP
    // refusing initialize); it goes with the "legacy-sse" transcript line.
    LegacySseTransport(const ServerConfig &config, const QString &reason,
                       QObject *parent = nullptr);

    void open() override;
    void send(const QByteArray &frame) override;
    void close() override;
    TransportDetails details() const override;

    bool hasEndpoint() const { return !m_endpoint.isEmpty(); }

    bool answersEachPost() const override { return false; }

private:
    void post(const QByteArray &frame);
    void onReadyRead(QNetworkReply *reply) override;
    bool takeEndpoint(QNetworkReply *reply, const QByteArray &data);
    void onFinished(QNetworkReply *reply) override;

    QString m_reason;
    QUrl m_endpoint;
    QList<QByteArray> m_queue;
};

} // namespace Sonde
