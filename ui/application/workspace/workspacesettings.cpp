// SPDX-License-Identifier: MIT
#include "application/workspace/workspacesettings.h"

#include "application/workspace/workspacesecrets.h"

#include <QSettings>

using namespace Qt::StringLiterals;

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

namespace {
const QString RetentionKey = u"history/retention"_s;
const QString RetentionDaysKey = u"history/retentionDays"_s;
const QString RetentionMiBKey = u"history/retentionMiB"_s;
} // namespace

bool saveRetention(QSettings &settings, const HistoryRetention &retention)
{
    settings.setValue(RetentionKey, HistoryRetention::modeName(retention.mode));
    settings.setValue(RetentionDaysKey, retention.days);
    settings.setValue(RetentionMiBKey, retention.mebibytes);
    settings.sync();
    return settings.status() == QSettings::NoError;
}

HistoryRetention loadRetention(QSettings &settings, QString *error)
{
    HistoryRetention r;
    const auto number = [&](const QString &key, int fallback, int max) {
        if (!settings.contains(key))
            return fallback;
        bool ok = false;
        const int n = settings.value(key).toInt(&ok);
        return ok && n >= 1 && n <= max ? n : -1;
    };
    r.days = number(RetentionDaysKey, r.days, HistoryRetention::MaxDays);
    r.mebibytes = number(RetentionMiBKey, r.mebibytes, HistoryRetention::MaxMebibytes);
    const QString name =
        settings.value(RetentionKey, HistoryRetention::modeName(r.mode)).toString();
    const std::optional<HistoryRetention::Mode> mode = HistoryRetention::modeFromName(name);
    QString why;
    if (!mode)
        why = u"the history retention \"%1\" is not forever, days or size"_s.arg(name);
    else if ((*mode == HistoryRetention::Mode::Days && r.days < 0) ||
             (*mode == HistoryRetention::Mode::Size && r.mebibytes < 0))
        why = u"the history retention's %1 is not a number from 1 to %2"_s.arg(
            *mode == HistoryRetention::Mode::Days ? RetentionDaysKey : RetentionMiBKey,
            QString::number(*mode == HistoryRetention::Mode::Days
                                ? HistoryRetention::MaxDays
                                : HistoryRetention::MaxMebibytes));
    r.days = r.days < 0 ? HistoryRetention().days : r.days;
    r.mebibytes = r.mebibytes < 0 ? HistoryRetention().mebibytes : r.mebibytes;
    r.mode = why.isEmpty() ? *mode : HistoryRetention::Mode::Forever;
    if (error)
        *error = why.isEmpty() ? QString() : why + u": everything is kept"_s;
    return r;
}

} // namespace Sonde::WorkspaceSettings
