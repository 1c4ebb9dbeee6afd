// SPDX-License-Identifier: MIT
#include "transport/legacyssetransport.h"

#include "transport/httpexchange.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

using namespace Qt::StringLiterals;

namespace Sonde {

static bool sameOrigin(const QUrl &a, const QUrl &b)
{
    return a.scheme().compare(b.scheme(), Qt::CaseInsensitive) == 0 &&
           a.host().compare(b.host(), Qt::CaseInsensitive) == 0 &&
           a.port(a.scheme() == "https"_L1 ? 443 : 80) ==
               b.port(b.scheme() == "https"_L1 ? 443 : 80);
}

LegacySseTransport::LegacySseTransport(const ServerConfig &config, const QString &reason,
                                       QObject *parent)
    : HttpRoute(config, parent), m_reason(reason)
{
}

void LegacySseTransport::open()
{
    Q_ASSERT(m_nam);
    m_open = true;
    Q_EMIT lifecycleEvent(LifecycleDetails::LegacySse{m_reason});
    LegacySseExchange stream;
    stream.isStream = true;
    HttpExchange::logStream("get", m_config.url, m_reason);
    // The 2024-11-05 route carries credentials already held (a token from an earlier flow)
    // but starts no flow: that transport predates MCP's authorization (docs/auth.md).
    QNetworkRequest get =
        HttpExchange::request(m_config.url, HttpExchange::Shape::EventStream, m_config.headers);
    m_gate.apply(get);
    track(m_nam->get(get), std::move(stream));
    Q_EMIT opened();
}

void LegacySseTransport::send(const QByteArray &frame)
{
    if (!isOpen())
        return;
    if (m_endpoint.isEmpty())
        m_queue.append(frame);
    else
        post(frame);
}

void LegacySseTransport::post(const QByteArray &frame)
{
    LegacySseExchange e;
    e.requestId = outgoing(frame).requestId;
    QNetworkRequest r =
        HttpExchange::request(m_endpoint, HttpExchange::Shape::LegacyPost, m_config.headers);
    r.setTransferTimeout(30'000);
    m_gate.apply(r);
    track(HttpExchange::postOnce(m_nam, r, frame), std::move(e), frame);
}

void LegacySseTransport::onReadyRead(QNetworkReply *reply)
{
    auto it = m_replies.find(reply);
    if (it == m_replies.end())
        return;
    LegacySseExchange &x = *it;
    if (!x.decided) {
        x.decided = true;
        x.exchange.answered(reply);
        x.isSse = HttpExchange::isEventStream(reply);
    }
    const QByteArray bytes = reply->readAll();
    x.exchange.received(bytes.size());
    if (!x.isSse) {
        if (x.body.size() + bytes.size() > m_config.maxFrameBytes) {
            const QJsonValue id = x.requestId;
            x.abandoned = true;
            reply->abort(); // may finish (and erase) the exchange at once
            const Error e = HttpExchange::oversizedBody(m_config.maxFrameBytes);
            if (id.isUndefined())
                Q_EMIT frameDropped(e.message());
            else
                Q_EMIT requestFailed(id, e);
            return;
        }
        x.body.append(bytes);
        return;
    }
    const bool isStream = x.isStream;
    const QList<SseEvent> events = x.sse.feed(bytes);
    for (const SseEvent &e : events)
        x.exchange.addSseEvent(e);
    const QString oversized = x.sse.takeOversizedError();
    for (const SseEvent &e : events) {
        if (e.data.isEmpty())
            continue; // a priming event
        if (isStream && e.type == "endpoint"_L1) {
            if (!takeEndpoint(reply, e.data))
                return;
            continue;
        }
        if (e.type != "message"_L1)
            continue;
        if (!m_replies.contains(reply))
            return; // closed while delivering
        Q_EMIT frameReceived(e.data);
    }
    if (oversized.isEmpty())
        return;
    Q_EMIT frameDropped(oversized);
    const auto current = m_replies.find(reply);
    if (current == m_replies.end() || current->requestId.isUndefined())
        return;
    // The event over the limit was most likely what the exchange was waiting for: it is let
    // go (the stream too: what it answered cannot be told), as the route has always done.
    const QJsonValue id = current->requestId;
    current->abandoned = true;
    reply->abort();
    if (!isStream)
        Q_EMIT requestFailed(
            id, Error::protocol(u"%1 (on the stream of this request)"_s.arg(oversized)));
}

bool LegacySseTransport::takeEndpoint(QNetworkReply *reply, const QByteArray &data)
{
    const QUrl endpoint = m_config.url.resolved(QUrl(QString::fromUtf8(data).trimmed()));
    if (!sameOrigin(endpoint, m_config.url)) {
        // Every configured header (Authorization included) goes with each POST: a server must
        // not be able to send them elsewhere (the official SDKs refuse too).
        m_replies[reply].abandoned = true;
        reply->abort();
        finish(Error::protocol(
            u"the legacy SSE endpoint event points to %1, another origin than %2; refused, so "
            u"that this server's credentials are not sent there"_s.arg(
                endpoint.toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery),
                m_config.url.adjusted(QUrl::RemovePath | QUrl::RemoveUserInfo | QUrl::RemoveQuery)
                    .toString())));
        return false;
    }
    m_endpoint = endpoint;
    HttpExchange::logStream("endpoint", m_endpoint, {});
    Q_EMIT lifecycleEvent(LifecycleDetails::LegacyEndpoint{m_endpoint.toString()});
    const QList<QByteArray> queued = std::exchange(m_queue, {});
    for (const QByteArray &f : queued)
        post(f);
    return true;
}

void LegacySseTransport::onFinished(QNetworkReply *reply)
{
    reply->deleteLater();
    auto it = m_replies.find(reply);
    if (it == m_replies.end())
        return;
    LegacySseExchange x = *it;
    m_replies.erase(it);
    if (!x.abandoned && (!x.decided || !x.isSse))
        x.body.append(reply->readAll());
    recordExchange(x, reply, x.isSse ? QByteArray() : x.body);
    if (x.abandoned || m_finished || m_closing)
        return;
    const int status = HttpExchange::status(reply);
    HttpExchange::logAnswered(reply, x.body.size());
    const bool ok2xx = reply->error() == QNetworkReply::NoError && status >= 200 && status < 300;
    if (x.isStream) {
        const QString where = m_config.url.toString();
        HttpExchange::logStream("closed", m_config.url, reply->errorString());
        finish(ok2xx    ? Error::transport(u"the legacy SSE stream %1 ended"_s.arg(where),
                                           Error::Condition::Closed)
               : status ? HttpExchange::httpError(
                              u"GET %1"_s.arg(where), status, x.body, QString(), {},
                              reply->header(QNetworkRequest::ContentTypeHeader).toString())
                        : Error::transport(u"GET %1 failed: %2"_s.arg(where, reply->errorString()),
                                           Error::Condition::Closed));
        return;
    }
    if (ok2xx)
        return;
    const QString where = m_endpoint.toString();
    Error e =
        status
            ? HttpExchange::httpError(u"POST %1"_s.arg(where), status, x.body, QString(), {},
                                      reply->header(QNetworkRequest::ContentTypeHeader).toString())
            : Error::transport(u"POST %1 failed: %2"_s.arg(where, reply->errorString()));
    // Its answer would have come on the stream, so a dropped POST says little; but one
    // refused at connect was never written (docs/recovery.md §1).
    e.setReach(reply->error() == QNetworkReply::ConnectionRefusedError && !x.decided
                   ? Error::Reach::NotWritten
                   : Error::Reach::Written);
    if (x.requestId.isUndefined())
        Q_EMIT frameDropped(e.message());
    else
        Q_EMIT requestFailed(x.requestId, e);
}

void LegacySseTransport::close()
{
    if (m_finished || m_closing)
        return;
    m_closing = true;
    // Every answer comes on the stream, which goes now: nothing is left to wait for.
    abandonAll();
    finish(Error());
}

TransportDetails LegacySseTransport::details() const
{
    TransportDetails d;
    d.route = ServerConfig::Route::LegacySse;
    d.url = m_config.url.toString();
    d.endpoint = m_endpoint.toString();
    return d;
}

} // namespace Sonde
