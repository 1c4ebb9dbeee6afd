// SPDX-License-Identifier: MIT
#include "servers/serverlistpanel.h"

#include "application/servers/serverlistmodel.h"

#include <QListView>
#include <QPushButton>
#include <QStyle>
#include <QStyleOptionViewItem>
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
    // Rows come and go, so the hint does; a row's state changes with every snapshot, and
    // measuring every row again for each would be GUI-thread work no splitter looks at.
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(model, signal, this, &QWidget::updateGeometry);
    connect(model, &QAbstractItemModel::modelReset, this, &QWidget::updateGeometry);
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

QSize ServerListPanel::sizeHint() const
{
    QSize hint = QWidget::sizeHint();
    QStyleOptionViewItem option;
    option.initFrom(m_list);
    int widest = 0;
    for (int row = 0; row < m_model->rowCount(); ++row)
        widest =
            std::max(widest, m_list->itemDelegate()->sizeHint(option, m_model->index(row)).width());
    const int chrome = 2 * (m_list->frameWidth() + m_list->spacing()) +
                       m_list->style()->pixelMetric(QStyle::PM_ScrollBarExtent) +
                       layout()->contentsMargins().left() + layout()->contentsMargins().right();
    hint.setWidth(std::clamp(widest + chrome, hint.width(), 420));
    return hint;
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
