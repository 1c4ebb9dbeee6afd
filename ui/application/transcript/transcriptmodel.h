// SPDX-License-Identifier: MIT
#pragma once

#include "application/transcript/transcriptstore.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QPointer>

#include <memory>

namespace Sonde {

class TranscriptPageSource;

// The one table of transcript events, whatever holds them: the live TranscriptStore (rows
// inserted and dropped as the store grows and trims its front) or a recorded history of any
// length, read a page at a time from a TranscriptPageSource (the Transcript tab over this
// run's recording, the History tab). Both give a TranscriptEvent per row and the same
// columns, so the two tabs cannot drift apart.
//
// Over a store it holds nothing of its own beyond the row count, which lags the store by one
// signal so begin/end notifications bracket each change. Over a source it holds the count and
// at most MaxPages windows of PageSize rows (least recently used dropped first), fetched when a
// view asks for a row it does not have: scrolling a million events costs one read per 256 rows
// and its memory stays the same. A recorded row is paired with the rows of its own page (a
// response whose request is on the page before has no latency). Thread: GUI. Does not own the store
// (which must outlive it or be destroyed first, which resets the model); owns the source.
class TranscriptModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    static constexpr int MaxPages = 32;

    enum Column
    {
        TimeColumn,
        ServerColumn,
        GenerationColumn,
        DirectionColumn,
        MethodColumn,
        LatencyColumn,
        SummaryColumn, // last: it takes the width the others leave
        ColumnCount
    };
    enum Role
    {
        EventRole = Qt::UserRole + 1, // the TranscriptEvent (QVariant::fromValue)
        RawRole,                      // QByteArray: the frame or line as it was
        DirectionRole,                // int: TranscriptEvent::Direction
        ServerRole,                   // QString
        MethodRole,                   // QString: TranscriptStore::Entry::method
        IsErrorRole,                  // bool: error response or isError result
        LatencyRole,                  // qint64 ms on paired responses, -1 otherwise
        PairedRowRole,                // int: the row of the request or response it pairs with
        DirectionSymbolRole,          // QString: "→" "←" "err" "ev" "⚠" for compact painting
    };

    // Over a live store (null: empty until a source is set).
    explicit TranscriptModel(TranscriptStore *store, QObject *parent = nullptr);
    // Over a recorded history: empty until setSource().
    explicit TranscriptModel(QObject *parent = nullptr) : TranscriptModel(nullptr, parent) {}
    ~TranscriptModel() override;

    TranscriptStore *store() const { return m_store; }

    // Pages from `source` from now on (the store, if any, is no longer followed); null shows
    // nothing. Resets the model.
    void setSource(std::unique_ptr<TranscriptPageSource> source);
    // The same with the rows from `firstRow` (a multiple of PageSize) already read, off the GUI
    // thread (TranscriptFilterQuery): they are the cache, so the first screen reads nothing.
    void setSource(std::unique_ptr<TranscriptPageSource> source, qint64 firstRow,
                   const TranscriptBatch &events);
    const TranscriptPageSource *source() const { return m_source.get(); }
    // Reads the source's count again (rows recorded since) and forgets the cached pages.
    void refresh();
    // Asks the source for rows gained at its end (TranscriptPageSource::recount) and inserts
    // them, so a view keeps its place and its selection; the last page, which may have been
    // short, is read again. A source that lost rows (a Clear) resets the model.
    void followSource();
    // How many pages are held now and have been read (for tests and the memory figure).
    int cachedPages() const { return int(m_pages.size()); }
    qint64 pagesRead() const { return m_pagesRead; }

    // The event of a row, from the store or its page (read if needed); null if out of range.
    const TranscriptEvent *event(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    // The text of the Method / Id column for an event and its entry, shared with the
    // exporter's tables.
    static QString methodText(const TranscriptEvent &e, const TranscriptStore::Entry &entry);
    static QString timeText(qint64 timeMs);

private:
    struct Row
    {
        TranscriptEvent event;
        TranscriptStore::Entry entry;
    };
    struct Page
    {
        QList<Row> rows;
        quint64 lastUse = 0;
    };
    // The event and entry of a row in either mode; false when there is none.
    bool rowAt(int row, const TranscriptEvent **event, const TranscriptStore::Entry **entry) const;
    const Row *pagedRow(int row) const;
    static Page pageOf(const TranscriptBatch &events, qsizetype from, qsizetype to,
                       qint64 firstRow);
    int sourceRows() const;
    void detachStore();
    void onRowsAppended(int first, int last);
    void onRowsDropped(int count);
    void onReset();

    QPointer<TranscriptStore> m_store;
    std::unique_ptr<TranscriptPageSource> m_source;
    bool m_paged = false;
    int m_rows = 0;
    // While rowsAboutToBeRemoved is out, the store has already dropped the front: model row r
    // is store row r - m_shift for the rows that remain.
    int m_shift = 0;
    mutable QHash<qint64, Page> m_pages; // by page number
    mutable quint64 m_useClock = 0;
    mutable qint64 m_pagesRead = 0;
};

} // namespace Sonde
