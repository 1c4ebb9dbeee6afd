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
    m_list->setAccessibleName(tr("Servers"));
    // Dragged into the order the user wants (also Server → Move up/down).
    m_list->setDragDropMode(QAbstractItemView::InternalMove);
    m_list->setDefaultDropAction(Qt::MoveAction);
    m_list->setDropIndicatorShown(true);
    layout->addWidget(m_list, 1);
    struct Button
    {
        QString text;
        QString tip;
        void (ServerListPanel::*signal)();
    };
    const Button buttons[] = {
        {tr("Add…"), tr("Add a stdio or HTTP server"), &ServerListPanel::addRequested},
        {tr("Import…"), tr("Add servers from an MCP configuration file"),
         &ServerListPanel::importRequested},
        {tr("Edit…"), tr("Change the selected server's settings"), &ServerListPanel::editRequested},
        {tr("Remove…"), tr("Remove the selected server (asks first)"),
         &ServerListPanel::removeRequested},
    };
    for (const auto &[text, tip, signal] : buttons) {
        auto *b = new QPushButton(text, this);
        b->setToolTip(tip);
        b->setAccessibleName(QString(text).remove(u'…'));
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

void ServerListPanel::addContextActions(const QList<QAction *> &actions)
{
    m_list->addActions(actions);
    m_list->setContextMenuPolicy(Qt::ActionsContextMenu);
}

QString ServerListPanel::currentServer() const
{
    return m_list->currentIndex().data(ServerListModel::NameRole).toString();
}

} // namespace Sonde
