// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QUrl>

#include <functional>

namespace Sonde {

// The browser side of the authorization code grant. The flow asks for a redirect URI first
// (it is registered with the authorization server before the authorize URL exists), then
// hands over the authorize URL and waits for what came back on the redirect.
// Implementations (core/auth): LoopbackUserAgent (a 127.0.0.1 listener that exists only
// during the flow; the front end opens the URL: the window through QDesktopServices, the CLI
// prints it) and HeadlessUserAgent (GETs the authorize URL without a browser and reads the
// redirect's Location: conformance-client, tests, the benchmark).
class AuthorizationUserAgent
{
public:
    struct Response
    {
        QString code;
        QString state;
        QString iss; // RFC 9207; empty when the redirect had none
        bool issPresent = false;
        QString error; // the authorization server's error, or the agent's own (timeout)
        QString errorDescription;
    };

    virtual ~AuthorizationUserAgent() = default;
    // `done` gets the redirect URI to register and put in the authorize URL; empty on failure
    // (with the reason in `error`).
    virtual void prepare(std::function<void(QUrl redirectUri, QString error)> done) = 0;
    // Opens (or follows) `authorizeUrl`; `done` is called exactly once with the redirect's
    // parameters, or an error after the agent's timeout.
    virtual void authorize(const QUrl &authorizeUrl, std::function<void(Response)> done) = 0;
    // Ends the flow's use of the agent: a listener closes here at the latest.
    virtual void finish() = 0;
    // "browser", "no-browser" (URL printed), "headless"
    virtual QString kind() const = 0;
};

} // namespace Sonde
