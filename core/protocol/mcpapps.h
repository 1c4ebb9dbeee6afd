// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

namespace Sonde::McpApps {

// The MCP Apps extension (modelcontextprotocol/ext-apps, specification/2026-01-26/apps.mdx).
inline constexpr auto Id = "io.modelcontextprotocol/ui";
inline constexpr auto MimeType = "text/html;profile=mcp-app";
inline constexpr auto ProtocolVersion = "2026-01-26";

// `capabilities` with the extension declared (extensions[Id] = {mimeTypes: [MimeType]}), as
// a client that renders Apps says in initialize and in each 2026-07-28 request's _meta.
QJsonObject withExtension(QJsonObject capabilities);
// `capabilities` without it (a server the user turned Apps off for).
QJsonObject withoutExtension(QJsonObject capabilities);

// The ui:// resource a tool names for its App: _meta.ui.resourceUri, else the deprecated
// flat _meta["ui/resourceUri"] (apps.mdx asks hosts to read both). Nothing when the tool
// names none; `error` says why a name was refused (not ui://).
std::optional<QString> resourceUri(const QJsonObject &tool, QString *error = nullptr);

// Who may see and call a tool (_meta.ui.visibility; both when it is absent): "model" tools
// are listed for the user and a model, "app" tools may be called by their server's App.
struct Visibility
{
    bool model = true;
    bool app = true;
};
Visibility visibility(const QJsonObject &tool);

} // namespace Sonde::McpApps
