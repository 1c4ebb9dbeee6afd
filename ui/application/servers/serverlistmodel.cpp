// SPDX-License-Identifier: MIT
#include "application/servers/serverlistmodel.h"

#include "application/doctor/doctorfindingmodel.h"
#include "application/doctor/doctorfindingstore.h"

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
    connect(store, &ServerStore::serverAboutToBeMoved, this, [this](int from, int to) {
        // Qt's destination is the row before which it goes, counted before the move.
        beginMoveRows({}, from, from, {}, to > from ? to + 1 : to);
    });
    connect(store, &ServerStore::serverMoved, this, [this] { endMoveRows(); });
    connect(store, &ServerStore::serverChanged, this,
            [this](int row) { Q_EMIT dataChanged(index(row), index(row)); });
}

void ServerListModel::watchDoctor(const DoctorFindingStore *findings)
{
    m_doctor = findings;
    connect(findings, &DoctorFindingStore::countsChanged, this, [this](const QString &server) {
        if (const int row = m_store->indexOf(server); row >= 0)
            Q_EMIT dataChanged(index(row), index(row));
    });
}

QString ServerListModel::doctorSummary(const QString &server) const
{
    QStringList parts;
    for (const DoctorSeverity severity : {DoctorSeverity::Error, DoctorSeverity::Warning})
        if (const int n = m_doctor->count(server, severity); n > 0)
            parts << DoctorFindingModel::countText(severity, n);
    return parts.join(u", "_s);
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

QColor ServerListModel::breakerColor()
{
    return QColor(0xe6, 0x51, 0x00);
}

namespace {
const RecoveryState &recoveryOf(const SessionSnapshot &s)
{
    static const RecoveryState none;
    return s.recovery ? *s.recovery : none;
}

QString stateText(const SessionSnapshot &s)
{
    const ReconnectState &reconnect = recoveryOf(s).reconnect;
    return reconnect.parked       ? u"parked"_s
           : reconnect.inProgress ? u"reconnecting"_s
                                  : SessionSnapshot::stateName(s.state);
}
} // namespace

QString ServerListModel::summary(const SessionSnapshot &s)
{
    const RecoveryState &recovery = recoveryOf(s);
    QString text = stateText(s);
    if (text == "ready"_L1 && s.sessionless)
        text = tr("connected over %1 (no session), generation %2")
                   .arg(s.protocolVersion.isEmpty() ? u"2026-07-28"_s : s.protocolVersion)
                   .arg(s.generation);
    else if (text == "ready"_L1)
        text = tr("connected, generation %1").arg(s.generation);
    if (recovery.breaker.phase != BreakerPhase::Closed)
        text += tr(", breaker %1").arg(enumName(recovery.breaker.phase));
    return text;
}

QString ServerListModel::breakerCause(const BreakerState &breaker)
{
    if (breaker.phase != BreakerPhase::Open)
        return {};
    return breaker.trippedBy ? tr("tripped by hand (%1)").arg(*breaker.trippedBy)
                             : tr("after %1 consecutive failures").arg(breaker.strikes);
}

QVariant ServerListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SessionSnapshot &s = m_store->snapshot(index.row());
    const RecoveryState &recovery = recoveryOf(s);
    const QString state = stateText(s);
    const bool breakerShut = recovery.breaker.phase == BreakerPhase::Closed;
    const QString breaker = enumName(recovery.breaker.phase);
    const QString name = m_store->config(index.row()).name;
    const int problems = m_doctor ? m_doctor->problemCount(name) : 0;
    const QString doctorText = problems > 0 ? doctorSummary(name) : QString();
    switch (role) {
    case Qt::DisplayRole: {
        // The doctor's count beside the name: the second line is the long one.
        QString text =
            u"%1%2\n%3 · %4"_s.arg(name, doctorText.isEmpty() ? QString() : u" · "_s + doctorText,
                                   state, ServerConfig::routeName(s.route));
        // The handshake is what most servers speak: only a newer revision is named.
        if (s.sessionless)
            text += u" · %1"_s.arg(s.eraName());
        if (s.generation > 0)
            text += u" · gen %1"_s.arg(s.generation);
        if (!breakerShut)
            text += u" · breaker %1"_s.arg(breaker);
        return text;
    }
    case Qt::DecorationRole:
        return breakerShut ? stateColor(s.state) : breakerColor();
    case Qt::ToolTipRole: {
        // The row's own words first: a narrow list cuts them.
        QString tip =
            data(index, Qt::DisplayRole).toString() + u"\n"_s +
            (m_store->isProxied(index.row()) ? s.routeReason
                                             : m_store->config(index.row()).displayCommand());
        if (s.era)
            tip += u"\n"_s + tr("Protocol era: %1").arg(s.eraName()) +
                   (s.eraReason.isEmpty() ? QString() : u" — "_s + s.eraReason);
        if (recovery.breaker.phase == BreakerPhase::Open) {
            tip += u"\n"_s + tr("The circuit breaker is open (%1): calls are refused unsent "
                                "(retry in %2 s).")
                                 .arg(breakerCause(recovery.breaker))
                                 .arg(recovery.breaker.retryInS);
        } else if (recovery.breaker.phase == BreakerPhase::HalfOpen) {
            tip += u"\n"_s + tr("The circuit breaker is half-open: one call probes the server.");
        }
        if (problems > 0)
            tip += u"\n"_s + tr("The doctor found %1 in what this server sent: see the Doctor tab.")
                                 .arg(doctorText);
        return tip;
    }
    case BreakerCauseRole:
        return breakerCause(recovery.breaker);
    case NameRole:
        return m_store->config(index.row()).name;
    case StateRole:
        return state;
    case TransportRole:
        return ServerConfig::routeName(s.route);
    case GenerationRole:
        return s.generation;
    case BreakerRole:
        return breaker;
    case SnapshotRole:
        return QVariant::fromValue(s);
    case EraRole:
        return s.eraName();
    case DoctorCountRole:
        return problems;
    default:
        return {};
    }
}

Qt::ItemFlags ServerListModel::flags(const QModelIndex &index) const
{
    // Drops land between rows (the invalid parent), never onto a server.
    if (!index.isValid())
        return Qt::ItemIsDropEnabled;
    return QAbstractListModel::flags(index) | Qt::ItemIsDragEnabled;
}

bool ServerListModel::moveRows(const QModelIndex &sourceParent, int sourceRow, int count,
                               const QModelIndex &destinationParent, int destinationChild)
{
    if (sourceParent.isValid() || destinationParent.isValid() || count != 1)
        return false;
    // Qt counts the destination before the move; the store, after it.
    const int to = destinationChild > sourceRow ? destinationChild - 1 : destinationChild;
    return m_store->moveServer(sourceRow, to);
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
