// SPDX-License-Identifier: MIT
// Mcp::validateAgainstSchema (the one JSON Schema validator in core; the GUI's form checks
// its own fields): never crashes, and a refusal names where it failed. The input is JSON:
// [value, schema], or an object checked against itself as a schema.
#include "fuzzsupport.h"
#include "protocol/mcp.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Sonde;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)));
    QJsonValue value;
    QJsonObject schema;
    if (doc.isArray()) {
        value = doc.array().at(0);
        schema = doc.array().at(1).toObject();
    } else if (doc.isObject()) {
        value = doc.object();
        schema = doc.object();
    } else {
        return 0;
    }
    QString why;
    if (!Mcp::validateAgainstSchema(value, schema, &why))
        FUZZ_CHECK(!why.isEmpty());
    return 0;
}
