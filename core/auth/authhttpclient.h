// SPDX-License-Identifier: MIT
#pragma once

#include "transport/httpexchange.h"

#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QUrl>

#include <functional>

class QNetworkAccessManager;

namespace Sonde {

class Clock;

// The HTTP requests of an authorization flow (metadata, registration, token), on QNAM: every
// one with a transfer timeout and a body limit, POSTs through HttpExchange::postOnce so Qt
// never re-sends a grant, no redirect followed for a POST. The answer comes as a value with
// what the flow's AuthStep shows (status, timing) and the body's JSON object when it is one.
// Not QOAuth2AuthorizationCodeFlow: in Qt 6.4 it cannot do client_secret_basic and hides the
// token endpoint's HTTP answer, which each step must show. Engine thread.
class AuthHttpClient
{
public:
    struct Answer
    {
        QUrl url;
        int status = 0; // 0: no HTTP answer (see `error`)
        QByteArray body;
        QByteArray contentType;
        QString error; // transport failure, timeout or body over the limit; empty otherwise
        qint64 startedMs = 0;
        qint64 elapsedMs = 0;
        bool isJsonObject() const;
        QJsonObject json() const;
        // "HTTP 500, text/html: <first 200 characters>": what the URL served instead.
        QString describe() const;
    };
    using Done = std::function<void(Answer)>;

    AuthHttpClient(QNetworkAccessManager *nam, const Clock &clock, int timeoutMs,
                   qsizetype maxBodyBytes = 1 << 20);
    void get(const QUrl &url, QObject *context, Done done) const;
    // `form`: application/x-www-form-urlencoded; `basic`: an Authorization header value.
    void postForm(const QUrl &url, const QByteArray &form, const QByteArray &basic,
                  QObject *context, Done done) const;
    void postJson(const QUrl &url, const QJsonObject &body, QObject *context, Done done) const;

private:
    void send(QNetworkRequest request, const QByteArray *body, QObject *context, Done done) const;

    QNetworkAccessManager *m_nam;
    const Clock &m_clock;
    int m_timeoutMs;
    qsizetype m_maxBodyBytes;
};

} // namespace Sonde
