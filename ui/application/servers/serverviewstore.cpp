// SPDX-License-Identifier: MIT
#include "application/servers/serverviewstore.h"

#include "protocol/mcprequests.h"

namespace Sonde {

namespace {
template <typename K, typename T> std::optional<T> lookup(const QHash<K, T> &hash, const K &key)
{
    const auto it = hash.constFind(key);
    return it == hash.cend() ? std::nullopt : std::optional<T>(*it);
}
} // namespace

ServerViewStore::ServerViewStore(QObject *parent) : QObject(parent)
{
}

// Writes for a server that is not (or no longer) in the store are dropped: a removed
// server's session may still send what it had under way while it closes.
ServerViewStore::Entry *ServerViewStore::writable(const QString &server)
{
    const auto it = m_entries.find(server);
    return it == m_entries.end() ? nullptr : &*it;
}

const ServerViewStore::Entry *ServerViewStore::find(const QString &server) const
{
    const auto it = m_entries.constFind(server);
    return it == m_entries.cend() ? nullptr : &*it;
}

void ServerViewStore::removeServer(const QString &server)
{
    m_entries.remove(server);
    m_pending.removeIf([&](const auto &it) { return it.value().server == server; });
    m_stepUps.removeIf([this](const auto &it) { return !m_pending.contains(it.key()); });
}

bool ServerViewStore::holds(const QString &server) const
{
    return m_entries.contains(server) || pendingCount(server) > 0;
}

QStringList ServerViewStore::roots(const QString &server) const
{
    const Entry *e = find(server);
    return e ? e->roots : QStringList();
}

void ServerViewStore::addServer(const QString &server, const QStringList &roots)
{
    m_entries[server].roots = roots;
}

QJsonArray ServerViewStore::tools(const QString &server) const
{
    const Entry *e = find(server);
    return e ? e->tools : QJsonArray();
}

void ServerViewStore::setTools(const QString &server, const QJsonArray &tools)
{
    Entry *e = writable(server);
    if (!e)
        return;
    e->tools = tools;
    Q_EMIT toolsChanged(server);
}

int ServerViewStore::listsFetchedForGeneration(const QString &server) const
{
    const Entry *e = find(server);
    return e ? e->listsFetchedForGeneration : 0;
}

void ServerViewStore::setListsFetchedForGeneration(const QString &server, int generation)
{
    if (Entry *e = writable(server))
        e->listsFetchedForGeneration = generation;
}

QString ServerViewStore::selectedTool(const QString &server) const
{
    const Entry *e = find(server);
    return e ? e->selectedTool : QString();
}

void ServerViewStore::setSelectedTool(const QString &server, const QString &tool)
{
    if (Entry *e = writable(server))
        e->selectedTool = tool;
}

std::optional<QJsonObject> ServerViewStore::formValues(const QString &server,
                                                       const QString &tool) const
{
    const Entry *e = find(server);
    return e ? lookup(e->formValues, tool) : std::nullopt;
}

void ServerViewStore::setFormValues(const QString &server, const QString &tool,
                                    const QJsonObject &values)
{
    if (Entry *e = writable(server))
        e->formValues.insert(tool, values);
}

QHash<QString, bool> ServerViewStore::toolOverrides(const QString &server) const
{
    const Entry *e = find(server);
    return e ? e->toolOverrides : QHash<QString, bool>();
}

void ServerViewStore::setToolOverride(const QString &server, const QString &tool,
                                      std::optional<bool> readOnly)
{
    Entry *e = writable(server);
    if (e && readOnly)
        e->toolOverrides.insert(tool, *readOnly);
    else if (e)
        e->toolOverrides.remove(tool);
}

std::optional<CallOutcome> ServerViewStore::toolAnswer(const QString &server,
                                                       const QString &tool) const
{
    const Entry *e = find(server);
    return e ? lookup(e->toolAnswers, tool) : std::nullopt;
}

void ServerViewStore::setToolAnswer(const QString &server, const QString &tool,
                                    const CallOutcome &outcome)
{
    Entry *e = writable(server);
    if (!e)
        return;
    e->toolAnswers.insert(tool, outcome);
    e->toolAnswerNotes.remove(tool);
    Q_EMIT toolAnswerChanged(server, tool);
}

void ServerViewStore::removeToolAnswer(const QString &server, const QString &tool)
{
    Entry *e = writable(server);
    if (!e || !e->toolAnswers.remove(tool))
        return;
    e->toolAnswerNotes.remove(tool);
    e->toolStepUps.remove(tool);
    Q_EMIT toolAnswerChanged(server, tool);
}

QString ServerViewStore::toolAnswerNote(const QString &server, const QString &tool) const
{
    const Entry *e = find(server);
    return e ? e->toolAnswerNotes.value(tool) : QString();
}

void ServerViewStore::setToolAnswerNote(const QString &server, const QString &tool,
                                        const QString &note)
{
    Entry *e = writable(server);
    if (!e)
        return;
    e->toolAnswerNotes.insert(tool, note);
    Q_EMIT toolAnswerChanged(server, tool);
}

QString ServerViewStore::toolSearch(const QString &server) const
{
    const Entry *e = find(server);
    return e ? e->toolSearch : QString();
}

void ServerViewStore::setToolSearch(const QString &server, const QString &text)
{
    if (Entry *e = writable(server))
        e->toolSearch = text;
}

int ServerViewStore::explainedGeneration(const QString &server) const
{
    const Entry *e = find(server);
    return e ? e->explainedGeneration : 0;
}

void ServerViewStore::setExplainedGeneration(const QString &server, int generation)
{
    if (Entry *e = writable(server))
        e->explainedGeneration = generation;
}

QJsonArray ServerViewStore::list(const QString &server, const QString &method) const
{
    const Entry *e = find(server);
    return e ? e->lists.value(method) : QJsonArray();
}

void ServerViewStore::setList(const QString &server, const QString &method, const QJsonArray &items)
{
    Entry *e = writable(server);
    if (!e)
        return;
    e->lists.insert(method, items);
    Q_EMIT listChanged(server, method);
}

std::optional<CallOutcome> ServerViewStore::lastAnswer(const QString &server,
                                                       PendingCommand::Kind kind) const
{
    const Entry *e = find(server);
    if (!e || !e->lastAnswers.contains(kind))
        return std::nullopt;
    return e->lastAnswers.value(kind);
}

void ServerViewStore::setLastAnswer(const QString &server, PendingCommand::Kind kind,
                                    const CallOutcome &outcome)
{
    Entry *e = writable(server);
    if (!e)
        return;
    e->lastAnswers.insert(kind, outcome);
    Q_EMIT lastAnswerChanged(server, kind);
}

QStringList ServerViewStore::stderrLines(const QString &server) const
{
    const Entry *e = find(server);
    return e ? e->stderrLines : QStringList();
}

void ServerViewStore::appendStderr(const QString &server, const QString &line)
{
    Entry *e = writable(server);
    if (!e)
        return;
    QStringList &lines = e->stderrLines;
    lines.append(line);
    if (lines.size() > MaxStderrLines)
        lines.removeFirst();
    Q_EMIT stderrAppended(server, line);
}

void ServerViewStore::addPending(quint64 ticket, const PendingCommand &command)
{
    if (m_entries.contains(command.server))
        m_pending.insert(ticket, command);
}

std::optional<PendingCommand> ServerViewStore::takePending(quint64 ticket)
{
    const auto it = m_pending.constFind(ticket);
    if (it == m_pending.cend())
        return std::nullopt;
    const PendingCommand command = it.value();
    m_pending.erase(it);
    if (m_stepUps.remove(ticket))
        Q_EMIT stepUpChanged(command.server);
    return command;
}

std::optional<PendingCommand> ServerViewStore::settle(const CallOutcome &o)
{
    const std::optional<StepUpNote> stepUp = lookup(m_stepUps, o.ticket);
    std::optional<PendingCommand> pending = takePending(o.ticket);
    if (!pending)
        return pending;
    if (pending->kind == PendingCommand::Kind::ToolCall) {
        if (Entry *e = writable(o.server)) {
            if (stepUp)
                e->toolStepUps.insert(pending->name, *stepUp);
            else
                e->toolStepUps.remove(pending->name);
        }
    }
    using Kind = PendingCommand::Kind;
    const QJsonObject result = o.result.toObject();
    if (pending->kind == Kind::ToolList && o.ok())
        setTools(o.server, McpRequests::listItems(o.method, result));
    else if (pending->kind == Kind::List && o.ok())
        setList(o.server, o.method, McpRequests::listItems(o.method, result));
    else if (pending->kind == Kind::ToolCall)
        setToolAnswer(o.server, pending->name, o);
    else if (pending->kind == Kind::Read || pending->kind == Kind::PromptGet)
        setLastAnswer(o.server, pending->kind, o);
    return pending;
}

void ServerViewStore::setStepUp(quint64 ticket, const StepUpNote &note)
{
    const auto it = m_pending.constFind(ticket);
    if (it == m_pending.cend())
        return;
    m_stepUps.insert(ticket, note);
    Q_EMIT stepUpChanged(it->server);
}

std::optional<StepUpNote> ServerViewStore::pendingStepUp(const QString &server) const
{
    for (auto it = m_stepUps.cbegin(); it != m_stepUps.cend(); ++it)
        if (m_pending.value(it.key()).server == server)
            return it.value();
    return std::nullopt;
}

std::optional<StepUpNote> ServerViewStore::toolAnswerStepUp(const QString &server,
                                                            const QString &tool) const
{
    const Entry *e = find(server);
    return e ? lookup(e->toolStepUps, tool) : std::nullopt;
}

quint64 ServerViewStore::pendingToolCall() const
{
    for (auto it = m_pending.cbegin(); it != m_pending.cend(); ++it)
        if (it->kind == PendingCommand::Kind::ToolCall)
            return it.key();
    return 0;
}

int ServerViewStore::pendingCount(const QString &server) const
{
    return int(std::count_if(m_pending.cbegin(), m_pending.cend(),
                             [&](const PendingCommand &c) { return c.server == server; }));
}

} // namespace Sonde
