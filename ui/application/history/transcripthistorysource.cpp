// SPDX-License-Identifier: MIT
#include "application/history/transcripthistorysource.h"

#include "application/transcript/transcriptfilterquery.h"
#include "historystore.h"

namespace Sonde {

TranscriptHistorySource::TranscriptHistorySource(std::shared_ptr<const HistoryStore> store,
                                                 HistoryFilter filter)
    : m_store(std::move(store)), m_filter(std::move(filter))
{
    m_filter.afterId = 0;
    recount();
}

TranscriptHistorySource::TranscriptHistorySource(std::shared_ptr<const HistoryStore> store,
                                                 const TranscriptFilterAnswer &answer)
    : m_store(std::move(store)), m_filter(answer.filter), m_count(answer.count),
      m_lastId(answer.lastId), m_seenId(answer.newestId)
{
    m_filter.afterId = 0;
    notePageStarts(0, answer.pageStarts);
    const QList<qint64> &ids = answer.ids;
    for (qsizetype i = 0; i < ids.size(); i += PageSize) {
        const qsizetype end = qMin<qsizetype>(i + PageSize, ids.size());
        m_firstIdAt.insert(answer.firstRow + i, ids.at(i));
        m_firstIdAt.insert(answer.firstRow + end, ids.at(end - 1) + 1);
    }
}

void TranscriptHistorySource::notePageStarts(qint64 firstRow, const QList<qint64> &starts)
{
    qint64 row = (firstRow + PageSize - 1) / PageSize * PageSize;
    for (qint64 id : starts) {
        m_firstIdAt.insert(row, id);
        row += PageSize;
    }
}

qint64 TranscriptHistorySource::recount()
{
    HistoryFilter since = m_filter;
    since.afterId = m_seenId;
    QList<qint64> starts;
    const HistoryStore::Tally t =
        m_store->pagedTally(since, TranscriptPageSource::PageSize, m_count, &starts);
    if (t.newestId < m_seenId) {
        // The newest rows went: a Clear, after which the ids start again below the last seen.
        m_count = m_lastId = m_seenId = 0;
        m_firstIdAt.clear();
        return recount();
    }
    m_seenId = t.newestId;
    if (t.count > 0) {
        notePageStarts(m_count, starts);
        m_count += t.count;
        m_lastId = t.lastId;
        return m_count;
    }
    if (m_lastId > 0) {
        // Nothing new; is the newest row seen still there? Not after a Clear from the History
        // tab: then everything is counted again (from nothing, as the Clear left it).
        since.afterId = m_lastId - 1;
        if (m_store->tally(since).count == 0) {
            m_count = m_lastId = m_seenId = 0;
            m_firstIdAt.clear();
            return recount();
        }
    }
    return m_count;
}

QList<QJsonObject> TranscriptHistorySource::inWindows(qint64 from, int n, bool backward,
                                                      QList<qint64> *ids) const
{
    HistoryFilter f = m_filter;
    if (m_filter.text.isEmpty()) {
        // An index walks the ids in order and stops after n rows.
        if (backward) {
            f.untilId = from;
            return m_store->newestRecords(f, n, ids);
        }
        f.afterId = from;
        f.untilId = m_lastId;
        return m_store->records(f, 0, n, ids);
    }
    // The full-text subquery gathers every hit of its id range before the LIMIT: a range a
    // few times a page wide first, wider by 8 each time it holds fewer than n rows (170 ms a
    // page at a million hits, unbounded).
    for (qint64 width = 4 * qint64(n);; width *= 8) {
        QList<qint64> found;
        QList<QJsonObject> rows;
        bool whole;
        if (backward) {
            f.untilId = from;
            f.afterId = qMax<qint64>(0, from - width);
            whole = f.afterId == 0;
            rows = m_store->newestRecords(f, n, &found);
        } else {
            f.afterId = from;
            f.untilId = qMin(m_lastId, from + width);
            whole = f.untilId == m_lastId;
            rows = m_store->records(f, 0, n, &found);
        }
        if (rows.size() == n || whole) {
            *ids = found;
            return rows;
        }
    }
}

TranscriptBatch TranscriptHistorySource::page(qint64 offset, int limit) const
{
    // Rows past the count are left for the next recount, so a page never holds a row the
    // model has not inserted yet.
    if (offset >= m_count)
        return {};
    const int n = int(qMin<qint64>(limit, m_count - offset));
    QList<qint64> ids;
    QList<QJsonObject> rows;
    if (const auto it = m_firstIdAt.constFind(offset); it != m_firstIdAt.constEnd()) {
        rows = inWindows(*it - 1, n, false, &ids);
    } else if (m_lastId > 0 && offset + n == m_count) {
        // The last page (a jump to the end): read back from the newest row counted, not past
        // every row before it as OFFSET does (a second at a million rows).
        rows = inWindows(m_lastId, n, true, &ids);
    } else {
        ++m_offsetReads;
        rows = m_store->records(m_filter, offset, n, &ids);
    }
    if (!ids.isEmpty()) {
        m_firstIdAt.insert(offset, ids.first());
        m_firstIdAt.insert(offset + ids.size(), ids.last() + 1);
    }
    TranscriptBatch events;
    events.reserve(rows.size());
    for (const QJsonObject &r : std::as_const(rows))
        events.append(TranscriptEvent::fromJson(r));
    return events;
}

} // namespace Sonde
