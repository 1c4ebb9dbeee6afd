// SPDX-License-Identifier: MIT
// sonde: the desktop inspector. Wiring only: the core host, the window, where secrets are
// kept (SecretStoreChooser), the saved workspace (or, on a first start, the built-in demo
// server).
#include "application/history/storehistorycatalog.h"
#include "application/servers/serverstore.h"
#include "application/workspace/workspacesettings.h"
#include "devhooks.h"
#include "engine/corehost.h"
#include "history/historypanel.h"
#include "history/historysettingsdialog.h"
#include "historyrecorder.h"
#include "historystore.h"
#include "secrets/secretstore.h"
#include "secretstorechooser.h"
#include "util/signalwatcher.h"
#include "util/version.h"
#include "window/mainwindow.h"
#include "window/mainwindowactions.h"
#include "window/recordingwiring.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QIcon>
#include <QSettings>
#include <QStandardPaths>

#include <cstdio>

int main(int argc, char **argv)
{
    QElapsedTimer sinceMain;
    sinceMain.start();
    // Answered before QApplication exists: it needs a display, and `sonde --version` must
    // work on a machine without one (a packaging check, a CI job). Same text as
    // QCommandLineParser's.
    for (int i = 1; i < argc; ++i) {
        if (qstrcmp(argv[i], "--version") == 0) {
            std::printf("Sonde %s\n", SONDE_VERSION);
            return 0;
        }
    }
    QApplication app(argc, argv);
    // Installed before anything starts a child (the first run's HTTP demo starts at once, on
    // this thread): a SIGTERM that came before it would kill the window by default action,
    // leaving the children to PR_SET_PDEATHSIG and the sessions unclosed. What arrives before
    // the handler is connected waits in the watcher's pipe for the event loop.
    Sonde::SignalWatcher watcher;
    QApplication::setOrganizationName(QStringLiteral("Sonde"));
    QApplication::setApplicationName(QStringLiteral("Sonde"));
    QApplication::setApplicationVersion(QStringLiteral(SONDE_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.github.sonde.Sonde"));
    QIcon icon;
    icon.addFile(QStringLiteral(":/icons/io.github.sonde.Sonde-48.png"));
    icon.addFile(QStringLiteral(":/icons/io.github.sonde.Sonde-256.png"));
    QApplication::setWindowIcon(icon);

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Sonde, an inspector for MCP servers"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption tab(QStringLiteral("tab"),
                                 QStringLiteral("Open on this tab (0-9, Session to History)."),
                                 QStringLiteral("index"));
    const QCommandLineOption fresh(
        QStringLiteral("no-saved-workspace"),
        QStringLiteral("Ignore (and do not overwrite) the saved workspace."));
    const QCommandLineOption import(QStringLiteral("import"),
                                    QStringLiteral("Import servers from an MCP JSON file."),
                                    QStringLiteral("file"));
    const QCommandLineOption dark(
        QStringLiteral("dark"),
        QStringLiteral("Use a dark Fusion palette (the system palette is used otherwise)."));
    const QCommandLineOption secretsFile(
        QStringLiteral("secrets-file"),
        QStringLiteral("Keep secrets (tokens, secret headers) in this encrypted file, with the "
                       "passphrase from SONDE_SECRETS_PASSPHRASE, instead of the system keyring "
                       "(also the setting secrets/encryptedFile)."),
        QStringLiteral("file"));
    const QCommandLineOption history(
        QStringLiteral("history"),
        QStringLiteral("Record every session into this SQLite history (default: history.sqlite "
                       "in the application's data folder)."),
        QStringLiteral("file"));
    const QCommandLineOption noHistory(QStringLiteral("no-history"),
                                       QStringLiteral("Record nothing for this run."));
    const Sonde::DevHooks hooks;
    parser.addOptions({tab, fresh, import, dark, secretsFile, history, noHistory});
    parser.addOptions(hooks.options());
    parser.process(app);

    Sonde::CoreHost host;
    // The window keeps the transcript (and exports it as HAR), with or without the history.
    host.setRecordHttpExchanges(true);
    // Before the window, so it outlives the window's use of it.
    std::unique_ptr<Sonde::SecretStore> secrets;
    // Before the window: the recorder takes every batch the engine sends, on its own thread,
    // and the History tab reads what it wrote through a connection of its own.
    Sonde::HistoryRecorder recorder;
    Sonde::StoreHistoryCatalog catalog;
    QString historyPath;
    QSettings settings;
    QString retentionProblem;
    const Sonde::HistoryRetention retention =
        Sonde::WorkspaceSettings::loadRetention(settings, &retentionProblem);
    if (!parser.isSet(noHistory)) {
        historyPath = parser.value(history);
        if (historyPath.isEmpty()) {
            const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
            QDir().mkpath(dir);
            historyPath = QDir(dir).filePath(QStringLiteral("history.sqlite"));
        }
        recorder.start(historyPath, QStringLiteral("window"), retention.policy());
        QObject::connect(&host, &Sonde::CoreHost::transcriptBatch, &recorder,
                         &Sonde::HistoryRecorder::record);
    }
    Sonde::MainWindow window(host);
    window.setRunPaths(settings.fileName(), historyPath);
    if (!historyPath.isEmpty()) {
        QString why;
        if (catalog.open(historyPath, &why))
            window.setHistoryCatalog(&catalog);
        else
            window.showNotice(QStringLiteral("History is not recorded: %1").arg(why));
        QObject::connect(
            &recorder, &Sonde::HistoryRecorder::failed, &window, [&window](const QString &reason) {
                window.showNotice(QStringLiteral("History is not recorded: %1").arg(reason));
            });
        // Once the recorder has opened the history, the window shows this run from it
        // (through a read connection of its own) and keeps only a tail in memory.
        auto transcriptReader = std::make_shared<Sonde::HistoryStore>();
        const auto showRecording = [&window, &recorder, transcriptReader, historyPath] {
            QString unopened; // the recorder reports its own failures
            if (recorder.runId() != 0 &&
                (transcriptReader->isOpen() || transcriptReader->open(historyPath, &unopened)))
                window.showRecording(&recorder, transcriptReader);
        };
        QObject::connect(&recorder, &Sonde::HistoryRecorder::opened, &window, showRecording);
        showRecording(); // it may have opened before the window was there to hear it
        // Each server's configured secrets are masked before they reach the disk, and its
        // "Record payloads in the history" switch holds, on add and on every edit.
        Sonde::RecordingWiring::connectServers(window.serverStore(), &recorder);
    }
    if (!retentionProblem.isEmpty())
        window.showNotice(retentionProblem);
    // File → History settings…: the retention is stored at once and applied by the recorder
    // at once; its Clear history is the History tab's (the same question, then a refresh).
    QObject::connect(
        window.actions()->action(Sonde::MainWindowActions::HistorySettings), &QAction::triggered,
        &window, [&] {
            auto *dialog = new Sonde::HistorySettingsDialog(
                Sonde::WorkspaceSettings::loadRetention(settings), !historyPath.isEmpty(), &window);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            Sonde::RecordingWiring::connectRetention(
                dialog, &settings, &recorder,
                [&window](const QString &notice) { window.showNotice(notice); });
            QObject::connect(dialog, &Sonde::HistorySettingsDialog::clearRequested, &window, [&] {
                window.tabs()->setCurrentWidget(window.historyPanel());
                window.historyPanel()->requestClear();
            });
            dialog->open();
        });
    window.setDemoServerProgram(
        QDir(QApplication::applicationDirPath()).filePath(QStringLiteral(SONDE_DEMO_SERVER_NAME)));
    // The workspace waits for the secret store (its secret headers are in it), and the store
    // for the keyring's probe (bounded: 3 s at most, at once without a session bus).
    bool loaded = false; // until then a save would write an empty workspace over the user's
    const auto afterLoad = [&] {
        loaded = true;
        if (parser.isSet(import))
            window.importConfigFile(parser.value(import), false);
        // With no configuration the built-in demo is there and connected, over stdio and over
        // HTTP, so a new user sees a real session (and its session faults) at once.
        if (window.serverStore()->size() == 0)
            window.addFirstRunDemos();
        // For desktops without a dark theme Qt can follow (View → Dark mode is remembered).
        if (parser.isSet(dark))
            window.setDarkMode(true);
        // Every change is on disk at once from now on: a crash loses nothing.
        if (!parser.isSet(fresh) && !hooks.screenshot(parser))
            window.autosaveTo(&settings);
        if (parser.isSet(tab))
            window.tabs()->setCurrentIndex(parser.value(tab).toInt());
    };
    QObject::connect(&window, &Sonde::MainWindow::workspaceLoaded, &window, afterLoad);
    Sonde::SecretStoreChooser::Options secretOptions;
    secretOptions.encryptedFile =
        parser.isSet(secretsFile)
            ? parser.value(secretsFile)
            : settings.value(QStringLiteral("secrets/encryptedFile")).toString();
    secretOptions.passphrase = qgetenv("SONDE_SECRETS_PASSPHRASE");
    Sonde::SecretStoreChooser chooser(secretOptions);
    const auto useStore = [&](const Sonde::SecretStoreChooser::Choice &choice,
                              std::unique_ptr<Sonde::SecretStore> store) {
        secrets = store ? std::move(store) : Sonde::SecretStoreChooser::create(choice);
        window.setSecretStore(secrets.get(), choice.reason);
        host.setSecretStoreFactory([choice] { return Sonde::SecretStoreChooser::create(choice); });
        if (parser.isSet(fresh))
            afterLoad();
        else
            window.loadWorkspace(settings);
    };
    QObject::connect(
        &chooser, &Sonde::SecretStoreChooser::chosen, &window,
        [&](const Sonde::SecretStoreChooser::Choice &choice) {
            if (choice.kind != Sonde::SecretStoreChooser::Choice::Kind::EncryptedFile ||
                !choice.passphrase.isEmpty()) {
                useStore(choice, nullptr);
                return;
            }
            // The file the settings name, and no passphrase in the environment: asked once.
            window.unlockSecretsFile(
                choice.encryptedFile,
                [&, choice](std::unique_ptr<Sonde::SecretStore> store, QByteArray passphrase) {
                    Sonde::SecretStoreChooser::Choice opened = choice;
                    if (store) {
                        opened.passphrase = passphrase;
                    } else {
                        opened.kind = Sonde::SecretStoreChooser::Choice::Kind::Memory;
                        opened.reason = QStringLiteral("The secrets file %1 was not opened")
                                            .arg(choice.encryptedFile);
                    }
                    useStore(opened, std::move(store));
                });
        });
    // Chosen in the server dialog: the next start opens it (and asks for its passphrase).
    QObject::connect(&window, &Sonde::MainWindow::secretsFileChosen, &window,
                     [&](const QString &path) {
                         if (parser.isSet(fresh))
                             return;
                         settings.setValue(QStringLiteral("secrets/encryptedFile"), path);
                         settings.sync();
                     });
    chooser.choose();
    window.show();

    hooks.start(parser, window, host, sinceMain);
    // Quitting is the window's: it closes the sessions first, with the event loop running,
    // within its bound, and says when the application may go.
    QApplication::setQuitOnLastWindowClosed(false);
    QObject::connect(&window, &Sonde::MainWindow::shutdownFinished, &app, &QApplication::quit,
                     Qt::QueuedConnection);
    // SIGTERM (a session manager, systemd, kill) and Ctrl-C in the terminal quit the same way.
    int stoppedBy = 0;
    QObject::connect(&watcher, &Sonde::SignalWatcher::received, &window, [&](int signo) {
        stoppedBy = signo;
        window.close();
    });
    QObject::connect(&app, &QApplication::aboutToQuit, &window, [&] {
        if (loaded && !parser.isSet(fresh) && !hooks.screenshot(parser) &&
            !hooks.exitWhenReady(parser))
            window.saveWorkspace(settings);
        host.shutdown(); // for a quit that did not come through the window: nothing waits
    });
    const int code = app.exec();
    return stoppedBy ? Sonde::SignalWatcher::exitCodeFor(stoppedBy) : code;
}
