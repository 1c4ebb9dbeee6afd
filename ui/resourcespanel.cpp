// SPDX-License-Identifier: MIT
#include "resourcespanel.h"

#include "jsonlistmodel.h"
#include "jsonview.h"
#include "schemaformwidget.h"
#include "textdisplay.h"

#include <QFocusEvent>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSplitter>
#include <QStringListModel>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

QStringList ResourcesPanel::templateVariables(const QString &uriTemplate)
{
    static const QRegularExpression var(u"\\{[+#./;?&]?([A-Za-z0-9_]+)\\*?\\}"_s);
    QStringList names;
    for (auto it = var.globalMatch(uriTemplate); it.hasNext();) {
        const QString name = it.next().captured(1);
        if (!names.contains(name))
            names.append(name);
    }
    return names;
}

QString ResourcesPanel::expandTemplate(const QString &uriTemplate, const QJsonObject &values)
{
    static const QRegularExpression var(u"\\{[+#./;?&]?([A-Za-z0-9_]+)\\*?\\}"_s);
    QString out;
    qsizetype last = 0;
    for (auto it = var.globalMatch(uriTemplate); it.hasNext();) {
        const auto m = it.next();
        out += uriTemplate.mid(last, m.capturedStart() - last);
        const QJsonValue v = values.value(m.captured(1));
        const QString text = v.isString()   ? v.toString()
                             : v.isDouble() ? QString::number(v.toDouble())
                                            : QString();
        out += QString::fromUtf8(QUrl::toPercentEncoding(text));
        last = m.capturedEnd();
    }
    return out + uriTemplate.mid(last);
}

ResourcesPanel::ResourcesPanel(QWidget *parent) : QWidget(parent)
{
    auto *split = new QSplitter(this);
    auto *outer = new QHBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(split);
    auto *left = new QWidget(split);
    auto *leftLayout = new QVBoxLayout(left);
    m_resources = new JsonListModel(u"uri"_s, {}, this);
    m_templates = new JsonListModel(u"uriTemplate"_s, {}, this);
    m_resourceList = new QListView(left);
    m_resourceList->setObjectName(u"resourceList"_s);
    m_resourceList->setModel(m_resources);
    m_templateList = new QListView(left);
    m_templateList->setObjectName(u"templateList"_s);
    m_templateList->setModel(m_templates);
    leftLayout->addWidget(new QLabel(tr("Resources"), left));
    leftLayout->addWidget(m_resourceList, 2);
    leftLayout->addWidget(new QLabel(tr("Templates"), left));
    leftLayout->addWidget(m_templateList, 1);

    auto *right = new QWidget(split);
    auto *rightLayout = new QVBoxLayout(right);
    m_parameters = new SchemaFormWidget(right);
    m_parameters->setObjectName(u"templateParameters"_s);
    m_parameters->hide();
    m_uri = new QLineEdit(right);
    m_uri->setObjectName(u"resourceUri"_s);
    m_uri->setPlaceholderText(tr("resource URI"));
    auto *buttons = new QHBoxLayout;
    auto *read = new QPushButton(tr("Read"), right);
    read->setObjectName(u"readButton"_s);
    auto *subscribe = new QPushButton(tr("Subscribe"), right);
    subscribe->setObjectName(u"subscribeButton"_s);
    auto *unsubscribe = new QPushButton(tr("Unsubscribe"), right);
    buttons->addWidget(read);
    buttons->addWidget(subscribe);
    buttons->addWidget(unsubscribe);
    buttons->addStretch();
    m_updates = new QLabel(right);
    m_updates->setObjectName(u"resourceUpdates"_s);
    m_content = new JsonView(right);
    m_content->setObjectName(u"resourceContent"_s);
    m_suggest = new QPushButton(tr("Suggest values"), right);
    m_suggest->setObjectName(u"templateSuggestButton"_s);
    m_suggest->setToolTip(
        tr("Ask the server to complete the parameter being edited (completion/complete)"));
    m_suggest->hide();
    m_suggestionModel = new QStringListModel(this);
    m_suggestions = new QListView(right);
    m_suggestions->setObjectName(u"templateSuggestions"_s);
    m_suggestions->setModel(m_suggestionModel);
    m_suggestions->setMaximumHeight(80);
    m_suggestions->hide();
    rightLayout->addWidget(m_parameters);
    rightLayout->addWidget(m_suggest);
    rightLayout->addWidget(m_suggestions);
    rightLayout->addWidget(m_uri);
    rightLayout->addLayout(buttons);
    rightLayout->addWidget(m_updates);
    rightLayout->addWidget(m_content, 1);
    split->setStretchFactor(1, 3);

    connect(m_resourceList->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex &i) {
                m_parameters->hide();
                m_suggest->hide();
                m_suggestions->hide();
                m_template.clear();
                m_uri->setText(
                    i.data(JsonListModel::ObjectRole).toJsonObject().value("uri"_L1).toString());
            });
    connect(
        m_templateList->selectionModel(), &QItemSelectionModel::currentChanged, this,
        [this](const QModelIndex &i) {
            m_template =
                i.data(JsonListModel::ObjectRole).toJsonObject().value("uriTemplate"_L1).toString();
            QJsonObject props;
            QJsonArray required;
            for (const QString &v : templateVariables(m_template)) {
                props.insert(v, QJsonObject{{"type"_L1, "string"_L1}});
                required.append(v);
            }
            m_parameters->setSchema(
                {{"type"_L1, "object"_L1}, {"properties"_L1, props}, {"required"_L1, required}});
            m_parameters->show();
            m_suggest->setVisible(m_suggest->isEnabled());
            m_suggestions->setVisible(m_suggest->isEnabled());
            m_suggestionModel->setStringList({});
            m_uri->setText(expandTemplate(m_template, {}));
        });
    connect(m_parameters, &SchemaFormWidget::valueChanged, this, [this] {
        if (!m_template.isEmpty())
            m_uri->setText(expandTemplate(m_template, m_parameters->value()));
    });
    connect(m_suggest, &QPushButton::clicked, this, [this] {
        QString argument;
        if (QWidget *focus = m_parameters->focusWidget();
            focus && focus->objectName().startsWith("field:"_L1))
            argument = focus->objectName().mid(6);
        if (argument.isEmpty())
            argument = templateVariables(m_template).value(0);
        if (argument.isEmpty())
            return;
        m_suggestionArgument = argument;
        QJsonObject others = m_parameters->value();
        const QString value = others.take(argument).toString();
        Q_EMIT completionRequested(m_template, argument, value, others);
    });
    connect(m_suggestions, &QListView::activated, this, [this](const QModelIndex &i) {
        QJsonObject v = m_parameters->value();
        v.insert(m_suggestionArgument, i.data().toString());
        m_parameters->setValue(v);
    });
    connect(read, &QPushButton::clicked, this, [this] { Q_EMIT readRequested(uri()); });
    connect(m_uri, &QLineEdit::returnPressed, this, [this] { Q_EMIT readRequested(uri()); });
    connect(subscribe, &QPushButton::clicked, this,
            [this] { Q_EMIT subscribeRequested(uri(), true); });
    connect(unsubscribe, &QPushButton::clicked, this,
            [this] { Q_EMIT subscribeRequested(uri(), false); });
}

QString ResourcesPanel::uri() const
{
    return m_uri->text().trimmed();
}

void ResourcesPanel::setResources(const QJsonArray &resources)
{
    m_resources->setItems(resources);
}

void ResourcesPanel::setTemplates(const QJsonArray &templates)
{
    m_templates->setItems(templates);
}

void ResourcesPanel::showRead(const CallOutcome &o)
{
    if (!o.ok()) {
        m_text = o.error.message();
        TextDisplay::show(m_content, m_text);
        return;
    }
    QStringList texts;
    for (const QJsonValue &c : o.result.toObject().value("contents"_L1).toArray()) {
        const QJsonObject block = c.toObject();
        texts.append(
            block.contains("text"_L1)
                ? block.value("text"_L1).toString()
                : tr("(%1 bytes of %2)")
                      .arg(QByteArray::fromBase64(block.value("blob"_L1).toString().toLatin1())
                               .size())
                      .arg(block.value("mimeType"_L1).toString()));
    }
    m_text = texts.join(u"\n\n"_s);
    m_content->setJson(QJsonDocument(o.result.toObject()).toJson());
}

QString ResourcesPanel::contentText() const
{
    return m_text;
}

void ResourcesPanel::setCompletionsAvailable(bool available)
{
    m_suggest->setEnabled(available);
    if (!available) {
        m_suggest->hide();
        m_suggestions->hide();
    }
}

void ResourcesPanel::showCompletion(const QString &argument, const QStringList &values)
{
    if (argument == m_suggestionArgument)
        m_suggestionModel->setStringList(values);
}

void ResourcesPanel::noteUpdated(const QString &uri)
{
    m_updates->setText(
        tr("Updated: %1 (%2)").arg(uri, QTime::currentTime().toString(u"HH:mm:ss"_s)));
}

PromptsPanel::PromptsPanel(QWidget *parent) : QWidget(parent)
{
    auto *split = new QSplitter(this);
    auto *outer = new QHBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(split);
    m_prompts = new JsonListModel(u"name"_s, {}, this);
    m_list = new QListView(split);
    m_list->setObjectName(u"promptList"_s);
    m_list->setModel(m_prompts);
    auto *right = new QWidget(split);
    auto *layout = new QVBoxLayout(right);
    m_description = new QLabel(right);
    m_description->setWordWrap(true);
    m_form = new SchemaFormWidget(right);
    m_form->setObjectName(u"promptArguments"_s);
    auto *buttons = new QHBoxLayout;
    auto *get = new QPushButton(tr("Get"), right);
    get->setObjectName(u"getPromptButton"_s);
    m_suggest = new QPushButton(tr("Suggest values"), right);
    m_suggest->setObjectName(u"suggestButton"_s);
    m_suggest->setToolTip(
        tr("Ask the server to complete the argument being edited (completion/complete)"));
    buttons->addWidget(get);
    buttons->addWidget(m_suggest);
    buttons->addStretch();
    m_suggestionModel = new QStringListModel(this);
    m_suggestions = new QListView(right);
    m_suggestions->setObjectName(u"suggestions"_s);
    m_suggestions->setModel(m_suggestionModel);
    m_suggestions->setMaximumHeight(90);
    m_messages = new QPlainTextEdit(right);
    m_messages->setObjectName(u"promptMessages"_s);
    m_messages->setReadOnly(true);
    layout->addWidget(m_description);
    layout->addWidget(m_form, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_suggestions);
    layout->addWidget(m_messages, 2);
    split->setStretchFactor(1, 3);

    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex &i) {
                const QJsonObject p = i.data(JsonListModel::ObjectRole).toJsonObject();
                m_current = p.value("name"_L1).toString();
                m_description->setText(p.value("description"_L1).toString());
                QJsonObject props;
                QJsonArray required;
                for (const QJsonValue &a : p.value("arguments"_L1).toArray()) {
                    const QJsonObject arg = a.toObject();
                    props.insert(
                        arg.value("name"_L1).toString(),
                        QJsonObject{{"type"_L1, "string"_L1},
                                    {"description"_L1, arg.value("description"_L1).toString()}});
                    if (arg.value("required"_L1).toBool())
                        required.append(arg.value("name"_L1).toString());
                }
                m_form->setSchema({{"type"_L1, "object"_L1},
                                   {"properties"_L1, props},
                                   {"required"_L1, required}});
                m_suggestionModel->setStringList({});
            });
    connect(get, &QPushButton::clicked, this, [this] {
        if (!m_current.isEmpty())
            Q_EMIT getRequested(m_current, m_form->value());
    });
    connect(m_suggest, &QPushButton::clicked, this, [this] {
        // The argument being edited is the focused field; without one, the first argument.
        QString argument;
        QWidget *focus = m_form->focusWidget();
        if (focus && focus->objectName().startsWith("field:"_L1))
            argument = focus->objectName().mid(6);
        if (argument.isEmpty()) {
            const QJsonObject props = m_form->schema().value("properties"_L1).toObject();
            if (!props.isEmpty())
                argument = props.keys().constFirst();
        }
        if (m_current.isEmpty() || argument.isEmpty())
            return;
        m_suggestionArgument = argument;
        const QJsonObject value = m_form->value();
        QJsonObject others = value;
        others.remove(argument);
        Q_EMIT completionRequested(m_current, argument, value.value(argument).toString(), others);
    });
    connect(m_suggestions, &QListView::activated, this, [this](const QModelIndex &i) {
        QJsonObject v = m_form->value();
        v.insert(m_suggestionArgument, i.data().toString());
        m_form->setValue(v);
    });
}

void PromptsPanel::setPrompts(const QJsonArray &prompts)
{
    m_prompts->setItems(prompts);
}

bool PromptsPanel::selectPrompt(const QString &name)
{
    for (int i = 0; i < m_prompts->rowCount(); ++i)
        if (m_prompts->item(i).value("name"_L1).toString() == name) {
            m_list->setCurrentIndex(m_prompts->index(i));
            return true;
        }
    return false;
}

void PromptsPanel::setCompletionsAvailable(bool available)
{
    m_suggest->setEnabled(available);
    m_suggestions->setVisible(available);
}

void PromptsPanel::showCompletion(const QString &argument, const QStringList &values)
{
    if (argument == m_suggestionArgument)
        m_suggestionModel->setStringList(values);
}

void PromptsPanel::showPrompt(const CallOutcome &o)
{
    if (!o.ok()) {
        TextDisplay::show(m_messages, o.error.message());
        return;
    }
    QStringList out;
    for (const QJsonValue &m : o.result.toObject().value("messages"_L1).toArray()) {
        const QJsonObject msg = m.toObject();
        const QJsonObject content = msg.value("content"_L1).toObject();
        QString body =
            content.value("type"_L1).toString() == "text"_L1
                ? content.value("text"_L1).toString()
                : QString::fromUtf8(QJsonDocument(content).toJson(QJsonDocument::Indented));
        out.append(u"[%1]\n%2"_s.arg(msg.value("role"_L1).toString(), body));
    }
    TextDisplay::show(m_messages, out.join(u"\n\n"_s));
}

QString PromptsPanel::messagesText() const
{
    return m_messages->toPlainText();
}

} // namespace Sonde
