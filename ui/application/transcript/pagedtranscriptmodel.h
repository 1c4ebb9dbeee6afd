// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>
#include <QHash>
#include <QJsonObject>
#include <QList>

#include <memory>

namespace Sonde {

class TranscriptPageSource;

// The table over a recorded history of any length: it holds the row count and at most
// MaxPages windows of PageSize rows (least recently used dropped first), fetched from the
// source when a view asks for a row it does not have. Scrolling through a million events then
// costs one read per 256 rows and its memory stays the same. What each row shows is derived
// from its record once, when its page arrives. Thread: GUI.
class PagedTranscriptModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    static constexpr int PageSize = 256;
    static constexpr int MaxPages = 32;

    enum Column
    {
        TimeColumn,
        ServerColumn,
        GenerationColumn,
        DirectionColumn,
        MethodColumn,
        SummaryColumn,
        ColumnCount
    };
    enum Role
    {
        RecordRole = Qt::UserRole + 1, // QJsonObject: the whole record
        DirectionNameRole,             // QString: "send", "recv", "stderr", "event", "violation"
        IsErrorRole,                   // bool: an error response or an isError result
    };

    explicit PagedTranscriptModel(QObject *parent = nullptr);
    ~PagedTranscriptModel() override;

    // Takes the source; null shows nothing. Resets the model.
    void setSource(std::unique_ptr<TranscriptPageSource> source);
    // The same with the rows from `firstRow` (a multiple of PageSize) already read, off the GUI
    // thread (TranscriptFilterQuery): they are the cache, so the first screen reads nothing.
    void setSource(std::unique_ptr<TranscriptPageSource> source, qint64 firstRow,
                   const QList<QJsonObject> &records);
    // Reads the count again (rows recorded since) and forgets the cached pages.
    void refresh();
    // Asks the source for rows gained at its end (TranscriptPageSource::recount) and inserts
    // them, so a view keeps its place and its selection; the last page, which may have been
    // short, is read again. A source that lost rows (a Clear) resets the model.
    void followSource();
    // How many pages are held now (for tests and the memory figure).
    int cachedPages() const { return int(m_pages.size()); }
    qint64 pagesRead() const { return m_pagesRead; }
    const TranscriptPageSource *source() const { return m_source.get(); }
    // The record of a row (fetching its page if needed); empty if out of range.
    QJsonObject record(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // What one row shows, from its record.
    struct Row
    {
        QJsonObject record;
        QString time, server, direction, method, summary;
        int generation = 0;
        bool isError = false;
    };
    static Row rowOf(const QJsonObject &record);

private:
    struct Page
    {
        QList<Row> rows;
        quint64 lastUse = 0;
    };
    const Row *rowAt(int row) const;

    std::unique_ptr<TranscriptPageSource> m_source;
    int m_rows = 0;
    mutable QHash<qint64, Page> m_pages; // by page number
    mutable quint64 m_useClock = 0;
    mutable qint64 m_pagesRead = 0;
};

} // namespace Sonde
