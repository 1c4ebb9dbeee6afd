// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace Sonde {

class JsonRpcMessage;

// Server Validation of a modern Streamable HTTP POST (transports/streamable-http.mdx): the
// headers that mirror the body (MCP-Protocol-Version, Mcp-Method, Mcp-Name and each
// Mcp-Param-{Name} a tool's inputSchema annotates with x-mcp-header) must be there and
// agree with it, after the =?base64?...?= form is decoded. The client side of the header
// codec lives in core; this is the server's, so the demo can check what a client sends.
// Pure; any thread.
class Rev20260728HeaderValidator
{
public:
    // `headers` by lower-case name; `tool`: the called tool's definition for tools/call
    // (empty otherwise or when unknown). Returns why the request is refused (naming the
    // header), or an empty string when the headers agree with the body.
    static QString check(const QHash<QByteArray, QByteArray> &headers, const JsonRpcMessage &m,
                         const QJsonObject &tool);

    // A header value as text: the base64 sentinel form decoded from UTF-8, a plain value as
    // is. Nothing when it has characters a header value may not carry, or bad base64.
    static std::optional<QString> decodeValue(const QByteArray &raw);
};

} // namespace Sonde
