// SPDX-License-Identifier: MIT
#pragma once

#include "historyfilter.h"
#include "transcript/exportsource.h"

namespace Sonde {

class HistoryStore;

// The records a filter matches in a history, read for an export a page at a time after the
// last id read (an index seek per page, never OFFSET), so that exporting a million events
// holds one page. Used on the thread that opened the store.
class HistoryExportSource final : public ExportSource
{
public:
    static constexpr int Page = 2'000;

    HistoryExportSource(const HistoryStore &store, const HistoryFilter &filter)
        : m_store(store), m_filter(filter)
    {
    }
    bool read(const QString &server, const QStringList &directions, const Each &each,
              QString *error) const override;

private:
    const HistoryStore &m_store;
    HistoryFilter m_filter;
};

} // namespace Sonde
