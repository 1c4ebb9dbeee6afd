// SPDX-License-Identifier: MIT
#pragma once

#include <QStyledItemDelegate>

namespace Sonde {

// Paints a tool as two lines: its title in bold, and its name under it in the dimmer text
// colour (a tool without a title shows its name once and its description under it). Every
// row is the same height, so the list can lay out a thousand tools without measuring each;
// widthHint() is what a row needs to show both lines whole. An MCP App tool has an "App" badge
// at the end of its title line. Thread: GUI.
class ToolListDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    // The width the row of `index` needs in `font` (title and name unelided).
    static int widthHint(const QFont &font, const QModelIndex &index);

private:
    static constexpr int Margin = 4;
    // The "App" badge's box for a row in `font`.
    static QSize appBadgeSize(const QFont &font);
};

} // namespace Sonde
