// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace Sonde {

class AppViewFactory;

// Loads the App view plugin (and with it QtWebEngine) the first time an App is shown, never
// before: a window that shows none does not map Chromium. Thread: GUI.
namespace AppViewLoader {
// The factory; null with `error` saying which files were tried and why each failed.
AppViewFactory *factory(QString *error);
bool isLoaded();
} // namespace AppViewLoader

} // namespace Sonde
