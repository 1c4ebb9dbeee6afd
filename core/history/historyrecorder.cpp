// SPDX-License-Identifier: MIT
#include "historyrecorder.h"

#include "config/serverconfig.h"
#include "historystore.h"

#include <QDateTime>
#include <QDir>
#include <QMutex>
#include <QStandardPaths>
#include <QThread>

#include <atomic>
#include <memory>

using namespace Qt::StringLiterals;

namespace Sonde {

// Lives on the writer thread; only queued calls reach it.
class HistoryRecorder::Writer : public QObject
{
public:
    std::unique_ptr<HistoryStore> store;
    RetentionPolicy retention;
    std::atomic<qint64> written{0};
    std::atomic<qint64> run{0};
    qint64 sinceRetention = 0;
    bool failed = false;
    mutable QMutex errorLock;
    QString firstError;
    void noteError(const QString &e)
    {
        QMutexLocker lock(&errorLock);
        if (firstError.isEmpty())
            firstError = e;
    }
};

HistoryRecorder::HistoryRecorder(QObject *parent) : QObject(parent)
{
    m_thread = new QThread(this);
    m_thread->setObjectName(u"sonde-history"_s);
    m_writer = new Writer;
    m_writer->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_writer, &QObject::deleteLater);
    m_thread->start();
}

QString HistoryRecorder::defaultPath()
{
    // Not AppDataLocation: that is the asking program's own (sonde-cli has another name).
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
                        QStringLiteral("/Sonde/Sonde");
    QDir().mkpath(dir);
    return QDir(dir).filePath(QStringLiteral("history.sqlite"));
}

HistoryRecorder::~HistoryRecorder()
{
    stop();
}

void HistoryRecorder::start(const QString &path, const QString &source,
                            const RetentionPolicy &retention)
{
    Writer *w = m_writer;
    QMetaObject::invokeMethod(w, [this, w, path, source, retention] {
        w->store = std::make_unique<HistoryStore>();
        w->retention = retention;
        QString error;
        if (!w->store->open(path, &error, source)) {
            w->failed = true;
            w->store.reset();
            w->noteError(error);
            Q_EMIT failed(error);
            return;
        }
        if (retention.maxAgeMs || retention.maxBytes)
            w->store->applyRetention(retention, QDateTime::currentMSecsSinceEpoch(), &error);
        w->run = w->store->runId();
        Q_EMIT opened(path);
    });
}

void HistoryRecorder::setPageCacheKiB(int kib)
{
    Writer *w = m_writer;
    QMetaObject::invokeMethod(w, [w, kib] {
        if (w->store)
            w->store->setPageCacheKiB(kib);
    });
}

void HistoryRecorder::addSecrets(const ServerConfig &config)
{
    Writer *w = m_writer;
    QMetaObject::invokeMethod(w, [w, config] {
        if (w->store)
            w->store->addSecrets(config);
    });
}

void HistoryRecorder::setPayloadsRecorded(const QString &server, bool recorded)
{
    Writer *w = m_writer;
    QMetaObject::invokeMethod(w, [w, server, recorded] {
        if (w->store)
            w->store->setPayloadsRecorded(server, recorded);
    });
}

void HistoryRecorder::setRetention(const RetentionPolicy &retention)
{
    Writer *w = m_writer;
    QMetaObject::invokeMethod(w, [w, retention] {
        w->retention = retention;
        w->sinceRetention = 0;
        QString error;
        if (w->store && (retention.maxAgeMs || retention.maxBytes))
            w->store->applyRetention(retention, QDateTime::currentMSecsSinceEpoch(), &error);
    });
}

void HistoryRecorder::record(const TranscriptBatch &batch)
{
    if (batch.isEmpty() || !m_thread->isRunning())
        return;
    Writer *w = m_writer;
    QMetaObject::invokeMethod(w, [this, w, batch] {
        if (!w->store)
            return;
        QString error;
        if (!w->store->append(batch, &error)) {
            // One failure is said once; the batches after it are tried again (a full disk
            // may clear), each failing alone.
            if (!w->failed) {
                w->noteError(error);
                Q_EMIT failed(error);
            }
            w->failed = true;
            return;
        }
        w->failed = false;
        w->written += batch.size();
        w->sinceRetention += batch.size();
        // Retention is a delete over an index: cheap, but not per batch.
        if ((w->retention.maxAgeMs || w->retention.maxBytes) && w->sinceRetention >= 10'000) {
            w->sinceRetention = 0;
            w->store->applyRetention(w->retention, QDateTime::currentMSecsSinceEpoch(), &error);
        }
        Q_EMIT recorded(w->written);
    });
}

void HistoryRecorder::flush()
{
    if (!m_thread->isRunning()) {
        // Stopped: everything was written then; still said later, as a caller expects.
        QMetaObject::invokeMethod(
            this, [this] { Q_EMIT flushed(m_stoppedCount); }, Qt::QueuedConnection);
        return;
    }
    Writer *w = m_writer;
    // Behind every batch queued before it on the writer's queue.
    QMetaObject::invokeMethod(w, [this, w] { Q_EMIT flushed(w->written); });
}

void HistoryRecorder::stop()
{
    if (!m_thread->isRunning())
        return;
    Writer *w = m_writer;
    // The store closes on its own thread, after every batch queued before this.
    // Quit from inside, after every batch queued before this: QThread::quit() from here would
    // end the loop with queued batches still in it (and lose them).
    // What the writer ends with is kept here, on its thread, before it quits: once the thread
    // finishes, the writer is deleted (finished -> deleteLater runs as the thread ends, before
    // wait() returns), so reading it after wait() read freed memory, and now and then a
    // "first error" that was never one. wait() orders these writes before the reads below.
    QMetaObject::invokeMethod(w, [this, w] {
        w->store.reset();
        m_stoppedError = w->firstError;
        m_stoppedCount = w->written;
        QThread::currentThread()->quit();
    });
    m_thread->wait(); // the queued writes are the last of the history: they must land
}

QString HistoryRecorder::firstError() const
{
    if (!m_writer || !m_thread->isRunning())
        return m_stoppedError;
    QMutexLocker lock(&m_writer->errorLock);
    return m_writer->firstError;
}

qint64 HistoryRecorder::runId() const
{
    return m_writer && m_thread->isRunning() ? m_writer->run.load() : 0;
}

qint64 HistoryRecorder::eventsRecorded() const
{
    return m_thread->isRunning() ? m_writer->written.load() : m_stoppedCount;
}

} // namespace Sonde
