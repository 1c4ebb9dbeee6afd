// SPDX-License-Identifier: MIT
#pragma once

#include "clicommand.h"

#include <QStringList>

#include <atomic>
#include <memory>

class QThread;

namespace Sonde {

// `sonde-cli history import|search|sessions|export`: the recorded history without a server.
// Output goes to stdout (JSON), complaints to stderr; exit 0, 1 (the store refused), 2 (usage).
// The work is synchronous, on a thread of its own, so that a signal reaches interrupt() while
// it runs: an import or an export stops at its next batch, keeping what the history already
// holds. Thread: the main thread; run() on the worker.
class HistoryCommand : public CliCommand
{
    Q_OBJECT
public:
    // How long an interrupted command may take to reach its next batch before the process
    // leaves anyway. Leaving in the middle of a write costs nothing: each batch is a SQLite
    // transaction, rolled back at the next open, as when the signal's default action ended
    // the process.
    static constexpr int StopBoundMs = 1000;

    // `args`: what follows "history".
    explicit HistoryCommand(QStringList args, QObject *parent = nullptr);
    ~HistoryCommand() override;
    void start() override;
    void interrupt(int signo) override;
    int stopBoundMs() const override { return StopBoundMs; }
    // The work has not reached its next batch: the process leaves at once, the worker in it.
    void abandon(int signo) override;

    // The subcommand, on the calling thread, to its end. `stop` is read between batches.
    static int run(const QStringList &args, const std::atomic<bool> &stop);

private:
    void onWorkDone();

    QStringList m_args;
    std::unique_ptr<QThread> m_worker;
    std::atomic<bool> m_stop = false;
    std::atomic<int> m_code = 0; // run()'s, written on the worker
    int m_signal = 0;
};

} // namespace Sonde
