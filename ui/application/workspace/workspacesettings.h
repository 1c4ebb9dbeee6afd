// SPDX-License-Identifier: MIT
#pragma once

#include "application/history/historyretention.h"
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

// The history's retention (history/retention, history/retentionDays, history/retentionMiB),
// synced at once. What cannot be read (a mode this build does not know, a number out of
// range) keeps everything, and `error` says what was ignored: a setting that cannot be read
// must never delete history.
bool saveRetention(QSettings &settings, const HistoryRetention &retention);
HistoryRetention loadRetention(QSettings &settings, QString *error = nullptr);

} // namespace Sonde::WorkspaceSettings
