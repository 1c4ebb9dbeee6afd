// SPDX-License-Identifier: MIT
// Must NOT compile: sonde_models (ui/models) holds the item models the window shows and
// links Qt Gui, not Widgets, so every model is testable headless. The test
// "models_cannot_include_widgets" expects this build to fail.
#include "toollistmodel.h"
#include <QWidget>

int main()
{
    QWidget w;
    return w.width();
}
