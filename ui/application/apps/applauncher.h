// SPDX-License-Identifier: MIT
#pragma once

#include "application/apps/appsession.h"

#include <QObject>

namespace Sonde {

class CoreHost;

// From a tool's answer to a running App, without a view: reads the ui:// resource the tool
// names, refuses it with the reason a user reads (no App, not ui://, the wrong type, a failed
// read), and otherwise hands over an AppSession for it. Thread: the CoreHost's.
class AppLauncher : public QObject
{
    Q_OBJECT
public:
    struct Request
    {
        QString server;
        QJsonObject tool;
        QJsonObject arguments;
        QJsonArray serverTools;
        QJsonArray resources; // resources/list, for the entry's _meta.ui (may be empty)
        QJsonObject hostInfo;
        QJsonObject hostContext;
    };

    explicit AppLauncher(CoreHost &host, QObject *parent = nullptr);
    // Reads the tool's App; ready() or refused() follows. A later open() drops an earlier
    // one still reading.
    void open(const Request &request);

Q_SIGNALS:
    // The caller owns `session` (deleteLater it).
    void ready(Sonde::AppSession *session);
    void refused(const QString &reason);

private:
    void onCallFinished(const CallOutcome &outcome);

    CoreHost &m_host;
    Request m_request;
    QString m_uri;
    quint64 m_ticket = 0;
};

} // namespace Sonde
