// SPDX-License-Identifier: MIT
#pragma once

#include "historyfilter.h"
#include "transcript/transcriptevent.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>

class QThread;

namespace Sonde {

class HistoryStore;

// One filter of the live Transcript tab to count: the history file, the query, and whether the
// view follows the newest rows (then the last screen is read, not the first).
struct TranscriptFilterRequest
{
    quint64 ticket = 0;
    QString path;
    HistoryFilter filter;
    bool tail = false;
    // The newest ticket asked (the query's, shared): a count of an older one stops early.
    std::shared_ptr<const std::atomic<quint64>> latest;
    bool superseded() const { return latest && ticket < latest->load(); }
};

// What a TranscriptHistorySource and its TranscriptModel need to show a filter's first
// screen without reading, and any other page with a seek: the count, the newest id (where
// following goes on from), the first id of every page (HistoryStore::pagedTally), and the rows
// from `firstRow` (a multiple of TranscriptPageSource::PageSize) with their ids.
struct TranscriptFilterAnswer
{
    quint64 ticket = 0;
    HistoryFilter filter;
    qint64 count = 0, lastId = 0, newestId = 0, firstRow = 0; // HistoryStore::Tally's
    QList<qint64> pageStarts; // of page 0, 1, ...: 8 bytes per 256 rows
    TranscriptBatch events;
    QList<qint64> ids; // of the events
    QString error;     // the store did not open; the rest is empty
};

// Computes an answer on the query's thread, over a store of its own (a HistoryStore is used
// on the thread that opened it). Internal to TranscriptFilterQuery; declared here for moc.
class TranscriptFilterWorker : public QObject
{
    Q_OBJECT
public:
    using Compute = std::function<TranscriptFilterAnswer(const HistoryStore &,
                                                         const TranscriptFilterRequest &)>;
    TranscriptFilterWorker(Compute compute, std::shared_ptr<const std::atomic<quint64>> latest);
    ~TranscriptFilterWorker() override;

    void compute(const Sonde::TranscriptFilterRequest &request);
    // Closes the connection to `path` if it is the one held.
    void release(const QString &path);

Q_SIGNALS:
    void answered(const Sonde::TranscriptFilterAnswer &answer);

private:
    Compute m_compute;
    std::shared_ptr<const std::atomic<quint64>> m_latest;
    std::unique_ptr<HistoryStore> m_store;
};

// Counts the Transcript tab's filters off the GUI thread: typing into a filter box over a
// million recorded events costs the window a queued call, not the count (about a second).
// Each ask gets a ticket; only the newest ticket's answer is emitted, so a slow count of an
// older filter never replaces a newer one, requests queued behind a newer one are skipped
// before they run, and a count under way when a newer one is asked stops early. askSoon() waits
// typingDelay() for the next keystroke first. Thread: GUI; it owns a thread with a read connection
// of its own to the history (WAL: it blocks neither the recorder's writer nor the GUI's reader).
// Emits answered() once per current filter.
class TranscriptFilterQuery : public QObject
{
    Q_OBJECT
public:
    using Compute = TranscriptFilterWorker::Compute;
    static constexpr int DefaultTypingDelayMs = 150;

    explicit TranscriptFilterQuery(QObject *parent = nullptr);
    // `compute` runs on the query's thread instead of compute() (tests hold it there).
    explicit TranscriptFilterQuery(Compute compute, QObject *parent = nullptr);
    ~TranscriptFilterQuery() override; // waits for a count under way

    // Counts `filter` now; any earlier ask's answer is dropped.
    void ask(const QString &path, const HistoryFilter &filter, bool tail);
    // The same after typingDelay() without a newer ask (a keystroke restarts the wait).
    void askSoon(const QString &path, const HistoryFilter &filter, bool tail);
    void setTypingDelay(int ms) { m_delay.setInterval(ms); }
    int typingDelay() const { return m_delay.interval(); }
    // Lets go of the history file at `path` before it is deleted (a closed offline file):
    // what is queued is skipped, a count under way stops at its next check (a few ms: see
    // HistoryStore::pagedTally) and is waited for, then the query's thread closes its
    // connection, so no file of SQLite's is left in (or made again in) a folder being
    // removed. An ask of another file that was waiting is sent again.
    void release(const QString &path);
    // Asked and not answered yet.
    bool isPending() const { return m_pending; }
    // An askSoon() waits for the typing delay to end.
    bool isWaitingForTyping() const { return m_delay.isActive(); }
    quint64 ticket() const { return m_ticket; }

    // The count, the newest id, where each page starts and the first screen's pages (the last
    // two when `tail`). A request superseded meanwhile stops early, with the error "stopped".
    static TranscriptFilterAnswer compute(const HistoryStore &store,
                                          const TranscriptFilterRequest &request);

Q_SIGNALS:
    void pendingChanged(bool pending);
    void answered(const Sonde::TranscriptFilterAnswer &answer);

private:
    void send();
    void setPending(bool pending);
    void onAnswered(const TranscriptFilterAnswer &answer);

    QThread *m_thread = nullptr;
    TranscriptFilterWorker *m_worker = nullptr;
    std::shared_ptr<std::atomic<quint64>> m_latest = std::make_shared<std::atomic<quint64>>(0);
    QTimer m_delay;
    TranscriptFilterRequest m_next; // what the delay sends
    quint64 m_ticket = 0;
    bool m_pending = false;
};

} // namespace Sonde

Q_DECLARE_METATYPE(Sonde::TranscriptFilterRequest)
Q_DECLARE_METATYPE(Sonde::TranscriptFilterAnswer)
