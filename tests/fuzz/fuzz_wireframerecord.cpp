// SPDX-License-Identifier: MIT
// WireFrameRecord::read: for any frame it answers for, QJsonDocument reads the same frame as
// one object, the general path (TranscriptEvent::toJson, Redactor::apply) would keep that
// record unchanged, and the columns it read are the ones that path derives (HistoryStore's
// rowOf rules, written again here from the parsed object). Never crashes or stalls on what
// a server sends. The input is the frame; a first byte 's' makes it an outgoing one. The
// same bytes are also read as a record line to import (WireFrameRecord::eventOfRecordLine).
#include "fuzzsupport.h"
#include "protocol/jsonrpcmessage.h"
#include "transcript/redactor.h"
#include "wireframerecord.h"

#include <QJsonDocument>
#include <QJsonObject>

using namespace Sonde;
using namespace Qt::StringLiterals;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    TranscriptEvent e;
    e.timeMs = 1700000000000;
    e.server = u"fuzz"_s;
    e.generation = 1;
    e.direction = input.startsWith('s') ? TranscriptEvent::Direction::Outgoing
                                        : TranscriptEvent::Direction::Incoming;
    e.raw = input;
    // The same bytes as a record line to import: an event read off it is the line as Qt
    // reads it.
    if (const std::optional<TranscriptEvent> imported = WireFrameRecord::eventOfRecordLine(input))
        FUZZ_CHECK(QJsonDocument::fromJson(input).object() == imported->toJson());
    Redactor redactor;
    redactor.addSecret(u"hunter2-configured-secret"_s);
    const std::optional<WireFrameRecord> r = WireFrameRecord::read(e, &redactor);
    if (!r)
        return 0;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(input, &error);
    FUZZ_CHECK(doc.isObject());
    const QJsonObject general = e.toJson();
    FUZZ_CHECK(redactor.apply(general) == general);
    const QJsonDocument record = QJsonDocument::fromJson(r->record, &error);
    FUZZ_CHECK(record.isObject() && record.object() == general);
    FUZZ_CHECK(!r->record.contains('\n'));

    const QJsonObject msg = doc.object();
    const QString method = msg.value("method"_L1).toString();
    FUZZ_CHECK(r->method == method);
    FUZZ_CHECK(r->requestId == JsonRpcMessage::idText(msg.value("id"_L1)));
    const QJsonObject params = msg.value("params"_L1).toObject();
    QString tool;
    if (method == "tools/call"_L1 || method == "prompts/get"_L1)
        tool = params.value("name"_L1).toString();
    else if (method == "resources/read"_L1)
        tool = params.value("uri"_L1).toString();
    FUZZ_CHECK(r->tool == tool);
    const QJsonObject result = msg.value("result"_L1).toObject();
    FUZZ_CHECK(r->isError == (msg.contains("error"_L1) || result.value("isError"_L1).toBool()));
    FUZZ_CHECK(r->protocolVersion == (result.contains("protocolVersion"_L1)
                                          ? result.value("protocolVersion"_L1).toString()
                                          : QString()));
    FUZZ_CHECK(r->isResponse == (method.isEmpty() && !r->requestId.isEmpty() &&
                                 (msg.contains("result"_L1) || msg.contains("error"_L1))));
    return 0;
}
