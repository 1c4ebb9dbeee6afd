// SPDX-License-Identifier: MIT
#pragma once

namespace Sonde::DarkPalette {

// A dark Fusion palette for the whole application, for desktops without a dark theme Qt
// can follow (`sonde --dark`, View → Dark mode). restore() puts back the style and palette
// that were there before apply(). Thread: GUI.
void apply();
void restore();
bool isApplied();

} // namespace Sonde::DarkPalette
