// SPDX-License-Identifier: MIT
#include "window/darkpalette.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

using namespace Qt::StringLiterals;

namespace Sonde::DarkPalette {

namespace {
struct Saved
{
    bool applied = false;
    QString style;
    QPalette palette;
};
Saved &saved()
{
    static Saved s;
    return s;
}

QPalette dark()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::AlternateBase, QColor(0x33, 0x33, 0x33));
    p.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Button, QColor(0x3a, 0x3a, 0x3a));
    p.setColor(QPalette::ButtonText, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7a, 0xc6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3a, 0x3a));
    p.setColor(QPalette::ToolTipText, QColor(0xe0, 0xe0, 0xe0));
    // Links (the hint's "Show me", an App badge) keep the light palette's blue otherwise,
    // which is unreadable on these dark backgrounds.
    p.setColor(QPalette::Link, QColor(0x8a, 0xb4, 0xf8));
    p.setColor(QPalette::LinkVisited, QColor(0xc5, 0x8a, 0xf9));
    // setColor(role, ...) sets every group alike, so a disabled button kept the enabled
    // text colour and looked clickable. Disabled text is dimmed towards its background
    // (a contrast of about 2 against the button, against 8 enabled) and the faces flatten.
    const QColor dimText(0x78, 0x78, 0x78);
    for (const QPalette::ColorRole role :
         {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::BrightText})
        p.setColor(QPalette::Disabled, role, dimText);
    p.setColor(QPalette::Disabled, QPalette::Button, QColor(0x33, 0x33, 0x33));
    p.setColor(QPalette::Disabled, QPalette::Base, QColor(0x26, 0x26, 0x26));
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x50, 0x50, 0x50));
    p.setColor(QPalette::Disabled, QPalette::HighlightedText, QColor(0xa0, 0xa0, 0xa0));
    p.setColor(QPalette::Disabled, QPalette::PlaceholderText, QColor(0x60, 0x60, 0x60));
    p.setColor(QPalette::Disabled, QPalette::Light, QColor(0x3a, 0x3a, 0x3a));
    return p;
}
} // namespace

void apply()
{
    Saved &s = saved();
    if (!s.applied) {
        s.style = QApplication::style()->name();
        s.palette = QApplication::palette();
        s.applied = true;
    }
    QApplication::setStyle(u"Fusion"_s);
    QApplication::setPalette(dark());
}

void restore()
{
    Saved &s = saved();
    if (!s.applied)
        return;
    s.applied = false;
    QApplication::setStyle(s.style);
    QApplication::setPalette(s.palette);
}

bool isApplied()
{
    return saved().applied;
}

} // namespace Sonde::DarkPalette
