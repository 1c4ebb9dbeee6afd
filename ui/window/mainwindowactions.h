// SPDX-License-Identifier: MIT
#pragma once

#include "session/sessionsnapshot.h"

#include <QList>
#include <QObject>
#include <QPair>

class QAction;
class QActionGroup;
class QLabel;
class QMainWindow;
class QPushButton;
class QTabWidget;

namespace Sonde {

// The window's commands as QActions, each with its text, tooltip, shortcut (a standard key
// where there is one) and an object name "action:<name>" tests find it by. It owns them,
// enables them from the selected server's state, mirrors the Health tab's buttons into the
// Faults menu (a menu item clicks its button, so both do exactly the same and are disabled
// together), keeps the View menu's tab items in step with the tabs, and builds the menus
// and the toolbar. The window connects what each action does. Thread: GUI; owned by the
// window.
class MainWindowActions : public QObject
{
    Q_OBJECT
public:
    enum Id
    {
        Import,
        Export,
        RunCollection,
        Quit,
        Find,
        Add,
        Edit,
        Remove,
        MoveUp,
        MoveDown,
        Connect,
        Reconnect,
        Ping,
        Call,
        CancelCall,
        DarkMode,
        Shortcuts,
        About,
        OpenTranscript,
        HistorySettings,
        WrapConfig,
        IdCount
    };

    explicit MainWindowActions(QMainWindow *window);
    QAction *action(Id id) const { return m_actions.at(id); }

    // One Faults item per button, clicking it; enabled exactly when the button is.
    void mirrorButtons(const QList<QPair<QString, QPushButton *>> &buttons);
    // One checkable View item per tab, Alt+1..9, checked while its tab is current.
    void followTabs(QTabWidget *tabs);
    // The menu bar and the toolbar (connect/disconnect, reconnect, the server's state).
    void buildMenus();
    // What can be done on the selected server (`row` of `count`; null: none selected).
    // `proxied`: a client's session seen through sonde-cli proxy, which Sonde neither
    // configures nor connects: Edit, Connect, Reconnect and Ping are off.
    void setServer(const QString &name, const SessionSnapshot *snapshot, int row, int count,
                   bool proxied = false);

    // Every action with a shortcut, in menu order: what the shortcuts dialog lists.
    QList<QAction *> withShortcuts() const;

private:
    bool eventFilter(QObject *watched, QEvent *event) override;

    QMainWindow *m_window;
    QList<QAction *> m_actions;
    QList<QAction *> m_faults;
    QList<QAction *> m_tabActions;
    QActionGroup *m_tabGroup = nullptr;
    QLabel *m_state = nullptr;
};

} // namespace Sonde
