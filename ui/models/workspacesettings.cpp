// SPDX-License-Identifier: MIT
#include "workspacesettings.h"

#include "workspacesecrets.h"

#include <QSettings>

namespace Sonde::WorkspaceSettings {

void save(QSettings &settings, const Workspace &workspace)
{
    // Never a secret header's value: its reference (the value is WorkspaceSecrets' to keep).
    const QVariantMap values = WorkspaceSecrets::withReferences(workspace).toValues();
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        settings.setValue(it.key(), it.value());
}

bool saveNow(QSettings &settings, const Workspace &workspace)
{
    save(settings, workspace);
    settings.sync();
    return settings.status() == QSettings::NoError;
}

Workspace load(QSettings &settings, Error *error)
{
    // Only the keys that are there: an absent one keeps the workspace's default.
    QVariantMap values;
    for (const QString &key : Workspace::keys())
        if (settings.contains(key))
            values.insert(key, settings.value(key));
    return Workspace::fromValues(values, error);
}

} // namespace Sonde::WorkspaceSettings
