// SPDX-License-Identifier: MIT
#include "schemaarguments.h"

#include "protocol/jsonschemavalidator.h"

#include <QJsonArray>

#include <cmath>

using namespace Qt::StringLiterals;

namespace Sonde::SchemaArguments {

namespace {

// Deeper than this, a schema is recursive or generated: an empty object is as good a guess.
constexpr int MaxDepth = 8;

QString firstType(const QJsonValue &type)
{
    if (type.isString())
        return type.toString();
    for (const QJsonValue &t : type.toArray())
        if (t.toString() != "null"_L1)
            return t.toString();
    return type.toArray().isEmpty() ? QString() : u"null"_s;
}

double lowerBound(const QJsonObject &schema, bool integer)
{
    if (schema.contains("minimum"_L1))
        return integer ? std::ceil(schema.value("minimum"_L1).toDouble())
                       : schema.value("minimum"_L1).toDouble();
    if (schema.contains("exclusiveMinimum"_L1)) {
        const double m = schema.value("exclusiveMinimum"_L1).toDouble();
        return integer ? std::floor(m) + 1 : m + 1;
    }
    if (schema.contains("maximum"_L1) && schema.value("maximum"_L1).toDouble() < 0)
        return integer ? std::floor(schema.value("maximum"_L1).toDouble())
                       : schema.value("maximum"_L1).toDouble();
    return 0;
}

QJsonValue simplestString(const QJsonObject &schema)
{
    const QString format = schema.value("format"_L1).toString();
    if (format == "uri"_L1 || format == "url"_L1)
        return u"https://example.com/"_s;
    if (format == "email"_L1)
        return u"doctor@example.com"_s;
    if (format == "date-time"_L1)
        return u"2026-01-01T00:00:00Z"_s;
    if (format == "date"_L1)
        return u"2026-01-01"_s;
    const int minLength = schema.value("minLength"_L1).toInt(0);
    return QString(std::max(minLength, 0), u'a');
}

} // namespace

QJsonValue simplest(const QJsonObject &schema, int depth)
{
    if (schema.contains("default"_L1))
        return schema.value("default"_L1);
    if (const QJsonArray examples = schema.value("examples"_L1).toArray(); !examples.isEmpty())
        return examples.first();
    if (schema.contains("const"_L1))
        return schema.value("const"_L1);
    if (const QJsonArray options = schema.value("enum"_L1).toArray(); !options.isEmpty())
        return options.first();
    for (const char *alternatives : {"anyOf", "oneOf"})
        if (const QJsonArray alts = schema.value(QLatin1String(alternatives)).toArray();
            !alts.isEmpty())
            return simplest(alts.first().toObject(), depth + 1);
    QString type = firstType(schema.value("type"_L1));
    if (type.isEmpty() && schema.contains("properties"_L1))
        type = u"object"_s;
    if (type == "string"_L1)
        return simplestString(schema);
    if (type == "integer"_L1)
        return lowerBound(schema, true);
    if (type == "number"_L1)
        return lowerBound(schema, false);
    if (type == "boolean"_L1)
        return false;
    if (type == "null"_L1)
        return QJsonValue::Null;
    if (type == "array"_L1) {
        QJsonArray items;
        const int minItems = std::min(schema.value("minItems"_L1).toInt(0), 16);
        for (int i = 0; i < minItems; ++i)
            items.append(simplest(schema.value("items"_L1).toObject(), depth + 1));
        return items;
    }
    if (type == "object"_L1 && depth < MaxDepth) {
        QJsonObject object;
        const QJsonObject properties = schema.value("properties"_L1).toObject();
        QStringList required;
        for (const QJsonValue &r : schema.value("required"_L1).toArray())
            required << r.toString();
        for (auto it = properties.begin(); it != properties.end(); ++it) {
            const QJsonObject property = it.value().toObject();
            const bool given = property.contains("default"_L1) ||
                               property.contains("examples"_L1) || property.contains("const"_L1);
            if (required.contains(it.key()) || given)
                object.insert(it.key(), simplest(property, depth + 1));
        }
        return object;
    }
    return QJsonObject{};
}

Built build(const QJsonObject &inputSchema)
{
    Built b;
    b.arguments = simplest(inputSchema).toObject();
    b.valid = JsonSchemaValidator::validate(b.arguments, inputSchema).isEmpty();
    return b;
}

} // namespace Sonde::SchemaArguments
