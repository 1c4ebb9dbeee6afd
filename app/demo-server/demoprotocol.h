// SPDX-License-Identifier: MIT
#pragma once

#include <QLatin1StringView>
#include <QStringList>

#include <optional>

namespace Sonde {

// Which protocol eras the demo server speaks (--era): 2025-11-25 and earlier (initialize,
// sessions), 2026-07-28 (per-request _meta, no session), or both at once, as a dual-era
// server does.
enum class DemoEra
{
    Initialize,
    Rev20260728,
    Both
};

// The demo server's own version lists, kept apart from the client's (core/protocol/mcp.h):
// what the demo speaks must not change when the client learns a new revision.
namespace DemoProtocol {
inline constexpr auto Rev20260728Version = "2026-07-28";
inline constexpr auto LegacyVersion = "2025-11-25";
// The _meta keys of the modern revision (basic/index.mdx, "_meta").
inline constexpr QLatin1StringView ProtocolVersionKey("io.modelcontextprotocol/protocolVersion");
inline constexpr QLatin1StringView
    ClientCapabilitiesKey("io.modelcontextprotocol/clientCapabilities");
inline constexpr QLatin1StringView ClientInfoKey("io.modelcontextprotocol/clientInfo");
inline constexpr QLatin1StringView LogLevelKey("io.modelcontextprotocol/logLevel");
inline constexpr QLatin1StringView ServerInfoKey("io.modelcontextprotocol/serverInfo");
inline constexpr QLatin1StringView SubscriptionIdKey("io.modelcontextprotocol/subscriptionId");

inline constexpr int HeaderMismatch = -32020;
inline constexpr int MissingRequiredClientCapability = -32021;
inline constexpr int UnsupportedProtocolVersion = -32022;
// 2025-11-25's resource-not-found; the modern revision answers -32602 instead.
inline constexpr int LegacyResourceNotFound = -32002;

// The versions initialize accepts (and MCP-Protocol-Version on a legacy session).
QStringList legacyVersions();
// The versions served per request, with _meta.
QStringList rev20260728Versions(DemoEra era);
// What server/discover and -32022 list: newest first.
QStringList supportedVersions(DemoEra era);
std::optional<DemoEra> parseEra(const QString &name);
} // namespace DemoProtocol

} // namespace Sonde
