// SPDX-License-Identifier: MIT
// JsonRpcMessage::parse: never crashes, refuses with a message, and every message it
// yields survives a round trip through its own compact JSON unchanged.
#include "fuzzsupport.h"
#include "protocol/jsonrpcmessage.h"

#include <QJsonDocument>

using namespace Sonde;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray frame(reinterpret_cast<const char *>(data), qsizetype(size));
    const JsonRpcMessage::Parsed p = JsonRpcMessage::parse(frame);
    if (p.error.isError())
        FUZZ_CHECK(!p.error.message().isEmpty());
    for (const JsonRpcMessage &m : p.messages) {
        FUZZ_CHECK(m.type() != JsonRpcMessage::Type::Invalid);
        const QByteArray wire = m.toCompactJson();
        // Written by hand, byte for byte what Qt writes for the message as an object.
        FUZZ_CHECK(wire == QJsonDocument(m.toJson()).toJson(QJsonDocument::Compact));
        const JsonRpcMessage::Parsed back = JsonRpcMessage::parse(wire);
        FUZZ_CHECK(!back.error.isError());
        FUZZ_CHECK(back.messages.size() == 1);
        const JsonRpcMessage &b = back.messages.first();
        FUZZ_CHECK(b.type() == m.type());
        FUZZ_CHECK(b.id() == m.id());
        FUZZ_CHECK(b.method() == m.method());
        FUZZ_CHECK(JsonRpcMessage::idKey(b.id()) == JsonRpcMessage::idKey(m.id()));
        if (m.type() == JsonRpcMessage::Type::ErrorResponse)
            FUZZ_CHECK(m.toError().isError());
    }
    return 0;
}
