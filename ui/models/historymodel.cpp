// SPDX-License-Identifier: MIT
#include "historymodel.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace Sonde {

void HistoryModel::setHistory(const QJsonArray &events)
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
    const QJsonObject e = m_events.at(index.row()).toObject();
    const QString type = e.value("type"_L1).toString();
    if (role == EventRole)
        return e;
    if (role == Qt::ForegroundRole) {
        const QString outcome = e.value("outcome"_L1).toString();
        if (outcome == "failed"_L1 ||
            (type == "breaker"_L1 && e.value("to"_L1).toString() == "open"_L1))
            return QBrush(QColor(0xc6, 0x28, 0x28));
        return {};
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Time:
        return QDateTime::fromMSecsSinceEpoch(e.value("t_ms"_L1).toInteger())
            .toString(u"HH:mm:ss.zzz"_s);
    case Event:
        return type;
    case What: {
        QStringList parts;
        for (const char *key : {"trigger", "rule", "detail", "cause", "kind", "method", "error"}) {
            const QString v = e.value(QLatin1StringView(key)).toString();
            if (!v.isEmpty())
                parts.append(v);
        }
        if (type == "breaker"_L1)
            parts.prepend(
                u"%1 → %2 (%3/%4)"_s.arg(e.value("from"_L1).toString(), e.value("to"_L1).toString())
                    .arg(e.value("strikes"_L1).toInt())
                    .arg(e.value("threshold"_L1).toInt()));
        return parts.join(u"; "_s);
    }
    case Generation: {
        if (e.contains("from_generation"_L1)) {
            const QJsonValue to = e.value("to_generation"_L1);
            return u"%1 → %2"_s.arg(e.value("from_generation"_L1).toInt())
                .arg(to.isDouble() ? QString::number(to.toInt()) : u"–"_s);
        }
        return e.contains("generation"_L1) ? QVariant(e.value("generation"_L1).toInt())
                                           : QVariant();
    }
    case Duration:
        return e.contains("duration_ms"_L1)
                   ? QVariant(u"%1 ms"_s.arg(e.value("duration_ms"_L1).toInteger()))
                   : QVariant();
    case Outcome:
        return e.value("outcome"_L1).toString();
    }
    return {};
}

} // namespace Sonde
