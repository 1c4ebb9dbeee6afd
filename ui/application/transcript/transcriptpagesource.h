// SPDX-License-Identifier: MIT
#pragma once

#include "transcript/transcriptevent.h"

namespace Sonde {

// Where a TranscriptModel reads its rows when they are recorded, not held: a history (the
// SQLite store, one session or a search's hits) too large to hold, read a window at a time.
// Thread: the model's (GUI); a source over the store reads through its own connection.
class TranscriptPageSource
{
public:
    // Rows are read, cached and located by windows of this many.
    static constexpr int PageSize = 256;

    virtual ~TranscriptPageSource() = default;
    virtual qint64 count() const = 0;
    // Up to `limit` events from row `offset`, in order; fewer at the end.
    virtual TranscriptBatch page(qint64 offset, int limit) const = 0;
    // Counts again and returns count(): a source over a recording that goes on gains rows at
    // its end (TranscriptModel::followSource). By default the rows do not change.
    virtual qint64 recount() { return count(); }
};

} // namespace Sonde
