// SPDX-License-Identifier: MIT
// sonde-cli: the headless front end on the same core as the GUI, for scripts and CI.
#include "clirunner.h"
#include "collectioncommand.h"
#include "historycommand.h"
#include "util/commandline.h"
#include "util/signalwatcher.h"
#include "util/version.h"

#include <QCoreApplication>

#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

static QtMessageHandler s_defaultHandler = nullptr;

// --quiet promises nothing but the answer: Qt's own warnings (a QIODevice read on a closed
// process channel, a socket notifier) are not the user's business there. Critical and fatal
// messages still go through, and so do Sonde's categories a developer switched on with
// QT_LOGGING_RULES.
static void quietMessageHandler(QtMsgType type, const QMessageLogContext &context,
                                const QString &message)
{
    const bool ours = context.category && qstrncmp(context.category, "sonde.", 6) == 0;
    if (!(ours || type == QtCriticalMsg || type == QtFatalMsg))
        return;
    if (s_defaultHandler)
        s_defaultHandler(type, context, message);
    else
        std::fprintf(stderr, "%s\n", qPrintable(qFormatLogMessage(type, context, message)));
}

int main(int argc, char **argv)
{
    // Started with stdin closed (`<&-`), the first descriptor Qt opens would become fd 0 and
    // `exec -` would read Qt's own event pipe: give fd 0 an empty input first.
    if (::fcntl(0, F_GETFD) < 0 && errno == EBADF)
        ::open("/dev/null", O_RDONLY);
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"sonde-cli"_s);
    QCoreApplication::setApplicationVersion(QStringLiteral(SONDE_VERSION));

    // The recorded history needs no server: its own small command line.
    if (const QStringList args = app.arguments().mid(1);
        !args.isEmpty() && args.first() == "history"_L1)
        return Sonde::HistoryCommand::run(args.mid(1));

    // run: the server comes from the collection, not from the connection options.
    if (app.arguments().value(1) == "run"_L1)
        return Sonde::CollectionCommand::main(app.arguments().mid(2));
    Sonde::CliOptions options;
    QString error;
    if (!Sonde::CliOptions::parse(app.arguments().mid(1), &options, &error)) {
        if (options.version) {
            std::printf("%s\n", qPrintable(Sonde::CommandLine::versionText()));
            return 0;
        }
        if (error.isEmpty()) {
            std::fputs(qPrintable(Sonde::CliOptions::usage()), stdout);
            return 0;
        }
        // One line, as scripts read it; the whole usage is one --help away.
        std::fprintf(stderr, "sonde-cli: %s (sonde-cli --help shows the usage)\n",
                     qPrintable(error));
        return 2;
    }
    if (options.quiet)
        s_defaultHandler = qInstallMessageHandler(quietMessageHandler);
    Sonde::CliRunner runner(options);
    QObject::connect(&runner, &Sonde::CliRunner::finished, &app,
                     [](int code) { QCoreApplication::exit(code); });
    // Ctrl-C or a service manager's SIGTERM closes the session as an ending would (cancel,
    // DELETE, stdin, SIGTERM, SIGKILL) instead of leaving it open on the server.
    Sonde::SignalWatcher watcher;
    QObject::connect(&watcher, &Sonde::SignalWatcher::received, &runner,
                     &Sonde::CliRunner::interrupt);
    runner.start();
    return app.exec();
}
