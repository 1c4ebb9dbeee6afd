// SPDX-License-Identifier: MIT
#pragma once

#include "application/servers/serverstore.h"
#include "session/sessionsnapshot.h"

#include <QAbstractListModel>

namespace Sonde {

class DoctorFindingStore;

// One row per server: name, live state, transport, generation and breaker. An open breaker
// changes the row's dot and its tooltip names the cause, since a green "ready" dot on a
// server that refuses every call tells the wrong story. With the doctor's findings watched,
// a server that broke rules says how many beside its name ("demo · 1 error"; errors and
// warnings, information is no problem), so it shows without the Doctor tab open. Thread: GUI.
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
        BreakerCauseRole,
        SnapshotRole,
        EraRole,        // "initialize", "2026-07-28", or empty until decided
        DoctorCountRole // the doctor's errors and warnings on the server (int)
    };
    explicit ServerListModel(ServerStore *store, QObject *parent = nullptr);
    // Counts each server's doctor findings on its row from now on (not owned; it outlives
    // the model).
    void watchDoctor(const DoctorFindingStore *findings);
    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;
    // Dragging a row to another place in the list moves the server in the store (the user's
    // order, saved with the workspace). One row at a time, top level only.
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    Qt::DropActions supportedDropActions() const override { return Qt::MoveAction; }
    bool moveRows(const QModelIndex &sourceParent, int sourceRow, int count,
                  const QModelIndex &destinationParent, int destinationChild) override;

    // The colour of a session state, shared by the list's dots and the session panel.
    static QColor stateColor(SessionSnapshot::State state);
    // The dot of a server whose breaker is open (or half-open): refusing calls.
    static QColor breakerColor();
    // One line for the window's title and toolbar: "connected, generation 2",
    // "reconnecting", "parked", "closed"..., with ", breaker open" when it is.
    static QString summary(const SessionSnapshot &snapshot);
    // Why an open breaker is open: "tripped by hand (user)" or "after 3 consecutive
    // failures"; empty when it is not open. From the breaker's own state, not the history,
    // which keeps only its newest entries. The Tools tab's banner says the same.
    static QString breakerCause(const BreakerState &breaker);

private:
    // "1 error, 2 warnings": the doctor's problems on the server, for its row.
    QString doctorSummary(const QString &server) const;

    ServerStore *m_store;
    const DoctorFindingStore *m_doctor = nullptr;
};

} // namespace Sonde
