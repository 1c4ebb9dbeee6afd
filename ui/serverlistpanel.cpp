// SPDX-License-Identifier: MIT
#include "serverlistpanel.h"

#include "serverlistmodel.h"

#include <QListView>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

ServerListPanel::ServerListPanel(ServerListModel *model, QWidget *parent)
    : QWidget(parent), m_model(model)
{
    auto *layout = new QVBoxLayout(this);
    m_list = new QListView(this);
    m_list->setObjectName(u"serverList"_s);
    m_list->setModel(model);
    m_list->setSpacing(2);
    layout->addWidget(m_list, 1);
    const std::pair<QString, void (ServerListPanel::*)()> buttons[] = {
        {tr("Add…"), &ServerListPanel::addRequested},
        {tr("Import…"), &ServerListPanel::importRequested},
        {tr("Edit…"), &ServerListPanel::editRequested},
        {tr("Remove"), &ServerListPanel::removeRequested},
    };
    for (const auto &[text, signal] : buttons) {
        auto *b = new QPushButton(text, this);
        layout->addWidget(b);
        connect(b, &QPushButton::clicked, this, signal);
    }
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex &i) {
                Q_EMIT currentServerChanged(i.data(ServerListModel::NameRole).toString());
            });
}

void ServerListPanel::setCurrentRow(int row)
{
    m_list->setCurrentIndex(m_model->index(row));
}

QString ServerListPanel::currentServer() const
{
    return m_list->currentIndex().data(ServerListModel::NameRole).toString();
}

} // namespace Sonde
