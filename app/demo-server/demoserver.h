// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/jsonrpcmessage.h"

#include <QHash>
#include <QJsonArray>
#include <QObject>
#include <QSet>

#include <functional>
#include <memory>
#include <vector>

class QTimer;

namespace Sonde {

// The demo server's state that outlives a session (HTTP: shared by all sessions) or a
// process (stdio with --state-file), so tests can count side effects across reconnects.
class DemoState
{
public:
    explicit DemoState(QString path = {});
    qint64 counter() const { return m_counter; }
    qint64 add(qint64 by);
    // Tools added after the built-in ones (--tools N), for clients' tests at scale: a list
    // of a thousand tools is what a large server (an API gateway, a code host) offers.
    int generatedTools() const { return m_generatedTools; }
    void setGeneratedTools(int count) { m_generatedTools = count; }

private:
    QString m_path;
    qint64 m_counter = 0;
    int m_generatedTools = 0;
};

// Sonde's built-in MCP server: what a new user sees first and the engine's test fixture.
// Transport-agnostic: frames in through handleFrame(), out through frameReady(). Its tools
// cover each case the client must handle: read-only, write (server state), unannotated,
// slow with progress and cancellation, isError, outputSchema + structuredContent, image
// content, server -> client requests (elicitation, sampling, roots), list_changed, a
// non-JSON line on stdout, large answers and a crash mid-call. Lists are paginated.
class DemoServer : public QObject
{
    Q_OBJECT
public:
    explicit DemoServer(std::shared_ptr<DemoState> state = std::make_shared<DemoState>(),
                        QObject *parent = nullptr);
    void handleFrame(const QByteArray &frame);

    // Page sizes are small on purpose so every client meets nextCursor.
    static constexpr int ToolsPageSize = 5;
    static constexpr int ResourcesPageSize = 5;
    static constexpr int PromptsPageSize = 2;

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
    void handleRequestFor(const JsonRpcMessage &m);
    void handleNotification(const JsonRpcMessage &m);
    void send(const JsonRpcMessage &m);
    void respond(const QJsonValue &id, const QJsonObject &result);
    void fail(const QJsonValue &id, int code, const QString &message);
    void ask(const QString &method, const QJsonObject &params, Continuation then);
    void notify(const QString &method, const QJsonObject &params = {});
    void log(const QString &level, const QString &text);

    QJsonObject initialize(const QJsonObject &params);
    void defineTools();
    void defineGeneratedTools(int count);
    const Tool *findTool(const QString &name); // nullptr: no such tool (now)
    QJsonArray tools();
    // Built on first use: a session that never lists or calls a tool (a reconnect probe, the
    // recovery benchmark) does not pay for 21 definitions.
    const std::vector<Tool> &toolTable();
    QJsonArray resources() const;
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

    QJsonValue m_related; // the request being served, for routing what it sends
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
};

} // namespace Sonde
