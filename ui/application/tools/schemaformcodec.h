// SPDX-License-Identifier: MIT
#pragma once

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

namespace Sonde {

// How the schema form shows one property's JSON value in its editor and reads it back: which
// editor a property's schema gets (kind), the text of a line editor, the state of a tri-state
// check box, the item of a combo box, and whether the editor can show a value as it is. Pure
// functions of the property's schema: no widgets, so every rule is testable headless. Any
// thread. SchemaFormWidget keeps one per property.
//   String            the text itself; "" is absent
//   Number, Integer   the number as JSON writes it; "" is absent
//   Boolean           Qt::Checked, Qt::Unchecked; Qt::PartiallyChecked is absent (only when
//                     the schema allows null: otherwise the box has two states)
//   Enum              combo box item 1..n is option 1..n; item 0 is absent
//   Choices           an array of options (a multi-select enum): one check box per option,
//                     the value the checked ones in the options' order; none checked is absent
//   StringList        "a, b, c"; a text starting with '[' is read as a JSON array, which is
//                     how strings holding commas (or lists starting with '[') are written
//   JsonArray, Json   JSON text ("[1, 2]", any value)
//   Object            no text: the form shows the properties as rows of their own
// An undefined QJsonValue means absent: the property is left out of the value.
class SchemaFormCodec
{
    Q_DECLARE_TR_FUNCTIONS(SchemaFormCodec)
public:
    enum class Kind
    {
        String,
        Number,
        Integer,
        Boolean,
        Enum,
        Choices,
        StringList,
        JsonArray,
        Object,
        Json
    };

    // Servers written with pydantic or zod describe an optional property as
    // anyOf [X, {"type": "null"}] or "type": [X, "null"]: the form shows X.
    static QJsonObject effectiveSchema(const QJsonObject &schema);

    // `schema` is the property's schema; its effective schema decides the kind.
    explicit SchemaFormCodec(const QJsonObject &schema = {});
    Kind kind() const { return m_kind; }
    const QJsonObject &schema() const { return m_schema; } // the effective schema
    // Whether the property's own schema allows null ("type": [X, "null"], a null branch of
    // anyOf/oneOf, "nullable": true): a boolean then gets a third state, null/absent.
    bool nullable() const { return m_nullable; }
    // The schema's "default" as the form writes it ("3", "a, b", "true"); empty without one
    // (a null default, as pydantic writes for Optional, is none).
    QString defaultText() const;

    // Line editors. A text that does not parse reads as absent, with the reason in `problem`
    // ("\"1e\" is not a number").
    struct Reading
    {
        QJsonValue value = QJsonValue(QJsonValue::Undefined);
        QString problem;
    };
    Reading fromText(const QString &text) const;
    QString toText(const QJsonValue &value) const;
    QString placeholder() const;

    static QJsonValue fromCheckState(Qt::CheckState state);
    static Qt::CheckState toCheckState(const QJsonValue &value);
    // A check box's text: "true", "false", or for a value not sent "not set".
    static QString checkText(Qt::CheckState state, bool sent);

    // Kind::Enum: the combo box's items after "(not set)", and the item showing a value.
    // Kind::Choices: the check boxes' values and texts. An option's text is its title where
    // the schema gives one (the 2025-11-25 elicitation forms: "oneOf"/"anyOf" of
    // {"const", "title"}, or the older "enumNames").
    const QJsonArray &options() const { return m_options; }
    QStringList optionTexts() const;
    // Kind::Choices: the options a value checks, by index; the value the checked ones make.
    QList<bool> toChecks(const QJsonValue &value) const;
    QJsonValue fromChecks(const QList<bool> &checked, bool required) const;
    QJsonValue fromIndex(int index) const;
    int toIndex(const QJsonValue &value) const;

    // Why the editor cannot show `value` as it is (switching to the form would change it),
    // without the path: "expects an integer, not \"seven\""; empty when it can. For Object,
    // only whether it is an object: its properties have codecs of their own.
    QString misfit(const QJsonValue &value) const;

private:
    Kind m_kind = Kind::Json;
    bool m_nullable = false;
    QJsonObject m_schema;
    QJsonArray m_options;
    QStringList m_optionTitles; // empty, or one per option
};

} // namespace Sonde
