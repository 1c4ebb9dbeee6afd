// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace Sonde {

// What a route says of itself (Transport::details()): the session snapshot shows it, and the
// transcript's transport-open and closed events carry it as JSON. Each route fills its own
// members; one left empty is not written, so a member present but empty (a legacy route
// before the server named its endpoint) stays apart from one the route does not have.
// Values only; any thread.
struct TransportDetails
{
    // stdio (StdioTransport): the child process.
    std::optional<QString> program;
    std::optional<qint64> pid;
    std::optional<qint64> uptimeMs;
    std::optional<int> exitCode;
    std::optional<int> exitSignal;

    // HTTP: the route taken (HttpFallbackTransport may end on the legacy one) and why.
    std::optional<ServerConfig::Route> route;
    std::optional<QString> routeReason;
    std::optional<QString> url;
    std::optional<QString> endpoint;      // legacy SSE: where messages are posted
    std::optional<QString> getStream;     // Streamable HTTP: the GET stream, in words
    std::optional<QString> sessionId;     // Streamable HTTP: Mcp-Session-Id
    std::optional<QString> deleteOutcome; // Streamable HTTP: the closing DELETE, in words

    QJsonObject toJson() const;
    // Reads what toJson() wrote (a transcript's transport-open event); a key it does not know,
    // or one of another type, is left out.
    static TransportDetails fromJson(const QJsonObject &json);

    friend bool operator==(const TransportDetails &, const TransportDetails &) = default;
};

} // namespace Sonde
