// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

#include <memory>

namespace Sonde {

class CliCommand;

// The one way sonde-cli runs: the command its arguments ask for, started, its exit status the
// first code it finishes with, SIGINT and SIGTERM handed to it. main() is these two calls, so
// no command has a path of its own to stdout, the exit status or Ctrl-C. Thread: the main
// thread, with a QCoreApplication.
class CliDispatcher
{
public:
    // `args`: argv without the program. `history ...` and `run ...` are commands of their own;
    // anything else is read as CliOptions, a session command or the answer to --help,
    // --version or arguments refused (a UsageCommand).
    static std::unique_ptr<CliCommand> commandFor(const QStringList &args);
    // Starts `command` and runs the event loop until it finishes; returns its exit status. A
    // command that finishes inside start() returns without running the loop. A signal goes
    // to its interrupt(), and to abandon() once its stopBoundMs() has passed.
    static int exec(CliCommand &command);
};

} // namespace Sonde
