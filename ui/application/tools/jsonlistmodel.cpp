// SPDX-License-Identifier: MIT
#include "application/tools/jsonlistmodel.h"

#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace Sonde {

JsonListModel::JsonListModel(QString displayKey, QString toolTipKey, QObject *parent)
    : QAbstractListModel(parent), m_displayKey(std::move(displayKey)),
      m_toolTipKey(std::move(toolTipKey))
{
}

void JsonListModel::setItems(const QJsonArray &items)
{
    beginResetModel();
    m_items = items;
    endResetModel();
}

int JsonListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_items.size());
}

QVariant JsonListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QJsonObject o = m_items.at(index.row()).toObject();
    switch (role) {
    case Qt::DisplayRole: {
        const QString main = o.value(m_displayKey).toString();
        const QString name = o.value("name"_L1).toString();
        return name.isEmpty() || name == main ? main : u"%1 — %2"_s.arg(name, main);
    }
    case Qt::ToolTipRole:
        return o.value(m_toolTipKey.isEmpty() ? u"description"_s : m_toolTipKey).toString();
    case ObjectRole:
        return o;
    default:
        return {};
    }
}

} // namespace Sonde
