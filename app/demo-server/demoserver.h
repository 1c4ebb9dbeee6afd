// SPDX-License-Identifier: MIT
#pragma once

#include "demoprotocol.h"
#include "demostate.h"
#include "demosubscriptions.h"
#include "demotasks.h"
#include "mrtrstate.h"
#include "protocol/jsonrpcmessage.h"
#include "rev20260728requestvalidator.h"

#include <QHash>
#include <QJsonArray>
#include <QObject>
#include <QSet>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QTimer;

namespace Sonde {

// Sonde's built-in MCP server: what a new user sees first and the engine's test fixture.
// Transport-agnostic: frames in through handleFrame(), out through frameReady(). Its tools
// cover each case the client must handle: read-only, write (server state), unannotated,
// slow with progress and cancellation, isError, outputSchema + structuredContent, image
// content, server -> client requests (elicitation, sampling, roots), list_changed, a
// non-JSON line on stdout, large answers and a crash mid-call. Lists are paginated.
// Dual-era (setEra): a request whose _meta carries the 2026-07-28 fields (or server/discover)
// is served statelessly, with MRTR instead of server -> client requests, per-request log
// levels and subscriptions/listen; an initialize selects 2025-11-25 as before.
class DemoServer : public QObject
{
    Q_OBJECT
public:
    explicit DemoServer(std::shared_ptr<DemoState> state = std::make_shared<DemoState>(),
                        QObject *parent = nullptr);
    void handleFrame(const QByteArray &frame);
    void setEra(DemoEra era) { m_validator = Rev20260728RequestValidator(era); }
    DemoEra era() const { return m_validator.era(); }
    const Rev20260728RequestValidator &validator() const { return m_validator; }
    // What a notifications/cancelled for `id` does: stop its work, answer nothing, end its
    // subscription. HTTP calls it when a modern request's stream is closed.
    void cancelRequest(const QJsonValue &id);
    // Ends every subscriptions/listen gracefully (a complete result each), before exit.
    void shutdown();
    // The tool's definition as tools/list shows it; empty when there is no such tool (now).
    QJsonObject toolDefinition(const QString &name);

    // Page sizes are small on purpose so every client meets nextCursor.
    static constexpr int ToolsPageSize = 5;
    static constexpr int ResourcesPageSize = 5;
    static constexpr int PromptsPageSize = 2;
    // The MCP Apps extension: a tool names, in _meta.ui.resourceUri, a ui:// page of this
    // mime type that a host renders beside its answers (counter-app's).
    static constexpr auto CounterAppUri = "ui://demo/counter-app.html";
    static constexpr auto McpAppMimeType = "text/html;profile=mcp-app";

Q_SIGNALS:
    // `relatedRequest` is the id of the client request this frame answers or belongs to
    // (progress, a question asked while serving it), undefined for unrelated frames.
    void frameReady(const QByteArray &frame, const QJsonValue &relatedRequest);
    void stderrLine(const QString &line);
    void exitRequested(int code);
    // The server drops this session now (HTTP: forget it; stdio: exit), to model an expiry.
    void sessionExpiryRequested();
    // The connection carrying the current request closes without answering it (HTTP: that
    // POST's socket; stdio: the process exits); the session stays.
    void connectionDropRequested();

private:
    using Continuation = std::function<void(const JsonRpcMessage &answer)>;

    // A tools/call as a tool's handler gets it.
    struct ToolCall
    {
        QJsonValue id;
        QJsonObject args;
        QJsonValue token; // _meta.progressToken, undefined when not asked for
        QString name;
        bool modern = false;
        QJsonObject answers; // modern: the input responses gathered so far (MRTR)
    };
    using Answered = std::function<void(const QJsonObject &responses)>;
    // A modern request being served: what its result needs.
    struct Rev20260728Call
    {
        Rev20260728Request meta;
        QJsonObject cacheHints; // ttlMs and cacheScope, for a complete result
    };
    using ToolHandler = std::function<void(const ToolCall &call)>;
    // A tool is its definition (as tools/list shows it) and what a call does: adding a tool
    // is one entry in defineTools().
    struct Tool
    {
        QString name;
        QJsonObject definition;
        ToolHandler handler;
    };

    void handleRequest(const JsonRpcMessage &m);
    // --replay: the recorded answer, a default for the lifecycle, or -32601 (demoserverreplay.cpp).
    void answerFromReplay(const JsonRpcMessage &m);
    void handleRequestFor(const JsonRpcMessage &m, bool modern);
    void handleNotification(const JsonRpcMessage &m);
    void send(const JsonRpcMessage &m);
    void respond(const QJsonValue &id, const QJsonObject &result);
    void fail(const QJsonValue &id, int code, const QString &message, const QJsonValue &data = {});
    void ask(const QString &method, const QJsonObject &params, Continuation then);
    void notify(const QString &method, const QJsonObject &params = {});
    void log(const QString &level, const QString &text);
    // Whether notifications/message at `level` may go out for the request being served: a
    // modern one only at or above its _meta logLevel; a legacy one at or above setLevel's
    // (`always`: regardless of it, for the flood's exact count).
    bool mayLog(const QString &level, bool always = false) const;
    bool isRev20260728(const QJsonValue &id) const;
    // Gets the answers to `requests` ({key: {method, params}}), then calls `then`. Legacy:
    // asks the client, one request after the other. Modern: answers input_required with a
    // sealed requestState until the retry carries them all (MRTR).
    void need(const ToolCall &c, const QJsonObject &requests, Answered then);
    void askInTurn(const QJsonValue &id, QJsonObject pending, QJsonObject gathered, Answered then);
    void handleRev20260728Request(const JsonRpcMessage &m);
    QStringList resourceUris() const;
    QJsonObject discover() const;
    void listen(const QJsonValue &id, const QJsonObject &params);
    // Sends `method` to every subscription that asked for it, tagged with its id.
    void publish(const QString &method, const QJsonObject &params = {});

    QJsonObject initialize(const QJsonObject &params);
    static QJsonObject capabilities();
    static QJsonObject serverInfo();
    static QString instructions();
    void defineTools();
    void defineGeneratedTools(int count);
    const Tool *findTool(const QString &name); // nullptr: no such tool (now)
    QJsonArray tools();
    // Built on first use: a session that never lists or calls a tool (a reconnect probe, the
    // recovery benchmark) does not pay for two dozen definitions.
    const std::vector<Tool> &toolTable();
    QJsonArray resources() const;
    // The page of counter-app's App (democounterapp.cpp): static, the counter comes from the
    // tool's result.
    static QString counterAppPage();
    QJsonArray prompts() const;
    bool page(const QJsonValue &id, const QJsonObject &params, const QJsonArray &all, int size,
              const QString &key);
    void callTool(const QJsonValue &id, const QJsonObject &params);
    void readResource(const QJsonValue &id, const QJsonObject &params);
    void getPrompt(const QJsonValue &id, const QJsonObject &params);
    void complete(const QJsonValue &id, const QJsonObject &params);
    void startSlowTask(const QJsonValue &id, const QJsonObject &args, const QJsonValue &token);
    void startFlood(const ToolCall &c);
    void incrementCounter(const ToolCall &c);
    void getWeather(const ToolCall &c);
    void askUser(const ToolCall &c);
    void askModel(const ToolCall &c);
    void listRoots(const ToolCall &c);
    void confirmTwice(const ToolCall &c);
    void longJob(const ToolCall &c);
    void answerTaskMethod(const QJsonValue &id, const QString &method, const QJsonObject &params);

    QJsonValue m_related; // the request being served, for routing what it sends
    // What the client declared in initialize: a request it cannot answer is never sent
    // (lifecycle.mdx, "Only use capabilities that were successfully negotiated").
    std::optional<QJsonObject> m_clientCapabilities;
    bool m_initialized = false;
    std::shared_ptr<DemoState> m_state;
    std::vector<Tool> m_tools;             // in tools/list order
    QHash<QString, qsizetype> m_toolIndex; // name -> position in m_tools
    bool m_extraTool = false;
    QString m_logLevel = QStringLiteral("info");
    QSet<QString> m_subscriptions;
    qint64 m_nextOutgoingId = 1;
    QHash<QString, Continuation> m_waiting; // our requests to the client, by idKey
    QHash<QString, QTimer *> m_running;     // slow tasks by the client's request idKey
    Rev20260728RequestValidator m_validator;
    MrtrState m_mrtr;
    QHash<QString, Rev20260728Call> m_modern; // modern requests not answered yet, by idKey
    DemoSubscriptions m_listens;
    DemoTasks m_tasks;
};

} // namespace Sonde
