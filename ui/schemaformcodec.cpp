// SPDX-License-Identifier: MIT
#include "schemaformcodec.h"

#include "protocol/jsonschemavalidator.h"

#include <QJsonDocument>
#include <QLocale>

#include <cmath>
#include <optional>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

using Kind = SchemaFormCodec::Kind;

QString jsonText(const QJsonValue &v)
{
    return JsonSchemaValidator::jsonText(v);
}

// QJsonDocument holds only arrays and objects, so scalars travel inside a one-element array.
std::optional<QJsonValue> parseJson(const QString &text)
{
    QJsonParseError e;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray('[' + text.toUtf8() + ']'), &e);
    if (e.error != QJsonParseError::NoError || doc.array().size() != 1)
        return std::nullopt;
    return doc.array().first();
}

Kind kindOf(const QJsonObject &s)
{
    if (!s.value("enum"_L1).toArray().isEmpty())
        return Kind::Enum;
    const QString type = s.value("type"_L1).toString();
    if (type == "array"_L1) {
        const QJsonObject items = SchemaFormCodec::effectiveSchema(s.value("items"_L1).toObject());
        const QJsonArray options = items.value("enum"_L1).toArray();
        bool strings = !options.isEmpty();
        for (const QJsonValue &o : options)
            strings = strings && o.isString();
        return items.value("type"_L1) == "string"_L1 || strings ? Kind::StringList
                                                                : Kind::JsonArray;
    }
    if (type == "object"_L1)
        return s.value("properties"_L1).isObject() ? Kind::Object : Kind::Json;
    static const char *const scalars[] = {"string", "number", "integer", "boolean"};
    static const Kind kinds[] = {Kind::String, Kind::Number, Kind::Integer, Kind::Boolean};
    for (std::size_t i = 0; i < std::size(scalars); ++i) {
        if (type == QLatin1StringView(scalars[i]))
            return kinds[i];
    }
    return Kind::Json;
}

// A hint for the formats tool schemas use; an unknown format is shown as its name.
QString formatPlaceholder(const QString &format)
{
    static const char *const formats[][2] = {
        {"uri", "https://…"},   {"url", "https://…"}, {"email", "name@example.com"},
        {"date", "YYYY-MM-DD"}, {"time", "hh:mm:ss"}, {"date-time", "YYYY-MM-DDThh:mm:ssZ"},
    };
    for (const auto &f : formats) {
        if (format == QLatin1StringView(f[0]))
            return QString::fromUtf8(f[1]);
    }
    return format;
}

QString stringListText(const QJsonArray &array)
{
    QStringList parts;
    for (const QJsonValue &v : array) {
        const QString s = v.toString();
        // Only strings that survive split(',') + trimmed() unchanged can use the short form.
        if (!v.isString() || s.isEmpty() || s.contains(u',') || s.trimmed() != s)
            return jsonText(array);
        parts << s;
    }
    if (!parts.isEmpty() && parts.first().startsWith(u'['))
        return jsonText(array);
    return parts.join(", "_L1);
}

} // namespace

QJsonObject SchemaFormCodec::effectiveSchema(const QJsonObject &schema)
{
    QJsonObject s = schema;
    for (const auto key : {"anyOf"_L1, "oneOf"_L1}) {
        QJsonArray nonNull;
        for (const QJsonValue &o : s.value(key).toArray()) {
            if (o.toObject().value("type"_L1) != "null"_L1)
                nonNull.append(o);
        }
        if (nonNull.size() != 1 || !nonNull.first().isObject())
            continue;
        QJsonObject merged = nonNull.first().toObject();
        for (auto it = s.constBegin(); it != s.constEnd(); ++it) {
            if (it.key() != key)
                merged.insert(it.key(), it.value());
        }
        s = merged;
        break;
    }
    const QJsonValue type = s.value("type"_L1);
    if (type.isArray()) {
        QJsonArray nonNull;
        for (const QJsonValue &t : type.toArray()) {
            if (t != "null"_L1)
                nonNull.append(t);
        }
        if (nonNull.size() == 1)
            s.insert("type"_L1, nonNull.first());
    }
    return s;
}

SchemaFormCodec::SchemaFormCodec(const QJsonObject &schema) : m_schema(effectiveSchema(schema))
{
    m_kind = kindOf(m_schema);
    m_nullable = schema.value("nullable"_L1).toBool() ||
                 schema.value("type"_L1).toArray().contains("null"_L1) ||
                 schema.value("type"_L1) == "null"_L1;
    for (const auto key : {"anyOf"_L1, "oneOf"_L1}) {
        for (const QJsonValue &o : schema.value(key).toArray())
            m_nullable = m_nullable || o.toObject().value("type"_L1) == "null"_L1;
    }
    if (m_kind == Kind::Enum)
        m_options = m_schema.value("enum"_L1).toArray();
}

SchemaFormCodec::Reading SchemaFormCodec::fromText(const QString &text) const
{
    const QString t = m_kind == Kind::String ? text : text.trimmed();
    if (t.isEmpty())
        return {};
    const auto refused = [&t](const QString &why) {
        return Reading{QJsonValue(QJsonValue::Undefined), jsonText(t) + u' ' + why};
    };
    switch (m_kind) {
    case Kind::String:
        return {t, {}};
    case Kind::Number: {
        bool ok = false;
        const double d = QLocale::c().toDouble(t, &ok);
        return ok && std::isfinite(d) ? Reading{d, {}} : refused(tr("is not a number"));
    }
    case Kind::Integer: {
        bool ok = false;
        const qint64 i = t.toLongLong(&ok);
        return ok ? Reading{i, {}} : refused(tr("is not an integer"));
    }
    case Kind::StringList: {
        if (t.startsWith(u'[')) {
            const auto v = parseJson(t);
            return v && v->isArray() ? Reading{*v, {}} : refused(tr("is not a JSON array"));
        }
        QJsonArray array;
        for (const QString &part : t.split(u',')) {
            if (!part.trimmed().isEmpty())
                array.append(part.trimmed());
        }
        return {array, {}};
    }
    case Kind::JsonArray:
    case Kind::Json: {
        const auto v = parseJson(t);
        if (v && (m_kind == Kind::Json || v->isArray()))
            return {*v, {}};
        return refused(m_kind == Kind::Json ? tr("is not valid JSON") : tr("is not a JSON array"));
    }
    case Kind::Boolean:
    case Kind::Enum:
    case Kind::Object:
        break; // not shown as text
    }
    return {};
}

QString SchemaFormCodec::toText(const QJsonValue &v) const
{
    if (v.isUndefined())
        return {};
    switch (m_kind) {
    case Kind::String:
        return v.isString() ? v.toString() : jsonText(v);
    case Kind::Integer:
        return JsonSchemaValidator::isIntegral(v) && std::abs(v.toDouble()) < 9e18
                   ? QString::number(qint64(v.toDouble()))
                   : jsonText(v);
    case Kind::StringList:
        return v.isArray() ? stringListText(v.toArray()) : jsonText(v);
    default:
        return jsonText(v);
    }
}

QString SchemaFormCodec::placeholder() const
{
    switch (m_kind) {
    case Kind::String:
        return formatPlaceholder(m_schema.value("format"_L1).toString());
    case Kind::Number:
        return tr("number");
    case Kind::Integer:
        return tr("integer");
    case Kind::StringList: {
        const QJsonArray options =
            effectiveSchema(m_schema.value("items"_L1).toObject()).value("enum"_L1).toArray();
        return options.isEmpty()
                   ? tr("comma-separated: a, b, c")
                   : tr("comma-separated, from: %1").arg(JsonSchemaValidator::enumList(options));
    }
    case Kind::JsonArray:
        return tr("JSON array: [1, 2]");
    case Kind::Json:
        return m_schema.value("type"_L1) == "object"_L1 ? tr("JSON object: {\"key\": \"value\"}")
                                                        : tr("JSON value");
    default:
        return {};
    }
}

QString SchemaFormCodec::defaultText() const
{
    const QJsonValue d = m_schema.value("default"_L1);
    if (d.isUndefined() || d.isNull())
        return {};
    switch (m_kind) {
    case Kind::Boolean:
        return d.isBool() ? checkText(toCheckState(d), true) : jsonText(d);
    case Kind::Enum: {
        const int i = toIndex(d);
        return i > 0 ? optionTexts().at(i - 1) : jsonText(d);
    }
    case Kind::Object:
        return jsonText(d);
    default:
        return toText(d);
    }
}

QString SchemaFormCodec::checkText(Qt::CheckState state, bool sent)
{
    if (!sent || state == Qt::PartiallyChecked)
        return tr("not set");
    return state == Qt::Checked ? u"true"_s : u"false"_s;
}

QJsonValue SchemaFormCodec::fromCheckState(Qt::CheckState state)
{
    return state == Qt::PartiallyChecked ? QJsonValue(QJsonValue::Undefined)
                                         : QJsonValue(state == Qt::Checked);
}

Qt::CheckState SchemaFormCodec::toCheckState(const QJsonValue &v)
{
    return v.isBool() ? (v.toBool() ? Qt::Checked : Qt::Unchecked) : Qt::PartiallyChecked;
}

QStringList SchemaFormCodec::optionTexts() const
{
    // Elicitation schemas may give display names for a string enum.
    const QJsonArray names = m_schema.value("enumNames"_L1).toArray();
    QStringList texts;
    for (qsizetype i = 0; i < m_options.size(); ++i) {
        const QJsonValue o = m_options.at(i);
        texts << (names.size() == m_options.size() && names.at(i).isString()
                      ? names.at(i).toString()
                  : o.isString() ? o.toString()
                                 : jsonText(o));
    }
    return texts;
}

QJsonValue SchemaFormCodec::fromIndex(int index) const
{
    return index >= 1 && index <= m_options.size() ? m_options.at(index - 1)
                                                   : QJsonValue(QJsonValue::Undefined);
}

int SchemaFormCodec::toIndex(const QJsonValue &v) const
{
    int index = 0;
    for (qsizetype i = 0; i < m_options.size() && !v.isUndefined(); ++i) {
        if (m_options.at(i) == v)
            index = int(i) + 1;
    }
    return index;
}

QString SchemaFormCodec::misfit(const QJsonValue &v) const
{
    if (v.isUndefined())
        return {};
    const auto expects = [&v](const QString &what) {
        return tr("expects %1, not %2").arg(what, jsonText(v));
    };
    const auto type = [](const char *name) {
        return JsonSchemaValidator::describeType(QString::fromLatin1(name));
    };
    switch (m_kind) {
    case Kind::String:
        return v.isString() ? QString() : expects(type("string"));
    case Kind::Number:
        return v.isDouble() ? QString() : expects(type("number"));
    case Kind::Integer:
        return JsonSchemaValidator::isIntegral(v) ? QString() : expects(type("integer"));
    case Kind::Boolean:
        return v.isBool() ? QString() : expects(type("boolean"));
    case Kind::Enum:
        return m_options.contains(v)
                   ? QString()
                   : expects(tr("one of %1").arg(JsonSchemaValidator::enumList(m_options)));
    case Kind::StringList: {
        bool strings = v.isArray();
        for (const QJsonValue &item : v.toArray())
            strings = strings && item.isString();
        return strings ? QString() : expects(tr("an array of strings"));
    }
    case Kind::JsonArray:
        return v.isArray() ? QString() : expects(type("array"));
    case Kind::Object:
        return v.isObject() ? QString() : expects(type("object"));
    case Kind::Json:
        return {};
    }
    return {};
}

} // namespace Sonde
