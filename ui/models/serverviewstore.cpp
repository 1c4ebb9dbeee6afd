// SPDX-License-Identifier: MIT
#include "serverviewstore.h"

namespace Sonde {

ServerViewStore::ServerViewStore(QObject *parent) : QObject(parent)
{
}

void ServerViewStore::removeServer(const QString &server)
{
    m_entries.remove(server);
    m_pending.removeIf([&](const auto &it) { return it.value().server == server; });
}

bool ServerViewStore::holds(const QString &server) const
{
    return m_entries.contains(server) || pendingCount(server) > 0;
}

QStringList ServerViewStore::roots(const QString &server) const
{
    return m_entries.value(server).roots;
}

void ServerViewStore::setRoots(const QString &server, const QStringList &roots)
{
    entry(server).roots = roots;
}

QJsonArray ServerViewStore::tools(const QString &server) const
{
    return m_entries.value(server).tools;
}

void ServerViewStore::setTools(const QString &server, const QJsonArray &tools)
{
    entry(server).tools = tools;
    Q_EMIT toolsChanged(server);
}

int ServerViewStore::listsFetchedForGeneration(const QString &server) const
{
    return m_entries.value(server).listsFetchedForGeneration;
}

void ServerViewStore::setListsFetchedForGeneration(const QString &server, int generation)
{
    entry(server).listsFetchedForGeneration = generation;
}

QString ServerViewStore::selectedTool(const QString &server) const
{
    return m_entries.value(server).selectedTool;
}

void ServerViewStore::setSelectedTool(const QString &server, const QString &tool)
{
    entry(server).selectedTool = tool;
}

std::optional<QJsonObject> ServerViewStore::formValues(const QString &server,
                                                       const QString &tool) const
{
    const auto e = m_entries.constFind(server);
    if (e == m_entries.cend() || !e->formValues.contains(tool))
        return std::nullopt;
    return e->formValues.value(tool);
}

void ServerViewStore::setFormValues(const QString &server, const QString &tool,
                                    const QJsonObject &values)
{
    entry(server).formValues.insert(tool, values);
}

std::optional<CallOutcome> ServerViewStore::toolAnswer(const QString &server,
                                                       const QString &tool) const
{
    const auto e = m_entries.constFind(server);
    if (e == m_entries.cend() || !e->toolAnswers.contains(tool))
        return std::nullopt;
    return e->toolAnswers.value(tool);
}

void ServerViewStore::setToolAnswer(const QString &server, const QString &tool,
                                    const CallOutcome &outcome)
{
    entry(server).toolAnswers.insert(tool, outcome);
    Q_EMIT toolAnswerChanged(server, tool);
}

QJsonArray ServerViewStore::list(const QString &server, const QString &method) const
{
    const auto e = m_entries.constFind(server);
    return e == m_entries.cend() ? QJsonArray() : e->lists.value(method);
}

void ServerViewStore::setList(const QString &server, const QString &method, const QJsonArray &items)
{
    entry(server).lists.insert(method, items);
    Q_EMIT listChanged(server, method);
}

std::optional<CallOutcome> ServerViewStore::lastRead(const QString &server) const
{
    const auto e = m_entries.constFind(server);
    return e == m_entries.cend() ? std::nullopt : e->lastRead;
}

void ServerViewStore::setLastRead(const QString &server, const CallOutcome &outcome)
{
    entry(server).lastRead = outcome;
    Q_EMIT readChanged(server);
}

std::optional<CallOutcome> ServerViewStore::lastPrompt(const QString &server) const
{
    const auto e = m_entries.constFind(server);
    return e == m_entries.cend() ? std::nullopt : e->lastPrompt;
}

void ServerViewStore::setLastPrompt(const QString &server, const CallOutcome &outcome)
{
    entry(server).lastPrompt = outcome;
    Q_EMIT promptChanged(server);
}

QStringList ServerViewStore::stderrLines(const QString &server) const
{
    const auto e = m_entries.constFind(server);
    return e == m_entries.cend() ? QStringList() : e->stderrLines;
}

void ServerViewStore::appendStderr(const QString &server, const QString &line)
{
    QStringList &lines = entry(server).stderrLines;
    lines.append(line);
    if (lines.size() > MaxStderrLines)
        lines.removeFirst();
    Q_EMIT stderrAppended(server, line);
}

void ServerViewStore::addPending(quint64 ticket, const PendingCommand &command)
{
    m_pending.insert(ticket, command);
}

std::optional<PendingCommand> ServerViewStore::takePending(quint64 ticket)
{
    const auto it = m_pending.constFind(ticket);
    if (it == m_pending.cend())
        return std::nullopt;
    const PendingCommand command = it.value();
    m_pending.erase(it);
    return command;
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
