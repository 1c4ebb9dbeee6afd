// SPDX-License-Identifier: MIT
// The window composes: it builds the panels and actions and connects them to what decides
// under them (ServerRegistry, CommandRouter, BuiltInDemos, ShutdownSequence, the stores).
#include "window/mainwindow.h"

#include "application/apps/apphostcontext.h"
#include "application/apps/applauncher.h"
#include "application/auth/authstatestore.h"
#include "application/doctor/doctorcontroller.h"
#include "application/servers/builtindemos.h"
#include "application/servers/commandrouter.h"
#include "application/servers/proxiedsessions.h"
#include "application/servers/serverlistmodel.h"
#include "application/servers/serverregistry.h"
#include "application/tools/recoverytext.h"
#include "application/transcript/transcriptexporter.h"
#include "application/transcript/transcriptmodel.h"
#include "application/transcript/transcriptstore.h"
#include "application/window/shutdownsequence.h"
#include "application/workspace/workspacecontroller.h"
#include "apps/apppane.h"
#include "auth/authpanel.h"
#include "doctor/doctorpanel.h"
#include "engine/corehost.h"
#include "history/historypanel.h"
#include "history/offlinehistoryopener.h"
#include "historyrecorder.h"
#include "historystore.h"
#include "protocol/jsonrpcmessage.h"
#include "protocol/mcpapps.h"
#include "protocol/mcprequests.h"
#include "secrets/memorysecretstore.h"
#include "servers/healthpanel.h"
#include "servers/importdialog.h"
#include "servers/proxyfaultpanel.h"
#include "servers/secretsfileprompt.h"
#include "servers/serverdialog.h"
#include "servers/serverlistpanel.h"
#include "servers/sessionpanel.h"
#include "servers/wrapconfigdialog.h"
#include "timeline/timelinetab.h"
#include "timeline/timelinewidget.h"
#include "tools/promptspanel.h"
#include "tools/resourcespanel.h"
#include "tools/toolspanel.h"
#include "transcript/collectionrundialog.h"
#include "transcript/replaylauncher.h"
#include "transcript/transcriptpanel.h"
#include "window/aboutdialog.h"
#include "window/darkpalette.h"
#include "window/elidingstatusbar.h"
#include "window/guiserverrequesthandler.h"
#include "window/hintbar.h"
#include "window/mainwindowactions.h"
#include "window/notificationlog.h"
#include "window/shortcutsdialog.h"
#include "window/windowdialogs.h"

#include <QAction>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

using Kind = PendingCommand::Kind;

MainWindow::MainWindow(CoreHost &host, QWidget *parent) : QMainWindow(parent), m_host(host)
{
    setWindowTitle(u"Sonde"_s);
    setObjectName(u"mainWindow"_s);
    m_registry = new ServerRegistry(host, this);
    m_servers = m_registry->servers();
    m_serverModel = new ServerListModel(m_servers, this);
    m_views = m_registry->views();
    m_auth = m_registry->auth();
    m_transcript = new TranscriptStore(TranscriptStore::DefaultCapacity, this);
    // Before any server is added: every session is linted from its first message.
    m_doctor = new DoctorController(m_registry, m_transcript, this);
    m_serverModel->watchDoctor(m_doctor->findings());
    m_router = new CommandRouter(host, m_registry, this);
    m_proxied = new ProxiedSessions(this);
    m_demos = new BuiltInDemos(m_registry, this);
    m_shutdown = new ShutdownSequence(host, m_demos, this);
    m_handler = new GuiServerRequestHandler(host, m_views, this);
    m_ownSecrets = std::make_unique<MemorySecretStore>();
    m_secrets = new WorkspaceSecrets(m_ownSecrets.get(), this);
    m_secretsPrompt = new SecretsFilePrompt(this);
    m_workspace = new WorkspaceController(m_registry, m_demos, m_secrets, this);
    m_workspace->setLayoutSource([this](Workspace *w) { fillLayout(w); });
    connect(m_workspace, &WorkspaceController::applied, this, &MainWindow::applyLayout);
    connect(m_workspace, &WorkspaceController::loaded, this, &MainWindow::workspaceLoaded);
    connect(m_workspace, &WorkspaceController::saveFailed, this, &MainWindow::status);
    host.setServerRequestHandler(m_handler);
    buildPanels();
    connectPanels();

    connect(&host, &CoreHost::transcriptBatch, m_transcript, &TranscriptStore::append);
    // A proxied session is a row like a server's, fed by its proxy instead of the engine.
    connect(m_proxied, &ProxiedSessions::sessionAppeared, m_registry, &ServerRegistry::addProxied);
    connect(m_proxied, &ProxiedSessions::sessionChanged, this, [this](const SessionSnapshot &s) {
        m_servers->updateSnapshot(s);
        onSessionChanged(s);
    });
    connect(m_proxied, &ProxiedSessions::transcriptBatch, m_transcript, &TranscriptStore::append);
    connect(m_proxied, &ProxiedSessions::status, this, &MainWindow::status);
    connect(m_doctor, &DoctorController::status, this, &MainWindow::status);
    connect(m_proxied, &ProxiedSessions::verdictsChanged, this, [this](const QString &name) {
        if (name == m_current)
            m_health->proxyFaults()->setVerdicts(m_proxied->verdicts(name));
    });

    connect(m_secrets, &WorkspaceSecrets::storeFailed, this, &MainWindow::status);
    // However a server moved (Move up/down, a drag in the list), the new order is saved.
    connect(m_servers, &ServerStore::serverMoved, this, [this] {
        updateShell();
        m_workspace->changed();
    });
    m_dialogs = new WindowDialogs(this);
    buildActions();
    // The snapshot's uptime and breaker countdown move with time: refresh the shown server's.
    auto *refresh = new QTimer(this);
    refresh->setInterval(1000);
    connect(refresh, &QTimer::timeout, this, [this] {
        if (!m_current.isEmpty() && isVisible() && !m_servers->isProxied(m_current))
            m_host.requestSnapshot(m_current);
    });
    refresh->start();
    setStatusBar(new ElidingStatusBar(this));
    statusBar()->showMessage(tr("Ready"));
    statusBar()->setAccessibleName(tr("Status"));
    updateShell();
}

void MainWindow::buildActions()
{
    using A = MainWindowActions;
    m_actions = new MainWindowActions(this);
    m_actions->mirrorButtons(m_health->actionButtons());
    m_actions->followTabs(m_tabs);
    m_actions->buildMenus();
    m_serverList->addContextActions({m_actions->action(A::Edit), m_actions->action(A::Remove),
                                     m_actions->action(A::MoveUp), m_actions->action(A::MoveDown),
                                     m_actions->action(A::Connect),
                                     m_actions->action(A::Reconnect)});
    const auto on = [this](A::Id id, auto slot) {
        connect(m_actions->action(id), &QAction::triggered, this, slot);
    };
    on(A::Import, [this] { importWithDialog(); });
    on(A::WrapConfig, [this] {
        // The sonde-cli beside this program, so the client runs the same build.
        const QString beside = QCoreApplication::applicationDirPath() + u"/sonde-cli"_s;
        const QString cli =
            QFileInfo::exists(beside) ? beside : QStandardPaths::findExecutable(u"sonde-cli"_s);
        auto *dialog = new WrapConfigDialog(cli.isEmpty() ? u"sonde-cli"_s : cli, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &WrapConfigDialog::changed, this,
                [this](const QString &, const QString &message) { status(message); });
        dialog->open();
    });
    on(A::Export, [this] { exportWithDialog(); });
    on(A::OpenTranscript, [this] { m_offline->choose(); });
    connect(m_offline, &OfflineHistoryOpener::opened, this,
            [this](const QString &, const QString &message) {
                m_tabs->setCurrentWidget(m_history);
                status(message);
            });
    // A closed file's session on the timeline goes with it: the timeline shows live again.
    connect(m_offline, &OfflineHistoryOpener::aboutToClose, this,
            [this](const HistoryCatalog *catalog) {
                if (m_timelineTab->recordedFrom() == catalog)
                    m_timelineTab->showLive();
            });
    connect(m_offline, &OfflineHistoryOpener::closed, this,
            [this](const QString &name) { status(tr("%1 closed").arg(name)); });
    connect(m_history, &HistoryPanel::timelineRequested, this,
            [this](const RecordedSession &session) {
                if (const HistoryCatalog *catalog = m_history->currentCatalog()) {
                    m_timelineTab->showRecorded(session, *catalog);
                    m_tabs->setCurrentWidget(m_timelineTab);
                }
            });
    on(A::RunCollection, [this] { CollectionRunDialog::chooseAndRun(this); });
    on(A::Quit, [this] { close(); }); // the same bounded shutdown as closing the window
    on(A::Find, [this] {
        if (m_tabs->currentWidget() == m_transcriptPanel) {
            m_transcriptPanel->focusFilter();
        } else {
            m_tabs->setCurrentWidget(m_tools);
            m_tools->focusSearch();
        }
    });
    on(A::Add, [this] { addServerWithDialog(); });
    on(A::Edit, [this] { editCurrentServer(); });
    on(A::Remove, [this] { removeCurrentServer(); });
    on(A::MoveUp, [this] { moveCurrentServer(-1); });
    on(A::MoveDown, [this] { moveCurrentServer(+1); });
    on(A::Connect, [this] {
        if (m_actions->action(MainWindowActions::Connect)->property("connected").toBool())
            m_host.disconnectServer(m_current);
        else
            m_host.connectServer(m_current);
    });
    on(A::Reconnect, [this] { reconnectCurrent(); });
    on(A::Ping, [this] { send(Kind::Command, tr("ping"), u"ping"_s); });
    on(A::Call, [this] { m_tools->requestCall(); });
    on(A::CancelCall, [this] { cancelCall(); });
    m_actions->action(A::DarkMode)->setChecked(DarkPalette::isApplied());
    connect(m_actions->action(A::DarkMode), &QAction::toggled, this, &MainWindow::setDarkMode);
    on(A::About, [this] {
        const QString settings = m_settingsFile.isEmpty() ? QSettings().fileName() : m_settingsFile;
        (new AboutDialog({settings, m_historyFile}, this))->open();
    });
    on(A::Shortcuts, [this] { (new ShortcutsDialog(m_actions->withShortcuts(), this))->open(); });
}

void MainWindow::setDarkMode(bool on)
{
    if (on == DarkPalette::isApplied())
        return;
    if (on)
        DarkPalette::apply();
    else
        DarkPalette::restore();
    m_actions->action(MainWindowActions::DarkMode)->setChecked(on);
    m_workspace->changed();
}

void MainWindow::updateShell()
{
    const int row = m_servers->indexOf(m_current);
    const SessionSnapshot *s = row >= 0 ? &m_servers->snapshot(row) : nullptr;
    m_actions->setServer(m_current, s, row, m_servers->size(),
                         row >= 0 && m_servers->isProxied(row));
    setWindowTitle(s ? u"%1 — %2 — Sonde"_s.arg(m_current, ServerListModel::summary(*s))
                     : u"Sonde"_s);
}

void MainWindow::buildPanels()
{
    m_split = new QSplitter(this);
    m_split->setObjectName(u"mainSplitter"_s);
    m_serverList = new ServerListPanel(m_serverModel, m_split);
    connect(m_serverList, &ServerListPanel::addRequested, this, &MainWindow::addServerWithDialog);
    connect(m_serverList, &ServerListPanel::importRequested, this, &MainWindow::importWithDialog);
    connect(m_serverList, &ServerListPanel::editRequested, this, &MainWindow::editCurrentServer);
    connect(m_serverList, &ServerListPanel::removeRequested, this,
            &MainWindow::removeCurrentServer);
    connect(m_serverList, &ServerListPanel::currentServerChanged, this,
            [this](const QString &name) {
                m_current = name;
                showCurrent();
            });

    m_tabs = new QTabWidget(m_split);
    m_tabs->setObjectName(u"panels"_s);
    m_tabs->setAccessibleName(tr("Panels"));
    m_session = new SessionPanel(m_views, m_tabs);
    m_tools = new ToolsPanel(m_views, m_tabs);
    m_tools->watchServers(m_servers);
    m_tools->watchAuth(m_auth);
    m_health = new HealthPanel(m_tabs);
    m_transcriptPanel = new TranscriptPanel(m_transcript, m_tabs);
    m_timelineTab = new TimelineTab(m_transcript, m_tabs);
    m_timeline = m_timelineTab->timeline();
    m_log = new NotificationLog(m_tabs);
    m_history = new HistoryPanel(nullptr, m_tabs);
    m_offline = new OfflineHistoryOpener(m_history, this);
    m_tabs->addTab(m_session, tr("Session"));
    m_tabs->addTab(m_tools, tr("Tools"));
    m_tabs->addTab(m_health, tr("Health"));
    // Connected before anything else hears currentChanged: they see the built panel.
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::buildTab);
    m_authTab = m_tabs->count();
    addLazyTab(tr("Authorization"), [this] { return buildAuthPanel(); });
    m_tabs->addTab(m_transcriptPanel, tr("Transcript"));
    m_tabs->addTab(m_timelineTab, tr("Timeline"));
    m_resourcesTab = m_tabs->count();
    addLazyTab(tr("Resources"), [this] { return buildResourcesPanel(); });
    m_promptsTab = m_tabs->count();
    addLazyTab(tr("Prompts"), [this] { return buildPromptsPanel(); });
    m_tabs->addTab(m_log, tr("Log"));
    m_tabs->addTab(m_history, tr("History"));
    // Last, so the tabs before it keep their indexes (--tab, a saved workspace's tab).
    m_doctorTab = m_tabs->count();
    addLazyTab(tr("Doctor"), [this] { return buildDoctorPanel(); });
    // What was recorded since it was last shown.
    connect(m_tabs, &QTabWidget::currentChanged, m_history, [this](int index) {
        if (m_tabs->widget(index) == m_history)
            m_history->refresh();
    });
    m_split->setStretchFactor(1, 4);
    auto *central = new QWidget(this);
    auto *column = new QVBoxLayout(central);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    m_hint = new HintBar(central);
    connect(m_hint, &HintBar::linkActivated, this, [this](const QString &server) {
        selectServer(server);
        m_tabs->setCurrentWidget(m_health);
    });
    column->addWidget(m_hint);
    column->addWidget(m_split, 1);
    setCentralWidget(central);
    resize(1200, 760);
}

void MainWindow::addLazyTab(const QString &title, std::function<QWidget *()> build)
{
    auto *placeholder = new QWidget(m_tabs);
    m_lazyTabs.insert(placeholder, std::move(build));
    m_tabs->addTab(placeholder, title);
}

void MainWindow::buildTab(int index)
{
    QWidget *placeholder = m_tabs->widget(index);
    const auto it = m_lazyTabs.find(placeholder);
    if (it == m_lazyTabs.end())
        return;
    const std::function<QWidget *()> build = std::move(it.value());
    m_lazyTabs.erase(it);
    QWidget *panel = build();
    // The page is swapped in place: to everything that follows the tabs, nothing changed.
    const QSignalBlocker quiet(m_tabs);
    const int current = m_tabs->currentIndex();
    const QString title = m_tabs->tabText(index);
    m_tabs->removeTab(index);
    m_tabs->insertTab(index, panel, title);
    m_tabs->setCurrentIndex(current);
    placeholder->deleteLater();
}

AuthPanel *MainWindow::authPanel()
{
    buildTab(m_authTab);
    return m_authPanel;
}

ResourcesPanel *MainWindow::resourcesPanel()
{
    buildTab(m_resourcesTab);
    return m_resources;
}

PromptsPanel *MainWindow::promptsPanel()
{
    buildTab(m_promptsTab);
    return m_prompts;
}

DoctorPanel *MainWindow::doctorPanel()
{
    buildTab(m_doctorTab);
    return m_doctorPanel;
}

QWidget *MainWindow::buildDoctorPanel()
{
    m_doctorPanel = new DoctorPanel(m_doctor->findings(), m_tabs);
    connect(m_doctorPanel, &DoctorPanel::runRequested, this, [this](bool allowWrites) {
        if (!m_doctor->start(m_current, allowWrites))
            status(m_doctor->whyNoRun(m_current));
    });
    connect(m_doctorPanel, &DoctorPanel::stopRequested, this,
            [this] { m_doctor->stop(m_current); });
    connect(m_doctorPanel, &DoctorPanel::transcriptRequested, this,
            &MainWindow::openTranscriptEvent);
    m_doctorPanel->showServer(m_current, m_doctor->whyNoRun(m_current));
    return m_doctorPanel;
}

void MainWindow::openTranscriptEvent(qint64 index)
{
    const int row = m_transcript->rowOfSequence(index);
    if (row < 0) {
        status(m_recorder ? tr("That message is older than the window keeps in memory: find it "
                               "on the History tab")
                          : tr("That message is no longer in the transcript: newer ones took "
                               "its place"));
        return;
    }
    m_tabs->setCurrentWidget(m_transcriptPanel);
    if (!m_transcriptPanel->selectStoreRow(row))
        status(tr("That message is hidden by the transcript's filters"));
}

QWidget *MainWindow::buildAuthPanel()
{
    m_authPanel = new AuthPanel(m_auth, {}, m_tabs);
    connect(m_authPanel, &AuthPanel::authRequested, this,
            [this](AuthAction action) { m_router->requestAuth(m_current, action); });
    if (const int row = m_servers->indexOf(m_current); row >= 0)
        m_authPanel->showServer(m_current, m_servers->config(row));
    return m_authPanel;
}

QWidget *MainWindow::buildResourcesPanel()
{
    m_resources = new ResourcesPanel(m_views, m_tabs);
    connect(m_resources, &ResourcesPanel::readRequested, this, [this](const QString &uri) {
        send(Kind::Read, uri, u"resources/read"_s, McpRequests::resourceUri(uri));
    });
    connect(m_resources, &ResourcesPanel::subscribeRequested, this,
            [this](const QString &uri, bool on) {
                send(Kind::Command,
                     on ? tr("subscribe %1").arg(uri) : tr("unsubscribe %1").arg(uri),
                     McpRequests::subscribeMethod(on), McpRequests::resourceUri(uri));
            });
    connect(m_resources, &ResourcesPanel::completionRequested, this,
            [this](const QString &uriTemplate, const QString &argument, const QString &value,
                   const QJsonObject &context) {
                send(Kind::ResourceCompletion, argument, u"completion/complete"_s,
                     McpRequests::completeResourceArgument(uriTemplate, argument, value, context));
            });
    if (const int row = m_servers->indexOf(m_current); row >= 0) {
        m_resources->showServer(m_current);
        showCapabilities(m_servers->snapshot(row));
    }
    return m_resources;
}

QWidget *MainWindow::buildPromptsPanel()
{
    m_prompts = new PromptsPanel(m_views, m_tabs);
    connect(m_prompts, &PromptsPanel::getRequested, this,
            [this](const QString &name, const QJsonObject &args) {
                send(Kind::PromptGet, name, u"prompts/get"_s, McpRequests::promptGet(name, args));
            });
    connect(m_prompts, &PromptsPanel::completionRequested, this,
            [this](const QString &prompt, const QString &argument, const QString &value,
                   const QJsonObject &context) {
                send(Kind::PromptCompletion, argument, u"completion/complete"_s,
                     McpRequests::completePromptArgument(prompt, argument, value, context));
            });
    if (const int row = m_servers->indexOf(m_current); row >= 0) {
        m_prompts->showServer(m_current);
        showCapabilities(m_servers->snapshot(row));
    }
    return m_prompts;
}

void MainWindow::reconnectCurrent()
{
    if (!m_current.isEmpty())
        command(m_host.reconnect(m_current), tr("reconnect"));
}

void MainWindow::connectPanels()
{
    // What keeps something per server follows the registry, rather than being told by hand.
    m_transcriptPanel->followServers(m_registry);
    m_timeline->followServers(m_registry);
    connect(m_registry, &ServerRegistry::serverAdded, this, [this](const ServerConfig &c) {
        m_exportSecrets.addSecrets(c);
        if (m_current.isEmpty())
            selectServer(c.name);
        updateShell();
        m_workspace->changed();
    });
    connect(m_registry, &ServerRegistry::serverRemoved, this, [this](const QString &name) {
        updateMissingSecrets(name, nullptr); // its notice of secrets to enter again goes
    });
    connect(m_demos, &BuiltInDemos::marked, m_workspace, &WorkspaceController::changed);
    connect(m_demos, &BuiltInDemos::problem, this, [this](const QString &why) {
        status(why);
        m_hint->showText(why.toHtmlEscaped());
    });
    connect(m_shutdown, &ShutdownSequence::finished, this, [this] {
        close();
        Q_EMIT shutdownFinished();
    });
    connect(m_router, &CommandRouter::status, this, &MainWindow::status);
    connect(m_router, &CommandRouter::sessionChanged, this, &MainWindow::onSessionChanged);
    connect(m_router, &CommandRouter::toolCallFinished, m_tools, &ToolsPanel::callFinished);
    connect(m_router, &CommandRouter::toolCallFinished, this, &MainWindow::openApp);
    connect(m_router, &CommandRouter::completionReady, this,
            [this](const QString &server, Kind kind, const QString &argument,
                   const QStringList &values) {
                if (server != m_current)
                    return;
                if (kind == Kind::ResourceCompletion && m_resources)
                    m_resources->showCompletion(argument, values);
                else if (kind == Kind::PromptCompletion && m_prompts)
                    m_prompts->showCompletion(argument, values);
            });
    connect(m_router, &CommandRouter::toolProgress, this,
            [this](const QString &server, double progress, double total, const QString &message) {
                if (server == m_current)
                    m_tools->showProgress(progress, total, message);
            });
    connect(m_router, &CommandRouter::toolStreamNote, this,
            [this](const QString &server, const QString &note) {
                if (server == m_current)
                    m_tools->showStreamNote(note);
            });
    connect(m_router, &CommandRouter::sessionStarted, m_history, &HistoryPanel::noteSessionStarted);
    connect(m_router, &CommandRouter::notification, this, [this](const ServerNotification &n) {
        if (n.method == "notifications/resources/updated"_L1 && n.server == m_current &&
            m_resources)
            m_resources->noteUpdated(n.params.value("uri"_L1).toString());
        m_log->append(n);
    });
    // A proxied session is the client's, not Sonde's: the session panel's requests would go
    // to an engine that does not know it.
    const auto engines = [this] {
        if (!m_servers->isProxied(m_current))
            return true;
        status(tr("%1 is a client's session seen through sonde-cli proxy: Sonde does not send "
                  "on it")
                   .arg(m_current));
        return false;
    };
    connect(m_session, &SessionPanel::reconnectRequested, this, [this, engines] {
        if (engines())
            reconnectCurrent();
    });
    connect(m_session, &SessionPanel::disconnectRequested, this, [this, engines] {
        if (engines())
            m_host.disconnectServer(m_current);
    });
    connect(m_session, &SessionPanel::connectRequested, this, [this, engines] {
        if (engines())
            m_host.connectServer(m_current);
    });
    connect(m_session, &SessionPanel::logLevelRequested, this,
            [this, engines](const QString &level) {
                if (engines())
                    send(Kind::Command, tr("log level %1").arg(level), u"logging/setLevel"_s,
                         McpRequests::setLogLevel(level));
            });
    connect(m_session, &SessionPanel::pingRequested, this, [this, engines] {
        if (engines())
            send(Kind::Command, tr("ping"), u"ping"_s);
    });
    m_replay = new ReplayLauncher(m_host, m_views, this);
    connect(m_history, &HistoryPanel::replayRequested, m_replay,
            [this](int row) { m_replay->replayRow(*m_history->eventModel(), row); });
    connect(m_transcriptPanel, &TranscriptPanel::replayRequested, m_replay,
            &ReplayLauncher::replay);
    connect(m_tools, &ToolsPanel::callRequested, this, &MainWindow::callTool);
    connect(m_tools, &ToolsPanel::cancelRequested, this, &MainWindow::cancelCall);
    connect(m_tools, &ToolsPanel::overrideChanged, this,
            [this](const QString &tool, std::optional<bool> readOnly) {
                m_host.setToolOverride(m_current, tool, readOnly);
            });
    connect(m_tools, &ToolsPanel::appResourceRequested, this, [this](const QString &uri) {
        m_tabs->setCurrentWidget(resourcesPanel());
        m_resources->read(uri);
    });
    connect(m_tools, &ToolsPanel::transcriptRequested, this, [this](const QString &tool) {
        const int row = m_transcript->lastToolCall(m_current, tool);
        if (row < 0) {
            status(tr("No call of %1 on %2 is in the transcript").arg(tool, m_current));
            return;
        }
        m_tabs->setCurrentWidget(m_transcriptPanel);
        if (!m_transcriptPanel->selectStoreRow(row))
            status(tr("The last call of %1 is hidden by the transcript's filters").arg(tool));
    });
    connect(m_timeline, &TimelineWidget::activated, this, [this](int row) {
        if (m_timelineTab->isRecorded())
            return; // a past session's rows are not the transcript's
        // Click to jump to the message: the transcript shows it, filters permitting.
        m_tabs->setCurrentWidget(m_transcriptPanel);
        if (!m_transcriptPanel->selectStoreRow(row))
            status(tr("That message is hidden by the transcript's filters"));
    });
    connect(m_health, &HealthPanel::breakerActionRequested, this, [this](BreakerAction action) {
        command(m_host.breaker(m_current, action), tr("breaker %1").arg(enumName(action)));
    });
    connect(m_health, &HealthPanel::faultRequested, this, [this](const Fault &f) {
        command(m_host.injectFault(m_current, f), tr("fault %1").arg(f.describe()));
    });
    connect(m_health->proxyFaults(), &ProxyFaultPanel::faultRequested, this,
            [this](const ProxyFault &f) {
                if (!m_proxied->injectFault(m_current, f))
                    status(tr("%1: its proxy has ended; no fault can reach it").arg(m_current));
                else
                    status(tr("%1: %2 sent to its proxy").arg(m_current, f.name()));
            });
}

void MainWindow::send(Kind kind, const QString &name, const QString &method,
                      const QJsonObject &params)
{
    m_router->send(m_current, kind, name, method, params);
}

void MainWindow::command(quint64 ticket, const QString &what)
{
    m_router->command(m_current, ticket, what);
}

MainWindow::~MainWindow()
{
    m_host.setServerRequestHandler(nullptr);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_shutdown->isFinished()) {
        QMainWindow::closeEvent(event);
        return;
    }
    // Not yet: a server killed with its session open keeps the session (HTTP) or never
    // hears that what it was doing is cancelled. The close comes again when they are done.
    event->ignore();
    if (!m_shutdown->isStarted())
        hide();
    m_shutdown->start();
}

void MainWindow::status(const QString &text)
{
    statusBar()->showMessage(text, 8000);
}

void MainWindow::addServer(const ServerConfig &config, const QStringList &roots, bool connectNow)
{
    m_registry->add(config, roots, connectNow); // the window follows serverAdded
}

void MainWindow::selectServer(const QString &name)
{
    const int row = m_servers->indexOf(name);
    if (row >= 0)
        m_serverList->setCurrentRow(row);
}

void MainWindow::setHistoryCatalog(HistoryCatalog *catalog)
{
    m_history->setCatalog(catalog);
}

bool MainWindow::showsRecording() const
{
    return !m_recorder.isNull();
}

void MainWindow::showRecording(HistoryRecorder *recorder,
                               std::shared_ptr<const HistoryStore> reader)
{
    if (!recorder || !reader || recorder->runId() == 0 || m_recorder)
        return;
    m_recorder = recorder;
    m_recordingReader = std::move(reader);
    m_recordingRun = recorder->runId();
    m_transcriptPanel->showRecording(m_recordingReader, m_recordingRun);
    connect(recorder, &HistoryRecorder::recorded, m_transcriptPanel,
            &TranscriptPanel::followRecording);
    // A session begun since the History tab listed its server's sessions is listed once it
    // is written (a new run's own sessions were missing until another server was picked).
    connect(recorder, &HistoryRecorder::recorded, m_history, &HistoryPanel::noteRecorded);
    // Nothing reads the whole store any more: the table and the exports read the history.
    m_transcript->setCapacity(RecordingTailEvents, RecordingTailBytes);
    m_timelineTab->setTailInHistory(true);
}

void MainWindow::setRunPaths(const QString &settingsFile, const QString &historyFile)
{
    m_settingsFile = settingsFile;
    m_historyFile = historyFile;
}

void MainWindow::showCurrent()
{
    const int row = m_servers->indexOf(m_current);
    if (row < 0)
        return;
    const SessionSnapshot &s = m_servers->snapshot(row);
    m_session->setSnapshot(s);
    m_health->setSnapshot(s);
    showProxyControls(s);
    m_health->proxyFaults()->setVerdicts(m_proxied->verdicts(m_current));
    m_session->showServer(m_current);
    if (m_authPanel)
        m_authPanel->showServer(m_current, m_servers->config(row));
    m_history->setServer(m_current);
    m_tools->showServer(m_current);
    if (m_resources)
        m_resources->showServer(m_current);
    if (m_prompts)
        m_prompts->showServer(m_current);
    if (m_doctorPanel)
        m_doctorPanel->showServer(m_current, m_doctor->whyNoRun(m_current));
    showCapabilities(s);
    updateShell();
}

void MainWindow::showProxyControls(const SessionSnapshot &s)
{
    if (!m_servers->isProxied(s.server)) {
        m_health->setProxied(std::nullopt);
        return;
    }
    m_health->setProxied(m_proxied->isHttp(s.server));
    // Faults go to a live proxy: one that ended (or has not said it is ready) takes none.
    if (s.state != SessionSnapshot::State::Ready)
        m_health->proxyFaults()->setTransport(std::nullopt);
}

void MainWindow::showCapabilities(const SessionSnapshot &s)
{
    const bool completions = s.serverCapabilities.contains("completions"_L1);
    if (m_prompts)
        m_prompts->setCompletionsAvailable(completions);
    if (m_resources)
        m_resources->setCompletionsAvailable(completions);
}

void MainWindow::onSessionChanged(const SessionSnapshot &s)
{
    // Every id ever seen, not the current ones: a reconnect's new id must not unmask the old
    // one, which the earlier events (closed, connection-lost) still hold.
    if (!s.sessionId.isEmpty())
        m_transcriptPanel->addSessionId(s.sessionId);
    if (s.server == m_current) {
        showCapabilities(s);
        m_session->setSnapshot(s);
        m_health->setSnapshot(s);
        showProxyControls(s);
        updateShell();
    }
}

void MainWindow::callTool(const QString &tool, const QJsonObject &args)
{
    if (!m_router->callTool(m_current, tool, args))
        return;
    m_tools->callStarted();
    m_appCall = {};
    for (const QJsonValue &t : m_views->tools(m_current)) {
        if (t.toObject().value("name"_L1).toString() == tool && McpApps::resourceUri(t.toObject()))
            m_appCall = {m_current, t.toObject(), args, m_views->pendingToolCall()};
    }
}

void MainWindow::openApp(const CallOutcome &o)
{
    if (m_appCall.ticket == 0 || o.ticket != m_appCall.ticket)
        return;
    const AppCall call = std::exchange(m_appCall, {});
    // Not for a call that never reached the server (refused, cancelled before it went).
    if (!o.ok() && o.error.kind() != Error::Kind::Application &&
        o.error.kind() != Error::Kind::Remote)
        return;
    if (!m_appLauncher) {
        m_appLauncher = new AppLauncher(m_host, this);
        connect(m_appLauncher, &AppLauncher::refused, this,
                [this](const QString &reason) { m_tools->appPane()->showRefusal(reason); });
    }
    AppLauncher::Request r;
    r.server = call.server;
    r.tool = call.tool;
    r.arguments = call.arguments;
    r.serverTools = m_views->tools(call.server);
    r.resources = m_views->list(call.server, u"resources/list"_s);
    r.hostInfo = AppHostContext::hostInfo();
    AppPane *pane = m_tools->appPane();
    r.hostContext = AppHostContext::build(pane->palette(), pane->size());
    const QString tool = call.tool.value("name"_L1).toString();
    disconnect(m_appLauncher, &AppLauncher::ready, this, nullptr);
    connect(m_appLauncher, &AppLauncher::ready, this, [this, o, tool](AppSession *session) {
        // The App's calls are the App's in the transcript, not the user's.
        connect(session, &AppSession::serverCallFinished, m_transcript,
                [transcript = m_transcript](const CallOutcome &answered) {
                    if (!answered.requestId.isNull())
                        transcript->markAppCall(answered.server,
                                                JsonRpcMessage::idText(answered.requestId));
                });
        m_tools->appPane()->showApp(session);
        session->deliverOutcome(o);
        m_tools->showAppFor(o.server, tool);
    });
    m_tools->showAppFor(call.server, tool);
    m_appLauncher->open(r);
}

void MainWindow::cancelCall()
{
    m_router->cancelCall();
}

void MainWindow::addServerWithDialog()
{
    ServerDialog *dialog =
        m_dialogs->editServer(nullptr, {}, [this](const ServerConfig &c, const QStringList &roots) {
            if (m_servers->indexOf(c.name) >= 0) {
                m_dialogs->warn(tr("Server"),
                                tr("There is already a server named %1.").arg(c.name));
                return;
            }
            addServer(c, roots);
            selectServer(c.name);
        });
    dialog->setSecretStorage(secretStorage());
    connect(dialog, &ServerDialog::encryptedFileRequested, this,
            [this, dialog] { keepSecretsInFile(dialog); });
}

void MainWindow::keepSecretsInFile(ServerDialog *asking)
{
    QPointer<ServerDialog> dialog(asking);
    m_secretsPrompt->choose(
        SecretsFileOpener::defaultPath(),
        [this, dialog](std::unique_ptr<SecretStore> store, const QString &path) {
            // The window's own from now on; every secret it holds goes into it at once (the
            // engine's tokens follow from the next start, which opens the file).
            m_ownSecrets = std::move(store);
            m_secrets->setStore(m_ownSecrets.get());
            m_secrets->keep(m_workspace->workspace());
            m_secretsNotice.clear();
            m_hint->dismiss(u"secret-storage"_s);
            status(tr("Secrets are kept in %1 from now on").arg(QDir::toNativeSeparators(path)));
            if (dialog)
                dialog->setSecretStorage(secretStorage());
            Q_EMIT secretsFileChosen(path);
        });
}

SecretStorage MainWindow::secretStorage() const
{
    return SecretStorage::of(m_secrets->store(), m_secretsNotice);
}

void MainWindow::unlockSecretsFile(
    const QString &path, std::function<void(std::unique_ptr<SecretStore>, QByteArray)> done)
{
    m_secretsPrompt->unlock(path, std::move(done));
}

void MainWindow::updateMissingSecrets(const QString &server, const ServerConfig *config)
{
    switch (m_missing.update(server, config)) {
    case MissingSecrets::Change::None:
        return;
    case MissingSecrets::Change::AllEntered:
        m_hint->dismiss(u"missing-secrets"_s);
        status(tr("Every secret is entered again"));
        return;
    case MissingSecrets::Change::StillMissing:
        showMissingSecrets(m_missing.lines(m_secrets->store()->kind()));
        return;
    }
}

void MainWindow::showMissingSecrets(const QStringList &lines)
{
    // A line each, in the hint bar; the status line only points at it (it would be cut off).
    m_hint->showText(lines.join(u'\n').toHtmlEscaped().replace(u'\n', u"<br>"_s),
                     u"missing-secrets"_s);
    status(tr("Secrets to enter again: see the note above the panels"));
}

void MainWindow::editCurrentServer()
{
    const int row = m_servers->indexOf(m_current);
    if (row < 0)
        return;
    if (m_servers->isProxied(row)) {
        status(tr("%1 is a client's session seen through sonde-cli proxy: it has no "
                  "configuration to edit")
                   .arg(m_current));
        return;
    }
    const ServerConfig config = m_servers->config(row);
    ServerDialog *dialog = m_dialogs->editServer(
        &config, m_views->roots(m_current),
        [this, old = m_current](const ServerConfig &c, const QStringList &roots) {
            replaceServer(old, c, roots);
        });
    dialog->setSecretStorage(secretStorage());
    connect(dialog, &ServerDialog::encryptedFileRequested, this,
            [this, dialog] { keepSecretsInFile(dialog); });
}

void MainWindow::replaceServer(const QString &old, const ServerConfig &c, const QStringList &roots)
{
    const int at = m_servers->indexOf(old);
    if (at < 0)
        return; // removed while the dialog was up
    if (c.name != old && m_servers->indexOf(c.name) >= 0) {
        m_dialogs->warn(tr("Server"), tr("There is already a server named %1.").arg(c.name));
        return;
    }
    // Still the demo Sonde starts while it points where the demo listens, renamed or not.
    const bool demo = m_demos->staysTheDemo(at, c);
    addServer(c, roots);
    m_servers->setBuiltInHttpDemo(c.name, demo);
    if (c.name != old) {
        if (m_current == old)
            m_current.clear();
        removeServerState(old);
    }
    // Its secrets entered again: the notice asking for them goes (or names the others).
    updateMissingSecrets(c.name, &c);
    m_servers->moveServer(m_servers->indexOf(c.name), at); // where it was
    selectServer(c.name);
    m_demos->stopIfUnused(); // no longer the demo, under the same name
    m_workspace->changed();
}

void MainWindow::removeServerState(const QString &name)
{
    const quint64 call = m_views->pendingToolCall();
    m_registry->remove(name);
    // Its call in flight went with it and will never be answered here: Call works again.
    if (call && !m_views->pendingToolCall())
        m_tools->callEnded();
    // Its App goes too: it could only talk to a server that is no more.
    if (AppSession *app = m_tools->appPaneIfAny() ? m_tools->appPaneIfAny()->session() : nullptr;
        app && app->setup().server == name) {
        m_tools->appPane()->closeApp(u"the server was removed"_s);
        m_tools->showAppFor({}, {});
    }
}

void MainWindow::removeCurrentServer()
{
    if (!m_current.isEmpty())
        m_dialogs->confirmRemove(m_current, [this, name = m_current] { removeServer(name); });
}

void MainWindow::removeServer(const QString &name)
{
    if (m_servers->indexOf(name) < 0)
        return;
    const bool wasCurrent = m_current == name;
    // Cleared first: removing the row may move the list's current row to a neighbour, which
    // selects it (and sets m_current) on the way.
    if (wasCurrent)
        m_current.clear();
    removeServerState(name);
    if (wasCurrent && m_current.isEmpty() && m_servers->size() > 0) {
        selectServer(m_servers->config(0).name);
        m_current = m_serverList->currentServer();
        showCurrent();
    }
    updateShell();
    m_workspace->changed();
}

void MainWindow::moveCurrentServer(int by)
{
    const int row = m_servers->indexOf(m_current);
    if (row >= 0 && m_servers->moveServer(row, row + by))
        selectServer(m_current); // saved by the store's serverMoved
}

bool MainWindow::importConfigFile(const QString &path, bool confirm)
{
    const QList<ConfigInput> inputs = ImportDialog::inputsNeeded(path);
    if (inputs.isEmpty())
        return importConfigFile(path, {}, confirm);
    m_dialogs->askForInputs(path, inputs, [this, path, confirm](const QHash<QString, QString> &v) {
        importConfigFile(path, v, confirm);
    });
    return true;
}

bool MainWindow::importConfigFile(const QString &path, const QHash<QString, QString> &inputs,
                                  bool confirm)
{
    QStringList problems;
    const std::optional<QMap<QString, ServerConfig>> read =
        ImportDialog::readFile(path, inputs, [this, &problems](const QString &why) {
            status(why);
            problems.append(why);
        });
    if (confirm && !problems.isEmpty())
        m_dialogs->warn(tr("Import"), problems.join(u'\n'));
    if (!read)
        return false;
    const auto add = [this, path](const QList<ServerConfig> &chosen) {
        for (const ServerConfig &c : chosen)
            addServer(c, {}, false); // imported servers connect only when asked
        status(tr("Imported %n server(s) from %1", nullptr, int(chosen.size())).arg(path));
    };
    if (confirm)
        m_dialogs->chooseServers(*read, add);
    else
        add(read->values());
    return true;
}

void MainWindow::importWithDialog()
{
    m_dialogs->chooseImportFile([this](const QString &path) { importConfigFile(path, true); });
}

void MainWindow::exportWithDialog()
{
    // On the History tab with a session (or a search) shown, that is what is exported.
    ExportDialog::Source source;
    const TranscriptModel *shown = m_history->eventModel();
    if (m_tabs->currentWidget() == m_history && shown->rowCount() > 0) {
        source.title = tr("the %n event(s) shown in the History tab", nullptr, shown->rowCount());
        if (const auto file = m_history->shownHistory()) {
            // Read there by the dialog's job, a page at a time, off the GUI thread.
            source.input.historyPath = file->first;
            source.input.filter = file->second;
        } else {
            source.input.events = TranscriptExporter::modelEvents(
                *shown, TranscriptExporter::MaxDialogRecords, &source.error);
        }
    } else if (m_recorder) {
        exportRecording();
        return;
    } else {
        source.title = tr("the live transcript (%n event(s))", nullptr, m_transcript->size());
        // Handed over shared; made records on the dialog's thread, not here.
        source.input.events = m_transcript->events();
    }
    m_dialogs->exportTranscript(
        std::move(source), m_exportSecrets, m_current,
        [this](const QString &path) { status(tr("Transcript written to %1").arg(path)); });
}

// This run from the history, once the batches the window already holds are committed: the
// recorder writes each on its own thread, so the newest can still be on its way. The dialog
// counts and writes it there, off the GUI thread, all of it however long the run.
void MainWindow::exportRecording()
{
    auto once = std::make_shared<QMetaObject::Connection>();
    *once = connect(m_recorder, &HistoryRecorder::flushed, this, [this, once] {
        QObject::disconnect(*once);
        ExportDialog::Source source;
        source.title = tr("this run, from the history");
        source.input.historyPath = m_recordingReader->path();
        source.input.filter.runId = m_recordingRun;
        m_dialogs->exportTranscript(
            std::move(source), m_exportSecrets, m_current,
            [this](const QString &path) { status(tr("Transcript written to %1").arg(path)); });
    });
    m_recorder->flush();
}

void MainWindow::autosaveTo(QSettings *settings)
{
    m_workspace->autosaveTo(settings);
}

void MainWindow::addFirstRunDemos()
{
    selectServer(m_demos->addFirstRun());
    // What really happens, in order: the expiry is noticed at once by the session's event
    // stream (HTTP 404), Sonde reconnects before any call, and the next answer says so.
    m_hint->showText(tr("New here? On <b>demo-http</b>, press <b>Health → Expire session</b>: "
                        "the server forgets the session, Sonde notices and reconnects. Then "
                        "call a tool: its answer tells what happened. <a href=\"demo-http\">"
                        "Show me</a>"));
}

void MainWindow::addBuiltInHttpDemo(const QString &name, const QStringList &roots,
                                    ServerConfig::Era era)
{
    m_demos->addHttpDemo(name, roots, era);
}

void MainWindow::setDemoServerProgram(const QString &path)
{
    m_demos->setProgram(path);
}

void MainWindow::showEvent(QShowEvent *event)
{
    m_unshownLayout.reset();
    QMainWindow::showEvent(event);
}

void MainWindow::fillLayout(Workspace *w) const
{
    w->darkMode = DarkPalette::isApplied();
    w->current = m_servers->isProxied(m_current) ? QString() : m_current;
    const SavedLayout shown{saveGeometry(), saveState(), m_split->saveState()};
    const SavedLayout &layout = m_unshownLayout ? *m_unshownLayout : shown;
    w->geometry = layout.geometry;
    w->windowState = layout.windowState;
    w->splitter = layout.splitter;
    w->tab = m_tabs->currentIndex();
    w->transcriptColumns = m_transcriptPanel->saveLayout();
}

void MainWindow::saveWorkspace(QSettings &settings) const
{
    m_workspace->save(settings);
}

void MainWindow::setSecretStore(SecretStore *store, const QString &reason)
{
    m_secrets->setStore(store);
    m_secretsNotice = reason;
    const SecretStorage storage = secretStorage();
    if (storage.kind == SecretStorage::Kind::Session && !reason.isEmpty())
        showNotice(tr("%1: secret values are kept for this session only. To keep them, choose "
                      "an encrypted file in Add or Edit server.")
                       .arg(reason),
                   u"secret-storage"_s);
}

void MainWindow::showNotice(const QString &text, const QString &topic)
{
    status(text);
    m_hint->showText(text.toHtmlEscaped().replace(u'\n', u"<br>"_s), topic);
}

void MainWindow::loadWorkspace(QSettings &settings)
{
    m_workspace->load(settings);
}

void MainWindow::applyLayout(const WorkspaceSecrets::Loaded &loaded, const Error &error)
{
    const Workspace &w = loaded.workspace;
    setDarkMode(w.darkMode);
    if (error.isError())
        status(error.message());
    for (const Workspace::Server &s : w.servers)
        m_missing.update(s.config.name, &s.config);
    if (!loaded.errors.isEmpty())
        showMissingSecrets(loaded.errors);
    if (m_unshownLayout)
        m_unshownLayout = SavedLayout{w.geometry, w.windowState, w.splitter};
    restoreGeometry(w.geometry);
    restoreState(w.windowState);
    m_split->restoreState(w.splitter);
    m_tabs->setCurrentIndex(w.tab);
    m_transcriptPanel->restoreLayout(w.transcriptColumns);
    selectServer(w.current);
}

} // namespace Sonde
