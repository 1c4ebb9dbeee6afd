// SPDX-License-Identifier: MIT
#include "tools/schemaformfield.h"

#include "protocol/jsonschemavalidator.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>

using namespace Qt::StringLiterals;

namespace Sonde {

using Kind = SchemaFormCodec::Kind;

QJsonValue SchemaFormField::read(QString *error) const
{
    if (isGroup()) {
        QJsonObject object = extra;
        for (const auto &child : children) {
            const QJsonValue v = child->read(error);
            if (!v.isUndefined())
                object.insert(child->key, v);
        }
        // An optional object nobody filled in is left out rather than sent as {}.
        return object.isEmpty() && !required ? QJsonValue(QJsonValue::Undefined)
                                             : QJsonValue(object);
    }
    switch (codec.kind()) {
    case Kind::Boolean:
        if (isTwoStateBoolean() && !required && !touched)
            return QJsonValue(QJsonValue::Undefined);
        return SchemaFormCodec::fromCheckState(static_cast<QCheckBox *>(editor)->checkState());
    case Kind::Enum:
        return codec.fromIndex(static_cast<QComboBox *>(editor)->currentIndex());
    case Kind::Choices: {
        QList<bool> checked;
        for (const QCheckBox *box : choiceBoxes())
            checked << box->isChecked();
        return codec.fromChecks(checked, required);
    }
    default: {
        const SchemaFormCodec::Reading r = codec.fromText(static_cast<QLineEdit *>(editor)->text());
        if (!r.problem.isEmpty() && error && error->isEmpty())
            *error = JsonSchemaValidator::quotedPath(pointer) + u": "_s + r.problem;
        return r.value;
    }
    }
}

void SchemaFormField::write(const QJsonValue &value)
{
    if (isGroup()) {
        QJsonObject object = value.toObject();
        for (const auto &child : children) {
            child->write(object.value(child->key));
            object.remove(child->key);
        }
        extra = object;
        return;
    }
    switch (codec.kind()) {
    case Kind::Boolean: {
        auto *box = static_cast<QCheckBox *>(editor);
        Qt::CheckState state = SchemaFormCodec::toCheckState(value);
        touched = value.isBool();
        if (state == Qt::PartiallyChecked && isTwoStateBoolean()) // absent: show the default
            state = codec.schema().value("default"_L1).toBool() ? Qt::Checked : Qt::Unchecked;
        box->setCheckState(state);
        updateCheckText();
        break;
    }
    case Kind::Enum:
        static_cast<QComboBox *>(editor)->setCurrentIndex(codec.toIndex(value));
        break;
    case Kind::Choices: {
        const QList<bool> checks = codec.toChecks(value);
        const QList<QCheckBox *> boxes = choiceBoxes();
        for (qsizetype i = 0; i < boxes.size() && i < checks.size(); ++i)
            boxes.at(i)->setChecked(checks.at(i));
        break;
    }
    default:
        static_cast<QLineEdit *>(editor)->setText(codec.toText(value));
    }
}

void SchemaFormField::applyDefaults()
{
    for (const auto &child : children)
        child->applyDefaults();
    const QJsonValue d = codec.schema().value("default"_L1);
    // pydantic writes "default": null for Optional[...]: that means absent, not the text "null".
    if (d.isUndefined() || d.isNull())
        return;
    if (!isGroup()) {
        if (required)
            write(d);
        else if (isTwoStateBoolean() && d.isBool())
            write(QJsonValue::Undefined); // shows the default, sends nothing
        return;
    }
    // An object's default fills the children it names and leaves their own defaults alone;
    // an optional object's is only shown, as any optional default.
    if (!required)
        return;
    const QJsonObject object = d.toObject();
    for (const auto &child : children) {
        if (object.contains(child->key))
            child->write(object.value(child->key));
    }
}

void SchemaFormField::updateCheckText() const
{
    auto *box = static_cast<QCheckBox *>(editor);
    box->setText(
        SchemaFormCodec::checkText(box->checkState(), !isTwoStateBoolean() || required || touched));
}

QString SchemaFormField::misfit(const QJsonValue &value) const
{
    // The root has no editor and is always given an object.
    const QString why = editor ? codec.misfit(value) : QString();
    if (!why.isEmpty())
        return JsonSchemaValidator::quotedPath(pointer) + u' ' + why;
    if (isGroup()) {
        const QJsonObject object = value.toObject();
        for (const auto &child : children) {
            const QString childWhy = child->misfit(object.value(child->key));
            if (!childWhy.isEmpty())
                return childWhy;
        }
    }
    return {};
}

QList<QCheckBox *> SchemaFormField::choiceBoxes() const
{
    // Created in the options' order, and children keep the order they were added in.
    return editor->findChildren<QCheckBox *>(Qt::FindDirectChildrenOnly);
}

void SchemaFormField::collectEditors(QList<QWidget *> *editors) const
{
    for (const auto &child : children) {
        if (child->isGroup())
            child->collectEditors(editors);
        else if (child->codec.kind() == Kind::Choices)
            for (QCheckBox *box : child->choiceBoxes())
                editors->append(box);
        else
            editors->append(child->editor);
    }
}

QString SchemaFormField::helpText(bool defaultsSent) const
{
    QStringList parts;
    const QString title = codec.schema().value("title"_L1).toString();
    if (!title.isEmpty() && title != key && codec.kind() != Kind::Object)
        parts << title; // an object's title is its group box's
    const QString description = codec.schema().value("description"_L1).toString().trimmed();
    if (!description.isEmpty())
        parts << description;
    const QString d = codec.defaultText();
    if (!d.isEmpty())
        parts << (required       ? SchemaFormCodec::tr("Default: %1.")
                  : defaultsSent ? SchemaFormCodec::tr("Default: %1 (sent unless you change it).")
                                 : SchemaFormCodec::tr("Default: %1 (not sent unless set)."))
                     .arg(d);
    return parts.join(u" · "_s);
}

void SchemaFormField::collectExtras(QStringList *names) const
{
    for (auto it = extra.constBegin(); it != extra.constEnd(); ++it)
        *names << JsonSchemaValidator::appendToPointer(pointer, it.key()).mid(1);
    for (const auto &child : children)
        child->collectExtras(names);
}

} // namespace Sonde
