// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>
#include <QJsonArray>

namespace Sonde {

// A server's recovery history (sessions, classifications, reconnects, breaker transitions,
// faults) as a table: Time, Event, What (trigger, rule, cause), Generation (from -> to),
// Duration, Outcome. Fed with the snapshot's history array; appends are incremental.
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
        EventRole = Qt::UserRole + 1
    };
    using QAbstractTableModel::QAbstractTableModel;

    void setHistory(const QJsonArray &events);
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QJsonArray m_events;
};

} // namespace Sonde
