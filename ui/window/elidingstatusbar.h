// SPDX-License-Identifier: MIT
#pragma once

#include <QStatusBar>

namespace Sonde {

// A status bar whose message, when wider than the bar, ends in "…" instead of being cut off
// mid-word, and whose tooltip then holds it whole. For messages only: it frames no widgets.
// GUI thread.
class ElidingStatusBar : public QStatusBar
{
    Q_OBJECT
public:
    explicit ElidingStatusBar(QWidget *parent = nullptr);
    // Whether the message shown now is cut to fit.
    bool isMessageElided() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    QRect messageRect() const;
    void updateToolTip();
};

} // namespace Sonde
