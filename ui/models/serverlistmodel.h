// SPDX-License-Identifier: MIT
#pragma once

#include "serverstore.h"
#include "session/sessionsnapshot.h"

#include <QAbstractListModel>

namespace Sonde {

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
