// SPDX-License-Identifier: MIT
// JsonSchemaValidator (the one JSON Schema validator: the form widget and the outputSchema
// verdict both use it): never crashes, and every violation says what is wrong, at a path
// that is a JSON Pointer. The input is JSON: [value, schema], or an object checked against
// itself as a schema.
#include "fuzzsupport.h"
#include "protocol/jsonschemavalidator.h"

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
    for (const JsonSchemaValidator::Violation &v : JsonSchemaValidator::validate(value, schema)) {
        FUZZ_CHECK(!v.message.isEmpty());
        FUZZ_CHECK(v.path.isEmpty() || v.path.startsWith(u'/'));
    }
    return 0;
}
