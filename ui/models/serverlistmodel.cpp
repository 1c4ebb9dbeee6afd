// SPDX-License-Identifier: MIT
#include "serverlistmodel.h"

#include <QColor>

using namespace Qt::StringLiterals;

namespace Sonde {

ServerListModel::ServerListModel(ServerStore *store, QObject *parent)
    : QAbstractListModel(parent), m_store(store)
{
    connect(store, &ServerStore::serverAboutToBeAdded, this,
            [this](int row) { beginInsertRows({}, row, row); });
    connect(store, &ServerStore::serverAdded, this, [this] { endInsertRows(); });
    connect(store, &ServerStore::serverAboutToBeRemoved, this,
            [this](int row) { beginRemoveRows({}, row, row); });
    connect(store, &ServerStore::serverRemoved, this, [this] { endRemoveRows(); });
    connect(store, &ServerStore::serverChanged, this,
            [this](int row) { Q_EMIT dataChanged(index(row), index(row)); });
}

int ServerListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_store->size();
}

QColor ServerListModel::stateColor(SessionSnapshot::State state)
{
    switch (state) {
    case SessionSnapshot::State::Ready:
        return QColor(0x2e, 0x7d, 0x32);
    case SessionSnapshot::State::Starting:
    case SessionSnapshot::State::Initializing:
    case SessionSnapshot::State::Closing:
        return QColor(0xf9, 0xa8, 0x25);
    case SessionSnapshot::State::Failed:
        return QColor(0xc6, 0x28, 0x28);
    case SessionSnapshot::State::Idle:
    case SessionSnapshot::State::Closed:
        return QColor(0x75, 0x75, 0x75);
    }
    return {};
}

QVariant ServerListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SessionSnapshot &s = m_store->snapshot(index.row());
    static const RecoveryState none;
    const RecoveryState &recovery = s.recovery ? *s.recovery : none;
    const QString state = recovery.reconnect.parked       ? u"parked"_s
                          : recovery.reconnect.inProgress ? u"reconnecting"_s
                                                          : SessionSnapshot::stateName(s.state);
    const QString breaker = breakerPhaseName(recovery.breaker.phase);
    switch (role) {
    case Qt::DisplayRole: {
        QString text = u"%1\n%2 · %3"_s.arg(m_store->config(index.row()).name, state, s.route);
        if (s.generation > 0)
            text += u" · gen %1"_s.arg(s.generation);
        if (recovery.breaker.phase != BreakerPhase::Closed)
            text += u" · breaker %1"_s.arg(breaker);
        return text;
    }
    case Qt::DecorationRole:
        return stateColor(s.state);
    case Qt::ToolTipRole:
        return m_store->config(index.row()).displayCommand();
    case NameRole:
        return m_store->config(index.row()).name;
    case StateRole:
        return state;
    case TransportRole:
        return s.route;
    case GenerationRole:
        return s.generation;
    case BreakerRole:
        return breaker;
    case SnapshotRole:
        return QVariant::fromValue(s);
    default:
        return {};
    }
}

QHash<int, QByteArray> ServerListModel::roleNames() const
{
    QHash<int, QByteArray> r = QAbstractListModel::roleNames();
    r.insert(NameRole, "name");
    r.insert(StateRole, "state");
    r.insert(TransportRole, "transport");
    r.insert(GenerationRole, "generation");
    r.insert(BreakerRole, "breaker");
    return r;
}

} // namespace Sonde
