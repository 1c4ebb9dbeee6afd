// SPDX-License-Identifier: MIT
#include "transport/authorizationgate.h"

#include <QNetworkReply>
#include <QNetworkRequest>

using namespace Qt::StringLiterals;

namespace Sonde {

QByteArray AuthorizationGate::apply(QNetworkRequest &request) const
{
    if (!m_auth)
        return {};
    const QByteArray value = m_auth->header();
    if (!value.isEmpty())
        request.setRawHeader("Authorization", value);
    return value;
}

bool AuthorizationGate::isChallenge(int status, QNetworkReply *reply) const
{
    if (!m_auth || !reply)
        return false;
    if (status == 401)
        return true;
    // A 403 is a refusal authorization can cure only when it says so (RFC 6750 §3.1): any
    // other 403 is the server's final word.
    return status == 403 &&
           reply->rawHeader("WWW-Authenticate").toLower().contains("insufficient_scope");
}

HttpAuthorization::Challenge AuthorizationGate::challengeOf(int status, QNetworkReply *reply,
                                                            const QByteArray &body,
                                                            bool hadCredentials)
{
    HttpAuthorization::Challenge c;
    c.status = status;
    c.body = body.left(4096);
    c.hadCredentials = hadCredentials;
    // Qt joins repeated headers with ", ", which a challenge list allows (RFC 9110 §11.6.1):
    // the parser reads several challenges from one value either way.
    for (const auto &[name, value] : reply->rawHeaderPairs())
        if (name.compare("WWW-Authenticate", Qt::CaseInsensitive) == 0)
            c.wwwAuthenticate.append(value);
    return c;
}

void AuthorizationGate::hold(const HttpAuthorization::Challenge &challenge,
                             const QByteArray &sentWith, const QJsonValue &requestId,
                             std::function<void()> resend, std::function<void(const Error &)> fail)
{
    if (!m_asking && m_auth && !m_auth->header().isEmpty() && m_auth->header() != sentWith) {
        // Sent with credentials that were replaced while it was on its way.
        resend();
        return;
    }
    m_waiting.append({requestId, std::move(resend), std::move(fail)});
    if (m_asking)
        return;
    m_asking = true;
    m_auth->challenged(challenge,
                       [owner = m_owner, this, challenge](HttpAuthorization::Verdict verdict) {
                           if (!owner)
                               return;
                           answer(verdict, challenge);
                       });
}

void AuthorizationGate::answer(const HttpAuthorization::Verdict &verdict,
                               const HttpAuthorization::Challenge &c)
{
    m_asking = false;
    const QList<Held> waiting = std::exchange(m_waiting, {});
    // The request's failure is its refusal at the door; the flow's own failure (a refresh
    // whose connection was refused, say) is the cause, and says nothing of the request's
    // session or whether it was sent (docs/recovery.md §1, §9).
    Error error;
    if (verdict.error.isError()) {
        error = Error(verdict.error.kind(), verdict.error.message());
        error.setCause(verdict.error);
        if (verdict.error.httpStatus())
            error.setHttpStatus(*verdict.error.httpStatus());
    } else if (!verdict.retry) {
        error = Error::transport(u"the server refused the request (HTTP %1) and no credentials "
                                 u"could be obtained"_s.arg(c.status));
    }
    // An authorization failure keeps its HTTP status: recovery reads it (no breaker strike, no
    // session-expiry rule: docs/recovery.md §9).
    if (!verdict.retry && !error.httpStatus())
        error.setHttpStatus(c.status);
    for (const Held &h : waiting) {
        if (verdict.retry)
            h.resend();
        else
            h.fail(error);
    }
}

void AuthorizationGate::forget(const QJsonValue &requestId)
{
    if (requestId.isUndefined())
        return;
    m_waiting.removeIf([&](const Held &h) { return h.requestId == requestId; });
}

} // namespace Sonde
