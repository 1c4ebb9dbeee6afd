// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractListModel>
#include <QJsonArray>
#include <QJsonObject>

namespace Sonde {

// A list of JSON objects (resources, resource templates, prompts) shown by one key, with the
// object itself under ObjectRole. Thread: GUI.
class JsonListModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role
    {
        ObjectRole = Qt::UserRole + 1
    };
    explicit JsonListModel(QString displayKey, QString toolTipKey = {}, QObject *parent = nullptr);
    void setItems(const QJsonArray &items);
    QJsonObject item(int row) const { return m_items.at(row).toObject(); }
    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;

private:
    QString m_displayKey;
    QString m_toolTipKey;
    QJsonArray m_items;
};

} // namespace Sonde
