// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <functional>

namespace Sonde {

// What a fault needs from an HTTP route and cannot do from outside it: its open replies and
// its session id. Implemented by the HTTP transports, found through Transport::httpControl();
// used by FaultInjectingTransport only. Thread: the transport's.
class HttpControl
{
public:
    virtual ~HttpControl() = default;
    // Replies and streams open now.
    virtual int openExchanges() const = 0;
    // Aborts every open reply and stream, as a broken network would.
    virtual void dropConnections() = 0;
    // Streamable HTTP answers each POST by itself; legacy SSE answers on its one stream.
    virtual bool answersEachPost() const = 0;
    virtual QString url() const = 0;
    // The Streamable HTTP session id; empty where there is none (yet).
    virtual QString sessionId() const { return {}; }
    virtual void setSessionId(const QString &) {}
    // Ends the session on the server (DELETE) while the client keeps its id. `done` gets the
    // status (0: no answer), unless the transport is closed first. False without a session.
    virtual bool endSessionOnServer(std::function<void(int status)>) { return false; }
};

} // namespace Sonde
