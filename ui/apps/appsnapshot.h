// SPDX-License-Identifier: MIT
#pragma once

#include "application/apps/appsnapshotoptions.h"
#include "session/sessionsnapshot.h"
#include "values/callvalues.h"

#include <QJsonArray>
#include <QObject>
#include <QTimer>

#include <memory>

namespace Sonde {

class AppLauncher;
class AppPane;
class CoreHost;

// `sonde app-snapshot`: connects, calls the tool, renders its App in the window's own AppPane
// (offscreen, at the asked size), waits until the App has been quiet for a moment after its
// result was delivered and painted (or the timeout), writes the PNG and prints one JSON line
// (docs/apps.md). finished() carries the exit status. Thread: GUI.
class AppSnapshot : public QObject
{
    Q_OBJECT
public:
    explicit AppSnapshot(AppSnapshotOptions options, QObject *parent = nullptr);
    ~AppSnapshot() override;
    void start();

Q_SIGNALS:
    void finished(int exitCode);

private:
    void onSession(const SessionSnapshot &s);
    void onCall(const CallOutcome &o);
    void settleSoon();
    void finish(int code, const QString &error);

    AppSnapshotOptions m_options;
    std::unique_ptr<CoreHost> m_host;
    AppLauncher *m_launcher = nullptr;
    std::unique_ptr<AppPane> m_pane;
    QTimer m_timeout;
    QTimer m_quiet;
    quint64 m_listTicket = 0;
    quint64 m_callTicket = 0;
    QJsonObject m_tool;
    QJsonArray m_tools;
    QString m_resource;
    bool m_started = false;
    bool m_painted = false;
    bool m_done = false;
};

} // namespace Sonde
