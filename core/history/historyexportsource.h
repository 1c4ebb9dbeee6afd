// SPDX-License-Identifier: MIT
#pragma once

#include "historyfilter.h"
#include "transcript/exportsource.h"

namespace Sonde {

class HistoryStore;

// The records a filter matches in a history, read for an export a page at a time after the
// last id read (an index seek per page, never OFFSET), so that exporting a million events
// holds one page. Every pass of a format must read the same records (a header's count, the
// lines after it), while the history may be recorded to and have its oldest rows deleted by
// retention on another connection:
// - the rows are those recorded when the source was made (its filter's untilId is the newest
//   id then, unless it has one);
// - over a store that only reads, the source holds a snapshot (HistoryStore::beginSnapshot)
//   from its making to its end, so rows deleted meanwhile are still read. A store that
//   records is written on this same thread, never during a pass: it needs none.
// Used on the thread that opened the store.
class HistoryExportSource final : public ExportSource
{
public:
    static constexpr int Page = 2'000;

    HistoryExportSource(HistoryStore &store, const HistoryFilter &filter);
    ~HistoryExportSource() override;
    HistoryExportSource(const HistoryExportSource &) = delete;
    HistoryExportSource &operator=(const HistoryExportSource &) = delete;

    bool read(const QString &server, const QStringList &directions, const Each &each,
              QString *error) const override;
    // The filter's untilId, or the newest id recorded.
    const HistoryFilter &filter() const { return m_filter; }
    bool holdsSnapshot() const { return m_snapshot; }

private:
    HistoryStore &m_store;
    HistoryFilter m_filter;
    bool m_snapshot = false;
    QString m_error; // why the snapshot could not begin: every read fails with it
};

} // namespace Sonde
