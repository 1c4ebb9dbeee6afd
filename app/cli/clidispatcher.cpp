// SPDX-License-Identifier: MIT
#include "clidispatcher.h"

#include "collectioncommand.h"
#include "doctorcommand.h"
#include "historycommand.h"
#include "proxycommand.h"
#include "proxycontrolcommand.h"
#include "proxywrapcommand.h"
#include "sessioncommand.h"
#include "usagecommand.h"
#include "util/commandline.h"
#include "util/signalwatcher.h"

#include <QCoreApplication>
#include <QTimer>

#include <optional>

using namespace Qt::StringLiterals;

namespace Sonde {

std::unique_ptr<CliCommand> CliDispatcher::commandFor(const QStringList &args)
{
    // The recorded history needs no server: its own small command line.
    if (args.value(0) == "history"_L1)
        return std::make_unique<HistoryCommand>(args.mid(1));
    // proxy: the server is the command after --, started for a client that runs Sonde.
    if (args.value(0) == "proxy"_L1) {
        QString error;
        if (ProxyWrapCommand::handles(args.mid(1))) {
            if (std::unique_ptr<ProxyWrapCommand> wrap =
                    ProxyWrapCommand::parse(args.mid(1), &error))
                return wrap;
            return std::make_unique<UsageCommand>(UsageCommand::Kind::Refused, error);
        }
        if (std::unique_ptr<ProxyCommand> proxy = ProxyCommand::parse(args.mid(1), &error))
            return proxy;
        return std::make_unique<UsageCommand>(UsageCommand::Kind::Refused, error);
    }
    if (args.value(0) == "proxy-control"_L1) {
        if (args.size() != 2 || args.at(1).startsWith(u'-'))
            return std::make_unique<UsageCommand>(
                UsageCommand::Kind::Refused,
                u"proxy-control: one argument, the proxy's control socket (SOCK)"_s);
        return std::make_unique<ProxyControlCommand>(args.at(1));
    }
    // run: the server comes from the collection, not from the connection options.
    if (args.value(0) == "run"_L1) {
        CollectionCommand::Options options;
        QString error;
        if (!CollectionCommand::parse(args.mid(1), &options, &error))
            return std::make_unique<UsageCommand>(UsageCommand::Kind::Refused, error);
        return std::make_unique<CollectionCommand>(std::move(options));
    }
    CliOptions options;
    QString error;
    if (CliOptions::parse(args, &options, &error)) {
        if (options.command.value(0) == "doctor"_L1)
            return std::make_unique<DoctorCommand>(std::move(options));
        return std::make_unique<SessionCommand>(std::move(options));
    }
    if (options.version)
        return std::make_unique<UsageCommand>(UsageCommand::Kind::Version,
                                              CommandLine::versionText() + u'\n');
    if (error.isEmpty())
        return std::make_unique<UsageCommand>(UsageCommand::Kind::Help, CliOptions::usage());
    return std::make_unique<UsageCommand>(UsageCommand::Kind::Refused, error);
}

int CliDispatcher::exec(CliCommand &command)
{
    // Only the first code counts: a signal's, say, when the command also ends on that turn.
    std::optional<int> code;
    bool looping = false;
    QObject scope; // ends the connections with this call
    QObject::connect(&command, &CliCommand::finished, &scope, [&code, &looping](int exitCode) {
        if (code)
            return;
        code = exitCode;
        if (looping)
            QCoreApplication::exit(exitCode);
    });
    // Ctrl-C or a service manager's SIGTERM goes to the command, which ends what it runs as an
    // ending would (a session closed, a history batch finished) instead of leaving it half
    // done; one that takes longer than it said is abandoned, so a signal always ends the run.
    SignalWatcher watcher;
    QObject::connect(&watcher, &SignalWatcher::received, &scope, [&](int signo) {
        command.interrupt(signo);
        if (!code && command.stopBoundMs() > 0)
            QTimer::singleShot(command.stopBoundMs(), &scope, [&, signo] {
                if (!code)
                    command.abandon(signo);
            });
    });
    command.start();
    if (code) // finished inside start(): QCoreApplication::exit() before exec() is lost
        return *code;
    looping = true;
    return QCoreApplication::exec();
}

} // namespace Sonde
