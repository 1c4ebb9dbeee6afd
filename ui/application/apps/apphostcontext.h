// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QSize>

class QPalette;

namespace Sonde::AppHostContext {

// What Sonde tells an App about where it is shown (apps.mdx HostContext): the theme and the
// spec's CSS variables taken from the window's palette (so a dark palette gives a dark App),
// inline display, the container's size, the locale, the time zone, a desktop with a mouse.
QJsonObject build(const QPalette &palette, QSize container);
// Only what changes when the palette does (theme and styles): host-context-changed's params.
QJsonObject themeOf(const QPalette &palette);
// {name, version}: Sonde's.
QJsonObject hostInfo();

} // namespace Sonde::AppHostContext
