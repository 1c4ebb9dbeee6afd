// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

#include <memory>

namespace Sonde {

class BuiltInDemos;
class Clock;
class ClockTimer;
class CoreHost;

// Quitting, in order and bounded, with the event loop running: the core closes every
// session (cancel, DELETE, stdin, SIGTERM) within BoundMs; then the built-in demo's process
// goes (its session got its DELETE first) within its own grace; then finished(), once.
// A server killed with its session open would keep the session (HTTP) or never hear that
// what it was doing is cancelled. No Widgets. Thread: GUI.
class ShutdownSequence : public QObject
{
    Q_OBJECT
public:
    // The core's own steps fit in it: an HTTP DELETE is given 2 s, a stdio server 500 ms
    // after its stdin closes and 1 s after SIGTERM; what is still open then is killed.
    static constexpr int BoundMs = 3000;

    // `demos` may be null (no built-in demo to stop). `clock` times the bounds (not owned;
    // it outlives this); null: a steady clock of its own.
    ShutdownSequence(CoreHost &host, BuiltInDemos *demos, QObject *parent = nullptr,
                     const Clock *clock = nullptr);
    ~ShutdownSequence() override;
    // Starts it; a second call changes nothing.
    void start();
    bool isStarted() const { return m_started; }
    bool isFinished() const { return m_finished; }

Q_SIGNALS:
    void finished();

private:
    void sessionsClosed();
    void finish();

    CoreHost &m_host;
    BuiltInDemos *m_demos = nullptr;
    std::unique_ptr<Clock> m_ownClock;
    ClockTimer *m_bound = nullptr; // the sessions' bound, then the demo's grace
    bool m_started = false;
    bool m_sessionsClosed = false;
    bool m_finished = false;
};

} // namespace Sonde
