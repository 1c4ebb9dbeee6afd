// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QListView;

namespace Sonde {

class ServerListModel;

// The workspace's servers, each with its state dot, and Add, Import, Edit and Remove.
// Thread: GUI. It asks; the window adds, edits and removes.
class ServerListPanel : public QWidget
{
    Q_OBJECT
public:
    ServerListPanel(ServerListModel *model, QWidget *parent = nullptr);
    void setCurrentRow(int row);
    // The name of the server the list shows as current (empty when none).
    QString currentServer() const;

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
