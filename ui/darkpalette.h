// SPDX-License-Identifier: MIT
#pragma once

#include <QPalette>

namespace Sonde {

// The window's dark palette (View → Dark mode). Every colour group is set: a palette built
// with setColor(role, colour) gives the disabled group the same colours as the active one,
// and disabled buttons then look enabled. Disabled text here is a mid grey on the same
// background, readable but plainly inactive. Meant for the Fusion style, which paints from
// the palette alone. Thread: GUI.
class DarkPalette
{
public:
    static QPalette palette();
    // Sets the application's palette: this one, or the style's standard (light) one.
    static void apply(bool dark);
    // Whether `palette` has light text on a dark window: what the highlighters ask.
    static bool isDark(const QPalette &palette);
};

} // namespace Sonde
