// SPDX-License-Identifier: MIT
#pragma once

#include "values/recoveryvalues.h"

#include <QAbstractTableModel>
#include <QList>

namespace Sonde {

// A server's recovery history (sessions, classifications, reconnects, breaker transitions,
// faults) as a table: Time, Event, What (trigger, rule, cause), Generation (from -> to),
// Duration, Outcome. Fed with the snapshot's history; appends are incremental.
// Thread: GUI.
class HistoryModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Time,
        Event,
        What,
        Generation,
        Duration,
        Outcome,
        ColumnCount
    };
    enum Role
    {
        EventRole = Qt::UserRole + 1 // the HistoryEvent (QVariant::fromValue)
    };
    using QAbstractTableModel::QAbstractTableModel;

    void setHistory(const QList<HistoryEvent> &events);
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QList<HistoryEvent> m_events;
};

} // namespace Sonde
