// SPDX-License-Identifier: MIT
#include "auth/headlessuseragent.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QUrlQuery>

using namespace Qt::StringLiterals;

namespace Sonde {

HeadlessUserAgent::HeadlessUserAgent(QNetworkAccessManager *nam, int timeoutMs, QObject *parent)
    : QObject(parent), m_nam(nam), m_timeoutMs(timeoutMs)
{
}

QUrl HeadlessUserAgent::redirectUri()
{
    // Port 1 (tcpmux) is unassigned in practice; nothing is ever sent there.
    return QUrl(u"http://127.0.0.1:1/callback"_s);
}

AuthorizationUserAgent::Response HeadlessUserAgent::responseFrom(const QUrl &location)
{
    // application/x-www-form-urlencoded: '+' is a space (RFC 9207 §2.4 decodes it so).
    QString query = location.query(QUrl::FullyEncoded);
    query.replace(u'+', "%20"_L1);
    const QUrlQuery q(query);
    const auto value = [&q](const QString &key) {
        return q.queryItemValue(key, QUrl::FullyDecoded);
    };
    Response r;
    r.code = value(u"code"_s);
    r.state = value(u"state"_s);
    r.issPresent = q.hasQueryItem(u"iss"_s);
    r.iss = value(u"iss"_s);
    r.error = value(u"error"_s);
    r.errorDescription = value(u"error_description"_s);
    return r;
}

void HeadlessUserAgent::finish()
{
    // A flow that ended (its timeout) leaves no request behind.
    if (m_reply && !m_reply->isFinished())
        m_reply->abort();
}

void HeadlessUserAgent::prepare(std::function<void(QUrl, QString)> done)
{
    done(redirectUri(), {});
}

void HeadlessUserAgent::authorize(const QUrl &authorizeUrl, std::function<void(Response)> done)
{
    QNetworkRequest request(authorizeUrl);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    request.setTransferTimeout(m_timeoutMs);
    QNetworkReply *reply = m_nam->get(request);
    m_reply = reply;
    connect(reply, &QNetworkReply::finished, this, [reply, done = std::move(done)] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QUrl location =
            reply->url().resolved(QUrl::fromEncoded(reply->rawHeader("Location")));
        Response r;
        if (status < 300 || status > 399 || reply->rawHeader("Location").isEmpty()) {
            r.error = u"agent_error"_s;
            r.errorDescription =
                status == 0
                    ? u"the authorization endpoint did not answer: %1"_s.arg(reply->errorString())
                    : u"the authorization endpoint answered HTTP %1 instead of a redirect"_s.arg(
                          status);
            done(r);
            return;
        }
        const QUrl expected = redirectUri();
        if (location.scheme() != expected.scheme() || location.host() != expected.host() ||
            location.port() != expected.port() || location.path() != expected.path()) {
            r.error = u"agent_error"_s;
            r.errorDescription = u"the authorization endpoint redirected elsewhere than the "
                                 u"redirect URI: %1"_s.arg(location.toString(QUrl::RemoveQuery));
            done(r);
            return;
        }
        done(responseFrom(location));
    });
}

} // namespace Sonde
