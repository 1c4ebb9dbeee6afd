// SPDX-License-Identifier: MIT
// Must NOT build: the same widget, included through Qt's include root. That root is on
// core's path (Qt6::Core puts it there), so <QtWidgets/QWidget> compiles; what stops it is
// that core does not link Widgets. The test "core_cannot_reach_widgets_through_the_qt_root"
// expects the link of this program to fail on QWidget.
#include "engine/corehost.h"
#include <QtWidgets/QWidget>

int main()
{
    QWidget w;
    return w.width();
}
