// SPDX-License-Identifier: MIT
#include "toollistmodel.h"

#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace Sonde {

void ToolListModel::setTools(const QJsonArray &tools)
{
    beginResetModel();
    m_tools = tools;
    endResetModel();
}

void ToolListModel::setOverride(const QString &tool, std::optional<bool> readOnly)
{
    if (readOnly)
        m_policy.setOverride(tool, *readOnly);
    else
        m_policy.clearOverride(tool);
    for (qsizetype i = 0; i < m_tools.size(); ++i)
        if (m_tools.at(i).toObject().value("name"_L1).toString() == tool)
            Q_EMIT dataChanged(index(int(i)), index(int(i)));
}

void ToolListModel::setOverrides(const QHash<QString, bool> &overrides)
{
    m_policy = ReplayPolicy();
    for (auto it = overrides.cbegin(); it != overrides.cend(); ++it)
        m_policy.setOverride(it.key(), it.value());
    if (!m_tools.isEmpty())
        Q_EMIT dataChanged(index(0), index(int(m_tools.size()) - 1));
}

int ToolListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_tools.size());
}

QStringList ToolListModel::badges(const QJsonObject &tool)
{
    // The spec's defaults apply when a hint is absent: destructive and open-world are true.
    const QJsonObject a = tool.value("annotations"_L1).toObject();
    QStringList out;
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
    const QJsonObject t = m_tools.at(index.row()).toObject();
    const QString name = t.value("name"_L1).toString();
    switch (role) {
    case Qt::DisplayRole: {
        const QString title =
            t.value("title"_L1)
                .toString(t.value("annotations"_L1).toObject().value("title"_L1).toString());
        return title.isEmpty() || title == name ? name : u"%1 — %2"_s.arg(name, title);
    }
    case Qt::ToolTipRole: {
        const auto v = m_policy.verdict(u"tools/call"_s, name, t);
        return u"%1\n\n%2\nafter a lost session: %3 (%4)"_s.arg(
            t.value("description"_L1).toString(), badges(t).join(u", "_s),
            v.replay ? u"sent again"_s : u"outcome uncertain"_s,
            ReplayPolicy::sourceName(v.source));
    }
    case ToolRole:
        return t;
    case NameRole:
        return name;
    case BadgesRole:
        return badges(t);
    case VerdictRole:
        return m_policy.verdict(u"tools/call"_s, name, t).replay;
    case VerdictSourceRole:
        return ReplayPolicy::sourceName(m_policy.verdict(u"tools/call"_s, name, t).source);
    default:
        return {};
    }
}

} // namespace Sonde
