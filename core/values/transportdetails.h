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
    std::optional<QString> program = std::nullopt;
    std::optional<qint64> pid = std::nullopt;
    std::optional<qint64> uptimeMs = std::nullopt;
    std::optional<int> exitCode = std::nullopt;
    std::optional<int> exitSignal = std::nullopt;

    // HTTP: the route taken (HttpFallbackTransport may end on the legacy one) and why.
    std::optional<ServerConfig::Route> route = std::nullopt;
    std::optional<QString> routeReason = std::nullopt;
    std::optional<QString> url = std::nullopt;
    std::optional<QString> endpoint = std::nullopt;  // legacy SSE: where messages are posted
    std::optional<QString> getStream = std::nullopt; // Streamable HTTP: the GET stream, in words
    std::optional<QString> sessionId = std::nullopt; // Streamable HTTP: Mcp-Session-Id
    // Streamable HTTP: the closing DELETE, in words.
    std::optional<QString> deleteOutcome = std::nullopt;

    QJsonObject toJson() const;
    // Reads what toJson() wrote (a transcript's transport-open event); a key it does not know,
    // or one of another type, is left out.
    static TransportDetails fromJson(const QJsonObject &json);

    friend bool operator==(const TransportDetails &, const TransportDetails &) = default;
};

} // namespace Sonde
