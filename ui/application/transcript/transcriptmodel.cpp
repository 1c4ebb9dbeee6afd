// SPDX-License-Identifier: MIT
#include "application/transcript/transcriptmodel.h"

#include "application/transcript/transcriptpagesource.h"
#include "util/enumnames.h"

#include <QColor>
#include <QDateTime>

#include <limits>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

using Direction = TranscriptEvent::Direction;

// In the order of TranscriptEvent::Direction: Outgoing, Incoming, Stderr, Lifecycle, Violation.
const char *const kDirectionSymbols[] = {"→", "←", "err", "ev", "⚠"};
const char *const kDirectionToolTips[] = {
    QT_TRANSLATE_NOOP("Sonde::TranscriptModel", "Sent to the server (client → server)"),
    QT_TRANSLATE_NOOP("Sonde::TranscriptModel", "Received from the server (server → client)"),
    QT_TRANSLATE_NOOP("Sonde::TranscriptModel", "A line the server wrote to stderr"),
    QT_TRANSLATE_NOOP("Sonde::TranscriptModel", "A lifecycle event of the session"),
    QT_TRANSLATE_NOOP("Sonde::TranscriptModel",
                      "A protocol violation: something the server sent that MCP does not allow"),
};

QString directionSymbol(Direction d)
{
    return enumName(kDirectionSymbols, d);
}

QString directionToolTip(Direction d)
{
    const QString text = enumName(kDirectionToolTips, d);
    return text.isEmpty() ? text : TranscriptModel::tr(text.toUtf8().constData());
}

} // namespace

TranscriptModel::TranscriptModel(TranscriptStore *store, QObject *parent)
    : QAbstractTableModel(parent), m_store(store), m_rows(store ? store->size() : 0)
{
    if (!store)
        return;
    connect(store, &TranscriptStore::rowsAppended, this, &TranscriptModel::onRowsAppended);
    connect(store, &TranscriptStore::rowsDropped, this, &TranscriptModel::onRowsDropped);
    connect(store, &TranscriptStore::reset, this, &TranscriptModel::onReset);
    connect(store, &TranscriptStore::appCallsMarked, this, [this] {
        if (m_rows > 0)
            Q_EMIT dataChanged(index(0, MethodColumn), index(m_rows - 1, MethodColumn));
    });
    connect(store, &QObject::destroyed, this, &TranscriptModel::onReset);
}

TranscriptModel::~TranscriptModel() = default;

void TranscriptModel::detachStore()
{
    if (m_store)
        disconnect(m_store, nullptr, this, nullptr);
    m_store = nullptr;
    m_paged = true;
}

int TranscriptModel::sourceRows() const
{
    return m_source ? int(qMin<qint64>(m_source->count(), std::numeric_limits<int>::max())) : 0;
}

void TranscriptModel::setSource(std::unique_ptr<TranscriptPageSource> source)
{
    beginResetModel();
    detachStore();
    m_source = std::move(source);
    m_pages.clear();
    m_rows = sourceRows();
    endResetModel();
}

void TranscriptModel::setSource(std::unique_ptr<TranscriptPageSource> source, qint64 firstRow,
                                const TranscriptBatch &events)
{
    constexpr int PageSize = TranscriptPageSource::PageSize;
    Q_ASSERT(firstRow % PageSize == 0);
    beginResetModel();
    detachStore();
    m_source = std::move(source);
    m_pages.clear();
    m_rows = sourceRows();
    for (qsizetype i = 0; i < events.size() && m_pages.size() < MaxPages; i += PageSize) {
        Page page = pageOf(events, i, qMin<qsizetype>(i + PageSize, events.size()), firstRow + i);
        page.lastUse = ++m_useClock;
        m_pages.insert((firstRow + i) / PageSize, std::move(page));
    }
    endResetModel();
}

void TranscriptModel::refresh()
{
    if (!m_paged)
        return;
    beginResetModel();
    m_pages.clear();
    m_rows = sourceRows();
    endResetModel();
}

void TranscriptModel::followSource()
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
    m_pages.remove(m_rows / TranscriptPageSource::PageSize); // it may have ended short of a page
    beginInsertRows({}, m_rows, rows - 1);
    m_rows = rows;
    endInsertRows();
}

TranscriptModel::Page TranscriptModel::pageOf(const TranscriptBatch &events, qsizetype from,
                                              qsizetype to, qint64 firstRow)
{
    // Paired as the live store pairs, within the page: a response gets its latency when its
    // request is on the same page (nearly always: they are seldom far apart).
    TranscriptStore paired(int(to - from) + 1, nullptr, std::numeric_limits<qint64>::max());
    paired.append(events.mid(from, to - from));
    Page page;
    page.rows.reserve(paired.size());
    for (int i = 0; i < paired.size(); ++i) {
        TranscriptStore::Entry entry = paired.entry(i);
        if (entry.pairedRow >= 0)
            entry.pairedRow += int(firstRow);
        page.rows.append({paired.event(i), std::move(entry)});
    }
    return page;
}

const TranscriptModel::Row *TranscriptModel::pagedRow(int row) const
{
    if (!m_source || row < 0 || row >= m_rows)
        return nullptr;
    constexpr int PageSize = TranscriptPageSource::PageSize;
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
        const TranscriptBatch events = m_source->page(number * PageSize, PageSize);
        ++m_pagesRead;
        it = m_pages.insert(number, pageOf(events, 0, events.size(), number * PageSize));
    }
    it->lastUse = ++m_useClock;
    const int inPage = row % PageSize;
    // The source may have lost rows since the count (retention): an empty row, not a crash.
    return inPage < it->rows.size() ? &it->rows.at(inPage) : nullptr;
}

bool TranscriptModel::rowAt(int row, const TranscriptEvent **event,
                            const TranscriptStore::Entry **entry) const
{
    if (m_paged) {
        const Row *r = pagedRow(row);
        if (!r)
            return false;
        *event = &r->event;
        *entry = &r->entry;
        return true;
    }
    row -= m_shift;
    if (!m_store || row < 0 || row >= m_store->size())
        return false; // a dropped row, asked for while its removal is announced
    *event = &m_store->event(row);
    *entry = &m_store->entry(row);
    return true;
}

const TranscriptEvent *TranscriptModel::event(int row) const
{
    const TranscriptEvent *e = nullptr;
    const TranscriptStore::Entry *entry = nullptr;
    return row < m_rows && rowAt(row, &e, &entry) ? e : nullptr;
}

void TranscriptModel::onRowsAppended(int first, int last)
{
    // The store appends after it dropped, so its first new row is always our next row.
    Q_ASSERT(first == m_rows);
    beginInsertRows({}, first, last);
    m_rows = last + 1;
    endInsertRows();
}

void TranscriptModel::onRowsDropped(int count)
{
    m_shift = count;
    beginRemoveRows({}, 0, count - 1);
    m_shift = 0;
    m_rows -= count;
    endRemoveRows();
}

void TranscriptModel::onReset()
{
    beginResetModel();
    m_rows = m_store ? m_store->size() : 0;
    endResetModel();
}

int TranscriptModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int TranscriptModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString TranscriptModel::timeText(qint64 timeMs)
{
    return QDateTime::fromMSecsSinceEpoch(timeMs).toString(u"hh:mm:ss.zzz"_s);
}

QString TranscriptModel::methodText(const TranscriptEvent &e, const TranscriptStore::Entry &entry)
{
    switch (e.direction) {
    case Direction::Outgoing:
    case Direction::Incoming:
        return entry.isRequest ? entry.method + " #"_L1 + entry.id : entry.method;
    case Direction::Lifecycle:
    case Direction::Violation:
        return e.event;
    case Direction::Stderr:
        break;
    }
    return {};
}

QVariant TranscriptModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TranscriptEvent *event = nullptr;
    const TranscriptStore::Entry *entryOfRow = nullptr;
    if (!rowAt(index.row(), &event, &entryOfRow))
        return {};
    const TranscriptEvent &e = *event;
    const TranscriptStore::Entry &entry = *entryOfRow;

    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return timeText(e.timeMs);
        case ServerColumn:
            return e.server;
        case GenerationColumn:
            return e.generation;
        case DirectionColumn:
            return TranscriptEvent::directionName(e.direction);
        case MethodColumn:
            // An MCP App's own call (AppSession), told apart from the user's.
            return m_store && m_store->isAppCall(e.server, entry)
                       ? methodText(e, entry) + tr(" · App")
                       : methodText(e, entry);
        case SummaryColumn:
            return entry.summary;
        case LatencyColumn:
            return entry.latencyMs >= 0 && entry.isResponse
                       ? QVariant(tr("%1 ms").arg(entry.latencyMs))
                       : QVariant();
        }
        return {};
    case Qt::ToolTipRole:
        switch (index.column()) {
        case TimeColumn:
            return QDateTime::fromMSecsSinceEpoch(e.timeMs).toString(Qt::ISODateWithMs);
        case DirectionColumn:
            return directionToolTip(e.direction);
        case SummaryColumn:
            return entry.summary;
        case ServerColumn:
        case MethodColumn: // narrow columns: a long name is cut, its tooltip holds it whole
            return data(index, Qt::DisplayRole);
        }
        return {};
    case Qt::ForegroundRole:
        if (entry.isError || e.direction == Direction::Violation)
            return QColor(0xc6, 0x28, 0x28);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == GenerationColumn || index.column() == LatencyColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        return {};
    case EventRole:
        return QVariant::fromValue(e);
    case RawRole:
        return e.raw;
    case DirectionRole:
        return int(e.direction);
    case ServerRole:
        return e.server;
    case MethodRole:
        return entry.method;
    case IsErrorRole:
        return entry.isError;
    case LatencyRole:
        return entry.latencyMs;
    case PairedRowRole:
        return entry.pairedRow;
    case DirectionSymbolRole:
        return directionSymbol(e.direction);
    }
    return {};
}

QVariant TranscriptModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
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
    case LatencyColumn:
        return tr("Latency");
    }
    return {};
}

QHash<int, QByteArray> TranscriptModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractTableModel::roleNames();
    names.insert(EventRole, "event");
    names.insert(RawRole, "raw");
    names.insert(DirectionRole, "direction");
    names.insert(ServerRole, "server");
    names.insert(MethodRole, "method");
    names.insert(IsErrorRole, "isError");
    names.insert(LatencyRole, "latencyMs");
    names.insert(PairedRowRole, "pairedRow");
    names.insert(DirectionSymbolRole, "directionSymbol");
    return names;
}

} // namespace Sonde
