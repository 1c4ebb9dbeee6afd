// SPDX-License-Identifier: MIT
#pragma once

#include "auth/authorizationuseragent.h"

#include <QObject>
#include <QPointer>

class QNetworkAccessManager;
class QNetworkReply;

namespace Sonde {

// The user agent without a browser (conformance-client, tests, the benchmark): GETs the
// authorize URL with redirects not followed and reads code, state, iss and error from the 30x
// Location. The redirect URI is a fixed loopback URL that nothing listens on: the redirect is
// read, never followed. Engine thread; owned by the Authorizer.
class HeadlessUserAgent final : public QObject, public AuthorizationUserAgent
{
    Q_OBJECT
public:
    explicit HeadlessUserAgent(QNetworkAccessManager *nam, int timeoutMs = 30'000,
                               QObject *parent = nullptr);
    static QUrl redirectUri();
    // The answer carried by a redirect to `redirectUri` (RFC 6749 §4.1.2, RFC 9207).
    static Response responseFrom(const QUrl &location);

    void prepare(std::function<void(QUrl, QString)> done) override;
    void authorize(const QUrl &authorizeUrl, std::function<void(Response)> done) override;
    void finish() override;
    QString kind() const override { return QStringLiteral("headless"); }

private:
    QNetworkAccessManager *m_nam;
    int m_timeoutMs;
    QPointer<QNetworkReply> m_reply;
};

} // namespace Sonde
