// SPDX-License-Identifier: MIT
// JsonRpcMessage::peekEnvelope against the real parser: it answers only for a frame that
// QJsonDocument accepts as one object within the depth limit, and then with the same
// "method" and "id"; and for every such frame it does answer (else the transports would
// parse big frames twice).
#include "fuzzsupport.h"
#include "protocol/jsonrpcmessage.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

using namespace Sonde;
using namespace Qt::StringLiterals;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray frame(reinterpret_cast<const char *>(data), qsizetype(size));
    const auto e = JsonRpcMessage::peekEnvelope(frame);
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(frame, &pe);
    const bool parserTakesIt = pe.error == QJsonParseError::NoError && doc.isObject() &&
                               JsonRpcMessage::jsonDepth(frame) <= Limits::MaxJsonDepth;
    FUZZ_CHECK(e.has_value() == parserTakesIt);
    if (!e)
        return 0;
    const QJsonObject o = doc.object();
    FUZZ_CHECK(e->hasMethod == o.contains("method"_L1));
    FUZZ_CHECK(e->method == o.value("method"_L1).toString());
    FUZZ_CHECK(e->id == o.value("id"_L1));
    // Held as the parser holds it (an integer or a double), so it is written back alike.
    FUZZ_CHECK(QJsonDocument(QJsonArray{e->id}).toJson() ==
               QJsonDocument(QJsonArray{o.value("id"_L1)}).toJson());
    return 0;
}
