// SPDX-License-Identifier: MIT
// One request exactly as the engine put it on the wire (taken from its transcript), for the
// floors to send again under another id: the same bytes, so the same _meta, and the same
// HTTP headers, derived by the engine's own function (McpHeaders). A floor that sends less
// than the engine moves the server's cost of the difference into the engine's column.
#pragma once

#include "benchsupport.h"
#include "protocol/mcpheaders.h"
#include "protocol/rev20260728.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace SondeBench {

struct WireFrame
{
    QByteArray bytes; // as sent
    QString method;
    QJsonObject params;

    bool isEmpty() const { return bytes.isEmpty(); }

    // Fails unless `raw` is a request whose numeric id leads the object, as QJsonDocument
    // writes it (keys in order: "id" first), so that withId() touches nothing else.
    static WireFrame parse(const QByteArray &raw)
    {
        const QJsonObject o = QJsonDocument::fromJson(raw).object();
        if (!raw.startsWith("{\"id\":") || !o.value("id"_L1).isDouble() ||
            !o.value("method"_L1).isString())
            fail(1, u"not a request with a leading numeric id: "_s + QString::fromUtf8(raw));
        return {raw, o.value("method"_L1).toString(), o.value("params"_L1).toObject()};
    }

    // The same bytes with another id.
    QByteArray withId(qint64 id) const
    {
        const qsizetype start = 6; // after {"id":
        const qsizetype end = bytes.indexOf(',', start);
        return bytes.left(start) + QByteArray::number(id) + bytes.mid(end);
    }

    // What the engine's HTTP route adds for this request (MCP-Protocol-Version, Mcp-Method,
    // Mcp-Name), besides Accept and Content-Type.
    Sonde::McpHeaders::List headers() const
    {
        return Sonde::McpHeaders::forRequest(
            QString::fromLatin1(Sonde::Rev20260728::ProtocolVersion), method, params, {});
    }
};

} // namespace SondeBench
