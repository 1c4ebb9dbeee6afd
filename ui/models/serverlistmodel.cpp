// SPDX-License-Identifier: MIT
#include "serverlistmodel.h"

#include <QColor>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace Sonde {

int ServerStore::indexOf(const QString &name) const
{
    for (qsizetype i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].config.name == name)
            return int(i);
    return -1;
}

QStringList ServerStore::names() const
{
    QStringList out;
    for (const Row &r : m_rows)
        out.append(r.config.name);
    return out;
}

void ServerStore::addServer(const ServerConfig &config)
{
    const int existing = indexOf(config.name);
    if (existing >= 0) {
        m_rows[existing].config = config;
        Q_EMIT serverChanged(existing);
        return;
    }
    const int row = size();
    Q_EMIT serverAboutToBeAdded(row);
    Row r;
    r.config = config;
    r.snapshot.server = config.name;
    r.snapshot.route = config.routeName();
    m_rows.append(r);
    Q_EMIT serverAdded(row);
}

void ServerStore::removeServer(const QString &name)
{
    const int row = indexOf(name);
    if (row < 0)
        return;
    Q_EMIT serverAboutToBeRemoved(row);
    m_rows.removeAt(row);
    Q_EMIT serverRemoved(row);
}

void ServerStore::updateSnapshot(const SessionSnapshot &snapshot)
{
    const int row = indexOf(snapshot.server);
    if (row < 0)
        return;
    m_rows[row].snapshot = snapshot;
    Q_EMIT serverChanged(row);
}

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
    const QJsonObject breaker = s.recovery.value("breaker"_L1).toObject();
    const bool reconnecting =
        s.recovery.value("reconnect"_L1).toObject().value("in_progress"_L1).toBool();
    const bool parked = s.recovery.value("reconnect"_L1).toObject().value("parked"_L1).toBool();
    const QString state = parked         ? u"parked"_s
                          : reconnecting ? u"reconnecting"_s
                                         : SessionSnapshot::stateName(s.state);
    switch (role) {
    case Qt::DisplayRole: {
        QString text = u"%1\n%2 · %3"_s.arg(m_store->config(index.row()).name, state, s.route);
        if (s.generation > 0)
            text += u" · gen %1"_s.arg(s.generation);
        const QString b = breaker.value("state"_L1).toString();
        if (!b.isEmpty() && b != "closed"_L1)
            text += u" · breaker %1"_s.arg(b);
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
        return breaker.value("state"_L1).toString(u"closed"_s);
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
