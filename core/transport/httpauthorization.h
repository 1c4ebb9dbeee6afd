// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/error.h"

#include <QByteArray>
#include <QList>

#include <functional>

namespace Sonde {

// What an HTTP route asks of whoever holds a server's credentials (auth/Authorizer). The route
// knows nothing of OAuth: it puts header() on every request, and when a request is refused at
// the door (401, or 403 with an insufficient_scope challenge) it holds the request and asks
// what to do. A request refused at the door was not processed by the server, so sending the
// same frame again after new credentials is safe even for a write (docs/recovery.md §9).
class HttpAuthorization
{
public:
    struct Challenge
    {
        int status = 0;                    // 401 or 403
        QList<QByteArray> wwwAuthenticate; // every WWW-Authenticate header, in order
        QByteArray body;                   // the refusal's body, for the error in words
        bool hadCredentials = false;       // the refused request carried header()
    };
    struct Verdict
    {
        bool retry = false; // new credentials are in place: send the request once more
        Error error;        // !retry: why not (needs_reauth, flow failed), for the caller
    };

    virtual ~HttpAuthorization() = default;
    // The Authorization header value for the next request; empty: send none.
    virtual QByteArray header() const = 0;
    // Called on the route's thread; `done` is called exactly once, now or later, on that thread.
    virtual void challenged(const Challenge &challenge, std::function<void(Verdict)> done) = 0;
};

} // namespace Sonde
