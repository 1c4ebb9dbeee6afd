// SPDX-License-Identifier: MIT
// sonde: the desktop inspector. Parses the command line and starts the window application
// (WindowApplication); the developer hooks are DevHooks'.
#include "devhooks.h"
#include "util/version.h"
#include "window/windowapplication.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>

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
    Sonde::WindowApplication::describeApplication();

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

    Sonde::WindowOptions options;
    options.tab = parser.isSet(tab) ? parser.value(tab).toInt() : -1;
    options.fresh = parser.isSet(fresh);
    options.importFile = parser.value(import);
    options.dark = parser.isSet(dark);
    options.secretsFile = parser.value(secretsFile);
    options.historyFile = parser.value(history);
    options.noHistory = parser.isSet(noHistory);
    options.throwaway = hooks.screenshot(parser) || hooks.exitWhenReady(parser);
    options.demoServerProgram =
        QDir(QApplication::applicationDirPath()).filePath(QStringLiteral(SONDE_DEMO_SERVER_NAME));
    Sonde::WindowApplication sonde(options);
    sonde.start();
    hooks.start(parser, sonde.window(), sonde.host(), sinceMain);
    return sonde.exitCode(app.exec());
}
