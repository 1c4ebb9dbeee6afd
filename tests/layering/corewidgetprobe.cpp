// SPDX-License-Identifier: MIT
// Must NOT compile: core/ links only Qt Core and Network, so a widget header is out of
// reach for anything built like core. The test "core_cannot_include_widgets" expects this
// build to fail; if it ever succeeds, the layering has been broken.
#include "engine/corehost.h"
#include <QWidget>

int main()
{
    QWidget w;
    return w.width();
}
