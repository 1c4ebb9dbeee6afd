// SPDX-License-Identifier: MIT
#include "auth/authhttpclient.h"

#include "util/clock.h"

#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>

#include <memory>

using namespace Qt::StringLiterals;

namespace Sonde {

bool AuthHttpClient::Answer::isJsonObject() const
{
    return QJsonDocument::fromJson(body).isObject();
}

QJsonObject AuthHttpClient::Answer::json() const
{
    return QJsonDocument::fromJson(body).object();
}

QString AuthHttpClient::Answer::describe() const
{
    if (status == 0)
        return error;
    QString text = QString::fromUtf8(body.left(200)).simplified();
    return u"HTTP %1%2%3"_s.arg(status).arg(
        contentType.isEmpty() ? QString() : u", "_s + QString::fromLatin1(contentType),
        text.isEmpty() ? QString() : u": "_s + text);
}

AuthHttpClient::AuthHttpClient(QNetworkAccessManager *nam, const Clock &clock, int timeoutMs,
                               qsizetype maxBodyBytes)
    : m_nam(nam), m_clock(clock), m_timeoutMs(timeoutMs), m_maxBodyBytes(maxBodyBytes)
{
}

void AuthHttpClient::get(const QUrl &url, QObject *context, Done done) const
{
    QNetworkRequest request(url);
    request.setRawHeader("Accept", "application/json");
    send(request, nullptr, context, std::move(done));
}

void AuthHttpClient::postForm(const QUrl &url, const QByteArray &form, const QByteArray &basic,
                              QObject *context, Done done) const
{
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, "application/x-www-form-urlencoded"_ba);
    request.setRawHeader("Accept", "application/json");
    if (!basic.isEmpty())
        request.setRawHeader("Authorization", basic);
    send(request, &form, context, std::move(done));
}

void AuthHttpClient::postJson(const QUrl &url, const QJsonObject &body, QObject *context,
                              Done done) const
{
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json"_ba);
    request.setRawHeader("Accept", "application/json");
    const QByteArray bytes = QJsonDocument(body).toJson(QJsonDocument::Compact);
    send(request, &bytes, context, std::move(done));
}

void AuthHttpClient::send(QNetworkRequest request, const QByteArray *body, QObject *context,
                          Done done) const
{
    request.setTransferTimeout(m_timeoutMs);
    // Metadata GETs may follow a redirect to the same or a safer scheme; a POST never is.
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         body ? QNetworkRequest::ManualRedirectPolicy
                              : QNetworkRequest::NoLessSafeRedirectPolicy);
    auto answer = std::make_shared<Answer>();
    answer->url = request.url();
    answer->startedMs = m_clock.nowMs();
    QNetworkReply *reply =
        body ? HttpExchange::postOnce(m_nam, request, *body) : m_nam->get(request);
    const qsizetype limit = m_maxBodyBytes;
    QObject::connect(reply, &QNetworkReply::readyRead, reply, [reply, answer, limit] {
        answer->body += reply->readAll();
        if (answer->body.size() > limit) {
            answer->error = u"the answer is over %1 bytes"_s.arg(limit);
            reply->abort();
        }
    });
    // The reply goes when it is done, and is aborted when the flow it belongs to goes first.
    QObject::connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
    QObject::connect(context, &QObject::destroyed, reply, &QNetworkReply::abort);
    const Clock *clock = &m_clock;
    QPointer<QObject> guard(context);
    QObject::connect(reply, &QNetworkReply::finished, context,
                     [reply, answer, clock, guard, done = std::move(done)] {
                         if (answer->error.isEmpty())
                             answer->body += reply->readAll();
                         answer->status = HttpExchange::status(reply);
                         answer->contentType =
                             reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
                         answer->elapsedMs = clock->nowMs() - answer->startedMs;
                         if (!answer->error.isEmpty())
                             answer->status = 0;
                         else if (answer->status == 0)
                             answer->error = reply->error() == QNetworkReply::OperationCanceledError
                                                 ? u"no answer within the request timeout"_s
                                                 : reply->errorString();
                         if (guard)
                             done(*answer);
                     });
}

} // namespace Sonde
