// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "engine/corehost.h"
#include "guiserverrequesthandler.h"
#include "healthpanel.h"
#include "importdialog.h"
#include "notificationlog.h"
#include "promptspanel.h"
#include "protocol/mcprequests.h"
#include "resourcespanel.h"
#include "serverdialog.h"
#include "serverlistmodel.h"
#include "serverlistpanel.h"
#include "sessionpanel.h"
#include "timelinewidget.h"
#include "toolspanel.h"
#include "transcriptpanel.h"
#include "transcriptstore.h"
#include "workspacesettings.h"

#include <QCloseEvent>
#include <QFileDialog>
#include <QMessageBox>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

using Kind = PendingCommand::Kind;

MainWindow::MainWindow(CoreHost &host, QWidget *parent) : QMainWindow(parent), m_host(host)
{
    setWindowTitle(u"Sonde"_s);
    setObjectName(u"mainWindow"_s);
    m_servers = new ServerStore(this);
    m_serverModel = new ServerListModel(m_servers, this);
    m_views = new ServerViewStore(this);
    m_transcript = new TranscriptStore(TranscriptStore::DefaultCapacity, this);
    m_handler = new GuiServerRequestHandler(host, m_views, this);
    host.setServerRequestHandler(m_handler);
    buildPanels();
    connectPanels();

    connect(&host, &CoreHost::sessionChanged, this, &MainWindow::onSessionChanged);
    connect(&host, &CoreHost::callFinished, this, &MainWindow::onCallFinished);
    connect(&host, &CoreHost::notificationReceived, this, &MainWindow::onNotification);
    connect(&host, &CoreHost::transcriptBatch, this, &MainWindow::onTranscript);
    connect(&host, &CoreHost::listRefreshed, this,
            [this](const QString &server, const QString &method, const QJsonArray &items) {
                if (method == "tools/list"_L1)
                    m_views->setTools(server, items);
                else
                    m_views->setList(server, method, items);
            });

    auto *call = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
    connect(call, &QShortcut::activated, m_tools, &ToolsPanel::requestCall);
    auto *cancel = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    connect(cancel, &QShortcut::activated, this, &MainWindow::cancelCall);
    auto *quit = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q), this);
    connect(quit, &QShortcut::activated, this, &QWidget::close);
    auto *reconnect = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_R), this);
    connect(reconnect, &QShortcut::activated, m_session, &SessionPanel::reconnectRequested);
    auto *find = new QShortcut(QKeySequence::Find, this);
    connect(find, &QShortcut::activated, this, [this] {
        if (m_tabs->currentWidget() == m_transcriptPanel)
            m_transcriptPanel->focusFilter();
        else {
            m_tabs->setCurrentWidget(m_tools);
            m_tools->focusSearch();
        }
    });
    // The snapshot's uptime and breaker countdown move with time: refresh the shown server's.
    auto *refresh = new QTimer(this);
    refresh->setInterval(1000);
    connect(refresh, &QTimer::timeout, this, [this] {
        if (!m_current.isEmpty() && isVisible())
            m_host.requestSnapshot(m_current);
    });
    refresh->start();
    statusBar()->showMessage(tr("Ready"));
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
    m_session = new SessionPanel(m_views, m_tabs);
    m_tools = new ToolsPanel(m_views, m_tabs);
    m_tools->watchServers(m_servers);
    m_health = new HealthPanel(m_tabs);
    m_transcriptPanel = new TranscriptPanel(m_transcript, m_tabs);
    m_timeline = new TimelineWidget(m_tabs);
    m_timeline->setObjectName(u"timeline"_s);
    m_timeline->setStore(m_transcript);
    m_resources = new ResourcesPanel(m_views, m_tabs);
    m_prompts = new PromptsPanel(m_views, m_tabs);
    m_log = new NotificationLog(m_tabs);
    m_tabs->addTab(m_session, tr("Session"));
    m_tabs->addTab(m_tools, tr("Tools"));
    m_tabs->addTab(m_health, tr("Health"));
    m_tabs->addTab(m_transcriptPanel, tr("Transcript"));
    m_tabs->addTab(m_timeline, tr("Timeline"));
    m_tabs->addTab(m_resources, tr("Resources"));
    m_tabs->addTab(m_prompts, tr("Prompts"));
    m_tabs->addTab(m_log, tr("Log"));
    m_split->setStretchFactor(1, 4);
    setCentralWidget(m_split);
    resize(1200, 760);
}

void MainWindow::connectPanels()
{
    connect(m_session, &SessionPanel::reconnectRequested, this, [this] {
        if (!m_current.isEmpty())
            command(m_host.reconnect(m_current), tr("reconnect"));
    });
    connect(m_session, &SessionPanel::disconnectRequested, this,
            [this] { m_host.disconnectServer(m_current); });
    connect(m_session, &SessionPanel::connectRequested, this,
            [this] { m_host.connectServer(m_current); });
    connect(m_session, &SessionPanel::logLevelRequested, this, [this](const QString &level) {
        send(Kind::Command, tr("log level %1").arg(level), u"logging/setLevel"_s,
             McpRequests::setLogLevel(level));
    });
    connect(m_session, &SessionPanel::pingRequested, this,
            [this] { send(Kind::Command, tr("ping"), u"ping"_s); });
    connect(m_tools, &ToolsPanel::callRequested, this, &MainWindow::callTool);
    connect(m_tools, &ToolsPanel::cancelRequested, this, &MainWindow::cancelCall);
    connect(m_tools, &ToolsPanel::overrideChanged, this,
            [this](const QString &tool, std::optional<bool> readOnly) {
                m_host.setToolOverride(m_current, tool, readOnly);
            });
    connect(m_timeline, &TimelineWidget::activated, this, [this](int row) {
        // Click to jump to the message: the transcript shows it, filters permitting.
        m_tabs->setCurrentWidget(m_transcriptPanel);
        if (!m_transcriptPanel->selectStoreRow(row))
            status(tr("That message is hidden by the transcript's filters"));
    });
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
    connect(m_health, &HealthPanel::breakerActionRequested, this, [this](const QString &action) {
        command(m_host.breaker(m_current, action), tr("breaker %1").arg(action));
    });
    connect(m_health, &HealthPanel::faultRequested, this, [this](const Fault &f) {
        command(m_host.injectFault(m_current, f), tr("fault %1").arg(f.describe()));
    });
}

void MainWindow::send(Kind kind, const QString &name, const QString &method,
                      const QJsonObject &params)
{
    m_views->addPending(m_host.call(m_current, method, params), {m_current, kind, name});
}

void MainWindow::command(quint64 ticket, const QString &what)
{
    m_views->addPending(ticket, {m_current, Kind::Command, what});
}

MainWindow::~MainWindow()
{
    m_host.setServerRequestHandler(nullptr);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_shutdownDone) {
        QMainWindow::closeEvent(event);
        return;
    }
    // Not yet: a server killed with its session open keeps the session (HTTP) or never
    // hears that what it was doing is cancelled. The close comes again when they are done.
    event->ignore();
    startShutdown();
}

void MainWindow::startShutdown()
{
    if (std::exchange(m_shutdownStarted, true))
        return;
    hide();
    connect(&m_host, &CoreHost::shutdownFinished, this, &MainWindow::finishShutdown);
    QTimer::singleShot(ShutdownBoundMs, this, &MainWindow::finishShutdown);
    m_host.shutdown();
}

void MainWindow::finishShutdown()
{
    if (std::exchange(m_shutdownDone, true))
        return;
    close();
    Q_EMIT shutdownFinished();
}

void MainWindow::status(const QString &text)
{
    statusBar()->showMessage(text, 8000);
}

void MainWindow::addServer(const ServerConfig &config, const QStringList &roots, bool connectNow)
{
    m_servers->addServer(config);
    m_transcriptPanel->addSecrets(config);
    m_views->addServer(config.name, roots);
    m_timeline->setServerRemoved(config.name, false);
    m_host.addServer(config, connectNow);
    if (m_current.isEmpty())
        selectServer(config.name);
}

void MainWindow::selectServer(const QString &name)
{
    const int row = m_servers->indexOf(name);
    if (row >= 0)
        m_serverList->setCurrentRow(row);
}

void MainWindow::showCurrent()
{
    const int row = m_servers->indexOf(m_current);
    if (row < 0)
        return;
    const SessionSnapshot &s = m_servers->snapshot(row);
    m_session->setSnapshot(s);
    m_health->setSnapshot(s);
    m_session->showServer(m_current);
    m_tools->showServer(m_current);
    m_resources->showServer(m_current);
    m_prompts->showServer(m_current);
    showCapabilities(s);
    setWindowTitle(u"Sonde — %1"_s.arg(m_current));
}

void MainWindow::showCapabilities(const SessionSnapshot &s)
{
    const bool completions = s.serverCapabilities.contains("completions"_L1);
    m_prompts->setCompletionsAvailable(completions);
    m_resources->setCompletionsAvailable(completions);
}

void MainWindow::fetchLists(const SessionSnapshot &s)
{
    m_views->setListsFetchedForGeneration(s.server, s.generation);
    for (const QString &method : McpRequests::listMethods(s.serverCapabilities))
        m_views->addPending(
            m_host.call(s.server, method),
            {s.server, method == "tools/list"_L1 ? Kind::ToolList : Kind::List, method});
}

void MainWindow::onSessionChanged(const SessionSnapshot &s)
{
    m_servers->updateSnapshot(s);
    // Every id ever seen, not the current ones: a reconnect's new id must not unmask the old
    // one, which the earlier events (closed, connection-lost) still hold.
    if (!s.sessionId.isEmpty())
        m_transcriptPanel->addSessionId(s.sessionId);
    if (s.state == SessionSnapshot::State::Ready &&
        m_views->listsFetchedForGeneration(s.server) != s.generation &&
        s.serverCapabilities.contains("tools"_L1))
        fetchLists(s);
    if (s.server == m_current) {
        showCapabilities(s);
        m_session->setSnapshot(s);
        m_health->setSnapshot(s);
    }
}

void MainWindow::onCallFinished(const CallOutcome &o)
{
    const std::optional<PendingCommand> pending = m_views->settle(o);
    if (!pending)
        return;
    const bool shown = o.server == m_current;
    const QJsonObject result = o.result.toObject();
    if (pending->kind == Kind::ToolCall) {
        m_tools->callFinished(o);
        status(o.ok() ? tr("%1: answered in %2 ms").arg(o.server).arg(o.finishedMs - o.startedMs)
                      : tr("%1: %2").arg(o.server, o.error.message()));
    } else if (pending->kind == Kind::ResourceCompletion && shown) {
        m_resources->showCompletion(pending->name, McpRequests::completionValues(result));
    } else if (pending->kind == Kind::PromptCompletion && shown) {
        m_prompts->showCompletion(pending->name, McpRequests::completionValues(result));
    } else if (pending->kind == Kind::Command) {
        status(o.ok() ? tr("%1 %2: done").arg(o.server, pending->name)
                      : tr("%1 %2: %3").arg(o.server, pending->name, o.error.message()));
    }
}

void MainWindow::onNotification(const ServerNotification &n)
{
    if (n.method == "notifications/progress"_L1) {
        if (n.params.value("progressToken"_L1).toString() ==
                McpRequests::progressToken(m_views->pendingToolCall()) &&
            n.server == m_current)
            m_tools->showProgress(n.params.value("progress"_L1).toDouble(),
                                  n.params.value("total"_L1).toDouble(),
                                  n.params.value("message"_L1).toString());
        return;
    }
    if (n.method == "notifications/resources/updated"_L1 && n.server == m_current)
        m_resources->noteUpdated(n.params.value("uri"_L1).toString());
    m_log->append(n);
}

void MainWindow::onTranscript(const TranscriptBatch &batch)
{
    m_transcript->append(batch);
    for (const TranscriptEvent &e : batch) {
        if (e.direction == TranscriptEvent::Direction::Stderr)
            m_views->appendStderr(e.server, QString::fromUtf8(e.raw));
    }
}

void MainWindow::callTool(const QString &tool, const QJsonObject &args)
{
    if (m_current.isEmpty() || m_views->pendingToolCall())
        return;
    send(Kind::ToolCall, tool, u"tools/call"_s, McpRequests::toolCall(tool, args));
    m_tools->callStarted();
    status(tr("%1: calling %2…").arg(m_current, tool));
}

void MainWindow::cancelCall()
{
    if (const quint64 ticket = m_views->pendingToolCall())
        m_host.cancel(ticket, tr("cancelled by the user"));
}

void MainWindow::addServerWithDialog()
{
    ServerDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (m_servers->indexOf(dialog.config().name) >= 0) {
        QMessageBox::warning(this, tr("Server"),
                             tr("There is already a server named %1.").arg(dialog.config().name));
        return;
    }
    addServer(dialog.config(), dialog.roots());
    selectServer(dialog.config().name);
}

void MainWindow::editCurrentServer()
{
    const int row = m_servers->indexOf(m_current);
    if (row < 0)
        return;
    ServerDialog dialog(this);
    dialog.setConfig(m_servers->config(row), m_views->roots(m_current));
    if (dialog.exec() != QDialog::Accepted)
        return;
    const ServerConfig c = dialog.config();
    if (c.name != m_current)
        removeServerState(std::exchange(m_current, {}));
    addServer(c, dialog.roots());
    selectServer(c.name);
}

void MainWindow::removeServerState(const QString &name)
{
    const quint64 call = m_views->pendingToolCall();
    m_host.removeServer(name);
    m_servers->removeServer(name);
    m_views->removeServer(name);
    m_timeline->setServerRemoved(name, true);
    // Its call in flight went with it and will never be answered here: Call works again.
    if (call && !m_views->pendingToolCall())
        m_tools->callEnded();
}

void MainWindow::removeCurrentServer()
{
    if (m_current.isEmpty())
        return;
    // Cleared first: removing the row may move the list's current row to a neighbour, which
    // selects it (and sets m_current) on the way.
    removeServerState(std::exchange(m_current, {}));
    if (m_current.isEmpty() && m_servers->size() > 0) {
        selectServer(m_servers->config(0).name);
        m_current = m_serverList->currentServer();
        showCurrent();
    }
}

bool MainWindow::importConfigFile(const QString &path, bool confirm)
{
    const std::optional<QList<ServerConfig>> chosen =
        ImportDialog::importFile(this, path, confirm, [this](const QString &why) { status(why); });
    if (!chosen)
        return false;
    for (const ServerConfig &c : *chosen)
        addServer(c, {}, false); // imported servers connect only when asked
    status(tr("Imported %n server(s) from %1", nullptr, int(chosen->size())).arg(path));
    return true;
}

void MainWindow::importWithDialog()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Import servers"), QString(), tr("MCP configurations (*.json);;All files (*)"));
    if (!path.isEmpty())
        importConfigFile(path, true);
}

void MainWindow::saveWorkspace(QSettings &settings) const
{
    Workspace w;
    for (int i = 0; i < m_servers->size(); ++i) {
        const ServerConfig &c = m_servers->config(i);
        w.servers.append({c, m_views->roots(c.name)});
    }
    w.current = m_current;
    w.geometry = saveGeometry();
    w.windowState = saveState();
    w.splitter = m_split->saveState();
    w.tab = m_tabs->currentIndex();
    w.transcriptColumns = m_transcriptPanel->saveLayout();
    WorkspaceSettings::save(settings, w);
}

void MainWindow::loadWorkspace(QSettings &settings)
{
    Error error;
    const Workspace w = WorkspaceSettings::load(settings, &error);
    for (const Workspace::Server &s : w.servers)
        addServer(s.config, s.roots);
    if (error.isError())
        status(error.message());
    restoreGeometry(w.geometry);
    restoreState(w.windowState);
    m_split->restoreState(w.splitter);
    m_tabs->setCurrentIndex(w.tab);
    m_transcriptPanel->restoreLayout(w.transcriptColumns);
    selectServer(w.current);
}

} // namespace Sonde
