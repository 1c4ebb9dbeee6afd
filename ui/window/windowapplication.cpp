// SPDX-License-Identifier: MIT
#include "window/windowapplication.h"

#include "application/servers/proxiedsessions.h"
#include "application/servers/serverstore.h"
#include "application/workspace/workspacesettings.h"
#include "history/historypanel.h"
#include "history/historysettingsdialog.h"
#include "historyrecorder.h"
#include "protocol/mcpapps.h"
#include "secrets/secretstore.h"
#include "util/version.h"
#include "window/mainwindow.h"
#include "window/mainwindowactions.h"
#include "window/recordingwiring.h"

#include <QAction>
#include <QApplication>
#include <QIcon>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Sonde {

void WindowApplication::describeApplication()
{
    QApplication::setOrganizationName(u"Sonde"_s);
    QApplication::setApplicationName(u"Sonde"_s);
    QApplication::setApplicationVersion(QStringLiteral(SONDE_VERSION));
    QApplication::setDesktopFileName(u"io.github.sonde.Sonde"_s);
    QIcon icon;
    icon.addFile(u":/icons/io.github.sonde.Sonde-48.png"_s);
    icon.addFile(u":/icons/io.github.sonde.Sonde-256.png"_s);
    QApplication::setWindowIcon(icon);
}

WindowApplication::WindowApplication(WindowOptions options, QObject *parent)
    : QObject(parent), m_options(std::move(options)), m_recording(m_host)
{
    // The window keeps the transcript (and exports it as HAR), with or without the history.
    m_host.setRecordHttpExchanges(true);
    // The window renders MCP Apps: servers hear so, unless the user turned it off for one
    // (ServerConfig::mcpApps).
    m_host.setClientCapabilities(McpApps::withExtension(CoreHost::defaultClientCapabilities()));
    m_window = std::make_unique<MainWindow>(m_host);
    m_window->setDemoServerProgram(m_options.demoServerProgram);
    startRecording();
    connect(m_window->actions()->action(MainWindowActions::HistorySettings), &QAction::triggered,
            this, &WindowApplication::openHistorySettings);
    // Chosen in the server dialog: the next start opens it (and asks for its passphrase).
    connect(m_window.get(), &MainWindow::secretsFileChosen, this, [this](const QString &path) {
        if (m_options.fresh)
            return;
        m_settings.setValue(u"secrets/encryptedFile"_s, path);
        m_settings.sync();
    });
    connect(m_window.get(), &MainWindow::workspaceLoaded, this, &WindowApplication::afterLoad);
    // Quitting is the window's: it closes the sessions first, with the event loop running,
    // within its bound, and says when the application may go.
    QApplication::setQuitOnLastWindowClosed(false);
    connect(m_window.get(), &MainWindow::shutdownFinished, qApp, &QApplication::quit,
            Qt::QueuedConnection);
    // SIGTERM (a session manager, systemd, kill) and Ctrl-C in the terminal quit the same way.
    connect(&m_watcher, &SignalWatcher::received, this, [this](int signo) {
        m_stoppedBy = signo;
        m_window->close();
    });
    connect(qApp, &QApplication::aboutToQuit, this, [this] {
        if (m_loaded && !m_options.fresh && !m_options.throwaway)
            m_window->saveWorkspace(m_settings);
        m_host.shutdown(); // for a quit that did not come through the window: nothing waits
    });
}

WindowApplication::~WindowApplication()
{
    m_window.reset(); // before the secret store and the recording it uses
}

void WindowApplication::startRecording()
{
    QString retentionProblem;
    const HistoryRetention retention =
        WorkspaceSettings::loadRetention(m_settings, &retentionProblem);
    if (!m_options.noHistory) {
        connect(&m_recording, &RunRecording::problem, m_window.get(),
                [this](const QString &text) { m_window->showNotice(text); });
        m_recording.start(m_options.historyFile, retention);
        m_window->setRunPaths(m_settings.fileName(), m_recording.path());
        // Once the recorder has opened the history, the History tab lists it, and the
        // window shows this run from it (through a read connection of its own) and keeps
        // only a tail in memory.
        const auto showRecording = [this] {
            if (HistoryCatalog *catalog = m_recording.catalog())
                m_window->setHistoryCatalog(catalog);
            m_window->showRecording(m_recording.recorder(), m_recording.reader());
        };
        connect(&m_recording, &RunRecording::opened, m_window.get(), showRecording);
        if (m_recording.isOpen())
            showRecording();
        RunRecording::followServers(m_window->serverStore(), m_recording.recorder());
        // The proxied sessions go into this run as well: the window records what it shows,
        // and each proxy stops recording while the window watches (docs/proxy.md).
        connect(m_window->proxiedSessions(), &ProxiedSessions::transcriptBatch,
                m_recording.recorder(), &HistoryRecorder::record);
    } else {
        m_window->setRunPaths(m_settings.fileName(), {});
    }
    if (!retentionProblem.isEmpty())
        m_window->showNotice(retentionProblem);
}

// File → History settings…: the retention is stored at once and applied by the recorder at
// once; its Clear history is the History tab's (the same question, then a refresh).
void WindowApplication::openHistorySettings()
{
    auto *dialog = new HistorySettingsDialog(WorkspaceSettings::loadRetention(m_settings),
                                             m_recording.isStarted(), m_window.get());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    RecordingWiring::connectRetention(
        dialog, &m_settings, m_recording.recorder(),
        [this](const QString &notice) { m_window->showNotice(notice); });
    connect(dialog, &HistorySettingsDialog::clearRequested, m_window.get(), [this] {
        m_window->tabs()->setCurrentWidget(m_window->historyPanel());
        m_window->historyPanel()->requestClear();
    });
    dialog->open();
}

void WindowApplication::start()
{
    chooseSecretStore();
    m_window->show();
}

// The workspace waits for the secret store (its secret headers are in it), and the store for
// the keyring's probe (bounded: 3 s at most, at once without a session bus).
void WindowApplication::chooseSecretStore()
{
    SecretStoreChooser::Options secretOptions;
    secretOptions.encryptedFile = !m_options.secretsFile.isEmpty()
                                      ? m_options.secretsFile
                                      : m_settings.value(u"secrets/encryptedFile"_s).toString();
    secretOptions.passphrase = qgetenv("SONDE_SECRETS_PASSPHRASE");
    m_chooser = std::make_unique<SecretStoreChooser>(secretOptions);
    connect(m_chooser.get(), &SecretStoreChooser::chosen, this,
            [this](const SecretStoreChooser::Choice &choice) {
                if (choice.kind != SecretStoreChooser::Choice::Kind::EncryptedFile ||
                    !choice.passphrase.isEmpty()) {
                    useSecretStore(choice, nullptr);
                    return;
                }
                // The file the settings name, and no passphrase in the environment: asked
                // once.
                m_window->unlockSecretsFile(
                    choice.encryptedFile,
                    [this, choice](std::unique_ptr<SecretStore> store, QByteArray passphrase) {
                        SecretStoreChooser::Choice opened = choice;
                        if (store) {
                            opened.passphrase = passphrase;
                        } else {
                            opened.kind = SecretStoreChooser::Choice::Kind::Memory;
                            opened.reason =
                                tr("The secrets file %1 was not opened").arg(choice.encryptedFile);
                        }
                        useSecretStore(opened, std::move(store));
                    });
            });
    m_chooser->choose();
}

void WindowApplication::useSecretStore(const SecretStoreChooser::Choice &choice,
                                       std::unique_ptr<SecretStore> store)
{
    m_secrets = store ? std::move(store) : SecretStoreChooser::create(choice);
    m_window->setSecretStore(m_secrets.get(), choice.reason);
    m_host.setSecretStoreFactory([choice] { return SecretStoreChooser::create(choice); });
    if (m_options.fresh)
        afterLoad();
    else
        m_window->loadWorkspace(m_settings);
}

void WindowApplication::afterLoad()
{
    m_loaded = true;
    if (!m_options.importFile.isEmpty())
        m_window->importConfigFile(m_options.importFile, false);
    // With no configuration the built-in demo is there and connected, over stdio and over
    // HTTP, so a new user sees a real session (and its session faults) at once.
    if (m_window->serverStore()->configuredCount() == 0)
        m_window->addFirstRunDemos();
    // The proxies running now, and those that start later, show as rows (after the
    // workspace, whose names come first).
    m_window->proxiedSessions()->start(QString(), !m_options.noHistory);
    // For desktops without a dark theme Qt can follow (View → Dark mode is remembered).
    if (m_options.dark)
        m_window->setDarkMode(true);
    // Every change is on disk at once from now on: a crash loses nothing.
    if (!m_options.fresh && !m_options.throwaway)
        m_window->autosaveTo(&m_settings);
    if (m_options.tab >= 0)
        m_window->tabs()->setCurrentIndex(m_options.tab);
    if (!m_options.server.isEmpty()) {
        // Said, not fatal: the window is open by now, on the workspace's own selection. A
        // proxied session's row comes when its proxy has answered: waited for, a little.
        ServerStore *servers = m_window->serverStore();
        if (servers->indexOf(m_options.server) >= 0) {
            m_window->selectServer(m_options.server);
        } else if (m_window->proxiedSessions()->pending() > 0) {
            auto *wait = new QObject(this);
            connect(servers, &ServerStore::serverAdded, wait, [this, servers, wait](int row) {
                if (servers->config(row).name == m_options.server) {
                    m_window->selectServer(m_options.server);
                    wait->deleteLater();
                }
            });
            QTimer::singleShot(ProxiedSessions::AppearWithinMs, wait, [this, wait] {
                noSuchServer();
                wait->deleteLater();
            });
        } else {
            noSuchServer();
        }
    }
}

void WindowApplication::noSuchServer()
{
    std::fprintf(stderr, "sonde: --server: no server named \"%s\" (the workspace has: %s)\n",
                 qPrintable(m_options.server),
                 qPrintable(m_window->serverStore()->names().join(u", ")));
}

int WindowApplication::exitCode(int loopCode) const
{
    return m_stoppedBy ? SignalWatcher::exitCodeFor(m_stoppedBy) : loopCode;
}

} // namespace Sonde
