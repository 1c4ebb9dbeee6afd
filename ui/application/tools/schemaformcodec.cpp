// SPDX-License-Identifier: MIT
#include "application/tools/schemaformcodec.h"

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

// Beyond this many, a multi-select is a text field: a column of check boxes would not fit.
constexpr qsizetype MaxChoices = 24;

// A schema's options and their titles: "enum" (with "enumNames", an older elicitation form)
// or, as 2025-11-25 elicitation writes a titled enum, "oneOf"/"anyOf" of {"const", "title"}.
// No options for anything else; titles empty or one per option.
struct Options
{
    QJsonArray values;
    QStringList titles;
};

Options optionsOf(const QJsonObject &s)
{
    Options o;
    o.values = s.value("enum"_L1).toArray();
    if (!o.values.isEmpty()) {
        const QJsonArray names = s.value("enumNames"_L1).toArray();
        for (qsizetype i = 0; names.size() == o.values.size() && i < names.size(); ++i)
            o.titles << (names.at(i).isString() ? names.at(i).toString() : QString());
        return o;
    }
    for (const auto key : {"oneOf"_L1, "anyOf"_L1}) {
        const QJsonArray branches = s.value(key).toArray();
        for (const QJsonValue &b : branches) {
            const QJsonObject branch = b.toObject();
            if (!branch.contains("const"_L1))
                return {};
            o.values.append(branch.value("const"_L1));
            o.titles << branch.value("title"_L1).toString();
        }
        if (!o.values.isEmpty())
            return o;
    }
    return o;
}

Kind kindOf(const QJsonObject &s)
{
    if (!optionsOf(s).values.isEmpty())
        return Kind::Enum;
    const QString type = s.value("type"_L1).toString();
    if (type == "array"_L1) {
        const QJsonObject items = SchemaFormCodec::effectiveSchema(s.value("items"_L1).toObject());
        const QJsonArray options = optionsOf(items).values;
        if (!options.isEmpty() && options.size() <= MaxChoices)
            return Kind::Choices;
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
    Options o;
    if (m_kind == Kind::Enum)
        o = optionsOf(m_schema);
    else if (m_kind == Kind::Choices)
        o = optionsOf(effectiveSchema(m_schema.value("items"_L1).toObject()));
    m_options = o.values;
    m_optionTitles = o.titles;
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
    case Kind::Choices:
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
    case Kind::Choices: {
        if (!misfit(d).isEmpty())
            return jsonText(d);
        const QList<bool> checks = toChecks(d);
        QStringList names;
        for (qsizetype i = 0; i < checks.size(); ++i) {
            if (checks.at(i))
                names << optionTexts().at(i);
        }
        return names.isEmpty() ? tr("none") : names.join(", "_L1);
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
    QStringList texts;
    for (qsizetype i = 0; i < m_options.size(); ++i) {
        const QJsonValue o = m_options.at(i);
        const QString title = m_optionTitles.value(i);
        texts << (!title.isEmpty() ? title : o.isString() ? o.toString() : jsonText(o));
    }
    return texts;
}

QList<bool> SchemaFormCodec::toChecks(const QJsonValue &v) const
{
    QList<bool> checks(m_options.size(), false);
    const QJsonArray values = v.toArray();
    for (qsizetype i = 0; i < m_options.size(); ++i)
        checks[i] = values.contains(m_options.at(i));
    return checks;
}

QJsonValue SchemaFormCodec::fromChecks(const QList<bool> &checked, bool required) const
{
    QJsonArray values;
    for (qsizetype i = 0; i < m_options.size() && i < checked.size(); ++i) {
        if (checked.at(i))
            values.append(m_options.at(i));
    }
    // A required list may be empty (its minItems says whether the server takes that); an
    // optional one nobody ticked is left out, as an optional field left empty.
    return values.isEmpty() && !required ? QJsonValue(QJsonValue::Undefined) : QJsonValue(values);
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
    case Kind::Choices: {
        bool known = v.isArray();
        for (const QJsonValue &item : v.toArray())
            known = known && m_options.contains(item);
        return known ? QString()
                     : expects(tr("an array of %1").arg(JsonSchemaValidator::enumList(m_options)));
    }
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
