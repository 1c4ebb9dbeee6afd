// SPDX-License-Identifier: MIT
#include "window/shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

ShortcutsDialog::ShortcutsDialog(const QList<QAction *> &actions, QWidget *parent) : QDialog(parent)
{
    setObjectName(u"shortcutsDialog"_s);
    setWindowTitle(tr("Keyboard shortcuts"));
    setAttribute(Qt::WA_DeleteOnClose);
    auto *layout = new QVBoxLayout(this);
    auto *table = new QTableWidget(int(actions.size()), 2, this);
    table->setObjectName(u"shortcutsTable"_s);
    table->setAccessibleName(tr("Keyboard shortcuts"));
    table->setHorizontalHeaderLabels({tr("Action"), tr("Shortcut")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    for (int row = 0; row < actions.size(); ++row) {
        const QAction *a = actions.at(row);
        table->setItem(row, 0, new QTableWidgetItem(QString(a->text()).remove(u'&')));
        QStringList keys;
        for (const QKeySequence &k : a->shortcuts())
            keys.append(k.toString(QKeySequence::NativeText));
        // The first is the one the menu shows; others (a platform's alternatives) follow.
        auto *item = new QTableWidgetItem(keys.value(0));
        if (keys.size() > 1)
            item->setToolTip(keys.join(u", "_s));
        table->setItem(row, 1, item);
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(table);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->button(QDialogButtonBox::Close)->setAccessibleName(tr("Close"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    // Sized from its content, with a floor.
    resize(std::max(420, table->horizontalHeader()->length() + 60),
           std::min(640, table->verticalHeader()->length() + 120));
}

} // namespace Sonde
