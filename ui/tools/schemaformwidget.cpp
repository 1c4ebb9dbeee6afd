// SPDX-License-Identifier: MIT
// A little over 500 lines: building the form, the raw view and keeping the two in step share
// the one Private state; what each field does is already in SchemaFormField and
// SchemaFormCodec, and the notes under the fields in FormLabels.
#include "tools/schemaformwidget.h"

#include "protocol/jsonschemavalidator.h"
#include "tools/schemaformfield.h"
#include "window/formlabels.h"
#include "window/jsonview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleValidator>
#include <QFormLayout>
#include <QGroupBox>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QTabBar>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
using Kind = SchemaFormCodec::Kind;
using Field = SchemaFormField;
} // namespace

struct SchemaFormWidget::Private
{
    SchemaFormWidget *q = nullptr;
    QJsonObject schema;
    Field root;
    Mode mode = Mode::Form;
    int updating = 0; // > 0 while the widget itself fills editors: no valueChanged per field
    bool headerHints = false;
    bool defaultsSent = false;

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
    QLabel *helpLine(const Field &f) const;
    static QLabel *headerLine(const Field &f);
    QWidget *createEditor(Field &f);
    void rebuild();
    void edited();
    QJsonObject formValue(QString *error) const { return root.read(error).toObject(); }
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
    const auto lineEdit = [this, &f] {
        auto *e = new QLineEdit;
        // An optional property left empty is not sent: the server applies its default, which
        // the placeholder shows.
        const QString d = f.codec.defaultText();
        e->setPlaceholderText(d.isEmpty() || f.required ? f.codec.placeholder()
                                                        : tr("default: %1").arg(d));
        e->setClearButtonEnabled(true); // clearing is how a field becomes absent again
        QObject::connect(e, &QLineEdit::textChanged, q, [this] { edited(); });
        return e;
    };
    switch (f.codec.kind()) {
    case Kind::Number: {
        auto *e = lineEdit();
        auto *validator = new QDoubleValidator(e);
        validator->setLocale(QLocale::c()); // JSON numbers use '.', whatever the user's locale
        validator->setNotation(QDoubleValidator::ScientificNotation);
        e->setValidator(validator);
        return e;
    }
    case Kind::Integer: {
        // Not a QSpinBox: a spin box always holds a number, and an optional integer must be
        // able to be absent. QIntValidator would also stop at 32 bits.
        auto *e = lineEdit();
        e->setValidator(new QRegularExpressionValidator(QRegularExpression(u"-?[0-9]*"_s), e));
        return e;
    }
    case Kind::Boolean: {
        // Two states unless the schema allows null: then the third, partially checked, is
        // null/absent. An optional two-state box sends nothing until it is touched.
        auto *box = new QCheckBox;
        box->setTristate(f.codec.nullable());
        box->setCheckState(f.codec.nullable() ? Qt::PartiallyChecked : Qt::Unchecked);
        box->setText(SchemaFormCodec::checkText(box->checkState(), f.required));
        QObject::connect(box, &QCheckBox::stateChanged, box, [this, &f] {
            if (updating == 0)
                f.touched = true;
            f.updateCheckText();
            edited();
        });
        return box;
    }
    case Kind::Enum: {
        auto *combo = new QComboBox;
        const QString d = f.codec.defaultText();
        combo->addItem(d.isEmpty() || f.required ? tr("(not set)")
                                                 : tr("(not set · default: %1)").arg(d));
        combo->addItems(f.codec.optionTexts());
        QObject::connect(combo, &QComboBox::currentIndexChanged, q, [this] { edited(); });
        return combo;
    }
    case Kind::Choices: {
        // A multi-select enum: each option a check box, so the choices are seen and ticked,
        // not typed as a list.
        auto *choices = new QWidget;
        auto *column = new QVBoxLayout(choices);
        column->setContentsMargins(0, 0, 0, 0);
        column->setSpacing(2);
        const QStringList texts = f.codec.optionTexts();
        for (qsizetype i = 0; i < texts.size(); ++i) {
            auto *box = new QCheckBox(texts.at(i), choices);
            box->setObjectName(u"choice:%1:%2"_s.arg(f.name()).arg(i));
            box->setAccessibleName(texts.at(i));
            column->addWidget(box);
            QObject::connect(box, &QCheckBox::toggled, q, [this] { edited(); });
        }
        return choices;
    }
    case Kind::Object: {
        auto *box = new QGroupBox(f.codec.schema().value("title"_L1).toString());
        auto *layout = new QFormLayout(box);
        layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        build(f, f.codec.schema(), layout);
        return box;
    }
    default:
        return lineEdit();
    }
}

// The line under a field (title, description, default), so they are seen without hovering.
// None for a field without any of them.
QLabel *SchemaFormWidget::Private::helpLine(const Field &f) const
{
    const QString text = f.helpText(defaultsSent);
    return text.isEmpty() ? nullptr : FormLabels::note(text);
}

// The header a 2026-07-28 client mirrors the field's value into (x-mcp-header); none for a
// field without one. Only properties reached through "properties" get here, as the spec
// requires of an annotated one.
QLabel *SchemaFormWidget::Private::headerLine(const Field &f)
{
    const QString name = f.codec.schema().value("x-mcp-header"_L1).toString();
    if (name.isEmpty())
        return nullptr;
    const QString header = u"Mcp-Param-"_s + name;
    QLabel *hint = FormLabels::note(u"→ "_s + header);
    hint->setToolTip(tr("Over HTTP, 2026-07-28 also sends this field's value as the header %1 "
                        "(x-mcp-header), so a gateway can route on it without reading the body")
                         .arg(header));
    return hint;
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
        f->pointer = JsonSchemaValidator::appendToPointer(parent.pointer, key);
        f->codec = SchemaFormCodec(properties.value(key).toObject());
        f->required = required.contains(key);
        f->editor = createEditor(*f);
        f->editor->setObjectName(u"field:"_s + f->name());

        QString tip = f->codec.schema().value("description"_L1).toString();
        const QString title = f->codec.schema().value("title"_L1).toString();
        if (!title.isEmpty() && title != key)
            tip = tip.isEmpty() ? title : title + u"\n\n"_s + tip;
        auto *label =
            new QLabel(key.toHtmlEscaped() +
                       (f->required ? u" <span style=\"color:red\">*</span>"_s : QString()));
        label->setTextFormat(Qt::RichText);
        label->setObjectName(u"label:"_s + f->name());
        label->setToolTip(tip);
        label->setBuddy(f->editor);
        f->editor->setToolTip(tip);
        f->editor->setAccessibleName(title.isEmpty() ? key : title);
        f->editor->setAccessibleDescription(tip);

        layout->addRow(label, f->editor);
        if (QLabel *header = headerHints ? headerLine(*f) : nullptr) {
            header->setObjectName(u"header:"_s + f->name());
            f->editor->setAccessibleDescription(tip.isEmpty() ? header->toolTip()
                                                              : tip + u' ' + header->toolTip());
            layout->addRow(QString(), header);
        }
        if (QLabel *help = helpLine(*f)) {
            help->setObjectName(u"help:"_s + f->name());
            layout->addRow(QString(), help);
        }
        parent.children.push_back(std::move(f));
    }
}

void SchemaFormWidget::Private::rebuild()
{
    root = Field();
    root.codec = SchemaFormCodec(schema);
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
    root.applyDefaults();
    --updating;
    scroll->setWidget(form); // deletes the previous form and its editors
    extraNote->hide();
}

void SchemaFormWidget::Private::writeForm(const QJsonObject &value)
{
    ++updating;
    root.write(value);
    --updating;
    QStringList extras;
    root.collectExtras(&extras);
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

    connect(d->tabs, &QTabBar::currentChanged, this, [this](int index) {
        if (index >= 2) { // a page of addPage(), at the same index in the stack
            d->stack->setCurrentIndex(index);
            Q_EMIT pageShown(d->stack->currentWidget());
        } else {
            setMode(index == 0 ? Mode::Form : Mode::Raw);
        }
    });
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

void SchemaFormWidget::setHeaderHints(bool shown)
{
    if (d->headerHints == shown)
        return;
    d->headerHints = shown;
    const QJsonObject kept = value();
    d->rebuild();
    setValue(kept);
}

void SchemaFormWidget::setDefaultsSent(bool sent)
{
    d->defaultsSent = sent;
}

bool SchemaFormWidget::headerHints() const
{
    return d->headerHints;
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
    const QString why = d->root.misfit(value);
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
    if (problem.isEmpty()) {
        const QList<JsonSchemaValidator::Violation> violations =
            JsonSchemaValidator::validate(v, d->schema);
        if (!violations.isEmpty())
            problem = violations.first().text();
    }
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
        const QString why = d->root.misfit(d->rawValue);
        if (!why.isEmpty()) {
            d->showRawProblem(tr("Cannot show this in the form: %1").arg(why));
            d->switchTo(Mode::Raw);
            return;
        }
        d->writeForm(d->rawValue);
    }
    d->switchTo(Mode::Form);
}

int SchemaFormWidget::addPage(const QString &title, QWidget *page)
{
    d->stack->addWidget(page);
    return d->tabs->addTab(title);
}

SchemaFormWidget::Mode SchemaFormWidget::mode() const
{
    return d->mode;
}

QWidget *SchemaFormWidget::chainTabOrder(QWidget *before)
{
    QList<QWidget *> order{d->tabs};
    d->root.collectEditors(&order);
    order.append(d->raw);
    QWidget *last = before;
    for (QWidget *w : std::as_const(order)) {
        setTabOrder(last, w);
        last = w;
    }
    return last;
}

namespace {
// What the scroll area adds around the form: its frame and a vertical scroll bar.
int scrollChrome(const QScrollArea *scroll)
{
    return 2 * scroll->frameWidth() + scroll->verticalScrollBar()->sizeHint().width();
}
} // namespace

int SchemaFormWidget::heightLacking() const
{
    const QWidget *form = d->scroll->widget();
    if (!form)
        return 0;
    const QWidget *viewport = d->scroll->viewport();
    const int needed = form->hasHeightForWidth() ? form->heightForWidth(viewport->width())
                                                 : form->sizeHint().height();
    return std::max(0, needed - viewport->height());
}

QSize SchemaFormWidget::sizeHint() const
{
    const QWidget *form = d->scroll->widget();
    const QSize content = form ? form->sizeHint() : QSize();
    const int width = content.width() + scrollChrome(d->scroll);
    // Wrapped help lines make the form's height depend on its width: ask at this one.
    const int height = form && form->hasHeightForWidth() ? form->heightForWidth(content.width())
                                                         : content.height();
    const int note = d->extraNote->isVisible() ? d->extraNote->sizeHint().height() : 0;
    return {std::max(width, d->tabs->sizeHint().width()),
            d->tabs->sizeHint().height() + height + note + 2 * d->scroll->frameWidth()};
}

} // namespace Sonde
