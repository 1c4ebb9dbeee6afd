// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "session/sessionsnapshot.h"

#include <QAbstractListModel>
#include <QList>

namespace Sonde {

// The workspace's servers: each one's configuration and its latest session snapshot, in the
// order they were added. A store, not a view: the window and the list model read it.
// Thread: the GUI thread; owned by the window. Emits row-level signals the model forwards.
class ServerStore : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    int size() const { return int(m_rows.size()); }
    int indexOf(const QString &name) const;
    const ServerConfig &config(int row) const { return m_rows.at(row).config; }
    const SessionSnapshot &snapshot(int row) const { return m_rows.at(row).snapshot; }
    QStringList names() const;

    // Adds or replaces a server's configuration.
    void addServer(const ServerConfig &config);
    void removeServer(const QString &name);
    void updateSnapshot(const SessionSnapshot &snapshot);

Q_SIGNALS:
    void serverAboutToBeAdded(int row);
    void serverAdded(int row);
    void serverAboutToBeRemoved(int row);
    void serverRemoved(int row);
    void serverChanged(int row);

private:
    struct Row
    {
        ServerConfig config;
        SessionSnapshot snapshot;
    };
    QList<Row> m_rows;
};

// One row per server: name, live state, transport, generation and breaker. Thread: GUI.
class ServerListModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role
    {
        NameRole = Qt::UserRole + 1,
        StateRole,
        TransportRole,
        GenerationRole,
        BreakerRole,
        SnapshotRole
    };
    explicit ServerListModel(ServerStore *store, QObject *parent = nullptr);
    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    // The colour of a session state, shared by the list's dots and the session panel.
    static QColor stateColor(SessionSnapshot::State state);

private:
    ServerStore *m_store;
};

} // namespace Sonde
