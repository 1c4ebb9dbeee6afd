// SPDX-License-Identifier: MIT
#include "application/doctor/doctorfindingmodel.h"

#include "application/doctor/doctorfindingstore.h"

#include <QFont>

using namespace Qt::StringLiterals;

namespace Sonde {

DoctorFindingModel::DoctorFindingModel(const DoctorFindingStore *store, QObject *parent)
    : QAbstractItemModel(parent), m_store(store)
{
    connect(store, &DoctorFindingStore::findingsAdded, this, &DoctorFindingModel::onAdded);
    connect(store, &DoctorFindingStore::findingsReset, this, [this](const QString &server) {
        if (server == m_server)
            rebuild();
    });
}

void DoctorFindingModel::setServer(const QString &server)
{
    if (server == m_server)
        return;
    m_server = server;
    rebuild();
}

void DoctorFindingModel::rebuild()
{
    beginResetModel();
    for (QList<int> &rows : m_rows)
        rows.clear();
    const QList<DoctorFinding> &findings = m_store->findings(m_server);
    for (int i = 0; i < findings.size(); ++i)
        m_rows[int(findings.at(i).severity)].append(i);
    endResetModel();
}

void DoctorFindingModel::onAdded(const QString &server, int first, int last)
{
    if (server != m_server)
        return;
    const QList<DoctorFinding> &findings = m_store->findings(m_server);
    QList<int> added[GroupCount];
    for (int i = first; i <= last; ++i)
        added[int(findings.at(i).severity)].append(i);
    for (int g = 0; g < GroupCount; ++g) {
        if (added[g].isEmpty())
            continue;
        const QModelIndex group = index(g, 0);
        const int at = int(m_rows[g].size());
        beginInsertRows(group, at, at + int(added[g].size()) - 1);
        m_rows[g].append(added[g]);
        endInsertRows();
        Q_EMIT dataChanged(group, group); // its count
    }
}

QModelIndex DoctorFindingModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, GroupId);
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex DoctorFindingModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == GroupId)
        return {};
    return createIndex(int(child.internalId() - 1), 0, GroupId);
}

int DoctorFindingModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return GroupCount;
    if (parent.internalId() != GroupId || parent.column() != 0)
        return 0;
    return int(m_rows[parent.row()].size());
}

int DoctorFindingModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QModelIndex DoctorFindingModel::groupIndex(DoctorSeverity severity) const
{
    return index(int(severity), 0);
}

const DoctorFinding *DoctorFindingModel::findingAt(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this || index.internalId() == GroupId)
        return nullptr;
    const QList<int> &rows = m_rows[index.internalId() - 1];
    if (index.row() >= rows.size())
        return nullptr;
    return &m_store->findings(m_server).at(rows.at(index.row()));
}

QColor DoctorFindingModel::severityColor(DoctorSeverity severity)
{
    switch (severity) {
    case DoctorSeverity::Error:
        return QColor(0xc6, 0x28, 0x28);
    case DoctorSeverity::Warning:
        return QColor(0xe6, 0x51, 0x00);
    case DoctorSeverity::Info:
        return QColor(0x19, 0x76, 0xd2);
    }
    return {};
}

QString DoctorFindingModel::groupTitle(DoctorSeverity severity)
{
    switch (severity) {
    case DoctorSeverity::Error:
        return tr("Errors");
    case DoctorSeverity::Warning:
        return tr("Warnings");
    case DoctorSeverity::Info:
        return tr("Information");
    }
    return {};
}

QString DoctorFindingModel::countText(DoctorSeverity severity, int count)
{
    switch (severity) {
    case DoctorSeverity::Error:
        return count == 1 ? tr("1 error") : tr("%1 errors").arg(count);
    case DoctorSeverity::Warning:
        return count == 1 ? tr("1 warning") : tr("%1 warnings").arg(count);
    case DoctorSeverity::Info:
        return tr("%1 info").arg(count);
    }
    return {};
}

QString DoctorFindingModel::checkTitle(const QString &checkId)
{
    const DoctorCheck *check = DoctorCatalog::find(checkId);
    return check ? check->title : checkId;
}

QVariant DoctorFindingModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == GroupId) {
        const auto severity = DoctorSeverity(index.row());
        const int count = int(m_rows[index.row()].size());
        switch (role) {
        case Qt::DisplayRole:
            return index.column() == Finding ? u"%1 (%2)"_s.arg(groupTitle(severity)).arg(count)
                                             : QVariant();
        case Qt::DecorationRole:
            return index.column() == Finding ? severityColor(severity) : QVariant();
        case Qt::FontRole: {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        case SeverityRole:
            return int(severity);
        case IsGroupRole:
            return true;
        default:
            return {};
        }
    }
    const DoctorFinding *f = findingAt(index);
    if (!f)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Finding:
            return checkTitle(f->checkId);
        case Check:
            return f->checkId;
        case From:
            return f->live ? tr("live") : tr("run");
        }
        return {};
    case Qt::ToolTipRole:
        return f->message;
    case FindingRole:
        return QVariant::fromValue(*f);
    case SeverityRole:
        return int(f->severity);
    case LiveRole:
        return f->live;
    case TranscriptIndexRole:
        return f->live ? f->evidence.transcriptIndex : -1;
    case IsGroupRole:
        return false;
    default:
        return {};
    }
}

QVariant DoctorFindingModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Finding:
        return tr("Finding");
    case Check:
        return tr("Check");
    case From:
        return tr("From");
    }
    return {};
}

} // namespace Sonde
