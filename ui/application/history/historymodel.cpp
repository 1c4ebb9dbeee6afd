// SPDX-License-Identifier: MIT
#include "application/history/historymodel.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>

using namespace Qt::StringLiterals;

namespace Sonde {

void HistoryModel::setHistory(const QList<HistoryEvent> &events)
{
    // The snapshot carries the most recent events: extend when it continues what we show,
    // otherwise start over.
    const bool continues = !m_events.isEmpty() && events.size() >= m_events.size() &&
                           events.at(m_events.size() - 1) == m_events.last() &&
                           events.at(0) == m_events.first();
    if (continues) {
        if (events.size() == m_events.size())
            return;
        beginInsertRows({}, int(m_events.size()), int(events.size()) - 1);
        m_events = events;
        endInsertRows();
        return;
    }
    beginResetModel();
    m_events = events;
    endResetModel();
}

int HistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_events.size());
}

int HistoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const QStringList names = {u"Time"_s,       u"Event"_s,    u"What"_s,
                                      u"Generation"_s, u"Duration"_s, u"Outcome"_s};
    return names.value(section);
}

QVariant HistoryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const HistoryEvent &e = m_events.at(index.row());
    if (role == EventRole)
        return QVariant::fromValue(e);
    if (role == Qt::ForegroundRole) {
        if (e.outcome == ReconnectOutcome::Failed ||
            (e.kind == EventKind::Breaker && e.to == BreakerPhase::Open))
            return QBrush(QColor(0xc6, 0x28, 0x28));
        return {};
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Time:
        return QDateTime::fromMSecsSinceEpoch(e.timeMs).toString(u"HH:mm:ss.zzz"_s);
    case Event:
        return eventKindName(e.kind);
    case What: {
        QStringList parts;
        for (const std::optional<QString> *v :
             {&e.trigger, &e.rule, &e.detail, &e.cause, &e.fault, &e.method, &e.error}) {
            if (*v && !(*v)->isEmpty())
                parts.append(**v);
        }
        if (e.kind == EventKind::Breaker)
            parts.prepend(u"%1 → %2 (%3/%4)"_s
                              .arg(e.from ? breakerPhaseName(*e.from) : QString(),
                                   e.to ? breakerPhaseName(*e.to) : QString())
                              .arg(e.strikes.value_or(0))
                              .arg(e.threshold.value_or(0)));
        return parts.join(u"; "_s);
    }
    case Generation: {
        if (e.fromGeneration) {
            return u"%1 → %2"_s.arg(*e.fromGeneration)
                .arg(e.toGeneration ? QString::number(*e.toGeneration) : u"–"_s);
        }
        return e.generation ? QVariant(*e.generation) : QVariant();
    }
    case Duration:
        return e.durationMs ? QVariant(u"%1 ms"_s.arg(*e.durationMs)) : QVariant();
    case Outcome:
        return e.outcome ? reconnectOutcomeName(*e.outcome) : QString();
    }
    return {};
}

} // namespace Sonde
