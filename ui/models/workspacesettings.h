// SPDX-License-Identifier: MIT
#pragma once

#include "config/workspace.h"

class QSettings;

namespace Sonde::WorkspaceSettings {

// Where the window keeps its Workspace: the keys Workspace names, in the front end's
// QSettings (the core never touches QSettings). Secret header values are never written: each
// is replaced by its reference (WorkspaceSecrets keeps the values). GUI thread.
void save(QSettings &settings, const Workspace &workspace);
// save() and then sync(): on disk at once, so a crash right after loses nothing. False
// when the settings could not be written (the status says why).
bool saveNow(QSettings &settings, const Workspace &workspace);
Workspace load(QSettings &settings, Error *error = nullptr);

} // namespace Sonde::WorkspaceSettings
