// SPDX-License-Identifier: MIT
#include "tools/toolspanel.h"

#include "application/auth/authstatestore.h"

#include "application/servers/serverstore.h"
#include "application/servers/serverviewstore.h"
#include "application/tools/toolfiltermodel.h"
#include "application/tools/toollistmodel.h"
#include "collectionwriter.h"
#include "servers/breakerbanner.h"
#include "tools/schemaformwidget.h"
#include "tools/toolanswerview.h"
#include "tools/tooldefinitionview.h"
#include "tools/toollistdelegate.h"

#include <QClipboard>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QFileDialog>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include <limits>

#include <utility>

using namespace Qt::StringLiterals;

namespace Sonde {

ToolsPanel::ToolsPanel(ServerViewStore *store, QWidget *parent) : QWidget(parent), m_store(store)
{
    auto *split = new QSplitter(this);
    split->setObjectName(u"toolsSplitter"_s);
    auto *outer = new QHBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(split);

    auto *left = new QWidget(split);
    auto *leftLayout = new QVBoxLayout(left);
    m_search = new QLineEdit(left);
    m_search->setObjectName(u"toolSearch"_s);
    m_search->setPlaceholderText(tr("Search tools (Ctrl+F)"));
    m_search->setClearButtonEnabled(true);
    m_search->setAccessibleName(tr("Search tools"));
    m_search->setToolTip(tr("Search the tools' names, titles and descriptions (Ctrl+F)"));
    m_model = new ToolListModel(this);
    m_proxy = new ToolFilterModel(this);
    m_proxy->setSourceModel(m_model);
    m_count = new QLabel(left);
    m_count->setObjectName(u"toolCount"_s);
    m_appOnly = new QCheckBox(left);
    m_appOnly->setObjectName(u"showAppOnlyTools"_s);
    m_appOnly->setToolTip(tr("Tools whose visibility is [\"app\"]: only the server's MCP App "
                             "calls them, and a host does not list them for the model"));
    m_appOnly->hide();
    connect(m_appOnly, &QCheckBox::toggled, this, [this](bool on) {
        m_proxy->setAppOnlyShown(on);
        updateCount();
    });
    m_list = new QListView(left);
    m_list->setObjectName(u"toolList"_s);
    m_list->setAccessibleName(tr("Tools"));
    m_list->setItemDelegate(new ToolListDelegate(m_list));
    // Every row is two lines high: the view need not measure a thousand rows one by one.
    m_list->setUniformItemSizes(true);
    m_list->setModel(m_proxy);
    leftLayout->addWidget(m_search);
    leftLayout->addWidget(m_count);
    leftLayout->addWidget(m_appOnly);
    leftLayout->addWidget(m_list, 1);
    connect(m_search, &QLineEdit::textChanged, m_proxy,
            &QSortFilterProxyModel::setFilterFixedString);
    // Each server keeps its own search: what was typed for one is not applied to the next.
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString &text) {
        if (!m_restoring && !m_server.isEmpty())
            m_store->setToolSearch(m_server, text);
    });
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &ToolsPanel::updateCount);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &ToolsPanel::updateCount);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &ToolsPanel::updateCount);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &ToolsPanel::updateCount);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ToolsPanel::fitListToNames);
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &ToolsPanel::onCurrentChanged);

    auto *right = new QWidget(split);
    auto *rightLayout = new QVBoxLayout(right);
    m_description = new QLabel(right);
    m_description->setWordWrap(true);
    m_description->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_badges = new QLabel(right);
    m_badges->setObjectName(u"toolBadges"_s);
    m_badges->setWordWrap(true); // hints and the replay rule: a narrow window wraps them
    m_appLink = new QLabel(right);
    m_appLink->setObjectName(u"toolAppLink"_s);
    m_appLink->setTextFormat(Qt::RichText);
    m_appLink->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    m_appLink->setAccessibleName(tr("The tool's MCP App page"));
    m_appLink->hide();
    connect(m_appLink, &QLabel::linkActivated, this, &ToolsPanel::appResourceRequested);
    m_breaker = new BreakerBanner(right);
    m_override = new QComboBox(right);
    m_override->setObjectName(u"toolOverride"_s);
    m_override->setAccessibleName(tr("Replay after a lost session"));
    m_override->setToolTip(tr("Whether a call of this tool is sent again after a lost "
                              "session, whatever the server's annotations say"));
    m_override->addItems({tr("Replay after a lost session: as the server says"),
                          tr("Treat as read-only (replay)"),
                          tr("Treat as write-capable (never replay)")});
    connect(m_override, &QComboBox::activated, this, [this](int i) {
        const QString name = currentToolName();
        if (name.isEmpty())
            return;
        const std::optional<bool> choice = i == 1   ? std::optional<bool>(true)
                                           : i == 2 ? std::optional<bool>(false)
                                                    : std::nullopt;
        m_model->setOverride(name, choice);
        m_store->setToolOverride(m_server, name, choice);
        onCurrentChanged();
        Q_EMIT overrideChanged(name, choice);
    });
    m_form = new SchemaFormWidget(right);
    m_form->setObjectName(u"argumentsForm"_s);
    m_definition = new ToolDefinitionView;
    m_form->addPage(tr("Definition"), m_definition);
    auto *buttons = new QHBoxLayout;
    m_call = new QPushButton(tr("Call"), right);
    m_call->setObjectName(u"callButton"_s);
    m_call->setToolTip(tr("Call the tool (Ctrl+Return)"));
    m_call->setAccessibleName(tr("Call"));
    m_cancel = new QPushButton(tr("Cancel"), right);
    m_cancel->setObjectName(u"cancelButton"_s);
    m_cancel->setAccessibleName(tr("Cancel the call"));
    m_cancel->setToolTip(tr("Cancel the call in flight (Esc)"));
    m_cancel->setEnabled(false);
    m_progress = new QProgressBar(right);
    m_progress->setObjectName(u"progressBar"_s);
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_progress->setAccessibleName(tr("Call progress"));
    m_elapsed = new QLabel(right);
    m_elapsed->setObjectName(u"elapsedLabel"_s);
    buttons->addWidget(m_call);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_progress, 1);
    buttons->addWidget(m_elapsed);
    // The whole answer, whatever the views could show of it.
    m_saveAnswer = new QPushButton(tr("Save answer…"), this);
    m_saveAnswer->setObjectName(u"saveAnswer"_s);
    m_saveAnswer->setEnabled(false);
    m_saveAnswer->setAccessibleName(tr("Save answer"));
    m_saveAnswer->setToolTip(tr("Write the whole answer to a JSON file"));
    buttons->addWidget(m_saveAnswer);
    connect(m_saveAnswer, &QPushButton::clicked, this, [this] {
        // open(), not a static getter: no nested event loop, so answers keep coming.
        auto *dialog = new QFileDialog(this, tr("Save answer"), QString(), tr("JSON (*.json)"));
        dialog->setObjectName(u"saveAnswerDialog"_s);
        dialog->setAcceptMode(QFileDialog::AcceptSave);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
            if (saveAnswer(path))
                return;
            auto *box = new QMessageBox(QMessageBox::Warning, tr("Save answer"),
                                        tr("Could not write %1.").arg(path), QMessageBox::Ok, this);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        });
        dialog->open();
    });
    m_saveToCollection = new QPushButton(tr("Save to collection…"), this);
    m_saveToCollection->setObjectName(u"saveToCollection"_s);
    m_saveToCollection->setEnabled(false);
    m_saveToCollection->setAccessibleName(tr("Save to collection"));
    m_saveToCollection->setToolTip(tr("Add this call and what its answer showed to a "
                                      "collection file, new or existing (sonde-cli run)"));
    buttons->addWidget(m_saveToCollection);
    connect(m_saveToCollection, &QPushButton::clicked, this, [this] {
        auto *dialog =
            new QFileDialog(this, tr("Save to collection"), QString(), tr("Collections (*.json)"));
        dialog->setObjectName(u"saveToCollectionDialog"_s);
        dialog->setAcceptMode(QFileDialog::AcceptSave);
        dialog->setOption(QFileDialog::DontConfirmOverwrite); // an existing one is added to
        dialog->setDefaultSuffix(u"json"_s);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
            QString message;
            const bool saved = saveToCollection(path, &message);
            auto *box = new QMessageBox(saved ? QMessageBox::Information : QMessageBox::Warning,
                                        tr("Save to collection"), message, QMessageBox::Ok, this);
            box->setObjectName(u"savedToCollection"_s);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        });
        dialog->open();
    });
    connect(m_call, &QPushButton::clicked, this, &ToolsPanel::requestCall);
    connect(m_cancel, &QPushButton::clicked, this, &ToolsPanel::cancelRequested);

    m_answer = new ToolAnswerView(right);
    connect(m_answer, &ToolAnswerView::closeRequested, this, &ToolsPanel::closeAnswer);

    auto *vsplit = new QSplitter(Qt::Vertical, right);
    vsplit->setObjectName(u"toolAnswerSplitter"_s);
    m_answerSplit = vsplit;
    auto *top = new QWidget(vsplit);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_breaker);
    topLayout->addWidget(m_description);
    topLayout->addWidget(m_badges);
    topLayout->addWidget(m_appLink);
    topLayout->addWidget(m_override);
    topLayout->addWidget(m_form, 1);
    topLayout->addLayout(buttons);
    // What happens to the running call's stream, in words a narrow bar cannot hold.
    m_streamNote = new QLabel(right);
    m_streamNote->setObjectName(u"streamNote"_s);
    m_streamNote->setWordWrap(true);
    m_streamNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_streamNote->hide();
    topLayout->addWidget(m_streamNote);
    // A call held at the door until the user signs in with more scope: without it the bar
    // would run on with nothing said while the browser waits for them.
    m_stepUpNote = new QLabel(right);
    m_stepUpNote->setObjectName(u"stepUpNote"_s);
    m_stepUpNote->setWordWrap(true);
    m_stepUpNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stepUpNote->setAccessibleName(tr("Step-up"));
    m_stepUpNote->setStyleSheet(
        u"background:#e3f2fd; color:#0d47a1; border:1px solid #64b5f6; padding:6px"_s);
    m_stepUpNote->hide();
    topLayout->addWidget(m_stepUpNote);
    auto *bottom = new QWidget(vsplit);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_answer, 1);
    rightLayout->addWidget(vsplit);
    split->setStretchFactor(1, 3);

    buildToolMenu();
    connect(m_form, &SchemaFormWidget::pageShown, this, &ToolsPanel::roomForDefinition);

    m_tick = new QTimer(this);
    m_tick->setInterval(100);
    connect(m_tick, &QTimer::timeout, this, [this] {
        if (m_callServer == m_server) // another server's call is not this one's to time
            m_elapsed->setText(tr("%1 s").arg(double(m_clock.elapsed()) / 1000.0, 0, 'f', 1));
    });

    connect(m_form, &SchemaFormWidget::valueChanged, this, [this] {
        if (!m_restoring && !m_server.isEmpty() && !currentToolName().isEmpty())
            m_store->setFormValues(m_server, currentToolName(), m_form->value());
    });
    connect(m_store, &ServerViewStore::toolsChanged, this, [this](const QString &server) {
        if (server == m_server)
            setTools(m_store->tools(server), currentToolName());
    });
    connect(m_store, &ServerViewStore::toolAnswerChanged, this,
            [this](const QString &server, const QString &tool) {
                if (server == m_server && tool == currentToolName())
                    showAnswer();
            });
    connect(m_store, &ServerViewStore::stepUpChanged, this, [this](const QString &server) {
        if (server == m_server)
            showStepUp();
    });
}

void ToolsPanel::watchAuth(const AuthStateStore *auth)
{
    m_auth = auth;
    connect(auth, &AuthStateStore::stateChanged, this, [this](const QString &server) {
        if (server == m_server)
            showStepUp();
    });
}

void ToolsPanel::showStepUp()
{
    const std::optional<StepUpNote> note = m_store->pendingStepUp(m_server);
    if (!note) {
        m_stepUpNote->hide();
        m_stepUpNote->clear();
        return;
    }
    m_stepUpNote->setText(note->waiting(m_auth ? m_auth->state(m_server) : AuthState()));
    m_stepUpNote->show();
}

QString ToolsPanel::stepUpNote() const
{
    return m_stepUpNote->isVisible() ? m_stepUpNote->text() : QString();
}

void ToolsPanel::watchServers(const ServerStore *servers)
{
    m_servers = servers;
    connect(servers, &ServerStore::serverChanged, this, [this](int row) {
        if (m_servers->config(row).name == m_server) {
            showBreaker();
            showHeaderHints();
        }
    });
    showBreaker();
    showHeaderHints();
}

void ToolsPanel::showHeaderHints()
{
    const int row = m_servers ? m_servers->indexOf(m_server) : -1;
    const SessionSnapshot *s = row >= 0 ? &m_servers->snapshot(row) : nullptr;
    // Only HTTP has headers; a stdio connection may ignore the annotations.
    const bool restoring = std::exchange(m_restoring, true);
    m_form->setHeaderHints(s && s->toolHeaders);
    m_restoring = restoring;
}

void ToolsPanel::showBreaker()
{
    const int row = m_servers ? m_servers->indexOf(m_server) : -1;
    const SessionSnapshot *s = row >= 0 ? &m_servers->snapshot(row) : nullptr;
    m_breaker->setState(s && s->recovery ? s->recovery->breaker : BreakerState());
}

void ToolsPanel::updateCount()
{
    const int all = m_model->rowCount();
    const int shown = m_proxy->rowCount();
    m_count->setText(!m_search->text().isEmpty() || shown != all
                         ? tr("%1 of %2").arg(shown).arg(all)
                     : all == 1 ? tr("1 tool")
                                : tr("%1 tools").arg(all));
    // Offered only where the server has such tools: "show 2 App-only tools".
    const int appOnly = m_model->appOnlyCount();
    m_appOnly->setVisible(appOnly > 0);
    m_appOnly->setText(appOnly == 1 ? tr("Show 1 App-only tool")
                                    : tr("Show %1 App-only tools").arg(appOnly));
}

void ToolsPanel::fitListToNames()
{
    // Wide enough for the longest title or name, up to about 60 characters: a longer one is
    // elided, and its tooltip holds it whole.
    const QFont font = m_list->font();
    const int most = m_list->fontMetrics().averageCharWidth() * 60;
    int widest = 0;
    for (int i = 0; i < m_model->rowCount() && widest < most; ++i)
        widest = std::max(widest, ToolListDelegate::widthHint(font, m_model->index(i)));
    const int chrome = 2 * m_list->frameWidth() + m_list->verticalScrollBar()->sizeHint().width();
    m_list->setMinimumWidth(std::min(widest, most) + chrome);
}

void ToolsPanel::showServer(const QString &server)
{
    // Read before the list changes: the change itself writes the selection back.
    const QString selected = m_store->selectedTool(server);
    m_server = server;
    m_currentTool = {};
    const bool restoring = std::exchange(m_restoring, true);
    m_search->setText(m_store->toolSearch(server));
    m_restoring = restoring;
    showBreaker();
    showHeaderHints();
    showStepUp();
    setTools(m_store->tools(server), selected);
    if (m_currentTool.isEmpty()) {
        m_description->clear();
        m_badges->clear();
        m_definition->setTool({});
        showAppLink();
        m_form->setSchema({});
        showToolControls();
        showAnswer();
    }
}

void ToolsPanel::showToolControls()
{
    // Nothing to call (a server listing no tools, or none yet): no form, replay choice or Call.
    const bool tool = !m_currentTool.isEmpty();
    m_override->setVisible(tool);
    m_form->setVisible(tool);
    m_call->setEnabled(tool && !m_cancel->isEnabled()); // Cancel enabled: a call is in flight
}

void ToolsPanel::setTools(const QJsonArray &tools, const QString &keep)
{
    m_model->setOverrides(m_store->toolOverrides(m_server));
    m_model->setTools(tools);
    if (!selectTool(keep) && m_proxy->rowCount() > 0)
        m_list->setCurrentIndex(m_proxy->index(0, 0));
    // Another server with the same tools leaves the model and its current row as they were,
    // so no currentChanged: the tool shown must still become this server's.
    if (m_list->currentIndex().data(ToolListModel::NameRole).toString() != currentToolName())
        onCurrentChanged();
}

bool ToolsPanel::selectTool(const QString &name)
{
    for (int i = 0; i < m_proxy->rowCount(); ++i) {
        const QModelIndex idx = m_proxy->index(i, 0);
        if (idx.data(ToolListModel::NameRole).toString() == name) {
            m_list->setCurrentIndex(idx);
            return true;
        }
    }
    return false;
}

QString ToolsPanel::currentToolName() const
{
    return m_currentTool.value("name"_L1).toString();
}

void ToolsPanel::focusSearch()
{
    m_search->setFocus();
    m_search->selectAll();
}

void ToolsPanel::onCurrentChanged()
{
    const QModelIndex idx = m_list->currentIndex();
    const QJsonObject tool = idx.data(ToolListModel::ToolRole).toJsonObject();
    const bool changed = tool.value("name"_L1) != m_currentTool.value("name"_L1);
    m_currentTool = tool;
    const QString name = tool.value("name"_L1).toString();
    const QString title = ToolListModel::title(tool);
    m_description->setText(u"<b>%1</b>%2<br>%3"_s.arg(
        title.toHtmlEscaped(),
        title == name ? QString() : u" <code>%1</code>"_s.arg(name.toHtmlEscaped()),
        tool.value("description"_L1).toString().toHtmlEscaped()));
    const bool replay = idx.data(ToolListModel::VerdictRole).toBool();
    m_badges->setText(u"%1 · after a lost session: %2 (%3)"_s.arg(
        idx.data(ToolListModel::BadgesRole).toStringList().join(u" · "_s),
        replay ? tr("sent again") : tr("outcome uncertain, never replayed"),
        idx.data(ToolListModel::VerdictSourceRole).toString()));
    // The same name may come with a new definition (a refetch after list_changed).
    m_definition->setTool(tool);
    showAppLink();
    if (!changed)
        return;
    m_store->setSelectedTool(m_server, currentToolName());
    const QHash<QString, bool> overrides = m_store->toolOverrides(m_server);
    const auto override = overrides.constFind(currentToolName());
    m_override->setCurrentIndex(override == overrides.cend() ? 0 : *override ? 1 : 2);
    m_restoring = true;
    m_form->setSchema(tool.value("inputSchema"_L1).toObject());
    if (const auto values = m_store->formValues(m_server, currentToolName()))
        m_form->setValue(*values);
    m_restoring = false;
    showToolControls();
    chainTabOrder();
    showAnswer();
    roomForForm();
}

void ToolsPanel::roomForForm()
{
    // The argument area gets what the tool's form asks for: a tool of a few fields shows them
    // all without a scroll bar, and a long form scrolls in an area as big as the answer allows.
    if (m_answerSplit->sizes().value(0) == 0)
        return; // not laid out yet: the splitter starts from the size hints anyway
    // Laid out now, so the new tool's description and badges have their heights.
    m_answerSplit->widget(0)->layout()->activate();
    growArgumentArea(m_answerSplit->sizes().value(0) + m_form->heightLacking());
}

void ToolsPanel::showAppLink()
{
    const QString uri = ToolListModel::appResourceUri(m_currentTool);
    m_appLink->setVisible(!uri.isEmpty());
    m_appLink->setText(uri.isEmpty() ? QString()
                                     : tr("MCP App: its page is <a href=\"%1\">%2</a>")
                                           .arg(uri.toHtmlEscaped(), uri.toHtmlEscaped()));
    m_appLink->setToolTip(uri.isEmpty() ? QString() : tr("Read %1 on the Resources tab").arg(uri));
}

void ToolsPanel::roomForDefinition()
{
    // The argument area is as tall as a form of a few fields wants; a definition needs room
    // to be read (the header above it takes a good part), and only when asked for.
    growArgumentArea(std::numeric_limits<int>::max());
}

void ToolsPanel::growArgumentArea(int wanted)
{
    // Taken from the answer, which keeps a third of the height at least; never shrunk here.
    const QList<int> sizes = m_answerSplit->sizes();
    if (sizes.size() != 2)
        return;
    const int total = sizes.at(0) + sizes.at(1);
    wanted = std::min(wanted, total * 2 / 3);
    if (sizes.at(0) < wanted)
        m_answerSplit->setSizes({wanted, total - wanted});
}

void ToolsPanel::buildToolMenu()
{
    m_copyName = new QAction(tr("Copy name"), this);
    m_copyName->setObjectName(u"toolCopyName"_s);
    connect(m_copyName, &QAction::triggered, this,
            [this] { QGuiApplication::clipboard()->setText(currentToolName()); });
    m_copyDefinition = new QAction(tr("Copy definition"), this);
    m_copyDefinition->setObjectName(u"toolCopyDefinition"_s);
    m_copyDefinition->setToolTip(tr("Copy the tool's whole definition as JSON"));
    connect(m_copyDefinition, &QAction::triggered, this, [this] {
        QGuiApplication::clipboard()->setText(ToolDefinitionView::textOf(m_currentTool));
    });
    m_callTool = new QAction(tr("Call"), this);
    m_callTool->setObjectName(u"toolCall"_s);
    m_callTool->setToolTip(tr("Call the tool with the form's arguments"));
    connect(m_callTool, &QAction::triggered, this, &ToolsPanel::requestCall);
    m_showInTranscript = new QAction(tr("Show in transcript"), this);
    m_showInTranscript->setObjectName(u"toolShowInTranscript"_s);
    m_showInTranscript->setToolTip(tr("The last call of this tool on the Transcript tab"));
    connect(m_showInTranscript, &QAction::triggered, this,
            [this] { Q_EMIT transcriptRequested(currentToolName()); });
    m_toolMenu = new QMenu(this);
    m_toolMenu->setObjectName(u"toolMenu"_s);
    m_toolMenu->setAccessibleName(tr("Tool"));
    m_toolMenu->setToolTipsVisible(true);
    m_toolMenu->addActions({m_copyName, m_copyDefinition});
    m_toolMenu->addSeparator();
    m_toolMenu->addActions({m_callTool, m_showInTranscript});
    // A right click comes to the viewport, the menu key to the list (it has the focus).
    m_list->viewport()->installEventFilter(this);
    m_list->installEventFilter(this);
}

bool ToolsPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::ContextMenu)
        return QWidget::eventFilter(watched, event);
    const auto *e = static_cast<QContextMenuEvent *>(event);
    QPoint at = e->globalPos();
    if (e->reason() == QContextMenuEvent::Mouse && watched == m_list->viewport()) {
        // The menu is about the row under the mouse: it becomes the tool shown.
        const QModelIndex row = m_list->indexAt(m_list->viewport()->mapFromGlobal(at));
        if (!row.isValid())
            return true;
        m_list->setCurrentIndex(row);
    } else if (e->reason() != QContextMenuEvent::Mouse && watched == m_list) {
        const QModelIndex row = m_list->currentIndex();
        if (!row.isValid())
            return true;
        at = m_list->viewport()->mapToGlobal(m_list->visualRect(row).center());
    } else {
        return QWidget::eventFilter(watched, event);
    }
    m_callTool->setEnabled(m_call->isEnabled());
    m_toolMenu->popup(at);
    return true;
}

void ToolsPanel::chainTabOrder()
{
    // The form's editors are made anew for each tool, after everything else: without this
    // they would come last in the focus chain, after the answer.
    QWidget *last = m_form->chainTabOrder(m_override);
    for (QWidget *next :
         {static_cast<QWidget *>(m_call), static_cast<QWidget *>(m_cancel),
          static_cast<QWidget *>(m_saveAnswer), static_cast<QWidget *>(m_saveToCollection),
          m_answer->firstFocusWidget()}) {
        setTabOrder(last, next);
        last = next;
    }
}

void ToolsPanel::showAnswer()
{
    const std::optional<CallOutcome> outcome = m_store->toolAnswer(m_server, currentToolName());
    if (outcome) {
        const std::optional<StepUpNote> stepUp =
            m_store->toolAnswerStepUp(m_server, currentToolName());
        // Still refused at the door in the end: the step-up did not get the call through.
        const std::optional<int> status = outcome->error.httpStatus();
        const bool through =
            !outcome->error.isError() || !status || (*status != 401 && *status != 403);
        m_answer->showOutcome(*outcome, m_currentTool,
                              m_store->toolAnswerNote(m_server, currentToolName()),
                              stepUp ? stepUp->answered(through) : QString());
    } else
        m_answer->clear();
    m_answer->setAppShown(!m_appTool.isEmpty() && m_appServer == m_server &&
                          m_appTool == currentToolName());
    m_saveAnswer->setEnabled(m_answer->hasAnswer());
    m_saveToCollection->setEnabled(outcome.has_value());
    // The time and the bar are this answer's unless a call of this server runs: a call of
    // another server (the window runs one at a time) is not shown here.
    if (!m_cancel->isEnabled() || m_callServer != m_server) {
        m_elapsed->setText(outcome ? tr("%1 ms").arg(outcome->finishedMs - outcome->startedMs)
                                   : QString());
        m_progress->setRange(0, 1000);
        m_progress->setFormat(u"%p%"_s);
        m_progress->setValue(outcome && outcome->ok() ? 1000 : 0);
        m_streamNote->setVisible(false);
    } else if (m_progress->value() <= 0) {
        m_progress->setRange(0, 0); // back on the call's server: busy again
    }
}

void ToolsPanel::closeAnswer()
{
    m_store->removeToolAnswer(m_server, currentToolName());
}

void ToolsPanel::requestCall()
{
    const QString name = currentToolName();
    if (name.isEmpty() || !m_call->isEnabled())
        return;
    QString why;
    if (!m_form->isValid(&why)) {
        m_answer->showProblem(tr("Arguments are not valid: %1").arg(why));
        return;
    }
    Q_EMIT callRequested(name, m_form->value());
}

void ToolsPanel::callStarted()
{
    m_callServer = m_server;
    m_call->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setRange(0, 0); // busy until the first progress notification
    m_answer->hideBanner();
    m_clock.start();
    m_tick->start();
}

void ToolsPanel::showProgress(double progress, double total, const QString &message)
{
    if (total > 0) {
        m_progress->setRange(0, 1000);
        m_progress->setValue(int(1000.0 * progress / total));
    }
    m_progress->setFormat(message.isEmpty() ? u"%p%"_s : message);
    m_progress->setToolTip(message);
    // Progress again: the stream is back, and the note says it was.
    if (QString note = m_streamNote->text(); note.startsWith(tr("stream dropped, resuming"))) {
        note.replace(tr("resuming"), tr("resumed"));
        if (note.endsWith(u'…'))
            note.chop(1);
        m_streamNote->setText(note);
    }
}

void ToolsPanel::showStreamNote(const QString &note)
{
    // Under the bar, where the user is looking while the call runs, until the call ends.
    m_streamNote->setText(note);
    m_streamNote->show();
}

QString ToolsPanel::streamNote() const
{
    return m_streamNote->isVisible() ? m_streamNote->text() : QString();
}

QString ToolsPanel::bannerText() const
{
    return m_answer->bannerText();
}

QString ToolsPanel::resultText() const
{
    return m_answer->resultText();
}

bool ToolsPanel::saveAnswer(const QString &path) const
{
    return m_answer->saveAnswer(path);
}

bool ToolsPanel::saveToCollection(const QString &path, QString *message) const
{
    const QString tool = currentToolName();
    const std::optional<CallOutcome> outcome = m_store->toolAnswer(m_server, tool);
    const int row = m_servers ? m_servers->indexOf(m_server) : -1;
    if (!outcome || row < 0) {
        *message = tr("Call the tool first: its answer is what the collection will expect.");
        return false;
    }
    CollectionWriter::Call call;
    call.tool = tool;
    call.args = m_form->value();
    call.expect =
        CollectionWriter::expectFrom(outcome->result, !outcome->ok(), outcome->error.message());
    QStringList leftOut;
    int calls = 0;
    QString error;
    if (!CollectionWriter::append(path, m_servers->config(row), call, &leftOut, &calls, &error)) {
        *message = tr("Not saved: %1").arg(error);
        return false;
    }
    *message = tr("%1 saved to %2, which now holds %n call(s).", nullptr, calls).arg(tool, path);
    if (!leftOut.isEmpty())
        *message += u"\n"_s + tr("Secrets not written: %1.").arg(leftOut.join(u", "_s));
    return true;
}

void ToolsPanel::callFinished(const CallOutcome &o)
{
    callEnded();
    m_elapsed->setText(tr("%1 ms").arg(o.finishedMs - o.startedMs));
    m_progress->setValue(o.ok() ? 1000 : 0);
}

AppPane *ToolsPanel::appPane() const
{
    return m_answer->appPane();
}

AppPane *ToolsPanel::appPaneIfAny() const
{
    return m_answer->appPaneIfAny();
}

void ToolsPanel::showAppFor(const QString &server, const QString &tool)
{
    m_appServer = server;
    m_appTool = tool;
    if (server == m_server && tool == currentToolName())
        m_answer->setAppShown(true, true);
}

void ToolsPanel::callEnded()
{
    m_tick->stop();
    m_cancel->setEnabled(false);
    m_call->setEnabled(!m_currentTool.isEmpty());
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setFormat(u"%p%"_s);
    m_progress->setToolTip(QString());
    m_streamNote->hide();
    m_streamNote->clear();
}

} // namespace Sonde
