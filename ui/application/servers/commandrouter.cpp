// SPDX-License-Identifier: MIT
#include "application/servers/commandrouter.h"

#include "application/auth/authstatestore.h"
#include "application/auth/stepupnote.h"
#include "application/servers/serverregistry.h"
#include "application/servers/serverstore.h"
#include "application/tools/recoverytext.h"
#include "engine/corehost.h"
#include "protocol/mcprequests.h"

using namespace Qt::StringLiterals;

namespace Sonde {

using Kind = PendingCommand::Kind;

CommandRouter::CommandRouter(CoreHost &host, ServerRegistry *registry, QObject *parent)
    : QObject(parent), m_host(host), m_registry(registry)
{
    connect(&host, &CoreHost::sessionChanged, this, &CommandRouter::onSessionChanged);
    connect(&host, &CoreHost::callFinished, this, &CommandRouter::onCallFinished);
    connect(&host, &CoreHost::notificationsReceived, this,
            [this](const ServerNotificationBatch &batch) {
                for (const ServerNotification &n : batch)
                    onNotification(n);
            });
    connect(&host, &CoreHost::transcriptBatch, this, &CommandRouter::onTranscript);
    connect(&host, &CoreHost::authChanged, registry->auth(), &AuthStateStore::update);
    connect(&host, &CoreHost::listRefreshed, this,
            [this](const QString &server, const QString &method, const QJsonArray &items) {
                if (method == "tools/list"_L1)
                    m_registry->views()->setTools(server, items);
                else
                    m_registry->views()->setList(server, method, items);
            });
    connect(registry->auth(), &AuthStateStore::browserWanted, this, [this](const QString &server) {
        Q_EMIT status(tr("%1: sign in in the browser (Authorization tab)").arg(server));
    });
}

void CommandRouter::send(const QString &server, Kind kind, const QString &name,
                         const QString &method, const QJsonObject &params)
{
    m_registry->views()->addPending(m_host.call(server, method, params), {server, kind, name});
}

void CommandRouter::command(const QString &server, quint64 ticket, const QString &what)
{
    m_registry->views()->addPending(ticket, {server, Kind::Command, what});
}

bool CommandRouter::callTool(const QString &server, const QString &tool, const QJsonObject &args)
{
    if (server.isEmpty() || m_registry->views()->pendingToolCall())
        return false;
    send(server, Kind::ToolCall, tool, u"tools/call"_s, McpRequests::toolCall(tool, args));
    Q_EMIT status(tr("%1: calling %2…").arg(server, tool));
    return true;
}

void CommandRouter::cancelCall()
{
    if (const quint64 ticket = m_registry->views()->pendingToolCall())
        m_host.cancel(ticket, tr("cancelled by the user"));
}

void CommandRouter::requestAuth(const QString &server, AuthAction action)
{
    m_registry->auth()->addPending(m_host.auth(server, action), server, action);
    Q_EMIT status(tr("%1: %2…").arg(server, AuthStateStore::actionTitle(action)));
}

void CommandRouter::fetchLists(const SessionSnapshot &s)
{
    ServerViewStore *views = m_registry->views();
    views->setListsFetchedForGeneration(s.server, s.generation);
    for (const QString &method : McpRequests::listMethods(s.serverCapabilities))
        views->addPending(
            m_host.call(s.server, method),
            {s.server, method == "tools/list"_L1 ? Kind::ToolList : Kind::List, method});
}

void CommandRouter::onSessionChanged(const SessionSnapshot &s)
{
    m_registry->servers()->updateSnapshot(s);
    if (s.state == SessionSnapshot::State::Ready &&
        m_registry->views()->listsFetchedForGeneration(s.server) != s.generation &&
        s.serverCapabilities.contains("tools"_L1))
        fetchLists(s);
    Q_EMIT sessionChanged(s);
}

void CommandRouter::onCallFinished(const CallOutcome &o)
{
    AuthStateStore *auth = m_registry->auth();
    if (const std::optional<AuthAction> action = auth->settle(o)) {
        Q_EMIT status(o.ok() ? tr("%1: %2 done").arg(o.server, AuthStateStore::actionTitle(*action))
                             : tr("%1: %2").arg(o.server, auth->commandError(o.server)));
        return;
    }
    ServerViewStore *views = m_registry->views();
    const std::optional<PendingCommand> pending = views->settle(o);
    if (!pending)
        return;
    switch (pending->kind) {
    case Kind::ToolCall: {
        // A reconnect that happened before the call (the session expired and was noticed
        // outside any call) is told on the first answer of the generation it made: the answer
        // alone would look as if nothing had happened.
        if (o.generation > views->explainedGeneration(o.server)) {
            ServerStore *servers = m_registry->servers();
            if (const int row = servers->indexOf(o.server); row >= 0) {
                const QString note = RecoveryText::reconnectBefore(servers->snapshot(row), o);
                if (!note.isEmpty())
                    views->setToolAnswerNote(o.server, pending->name, note);
            }
            views->setExplainedGeneration(o.server, o.generation);
        }
        Q_EMIT toolCallFinished(o);
        Q_EMIT status(
            o.ok() ? tr("%1: answered in %2 ms").arg(o.server).arg(o.finishedMs - o.startedMs)
                   : tr("%1: %2").arg(o.server, o.error.message()));
        break;
    }
    case Kind::ResourceCompletion:
    case Kind::PromptCompletion:
        Q_EMIT completionReady(o.server, pending->kind, pending->name,
                               McpRequests::completionValues(o.result.toObject()));
        break;
    case Kind::Command:
        Q_EMIT status(o.ok() ? tr("%1 %2: done").arg(o.server, pending->name)
                             : tr("%1 %2: %3").arg(o.server, pending->name, o.error.message()));
        break;
    case Kind::ToolList:
    case Kind::List:
    case Kind::Read:
    case Kind::PromptGet:
        break; // settled into the view store, which the panels follow
    }
}

void CommandRouter::onNotification(const ServerNotification &n)
{
    if (n.method == "notifications/progress"_L1) {
        if (n.params.value("progressToken"_L1).toString() ==
            McpRequests::progressToken(m_registry->views()->pendingToolCall()))
            Q_EMIT toolProgress(n.server, n.params.value("progress"_L1).toDouble(),
                                n.params.value("total"_L1).toDouble(),
                                n.params.value("message"_L1).toString());
        return;
    }
    Q_EMIT notification(n);
}

void CommandRouter::onTranscript(const TranscriptBatch &batch)
{
    ServerViewStore *views = m_registry->views();
    const quint64 call = views->pendingToolCall();
    const QString callToken = call ? McpRequests::progressToken(call) : QString();
    for (const TranscriptEvent &e : batch) {
        if (e.direction == TranscriptEvent::Direction::Stderr)
            views->appendStderr(e.server, QString::fromUtf8(e.raw));
        if (e.kind == EventKind::Ready)
            Q_EMIT sessionStarted(e.server);
        if (!call)
            continue;
        // The running call's stream broke and is being resumed (or could not be): said while
        // the call waits, instead of a bar that stands still.
        if (const auto *resume = e.detailsAs<LifecycleDetails::StreamResume>();
            resume && resume->progressToken == callToken)
            Q_EMIT toolStreamNote(
                e.server,
                tr("stream dropped, resuming with Last-Event-ID %1…").arg(resume->lastEventId));
        else if (const auto *failed = e.detailsAs<LifecycleDetails::StreamResumeFailed>();
                 failed && failed->progressToken == callToken)
            Q_EMIT toolStreamNote(
                e.server, tr("stream dropped, and resuming it failed: %1").arg(failed->reason));
        // The call was refused at the door for more scope and waits for the user to sign in
        // with it: kept for its server, shown whenever that server is (ToolsPanel).
        else if (const auto *challenge = e.detailsAs<LifecycleDetails::AuthChallenge>();
                 challenge && challenge->progressToken == callToken) {
            if (const std::optional<StepUpNote> note = StepUpNote::fromChallenge(
                    *challenge, m_registry->auth()->state(e.server).scopes))
                views->setStepUp(call, *note);
        }
    }
}

} // namespace Sonde
