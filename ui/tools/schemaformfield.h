// SPDX-License-Identifier: MIT
#pragma once

#include "application/tools/schemaformcodec.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

class QCheckBox;
class QWidget;

namespace Sonde {

// One property of a SchemaFormWidget's schema and the editor that shows it; an object's
// properties are its children. Moves a value between the editors and JSON, the way its
// SchemaFormCodec says. The root is a field too, without an editor, so nested objects and
// the top level share one code path. GUI thread; the widget owns the root field and the
// editors, a field owns its children.
struct SchemaFormField
{
    SchemaFormCodec codec;
    QString key;
    QString pointer; // a JSON Pointer into the value: "/address/city"; "" for the root
    bool required = false;
    // Set once the user edits the field or a value is written into it. A two-state check box
    // of an optional property always shows true or false, but sends nothing until touched.
    bool touched = false;
    QWidget *editor = nullptr;
    std::vector<std::unique_ptr<SchemaFormField>> children;
    // Keys the schema does not describe: the form cannot show them, but dropping them would
    // make a round trip through the form lose what the user typed in the raw view.
    QJsonObject extra;

    // The root is a group whatever its schema says: the arguments are always an object.
    bool isGroup() const { return !editor || codec.kind() == SchemaFormCodec::Kind::Object; }
    QString name() const { return pointer.mid(1); } // "address/city", for objectNames

    // An undefined QJsonValue means "absent". Text that does not parse reads as absent and
    // says why through *error (the first problem wins).
    QJsonValue read(QString *error) const;
    void write(const QJsonValue &value);
    // Fills the editors of required properties with the schema's "default" values (an
    // optional property's default is only shown: the server applies it when it is absent).
    void applyDefaults();
    // Whether a two-state check box, not a tri-state one, edits the property.
    bool isTwoStateBoolean() const
    {
        return codec.kind() == SchemaFormCodec::Kind::Boolean && !codec.nullable();
    }
    // Shows whether the check box's value is sent, after an edit or a write.
    void updateCheckText() const;
    // Why the form cannot show `value` as it is (switching to it would change the value),
    // naming the property; empty when it can.
    QString misfit(const QJsonValue &value) const;
    // Kind::Choices: the editor's check boxes, one per option in the options' order.
    QList<QCheckBox *> choiceBoxes() const;
    // The editors here and below, in the form's order.
    void collectEditors(QList<QWidget *> *editors) const;
    // The help line under the editor: the title (when it is not the key), the description
    // and the default (said not to be sent, for an optional property); empty without any.
    // `defaultsSent`: the form sends an optional property's default too (elicitation).
    QString helpText(bool defaultsSent = false) const;
    // The names of the keys kept in `extra`, here and below.
    void collectExtras(QStringList *names) const;
};

} // namespace Sonde
