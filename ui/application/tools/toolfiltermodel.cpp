// SPDX-License-Identifier: MIT
#include "application/tools/toolfiltermodel.h"

#include "application/tools/toollistmodel.h"

namespace Sonde {

ToolFilterModel::ToolFilterModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setFilterRole(ToolListModel::SearchRole);
}

void ToolFilterModel::setAppOnlyShown(bool shown)
{
    if (shown == m_appOnlyShown)
        return;
    m_appOnlyShown = shown;
    invalidateFilter();
}

bool ToolFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (!m_appOnlyShown &&
        sourceModel()->index(sourceRow, 0, sourceParent).data(ToolListModel::AppOnlyRole).toBool())
        return false;
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

} // namespace Sonde
