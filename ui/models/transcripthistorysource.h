// SPDX-License-Identifier: MIT
#pragma once

#include "historyfilter.h"
#include "historystore.h"
#include "transcriptpagesource.h"

#include <QHash>

#include <memory>

namespace Sonde {

// The live Transcript tab's rows read from the SQLite history instead of memory: one run's
// events (what this window recorded), filtered in the query itself (server, directions, a part
// of the method, text through FTS5), so the table pages a million rows without holding them.
// It follows the recording: recount() counts only the rows after the last id it saw, so being
// asked after every batch costs a read of the new rows, not a count of the whole history.
// Thread: the model's (GUI); the store is a read connection of its own on that thread (WAL:
// it never blocks the recorder's writer thread).
class TranscriptHistorySource final : public TranscriptPageSource
{
public:
    // Counts the rows (HistoryStore::tally) on the caller's thread.
    TranscriptHistorySource(std::shared_ptr<const HistoryStore> store, HistoryFilter filter);
    // Takes the count another connection made (TranscriptFilterQuery, off the GUI thread) and
    // the ids of the rows it read from `firstRow`, so the pages after them seek by id too.
    TranscriptHistorySource(std::shared_ptr<const HistoryStore> store, HistoryFilter filter,
                            HistoryStore::Tally tally, qint64 firstRow, const QList<qint64> &ids);

    qint64 count() const override { return m_count; }
    QList<QJsonObject> page(qint64 offset, int limit) const override;
    qint64 recount() override;
    const HistoryFilter &filter() const { return m_filter; }

private:
    // `n` rows after the id `from` (backward: up to it, the newest), read by id range, never
    // past m_lastId (rows not counted yet).
    QList<QJsonObject> inWindows(qint64 from, int n, bool backward, QList<qint64> *ids) const;

    std::shared_ptr<const HistoryStore> m_store;
    HistoryFilter m_filter;
    qint64 m_count = 0;
    qint64 m_lastId = 0; // the newest row counted
    qint64 m_seenId = 0; // the newest row of the table when counted: the next count starts after it
    // The id each page read so far starts at, and the one after it, by row: the next read of
    // such a row seeks by id (HistoryFilter::afterId) instead of walking the rows before it
    // with OFFSET, so the tail a following view reads after every batch costs the same at a
    // million rows as at ten. The rows are the run's, in id order, and only grow.
    mutable QHash<qint64, qint64> m_firstIdAt;
};

} // namespace Sonde
