// SPDX-License-Identifier: MIT
#include "transport/httpexchangerecord.h"

#include "protocol/sseparser.h"
#include "transcript/redactor.h"

#include <QNetworkReply>
#include <QNetworkRequest>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

// By QNetworkAccessManager::Operation, HeadOperation (1) to DeleteOperation (5).
const char *const OperationNames[] = {"UNKNOWN", "HEAD", "GET", "PUT", "POST", "DELETE"};

QString operationName(const QNetworkReply *reply)
{
    const int op = int(reply->operation());
    if (reply->operation() == QNetworkAccessManager::CustomOperation)
        return QString::fromLatin1(
            reply->request().attribute(QNetworkRequest::CustomVerbAttribute).toByteArray());
    return QString::fromLatin1(
        OperationNames[op >= 0 && op < int(std::size(OperationNames)) ? op : 0]);
}

LifecycleDetails::HttpExchange::Header header(const QByteArray &name, const QByteArray &value)
{
    return {QString::fromLatin1(name), HttpExchangeRecord::isCredentialHeader(name)
                                           ? QString::fromLatin1(Redactor::Mask)
                                           : QString::fromUtf8(value)};
}

// The body as text, cut at the limit (the size says how much there was).
void putBody(std::optional<QString> &text, std::optional<qint64> &truncatedAt,
             const QByteArray &body)
{
    if (body.isEmpty())
        return;
    text = QString::fromUtf8(body.left(HttpExchangeRecord::MaxBodyBytes));
    if (body.size() > HttpExchangeRecord::MaxBodyBytes)
        truncatedAt = HttpExchangeRecord::MaxBodyBytes;
}

} // namespace

bool HttpExchangeRecord::isCredentialHeader(const QByteArray &name)
{
    // The headers every MCP exchange carries are not secrets: said without the name splitting
    // of Redactor::isSecretName, which costed each exchange a fifth of its record.
    static constexpr const char *Plain[] = {
        "accept",           "accept-encoding",   "cache-control", "connection",
        "content-length",   "content-type",      "date",          "host",
        "keep-alive",       "mcp-method",        "mcp-name",      "mcp-protocol-version",
        "server",           "transfer-encoding", "user-agent",    "vary",
        "x-accel-buffering"};
    for (const char *plain : Plain) {
        if (name.compare(QByteArrayView(plain), Qt::CaseInsensitive) == 0)
            return false;
    }
    const QByteArray n = name.toLower();
    if (n == "mcp-session-id")
        return false; // masked (or not) by the export, which knows what the user asked for
    return n == "authorization" || n == "proxy-authorization" || n == "cookie" ||
           n == "set-cookie" || Redactor::isSecretName(QString::fromLatin1(name));
}

void HttpExchangeRecord::begin(const QNetworkReply *reply, const QByteArray &body)
{
    m_timer.start();
    const QNetworkRequest request = reply->request();
    m_details = {.method = operationName(reply),
                 .url = request.url().toString(),
                 .requestBytes = body.size()};
    const QList<QByteArray> names = request.rawHeaderList();
    for (const QByteArray &name : names)
        m_details.requestHeaders.append(header(name, request.rawHeader(name)));
    putBody(m_details.requestBody, m_details.requestBodyTruncatedAt, body);
}

void HttpExchangeRecord::answered(const QNetworkReply *reply)
{
    if (m_details.firstByteUs >= 0 || !m_timer.isValid())
        return;
    m_details.firstByteUs = m_timer.nsecsElapsed() / 1000;
    for (const auto &[name, value] : reply->rawHeaderPairs())
        m_details.responseHeaders.append(header(name, value));
    m_details.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    m_details.statusText = QString::fromUtf8(
        reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray());
}

void HttpExchangeRecord::addSseEvent(const SseEvent &event)
{
    if (!m_timer.isValid())
        return;
    if (m_sse.size() >= MaxSseFrames) {
        ++m_sseDropped;
        return;
    }
    LifecycleDetails::HttpExchange::SseFrame frame{
        .tUs = m_timer.nsecsElapsed() / 1000,
        .event = event.type,
        .data = QString::fromUtf8(event.data.left(MaxBodyBytes))};
    if (!event.id.isEmpty())
        frame.id = event.id;
    if (event.data.size() > MaxBodyBytes)
        frame.dataTruncatedAt = MaxBodyBytes;
    m_sse.append(frame);
}

LifecycleDetails::HttpExchange HttpExchangeRecord::finish(const QNetworkReply *reply,
                                                          const QByteArray &body)
{
    answered(reply); // a reply with no body (202, an error) has its headers only now
    LifecycleDetails::HttpExchange d = m_details;
    d.totalUs = m_timer.nsecsElapsed() / 1000;
    d.responseBytes = qMax(m_bytes, qint64(body.size()));
    d.contentType = reply->header(QNetworkRequest::ContentTypeHeader).toString();
    if (!m_sse.isEmpty() || m_sseDropped > 0) {
        d.sse = m_sse;
        if (m_sseDropped > 0) {
            d.sseFramesKeptMax = MaxSseFrames;
            d.sseFramesDropped = m_sseDropped;
        }
    } else {
        putBody(d.responseBody, d.responseBodyTruncatedAt, body);
    }
    if (reply->error() != QNetworkReply::NoError)
        d.error = reply->errorString();
    return d;
}

} // namespace Sonde
