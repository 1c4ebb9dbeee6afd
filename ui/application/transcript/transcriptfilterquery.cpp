// SPDX-License-Identifier: MIT
#include "application/transcript/transcriptfilterquery.h"

#include "application/transcript/transcriptpagesource.h"
#include "historystore.h"

#include <QThread>

#include <limits>

namespace Sonde {

TranscriptFilterWorker::TranscriptFilterWorker(Compute compute,
                                               std::shared_ptr<const std::atomic<quint64>> latest)
    : m_compute(std::move(compute)), m_latest(std::move(latest))
{
}

TranscriptFilterWorker::~TranscriptFilterWorker() = default;

void TranscriptFilterWorker::compute(const TranscriptFilterRequest &request)
{
    Q_ASSERT(QThread::currentThread() == thread());
    // A newer filter was asked while this one waited in the queue: nobody wants its answer.
    if (request.ticket < m_latest->load())
        return;
    if (!m_store || m_store->path() != request.path) {
        m_store = std::make_unique<HistoryStore>();
        QString error;
        if (!m_store->open(request.path, &error)) {
            m_store.reset();
            TranscriptFilterAnswer failed;
            failed.ticket = request.ticket;
            failed.filter = request.filter;
            failed.error = error;
            Q_EMIT answered(failed);
            return;
        }
    }
    TranscriptFilterAnswer answer = m_compute(*m_store, request);
    // Superseded while it was counted (it may have stopped early): nobody wants it either.
    if (request.ticket < m_latest->load())
        return;
    Q_EMIT answered(answer);
}

void TranscriptFilterWorker::release(const QString &path)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_store && m_store->path() == path)
        m_store.reset();
}

TranscriptFilterQuery::TranscriptFilterQuery(QObject *parent)
    : TranscriptFilterQuery(&TranscriptFilterQuery::compute, parent)
{
}

TranscriptFilterQuery::TranscriptFilterQuery(Compute compute, QObject *parent) : QObject(parent)
{
    qRegisterMetaType<TranscriptFilterRequest>();
    qRegisterMetaType<TranscriptFilterAnswer>();
    m_delay.setSingleShot(true);
    m_delay.setInterval(DefaultTypingDelayMs);
    connect(&m_delay, &QTimer::timeout, this, &TranscriptFilterQuery::send);
    m_thread = new QThread(this);
    m_thread->setObjectName(QStringLiteral("sonde-transcript-filter"));
    m_worker = new TranscriptFilterWorker(std::move(compute), m_latest);
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &TranscriptFilterWorker::answered, this, &TranscriptFilterQuery::onAnswered);
    m_thread->start();
}

TranscriptFilterQuery::~TranscriptFilterQuery()
{
    // Whatever is queued is skipped (a newer ticket than any asked), the count under way ends.
    m_latest->store(std::numeric_limits<quint64>::max());
    m_thread->quit();
    m_thread->wait();
}

void TranscriptFilterQuery::ask(const QString &path, const HistoryFilter &filter, bool tail)
{
    m_delay.stop();
    m_next = {++m_ticket, path, filter, tail, m_latest};
    send();
}

void TranscriptFilterQuery::askSoon(const QString &path, const HistoryFilter &filter, bool tail)
{
    // The ticket is taken now: an answer to what was asked before the keystroke is stale.
    m_next = {++m_ticket, path, filter, tail, m_latest};
    m_latest->store(m_ticket);
    setPending(true);
    m_delay.start();
}

void TranscriptFilterQuery::release(const QString &path)
{
    if (m_next.path == path) {
        m_delay.stop();
        setPending(false);
    }
    m_latest->store(std::numeric_limits<quint64>::max()); // everything queued is skipped
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, path] { worker->release(path); },
        Qt::BlockingQueuedConnection);
    m_latest->store(m_ticket);
    if (m_pending && !m_delay.isActive())
        send(); // the ask of another file, skipped above
}

void TranscriptFilterQuery::send()
{
    m_latest->store(m_next.ticket);
    setPending(true);
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, request = m_next] { worker->compute(request); },
        Qt::QueuedConnection);
}

void TranscriptFilterQuery::setPending(bool pending)
{
    if (m_pending == pending)
        return;
    m_pending = pending;
    Q_EMIT pendingChanged(pending);
}

void TranscriptFilterQuery::onAnswered(const TranscriptFilterAnswer &answer)
{
    if (answer.ticket != m_ticket)
        return; // superseded by a newer filter
    setPending(false);
    Q_EMIT answered(answer);
}

TranscriptFilterAnswer TranscriptFilterQuery::compute(const HistoryStore &store,
                                                      const TranscriptFilterRequest &request)
{
    constexpr int PageSize = TranscriptPageSource::PageSize;
    TranscriptFilterAnswer a;
    a.ticket = request.ticket;
    a.filter = request.filter;
    a.filter.afterId = 0;
    const HistoryStore::Tally tally = store.pagedTally(a.filter, PageSize, 0, &a.pageStarts,
                                                       [&request] { return request.superseded(); });
    if (tally.stopped) {
        a.pageStarts.clear();
        a.error = QStringLiteral("stopped");
        return a;
    }
    a.count = tally.count;
    a.lastId = tally.lastId;
    a.newestId = tally.newestId;
    if (a.count == 0)
        return a;
    // Following, the view shows the end: the last page, which may hold a row or two, and the
    // one before it fill any screen.
    const qint64 lastPage = (a.count - 1) / PageSize;
    a.firstRow = request.tail ? qMax<qint64>(0, lastPage - 1) * PageSize : 0;
    const int limit =
        int(qMin<qint64>(request.tail ? 2 * PageSize : PageSize, a.count - a.firstRow));
    QList<QJsonObject> records;
    if (request.tail) {
        // Read backwards from the newest row counted: OFFSET would walk every row before the
        // end (1.2 s at a million). Rows recorded since the count are not in it.
        HistoryFilter upTo = a.filter;
        upTo.untilId = a.lastId;
        records = store.newestRecords(upTo, limit, &a.ids);
    } else {
        records = store.records(a.filter, a.firstRow, limit, &a.ids);
    }
    // Typed here, off the GUI thread: the table's first screen then costs it nothing.
    a.events.reserve(records.size());
    for (const QJsonObject &r : std::as_const(records))
        a.events.append(TranscriptEvent::fromJson(r));
    return a;
}

} // namespace Sonde
