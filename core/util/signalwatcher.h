// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

class QSocketNotifier;

namespace Sonde {

// Turns SIGINT and SIGTERM into a Qt signal, so a front end can shut its sessions down
// (cancel, DELETE, close stdin, SIGTERM, SIGKILL) instead of dying with them open. The
// handler only writes the signal number to a pipe (async-signal-safe); a QSocketNotifier on
// the other end emits received() on the thread that created the watcher. A second signal
// while the first is being handled ends the process at once with 128 + its number, for a
// user who does not want to wait. One per process; it restores the default handlers when
// destroyed. Thread: the front end's main thread.
class SignalWatcher : public QObject
{
    Q_OBJECT
public:
    explicit SignalWatcher(QObject *parent = nullptr);
    ~SignalWatcher() override;

    // The conventional exit status after being stopped by `signo` (130 for SIGINT, 143 for
    // SIGTERM).
    static int exitCodeFor(int signo) { return 128 + signo; }

Q_SIGNALS:
    void received(int signo);

private:
    void onReadable();

    QSocketNotifier *m_notifier = nullptr;
};

} // namespace Sonde
