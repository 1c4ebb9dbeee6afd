// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "engine/corehost.h"
#include "guiserverrequesthandler.h"
#include "healthpanel.h"
#include "resourcespanel.h"
#include "serverdialog.h"
#include "serverlistmodel.h"
#include "sessionpanel.h"
#include "textdisplay.h"
#include "timelinewidget.h"
#include "toolspanel.h"
#include "transcriptpanel.h"
#include "transcriptstore.h"

#include <QAction>
#include <QCloseEvent>
#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QJsonDocument>
#include <QLineEdit>
#include <QListView>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

static constexpr int MaxStderrLines = 5000;
static constexpr int MaxLogBatch = 500;

static QStringList completionValues(const CallOutcome &o)
{
    QStringList values;
    for (const QJsonValue &v :
         o.result.toObject().value("completion"_L1).toObject().value("values"_L1).toArray())
        values.append(v.toString());
    return values;
}

MainWindow::MainWindow(CoreHost &host, QWidget *parent) : QMainWindow(parent), m_host(host)
{
    setWindowTitle(u"Sonde"_s);
    setObjectName(u"mainWindow"_s);
    m_servers = new ServerStore(this);
    m_serverModel = new ServerListModel(m_servers, this);
    m_transcript = new TranscriptStore(TranscriptStore::DefaultCapacity, this);
    m_handler = new GuiServerRequestHandler(host, this);
    host.setServerRequestHandler(m_handler);

    m_split = new QSplitter(this);
    m_split->setObjectName(u"mainSplitter"_s);
    auto *left = new QWidget(m_split);
    auto *leftLayout = new QVBoxLayout(left);
    m_serverList = new QListView(left);
    m_serverList->setObjectName(u"serverList"_s);
    m_serverList->setModel(m_serverModel);
    m_serverList->setSpacing(2);
    leftLayout->addWidget(m_serverList, 1);
    auto *add = new QPushButton(tr("Add…"), left);
    auto *import = new QPushButton(tr("Import…"), left);
    auto *edit = new QPushButton(tr("Edit…"), left);
    auto *remove = new QPushButton(tr("Remove"), left);
    for (QPushButton *b : {add, import, edit, remove})
        leftLayout->addWidget(b);
    connect(add, &QPushButton::clicked, this, &MainWindow::addServerWithDialog);
    connect(import, &QPushButton::clicked, this, &MainWindow::importWithDialog);
    connect(edit, &QPushButton::clicked, this, &MainWindow::editCurrentServer);
    connect(remove, &QPushButton::clicked, this, &MainWindow::removeCurrentServer);
    connect(m_serverList->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex &i) {
                m_current = i.data(ServerListModel::NameRole).toString();
                showCurrent();
            });

    m_tabs = new QTabWidget(m_split);
    m_tabs->setObjectName(u"panels"_s);
    m_session = new SessionPanel(m_tabs);
    m_tools = new ToolsPanel(m_tabs);
    m_health = new HealthPanel(m_tabs);
    m_transcriptPanel = new TranscriptPanel(m_transcript, m_tabs);
    m_timeline = new TimelineWidget(m_tabs);
    m_timeline->setObjectName(u"timeline"_s);
    m_timeline->setStore(m_transcript);
    m_resources = new ResourcesPanel(m_tabs);
    m_prompts = new PromptsPanel(m_tabs);
    m_log = new QPlainTextEdit(m_tabs);
    m_log->setObjectName(u"logView"_s);
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(10'000);
    m_logTimer = new QTimer(this);
    m_logTimer->setSingleShot(true);
    m_logTimer->setInterval(100);
    connect(m_logTimer, &QTimer::timeout, this, [this] {
        if (m_skippedLog > 0)
            m_log->appendPlainText(
                tr("… %n more notification(s) not shown here: the Transcript has them all", nullptr,
                   m_skippedLog));
        m_skippedLog = 0;
        if (!m_pendingLog.isEmpty())
            m_log->appendPlainText(m_pendingLog.join(u'\n'));
        m_pendingLog.clear();
    });
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

    connect(&host, &CoreHost::sessionChanged, this, &MainWindow::onSessionChanged);
    connect(&host, &CoreHost::callFinished, this, &MainWindow::onCallFinished);
    connect(&host, &CoreHost::notificationReceived, this, &MainWindow::onNotification);
    connect(&host, &CoreHost::transcriptBatch, this, &MainWindow::onTranscript);
    connect(&host, &CoreHost::listRefreshed, this,
            [this](const QString &server, const QString &method, const QJsonArray &items) {
                if (method != "tools/list"_L1) {
                    m_lists[server].insert(method, items);
                    if (server == m_current)
                        showLists();
                    return;
                }
                m_toolLists.insert(server, items);
                if (server == m_current)
                    m_tools->setTools(items);
            });

    connect(m_session, &SessionPanel::reconnectRequested, this, [this] {
        if (!m_current.isEmpty())
            m_commandTickets.insert(m_host.reconnect(m_current), tr("reconnect"));
    });
    connect(m_session, &SessionPanel::disconnectRequested, this,
            [this] { m_host.disconnectServer(m_current); });
    connect(m_session, &SessionPanel::connectRequested, this,
            [this] { m_host.connectServer(m_current); });
    connect(m_session, &SessionPanel::logLevelRequested, this, [this](const QString &level) {
        m_commandTickets.insert(
            m_host.call(m_current, u"logging/setLevel"_s, {{"level"_L1, level}}),
            tr("log level %1").arg(level));
    });
    connect(m_session, &SessionPanel::pingRequested, this,
            [this] { m_commandTickets.insert(m_host.call(m_current, u"ping"_s), tr("ping")); });
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
        m_panelTickets.insert(m_host.call(m_current, u"resources/read"_s, {{"uri"_L1, uri}}),
                              u"read"_s);
    });
    connect(m_resources, &ResourcesPanel::subscribeRequested, this,
            [this](const QString &uri, bool on) {
                m_commandTickets.insert(
                    m_host.call(m_current,
                                on ? u"resources/subscribe"_s : u"resources/unsubscribe"_s,
                                {{"uri"_L1, uri}}),
                    on ? tr("subscribe %1").arg(uri) : tr("unsubscribe %1").arg(uri));
            });
    connect(
        m_resources, &ResourcesPanel::completionRequested, this,
        [this](const QString &uriTemplate, const QString &argument, const QString &value,
               const QJsonObject &context) {
            QJsonObject params{
                {"ref"_L1, QJsonObject{{"type"_L1, "ref/resource"_L1}, {"uri"_L1, uriTemplate}}},
                {"argument"_L1, QJsonObject{{"name"_L1, argument}, {"value"_L1, value}}}};
            if (!context.isEmpty())
                params.insert("context"_L1, QJsonObject{{"arguments"_L1, context}});
            m_panelTickets.insert(m_host.call(m_current, u"completion/complete"_s, params),
                                  u"rcomplete:"_s + argument);
        });
    connect(m_prompts, &PromptsPanel::getRequested, this,
            [this](const QString &name, const QJsonObject &args) {
                m_panelTickets.insert(m_host.call(m_current, u"prompts/get"_s,
                                                  {{"name"_L1, name}, {"arguments"_L1, args}}),
                                      u"get"_s);
            });
    connect(m_prompts, &PromptsPanel::completionRequested, this,
            [this](const QString &prompt, const QString &argument, const QString &value,
                   const QJsonObject &context) {
                QJsonObject params{
                    {"ref"_L1, QJsonObject{{"type"_L1, "ref/prompt"_L1}, {"name"_L1, prompt}}},
                    {"argument"_L1, QJsonObject{{"name"_L1, argument}, {"value"_L1, value}}}};
                if (!context.isEmpty())
                    params.insert("context"_L1, QJsonObject{{"arguments"_L1, context}});
                m_panelTickets.insert(m_host.call(m_current, u"completion/complete"_s, params),
                                      u"complete:"_s + argument);
            });
    connect(m_health, &HealthPanel::breakerActionRequested, this, [this](const QString &action) {
        m_commandTickets.insert(m_host.breaker(m_current, action), tr("breaker %1").arg(action));
    });
    connect(m_health, &HealthPanel::faultRequested, this, [this](const Fault &f) {
        m_commandTickets.insert(m_host.injectFault(m_current, f), tr("fault %1").arg(f.describe()));
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
    m_roots.insert(config.name, roots);
    m_handler->setRoots(config.name, roots);
    m_host.addServer(config, connectNow);
    if (m_current.isEmpty())
        selectServer(config.name);
}

void MainWindow::selectServer(const QString &name)
{
    const int row = m_servers->indexOf(name);
    if (row >= 0)
        m_serverList->setCurrentIndex(m_serverModel->index(row));
}

void MainWindow::showCurrent()
{
    const int row = m_servers->indexOf(m_current);
    if (row < 0)
        return;
    const SessionSnapshot &s = m_servers->snapshot(row);
    m_session->setSnapshot(s);
    m_health->setSnapshot(s);
    m_session->clearStderr();
    for (const QString &line : m_stderr.value(m_current))
        m_session->appendStderr(line);
    m_tools->setTools(m_toolLists.value(m_current));
    showLists();
    m_prompts->setCompletionsAvailable(s.serverCapabilities.contains("completions"_L1));
    m_resources->setCompletionsAvailable(s.serverCapabilities.contains("completions"_L1));
    setWindowTitle(u"Sonde — %1"_s.arg(m_current));
}

void MainWindow::showLists()
{
    const QHash<QString, QJsonArray> lists = m_lists.value(m_current);
    m_resources->setResources(lists.value(u"resources/list"_s));
    m_resources->setTemplates(lists.value(u"resources/templates/list"_s));
    m_prompts->setPrompts(lists.value(u"prompts/list"_s));
}

void MainWindow::refreshTools(const QString &server)
{
    const quint64 t = m_host.call(server, u"tools/list"_s);
    m_toolListTickets.insert(t);
}

void MainWindow::onSessionChanged(const SessionSnapshot &s)
{
    m_servers->updateSnapshot(s);
    // Every id ever seen, not the current ones: a reconnect's new id must not unmask the old
    // one, which the earlier events (closed, connection-lost) still hold.
    if (!s.sessionId.isEmpty())
        m_transcriptPanel->addSessionId(s.sessionId);
    if (s.state == SessionSnapshot::State::Ready &&
        m_toolsFetchedForGeneration.value(s.server) != s.generation &&
        s.serverCapabilities.contains("tools"_L1)) {
        m_toolsFetchedForGeneration.insert(s.server, s.generation);
        refreshTools(s.server);
        if (s.serverCapabilities.contains("resources"_L1)) {
            m_panelTickets.insert(m_host.call(s.server, u"resources/list"_s), u"list"_s);
            m_panelTickets.insert(m_host.call(s.server, u"resources/templates/list"_s), u"list"_s);
        }
        if (s.serverCapabilities.contains("prompts"_L1))
            m_panelTickets.insert(m_host.call(s.server, u"prompts/list"_s), u"list"_s);
    }
    if (s.server == m_current) {
        m_prompts->setCompletionsAvailable(s.serverCapabilities.contains("completions"_L1));
        m_resources->setCompletionsAvailable(s.serverCapabilities.contains("completions"_L1));
    }
    if (s.server == m_current) {
        m_session->setSnapshot(s);
        m_health->setSnapshot(s);
    }
}

void MainWindow::onCallFinished(const CallOutcome &o)
{
    if (m_toolListTickets.remove(o.ticket)) {
        if (o.ok()) {
            const QJsonArray tools = o.result.toObject().value("tools"_L1).toArray();
            m_toolLists.insert(o.server, tools);
            if (o.server == m_current)
                m_tools->setTools(tools);
        }
        return;
    }
    if (m_panelTickets.contains(o.ticket)) {
        const QString kind = m_panelTickets.take(o.ticket);
        if (kind == "list"_L1) {
            if (o.ok()) {
                const QString key = o.method == "resources/list"_L1 ? u"resources"_s
                                    : o.method == "prompts/list"_L1 ? u"prompts"_s
                                                                    : u"resourceTemplates"_s;
                m_lists[o.server].insert(o.method, o.result.toObject().value(key).toArray());
                if (o.server == m_current)
                    showLists();
            }
        } else if (o.server == m_current && kind == "read"_L1) {
            m_resources->showRead(o);
        } else if (o.server == m_current && kind == "get"_L1) {
            m_prompts->showPrompt(o);
        } else if (o.server == m_current && kind.startsWith("complete:"_L1)) {
            m_prompts->showCompletion(kind.mid(9), completionValues(o));
        } else if (o.server == m_current && kind.startsWith("rcomplete:"_L1)) {
            m_resources->showCompletion(kind.mid(10), completionValues(o));
        }
        return;
    }
    if (o.ticket == m_callTicket) {
        m_callTicket = 0;
        if (o.server == m_current)
            m_tools->showOutcome(o);
        status(o.ok() ? tr("%1: answered in %2 ms").arg(o.server).arg(o.finishedMs - o.startedMs)
                      : tr("%1: %2").arg(o.server, o.error.message()));
        return;
    }
    const QString what = m_commandTickets.take(o.ticket);
    if (!what.isEmpty())
        status(o.ok() ? tr("%1 %2: done").arg(o.server, what)
                      : tr("%1 %2: %3").arg(o.server, what, o.error.message()));
}

void MainWindow::onNotification(const ServerNotification &n)
{
    if (n.method == "notifications/progress"_L1) {
        if (n.params.value("progressToken"_L1).toString() == u"sonde-%1"_s.arg(m_callTicket) &&
            n.server == m_current)
            m_tools->showProgress(n.params.value("progress"_L1).toDouble(),
                                  n.params.value("total"_L1).toDouble(),
                                  n.params.value("message"_L1).toString());
        return;
    }
    if (n.method == "notifications/resources/updated"_L1 && n.server == m_current)
        m_resources->noteUpdated(n.params.value("uri"_L1).toString());
    QString text = QString::fromUtf8(QJsonDocument(n.params).toJson(QJsonDocument::Compact));
    if (n.method == "notifications/message"_L1)
        text = u"[%1] %2"_s.arg(
            n.params.value("level"_L1).toString(),
            n.params.value("data"_L1).isString() ? n.params.value("data"_L1).toString() : text);
    // Appended in batches: laying out one line per notification stalls the GUI thread when a
    // server floods (10,000 per second); the transcript keeps every message anyway.
    m_pendingLog.append(TextDisplay::logLine(
        u"%1 %2 %3 %4"_s.arg(QDateTime::fromMSecsSinceEpoch(n.timeMs).toString(u"HH:mm:ss.zzz"_s),
                             n.server, n.method, text)));
    if (m_pendingLog.size() > MaxLogBatch) {
        m_skippedLog += int(m_pendingLog.size()) - MaxLogBatch;
        m_pendingLog.erase(m_pendingLog.begin(), m_pendingLog.end() - MaxLogBatch);
    }
    if (!m_logTimer->isActive())
        m_logTimer->start();
}

void MainWindow::onTranscript(const TranscriptBatch &batch)
{
    m_transcript->append(batch);
    for (const TranscriptEvent &e : batch) {
        if (e.direction != TranscriptEvent::Direction::Stderr)
            continue;
        const QString line = QString::fromUtf8(e.raw);
        QStringList &lines = m_stderr[e.server];
        lines.append(line);
        if (lines.size() > MaxStderrLines)
            lines.removeFirst();
        if (e.server == m_current)
            m_session->appendStderr(line);
    }
}

void MainWindow::callTool(const QString &tool, const QJsonObject &args)
{
    if (m_current.isEmpty() || m_callTicket)
        return;
    m_callServer = m_current;
    m_callTicket =
        m_host.call(m_current, u"tools/call"_s, {{"name"_L1, tool}, {"arguments"_L1, args}});
    m_tools->callStarted();
    status(tr("%1: calling %2…").arg(m_current, tool));
}

void MainWindow::cancelCall()
{
    if (m_callTicket)
        m_host.cancel(m_callTicket, tr("cancelled by the user"));
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
    dialog.setConfig(m_servers->config(row), m_roots.value(m_current));
    if (dialog.exec() != QDialog::Accepted)
        return;
    const ServerConfig c = dialog.config();
    if (c.name != m_current) {
        m_host.removeServer(m_current);
        m_servers->removeServer(m_current);
        m_current.clear();
    }
    addServer(c, dialog.roots());
    selectServer(c.name);
}

void MainWindow::removeCurrentServer()
{
    if (m_current.isEmpty())
        return;
    m_host.removeServer(m_current);
    m_servers->removeServer(m_current);
    m_toolLists.remove(m_current);
    m_current.clear();
    if (m_servers->size() > 0)
        selectServer(m_servers->config(0).name);
}

// VS Code's ${input:ID}: asked here, once per id, while the file is read (core calls back).
static std::optional<QString> askForConfigInput(QWidget *parent, const QString &path,
                                                const ConfigInput &input)
{
    bool ok = false;
    const QString label = input.description.isEmpty()
                              ? QObject::tr("Value for \"%1\" (asked by %2):")
                                    .arg(input.id, QFileInfo(path).fileName())
                              : QObject::tr("%1\n(\"%2\", asked by %3)")
                                    .arg(input.description, input.id, QFileInfo(path).fileName());
    const QString value = QInputDialog::getText(
        parent, QObject::tr("Import: input needed"), label,
        input.password ? QLineEdit::Password : QLineEdit::Normal, QString(), &ok);
    if (!ok)
        return std::nullopt;
    return value;
}

bool MainWindow::importConfigFile(const QString &path, bool confirm)
{
    ServerConfigFile::Options options;
    options.inputProvider = [this, path](const ConfigInput &input) {
        return askForConfigInput(this, path, input);
    };
    const ServerConfigFile::Result r = ServerConfigFile::load(path, options);
    // Entries whose placeholders could not be resolved are not offered: starting them would
    // hand a literal "${...}" to a process or a server.
    if (!r.unresolved.isEmpty()) {
        QStringList why;
        for (const Error &e : r.unresolved)
            why.append(e.message());
        if (confirm)
            QMessageBox::warning(this, tr("Import"), tr("Not imported:\n%1").arg(why.join(u'\n')));
        status(why.join(u"; "_s));
    }
    if (r.error.isError()) {
        if (confirm)
            QMessageBox::warning(this, tr("Import"), r.error.message());
        status(r.error.message());
        return false;
    }
    QList<ServerConfig> chosen = r.servers.values();
    if (confirm) {
        ImportDialog dialog(r.servers, this);
        if (dialog.exec() != QDialog::Accepted)
            return false;
        chosen = dialog.chosen();
    }
    for (const ServerConfig &c : std::as_const(chosen))
        addServer(c, {}, false); // imported servers connect only when asked
    status(tr("Imported %n server(s) from %1", nullptr, int(chosen.size())).arg(path));
    return true;
}

void MainWindow::importWithDialog()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Import servers"), QString(), tr("MCP configurations (*.json);;All files (*)"));
    if (!path.isEmpty())
        importConfigFile(path, true);
}

// Stored as the same "mcpServers" JSON other clients write, plus Sonde's own settings.
void MainWindow::saveWorkspace(QSettings &settings) const
{
    QJsonObject servers;
    QJsonObject extras;
    for (int i = 0; i < m_servers->size(); ++i) {
        const ServerConfig &c = m_servers->config(i);
        QJsonObject s;
        if (c.route == ServerConfig::Route::Stdio) {
            s.insert("command"_L1, c.program);
            s.insert("args"_L1, QJsonArray::fromStringList(c.arguments));
            QJsonObject env;
            for (auto it = c.environment.begin(); it != c.environment.end(); ++it)
                env.insert(it.key(), it.value());
            if (!env.isEmpty())
                s.insert("env"_L1, env);
            if (!c.workingDirectory.isEmpty())
                s.insert("cwd"_L1, c.workingDirectory);
        } else {
            s.insert("type"_L1, c.route == ServerConfig::Route::LegacySse ? u"sse"_s : u"http"_s);
            s.insert("url"_L1, c.url.toString());
            QJsonObject headers;
            for (const auto &[k, v] : c.headers)
                headers.insert(QString::fromUtf8(k), QString::fromUtf8(v));
            if (!headers.isEmpty())
                s.insert("headers"_L1, headers);
        }
        servers.insert(c.name, s);
        extras.insert(c.name,
                      QJsonObject{{"timeoutMs"_L1, c.requestTimeoutMs},
                                  {"breakerThreshold"_L1, c.breakerThreshold},
                                  {"breakerCooldownMs"_L1, c.breakerCooldownMs},
                                  {"pingIntervalMs"_L1, c.pingIntervalMs},
                                  {"roots"_L1, QJsonArray::fromStringList(m_roots.value(c.name))}});
    }
    settings.setValue(
        u"workspace/servers"_s,
        QJsonDocument(QJsonObject{{"mcpServers"_L1, servers}}).toJson(QJsonDocument::Compact));
    settings.setValue(u"workspace/sonde"_s, QJsonDocument(extras).toJson(QJsonDocument::Compact));
    settings.setValue(u"workspace/current"_s, m_current);
    settings.setValue(u"window/geometry"_s, saveGeometry());
    settings.setValue(u"window/state"_s, saveState());
    settings.setValue(u"window/split"_s, m_split->saveState());
    settings.setValue(u"window/tab"_s, m_tabs->currentIndex());
    settings.setValue(u"window/transcriptColumns"_s, m_transcriptPanel->saveLayout());
}

void MainWindow::loadWorkspace(QSettings &settings)
{
    const QByteArray stored = settings.value(u"workspace/servers"_s).toByteArray();
    const QJsonObject extras =
        QJsonDocument::fromJson(settings.value(u"workspace/sonde"_s).toByteArray()).object();
    if (!stored.isEmpty()) {
        // Saved values were resolved when imported: read them as they are.
        ServerConfigFile::Options verbatim;
        verbatim.resolvePlaceholders = false;
        const ServerConfigFile::Result r =
            ServerConfigFile::parse(stored, tr("saved workspace"), verbatim);
        for (auto it = r.servers.begin(); it != r.servers.end(); ++it) {
            ServerConfig c = it.value();
            const QJsonObject x = extras.value(c.name).toObject();
            c.requestTimeoutMs = x.value("timeoutMs"_L1).toInt(c.requestTimeoutMs);
            c.breakerThreshold = x.value("breakerThreshold"_L1).toInt(c.breakerThreshold);
            c.breakerCooldownMs = x.value("breakerCooldownMs"_L1).toInt(c.breakerCooldownMs);
            c.pingIntervalMs = x.value("pingIntervalMs"_L1).toInt(c.pingIntervalMs);
            QStringList roots;
            for (const QJsonValue &v : x.value("roots"_L1).toArray())
                roots.append(v.toString());
            addServer(c, roots);
        }
        if (r.error.isError())
            status(r.error.message());
    }
    restoreGeometry(settings.value(u"window/geometry"_s).toByteArray());
    restoreState(settings.value(u"window/state"_s).toByteArray());
    m_split->restoreState(settings.value(u"window/split"_s).toByteArray());
    m_tabs->setCurrentIndex(settings.value(u"window/tab"_s, 1).toInt());
    m_transcriptPanel->restoreLayout(settings.value(u"window/transcriptColumns"_s).toByteArray());
    selectServer(settings.value(u"workspace/current"_s).toString());
}

} // namespace Sonde
