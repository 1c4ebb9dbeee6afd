// SPDX-License-Identifier: MIT
#pragma once

#include <QCommandLineOption>
#include <QList>

class QCommandLineParser;
class QElapsedTimer;

namespace Sonde {

class CoreHost;
class MainWindow;

// The window's developer hooks, apart from what a user runs: --exercise (a scripted session,
// for screenshots), --screenshot FILE [--screenshot-delay MS] (save the window, then quit)
// and --exit-when-ready (the launch benchmark's line). Each is a timer or a poll on the
// window's event loop; none changes what the window does for a user.
class DevHooks
{
public:
    DevHooks();
    QList<QCommandLineOption> options() const;
    // Whether a hook ends the run by itself (its workspace is neither loaded for keeps nor
    // saved).
    bool screenshot(const QCommandLineParser &parser) const;
    bool exitWhenReady(const QCommandLineParser &parser) const;
    // Starts the hooks the command line asked for. `sinceMain` started in main().
    void start(const QCommandLineParser &parser, MainWindow &window, CoreHost &host,
               const QElapsedTimer &sinceMain) const;

private:
    QCommandLineOption m_screenshot;
    QCommandLineOption m_delay;
    QCommandLineOption m_exercise;
    QCommandLineOption m_exitWhenReady;
};

} // namespace Sonde
