// SPDX-License-Identifier: MIT
#include "schemaformwidget.h"

#include "jsonview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleValidator>
#include <QFormLayout>
#include <QGroupBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QSet>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QTabBar>
#include <QVBoxLayout>

#include <cmath>
#include <optional>
#include <vector>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

enum class Kind
{
    String,
    Number,
    Integer,
    Boolean,
    Enum,
    StringList,
    JsonArray,
    Object,
    Json
};

// One property of the schema and the editor that shows it. The root object is a Field too,
// without an editor, so nested objects and the top level share one code path.
struct Field
{
    Kind kind = Kind::Json;
    QString key;
    QString path; // escaped like a JSON pointer, without the leading '/': "address/city"
    QJsonObject schema;
    QJsonArray options; // Kind::Enum: the values behind the combo box items 1..n
    bool required = false;
    QWidget *editor = nullptr;
    std::vector<std::unique_ptr<Field>> children;
    // Keys the schema does not describe: the form cannot show them, but dropping them would
    // make a round trip through the form lose what the user typed in the raw view.
    QJsonObject extra;
};

QString escapeKey(QString key)
{
    return key.replace(u'~', u"~0"_s).replace(u'/', u"~1"_s);
}

QString joinPath(const QString &parent, const QString &key)
{
    return parent.isEmpty() ? escapeKey(key) : parent + u'/' + escapeKey(key);
}

QString quoted(const QString &path)
{
    return path.isEmpty() ? SchemaFormWidget::tr("The value") : u'"' + path + u'"';
}

// QJsonDocument holds only arrays and objects, so scalars travel inside a one-element array.
QString jsonText(const QJsonValue &v)
{
    const QByteArray a = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(a.mid(1, a.size() - 2));
}

std::optional<QJsonValue> parseJson(const QString &text)
{
    QJsonParseError e;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray('[' + text.toUtf8() + ']'), &e);
    if (e.error != QJsonParseError::NoError || doc.array().size() != 1)
        return std::nullopt;
    return doc.array().first();
}

bool isIntegral(const QJsonValue &v)
{
    const double d = v.toDouble();
    return v.isDouble() && std::isfinite(d) && std::floor(d) == d;
}

QString describeType(const QString &type)
{
    if (type == "string"_L1)
        return SchemaFormWidget::tr("a string");
    if (type == "number"_L1)
        return SchemaFormWidget::tr("a number");
    if (type == "integer"_L1)
        return SchemaFormWidget::tr("an integer");
    if (type == "boolean"_L1)
        return SchemaFormWidget::tr("true or false");
    if (type == "object"_L1)
        return SchemaFormWidget::tr("an object");
    if (type == "array"_L1)
        return SchemaFormWidget::tr("an array");
    if (type == "null"_L1)
        return u"null"_s;
    return type;
}

bool typeMatches(const QJsonValue &v, const QString &type)
{
    if (type == "string"_L1)
        return v.isString();
    if (type == "number"_L1)
        return v.isDouble();
    if (type == "integer"_L1)
        return isIntegral(v);
    if (type == "boolean"_L1)
        return v.isBool();
    if (type == "object"_L1)
        return v.isObject();
    if (type == "array"_L1)
        return v.isArray();
    if (type == "null"_L1)
        return v.isNull();
    return true; // a type this widget does not know is the server's business, not ours
}

QString enumList(const QJsonArray &options)
{
    QStringList texts;
    for (const QJsonValue &o : options)
        texts << jsonText(o);
    return texts.join(", "_L1);
}

// The subset of JSON Schema that MCP tool inputs and elicitations use: type (or a list of
// types), enum, required, properties, items, anyOf/oneOf/allOf, numeric bounds. Anything else
// is accepted, since the server validates again and a false alarm would block a valid call.
bool check(const QJsonValue &v, const QJsonObject &s, const QString &path, QString *why)
{
    for (const auto key : {"anyOf"_L1, "oneOf"_L1}) {
        const QJsonArray options = s.value(key).toArray();
        if (options.isEmpty())
            continue;
        QString first;
        bool matched = false;
        for (const QJsonValue &o : options) {
            QString w;
            if (check(v, o.toObject(), path, &w)) {
                matched = true;
                break;
            }
            if (first.isEmpty())
                first = w;
        }
        if (!matched) {
            *why = first;
            return false;
        }
    }
    for (const QJsonValue &o : s.value("allOf"_L1).toArray()) {
        if (!check(v, o.toObject(), path, why))
            return false;
    }

    const QJsonValue enumValue = s.value("enum"_L1);
    if (enumValue.isArray() && !enumValue.toArray().contains(v)) {
        *why = SchemaFormWidget::tr("%1 must be one of %2")
                   .arg(quoted(path), enumList(enumValue.toArray()));
        return false;
    }

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
            described << describeType(t);
        }
        if (!matched) {
            *why = SchemaFormWidget::tr("%1 must be %2")
                       .arg(quoted(path), described.join(SchemaFormWidget::tr(" or ")));
            return false;
        }
    }

    if (v.isDouble()) {
        const double d = v.toDouble();
        const auto bound = [&](QLatin1String key, bool ok, const QString &text) {
            const QJsonValue b = s.value(key);
            if (!b.isDouble() || ok)
                return true;
            *why = text.arg(quoted(path), jsonText(b));
            return false;
        };
        const auto limit = [&](QLatin1String key) { return s.value(key).toDouble(); };
        if (!bound("minimum"_L1, d >= limit("minimum"_L1),
                   SchemaFormWidget::tr("%1 must be at least %2")) ||
            !bound("maximum"_L1, d <= limit("maximum"_L1),
                   SchemaFormWidget::tr("%1 must be at most %2")) ||
            !bound("exclusiveMinimum"_L1, d > limit("exclusiveMinimum"_L1),
                   SchemaFormWidget::tr("%1 must be more than %2")) ||
            !bound("exclusiveMaximum"_L1, d < limit("exclusiveMaximum"_L1),
                   SchemaFormWidget::tr("%1 must be less than %2")))
            return false;
    }

    if (v.isObject()) {
        const QJsonObject object = v.toObject();
        for (const QJsonValue &r : s.value("required"_L1).toArray()) {
            if (r.isString() && !object.contains(r.toString())) {
                *why = SchemaFormWidget::tr("%1 is required")
                           .arg(quoted(joinPath(path, r.toString())));
                return false;
            }
        }
        const QJsonObject properties = s.value("properties"_L1).toObject();
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            const QJsonValue property = properties.value(it.key());
            if (property.isObject() &&
                !check(it.value(), property.toObject(), joinPath(path, it.key()), why))
                return false;
        }
    }

    if (v.isArray() && s.value("items"_L1).isObject()) {
        const QJsonArray array = v.toArray();
        const QJsonObject items = s.value("items"_L1).toObject();
        for (qsizetype i = 0; i < array.size(); ++i) {
            if (!check(array.at(i), items, joinPath(path, QString::number(i)), why))
                return false;
        }
    }
    return true;
}

// Servers written with pydantic or zod describe an optional property as
// anyOf [X, {"type": "null"}] or "type": [X, "null"]: the form shows X.
QJsonObject effectiveSchema(const QJsonObject &schema)
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

Kind kindOf(const QJsonObject &s)
{
    if (!s.value("enum"_L1).toArray().isEmpty())
        return Kind::Enum;
    const QString type = s.value("type"_L1).toString();
    if (type == "string"_L1)
        return Kind::String;
    if (type == "number"_L1)
        return Kind::Number;
    if (type == "integer"_L1)
        return Kind::Integer;
    if (type == "boolean"_L1)
        return Kind::Boolean;
    if (type == "array"_L1) {
        const QJsonObject items = effectiveSchema(s.value("items"_L1).toObject());
        const QJsonArray options = items.value("enum"_L1).toArray();
        bool strings = !options.isEmpty();
        for (const QJsonValue &o : options)
            strings = strings && o.isString();
        return items.value("type"_L1) == "string"_L1 || strings ? Kind::StringList
                                                                : Kind::JsonArray;
    }
    if (type == "object"_L1 && s.value("properties"_L1).isObject())
        return Kind::Object;
    return Kind::Json;
}

QString stringPlaceholder(const QString &format)
{
    if (format == "uri"_L1 || format == "url"_L1)
        return u"https://…"_s;
    if (format == "email"_L1)
        return u"name@example.com"_s;
    if (format == "date"_L1)
        return u"YYYY-MM-DD"_s;
    if (format == "date-time"_L1)
        return u"YYYY-MM-DDThh:mm:ssZ"_s;
    if (format == "time"_L1)
        return u"hh:mm:ss"_s;
    return format;
}

void setError(QString *error, const Field &f, const QString &text, const QString &problem)
{
    if (error && error->isEmpty())
        *error = SchemaFormWidget::tr("%1: %2 %3").arg(quoted(f.path), text, problem);
}

// An undefined QJsonValue means "absent". Text that does not parse reads as absent and
// reports why through *error (the first problem wins).
QJsonValue readField(const Field &f, QString *error)
{
    const QJsonValue absent(QJsonValue::Undefined);
    const auto text = [&f] { return static_cast<QLineEdit *>(f.editor)->text(); };
    switch (f.kind) {
    case Kind::String: {
        const QString t = text();
        return t.isEmpty() ? absent : QJsonValue(t);
    }
    case Kind::Number: {
        const QString t = text().trimmed();
        if (t.isEmpty())
            return absent;
        bool ok = false;
        const double d = QLocale::c().toDouble(t, &ok);
        if (ok && std::isfinite(d))
            return d;
        setError(error, f, jsonText(t), SchemaFormWidget::tr("is not a number"));
        return absent;
    }
    case Kind::Integer: {
        const QString t = text().trimmed();
        if (t.isEmpty())
            return absent;
        bool ok = false;
        const qint64 i = t.toLongLong(&ok);
        if (ok)
            return i;
        setError(error, f, jsonText(t), SchemaFormWidget::tr("is not an integer"));
        return absent;
    }
    case Kind::Boolean:
        switch (static_cast<QCheckBox *>(f.editor)->checkState()) {
        case Qt::Checked:
            return true;
        case Qt::Unchecked:
            return false;
        case Qt::PartiallyChecked:
            return absent;
        }
        return absent;
    case Kind::Enum: {
        const int index = static_cast<QComboBox *>(f.editor)->currentIndex();
        return index >= 1 && index <= f.options.size() ? f.options.at(index - 1) : absent;
    }
    case Kind::StringList: {
        const QString t = text().trimmed();
        if (t.isEmpty())
            return absent;
        if (t.startsWith(u'[')) {
            const auto v = parseJson(t);
            if (v && v->isArray())
                return *v;
            setError(error, f, jsonText(t), SchemaFormWidget::tr("is not a JSON array"));
            return absent;
        }
        QJsonArray array;
        for (const QString &part : t.split(u',')) {
            if (!part.trimmed().isEmpty())
                array.append(part.trimmed());
        }
        return array;
    }
    case Kind::JsonArray:
    case Kind::Json: {
        const QString t = text().trimmed();
        if (t.isEmpty())
            return absent;
        const auto v = parseJson(t);
        if (v && (f.kind == Kind::Json || v->isArray()))
            return *v;
        setError(error, f, jsonText(t),
                 f.kind == Kind::Json ? SchemaFormWidget::tr("is not valid JSON")
                                      : SchemaFormWidget::tr("is not a JSON array"));
        return absent;
    }
    case Kind::Object: {
        QJsonObject object = f.extra;
        for (const auto &child : f.children) {
            const QJsonValue v = readField(*child, error);
            if (!v.isUndefined())
                object.insert(child->key, v);
        }
        // An optional object nobody filled in is left out rather than sent as {}.
        return object.isEmpty() && !f.required ? absent : QJsonValue(object);
    }
    }
    return absent;
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

void writeField(Field &f, const QJsonValue &v)
{
    const auto setText = [&f](const QString &t) { static_cast<QLineEdit *>(f.editor)->setText(t); };
    switch (f.kind) {
    case Kind::String:
        setText(v.isUndefined() ? QString() : v.isString() ? v.toString() : jsonText(v));
        break;
    case Kind::Number:
    case Kind::JsonArray:
    case Kind::Json:
        setText(v.isUndefined() ? QString() : jsonText(v));
        break;
    case Kind::Integer:
        setText(v.isUndefined() ? QString()
                : isIntegral(v) && std::abs(v.toDouble()) < 9e18
                    ? QString::number(qint64(v.toDouble()))
                    : jsonText(v));
        break;
    case Kind::Boolean:
        static_cast<QCheckBox *>(f.editor)->setCheckState(
            v.isBool() ? (v.toBool() ? Qt::Checked : Qt::Unchecked) : Qt::PartiallyChecked);
        break;
    case Kind::Enum: {
        int index = 0;
        for (qsizetype i = 0; i < f.options.size() && !v.isUndefined(); ++i) {
            if (f.options.at(i) == v)
                index = int(i) + 1;
        }
        static_cast<QComboBox *>(f.editor)->setCurrentIndex(index);
        break;
    }
    case Kind::StringList:
        setText(v.isUndefined() ? QString()
                : v.isArray()   ? stringListText(v.toArray())
                                : jsonText(v));
        break;
    case Kind::Object: {
        QJsonObject object = v.toObject();
        for (const auto &child : f.children) {
            writeField(*child, object.value(child->key));
            object.remove(child->key);
        }
        f.extra = object;
        break;
    }
    }
}

void applyDefaults(Field &f)
{
    for (const auto &child : f.children)
        applyDefaults(*child);
    const QJsonValue d = f.schema.value("default"_L1);
    // pydantic writes "default": null for Optional[...]: that means absent, not the text "null".
    if (d.isUndefined() || d.isNull())
        return;
    if (f.kind != Kind::Object) {
        writeField(f, d);
        return;
    }
    // An object's default fills the children it names and leaves their own defaults alone.
    const QJsonObject object = d.toObject();
    for (const auto &child : f.children) {
        if (object.contains(child->key))
            writeField(*child, object.value(child->key));
    }
}

// Why the form cannot show v as it is (so switching to it would change the value); empty
// when it can.
QString misfit(const Field &f, const QJsonValue &v)
{
    if (v.isUndefined())
        return {};
    const auto expects = [&](const QString &what) {
        return SchemaFormWidget::tr("%1 expects %2, not %3").arg(quoted(f.path), what, jsonText(v));
    };
    switch (f.kind) {
    case Kind::String:
        return v.isString() ? QString() : expects(describeType(u"string"_s));
    case Kind::Number:
        return v.isDouble() ? QString() : expects(describeType(u"number"_s));
    case Kind::Integer:
        return isIntegral(v) ? QString() : expects(describeType(u"integer"_s));
    case Kind::Boolean:
        return v.isBool() ? QString() : expects(describeType(u"boolean"_s));
    case Kind::Enum:
        return f.options.contains(v)
                   ? QString()
                   : expects(SchemaFormWidget::tr("one of %1").arg(enumList(f.options)));
    case Kind::StringList: {
        bool strings = v.isArray();
        for (const QJsonValue &item : v.toArray())
            strings = strings && item.isString();
        return strings ? QString() : expects(SchemaFormWidget::tr("an array of strings"));
    }
    case Kind::JsonArray:
        return v.isArray() ? QString() : expects(describeType(u"array"_s));
    case Kind::Json:
        return {};
    case Kind::Object: {
        if (!v.isObject())
            return expects(describeType(u"object"_s));
        const QJsonObject object = v.toObject();
        for (const auto &child : f.children) {
            const QString why = misfit(*child, object.value(child->key));
            if (!why.isEmpty())
                return why;
        }
        return {};
    }
    }
    return {};
}

void collectExtras(const Field &f, QStringList *paths)
{
    for (auto it = f.extra.constBegin(); it != f.extra.constEnd(); ++it)
        *paths << joinPath(f.path, it.key());
    for (const auto &child : f.children)
        collectExtras(*child, paths);
}

} // namespace

struct SchemaFormWidget::Private
{
    SchemaFormWidget *q = nullptr;
    QJsonObject schema;
    Field root;
    Mode mode = Mode::Form;
    int updating = 0; // > 0 while the widget itself fills editors: no valueChanged per field

    QTabBar *tabs = nullptr;
    QStackedWidget *stack = nullptr;
    QScrollArea *scroll = nullptr;
    QLabel *extraNote = nullptr;
    JsonView *raw = nullptr;
    QLabel *rawError = nullptr;

    QJsonObject rawValue; // the last raw text that parsed as an object
    QString rawProblem;   // why the current raw text does not parse; empty when it does
    // True while the raw text is exactly what the form produced: switching back then keeps
    // the form as it is, including text that does not parse yet ("1e" in a number field).
    bool rawInSync = false;

    void build(Field &parent, const QJsonObject &objectSchema, QFormLayout *layout);
    QWidget *createEditor(Field &f);
    void rebuild();
    void edited();
    QJsonObject formValue(QString *error) const { return readField(root, error).toObject(); }
    void writeForm(const QJsonObject &value);
    void writeRaw(const QJsonObject &value);
    void parseRaw();
    void showRawProblem(const QString &text);
    void switchTo(Mode m);
};

void SchemaFormWidget::Private::edited()
{
    if (updating == 0)
        Q_EMIT q->valueChanged();
}

QWidget *SchemaFormWidget::Private::createEditor(Field &f)
{
    const auto lineEdit = [this](const QString &placeholder) {
        auto *e = new QLineEdit;
        e->setPlaceholderText(placeholder);
        e->setClearButtonEnabled(true); // clearing is how a field becomes absent again
        QObject::connect(e, &QLineEdit::textChanged, q, [this] { edited(); });
        return e;
    };
    switch (f.kind) {
    case Kind::String:
        return lineEdit(stringPlaceholder(f.schema.value("format"_L1).toString()));
    case Kind::Number: {
        auto *e = lineEdit(tr("number"));
        auto *validator = new QDoubleValidator(e);
        validator->setLocale(QLocale::c()); // JSON numbers use '.', whatever the user's locale
        validator->setNotation(QDoubleValidator::ScientificNotation);
        e->setValidator(validator);
        return e;
    }
    case Kind::Integer: {
        // Not a QSpinBox: a spin box always holds a number, and an optional integer must be
        // able to be absent. QIntValidator would also stop at 32 bits.
        auto *e = lineEdit(tr("integer"));
        e->setValidator(new QRegularExpressionValidator(QRegularExpression(u"-?[0-9]*"_s), e));
        return e;
    }
    case Kind::Boolean: {
        auto *box = new QCheckBox;
        box->setTristate(true);
        box->setCheckState(Qt::PartiallyChecked);
        box->setText(tr("not set"));
        QObject::connect(box, &QCheckBox::stateChanged, q, [this, box](int state) {
            box->setText(state == Qt::Checked     ? u"true"_s
                         : state == Qt::Unchecked ? u"false"_s
                                                  : tr("not set"));
            edited();
        });
        return box;
    }
    case Kind::Enum: {
        auto *combo = new QComboBox;
        f.options = f.schema.value("enum"_L1).toArray();
        // Elicitation schemas may give display names for a string enum.
        const QJsonArray names = f.schema.value("enumNames"_L1).toArray();
        combo->addItem(tr("(not set)"));
        for (qsizetype i = 0; i < f.options.size(); ++i) {
            const QJsonValue o = f.options.at(i);
            const QString text = o.isString() ? o.toString() : jsonText(o);
            combo->addItem(names.size() == f.options.size() && names.at(i).isString()
                               ? names.at(i).toString()
                               : text);
        }
        QObject::connect(combo, &QComboBox::currentIndexChanged, q, [this] { edited(); });
        return combo;
    }
    case Kind::StringList: {
        const QJsonArray options =
            effectiveSchema(f.schema.value("items"_L1).toObject()).value("enum"_L1).toArray();
        return lineEdit(options.isEmpty() ? tr("comma-separated: a, b, c")
                                          : tr("comma-separated, from: %1").arg(enumList(options)));
    }
    case Kind::JsonArray:
        return lineEdit(tr("JSON array: [1, 2]"));
    case Kind::Json:
        return lineEdit(f.schema.value("type"_L1) == "object"_L1
                            ? tr("JSON object: {\"key\": \"value\"}")
                            : tr("JSON value"));
    case Kind::Object: {
        auto *box = new QGroupBox(f.schema.value("title"_L1).toString());
        auto *layout = new QFormLayout(box);
        layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        build(f, f.schema, layout);
        return box;
    }
    }
    return nullptr;
}

void SchemaFormWidget::Private::build(Field &parent, const QJsonObject &objectSchema,
                                      QFormLayout *layout)
{
    const QJsonObject properties = objectSchema.value("properties"_L1).toObject();
    // QJsonObject has already lost the schema's property order; required properties come
    // first, in the order "required" lists them, then the others by name.
    QStringList order;
    QSet<QString> required;
    for (const QJsonValue &r : objectSchema.value("required"_L1).toArray()) {
        if (r.isString() && properties.contains(r.toString()) && !required.contains(r.toString())) {
            required.insert(r.toString());
            order << r.toString();
        }
    }
    for (const QString &key : properties.keys()) {
        if (!required.contains(key))
            order << key;
    }

    for (const QString &key : std::as_const(order)) {
        auto f = std::make_unique<Field>();
        f->key = key;
        f->path = joinPath(parent.path, key);
        f->schema = effectiveSchema(properties.value(key).toObject());
        f->required = required.contains(key);
        f->kind = kindOf(f->schema);
        f->editor = createEditor(*f);
        f->editor->setObjectName(u"field:"_s + f->path);

        QString tip = f->schema.value("description"_L1).toString();
        const QString title = f->schema.value("title"_L1).toString();
        if (!title.isEmpty() && title != key)
            tip = tip.isEmpty() ? title : title + u"\n\n"_s + tip;
        auto *label =
            new QLabel(key.toHtmlEscaped() +
                       (f->required ? u" <span style=\"color:red\">*</span>"_s : QString()));
        label->setTextFormat(Qt::RichText);
        label->setObjectName(u"label:"_s + f->path);
        label->setToolTip(tip);
        label->setBuddy(f->editor);
        f->editor->setToolTip(tip);

        layout->addRow(label, f->editor);
        parent.children.push_back(std::move(f));
    }
}

void SchemaFormWidget::Private::rebuild()
{
    root = Field();
    root.kind = Kind::Object;
    root.schema = schema;
    root.required = true; // the arguments object is always sent, even when empty

    auto *form = new QWidget;
    auto *layout = new QFormLayout(form);
    layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    build(root, schema, layout);
    if (root.children.empty()) {
        auto *none =
            new QLabel(tr("The schema describes no properties; the JSON view takes any object."));
        none->setObjectName(u"noProperties"_s);
        none->setWordWrap(true);
        none->setEnabled(false);
        layout->addRow(none);
    }
    ++updating;
    applyDefaults(root);
    --updating;
    scroll->setWidget(form); // deletes the previous form and its editors
    extraNote->hide();
}

void SchemaFormWidget::Private::writeForm(const QJsonObject &value)
{
    ++updating;
    writeField(root, value);
    --updating;
    QStringList extras;
    collectExtras(root, &extras);
    extraNote->setText(tr("Also sent, not described by the schema (edit in the JSON view): %1")
                           .arg(extras.join(", "_L1)));
    extraNote->setVisible(!extras.isEmpty());
}

void SchemaFormWidget::Private::writeRaw(const QJsonObject &value)
{
    ++updating;
    raw->setPlainText(QString::fromUtf8(QJsonDocument(value).toJson(QJsonDocument::Indented)));
    --updating;
    parseRaw();
    rawInSync = true;
}

void SchemaFormWidget::Private::parseRaw()
{
    const QByteArray text = raw->toPlainText().toUtf8();
    if (text.trimmed().isEmpty()) {
        rawProblem.clear();
        rawValue = {};
    } else {
        QJsonParseError e;
        const QJsonDocument doc = QJsonDocument::fromJson(text, &e);
        if (e.error != QJsonParseError::NoError) {
            const QByteArray before = text.left(e.offset);
            rawProblem = tr("Line %1, column %2: %3")
                             .arg(before.count('\n') + 1)
                             .arg(before.size() - before.lastIndexOf('\n'))
                             .arg(e.errorString());
        } else if (!doc.isObject()) {
            rawProblem = tr("The value must be a JSON object.");
        } else {
            rawProblem.clear();
            rawValue = doc.object();
        }
    }
    showRawProblem(rawProblem);
}

void SchemaFormWidget::Private::showRawProblem(const QString &text)
{
    rawError->setText(text);
    rawError->setVisible(!text.isEmpty());
}

void SchemaFormWidget::Private::switchTo(Mode m)
{
    const bool changed = mode != m;
    mode = m;
    stack->setCurrentIndex(m == Mode::Form ? 0 : 1);
    {
        const QSignalBlocker blocker(tabs);
        tabs->setCurrentIndex(m == Mode::Form ? 0 : 1);
    }
    if (changed)
        Q_EMIT q->modeChanged(m);
}

SchemaFormWidget::SchemaFormWidget(QWidget *parent)
    : QWidget(parent), d(std::make_unique<Private>())
{
    d->q = this;

    d->tabs = new QTabBar;
    d->tabs->setObjectName(u"modeTabs"_s);
    d->tabs->addTab(tr("Form"));
    d->tabs->addTab(tr("JSON"));
    d->tabs->setExpanding(false);
    d->tabs->setDrawBase(false);

    d->scroll = new QScrollArea;
    d->scroll->setWidgetResizable(true);
    d->scroll->setFrameShape(QFrame::NoFrame);
    d->extraNote = new QLabel;
    d->extraNote->setObjectName(u"extraKeys"_s);
    d->extraNote->setWordWrap(true);
    d->extraNote->hide();
    auto *formPage = new QWidget;
    auto *formLayout = new QVBoxLayout(formPage);
    formLayout->setContentsMargins(0, 0, 0, 0);
    formLayout->addWidget(d->scroll);
    formLayout->addWidget(d->extraNote);

    d->raw = new JsonView; // monospace, highlighted; editable here
    d->raw->setObjectName(u"rawEditor"_s);
    d->raw->setReadOnly(false);
    d->rawError = new QLabel;
    d->rawError->setObjectName(u"rawError"_s);
    d->rawError->setWordWrap(true);
    d->rawError->setTextFormat(Qt::PlainText);
    d->rawError->setStyleSheet(u"color: red"_s);
    d->rawError->hide();
    auto *rawPage = new QWidget;
    auto *rawLayout = new QVBoxLayout(rawPage);
    rawLayout->setContentsMargins(0, 0, 0, 0);
    rawLayout->addWidget(d->raw);
    rawLayout->addWidget(d->rawError);

    d->stack = new QStackedWidget;
    d->stack->addWidget(formPage);
    d->stack->addWidget(rawPage);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(d->tabs);
    layout->addWidget(d->stack);

    connect(d->tabs, &QTabBar::currentChanged, this,
            [this](int index) { setMode(index == 0 ? Mode::Form : Mode::Raw); });
    connect(d->raw, &QPlainTextEdit::textChanged, this, [this] {
        if (d->updating > 0)
            return;
        d->rawInSync = false;
        d->parseRaw();
        Q_EMIT valueChanged();
    });

    d->rebuild();
}

SchemaFormWidget::~SchemaFormWidget() = default;

void SchemaFormWidget::setSchema(const QJsonObject &schema)
{
    d->schema = schema;
    d->rebuild();
    if (d->mode == Mode::Raw)
        d->writeRaw(d->formValue(nullptr));
    Q_EMIT valueChanged();
}

QJsonObject SchemaFormWidget::schema() const
{
    return d->schema;
}

QJsonObject SchemaFormWidget::value() const
{
    return d->mode == Mode::Raw ? d->rawValue : d->formValue(nullptr);
}

void SchemaFormWidget::setValue(const QJsonObject &value)
{
    const QString why = misfit(d->root, value);
    if (why.isEmpty())
        d->writeForm(value);
    if (d->mode == Mode::Raw || !why.isEmpty())
        d->writeRaw(value);
    if (!why.isEmpty()) {
        // The form still shows what it showed before: switching back must re-read the text.
        d->rawInSync = false;
        d->showRawProblem(tr("Cannot show this in the form: %1").arg(why));
        if (d->mode != Mode::Raw)
            d->switchTo(Mode::Raw);
    }
    Q_EMIT valueChanged();
}

bool SchemaFormWidget::isValid(QString *why) const
{
    QString problem;
    QJsonObject v;
    if (d->mode == Mode::Raw) {
        problem = d->rawProblem;
        v = d->rawValue;
    } else {
        v = d->formValue(&problem);
    }
    if (problem.isEmpty())
        check(v, d->schema, QString(), &problem);
    if (why)
        *why = problem;
    return problem.isEmpty();
}

void SchemaFormWidget::setMode(Mode mode)
{
    if (mode == d->mode) {
        d->switchTo(mode); // puts the tab bar back when a switch was refused
        return;
    }
    if (mode == Mode::Raw) {
        d->writeRaw(d->formValue(nullptr));
        d->switchTo(Mode::Raw);
        return;
    }
    if (!d->rawInSync) {
        d->parseRaw();
        if (!d->rawProblem.isEmpty()) {
            d->switchTo(Mode::Raw);
            return;
        }
        const QString why = misfit(d->root, d->rawValue);
        if (!why.isEmpty()) {
            d->showRawProblem(tr("Cannot show this in the form: %1").arg(why));
            d->switchTo(Mode::Raw);
            return;
        }
        d->writeForm(d->rawValue);
    }
    d->switchTo(Mode::Form);
}

SchemaFormWidget::Mode SchemaFormWidget::mode() const
{
    return d->mode;
}

} // namespace Sonde
