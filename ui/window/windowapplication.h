// SPDX-License-Identifier: MIT
#pragma once

#include "application/history/runrecording.h"
#include "engine/corehost.h"
#include "secretstorechooser.h"
#include "util/signalwatcher.h"

#include <QObject>
#include <QSettings>
#include <QString>

#include <memory>

namespace Sonde {

class MainWindow;
class SecretStore;

// What the user asked of this run of the window, from the command line.
struct WindowOptions
{
    int tab = -1;           // --tab: open on this tab (-1: the workspace's)
    QString server;         // --server: open with this server selected (empty: the workspace's)
    bool fresh = false;     // --no-saved-workspace: neither load nor save the user's
    QString importFile;     // --import: add the servers of an MCP JSON file
    bool dark = false;      // --dark
    QString secretsFile;    // --secrets-file (else the setting secrets/encryptedFile)
    QString historyFile;    // --history (empty: the default file)
    bool noHistory = false; // --no-history
    // A developer hook ends the run by itself (--screenshot, --exit-when-ready): the
    // workspace is not autosaved, nor saved at quit.
    bool throwaway = false;
    QString demoServerProgram; // sonde-demo-server, beside sonde
};

// The window application: the core host, where secrets are kept (SecretStoreChooser, the
// keyring probe bounded to 3 s), this run's recording, the window, and the saved workspace
// (or, on a first start, the built-in demos). start() chooses the secret store, and the
// workspace is loaded once it answered (its secret headers are in it). Quitting is the
// window's bounded shutdown, by the window, Ctrl+Q, SIGTERM or Ctrl-C alike.
// Thread: GUI; one per process, made after QApplication.
class WindowApplication : public QObject
{
    Q_OBJECT
public:
    explicit WindowApplication(WindowOptions options, QObject *parent = nullptr);
    ~WindowApplication() override;

    // Sets the application's names and icon (before the window exists).
    static void describeApplication();
    void start();
    MainWindow &window() const { return *m_window; }
    CoreHost &host() { return m_host; }
    // The exit code for what the event loop returned: 128 + N after signal N.
    int exitCode(int loopCode) const;

private:
    void startRecording();
    void chooseSecretStore();
    void useSecretStore(const SecretStoreChooser::Choice &choice,
                        std::unique_ptr<SecretStore> store);
    void afterLoad();
    void noSuchServer(); // --server named none of the rows
    void openHistorySettings();

    WindowOptions m_options;
    // Installed before anything starts a child (the first run's HTTP demo starts at once):
    // a SIGTERM before it would kill the window by default action, leaving the sessions
    // unclosed. What arrives before the loop runs waits in the watcher's pipe.
    SignalWatcher m_watcher;
    QSettings m_settings;
    CoreHost m_host;
    // Declared before the window, so they outlive its use of them.
    std::unique_ptr<SecretStore> m_secrets;
    RunRecording m_recording;
    std::unique_ptr<SecretStoreChooser> m_chooser;
    std::unique_ptr<MainWindow> m_window;
    bool m_loaded = false; // until then a save would write an empty workspace over the user's
    int m_stoppedBy = 0;
};

} // namespace Sonde
