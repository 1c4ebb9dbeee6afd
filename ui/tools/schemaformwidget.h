// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QWidget>

#include <memory>

namespace Sonde {

// Edits a JSON object against a JSON Schema: a tool's inputSchema, a prompt's arguments
// (converted to a schema by the caller) or an elicitation's requestedSchema. GUI thread only;
// owned by its parent widget. Emits valueChanged() on every edit, in either view.
//
// Two views share one value: a form generated from the schema, and a raw JSON editor. The
// form has one row per property; each editor's objectName is "field:" followed by the path of
// its property ("field:message", "field:address/city"; a '/' or '~' inside a name is escaped
// as in a JSON pointer, "~1" and "~0"), and its label is "label:" followed by the same path.
//   string            QLineEdit (placeholder from "format"); with "enum", a QComboBox
//   number, integer   QLineEdit with a validator; empty means absent
//   boolean           QCheckBox; tri-state when the schema allows null, partially checked
//                     meaning absent; an optional two-state box is sent once touched
//   array of strings  a comma-separated line ("a, b, c"); a line starting with '[' is read as
//                     a JSON array, which is how strings containing commas are written
//   other arrays      a line holding a JSON array ("[1, 2]")
//   object            a group box with its own rows, when the schema lists "properties"
//   anything else     a line holding any JSON value (free-form objects, $ref, unknown types)
// Under each field a help line gives its title, description and default. A required
// property's "default" pre-fills its editor and so is part of value(); an optional one's is
// shown (placeholder, help line) but not sent: left alone, the property is absent and the
// server applies its own default. A field left empty is omitted. Keys the schema does not describe
// (typed in the raw view, or given to setValue()) are kept as they are, so switching views never
// loses input.
class SchemaFormWidget : public QWidget
{
    Q_OBJECT
public:
    enum class Mode
    {
        Form,
        Raw
    };
    Q_ENUM(Mode)

    explicit SchemaFormWidget(QWidget *parent = nullptr);
    ~SchemaFormWidget() override;

    // Rebuilds the form; the value becomes the schema's defaults.
    void setSchema(const QJsonObject &schema);
    QJsonObject schema() const;

    // In the raw view, the last text that parsed as a JSON object.
    QJsonObject value() const;
    // A value the form cannot show (a string where the schema wants an integer) opens the raw
    // view with the reason, rather than being changed to fit.
    void setValue(const QJsonObject &value);
    // Required properties present, numbers and integers parse, enums and types respected,
    // the raw text parses. The reason names the offending property.
    bool isValid(QString *why = nullptr) const;

    // Switching to Form parses the raw text; when it does not parse, or does not fit the
    // form, the widget stays in Raw and shows why under the editor.
    void setMode(Mode mode);
    Mode mode() const;

    // Shows under each property annotated "x-mcp-header" the HTTP header its value is also
    // sent as ("→ Mcp-Param-Region", objectName "header:" + its path): a 2026-07-28
    // connection over HTTP mirrors those arguments into headers. Off by default; the form is
    // rebuilt, keeping its value, when it changes.
    void setHeaderHints(bool shown);
    // An elicitation's form sends every default the user did not change (SEP-1034: a client
    // fills them in), so its help lines say "sent unless you change it"; a tool's form sends
    // only what is set. Before setSchema.
    void setDefaultsSent(bool sent);
    bool headerHints() const;

    // A page of the caller's, its tab after Form and JSON (a tool's definition): choosing it
    // shows `page` in place of the editors, and the value and mode stay as they were, so
    // Form or JSON comes back as it was left. The widget takes `page`; returns its tab's index.
    int addPage(const QString &title, QWidget *page);

    // Puts the mode tabs and then every editor, in the form's order, after `before` in the
    // focus chain (the editors are made anew by setSchema); returns the last one.
    QWidget *chainTabOrder(QWidget *before);

    // The whole form, not the scroll area's small default: a dialog sizes itself from it.
    // (Not as heightForWidth: a layout asks a widget's own layout for that, which would
    // answer with the scroll area's default again.)
    QSize sizeHint() const override;
    // How much taller the form's area must be to show every field without scrolling, at its
    // width now; 0 when all fit.
    int heightLacking() const;

Q_SIGNALS:
    void valueChanged();
    void modeChanged(Sonde::SchemaFormWidget::Mode mode);
    // The user chose the tab of a page of addPage().
    void pageShown(QWidget *page);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace Sonde
