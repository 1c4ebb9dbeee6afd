// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QAction;
class QListView;

namespace Sonde {

class ServerListModel;

// The workspace's servers in the user's order, each with its state dot (another colour
// while its breaker is open), and Add, Import, Edit and Remove (which asks first).
// Thread: GUI. It asks; the window adds, edits and removes.
class ServerListPanel : public QWidget
{
    Q_OBJECT
public:
    ServerListPanel(ServerListModel *model, QWidget *parent = nullptr);
    void setCurrentRow(int row);
    // The name of the server the list shows as current (empty when none).
    QString currentServer() const;
    // The list's context menu (the window's actions on the selected server).
    void addContextActions(const QList<QAction *> &actions);
    // Wide enough for the widest row (a long name, "· breaker open"), up to a third of a
    // 1280-wide screen: the window's splitter starts the list there, and a user may widen it.
    QSize sizeHint() const override;

Q_SIGNALS:
    void currentServerChanged(const QString &name);
    void addRequested();
    void importRequested();
    void editRequested();
    void removeRequested();

private:
    ServerListModel *m_model = nullptr;
    QListView *m_list = nullptr;
};

} // namespace Sonde
