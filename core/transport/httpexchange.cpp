// SPDX-License-Identifier: MIT
#include "transport/httpexchange.h"

#include "protocol/jsonrpcmessage.h"
#include "protocol/limits.h"
#include "transport/oneshotbody.h"
#include "util/logging.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Sonde {

// An idle pooled connection is dropped after this long instead of Qt's 120 s. Servers close
// idle keep-alive connections on their own timer (Node: 5 s), and a request written onto a
// connection the server is closing at that moment fails with no response byte: since Qt may
// not re-send it (OneShotBody), a write would be reported uncertain though it never ran.
static constexpr int PooledConnectionIdleSeconds = 2;

QNetworkRequest HttpExchange::request(const QUrl &url, Shape shape, const Headers &headers)
{
    QNetworkRequest r(url);
    // In this order: the headers go on the wire as they were set.
    if (shape != Shape::LegacyPost)
        r.setRawHeader("Accept", shape == Shape::EventStream
                                     ? QByteArray("text/event-stream")
                                     : QByteArray("application/json, text/event-stream"));
    if (shape != Shape::EventStream)
        r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    if (shape != Shape::LegacyPost) {
        r.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
        r.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);
    }
    r.setAttribute(QNetworkRequest::ConnectionCacheExpiryTimeoutSecondsAttribute,
                   PooledConnectionIdleSeconds);
    for (const auto &[name, value] : headers)
        r.setRawHeader(name, value);
    return r;
}

QNetworkReply *HttpExchange::postOnce(QNetworkAccessManager *nam, QNetworkRequest request,
                                      const QByteArray &frame)
{
    logSent("POST", request.url(), frame);
    auto *body = new OneShotBody(frame);
    QNetworkReply *reply = nam->post(request, body);
    body->setParent(reply);
    return reply;
}

QString HttpExchange::describeBody(int status, const QString &contentType, const QByteArray &body)
{
    const QByteArray trimmed = body.trimmed();
    if (trimmed.isEmpty())
        return {};
    const bool html =
        contentType.contains("html"_L1, Qt::CaseInsensitive) || trimmed.startsWith('<');
    if (html) {
        // A page (a proxy's 502, a framework's 404, python -m http.server's 501): its text
        // says nothing a user needs on a terminal, what it is does.
        const QString type = contentType.isEmpty() ? u"HTML"_s : contentType.section(u';', 0, 0);
        const QString size = u"%1, %2 bytes"_s.arg(type).arg(body.size());
        if (status >= 502 && status <= 504)
            return size + u": a proxy or gateway answered: is the server behind it up?"_s;
        if (status == 404 || status == 405 || status == 501)
            return size + u": not an MCP endpoint?"_s;
        return size + u" (an error page)"_s;
    }
    // Other text: its first line, as the server wrote it.
    const qsizetype newline = trimmed.indexOf('\n');
    const QByteArray line = (newline < 0 ? trimmed : trimmed.left(newline)).left(200);
    QString first = QString::fromUtf8(line).simplified();
    if (line.size() < trimmed.size())
        first += u"…"_s;
    return first;
}

Error HttpExchange::httpError(const QString &what, int status, const QByteArray &body,
                              const QString &sessionId, const QByteArray &retryAfter,
                              const QString &contentType)
{
    QString message = u"%1 answered HTTP %2"_s.arg(what).arg(status);
    if (const QByteArray wait = retryAfter.trimmed().left(64); !wait.isEmpty()) {
        // Seconds or an HTTP date; either way the user decides when to call again.
        bool seconds = false;
        wait.toInt(&seconds);
        message +=
            u" (retry after %1%2)"_s.arg(QString::fromLatin1(wait), seconds ? u" s"_s : QString());
    }
    std::optional<int> code;
    QJsonValue data;
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    const QJsonObject err = doc.object().value("error"_L1).toObject();
    if (!err.isEmpty()) {
        if (err.value("code"_L1).isDouble())
            code = err.value("code"_L1).toInt();
        message += u": "_s + err.value("message"_L1).toString();
        data = doc.object();
    } else if (const QString said = describeBody(status, contentType, body); !said.isEmpty()) {
        message += u": "_s + said;
    }
    Error e(Error::Kind::Transport, message);
    e.setHttpStatus(status).setSessionId(sessionId);
    if (code)
        e.setJsonRpcCode(*code);
    if (!data.isUndefined())
        e.setData(data);
    return e;
}

Error HttpExchange::notAnAnswer(const QString &what, int status, QNetworkReply *reply,
                                const QByteArray &body)
{
    const QString type = reply->header(QNetworkRequest::ContentTypeHeader).toString();
    const QByteArray trimmed = body.trimmed();
    QString first = QString::fromUtf8(trimmed.left(200)).simplified();
    if (trimmed.size() > 200)
        first += u"…"_s;
    Error e =
        trimmed.isEmpty()
            ? Error::protocol(
                  u"%1 answered HTTP %2 with no body, so the request has no answer"_s.arg(what).arg(
                      status))
            : Error::protocol(
                  u"%1 answered HTTP %2 with Content-Type %3, which is not a JSON-RPC answer to this request: %4"_s
                      .arg(what)
                      .arg(status)
                      .arg(type.isEmpty() ? u"(none)"_s : type, first));
    e.setHttpStatus(status);
    return e;
}

Error HttpExchange::connectionFailure(const QString &what, QNetworkReply *reply, bool answered,
                                      const QString &sessionId)
{
    // Refused or unresolvable: nothing was there. Reset, closed or aborted midway: the
    // connection died under the request. Qt is not allowed to re-send (OneShotBody), so a
    // refused connection is the first connection attempt for this request: the request was
    // never written.
    const QNetworkReply::NetworkError netError = reply->error();
    const bool refused = netError == QNetworkReply::ConnectionRefusedError ||
                         netError == QNetworkReply::HostNotFoundError;
    const bool neverConnected = refused || netError == QNetworkReply::TimeoutError;
    const QString why =
        netError == QNetworkReply::ContentReSendError
            ? u"the connection closed after the request was sent, before any answer"_s
            : reply->errorString();
    Error e = Error::transport(u"%1 failed: %2"_s.arg(what, why),
                               refused && !answered          ? Error::Condition::Refused
                               : neverConnected && !answered ? Error::Condition::NotConnected
                                                             : Error::Condition::Closed);
    e.setSessionId(sessionId);
    // Refused at connect: not a byte went out. Anything else may have reached the server.
    e.setReach(refused && !answered ? Error::Reach::NotWritten : Error::Reach::Written);
    return e;
}

Error HttpExchange::streamEndedUnanswered(const QJsonValue &requestId)
{
    return Error::transport(
        u"the server ended the SSE stream of request %1 before answering it"_s.arg(
            QString::fromUtf8(
                QJsonDocument(QJsonObject{{"id"_L1, requestId}}).toJson(QJsonDocument::Compact))),
        Error::Condition::Closed);
}

QString HttpExchange::deleteOutcome(int status, const QString &errorText)
{
    return status == 405                   ? u"not allowed by the server (HTTP 405)"_s
           : status >= 200 && status < 300 ? u"session terminated (HTTP %1)"_s.arg(status)
           : status                        ? u"HTTP %1"_s.arg(status)
                                           : errorText;
}

Error HttpExchange::oversizedBody(qsizetype maxFrameBytes)
{
    return Error::protocol(
        Limits::oversizedMessage(1, u"a JSON body"_s, u"JSON bodies"_s, maxFrameBytes));
}

int HttpExchange::status(QNetworkReply *reply)
{
    return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
}

bool HttpExchange::isEventStream(QNetworkReply *reply)
{
    const int s = status(reply);
    return s >= 200 && s < 300 &&
           reply->header(QNetworkRequest::ContentTypeHeader)
               .toString()
               .startsWith("text/event-stream"_L1);
}

void HttpExchange::logSent(const char *verb, const QUrl &url, const QByteArray &frame)
{
    if (!lcWire().isDebugEnabled())
        return;
    const auto e = JsonRpcMessage::peekEnvelope(frame);
    const QJsonValue id = e ? e->id : QJsonValue(QJsonValue::Undefined);
    const QString idText = id.isString()   ? u'"' + id.toString() + u'"'
                           : id.isDouble() ? JsonRpcMessage::idText(id)
                                           : u"-"_s;
    qCDebug(lcWire).noquote() << verb << url.toString(QUrl::RemoveUserInfo)
                              << (e && !e->method.isEmpty() ? e->method : u"(response)"_s) << "id"
                              << idText << frame.size() << "bytes";
}

void HttpExchange::logAnswered(QNetworkReply *reply, qint64 bytes)
{
    if (!lcWire().isDebugEnabled())
        return;
    qCDebug(lcWire).noquote() << "answer" << status(reply)
                              << reply->header(QNetworkRequest::ContentTypeHeader).toString()
                              << bytes << "bytes from"
                              << reply->url().toString(QUrl::RemoveUserInfo)
                              << (reply->error() == QNetworkReply::NoError ? QString()
                                                                           : reply->errorString());
}

void HttpExchange::logStream(const char *what, const QUrl &url, const QString &detail)
{
    qCDebug(lcWire).noquote() << "stream" << what << url.toString(QUrl::RemoveUserInfo) << detail;
}

} // namespace Sonde
