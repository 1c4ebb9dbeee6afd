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

QJsonObject header(const QByteArray &name, const QByteArray &value)
{
    // Filled from a copy of one object with both keys: a third cheaper than building each
    // from an initializer list (one exchange has a dozen headers).
    static const QJsonObject shape{{"name"_L1, QString()}, {"value"_L1, QString()}};
    QJsonObject o = shape;
    o["name"_L1] = QString::fromLatin1(name);
    o["value"_L1] = HttpExchangeRecord::isCredentialHeader(name)
                        ? QString::fromLatin1(Redactor::Mask)
                        : QString::fromUtf8(value);
    return o;
}

// The body as text, cut at the limit (the size says how much there was).
void putBody(QJsonObject &o, QLatin1StringView key, const QByteArray &body)
{
    if (body.isEmpty())
        return;
    o.insert(key, QString::fromUtf8(body.left(HttpExchangeRecord::MaxBodyBytes)));
    if (body.size() > HttpExchangeRecord::MaxBodyBytes)
        o.insert(QString(key + "_truncated_at"_L1), HttpExchangeRecord::MaxBodyBytes);
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
    QJsonArray headers;
    const QList<QByteArray> names = request.rawHeaderList();
    for (const QByteArray &name : names)
        headers.append(header(name, request.rawHeader(name)));
    m_details = {{"method"_L1, operationName(reply)},
                 {"url"_L1, request.url().toString()},
                 {"request_headers"_L1, headers},
                 {"request_bytes"_L1, body.size()}};
    putBody(m_details, "request_body"_L1, body);
}

void HttpExchangeRecord::answered(const QNetworkReply *reply)
{
    if (m_firstByteUs >= 0 || !m_timer.isValid())
        return;
    m_firstByteUs = m_timer.nsecsElapsed() / 1000;
    QJsonArray headers;
    for (const auto &[name, value] : reply->rawHeaderPairs())
        headers.append(header(name, value));
    m_details.insert("status"_L1,
                     reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt());
    m_details.insert(
        "status_text"_L1,
        QString::fromUtf8(
            reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray()));
    m_details.insert("response_headers"_L1, headers);
}

void HttpExchangeRecord::addSseEvent(const SseEvent &event)
{
    if (!m_timer.isValid())
        return;
    if (m_sse.size() >= MaxSseFrames) {
        ++m_sseDropped;
        return;
    }
    QJsonObject frame{{"t_us"_L1, m_timer.nsecsElapsed() / 1000},
                      {"event"_L1, event.type},
                      {"data"_L1, QString::fromUtf8(event.data.left(MaxBodyBytes))}};
    if (!event.id.isEmpty())
        frame.insert("id"_L1, event.id);
    if (event.data.size() > MaxBodyBytes)
        frame.insert("data_truncated_at"_L1, MaxBodyBytes);
    m_sse.append(frame);
}

QJsonObject HttpExchangeRecord::finish(const QNetworkReply *reply, const QByteArray &body)
{
    answered(reply); // a reply with no body (202, an error) has its headers only now
    QJsonObject d = m_details;
    d.insert("first_byte_us"_L1, m_firstByteUs);
    d.insert("total_us"_L1, m_timer.nsecsElapsed() / 1000);
    d.insert("response_bytes"_L1, qMax(m_bytes, qint64(body.size())));
    d.insert("content_type"_L1, reply->header(QNetworkRequest::ContentTypeHeader).toString());
    if (!m_sse.isEmpty() || m_sseDropped > 0) {
        d.insert("sse"_L1, m_sse);
        if (m_sseDropped > 0) {
            d.insert("sse_frames_kept_max"_L1, MaxSseFrames);
            d.insert("sse_frames_dropped"_L1, m_sseDropped);
        }
    } else {
        putBody(d, "response_body"_L1, body);
    }
    if (reply->error() != QNetworkReply::NoError)
        d.insert("error"_L1, reply->errorString());
    return d;
}

} // namespace Sonde
