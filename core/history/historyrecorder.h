// SPDX-License-Identifier: MIT
#pragma once

#include "historyfilter.h"
#include "transcript/transcriptevent.h"

#include <QObject>
#include <QString>

class QThread;

namespace Sonde {

struct ServerConfig;
class HistoryStore;

// Records the engine's transcript batches into a HistoryStore on a thread of its own, so no
// write ever runs on the GUI or the engine thread: batches arrive as values through queued
// calls, and each becomes one transaction. Owned by the front end (window or CLI), on its
// thread; the store lives and dies on the writer thread.
class HistoryRecorder : public QObject
{
    Q_OBJECT
public:
    explicit HistoryRecorder(QObject *parent = nullptr);
    ~HistoryRecorder() override;

    // The window's history file (docs/history.md), the same whichever front end asks:
    // history.sqlite in the data folder of the organization and application "Sonde"
    // (~/.local/share/Sonde/Sonde/ on Linux). The folder is made when missing.
    static QString defaultPath();

    // Opens `path` on the writer thread; opened() or failed() tells how it went.
    void start(const QString &path, const QString &source, const RetentionPolicy &retention = {});
    void addSecrets(const ServerConfig &config);
    // The writer's SQLite page cache (HistoryStore::setPageCacheKiB), from the next batch.
    void setPageCacheKiB(int kib);
    void setPayloadsRecorded(const QString &server, bool recorded);
    // A new retention, applied at once and then as before (after every 10,000 events).
    void setRetention(const RetentionPolicy &retention);
    void record(const TranscriptBatch &batch);
    // flushed() follows once every batch recorded before this call is committed (or failed):
    // a reader that must see what the window already holds (an export) waits for it.
    void flush();
    // Everything queued so far is written, then the thread ends (call before quitting).
    void stop();
    qint64 eventsRecorded() const;
    // The run it records into, once opened() came (0 before, or when it failed): a view of
    // this run's events filters on it (HistoryFilter::runId).
    qint64 runId() const;
    // The first write that failed, in words (empty if none): for a front end that ends
    // before the failed() signal reaches it.
    QString firstError() const;

Q_SIGNALS:
    void opened(const QString &path);
    void failed(const QString &message);
    // After each batch's transaction: the total events written by this recorder.
    void recorded(qint64 total);
    // After flush(): the total events written by this recorder then.
    void flushed(qint64 total);

private:
    class Writer;
    QThread *m_thread = nullptr;
    Writer *m_writer = nullptr;
    QString m_stoppedError;
    qint64 m_stoppedCount = 0;
};

} // namespace Sonde
