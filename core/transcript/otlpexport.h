// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace Sonde {

class ExportOutput;
class ExportReader;

// OTLP/JSON traces of transcript records, after the OpenTelemetry semantic conventions for
// MCP (gen-ai/mcp): one CLIENT span per request, named "{mcp.method.name} {target}", with
// mcp.method.name, jsonrpc.request.id, gen_ai.tool.name / gen_ai.prompt.name /
// mcp.resource.uri, mcp.session.id, mcp.protocol.version, network.transport (pipe, tcp) and
// error.type; an error sets the span status. What recovery did to a call (a resumption, a
// verdict, a failure) becomes a span event; a request sent again links to the span of the
// request it repeats, and the reconnects of its server while it was open are events too.
// Ids are derived from the records (SHA-256), so the same records give the same trace: one
// trace per server. Pure; any thread.
class OtlpExport
{
public:
    // How many requests a streamed export holds while their answers may still come
    // (CallPairer): a call handed on before its answer says so in its span's status.
    static constexpr qsizetype Window = 20'000;

    static QByteArray write(const QList<QJsonObject> &records);
    // The same, streamed: a pass for each leg's transport, version, session and reconnects,
    // then the spans, a window of calls at a time.
    static bool write(ExportReader &in, ExportOutput &out, qsizetype window = Window);
    // 16 bytes (trace) or 8 bytes (span) of hex from `seed`, never all zero.
    static QString idFor(const QByteArray &seed, int bytes);
};

} // namespace Sonde
