// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "protocol/error.h"
#include "values/recoveryvalues.h"
#include "values/sessionvalues.h"
#include "values/transportdetails.h"

#include <QJsonObject>
#include <QMetaType>
#include <QString>

#include <optional>

namespace Sonde {

// An immutable picture of one server's session, emitted whenever it changes. This is what
// crosses from the engine thread to front ends; nothing in it points at a live object.
struct SessionSnapshot
{
    enum class State
    {
        Idle,
        Starting,
        Initializing,
        Ready,
        Closing,
        Closed,
        Failed
    };

    QString server;
    State state = State::Idle;
    // Each established session gets the next generation (1, 2, 3...): recovery later waits
    // for a generation newer than the one a request used, never for "some" session.
    int generation = 0;
    ServerConfig::Route route = ServerConfig::Route::Stdio; // the configured, or the one taken
    QString routeReason;                                    // why this route was chosen
    QString sessionId;                                      // HTTP Mcp-Session-Id; empty for stdio
    QString protocolVersion;
    // The era the connection speaks, Initialize (the handshake, sessions) or Rev20260728; none
    // until it has decided. eraReason says how: configured, or what the probe answered.
    std::optional<ServerConfig::Era> era;
    QString eraReason;
    // What the era makes of the connection, for the front ends to decide on: no session to
    // expire or resume (2026-07-28), and tools' x-mcp-header parameters sent as HTTP headers
    // (2026-07-28 over HTTP).
    bool sessionless = false;
    bool toolHeaders = false;
    // 2026-07-28 only: the subscriptions/listen stream, and the caching hints of the lists and
    // reads (CacheableResult) by method.
    std::optional<ListenStatus> subscriptions;
    CacheHints cacheHints;
    QJsonObject serverInfo;
    QJsonObject serverCapabilities;
    QJsonObject clientCapabilities;
    QString instructions;
    // What the route says of itself (pid, uptime, exit status, GET stream...). Its route,
    // route reason and session id are lifted into the members above.
    TransportDetails transport;
    int restartCount = 0; // spawns or connects after the first
    qint64 startedMs = 0; // when the current generation became ready
    Error lastError;
    // Faults waiting for a request (kill-during-next-call, a delay until cleared...), and the
    // ones a closed connection took with it before they applied, in words.
    QStringList armedFaults;
    QStringList droppedFaults;
    // Recovery state: breaker, reconnect/parking, and the server's history of events. Set by
    // the supervisor's snapshot; a bare session's has none.
    std::optional<RecoveryState> recovery;

    static QString stateName(State state);
    // "initialize" or "2026-07-28" (ServerConfig::eraName); empty until the era is decided.
    QString eraName() const;
    QJsonObject toJson() const;
};

} // namespace Sonde

Q_DECLARE_METATYPE(Sonde::SessionSnapshot)
