// SPDX-License-Identifier: MIT
#pragma once

#include "application/auth/stepupnote.h"
#include "values/callvalues.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QObject>
#include <QStringList>

#include <optional>

namespace Sonde {

// What the window asked a server for, kept by ticket until the answer comes: the answer is
// routed by its kind, and shown only where it belongs (its server, its tool).
struct PendingCommand
{
    enum class Kind
    {
        ToolList,           // tools/list, fetched when a generation is ready
        List,               // resources/list, resources/templates/list, prompts/list
        ToolCall,           // name: the tool
        Read,               // name: the URI
        PromptGet,          // name: the prompt
        ResourceCompletion, // name: the template variable being completed
        PromptCompletion,   // name: the prompt argument being completed
        Command, // ping, reconnect, log level, breaker, fault: name says what, for the status
    };

    QString server;
    Kind kind = Kind::Command;
    QString name;
};

// The GUI's view state of every server, by name: the selected tool, what the user typed in
// each tool's form, the last answer of each tool, the last read resource and fetched prompt,
// the fetched lists, the stderr lines, the roots, and the tickets still waiting for an
// answer. The panels show the selected server's entry and write back what the user changes;
// removing a server drops all of it at once. A store, not an item model: the panels' models
// are fed from it. Thread: GUI; owned by the window.
class ServerViewStore : public QObject
{
    Q_OBJECT
public:
    static constexpr int MaxStderrLines = 5000;

    explicit ServerViewStore(QObject *parent = nullptr);

    // A server's entry is made here (adding a server that is there already keeps its state,
    // as an edit that keeps the name does); what is written for a server not added is dropped.
    void addServer(const QString &server, const QStringList &roots);
    // Everything the store holds for the server (its entry and its pending tickets) goes.
    void removeServer(const QString &server);
    // Whether anything at all is held for the server.
    bool holds(const QString &server) const;

    QStringList roots(const QString &server) const;

    QJsonArray tools(const QString &server) const;
    void setTools(const QString &server, const QJsonArray &tools);
    // The generation whose tools (and other lists) were asked for, 0 before the first.
    int listsFetchedForGeneration(const QString &server) const;
    void setListsFetchedForGeneration(const QString &server, int generation);

    // What the user typed in the Tools tab's search for this server.
    QString toolSearch(const QString &server) const;
    void setToolSearch(const QString &server, const QString &text);
    QString selectedTool(const QString &server) const;
    void setSelectedTool(const QString &server, const QString &tool);
    std::optional<QJsonObject> formValues(const QString &server, const QString &tool) const;
    void setFormValues(const QString &server, const QString &tool, const QJsonObject &values);
    // The user's replay overrides (true: read-only), as the Tools panel's combo set them.
    QHash<QString, bool> toolOverrides(const QString &server) const;
    void setToolOverride(const QString &server, const QString &tool, std::optional<bool> readOnly);
    std::optional<CallOutcome> toolAnswer(const QString &server, const QString &tool) const;
    void setToolAnswer(const QString &server, const QString &tool, const CallOutcome &outcome);
    // Forgets the tool's last answer, its note and its step-up (the user closed it).
    void removeToolAnswer(const QString &server, const QString &tool);
    // What happened before a tool's last answer that the answer itself does not say (a
    // reconnect outside any call: RecoveryText::reconnectBefore). A new answer clears it.
    QString toolAnswerNote(const QString &server, const QString &tool) const;
    void setToolAnswerNote(const QString &server, const QString &tool, const QString &note);
    // The newest generation the user has been told about in an answer: a reconnect is said
    // once, on the first answer that came on the generation it made.
    int explainedGeneration(const QString &server) const;
    void setExplainedGeneration(const QString &server, int generation);

    // By list method: "resources/list", "resources/templates/list", "prompts/list".
    QJsonArray list(const QString &server, const QString &method) const;
    void setList(const QString &server, const QString &method, const QJsonArray &items);
    // The last answer of a kind the panels show one of: Read (the Resources panel's content),
    // PromptGet (the Prompts panel's messages).
    std::optional<CallOutcome> lastAnswer(const QString &server, PendingCommand::Kind kind) const;
    void setLastAnswer(const QString &server, PendingCommand::Kind kind,
                       const CallOutcome &outcome);

    QStringList stderrLines(const QString &server) const;
    void appendStderr(const QString &server, const QString &line);

    void addPending(quint64 ticket, const PendingCommand &command);
    std::optional<PendingCommand> takePending(quint64 ticket);
    // Takes the answer's pending command and keeps what is state (a list, a tool's answer,
    // a read, a prompt) in its server's entry; what is not (a completion, a command's
    // result) is the caller's to show. Nothing, for a ticket that is not pending here.
    std::optional<PendingCommand> settle(const CallOutcome &outcome);
    // The tools/call waiting for its answer (the window runs one at a time), or 0.
    quint64 pendingToolCall() const;
    // The pending tool call `ticket` was refused for a step-up and waits for it (StepUpNote).
    // Kept with its answer when it comes (toolAnswerStepUp); dropped with the ticket.
    void setStepUp(quint64 ticket, const StepUpNote &note);
    // The step-up the server's pending tool call waits for, if it does.
    std::optional<StepUpNote> pendingStepUp(const QString &server) const;
    // Whether the tool's last answer needed a step-up first.
    std::optional<StepUpNote> toolAnswerStepUp(const QString &server, const QString &tool) const;
    int pendingCount(const QString &server) const;

Q_SIGNALS:
    void toolsChanged(const QString &server);
    void listChanged(const QString &server, const QString &method);
    void toolAnswerChanged(const QString &server, const QString &tool);
    void lastAnswerChanged(const QString &server, Sonde::PendingCommand::Kind kind);
    void stderrAppended(const QString &server, const QString &line);
    void stepUpChanged(const QString &server);

private:
    struct Entry
    {
        QStringList roots;
        QJsonArray tools;
        int listsFetchedForGeneration = 0;
        QString selectedTool;
        QString toolSearch;
        QHash<QString, QJsonObject> formValues;
        QHash<QString, bool> toolOverrides;
        QHash<QString, CallOutcome> toolAnswers;
        QHash<QString, QString> toolAnswerNotes;
        int explainedGeneration = 0;
        QHash<QString, StepUpNote> toolStepUps; // of the answers that needed one
        QHash<QString, QJsonArray> lists;
        QMap<PendingCommand::Kind, CallOutcome> lastAnswers;
        QStringList stderrLines;
    };
    Entry *writable(const QString &server);
    const Entry *find(const QString &server) const;

    QHash<QString, Entry> m_entries;
    QHash<quint64, PendingCommand> m_pending;
    QHash<quint64, StepUpNote> m_stepUps; // of pending tool calls
};

} // namespace Sonde
