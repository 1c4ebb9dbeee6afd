// SPDX-License-Identifier: MIT
#include "window/recordingwiring.h"

#include "application/workspace/workspacesettings.h"
#include "history/historysettingsdialog.h"
#include "historyrecorder.h"

#include <QSettings>

namespace Sonde {

void RecordingWiring::connectRetention(HistorySettingsDialog *dialog, QSettings *settings,
                                       HistoryRecorder *recorder,
                                       std::function<void(const QString &)> notice)
{
    QObject::connect(dialog, &HistorySettingsDialog::retentionChosen, recorder,
                     [settings, recorder, notice](const HistoryRetention &r) {
                         if (!WorkspaceSettings::saveRetention(*settings, r) && notice)
                             notice(QStringLiteral("The history settings could not be saved"));
                         recorder->setRetention(r.policy());
                     });
}

} // namespace Sonde
