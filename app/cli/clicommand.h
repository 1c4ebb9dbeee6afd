// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QString>

namespace Sonde {

// One top-level command of sonde-cli, as CliDispatcher runs every one of them: the session
// commands (SessionCommand), `run` (CollectionCommand), `history` (HistoryCommand) and the
// answer to --help, --version or a refused command line (UsageCommand). Started once; told
// of SIGINT and SIGTERM through interrupt() (then abandon(), if it has not finished within
// its stopBoundMs()); the process's exit status is the first code
// finished() carries (docs/cli.md: 0, 1, 2, or 128 + the signal). Thread: the main thread.
// Owned by main, beside the dispatcher that runs it.
class CliCommand : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    // Begins the command. finished() may come before start() returns.
    virtual void start() = 0;
    // SIGINT or SIGTERM: begin to end as soon as this command safely can, with 128 + signo.
    // A second signal never comes here: SignalWatcher leaves at once.
    virtual void interrupt(int signo) = 0;
    // How long the command may take to finish after interrupt() before CliDispatcher gives
    // up on it; 0 for a command that finishes inside interrupt().
    virtual int stopBoundMs() const { return 0; }
    // The bound passed without finished(): finish now, keeping what can still be kept.
    virtual void abandon(int signo);

    // How sonde-cli names a signal in what it says ("SIGINT: closing the session").
    static QString signalName(int signo);

Q_SIGNALS:
    void finished(int exitCode);
};

} // namespace Sonde
