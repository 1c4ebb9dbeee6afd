// SPDX-License-Identifier: MIT
#include "protocol/mcp.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

using namespace Qt::StringLiterals;

namespace Sonde::Mcp {

QStringList supportedProtocolVersions()
{
    return {u"2025-11-25"_s, u"2025-06-18"_s, u"2025-03-26"_s, u"2024-11-05"_s};
}

bool isSupportedProtocolVersion(const QString &version)
{
    return supportedProtocolVersions().contains(version);
}

QString listKeyFor(const QString &method)
{
    if (method == "tools/list"_L1)
        return u"tools"_s;
    if (method == "resources/list"_L1)
        return u"resources"_s;
    if (method == "resources/templates/list"_L1)
        return u"resourceTemplates"_s;
    if (method == "prompts/list"_L1)
        return u"prompts"_s;
    return {};
}

QJsonObject toolAnswer(const QJsonObject &callResult)
{
    const QJsonArray content = callResult.value("content"_L1).toArray();
    // The text blocks are kept as JSON values: with one block (the usual case) its value is
    // inserted as it is, never widened to a QString; a 50 MB text otherwise costs four
    // UTF-16 copies of 100 MB on the way to the answer.
    QList<QJsonValue> texts;
    QJsonArray other;
    for (const QJsonValue &block : content) {
        const QJsonObject b = block.toObject();
        if (b.value("type"_L1).toString() == "text"_L1)
            texts.append(b.value("text"_L1));
        else
            other.append(b);
    }
    auto joined = [&texts]() -> QJsonValue {
        if (texts.size() == 1 && texts.first().isString())
            return texts.first();
        QStringList parts;
        for (const QJsonValue &t : std::as_const(texts))
            parts.append(t.toString());
        return parts.join(u'\n');
    };
    QJsonObject answer;
    if (callResult.value("isError"_L1).toBool()) {
        const QJsonValue message = joined();
        answer.insert("error"_L1, message.toString().isEmpty()
                                      ? QJsonValue(u"MCP tool returned an error"_s)
                                      : message);
    } else {
        answer.insert("result"_L1, joined());
        const QJsonValue structured = callResult.value("structuredContent"_L1);
        if (structured.isObject()) {
            const QByteArray compact =
                QJsonDocument(structured.toObject()).toJson(QJsonDocument::Compact);
            bool verbatim = false;
            for (const QJsonValue &v : std::as_const(texts)) {
                // A text far longer than the object cannot be it (UTF-8 is at most 3 bytes
                // per character; whitespace aside): no need to parse megabytes to find out.
                const QString t = v.toString();
                if (t.size() > 64 * compact.size() + 4096)
                    continue;
                const QJsonDocument d = QJsonDocument::fromJson(t.toUtf8());
                if (d.isObject() && d.toJson(QJsonDocument::Compact) == compact)
                    verbatim = true;
            }
            if (!verbatim)
                answer.insert("structuredContent"_L1, structured);
        }
    }
    if (!other.isEmpty())
        answer.insert("content"_L1, other);
    if (callResult.contains("_meta"_L1))
        answer.insert("_meta"_L1, callResult.value("_meta"_L1));
    return answer;
}

bool validateAgainstSchema(const QJsonValue &value, const QJsonObject &schema, QString *why,
                           const QString &path)
{
    auto fail = [&](const QString &message) {
        if (why)
            *why = path + u": "_s + message;
        return false;
    };
    const QJsonValue typeValue = schema.value("type"_L1);
    QStringList types;
    if (typeValue.isString())
        types.append(typeValue.toString());
    for (const QJsonValue &t : typeValue.toArray())
        types.append(t.toString());
    if (!types.isEmpty()) {
        bool matches = false;
        // "integer" by trunc, not by a cast to qint64: 1e115 is an integer to JSON Schema,
        // and the cast would be undefined behaviour (found by tests/fuzz/fuzz_schemavalidator).
        for (const QString &t : std::as_const(types)) {
            matches |=
                (t == "object"_L1 && value.isObject()) || (t == "array"_L1 && value.isArray()) ||
                (t == "string"_L1 && value.isString()) || (t == "boolean"_L1 && value.isBool()) ||
                (t == "null"_L1 && value.isNull()) || (t == "number"_L1 && value.isDouble()) ||
                (t == "integer"_L1 && value.isDouble() &&
                 std::trunc(value.toDouble()) == value.toDouble());
        }
        if (!matches)
            return fail(u"expected %1"_s.arg(types.join(u" or "_s)));
    }
    if (schema.value("enum"_L1).isArray() && !schema.value("enum"_L1).toArray().contains(value))
        return fail(u"not one of the allowed values"_s);
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        for (const QJsonValue &r : schema.value("required"_L1).toArray())
            if (!o.contains(r.toString()))
                return fail(u"missing required property \"%1\""_s.arg(r.toString()));
        const QJsonObject props = schema.value("properties"_L1).toObject();
        for (auto it = props.begin(); it != props.end(); ++it)
            if (o.contains(it.key()) &&
                !validateAgainstSchema(o.value(it.key()), it.value().toObject(), why,
                                       path + u'.' + it.key()))
                return false;
    }
    if (value.isArray() && schema.value("items"_L1).isObject()) {
        const QJsonArray a = value.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            if (!validateAgainstSchema(a.at(i), schema.value("items"_L1).toObject(), why,
                                       path + u"[%1]"_s.arg(i)))
                return false;
    }
    return true;
}

QJsonObject elicitationDefaults(const QJsonObject &requestedSchema, const QJsonObject &given)
{
    QJsonObject out;
    const QJsonObject props = requestedSchema.value("properties"_L1).toObject();
    for (auto it = props.begin(); it != props.end(); ++it) {
        const QJsonObject prop = it.value().toObject();
        if (prop.contains("default"_L1))
            out.insert(it.key(), prop.value("default"_L1));
    }
    for (auto it = given.begin(); it != given.end(); ++it)
        out.insert(it.key(), it.value());
    return out;
}

} // namespace Sonde::Mcp
