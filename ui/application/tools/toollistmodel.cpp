// SPDX-License-Identifier: MIT
#include "application/tools/toollistmodel.h"

#include "protocol/mcpapps.h"

#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace Sonde {

void ToolListModel::setTools(const QJsonArray &tools)
{
    if (tools == m_tools)
        return;
    beginResetModel();
    m_tools = tools;
    m_rows.clear();
    m_appOnly = 0;
    m_rows.reserve(tools.size());
    for (const QJsonValue &v : tools) {
        Row r;
        r.tool = v.toObject();
        r.name = r.tool.value("name"_L1).toString();
        r.title = title(r.tool);
        r.description = r.tool.value("description"_L1).toString();
        r.search = r.name + u'\n' + r.title + u'\n' + r.description;
        r.appUri = appResourceUri(r.tool);
        r.appOnly = !McpApps::visibility(r.tool).model;
        m_appOnly += r.appOnly;
        m_rows.append(std::move(r));
    }
    endResetModel();
}

QString ToolListModel::title(const QJsonObject &tool)
{
    // The spec's order: the top-level title, then the annotations' (older servers), then the
    // name, which every tool has.
    for (const QString &t : {tool.value("title"_L1).toString(),
                             tool.value("annotations"_L1).toObject().value("title"_L1).toString()})
        if (!t.trimmed().isEmpty())
            return t;
    return tool.value("name"_L1).toString();
}

void ToolListModel::setOverride(const QString &tool, std::optional<bool> readOnly)
{
    if (readOnly)
        m_policy.setOverride(tool, *readOnly);
    else
        m_policy.clearOverride(tool);
    for (qsizetype i = 0; i < m_rows.size(); ++i)
        if (m_rows.at(i).name == tool)
            Q_EMIT dataChanged(index(int(i)), index(int(i)));
}

void ToolListModel::setOverrides(const QHash<QString, bool> &overrides)
{
    m_policy = ReplayPolicy();
    for (auto it = overrides.cbegin(); it != overrides.cend(); ++it)
        m_policy.setOverride(it.key(), it.value());
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0), index(int(m_rows.size()) - 1));
}

int ToolListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QString ToolListModel::appResourceUri(const QJsonObject &tool)
{
    return McpApps::resourceUri(tool).value_or(QString());
}

QStringList ToolListModel::badges(const QJsonObject &tool)
{
    // The spec's defaults apply when a hint is absent: destructive and open-world are true.
    const QJsonObject a = tool.value("annotations"_L1).toObject();
    QStringList out;
    if (!appResourceUri(tool).isEmpty())
        out.append(u"App"_s);
    if (a.value("readOnlyHint"_L1).toBool(false) && a.value("readOnlyHint"_L1).isBool())
        out.append(u"read-only"_s);
    else if (a.value("destructiveHint"_L1).toBool(true))
        out.append(u"destructive"_s);
    else
        out.append(u"write"_s); // changes state, but additively
    if (a.value("idempotentHint"_L1).toBool(false))
        out.append(u"idempotent"_s);
    if (a.value("openWorldHint"_L1).toBool(true))
        out.append(u"open-world"_s);
    return out;
}

QVariant ToolListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    const QJsonObject &t = row.tool;
    const QString &name = row.name;
    switch (role) {
    case Qt::DisplayRole:
    case TitleRole:
        return row.title;
    case DescriptionRole:
        return row.description;
    case SearchRole:
        return row.search;
    case Qt::ToolTipRole: {
        // The whole of what the row may have to elide: title, name and description.
        const auto v = m_policy.verdict(u"tools/call"_s, name, t);
        const QString head = row.title == name ? name : row.title + u'\n' + name;
        return u"%1\n\n%2\n\n%3\nafter a lost session: %4 (%5)"_s.arg(
            head, row.description, badges(t).join(u", "_s),
            v.replay ? u"sent again"_s : u"outcome uncertain"_s,
            ReplayPolicy::sourceName(v.source));
    }
    case ToolRole:
        return t;
    case NameRole:
        return name;
    case BadgesRole:
        return badges(t);
    case AppOnlyRole:
        return row.appOnly;
    case AppResourceRole:
        return row.appUri;
    case VerdictRole:
        return m_policy.verdict(u"tools/call"_s, name, t).replay;
    case VerdictSourceRole:
        return ReplayPolicy::sourceName(m_policy.verdict(u"tools/call"_s, name, t).source);
    default:
        return {};
    }
}

} // namespace Sonde
