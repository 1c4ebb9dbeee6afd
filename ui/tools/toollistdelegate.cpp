// SPDX-License-Identifier: MIT
#include "tools/toollistdelegate.h"

#include "application/tools/toollistmodel.h"

#include <QApplication>
#include <QPainter>

namespace Sonde {

namespace {

QFont titleFont(QFont font)
{
    font.setBold(true);
    return font;
}

// The second line: the name under a title, or the description under a bare name.
QString secondLine(const QModelIndex &index)
{
    const QString name = index.data(ToolListModel::NameRole).toString();
    if (index.data(ToolListModel::TitleRole).toString() != name)
        return name;
    return index.data(ToolListModel::DescriptionRole).toString().section(u'\n', 0, 0);
}

// Smaller than the row's text, so the badge reads as a mark and not as part of the title.
QFont badgeFont(QFont font)
{
    font.setPointSizeF(font.pointSizeF() * 0.85);
    return font;
}

QString appBadgeText()
{
    return ToolListDelegate::tr("App");
}

} // namespace

QSize ToolListDelegate::appBadgeSize(const QFont &font)
{
    const QFontMetrics metrics(badgeFont(font));
    return {metrics.horizontalAdvance(appBadgeText()) + 2 * Margin, metrics.height()};
}

void ToolListDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                             const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear(); // the frame, selection and focus from the style; the text drawn here
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const QRect text = option.rect.adjusted(Margin, Margin, -Margin, -Margin);
    const QFont bold = titleFont(option.font);
    const QFontMetrics titleMetrics(bold);
    const bool selected = option.state & QStyle::State_Selected;
    const QPalette::ColorGroup group =
        option.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled;
    painter->save();
    painter->setFont(bold);
    painter->setPen(
        option.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text));
    const QString title = index.data(ToolListModel::TitleRole).toString();
    int titleWidth = text.width();
    if (!index.data(ToolListModel::AppResourceRole).toString().isEmpty()) {
        // At the line's end, so a long title is elided before it and never hides it.
        const QSize size = appBadgeSize(option.font);
        const QRect badge(text.right() - size.width() + 1,
                          text.top() + (titleMetrics.height() - size.height()) / 2, size.width(),
                          size.height());
        titleWidth -= size.width() + Margin;
        const QColor ink =
            option.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Link);
        painter->setPen(ink);
        painter->setRenderHint(QPainter::Antialiasing);
        painter->drawRoundedRect(QRectF(badge).adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
        painter->setFont(badgeFont(option.font));
        painter->drawText(badge, Qt::AlignCenter, appBadgeText());
        painter->setFont(bold);
        painter->setPen(
            option.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text));
    }
    painter->drawText(QRect(text.left(), text.top(), titleWidth, titleMetrics.height()),
                      Qt::AlignLeft | Qt::AlignVCenter,
                      titleMetrics.elidedText(title, Qt::ElideRight, titleWidth));
    painter->setFont(option.font);
    QColor dim = option.palette.color(group, selected ? QPalette::HighlightedText
                                                      : QPalette::PlaceholderText);
    painter->setPen(dim);
    const QFontMetrics metrics(option.font);
    painter->drawText(
        QRect(text.left(), text.top() + titleMetrics.height(), text.width(), metrics.height()),
        Qt::AlignLeft | Qt::AlignVCenter,
        metrics.elidedText(secondLine(index), Qt::ElideRight, text.width()));
    painter->restore();
}

QSize ToolListDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const int height =
        QFontMetrics(titleFont(option.font)).height() + QFontMetrics(option.font).height();
    return {widthHint(option.font, index), height + 2 * Margin};
}

int ToolListDelegate::widthHint(const QFont &font, const QModelIndex &index)
{
    // The description is not counted: it may be long, and the tooltip holds it whole.
    const QString name = index.data(ToolListModel::NameRole).toString();
    const QString title = index.data(ToolListModel::TitleRole).toString();
    int width = QFontMetrics(titleFont(font)).horizontalAdvance(title);
    if (!index.data(ToolListModel::AppResourceRole).toString().isEmpty())
        width += Margin + appBadgeSize(font).width();
    if (title != name)
        width = std::max(width, QFontMetrics(font).horizontalAdvance(name));
    return width + 2 * Margin;
}

} // namespace Sonde
