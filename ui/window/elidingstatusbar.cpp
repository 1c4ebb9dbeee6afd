// SPDX-License-Identifier: MIT
#include "window/elidingstatusbar.h"

#include <QPainter>
#include <QStyle>

namespace Sonde {

ElidingStatusBar::ElidingStatusBar(QWidget *parent) : QStatusBar(parent)
{
    connect(this, &QStatusBar::messageChanged, this, &ElidingStatusBar::updateToolTip);
}

QRect ElidingStatusBar::messageRect() const
{
    // Where QStatusBar draws its message: inside the margins, short of the size grip.
    const int margin = style()->pixelMetric(QStyle::PM_LayoutLeftMargin, nullptr, this);
    const int grip = isSizeGripEnabled() ? height() : 0;
    return rect().adjusted(margin, 0, -margin - grip, 0);
}

bool ElidingStatusBar::isMessageElided() const
{
    const QString message = currentMessage();
    return !message.isEmpty() && fontMetrics().horizontalAdvance(message) > messageRect().width();
}

void ElidingStatusBar::paintEvent(QPaintEvent *event)
{
    const QString message = currentMessage();
    // Sonde adds no widgets to the bar (QStatusBar would frame them), so a message is all there
    // is to draw; without one QStatusBar draws what it draws.
    if (message.isEmpty()) {
        QStatusBar::paintEvent(event);
        return;
    }
    QPainter p(this);
    p.setPen(palette().windowText().color());
    const QRect r = messageRect();
    p.drawText(r, Qt::AlignLeading | Qt::AlignVCenter | Qt::TextSingleLine,
               fontMetrics().elidedText(message, Qt::ElideRight, r.width()));
}

void ElidingStatusBar::resizeEvent(QResizeEvent *event)
{
    QStatusBar::resizeEvent(event);
    updateToolTip();
}

void ElidingStatusBar::updateToolTip()
{
    setToolTip(isMessageElided() ? currentMessage() : QString());
}

} // namespace Sonde
