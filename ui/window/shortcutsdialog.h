// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

class QAction;

namespace Sonde {

// Help → Keyboard shortcuts: a table of every given action's text and shortcut, read from
// the actions themselves, so it cannot disagree with what the keys do. Thread: GUI.
// Opened with open(), deletes itself when closed.
class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    ShortcutsDialog(const QList<QAction *> &actions, QWidget *parent = nullptr);
};

} // namespace Sonde
