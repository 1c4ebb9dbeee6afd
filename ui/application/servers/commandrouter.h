// SPDX-License-Identifier: MIT
#pragma once

#include "application/servers/serverviewstore.h"
#include "session/sessionsnapshot.h"
#include "transcript/transcriptevent.h"
#include "values/callvalues.h"

#include <QJsonObject>
#include <QObject>
#include <QStringList>

namespace Sonde {

class CoreHost;
class ServerRegistry;

// What the user asks of a server, out to the core with a ticket, and what comes back, into
// the registry's stores: each ticket's PendingCommand says where its answer goes (a tool's
// answer, a list, a completion, a command's status line). It also keeps the stores current
// from the host's other signals: snapshots (and the lists a new generation needs), refreshed
// lists, sign-in state, stderr, a stream being resumed under a call, a call refused for more
// scope. The window shows what it announces; nothing here knows a widget. Thread: GUI.
class CommandRouter : public QObject
{
    Q_OBJECT
public:
    CommandRouter(CoreHost &host, ServerRegistry *registry, QObject *parent = nullptr);

    // A request whose answer `kind` routes; `name` says what it is (a tool, a URI…).
    void send(const QString &server, PendingCommand::Kind kind, const QString &name,
              const QString &method, const QJsonObject &params = {});
    // A host command already sent (reconnect, breaker, fault): its ticket, said as `what`.
    void command(const QString &server, quint64 ticket, const QString &what);
    // One tool call at a time: false (nothing sent) while one is in flight.
    bool callTool(const QString &server, const QString &tool, const QJsonObject &args);
    void cancelCall();
    // Sign in, refresh, sign out: the answer settles in the auth store.
    void requestAuth(const QString &server, AuthAction action);

Q_SIGNALS:
    // A snapshot is in the server store.
    void sessionChanged(const Sonde::SessionSnapshot &s);
    void toolCallFinished(const Sonde::CallOutcome &o);
    // The values a completion/complete offered for `argument` (kind: which panel asked).
    void completionReady(const QString &server, Sonde::PendingCommand::Kind kind,
                         const QString &argument, const QStringList &values);
    // The running tool call's progress, and a note on its broken stream being resumed.
    void toolProgress(const QString &server, double progress, double total, const QString &message);
    void toolStreamNote(const QString &server, const QString &note);
    // A session of `server` became ready (its row joins the history once written).
    void sessionStarted(const QString &server);
    // Any notification but a call's progress (the log, a resource's update).
    void notification(const Sonde::ServerNotification &n);
    // A line for the status bar: a command done or failed, a call answered, a sign-in step.
    void status(const QString &text);

private:
    void onSessionChanged(const SessionSnapshot &s);
    void onCallFinished(const CallOutcome &o);
    void onNotification(const ServerNotification &n);
    void onTranscript(const TranscriptBatch &batch);
    void fetchLists(const SessionSnapshot &s);

    CoreHost &m_host;
    ServerRegistry *m_registry = nullptr;
};

} // namespace Sonde
