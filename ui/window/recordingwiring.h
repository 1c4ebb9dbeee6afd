// SPDX-License-Identifier: MIT
#pragma once

#include <functional>

class QSettings;
class QString;

namespace Sonde {

class HistoryRecorder;
class HistorySettingsDialog;
class ServerStore;

// What a window tells the recorder of its run. app/sonde/main.cpp connects the window's
// server store and its History settings dialog with these; the tests connect theirs with the
// same functions, so what they check is what the window does. Thread: GUI.
namespace RecordingWiring {

// Each server's configured secrets (env values, secret headers) are masked before they reach
// the disk, and its "Record payloads in the history" switch holds: on add and on every edit.
void connectServers(ServerStore *servers, HistoryRecorder *recorder);

// The retention chosen in File → History settings… is stored in the workspace settings and
// applied by the recorder at once; `notice` says so when it could not be stored.
void connectRetention(HistorySettingsDialog *dialog, QSettings *settings, HistoryRecorder *recorder,
                      std::function<void(const QString &)> notice);

} // namespace RecordingWiring

} // namespace Sonde
