// SPDX-License-Identifier: MIT
#pragma once

#include "historyfilter.h"
#include "transcript/exportsource.h"

namespace Sonde {

class HistoryStore;

// The records a filter matches in a history, read for an export a page at a time after the
// last id read (an index seek per page, never OFFSET), so that exporting a million events
// holds one page. The rows are those recorded when the source was made (its filter's untilId
// is the newest id then, unless it has one): a history still recorded to gains rows between
// a format's passes, and every pass must read the same records (a header's count, the
// lines after it). Used on the thread that opened the store.
class HistoryExportSource final : public ExportSource
{
public:
    static constexpr int Page = 2'000;

    HistoryExportSource(const HistoryStore &store, const HistoryFilter &filter);
    bool read(const QString &server, const QStringList &directions, const Each &each,
              QString *error) const override;
    // The filter's untilId, or the newest id recorded.
    const HistoryFilter &filter() const { return m_filter; }

private:
    const HistoryStore &m_store;
    HistoryFilter m_filter;
};

} // namespace Sonde
