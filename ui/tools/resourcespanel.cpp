// SPDX-License-Identifier: MIT
#include "tools/resourcespanel.h"

#include "application/servers/serverviewstore.h"
#include "application/tools/jsonlistmodel.h"
#include "tools/completionfield.h"
#include "tools/schemaformwidget.h"
#include "window/jsonview.h"
#include "window/textdisplay.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSplitter>
#include <QTabWidget>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

bool writeContents(const QString &path, const ResourceContents &contents)
{
    if (contents.isEmpty())
        return false;
    QSaveFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(contents.bytesToSave()) >= 0 && f.commit();
}

} // namespace

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

ResourcesPanel::ResourcesPanel(ServerViewStore *store, QWidget *parent)
    : QWidget(parent), m_store(store)
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
    m_resourceList->setAccessibleName(tr("Resources"));
    m_resourceList->setModel(m_resources);
    m_templateList = new QListView(left);
    m_templateList->setObjectName(u"templateList"_s);
    m_templateList->setAccessibleName(tr("Resource templates"));
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
    m_uri->setAccessibleName(tr("Resource URI"));
    m_uri->setToolTip(tr("The URI to read or subscribe to; a template fills it in"));
    auto *buttons = new QHBoxLayout;
    auto *read = new QPushButton(tr("Read"), right);
    read->setObjectName(u"readButton"_s);
    read->setToolTip(tr("Read the resource (resources/read)"));
    auto *subscribe = new QPushButton(tr("Subscribe"), right);
    subscribe->setObjectName(u"subscribeButton"_s);
    subscribe->setToolTip(tr("Be told when the resource changes (resources/subscribe)"));
    auto *unsubscribe = new QPushButton(tr("Unsubscribe"), right);
    unsubscribe->setObjectName(u"unsubscribeButton"_s);
    unsubscribe->setToolTip(tr("Stop the updates (resources/unsubscribe)"));
    buttons->addWidget(read);
    buttons->addWidget(subscribe);
    buttons->addWidget(unsubscribe);
    buttons->addStretch();
    m_save = new QPushButton(tr("Save…"), right);
    m_save->setObjectName(u"saveResource"_s);
    m_save->setAccessibleName(tr("Save the resource"));
    m_save->setToolTip(tr("Write the resource's whole contents to a file: a text as it came, "
                          "a blob decoded"));
    m_save->setEnabled(false);
    connect(m_save, &QPushButton::clicked, this, &ResourcesPanel::saveWithDialog);
    buttons->addWidget(m_save);
    m_updates = new QLabel(right);
    m_updates->setObjectName(u"resourceUpdates"_s);
    m_views = new QTabWidget(right);
    m_views->setObjectName(u"resourceViews"_s);
    m_views->setAccessibleName(tr("Resource views"));
    m_textView = new QPlainTextEdit(m_views);
    m_textView->setObjectName(u"resourceText"_s);
    m_textView->setAccessibleName(tr("Resource contents"));
    m_textView->setReadOnly(true);
    m_content = new JsonView(m_views);
    m_content->setObjectName(u"resourceContent"_s);
    m_content->setAccessibleName(tr("Resource answer JSON"));
    m_views->addTab(m_textView, tr("Contents"));
    m_views->addTab(m_content, tr("JSON"));
    m_completion = new CompletionField(m_parameters, u"templateSuggestButton"_s,
                                       u"templateSuggestions"_s, right);
    m_completion->setToolTip(
        tr("Ask the server to complete the parameter being edited (completion/complete)"));
    m_completion->setListHeight(80);
    m_completion->hide();
    rightLayout->addWidget(m_parameters);
    rightLayout->addWidget(m_completion);
    rightLayout->addWidget(m_uri);
    rightLayout->addLayout(buttons);
    rightLayout->addWidget(m_updates);
    rightLayout->addWidget(m_views, 1);
    split->setStretchFactor(1, 3);

    connect(m_resourceList->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex &i) {
                m_parameters->hide();
                m_completion->hide();
                m_template.clear();
                m_uri->setText(
                    i.data(JsonListModel::ObjectRole).toJsonObject().value("uri"_L1).toString());
            });
    connect(m_templateList->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &ResourcesPanel::onTemplateChanged);
    connect(m_parameters, &SchemaFormWidget::valueChanged, this, [this] {
        if (!m_template.isEmpty())
            m_uri->setText(expandTemplate(m_template, m_parameters->value()));
    });
    connect(m_completion, &CompletionField::requested, this,
            [this](const QString &argument, const QString &value, const QJsonObject &context) {
                Q_EMIT completionRequested(m_template, argument, value, context);
            });
    connect(read, &QPushButton::clicked, this, [this] { Q_EMIT readRequested(uri()); });
    connect(m_uri, &QLineEdit::returnPressed, this, [this] { Q_EMIT readRequested(uri()); });
    connect(subscribe, &QPushButton::clicked, this,
            [this] { Q_EMIT subscribeRequested(uri(), true); });
    connect(unsubscribe, &QPushButton::clicked, this,
            [this] { Q_EMIT subscribeRequested(uri(), false); });
    connect(m_store, &ServerViewStore::listChanged, this, [this](const QString &server) {
        if (server == m_server)
            showLists();
    });
    connect(m_store, &ServerViewStore::lastAnswerChanged, this,
            [this](const QString &server, PendingCommand::Kind kind) {
                if (server == m_server && kind == PendingCommand::Kind::Read)
                    showRead();
            });
}

void ResourcesPanel::showServer(const QString &server)
{
    m_server = server;
    showLists();
    // Nothing of the previous server's selection stays: its template, its URI.
    m_template.clear();
    m_parameters->hide();
    m_completion->hide();
    m_uri->clear();
    showRead();
}

void ResourcesPanel::showLists()
{
    m_resources->setItems(m_store->list(m_server, u"resources/list"_s));
    m_templates->setItems(m_store->list(m_server, u"resources/templates/list"_s));
}

void ResourcesPanel::onTemplateChanged(const QModelIndex &index)
{
    m_template =
        index.data(JsonListModel::ObjectRole).toJsonObject().value("uriTemplate"_L1).toString();
    QJsonObject props;
    QJsonArray required;
    const QStringList variables = templateVariables(m_template);
    for (const QString &v : variables) {
        props.insert(v, QJsonObject{{"type"_L1, "string"_L1}});
        required.append(v);
    }
    m_parameters->setSchema(
        {{"type"_L1, "object"_L1}, {"properties"_L1, props}, {"required"_L1, required}});
    m_parameters->show();
    m_completion->setFallbackArgument(variables.value(0));
    m_completion->setVisible(m_completionsAvailable);
    m_completion->clear();
    m_uri->setText(expandTemplate(m_template, {}));
}

QString ResourcesPanel::uri() const
{
    return m_uri->text().trimmed();
}

void ResourcesPanel::showRead()
{
    const std::optional<CallOutcome> read =
        m_store->lastAnswer(m_server, PendingCommand::Kind::Read);
    m_contents =
        read && read->ok() ? ResourceContents(read->result.toObject()) : ResourceContents();
    m_save->setEnabled(!m_contents.isEmpty());
    if (!read) {
        m_text.clear();
        m_textView->clear();
        m_content->clear();
        return;
    }
    const CallOutcome &o = *read;
    if (!o.ok()) {
        m_text = o.error.message();
        TextDisplay::show(m_textView, m_text);
        m_content->clear();
        m_views->setCurrentWidget(m_textView);
        return;
    }
    m_text = m_contents.text();
    const QString rest = tr("in Save…");
    TextDisplay::show(m_textView, m_text, rest);
    m_content->setJson(QJsonDocument(o.result.toObject()).toJson(), rest);
}

QString ResourcesPanel::contentText() const
{
    return m_text;
}

bool ResourcesPanel::saveContents(const QString &path) const
{
    return writeContents(path, m_contents);
}

void ResourcesPanel::saveWithDialog()
{
    // open(), not a static getter: no nested event loop, so answers keep coming.
    auto *dialog = new QFileDialog(this, tr("Save resource"));
    dialog->setObjectName(u"saveResourceDialog"_s);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->selectFile(m_contents.suggestedFileName());
    // What is saved is the read shown when Save… was pressed, whatever is read meanwhile.
    connect(dialog, &QFileDialog::fileSelected, this,
            [this, contents = m_contents](const QString &path) {
                if (writeContents(path, contents))
                    return;
                auto *box =
                    new QMessageBox(QMessageBox::Warning, tr("Save resource"),
                                    tr("Could not write %1.").arg(path), QMessageBox::Ok, this);
                box->setAttribute(Qt::WA_DeleteOnClose);
                box->open();
            });
    dialog->open();
}

void ResourcesPanel::read(const QString &uri)
{
    m_template.clear();
    m_parameters->hide();
    m_completion->hide();
    m_uri->setText(uri);
    // Selected in the list too when it is listed, so the list agrees with the URI.
    m_resourceList->clearSelection();
    for (int i = 0; i < m_resources->rowCount(); ++i) {
        const QModelIndex idx = m_resources->index(i, 0);
        if (idx.data(JsonListModel::ObjectRole).toJsonObject().value("uri"_L1).toString() == uri) {
            m_resourceList->setCurrentIndex(idx);
            break;
        }
    }
    Q_EMIT readRequested(uri);
}

void ResourcesPanel::setCompletionsAvailable(bool available)
{
    m_completionsAvailable = available;
    m_completion->setAvailable(available);
    if (!available)
        m_completion->hide();
}

void ResourcesPanel::showCompletion(const QString &argument, const QStringList &values)
{
    m_completion->showCompletion(argument, values);
}

void ResourcesPanel::noteUpdated(const QString &uri)
{
    m_updates->setText(
        tr("Updated: %1 (%2)").arg(uri, QTime::currentTime().toString(u"HH:mm:ss"_s)));
}

} // namespace Sonde
