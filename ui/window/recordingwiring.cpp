// SPDX-License-Identifier: MIT
#include "window/recordingwiring.h"

#include "application/servers/serverstore.h"
#include "application/workspace/workspacesettings.h"
#include "history/historysettingsdialog.h"
#include "historyrecorder.h"

#include <QSettings>

namespace Sonde {

void RecordingWiring::connectServers(ServerStore *servers, HistoryRecorder *recorder)
{
    for (const auto signal : {&ServerStore::serverAdded, &ServerStore::serverChanged})
        QObject::connect(servers, signal, recorder, [servers, recorder](int row) {
            const ServerConfig &c = servers->config(row);
            recorder->addSecrets(c);
            recorder->setPayloadsRecorded(c.name, c.recordPayloads);
        });
}

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
