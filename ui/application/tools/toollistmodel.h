// SPDX-License-Identifier: MIT
#pragma once

#include "recovery/replaypolicy.h"

#include <QAbstractListModel>
#include <QJsonArray>

namespace Sonde {

// A server's tools with their annotation badges and the replay verdict after a session
// loss (read-only tools are sent again; others come back "outcome uncertain"), with the
// source of that verdict: server hint, user override or default. A row shows the tool's
// title ("title", else "annotations.title", else the name) with the name under it; the texts
// are worked out once per tools/list, so a list of a thousand tools is not re-read on every
// paint, filter or switch. A tool with an MCP App page (the ui:// resource in its _meta) is
// badged "App". Thread: GUI.
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
        VerdictSourceRole,
        TitleRole, // what DisplayRole shows: the title, else the name
        DescriptionRole,
        SearchRole,      // name, title and description: what the search box matches
        AppResourceRole, // the ui:// page of an MCP App tool; empty for any other tool
        AppOnlyRole      // true for a tool only its server's App may call (visibility ["app"])
    };
    using QAbstractListModel::QAbstractListModel;

    // The same list again (a refetch after a reconnect, switching back to a server) changes
    // nothing: no reset, so the view keeps its selection and scroll position.
    void setTools(const QJsonArray &tools);
    // How many of the tools only their server's App may call (AppOnlyRole).
    int appOnlyCount() const { return m_appOnly; }
    // true: the user says read-only; false: write-capable; nullopt: no override.
    void setOverride(const QString &tool, std::optional<bool> readOnly);
    // All of them at once (another server's): the ones not in `overrides` are cleared.
    void setOverrides(const QHash<QString, bool> &overrides);
    QJsonObject tool(int row) const { return m_rows.at(row).tool; }
    static QString title(const QJsonObject &tool);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    // "App" first for an MCP App tool, then what the annotations say.
    static QStringList badges(const QJsonObject &tool);
    // The ui:// resource an MCP App host shows for the tool: _meta.ui.resourceUri, or the
    // flat "ui/resourceUri" key of the extension's first drafts (deprecated, still sent).
    // Empty when it names none, or names something that is not a ui:// URI.
    static QString appResourceUri(const QJsonObject &tool);

private:
    struct Row
    {
        QJsonObject tool;
        QString name;
        QString title;
        QString description;
        QString search;
        QString appUri;
        bool appOnly = false;
    };
    QJsonArray m_tools;
    QList<Row> m_rows;
    int m_appOnly = 0;
    ReplayPolicy m_policy;
};

} // namespace Sonde
