// SPDX-License-Identifier: MIT
#pragma once

#include "application/servers/serverviewstore.h"
#include "application/window/shutdownsequence.h"
#include "application/workspace/missingsecrets.h"
#include "application/workspace/workspacesecrets.h"
#include "config/serverconfig.h"
#include "config/workspace.h"
#include "secretstorage.h"
#include "session/sessionsnapshot.h"
#include "transcript/redactor.h"
#include "transcript/transcriptevent.h"
#include "values/callvalues.h"

#include <QHash>
#include <QMainWindow>
#include <QPointer>

#include <functional>
#include <memory>
#include <optional>

class QSettings;
class QSplitter;
class QTabWidget;

namespace Sonde {

class AppLauncher;
class AuthPanel;
class HistoryCatalog;
class HistoryPanel;
class HistoryRecorder;
class HistoryStore;
class AuthStateStore;
class CoreHost;
class BuiltInDemos;
class CommandRouter;
class DoctorController;
class DoctorPanel;
class ProxiedSessions;
class WorkspaceController;
class SecretStore;
class SecretsFilePrompt;
class ServerDialog;
class HintBar;
class MainWindowActions;
class WindowDialogs;
class GuiServerRequestHandler;
class HealthPanel;
class NotificationLog;
class PromptsPanel;
class ReplayLauncher;
class ResourcesPanel;
class ServerListModel;
class ServerListPanel;
class ServerRegistry;
class ServerStore;
class ServerViewStore;
class SessionPanel;
class TimelineWidget;
class TimelineTab;
class OfflineHistoryOpener;
class ToolsPanel;
class TranscriptPanel;
class TranscriptStore;

// The inspector's window: the workspace's servers on the left; for the selected one its
// session, tools, health (breaker, history, faults), authorization, log and doctor; the
// transcript of all servers.
// It talks to the core only through CoreHost: queued calls out, value signals in.
// Closing it (or Ctrl+Q) is quitting: it hides, shuts every session down (cancel, DELETE,
// stdin, SIGTERM) with the event loop running, and closes for good, emitting
// shutdownFinished(), once the core is done or ShutdownBoundMs passed.
// Each answer is routed by its ticket's PendingCommand into the ServerViewStore, which holds
// every server's view state; the panels show the selected server's entry.
// Its menus and toolbar are MainWindowActions'; its dialogs (WindowDialogs) are opened with
// open(), never exec(). With autosaveTo() every change to the workspace is written at once.
// The title names the selected server and its state.
// Thread: GUI. Owns the stores and panels; the host is the application's.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    // The core's own steps fit in it: an HTTP DELETE is given 2 s, a stdio server 500 ms
    // after its stdin closes and 1 s after SIGTERM; what is still open then is killed.
    static constexpr int ShutdownBoundMs = ShutdownSequence::BoundMs;

    explicit MainWindow(CoreHost &host, QWidget *parent = nullptr);
    ~MainWindow() override;

    void addServer(const ServerConfig &config, const QStringList &roots = {},
                   bool connectNow = true);
    void selectServer(const QString &name);
    QString currentServer() const { return m_current; }

    // Persistence (QSettings): the server list, window layout, splitters, column widths.
    // Secret header values are kept in the secret store (WorkspaceSecrets), the settings hold
    // references: loading reads them first, so the servers come when the store has answered
    // (at once when there is nothing to read), and workspaceLoaded() follows. `settings` must
    // live until then (plaintext secrets of an older Sonde are moved out of it).
    void loadWorkspace(QSettings &settings);
    void saveWorkspace(QSettings &settings) const;
    // Reads an MCP configuration file and adds its servers (with `confirm`, those the user
    // ticks). Its ${input:...} values are asked for first, in dialogs opened with open():
    // then the servers come once they are answered, and this returns true at once.
    bool importConfigFile(const QString &path, bool confirm = true);
    // From now on every change to the workspace is written to `settings` at once (and
    // synced), not only on a clean exit. Not owned; null stops it.
    void autosaveTo(QSettings *settings);
    // Where secret values (headers, environment) are kept: the application's keyring, memory
    // or encrypted file store; not owned. Until it is set, a memory store of the window's
    // own. `reason`, for a store that forgets at quit, says why ("No keyring: ..."); it is
    // said in the hint bar until secrets are kept in a file, and in the server dialog.
    void setSecretStore(SecretStore *store, const QString &reason = {});
    // What the server dialog says of where secrets are kept.
    SecretStorage secretStorage() const;
    // Asks for the passphrase of the encrypted secrets file the settings name (once, at
    // start); `done` gets the opened store, or null when the user went on without it.
    void unlockSecretsFile(const QString &path,
                           std::function<void(std::unique_ptr<SecretStore>, QByteArray)> done);
    SecretsFilePrompt *secretsFilePrompt() const { return m_secretsPrompt; }
    // A notice the user must see once (where secrets are kept): the hint bar and the status.
    void showNotice(const QString &text, const QString &topic = {});
    // The built-in demo server, for the first run and for a saved built-in HTTP demo.
    void setDemoServerProgram(const QString &path);
    // What a first start opens: the built-in demo over stdio ("demo") and over HTTP
    // ("demo-http", a child Sonde starts on a free loopback port), and a hint pointing at
    // Health → Expire session on the HTTP one.
    void addFirstRunDemos();
    // A server that is the built-in HTTP demo: connected once the child says its URL.
    void addBuiltInHttpDemo(const QString &name, const QStringList &roots, ServerConfig::Era era);
    // Removes a server at once (Remove… asks first, then calls this).
    void removeServer(const QString &name);
    // The application's dark palette on or off, remembered in the workspace.
    void setDarkMode(bool on);
    MainWindowActions *actions() const { return m_actions; }
    // Where this run keeps its settings and its history (empty: none recorded), for Help →
    // About. Until it is set, About names QSettings' default file and no history.
    void setRunPaths(const QString &settingsFile, const QString &historyFile);

    ServerStore *serverStore() const { return m_servers; }
    // The sessions sonde-cli proxy processes stand in (docs/proxy.md), shown as rows.
    ProxiedSessions *proxiedSessions() const { return m_proxied; }
    ServerViewStore *viewStore() const { return m_views; }
    TranscriptStore *transcriptStore() const { return m_transcript; }
    ToolsPanel *toolsPanel() const { return m_tools; }
    SessionPanel *sessionPanel() const { return m_session; }
    HealthPanel *healthPanel() const { return m_health; }
    // The Authorization, Resources and Prompts tabs are built when first shown (a first run
    // never shows them, and they were a third of the idle heap); asking for one builds it.
    AuthPanel *authPanel();
    HistoryPanel *historyPanel() const { return m_history; }
    // Where the History tab reads the recorded sessions (not owned; null: nothing recorded).
    void setHistoryCatalog(HistoryCatalog *catalog);
    // The window records into a history (`recorder`, opened: its runId() is set; not owned,
    // it outlives the window): the Transcript tab pages this run's events from it through
    // `reader` (a read connection of its own) and follows each committed batch, the export
    // dialog reads this run from it, and the in-memory transcript keeps only the newest
    // RecordingTailEvents / RecordingTailBytes, for the timeline. Its memory then no longer
    // grows with the recording. Calling it again changes nothing. Without it (no history)
    // the store keeps its full bounds.
    void showRecording(HistoryRecorder *recorder, std::shared_ptr<const HistoryStore> reader);
    bool showsRecording() const;
    // A minute of a busy server or a flood's last second: what the timeline needs to draw the
    // present; 16 MiB of frames (a few large answers) whatever their count.
    static constexpr int RecordingTailEvents = 10'000;
    static constexpr qint64 RecordingTailBytes = qint64(16) * 1024 * 1024;
    AuthStateStore *authStore() const { return m_auth; }
    TranscriptPanel *transcriptPanel() const { return m_transcriptPanel; }
    ResourcesPanel *resourcesPanel();
    PromptsPanel *promptsPanel();
    // The Doctor tab (the last), built when first shown too.
    DoctorPanel *doctorPanel();
    // The doctor's live lints of every session, the findings and the runs.
    DoctorController *doctor() const { return m_doctor; }
    TimelineWidget *timeline() const { return m_timeline; }
    // The Timeline tab (live, or a past session from the History tab) and File > Open
    // transcript…'s opened files.
    TimelineTab *timelineTab() const { return m_timelineTab; }
    OfflineHistoryOpener *offlineHistory() const { return m_offline; }
    QTabWidget *tabs() const { return m_tabs; }
    GuiServerRequestHandler *requestHandler() const { return m_handler; }
    // Sends a recorded request again (the History tab's Replay…).
    ReplayLauncher *replayLauncher() const { return m_replay; }

Q_SIGNALS:
    // The sessions are closed (or the bound passed) and the window is gone: time to quit.
    void shutdownFinished();
    // loadWorkspace() is done: its servers are in the store (those whose secrets failed are
    // there unconnected, the reason in the status bar and the hint).
    void workspaceLoaded();
    // The user chose to keep secrets in this encrypted file (from the server dialog): the
    // settings name it from now on, so the next start asks for its passphrase.
    void secretsFileChosen(const QString &path);

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void buildPanels();
    // A tab whose panel `build` makes (and wires, and shows the current server on) once it is
    // first shown or asked for; until then the tab holds an empty page.
    void addLazyTab(const QString &title, std::function<QWidget *()> build);
    void buildTab(int index);
    QWidget *buildAuthPanel();
    QWidget *buildResourcesPanel();
    QWidget *buildPromptsPanel();
    QWidget *buildDoctorPanel();
    // Selects the transcript's event `index` (TranscriptStore::sequence) on its tab.
    void openTranscriptEvent(qint64 index);
    void buildActions();
    void connectPanels();
    void updateShell();
    void fillLayout(Workspace *w) const;
    void applyLayout(const WorkspaceSecrets::Loaded &loaded, const Error &error);
    void reconnectCurrent();
    void moveCurrentServer(int by);
    void exportWithDialog();
    void exportRecording();
    void onSessionChanged(const SessionSnapshot &s);
    void send(PendingCommand::Kind kind, const QString &name, const QString &method,
              const QJsonObject &params = {});
    void command(quint64 ticket, const QString &what);
    void showCurrent();
    void showCapabilities(const SessionSnapshot &s);
    // The Health tab's proxy faults for a proxied row, the engine's for any other.
    void showProxyControls(const SessionSnapshot &s);
    void addServerWithDialog();
    void editCurrentServer();
    void removeServerState(const QString &name);
    void removeCurrentServer();
    void replaceServer(const QString &old, const ServerConfig &c, const QStringList &roots);
    bool importConfigFile(const QString &path, const QHash<QString, QString> &inputs, bool confirm);
    void importWithDialog();
    void callTool(const QString &tool, const QJsonObject &args);
    // The call of a tool with an MCP App ended: its App opens in the answer's App tab.
    void openApp(const CallOutcome &outcome);
    void cancelCall();
    void status(const QString &text);
    void keepSecretsInFile(ServerDialog *asking);
    // The "enter it again" notice follows the servers still missing a secret.
    void updateMissingSecrets(const QString &server, const ServerConfig *config);
    void showMissingSecrets(const QStringList &lines);

    CoreHost &m_host;
    ServerRegistry *m_registry = nullptr; // owns the three per-server stores below
    ServerStore *m_servers = nullptr;
    ServerListModel *m_serverModel = nullptr;
    ServerViewStore *m_views = nullptr;
    TranscriptStore *m_transcript = nullptr;
    GuiServerRequestHandler *m_handler = nullptr;
    ServerListPanel *m_serverList = nullptr;
    QSplitter *m_split = nullptr;
    QTabWidget *m_tabs = nullptr;
    SessionPanel *m_session = nullptr;
    ToolsPanel *m_tools = nullptr;
    HealthPanel *m_health = nullptr;
    AuthStateStore *m_auth = nullptr;
    AuthPanel *m_authPanel = nullptr;
    HistoryPanel *m_history = nullptr;
    ReplayLauncher *m_replay = nullptr;
    TranscriptPanel *m_transcriptPanel = nullptr;
    ResourcesPanel *m_resources = nullptr;
    PromptsPanel *m_prompts = nullptr;
    TimelineWidget *m_timeline = nullptr;
    TimelineTab *m_timelineTab = nullptr;
    OfflineHistoryOpener *m_offline = nullptr;
    NotificationLog *m_log = nullptr;
    QHash<QWidget *, std::function<QWidget *()>> m_lazyTabs; // placeholder page -> its builder
    int m_authTab = -1, m_resourcesTab = -1, m_promptsTab = -1, m_doctorTab = -1;
    DoctorController *m_doctor = nullptr;
    DoctorPanel *m_doctorPanel = nullptr;
    QPointer<HistoryRecorder> m_recorder; // set by showRecording()
    std::shared_ptr<const HistoryStore> m_recordingReader;
    qint64 m_recordingRun = 0;
    QString m_current;
    QString m_settingsFile, m_historyFile;
    // What the export dialog masks: every configured value of every server ever added (an
    // edited or removed server's old events stay in the transcript). Session ids are found
    // in the records by the export itself.
    Redactor m_exportSecrets;
    std::unique_ptr<SecretStore> m_ownSecrets;
    WorkspaceSecrets *m_secrets = nullptr;
    SecretsFilePrompt *m_secretsPrompt = nullptr;
    QString m_secretsNotice; // why secrets do not outlive the run, if they do not
    MissingSecrets m_missing;
    // Until the window is first shown its layout is not one anybody saw (the first run and an
    // import add servers before that): the autosave writes the layout it was loaded with,
    // held here until then.
    struct SavedLayout
    {
        QByteArray geometry, windowState, splitter;
    };
    std::optional<SavedLayout> m_unshownLayout = SavedLayout{};
    MainWindowActions *m_actions = nullptr;
    WindowDialogs *m_dialogs = nullptr;
    HintBar *m_hint = nullptr;
    CommandRouter *m_router = nullptr;
    AppLauncher *m_appLauncher = nullptr;
    struct AppCall
    {
        QString server;
        QJsonObject tool;
        QJsonObject arguments;
        quint64 ticket = 0;
    } m_appCall; // the running call of a tool with an App, if it is one
    ProxiedSessions *m_proxied = nullptr;
    BuiltInDemos *m_demos = nullptr;
    ShutdownSequence *m_shutdown = nullptr;
    WorkspaceController *m_workspace = nullptr;
};

} // namespace Sonde
