// SPDX-License-Identifier: MIT
#pragma once

#include "session/sessionsnapshot.h"
#include "transcript/transcriptevent.h"
#include "values/authvalues.h"
#include "values/callvalues.h"

#include <QJsonArray>
#include <QObject>

namespace Sonde {

// What the engine tells a front end, declared once: Engine emits these on the engine thread,
// and CoreHost, connected to each, emits them again on the caller's thread. Every one carries
// values (registered metatypes), so it crosses the threads queued. Never made on its own.
class EngineSignals : public QObject
{
    Q_OBJECT
protected:
    explicit EngineSignals(QObject *parent = nullptr) : QObject(parent) {}

Q_SIGNALS:
    void sessionChanged(const Sonde::SessionSnapshot &snapshot);
    void authChanged(const Sonde::AuthState &state);
    void callFinished(const Sonde::CallOutcome &outcome);
    void serverRequestReceived(const Sonde::ServerRequest &request);
    // Every notification that came since the last batch, in order; never empty.
    void notificationsReceived(const Sonde::ServerNotificationBatch &batch);
    void listRefreshed(const QString &server, const QString &method, const QJsonArray &items);
    void transcriptBatch(const Sonde::TranscriptBatch &batch);
    // Every session closed after shutdown().
    void shutdownFinished();
};

} // namespace Sonde
