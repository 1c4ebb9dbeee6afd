// SPDX-License-Identifier: MIT
#include "application/transcript/transcriptmodel.h"

#include "application/transcript/transcriptstore.h"
#include "util/enumnames.h"

#include <QColor>
#include <QDateTime>

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
    connect(store, &QObject::destroyed, this, &TranscriptModel::onReset);
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

QString TranscriptModel::methodText(const TranscriptStore &store, int row)
{
    const TranscriptEvent &e = store.event(row);
    const TranscriptStore::Entry &entry = store.entry(row);
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
    if (!m_store ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row() - m_shift;
    if (row < 0 || row >= m_store->size())
        return {}; // a dropped row, asked for while its removal is announced
    const TranscriptEvent &e = m_store->event(row);
    const TranscriptStore::Entry &entry = m_store->entry(row);

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
            return methodText(*m_store, row);
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
        return tr("Method/Id");
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
