// SPDX-License-Identifier: MIT
#pragma once

#include "recovery/replaypolicy.h"

#include <QAbstractListModel>
#include <QJsonArray>

namespace Sonde {

// A server's tools with their annotation badges and the replay verdict after a session
// loss (read-only tools are sent again; others come back "outcome uncertain"), with the
// source of that verdict: server hint, user override or default. Thread: GUI.
class ToolListModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role
    {
        ToolRole = Qt::UserRole + 1,
        NameRole,
        BadgesRole,
        VerdictRole,
        VerdictSourceRole
    };
    using QAbstractListModel::QAbstractListModel;

    void setTools(const QJsonArray &tools);
    // true: the user says read-only; false: write-capable; nullopt: no override.
    void setOverride(const QString &tool, std::optional<bool> readOnly);
    // All of them at once (another server's): the ones not in `overrides` are cleared.
    void setOverrides(const QHash<QString, bool> &overrides);
    QJsonObject tool(int row) const { return m_tools.at(row).toObject(); }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    static QStringList badges(const QJsonObject &tool);

private:
    QJsonArray m_tools;
    ReplayPolicy m_policy;
};

} // namespace Sonde
