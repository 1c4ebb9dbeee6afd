// SPDX-License-Identifier: MIT
#pragma once

class QElapsedTimer;

namespace Sonde {

class CommandLine;
class CoreHost;
class MainWindow;

// The window's developer hooks, apart from what a user runs: --exercise (a scripted session,
// for screenshots), --exercise-doctor (a live doctor finding and a Run, for the Doctor tab's),
// --screenshot FILE [--screenshot-delay MS] (save the window, then quit) and --exit-when-ready (the
// launch benchmark's line). Each is a timer or a poll on the window's event loop; none changes what
// the window does for a user.
class DevHooks
{
public:
    // Adds the hooks' options (and their help lines) to the window's command line.
    static void addOptions(CommandLine &line);
    // Whether a hook ends the run by itself (its workspace is neither autosaved nor saved).
    static bool endsTheRun(const CommandLine &line);
    // Starts the hooks the command line asked for. `sinceMain` started in main().
    static void start(const CommandLine &line, MainWindow &window, CoreHost &host,
                      const QElapsedTimer &sinceMain);
};

} // namespace Sonde
