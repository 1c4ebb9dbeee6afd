// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QList>

namespace Sonde {

// Where a PagedTranscriptModel reads its rows: a recorded history (the SQLite store, one
// session or a search's hits) that is too large to hold, read a window at a time. Records are
// transcript records as TranscriptEvent::toJson writes them (docs/transcript-format.md).
// Thread: the model's (GUI); a source over the store reads through its own connection.
class TranscriptPageSource
{
public:
    virtual ~TranscriptPageSource() = default;
    virtual qint64 count() const = 0;
    // Up to `limit` records from row `offset`, in order; fewer at the end.
    virtual QList<QJsonObject> page(qint64 offset, int limit) const = 0;
    // Counts again and returns count(): a source over a recording that goes on gains rows at
    // its end (PagedTranscriptModel::followSource). By default the rows do not change.
    virtual qint64 recount() { return count(); }
};

} // namespace Sonde
