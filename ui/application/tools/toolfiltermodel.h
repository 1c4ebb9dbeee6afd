// SPDX-License-Identifier: MIT
#pragma once

#include <QSortFilterProxyModel>

namespace Sonde {

// The tool list as the user filters it: the search text (names, titles, descriptions), and
// the tools only an MCP App may call (visibility ["app"]) left out unless asked for, as a
// host that shows a model's tools leaves them out. Thread: GUI.
class ToolFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit ToolFilterModel(QObject *parent = nullptr);
    void setAppOnlyShown(bool shown);
    bool appOnlyShown() const { return m_appOnlyShown; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    bool m_appOnlyShown = false;
};

} // namespace Sonde
