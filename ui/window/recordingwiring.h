// SPDX-License-Identifier: MIT
#pragma once

#include <functional>

class QSettings;
class QString;

namespace Sonde {

class HistoryRecorder;
class HistorySettingsDialog;

// What the History settings dialog tells the recorder. WindowApplication connects the
// window's dialog with it; the tests connect theirs with the same function, so what they
// check is what the window does. (The servers' masking is RunRecording::followServers.)
// Thread: GUI.
namespace RecordingWiring {

// The retention chosen in File → History settings… is stored in the workspace settings and
// applied by the recorder at once; `notice` says so when it could not be stored.
void connectRetention(HistorySettingsDialog *dialog, QSettings *settings, HistoryRecorder *recorder,
                      std::function<void(const QString &)> notice);

} // namespace RecordingWiring

} // namespace Sonde
