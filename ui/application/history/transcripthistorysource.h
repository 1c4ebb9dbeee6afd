// SPDX-License-Identifier: MIT
#pragma once

#include "application/transcript/transcriptpagesource.h"
#include "historyfilter.h"
#include "historystore.h"

#include <QHash>

#include <memory>

namespace Sonde {

struct TranscriptFilterAnswer;

// A filter's rows read from the SQLite history instead of memory: the live Transcript tab's
// (one run's events, what this window recorded, by server, directions, a part of the method,
// text through FTS5) and the History tab's search hits. The filter is in the query itself, so
// the table pages a million rows without holding them. It follows a recording: recount()
// counts only the rows after the last id it saw, so being asked after every batch costs a read
// of the new rows, not a count of the whole history; it notes the first id of each new page.
// Thread: the model's (GUI); the store is a read connection of its own on that thread (WAL:
// it never blocks the recorder's writer thread).
class TranscriptHistorySource final : public TranscriptPageSource
{
public:
    // Counts the rows (HistoryStore::tally) on the caller's thread.
    TranscriptHistorySource(std::shared_ptr<const HistoryStore> store, HistoryFilter filter);
    // Takes the count another connection made (TranscriptFilterQuery, off the GUI thread),
    // the first id of every page and the ids of the rows it read: every page then seeks by id,
    // the middle of a million rows as the first.
    TranscriptHistorySource(std::shared_ptr<const HistoryStore> store,
                            const TranscriptFilterAnswer &answer);

    qint64 count() const override { return m_count; }
    TranscriptBatch page(qint64 offset, int limit) const override;
    qint64 recount() override;
    const HistoryFilter &filter() const { return m_filter; }
    // The newest row counted: count() rows end at it (rows recorded since wait for recount()).
    qint64 lastId() const { return m_lastId; }
    // Pages read with OFFSET, which walks every row before them: only a page this source has
    // no id for (for the tests and the benchmark).
    qint64 offsetReads() const { return m_offsetReads; }

private:
    // `n` rows after the id `from` (backward: up to it, the newest), read by id range, never
    // past m_lastId (rows not counted yet).
    QList<QJsonObject> inWindows(qint64 from, int n, bool backward, QList<qint64> *ids) const;

    std::shared_ptr<const HistoryStore> m_store;
    HistoryFilter m_filter;
    qint64 m_count = 0;
    qint64 m_lastId = 0; // the newest row counted
    qint64 m_seenId = 0; // the newest row of the table when counted: the next count starts after it
    // Adds the first id of each page among the rows counted from `firstRow` on.
    void notePageStarts(qint64 firstRow, const QList<qint64> &starts);

    // By row, an id at or below that row's and above the row before's: the first id of every
    // page counted (HistoryStore::pagedTally), and of each page read and the one after it. A
    // read of such a row seeks by id (HistoryFilter::afterId) instead of walking the rows
    // before it with OFFSET, so a jump to the middle of a million rows, or the tail a
    // following view reads after every batch, costs what the first page does. The rows are
    // in id order and only grow (a Clear starts again).
    mutable QHash<qint64, qint64> m_firstIdAt;
    mutable qint64 m_offsetReads = 0;
};

} // namespace Sonde
