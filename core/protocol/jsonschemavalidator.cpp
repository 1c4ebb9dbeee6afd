// SPDX-License-Identifier: MIT
#include "protocol/jsonschemavalidator.h"

#include <QJsonDocument>
#include <QStringList>

#include <cmath>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

using Violation = JsonSchemaValidator::Violation;

bool typeMatches(const QJsonValue &v, const QString &type)
{
    if (type == "string"_L1)
        return v.isString();
    if (type == "number"_L1)
        return v.isDouble();
    if (type == "integer"_L1)
        return JsonSchemaValidator::isIntegral(v);
    if (type == "boolean"_L1)
        return v.isBool();
    if (type == "object"_L1)
        return v.isObject();
    if (type == "array"_L1)
        return v.isArray();
    if (type == "null"_L1)
        return v.isNull();
    return true; // a type this program does not know is the server's business
}

void check(const QJsonValue &v, const QJsonObject &s, const QString &path, QList<Violation> *out)
{
    for (const auto key : {"anyOf"_L1, "oneOf"_L1}) {
        const QJsonArray options = s.value(key).toArray();
        if (options.isEmpty())
            continue;
        QList<Violation> first;
        bool matched = false;
        for (qsizetype i = 0; i < options.size() && !matched; ++i) {
            QList<Violation> these;
            check(v, options.at(i).toObject(), path, &these);
            matched = these.isEmpty();
            if (i == 0)
                first = these;
        }
        if (!matched)
            out->append(first);
    }
    for (const QJsonValue &o : s.value("allOf"_L1).toArray())
        check(v, o.toObject(), path, out);

    const QJsonValue enumValue = s.value("enum"_L1);
    if (enumValue.isArray() && !enumValue.toArray().contains(v))
        out->append(
            {path, u"must be one of "_s + JsonSchemaValidator::enumList(enumValue.toArray())});

    QStringList types;
    const QJsonValue type = s.value("type"_L1);
    if (type.isString())
        types << type.toString();
    for (const QJsonValue &t : type.toArray())
        types << t.toString();
    if (!types.isEmpty()) {
        bool matched = false;
        QStringList described;
        for (const QString &t : std::as_const(types)) {
            matched = matched || typeMatches(v, t);
            described << JsonSchemaValidator::describeType(t);
        }
        if (!matched)
            out->append({path, u"must be "_s + described.join(" or "_L1)});
    }

    if (v.isDouble()) {
        const double d = v.toDouble();
        struct Bound
        {
            QLatin1String key;
            bool (*holds)(double value, double limit);
            const char *sentence;
        };
        static const Bound bounds[] = {
            {"minimum"_L1, [](double x, double l) { return x >= l; }, "must be at least "},
            {"maximum"_L1, [](double x, double l) { return x <= l; }, "must be at most "},
            {"exclusiveMinimum"_L1, [](double x, double l) { return x > l; }, "must be more than "},
            {"exclusiveMaximum"_L1, [](double x, double l) { return x < l; }, "must be less than "},
        };
        for (const Bound &b : bounds) {
            const QJsonValue limit = s.value(b.key);
            if (limit.isDouble() && !b.holds(d, limit.toDouble()))
                out->append(
                    {path, QString::fromLatin1(b.sentence) + JsonSchemaValidator::jsonText(limit)});
        }
    }

    if (v.isObject()) {
        const QJsonObject object = v.toObject();
        for (const QJsonValue &r : s.value("required"_L1).toArray()) {
            if (r.isString() && !object.contains(r.toString()))
                out->append(
                    {JsonSchemaValidator::appendToPointer(path, r.toString()), u"is required"_s});
        }
        const QJsonObject properties = s.value("properties"_L1).toObject();
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            const QJsonValue property = properties.value(it.key());
            if (property.isObject())
                check(it.value(), property.toObject(),
                      JsonSchemaValidator::appendToPointer(path, it.key()), out);
        }
    }

    if (v.isArray() && s.value("items"_L1).isObject()) {
        const QJsonArray array = v.toArray();
        const QJsonObject items = s.value("items"_L1).toObject();
        for (qsizetype i = 0; i < array.size(); ++i)
            check(array.at(i), items, path + u'/' + QString::number(i), out);
    }
}

} // namespace

QString JsonSchemaValidator::Violation::text() const
{
    return quotedPath(path) + u' ' + message;
}

QList<JsonSchemaValidator::Violation> JsonSchemaValidator::validate(const QJsonValue &value,
                                                                    const QJsonObject &schema)
{
    QList<Violation> out;
    check(value, schema, QString(), &out);
    return out;
}

QString JsonSchemaValidator::appendToPointer(const QString &pointer, const QString &key)
{
    QString escaped = key;
    escaped.replace(u'~', "~0"_L1).replace(u'/', "~1"_L1);
    return pointer + u'/' + escaped;
}

QString JsonSchemaValidator::quotedPath(const QString &pointer)
{
    return pointer.isEmpty() ? u"The value"_s : u'"' + pointer.mid(1) + u'"';
}

QString JsonSchemaValidator::describeType(const QString &type)
{
    static const struct
    {
        QLatin1String type;
        QLatin1String words;
    } names[] = {
        {"string"_L1, "a string"_L1},    {"number"_L1, "a number"_L1},
        {"integer"_L1, "an integer"_L1}, {"boolean"_L1, "true or false"_L1},
        {"object"_L1, "an object"_L1},   {"array"_L1, "an array"_L1},
        {"null"_L1, "null"_L1},
    };
    for (const auto &n : names) {
        if (type == n.type)
            return n.words;
    }
    return type;
}

QString JsonSchemaValidator::jsonText(const QJsonValue &value)
{
    const QByteArray a = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(a.mid(1, a.size() - 2));
}

QString JsonSchemaValidator::enumList(const QJsonArray &options)
{
    QStringList texts;
    for (const QJsonValue &o : options)
        texts << jsonText(o);
    return texts.join(", "_L1);
}

bool JsonSchemaValidator::isIntegral(const QJsonValue &value)
{
    const double d = value.toDouble();
    return value.isDouble() && std::isfinite(d) && std::floor(d) == d;
}

} // namespace Sonde
