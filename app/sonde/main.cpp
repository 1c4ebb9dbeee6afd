// SPDX-License-Identifier: MIT
// sonde: the desktop inspector. Parses the command line and starts the window application
// (WindowApplication); the developer hooks are DevHooks'.
#include "application/apps/appsnapshotoptions.h"
#include "apps/appsnapshot.h"
#include "devhooks.h"
#include "util/commandline.h"
#include "util/memorypolicy.h"
#include "util/version.h"
#include "window/windowapplication.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>

#include <cstdio>

namespace {

// `sonde app-snapshot`: an MCP App rendered without a display (the offscreen platform unless
// one is asked for), its PNG written and its JSON line printed (docs/apps.md).
int appSnapshot(int argc, char **argv)
{
    QStringList args;
    for (int i = 2; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        std::printf("%s", qPrintable(Sonde::AppSnapshotOptions::usage()));
        return 0;
    }
    QString error;
    const std::optional<Sonde::AppSnapshotOptions> options =
        Sonde::AppSnapshotOptions::parse(args, &error);
    if (!options) {
        std::fprintf(stderr, "sonde app-snapshot: %s\n", qPrintable(error));
        return 2;
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    Sonde::WindowApplication::describeApplication();
    Sonde::AppSnapshot run(*options);
    QObject::connect(&run, &Sonde::AppSnapshot::finished, &app, &QCoreApplication::exit);
    run.start();
    return app.exec();
}

} // namespace

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
    Sonde::MemoryPolicy::returnLargeBlocksWhenFreed(); // a closed 20 MiB answer goes back
    // QtWebEngine (loaded with the first MCP App) shares OpenGL contexts with the window; Qt
    // asks for this before the application exists.
    QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    if (argc > 1 && qstrcmp(argv[1], "app-snapshot") == 0)
        return appSnapshot(argc, argv);
    QApplication app(argc, argv);
    Sonde::WindowApplication::describeApplication();

    // The same reader as sonde-cli's and the demo server's; Qt's own options (-platform,
    // -geometry, -style) are taken by QApplication before it.
    Sonde::CommandLine line;
    line.addHelpOption({QStringLiteral("--help"), QStringLiteral("-h")});
    line.addVersionOption();
    Sonde::WindowOptions options;
    line.addValueOption(QStringLiteral("--tab"), [&](const QString &value) {
        bool ok = false;
        options.tab = value.toInt(&ok);
        return ok && options.tab >= 0 && options.tab <= 10
                   ? QString()
                   : QStringLiteral("--tab wants an index from 0 to 10");
    });
    line.document(QStringLiteral("--tab"),
                  QStringLiteral("Open on this tab (0-10, Session to Doctor)."),
                  QStringLiteral("index"));
    line.addValueOption(QStringLiteral("--server"), [&](const QString &name) {
        options.server = name;
        return QString();
    });
    line.document(QStringLiteral("--server"),
                  QStringLiteral("Open with this server of the workspace selected."),
                  QStringLiteral("name"));
    line.addFlag(QStringLiteral("--no-saved-workspace"), [&] { options.fresh = true; });
    line.document(QStringLiteral("--no-saved-workspace"),
                  QStringLiteral("Ignore (and do not overwrite) the saved workspace."));
    line.addValueOption(QStringLiteral("--import"), [&](const QString &file) {
        options.importFile = file;
        return QString();
    });
    line.document(QStringLiteral("--import"),
                  QStringLiteral("Import servers from an MCP JSON file."), QStringLiteral("file"));
    line.addFlag(QStringLiteral("--dark"), [&] { options.dark = true; });
    line.document(
        QStringLiteral("--dark"),
        QStringLiteral("Use a dark Fusion palette (the system palette is used otherwise)."));
    line.addValueOption(QStringLiteral("--secrets-file"), [&](const QString &file) {
        options.secretsFile = file;
        return QString();
    });
    line.document(
        QStringLiteral("--secrets-file"),
        QStringLiteral("Keep secrets (tokens, secret headers) in this encrypted file, with the "
                       "passphrase from SONDE_SECRETS_PASSPHRASE, instead of the system keyring "
                       "(also the setting secrets/encryptedFile)."),
        QStringLiteral("file"));
    line.addValueOption(QStringLiteral("--history"), [&](const QString &file) {
        options.historyFile = file;
        return QString();
    });
    line.document(
        QStringLiteral("--history"),
        QStringLiteral("Record every session into this SQLite history (default: history.sqlite "
                       "in the application's data folder)."),
        QStringLiteral("file"));
    line.addFlag(QStringLiteral("--no-history"), [&] { options.noHistory = true; });
    line.document(QStringLiteral("--no-history"), QStringLiteral("Record nothing for this run."));
    Sonde::DevHooks::addOptions(line);
    switch (line.parse(QApplication::arguments().mid(1))) {
    case Sonde::CommandLine::Outcome::Help:
        std::fputs(qPrintable(line.helpText(QStringLiteral("sonde [options]"),
                                            QStringLiteral("Sonde, an inspector for MCP servers"))),
                   stdout);
        return 0;
    case Sonde::CommandLine::Outcome::Version:
        std::printf("Sonde %s\n", SONDE_VERSION);
        return 0;
    case Sonde::CommandLine::Outcome::Refused:
        std::fprintf(stderr, "sonde: %s (sonde --help lists the options)\n",
                     qPrintable(line.errorText()));
        return 2;
    case Sonde::CommandLine::Outcome::Parsed:
        break;
    }
    options.throwaway = Sonde::DevHooks::endsTheRun(line);
    options.demoServerProgram =
        QDir(QApplication::applicationDirPath()).filePath(QStringLiteral(SONDE_DEMO_SERVER_NAME));
    Sonde::WindowApplication sonde(options);
    sonde.start();
    Sonde::DevHooks::start(line, sonde.window(), sonde.host(), sinceMain);
    return sonde.exitCode(app.exec());
}
