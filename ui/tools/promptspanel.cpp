// SPDX-License-Identifier: MIT
#include "tools/promptspanel.h"

#include "application/servers/serverviewstore.h"
#include "application/tools/jsonlistmodel.h"
#include "tools/completionfield.h"
#include "tools/schemaformwidget.h"
#include "window/textdisplay.h"

#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

PromptsPanel::PromptsPanel(ServerViewStore *store, QWidget *parent)
    : QWidget(parent), m_store(store)
{
    auto *split = new QSplitter(this);
    auto *outer = new QHBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(split);
    m_prompts = new JsonListModel(u"name"_s, {}, this);
    m_list = new QListView(split);
    m_list->setObjectName(u"promptList"_s);
    m_list->setAccessibleName(tr("Prompts"));
    m_list->setModel(m_prompts);
    auto *right = new QWidget(split);
    auto *layout = new QVBoxLayout(right);
    m_description = new QLabel(right);
    m_description->setWordWrap(true);
    m_form = new SchemaFormWidget(right);
    m_form->setObjectName(u"promptArguments"_s);
    auto *get = new QPushButton(tr("Get"), right);
    get->setObjectName(u"getPromptButton"_s);
    get->setToolTip(tr("Get the prompt's messages with these arguments (prompts/get)"));
    m_completion = new CompletionField(m_form, u"suggestButton"_s, u"suggestions"_s, right);
    m_completion->setToolTip(
        tr("Ask the server to complete the argument being edited (completion/complete)"));
    m_completion->setListHeight(90);
    m_messages = new QPlainTextEdit(right);
    m_messages->setObjectName(u"promptMessages"_s);
    m_messages->setAccessibleName(tr("Prompt messages"));
    m_messages->setReadOnly(true);
    layout->addWidget(m_description);
    layout->addWidget(m_form, 1);
    layout->addWidget(get, 0, Qt::AlignLeft);
    layout->addWidget(m_completion);
    layout->addWidget(m_messages, 2);
    split->setStretchFactor(1, 3);

    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &PromptsPanel::onCurrentChanged);
    connect(get, &QPushButton::clicked, this, [this] {
        if (!m_current.isEmpty())
            Q_EMIT getRequested(m_current, m_form->value());
    });
    connect(m_completion, &CompletionField::requested, this,
            [this](const QString &argument, const QString &value, const QJsonObject &context) {
                if (!m_current.isEmpty())
                    Q_EMIT completionRequested(m_current, argument, value, context);
            });
    connect(m_store, &ServerViewStore::listChanged, this,
            [this](const QString &server, const QString &method) {
                if (server == m_server && method == "prompts/list"_L1)
                    m_prompts->setItems(m_store->list(server, method));
            });
    connect(m_store, &ServerViewStore::lastAnswerChanged, this,
            [this](const QString &server, PendingCommand::Kind kind) {
                if (server == m_server && kind == PendingCommand::Kind::PromptGet)
                    showPrompt();
            });
}

void PromptsPanel::showServer(const QString &server)
{
    m_server = server;
    m_prompts->setItems(m_store->list(server, u"prompts/list"_s));
    // The list was reset without a selection: no prompt of the previous server stays chosen.
    onCurrentChanged({});
    showPrompt();
}

void PromptsPanel::onCurrentChanged(const QModelIndex &index)
{
    const QJsonObject p = index.data(JsonListModel::ObjectRole).toJsonObject();
    m_current = p.value("name"_L1).toString();
    m_description->setText(p.value("description"_L1).toString());
    QJsonObject props;
    QJsonArray required;
    for (const QJsonValue &a : p.value("arguments"_L1).toArray()) {
        const QJsonObject arg = a.toObject();
        props.insert(arg.value("name"_L1).toString(),
                     QJsonObject{{"type"_L1, "string"_L1},
                                 {"description"_L1, arg.value("description"_L1).toString()}});
        if (arg.value("required"_L1).toBool())
            required.append(arg.value("name"_L1).toString());
    }
    m_form->setSchema(
        {{"type"_L1, "object"_L1}, {"properties"_L1, props}, {"required"_L1, required}});
    m_completion->setFallbackArgument(props.isEmpty() ? QString() : props.keys().constFirst());
    m_completion->clear();
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
    m_completion->setAvailable(available);
}

void PromptsPanel::showCompletion(const QString &argument, const QStringList &values)
{
    m_completion->showCompletion(argument, values);
}

void PromptsPanel::showPrompt()
{
    const std::optional<CallOutcome> prompt =
        m_store->lastAnswer(m_server, PendingCommand::Kind::PromptGet);
    if (!prompt) {
        m_messages->clear();
        return;
    }
    const CallOutcome &o = *prompt;
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
