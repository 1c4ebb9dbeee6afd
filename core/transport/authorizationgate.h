// SPDX-License-Identifier: MIT
#pragma once

#include "transport/httpauthorization.h"

#include <QJsonValue>
#include <QList>
#include <QPointer>

#include <functional>

class QNetworkReply;
class QNetworkRequest;

namespace Sonde {

// An HTTP route's door to the server's credentials (HttpAuthorization). It puts the
// Authorization header on each request and holds the requests refused at the door (401, or
// 403 insufficient_scope) while the credentials are fixed: the first refusal asks, the ones
// that come in meanwhile wait for the same answer, so one expired token is one refresh, not
// one per request in flight. A request is sent again only when the server refused it before
// processing it, and at most MaxRetries times (a step-up and a refresh), never in a loop.
// Thread: the route's; answers arriving after the route is gone are dropped.
class AuthorizationGate
{
public:
    static constexpr int MaxRetries = 3;

    explicit AuthorizationGate(QObject *owner) : m_owner(owner) {}
    void setAuthorization(HttpAuthorization *authorization) { m_auth = authorization; }
    HttpAuthorization *authorization() const { return m_auth; }

    // Sets Authorization on `request` when credentials are held; returns what it set.
    QByteArray apply(QNetworkRequest &request) const;
    // Whether this answer is a refusal that new credentials may cure.
    bool isChallenge(int status, QNetworkReply *reply) const;
    static HttpAuthorization::Challenge challengeOf(int status, QNetworkReply *reply,
                                                    const QByteArray &body, bool hadCredentials);

    // Holds a refused request. `sentWith` is the Authorization it carried: when the
    // credentials changed since it was sent, it is sent again at once without asking.
    // `resend` runs when new credentials are in place, `fail` with the reason otherwise;
    // exactly one of them, once.
    void hold(const HttpAuthorization::Challenge &challenge, const QByteArray &sentWith,
              const QJsonValue &requestId, std::function<void()> resend,
              std::function<void(const Error &)> fail);
    // The request was abandoned (cancelled, timed out) while held: it is not sent again.
    void forget(const QJsonValue &requestId);
    int held() const { return int(m_waiting.size()); }

private:
    struct Held
    {
        QJsonValue requestId;
        std::function<void()> resend;
        std::function<void(const Error &)> fail;
    };
    void answer(const HttpAuthorization::Verdict &verdict, const HttpAuthorization::Challenge &c);

    QPointer<QObject> m_owner;
    HttpAuthorization *m_auth = nullptr;
    QList<Held> m_waiting;
    bool m_asking = false;
};

} // namespace Sonde
