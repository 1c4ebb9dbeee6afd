// SPDX-License-Identifier: MIT
// Must NOT build: a widget in sonde_application through Qt's include root, which compiles
// (the root is on the path) but must not link, since sonde_application does not link Widgets.
// The test "application_cannot_reach_widgets_through_the_qt_root" expects the link to fail on
// QWidget.
#include "application/tools/toollistmodel.h"
#include <QtWidgets/QWidget>

int main()
{
    QWidget w;
    return w.width();
}
