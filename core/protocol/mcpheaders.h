// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

namespace Sonde {

// The request headers of the 2026-07-28 Streamable HTTP transport ("Request Metadata"):
// MCP-Protocol-Version and Mcp-Method on every request, Mcp-Name on tools/call,
// resources/read and prompts/get, and Mcp-Param-{Name} for the tool parameters a schema
// marks with x-mcp-header. Values that are not safe header text travel as
// =?base64?…?=. Pure functions; any thread.
class McpHeaders
{
public:
    using List = QList<std::pair<QByteArray, QByteArray>>;

    // One x-mcp-header annotation: where its value is in the arguments, and its header.
    struct Param
    {
        QStringList path;  // chain of "properties" keys from the schema root
        QByteArray header; // "Mcp-Param-Region"
        QString type;      // "string", "integer" or "boolean"
    };
    // Tool name -> its annotations (only tools that have any).
    using ToolParams = QHash<QString, QList<Param>>;

    // The annotations of one inputSchema, or nullopt with `why` when one breaks the rules
    // (empty, not a token, duplicate, not a primitive, not reachable through properties
    // alone). A client on HTTP must leave such a tool out of tools/list.
    static std::optional<QList<Param>> paramsOf(const QJsonObject &inputSchema, QString *why);

    // The header value for `text`: as is when it is safe header text, else base64.
    static QByteArray encodeValue(const QString &text);
    static bool isSafeHeaderText(const QString &text);

    // Whether a method's headers depend on its params (Mcp-Name, Mcp-Param-*).
    static bool needsParams(const QString &method);
    // The headers of one request. `toolParams` is consulted for tools/call.
    static List forRequest(const QString &protocolVersion, const QString &method,
                           const QJsonObject &params, const ToolParams &toolParams);
};

} // namespace Sonde
