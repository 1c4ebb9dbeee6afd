// SPDX-License-Identifier: MIT
#include "darkpalette.h"

#include <QApplication>
#include <QStyle>

namespace Sonde {

QPalette DarkPalette::palette()
{
    const QColor window(0x2b, 0x2b, 0x2b);
    const QColor base(0x1e, 0x1e, 0x1e);
    const QColor button(0x35, 0x35, 0x35);
    const QColor text(0xe8, 0xe8, 0xe8);
    const QColor disabledText(0x7a, 0x7a, 0x7a);
    const QColor highlight(0x2f, 0x6f, 0xb5);

    QPalette p;
    for (const QPalette::ColorGroup g : {QPalette::Active, QPalette::Inactive}) {
        p.setColor(g, QPalette::Window, window);
        p.setColor(g, QPalette::WindowText, text);
        p.setColor(g, QPalette::Base, base);
        p.setColor(g, QPalette::AlternateBase, window);
        p.setColor(g, QPalette::Text, text);
        p.setColor(g, QPalette::Button, button);
        p.setColor(g, QPalette::ButtonText, text);
        p.setColor(g, QPalette::BrightText, QColor(0xff, 0x6e, 0x6e));
        p.setColor(g, QPalette::Highlight, highlight);
        p.setColor(g, QPalette::HighlightedText, Qt::white);
        p.setColor(g, QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
        p.setColor(g, QPalette::ToolTipBase, QColor(0x3c, 0x3c, 0x3c));
        p.setColor(g, QPalette::ToolTipText, text);
        p.setColor(g, QPalette::Link, QColor(0x6c, 0xb4, 0xff));
        p.setColor(g, QPalette::LinkVisited, QColor(0xb4, 0x8c, 0xff));
    }
    // Disabled: the same surfaces, dimmer text and a flatter button, so an inactive control
    // stands apart from an active one at a glance.
    p.setColor(QPalette::Inactive, QPalette::Highlight, highlight.darker(140));
    p.setColor(QPalette::Disabled, QPalette::Window, window);
    p.setColor(QPalette::Disabled, QPalette::Base, window);
    p.setColor(QPalette::Disabled, QPalette::AlternateBase, window);
    p.setColor(QPalette::Disabled, QPalette::Button, window);
    p.setColor(QPalette::Disabled, QPalette::WindowText, disabledText);
    p.setColor(QPalette::Disabled, QPalette::Text, disabledText);
    p.setColor(QPalette::Disabled, QPalette::ButtonText, disabledText);
    p.setColor(QPalette::Disabled, QPalette::PlaceholderText, disabledText.darker(130));
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x50, 0x50, 0x50));
    p.setColor(QPalette::Disabled, QPalette::HighlightedText, disabledText);
    p.setColor(QPalette::Disabled, QPalette::Light, window.lighter(120));
    p.setColor(QPalette::Disabled, QPalette::Shadow, Qt::black);
    return p;
}

void DarkPalette::apply(bool dark)
{
    QApplication::setPalette(dark ? palette() : QApplication::style()->standardPalette());
}

bool DarkPalette::isDark(const QPalette &p)
{
    return p.color(QPalette::Window).lightness() < p.color(QPalette::WindowText).lightness();
}

} // namespace Sonde
