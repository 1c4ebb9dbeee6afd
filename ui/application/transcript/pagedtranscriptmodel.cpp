// SPDX-License-Identifier: MIT
#include "application/transcript/pagedtranscriptmodel.h"
#include "protocol/jsonrpcmessage.h"

#include "application/transcript/transcriptmodel.h"
#include "application/transcript/transcriptpagesource.h"
#include "application/transcript/transcriptstore.h" // transcriptmodel.h holds a QPointer to it

#include <QColor>
#include <QJsonArray>
#include <QJsonDocument>

#include <limits>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

constexpr int SummaryMaxChars = 160;

QString oneLine(const QJsonValue &value)
{
    QString text =
        value.isObject()
            ? QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact))
        : value.isArray()
            ? QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact))
            : value.toString();
    text.replace(u'\n', u' ');
    if (text.size() > SummaryMaxChars)
        text = text.left(SummaryMaxChars - 1) + u'…';
    return text;
}

} // namespace

PagedTranscriptModel::PagedTranscriptModel(QObject *parent) : QAbstractTableModel(parent)
{
}

PagedTranscriptModel::~PagedTranscriptModel() = default;

void PagedTranscriptModel::setSource(std::unique_ptr<TranscriptPageSource> source)
{
    beginResetModel();
    m_source = std::move(source);
    m_pages.clear();
    m_rows = m_source ? int(qMin<qint64>(m_source->count(), std::numeric_limits<int>::max())) : 0;
    endResetModel();
}

void PagedTranscriptModel::setSource(std::unique_ptr<TranscriptPageSource> source, qint64 firstRow,
                                     const QList<QJsonObject> &records)
{
    Q_ASSERT(firstRow % PageSize == 0);
    beginResetModel();
    m_source = std::move(source);
    m_pages.clear();
    m_rows = m_source ? int(qMin<qint64>(m_source->count(), std::numeric_limits<int>::max())) : 0;
    for (qsizetype i = 0; i < records.size() && m_pages.size() < MaxPages; i += PageSize) {
        Page page;
        const qsizetype end = qMin<qsizetype>(i + PageSize, records.size());
        page.rows.reserve(end - i);
        for (qsizetype r = i; r < end; ++r)
            page.rows.append(rowOf(records.at(r)));
        page.lastUse = ++m_useClock;
        m_pages.insert((firstRow + i) / PageSize, std::move(page));
    }
    endResetModel();
}

void PagedTranscriptModel::refresh()
{
    beginResetModel();
    m_pages.clear();
    m_rows = m_source ? int(qMin<qint64>(m_source->count(), std::numeric_limits<int>::max())) : 0;
    endResetModel();
}

void PagedTranscriptModel::followSource()
{
    if (!m_source)
        return;
    const int rows = int(qMin<qint64>(m_source->recount(), std::numeric_limits<int>::max()));
    if (rows < m_rows) {
        refresh();
        return;
    }
    if (rows == m_rows)
        return;
    m_pages.remove(m_rows / PageSize); // it may have ended short of a page
    beginInsertRows({}, m_rows, rows - 1);
    m_rows = rows;
    endInsertRows();
}

PagedTranscriptModel::Row PagedTranscriptModel::rowOf(const QJsonObject &record)
{
    Row r;
    r.record = record;
    r.time = TranscriptModel::timeText(record.value("t_ms"_L1).toInteger());
    r.server = record.value("server"_L1).toString();
    r.generation = record.value("gen"_L1).toInt();
    r.direction = record.value("dir"_L1).toString();
    const QJsonObject msg = record.value("msg"_L1).toObject();
    if (!msg.isEmpty()) {
        if (msg.contains("method"_L1))
            r.method = msg.value("method"_L1).toString();
        else if (msg.contains("id"_L1))
            r.method = u"response #"_s + JsonRpcMessage::idText(msg.value("id"_L1));
        r.isError = msg.contains("error"_L1) ||
                    msg.value("result"_L1).toObject().value("isError"_L1).toBool();
        const QJsonValue body = msg.contains("params"_L1)   ? msg.value("params"_L1)
                                : msg.contains("result"_L1) ? msg.value("result"_L1)
                                : msg.contains("error"_L1)  ? msg.value("error"_L1)
                                                            : QJsonValue(msg);
        r.summary = oneLine(body);
    } else if (record.contains("event"_L1)) {
        r.method = record.value("event"_L1).toString();
        r.summary = oneLine(record.value("details"_L1));
    } else {
        r.summary =
            oneLine(record.contains("line"_L1) ? record.value("line"_L1) : record.value("raw"_L1));
    }
    return r;
}

const PagedTranscriptModel::Row *PagedTranscriptModel::rowAt(int row) const
{
    if (!m_source || row < 0 || row >= m_rows)
        return nullptr;
    const qint64 number = row / PageSize;
    auto it = m_pages.find(number);
    if (it == m_pages.end()) {
        if (m_pages.size() >= MaxPages) {
            auto oldest = m_pages.begin();
            for (auto p = m_pages.begin(); p != m_pages.end(); ++p)
                if (p->lastUse < oldest->lastUse)
                    oldest = p;
            m_pages.erase(oldest);
        }
        Page page;
        const QList<QJsonObject> records = m_source->page(number * PageSize, PageSize);
        page.rows.reserve(records.size());
        for (const QJsonObject &r : records)
            page.rows.append(rowOf(r));
        ++m_pagesRead;
        it = m_pages.insert(number, std::move(page));
    }
    it->lastUse = ++m_useClock;
    const int inPage = row % PageSize;
    // The source may have lost rows since the count (retention): an empty row, not a crash.
    return inPage < it->rows.size() ? &it->rows.at(inPage) : nullptr;
}

QJsonObject PagedTranscriptModel::record(int row) const
{
    const Row *r = rowAt(row);
    return r ? r->record : QJsonObject();
}

int PagedTranscriptModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int PagedTranscriptModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PagedTranscriptModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row *r = rowAt(index.row());
    if (!r)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return r->time;
        case ServerColumn:
            return r->server;
        case GenerationColumn:
            return r->generation;
        case DirectionColumn:
            return r->direction;
        case MethodColumn:
            return r->method;
        case SummaryColumn:
            return r->summary;
        }
        return {};
    case Qt::ToolTipRole:
        // Narrow columns: a long name is cut, its tooltip holds it whole.
        return index.column() == ServerColumn   ? QVariant(r->server)
               : index.column() == MethodColumn ? QVariant(r->method)
                                                : QVariant();
    case Qt::ForegroundRole:
        return r->isError ? QVariant(QColor(Qt::red)) : QVariant();
    case RecordRole:
        return r->record;
    case DirectionNameRole:
        return r->direction;
    case IsErrorRole:
        return r->isError;
    }
    return {};
}

QVariant PagedTranscriptModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case ServerColumn:
        return tr("Server");
    case GenerationColumn:
        return tr("Gen");
    case DirectionColumn:
        return tr("Dir");
    case MethodColumn:
        return tr("Method / Id");
    case SummaryColumn:
        return tr("Summary");
    }
    return {};
}

} // namespace Sonde
