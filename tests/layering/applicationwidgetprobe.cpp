// SPDX-License-Identifier: MIT
// Must NOT compile: sonde_application (ui/application) holds the stores and item models the
// window shows and links Qt Gui, not Widgets, so every model is testable headless. The test
// "application_cannot_include_widgets" expects this build to fail.
#include "application/tools/toollistmodel.h"
#include <QWidget>

int main()
{
    QWidget w;
    return w.width();
}
