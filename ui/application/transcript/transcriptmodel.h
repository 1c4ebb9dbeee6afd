// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>
#include <QPointer>

namespace Sonde {

class TranscriptStore;

// The table over a TranscriptStore: one row per event, rows inserted and dropped as the store
// grows and trims its front. It holds no data of its own beyond its row count, which lags the
// store by exactly one signal so begin/end notifications bracket each change correctly.
// Thread: GUI. Does not own the store (which must outlive it or be destroyed first, which
// resets the model).
class TranscriptModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        TimeColumn,
        ServerColumn,
        GenerationColumn,
        DirectionColumn,
        MethodColumn,
        SummaryColumn,
        LatencyColumn,
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

    explicit TranscriptModel(TranscriptStore *store, QObject *parent = nullptr);

    TranscriptStore *store() const { return m_store; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    // The text of the Method/Id column for a store row, shared with the exporter's tables.
    static QString methodText(const TranscriptStore &store, int row);
    static QString timeText(qint64 timeMs);

private:
    void onRowsAppended(int first, int last);
    void onRowsDropped(int count);
    void onReset();

    QPointer<TranscriptStore> m_store;
    int m_rows = 0;
    // While rowsAboutToBeRemoved is out, the store has already dropped the front: model row r
    // is store row r - m_shift for the rows that remain.
    int m_shift = 0;
};

} // namespace Sonde
