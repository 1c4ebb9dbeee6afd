// SPDX-License-Identifier: MIT
#include "demoserver.h"

#include "demojson.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>
#include <QScopeGuard>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

using namespace DemoJson;

// A 1x1 PNG, so the image path of a client is exercised without shipping a file.
static const char TinyPng[] = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAE"
                              "hQGAhKmMIQAAAABJRU5ErkJggg==";

DemoState::DemoState(QString path) : m_path(std::move(path))
{
    if (m_path.isEmpty())
        return;
    QFile f(m_path);
    if (f.open(QIODevice::ReadOnly))
        m_counter = QJsonDocument::fromJson(f.readAll()).object().value("counter"_L1).toInteger();
}

qint64 DemoState::add(qint64 by)
{
    m_counter += by;
    if (!m_path.isEmpty()) {
        // Written before the answer leaves, so a crash right after still counts.
        QSaveFile f(m_path);
        if (f.open(QIODevice::WriteOnly)) {
            f.write(QJsonDocument(QJsonObject{{"counter"_L1, m_counter}})
                        .toJson(QJsonDocument::Compact));
            f.commit();
        }
    }
    Q_EMIT counterChanged();
    return m_counter;
}

DemoServer::DemoServer(std::shared_ptr<DemoState> state, QObject *parent)
    : QObject(parent), m_state(std::move(state))
{
    // The counter is shared (HTTP: by every session and the modern endpoint), so whoever
    // changed it, this server's listeners hear it.
    connect(m_state.get(), &DemoState::counterChanged, this, [this] {
        publish(u"notifications/resources/updated"_s, {{"uri"_L1, "demo://counter"_L1}});
    });
}

const std::vector<DemoServer::Tool> &DemoServer::toolTable()
{
    if (m_tools.empty()) {
        defineTools();
        defineGeneratedTools(m_state->generatedTools());
        m_toolIndex.reserve(qsizetype(m_tools.size()));
        for (size_t i = 0; i < m_tools.size(); ++i)
            m_toolIndex.insert(m_tools[i].name, qsizetype(i));
    }
    return m_tools;
}

void DemoServer::send(const JsonRpcMessage &m)
{
    // Responses belong to their request; everything else to the request being served, if
    // any: the HTTP front end routes frames to that request's stream.
    Q_EMIT frameReady(m.toCompactJson(), m.isResponse() ? m.id() : m_related);
}

void DemoServer::respond(const QJsonValue &id, const QJsonObject &result)
{
    const auto call = m_modern.constFind(JsonRpcMessage::idKey(id));
    if (call == m_modern.cend()) {
        send(JsonRpcMessage::response(id, result));
        return;
    }
    // Every modern result says what it is and who answered; lists and reads how long they
    // stay fresh (input_required ones are not cacheable).
    QJsonObject r = result;
    if (!r.contains("resultType"_L1))
        r.insert("resultType"_L1, "complete"_L1);
    if (r.value("resultType"_L1) == "complete"_L1)
        for (auto it = call->cacheHints.begin(); it != call->cacheHints.end(); ++it)
            r.insert(it.key(), it.value());
    QJsonObject meta = r.value("_meta"_L1).toObject();
    meta.insert(DemoProtocol::ServerInfoKey, serverInfo());
    r.insert("_meta"_L1, meta);
    m_modern.erase(call);
    send(JsonRpcMessage::response(id, r));
}

void DemoServer::fail(const QJsonValue &id, int code, const QString &message,
                      const QJsonValue &data)
{
    if (m_modern.remove(JsonRpcMessage::idKey(id)) && code == DemoProtocol::LegacyResourceNotFound)
        code = JsonRpcCode::InvalidParams;
    send(JsonRpcMessage::errorResponse(id, code, message, data));
}

void DemoServer::notify(const QString &method, const QJsonObject &params)
{
    send(JsonRpcMessage::notification(method, params));
}

void DemoServer::ask(const QString &method, const QJsonObject &params, Continuation then)
{
    const QJsonValue id = u"demo-%1"_s.arg(m_nextOutgoingId++);
    m_waiting.insert(JsonRpcMessage::idKey(id),
                     [this, related = m_related, then = std::move(then)](const JsonRpcMessage &a) {
                         const QJsonValue previous = std::exchange(m_related, related);
                         then(a);
                         m_related = previous;
                     });
    send(JsonRpcMessage::request(id, method, params));
}

void DemoServer::log(const QString &level, const QString &text)
{
    if (!mayLog(level))
        return;
    notify(u"notifications/message"_s,
           {{"level"_L1, level}, {"logger"_L1, "demo"_L1}, {"data"_L1, text}});
}

void DemoServer::handleFrame(const QByteArray &frame)
{
    const JsonRpcMessage::Parsed parsed = JsonRpcMessage::parse(frame);
    if (parsed.error.isError()) {
        Q_EMIT stderrLine(u"demo: bad frame: "_s + parsed.error.message());
        if (parsed.messages.isEmpty())
            send(JsonRpcMessage::errorResponse(
                QJsonValue(QJsonValue::Null),
                parsed.error.jsonRpcCode().value_or(JsonRpcCode::InvalidRequest),
                parsed.error.message()));
    }
    for (const JsonRpcMessage &m : parsed.messages) {
        if (m.isRequest()) {
            handleRequest(m);
        } else if (m.isNotification()) {
            handleNotification(m);
        } else if (m.isResponse()) {
            const Continuation then = m_waiting.take(JsonRpcMessage::idKey(m.id()));
            if (then)
                then(m);
        }
    }
}

void DemoServer::handleNotification(const JsonRpcMessage &m)
{
    if (m.method() == "notifications/initialized"_L1) {
        m_initialized = true;
        Q_EMIT stderrLine(u"demo: client initialized"_s);
    } else if (m.method() == "notifications/cancelled"_L1) {
        cancelRequest(m.params().value("requestId"_L1));
    }
}

void DemoServer::cancelRequest(const QJsonValue &id)
{
    const QString key = JsonRpcMessage::idKey(id);
    m_modern.remove(key); // a cancelled request gets no answer, so none to decorate
    if (m_listens.remove(id))
        Q_EMIT stderrLine(u"demo: subscription %1 ended by the client"_s.arg(key));
    if (QTimer *t = m_running.take(key)) {
        t->stop();
        t->deleteLater();
        Q_EMIT stderrLine(u"demo: request %1 cancelled"_s.arg(key));
    }
}

QJsonObject DemoServer::capabilities()
{
    return {{"tools"_L1, QJsonObject{{"listChanged"_L1, true}}},
            {"resources"_L1, QJsonObject{{"subscribe"_L1, true}, {"listChanged"_L1, true}}},
            {"prompts"_L1, QJsonObject{{"listChanged"_L1, true}}},
            {"completions"_L1, QJsonObject{}},
            {"logging"_L1, QJsonObject{}}};
}

QJsonObject DemoServer::serverInfo()
{
    return {{"name"_L1, "sonde-demo-server"_L1},
            {"title"_L1, "Sonde demo server"_L1},
            {"version"_L1, "0.1.0"_L1}};
}

QString DemoServer::instructions()
{
    return u"A demo server for exploring Sonde: a counter to read (get-counter) and change "
           "(increment-counter), a slow task with progress, tools that fail, crash or ask "
           "the client questions, notes as resources and two prompts."_s;
}

QJsonObject DemoServer::initialize(const QJsonObject &params)
{
    const QString asked = params.value("protocolVersion"_L1).toString();
    const QString version = DemoProtocol::legacyVersions().contains(asked)
                                ? asked
                                : QString::fromLatin1(DemoProtocol::LegacyVersion);
    return {{"protocolVersion"_L1, version},
            {"capabilities"_L1, capabilities()},
            {"serverInfo"_L1, serverInfo()},
            {"instructions"_L1, instructions()}};
}

void DemoServer::defineTools()
{
    // One entry per tool, in tools/list order: its definition next to what it does.
    auto add = [this](const QString &name, const QString &description, const QJsonObject &input,
                      const QJsonObject &ann, const QJsonObject &output, ToolHandler handler) {
        QJsonObject tool{
            {"name"_L1, name}, {"description"_L1, description}, {"inputSchema"_L1, input}};
        if (!ann.isEmpty())
            tool.insert("annotations"_L1, ann);
        if (!output.isEmpty())
            tool.insert("outputSchema"_L1, output);
        m_tools.push_back({name, tool, std::move(handler)});
    };
    const QJsonObject none;
    add(u"get-counter"_s, u"Reads the counter (read-only)."_s, schema({}),
        annotations(true, false, true), none, [this](const ToolCall &c) {
            respond(c.id, textResult(u"counter = %1"_s.arg(m_state->counter())));
        });
    add(u"increment-counter"_s, u"Adds `by` to the counter: changes server state."_s,
        schema({{"by"_L1, QJsonObject{{"type"_L1, "integer"_L1}, {"default"_L1, 1}}}}),
        annotations(false, false, false), none, [this](const ToolCall &c) { incrementCounter(c); });
    add(u"echo"_s, u"Echoes the message back. Carries no annotations on purpose."_s,
        schema({{"message"_L1, QJsonObject{{"type"_L1, "string"_L1}}}}, {u"message"_s}), none, none,
        [this](const ToolCall &c) {
            if (!c.args.value("message"_L1).isString()) {
                respond(c.id, textResult(u"argument \"message\" (string) is required"_s, true));
                return;
            }
            respond(c.id, textResult(u"Echo: "_s + c.args.value("message"_L1).toString()));
        });
    add(u"slow-task"_s,
        u"Takes duration_ms, reporting progress in `steps` steps when asked; honours cancellation."_s,
        schema({{"duration_ms"_L1, QJsonObject{{"type"_L1, "integer"_L1}, {"default"_L1, 2000}}},
                {"steps"_L1, QJsonObject{{"type"_L1, "integer"_L1}, {"default"_L1, 5}}}}),
        annotations(true, false, true), none,
        [this](const ToolCall &c) { startSlowTask(c.id, c.args, c.token); });
    add(u"fail"_s, u"Always fails with isError: true."_s,
        schema({{"reason"_L1, QJsonObject{{"type"_L1, "string"_L1}}}}),
        annotations(true, false, true), none, [this](const ToolCall &c) {
            respond(c.id, textResult(u"the demo tool failed: %1"_s.arg(
                                         c.args.value("reason"_L1).toString(u"as asked"_s)),
                                     true));
        });
    add(u"get-weather"_s, u"Structured output: a made-up forecast that matches outputSchema."_s,
        // The city is mirrored into the Mcp-Param-City header of a modern HTTP call.
        schema({{"city"_L1, QJsonObject{{"type"_L1, "string"_L1},
                                        {"default"_L1, "Paris"_L1},
                                        {"x-mcp-header"_L1, "City"_L1}}}}),
        annotations(true, false, true),
        schema({{"city"_L1, QJsonObject{{"type"_L1, "string"_L1}}},
                {"temperature"_L1, QJsonObject{{"type"_L1, "number"_L1}}},
                {"conditions"_L1, QJsonObject{{"type"_L1, "string"_L1}}}},
               {u"city"_s, u"temperature"_s, u"conditions"_s}),
        [this](const ToolCall &c) { getWeather(c); });
    add(u"tiny-image"_s, u"Returns a 1x1 PNG as image content."_s, schema({}),
        annotations(true, false, true), none, [this](const ToolCall &c) {
            respond(c.id, {{"content"_L1,
                            QJsonArray{textContent(u"a 1x1 PNG:"_s),
                                       QJsonObject{{"type"_L1, "image"_L1},
                                                   {"data"_L1, QString::fromLatin1(TinyPng)},
                                                   {"mimeType"_L1, "image/png"_L1}}}}});
        });
    add(u"ask-user"_s, u"Asks the client for a name through form elicitation."_s, schema({}),
        annotations(true, false, false), none, [this](const ToolCall &c) { askUser(c); });
    add(u"ask-model"_s, u"Asks the client's model a question through sampling."_s,
        schema({{"question"_L1,
                 QJsonObject{{"type"_L1, "string"_L1}, {"default"_L1, "What is MCP?"_L1}}}}),
        annotations(true, false, false, true), none, [this](const ToolCall &c) { askModel(c); });
    add(u"list-roots"_s, u"Asks the client for its roots."_s, schema({}),
        annotations(true, false, true), none, [this](const ToolCall &c) { listRoots(c); });
    add(u"confirm-twice"_s,
        u"Asks the client to confirm twice through elicitation, one question after the other: "
        "in 2026-07-28, two input_required rounds."_s,
        schema({}), annotations(false, false, false), none,
        [this](const ToolCall &c) { confirmTwice(c); });
    add(u"toggle-extra-tool"_s,
        u"Adds or removes the tool extra-tool and sends tools/list_changed."_s, schema({}),
        annotations(false, false, false), none, [this](const ToolCall &c) {
            m_extraTool = !m_extraTool;
            // A legacy session hears it on its own streams; a modern request's stream carries
            // only what relates to it, so modern clients hear it through subscriptions/listen.
            if (!c.modern)
                notify(u"notifications/tools/list_changed"_s);
            publish(u"notifications/tools/list_changed"_s);
            respond(c.id,
                    textResult(m_extraTool ? u"extra-tool added"_s : u"extra-tool removed"_s));
        });
    add(u"print-garbage"_s, u"Writes a line that is not JSON to stdout, then answers normally."_s,
        schema({}), annotations(true, false, true), none, [this](const ToolCall &c) {
            Q_EMIT frameReady("this line is not JSON: the demo server printed it on purpose",
                              m_related);
            respond(c.id, textResult(u"printed a non-JSON line before this answer"_s));
        });
    add(u"big-answer"_s, u"Answers with `bytes` bytes of text (at most 104857600)."_s,
        schema({{"bytes"_L1, QJsonObject{{"type"_L1, "integer"_L1}, {"default"_L1, 1048576}}}}),
        annotations(true, false, true), none, [this](const ToolCall &c) {
            const qint64 bytes =
                std::clamp<qint64>(c.args.value("bytes"_L1).toInteger(1048576), 0, 104857600);
            respond(c.id, textResult(QString(qsizetype(bytes), u'x')));
        });
    add(u"write-stderr"_s, u"Writes `lines` lines to stderr."_s,
        schema({{"lines"_L1, QJsonObject{{"type"_L1, "integer"_L1}, {"default"_L1, 3}}}}),
        annotations(true, false, true), none, [this](const ToolCall &c) {
            const int lines = std::clamp(c.args.value("lines"_L1).toInt(3), 0, 10000);
            for (int i = 1; i <= lines; ++i)
                Q_EMIT stderrLine(u"demo: stderr line %1 of %2"_s.arg(i).arg(lines));
            respond(c.id, textResult(u"wrote %1 stderr lines"_s.arg(lines)));
        });
    add(u"crash"_s, u"Exits the server process with code 3 without answering."_s, schema({}),
        annotations(false, true, false), none, [this](const ToolCall &) {
            Q_EMIT stderrLine(u"demo: crashing on purpose"_s);
            Q_EMIT exitRequested(3);
        });
    // Side effects under every kind of hint, for recovery tests: the same counter.
    const ToolHandler bump = [this](const ToolCall &c) {
        respond(c.id, textResult(u"counter = %1"_s.arg(m_state->add(1))));
    };
    add(u"bump-unannotated"_s, u"Adds 1 to the counter; carries no annotations."_s, schema({}),
        none, none, bump);
    {
        QJsonObject a = annotations(false, false, false);
        a.insert("readOnlyHint"_L1, "true"_L1); // a string, not the boolean: not read-only
        add(u"bump-string-true"_s,
            u"Adds 1 to the counter; its readOnlyHint is the string \"true\"."_s, schema({}), a,
            none, bump);
    }
    add(u"increment-then-expire"_s,
        u"Adds 1, then drops the session without answering (stdio: exits)."_s, schema({}),
        annotations(false, false, false), none, [this](const ToolCall &) {
            m_state->add(1);
            Q_EMIT stderrLine(
                u"demo: incremented to %1, now dropping the session without answering"_s.arg(
                    m_state->counter()));
            Q_EMIT sessionExpiryRequested();
        });
    add(u"increment-then-drop"_s,
        u"Adds 1, then closes the request's connection without a response byte; the session "
        "stays (stdio: exits). What a crash or a proxy timeout after a write looks like."_s,
        schema({}), annotations(false, false, false), none, [this](const ToolCall &) {
            m_state->add(1);
            Q_EMIT stderrLine(
                u"demo: incremented to %1, now dropping the connection without answering"_s.arg(
                    m_state->counter()));
            Q_EMIT connectionDropRequested();
        });
    add(u"admin-expire-session"_s,
        u"Answers, then drops this session (stdio: exits): the next request meets an expired session."_s,
        schema({}), annotations(false, false, true), none, [this](const ToolCall &c) {
            respond(c.id, textResult(u"this session ends now"_s));
            Q_EMIT sessionExpiryRequested();
        });
    add(u"flood"_s,
        u"Sends `rate` notifications/message per second (at most 100000) for `seconds` (at most "
        u"60), "
        "then answers; honours cancellation. A load generator for clients."_s,
        schema({{"rate"_L1, QJsonObject{{"type"_L1, "integer"_L1},
                                        {"default"_L1, 10000},
                                        {"description"_L1, "notifications per second"_L1}}},
                {"seconds"_L1, QJsonObject{{"type"_L1, "number"_L1}, {"default"_L1, 10}}}}),
        annotations(true, false, true), none, [this](const ToolCall &c) { startFlood(c); });
    add(u"extra-tool"_s, u"Exists only after toggle-extra-tool."_s, schema({}),
        annotations(true, false, true), none,
        [this](const ToolCall &c) { respond(c.id, textResult(u"extra-tool ran"_s)); });
}

void DemoServer::defineGeneratedTools(int count)
{
    // Names, titles and descriptions that differ in more than a number, so a client's search
    // and sorting have something to work on.
    static const char *const Areas[] = {"billing", "calendar", "crm",     "docs",   "git",
                                        "issues",  "mail",     "metrics", "search", "storage"};
    for (int i = 1; i <= count; ++i) {
        const QString area = QString::fromLatin1(Areas[i % 10]);
        const QString name = u"%1-action-%2"_s.arg(area).arg(i, 4, 10, QLatin1Char('0'));
        QJsonObject tool{
            {"name"_L1, name},
            {"title"_L1, u"%1 action %2"_s.arg(area.at(0).toUpper() + area.mid(1)).arg(i)},
            {"description"_L1,
             u"Generated tool %1 of %2 in the %3 area (--tools): answers with its name and "
             "arguments."_s.arg(i)
                 .arg(count)
                 .arg(area)},
            {"inputSchema"_L1,
             schema({{"query"_L1, QJsonObject{{"type"_L1, "string"_L1},
                                              {"description"_L1, "what to look for"_L1}}},
                     {"limit"_L1, QJsonObject{{"type"_L1, "integer"_L1}, {"default"_L1, 10}}}})},
            {"annotations"_L1, annotations(true, false, true)}};
        m_tools.push_back({name, tool, [this, name](const ToolCall &c) {
                               respond(c.id,
                                       textResult(name + u" "_s +
                                                  QString::fromUtf8(QJsonDocument(c.args).toJson(
                                                      QJsonDocument::Compact))));
                           }});
    }
}

QJsonObject DemoServer::toolDefinition(const QString &name)
{
    const Tool *tool = findTool(name);
    return tool ? tool->definition : QJsonObject();
}

const DemoServer::Tool *DemoServer::findTool(const QString &name)
{
    const std::vector<Tool> &table = toolTable();
    const auto at = m_toolIndex.constFind(name);
    // extra-tool exists only while toggled on.
    if (at == m_toolIndex.constEnd() || (!m_extraTool && name == "extra-tool"_L1))
        return nullptr;
    return &table[size_t(*at)];
}

QJsonArray DemoServer::tools()
{
    QJsonArray t;
    for (const Tool &tool : toolTable()) {
        if (m_extraTool || tool.name != "extra-tool"_L1)
            t.append(tool.definition);
    }
    return t;
}

QJsonArray DemoServer::resources() const
{
    QJsonArray r;
    r.append(QJsonObject{{"uri"_L1, "demo://readme"_L1},
                         {"name"_L1, "readme"_L1},
                         {"mimeType"_L1, "text/markdown"_L1},
                         {"description"_L1, "What this server is"_L1}});
    r.append(QJsonObject{{"uri"_L1, "demo://counter"_L1},
                         {"name"_L1, "counter"_L1},
                         {"mimeType"_L1, "application/json"_L1},
                         {"description"_L1, "The counter; subscribe to hear when it changes"_L1}});
    for (int i = 1; i <= 10; ++i)
        r.append(QJsonObject{{"uri"_L1, u"demo://notes/%1"_s.arg(i)},
                             {"name"_L1, u"note %1"_s.arg(i)},
                             {"mimeType"_L1, "text/plain"_L1}});
    return r;
}

QJsonArray DemoServer::prompts() const
{
    return {
        QJsonObject{{"name"_L1, "greeting"_L1},
                    {"description"_L1, "Greets someone in a style"_L1},
                    {"arguments"_L1,
                     QJsonArray{QJsonObject{{"name"_L1, "name"_L1}, {"required"_L1, true}},
                                QJsonObject{{"name"_L1, "style"_L1},
                                            {"required"_L1, false},
                                            {"description"_L1, "formal, casual or pirate"_L1}}}}},
        QJsonObject{{"name"_L1, "summarize-notes"_L1},
                    {"description"_L1, "Asks for a summary of every note"_L1}},
        QJsonObject{{"name"_L1, "counter-report"_L1},
                    {"description"_L1, "Embeds the counter resource"_L1}}};
}

bool DemoServer::page(const QJsonValue &id, const QJsonObject &params, const QJsonArray &all,
                      int size, const QString &key)
{
    int offset = 0;
    if (params.contains("cursor"_L1)) {
        const QString cursor = params.value("cursor"_L1).toString();
        bool ok = false;
        offset = cursor.startsWith("offset-"_L1) ? cursor.mid(7).toInt(&ok) : 0;
        if (!ok || offset < 0 || offset >= all.size()) {
            fail(id, JsonRpcCode::InvalidParams, u"invalid cursor \"%1\""_s.arg(cursor));
            return false;
        }
    }
    QJsonArray items;
    for (int i = offset; i < std::min<int>(offset + size, int(all.size())); ++i)
        items.append(all.at(i));
    QJsonObject result{{key, items}};
    if (offset + size < all.size())
        result.insert("nextCursor"_L1, u"offset-%1"_s.arg(offset + size));
    respond(id, result);
    return true;
}

void DemoServer::handleRequest(const JsonRpcMessage &m)
{
    const QJsonValue previous = std::exchange(m_related, m.id());
    if (m_validator.isModern(m))
        handleModernRequest(m);
    else
        handleRequestFor(m, false);
    m_related = previous;
}

void DemoServer::handleRequestFor(const JsonRpcMessage &m, bool modern)
{
    // One table for both eras; the methods 2026-07-28 removed (the handshake, ping,
    // setLevel, resources/subscribe) are unknown to a modern request, and its new ones to a
    // legacy request.
    const QString method = m.method();
    const QJsonValue id = m.id();
    if (!modern && method == "initialize"_L1)
        respond(id, initialize(m.params()));
    else if (!modern && method == "ping"_L1)
        respond(id, {});
    else if (modern && method == "server/discover"_L1)
        respond(id, discover());
    else if (modern && method == "subscriptions/listen"_L1)
        listen(id, m.params());
    else if (method == "tools/list"_L1)
        page(id, m.params(), tools(), ToolsPageSize, u"tools"_s);
    else if (method == "tools/call"_L1)
        callTool(id, m.params());
    else if (method == "resources/list"_L1)
        page(id, m.params(), resources(), ResourcesPageSize, u"resources"_s);
    else if (method == "resources/templates/list"_L1)
        page(id, m.params(),
             QJsonArray{QJsonObject{{"uriTemplate"_L1, "demo://notes/{id}"_L1},
                                    {"name"_L1, "note by id"_L1},
                                    {"mimeType"_L1, "text/plain"_L1}}},
             ResourcesPageSize, u"resourceTemplates"_s);
    else if (method == "resources/read"_L1)
        readResource(id, m.params());
    else if (!modern &&
             (method == "resources/subscribe"_L1 || method == "resources/unsubscribe"_L1)) {
        const QString uri = m.params().value("uri"_L1).toString();
        if (method == "resources/subscribe"_L1)
            m_subscriptions.insert(uri);
        else
            m_subscriptions.remove(uri);
        respond(id, {});
    } else if (method == "prompts/list"_L1)
        page(id, m.params(), prompts(), PromptsPageSize, u"prompts"_s);
    else if (method == "prompts/get"_L1)
        getPrompt(id, m.params());
    else if (method == "completion/complete"_L1)
        complete(id, m.params());
    else if (!modern && method == "logging/setLevel"_L1) {
        m_logLevel = m.params().value("level"_L1).toString(m_logLevel);
        respond(id, {});
    } else
        fail(id, JsonRpcCode::MethodNotFound, u"method not found: %1"_s.arg(method));
}

void DemoServer::callTool(const QJsonValue &id, const QJsonObject &params)
{
    const QString name = params.value("name"_L1).toString();
    const Tool *tool = findTool(name);
    if (!tool) {
        fail(id, JsonRpcCode::InvalidParams, u"unknown tool: %1"_s.arg(name));
        return;
    }
    ToolCall call{id,
                  params.value("arguments"_L1).toObject(),
                  params.value("_meta"_L1).toObject().value("progressToken"_L1),
                  name,
                  isModern(id),
                  {}};
    if (call.modern) {
        // The answers of earlier rounds come back sealed in requestState; this round's in
        // inputResponses.
        if (params.contains("requestState"_L1)) {
            const std::optional<QJsonObject> state =
                m_mrtr.open(params.value("requestState"_L1).toString(), u"tools/call"_s, name);
            if (!state) {
                fail(id, JsonRpcCode::InvalidParams,
                     u"Invalid params: requestState failed verification (changed, made by "
                     "another server process, or meant for another request)"_s);
                return;
            }
            call.answers = state->value("answers"_L1).toObject();
        }
        const QJsonObject responses = params.value("inputResponses"_L1).toObject();
        for (auto it = responses.begin(); it != responses.end(); ++it)
            call.answers.insert(it.key(), it.value());
    }
    tool->handler(call);
}

void DemoServer::incrementCounter(const ToolCall &c)
{
    const QJsonValue &id = c.id;
    const QJsonObject &args = c.args;
    const QJsonValue by = args.value("by"_L1);
    if (!by.isUndefined() && !by.isDouble()) {
        respond(id, textResult(u"argument \"by\" must be an integer"_s, true));
        return;
    }
    m_state->add(by.toInteger(1));
    log(u"info"_s, u"counter is now %1"_s.arg(m_state->counter()));
    if (m_subscriptions.contains(u"demo://counter"_s)) {
        // A subscription update belongs to no request: it goes to the standalone stream.
        const QJsonValue previous = std::exchange(m_related, QJsonValue());
        notify(u"notifications/resources/updated"_s, {{"uri"_L1, "demo://counter"_L1}});
        m_related = previous;
    }
    respond(id, textResult(u"counter = %1"_s.arg(m_state->counter())));
}

void DemoServer::getWeather(const ToolCall &c)
{
    const QJsonValue &id = c.id;
    const QJsonObject &args = c.args;
    const QString city = args.value("city"_L1).toString(u"Paris"_s);
    const QJsonObject forecast{{"city"_L1, city},
                               {"temperature"_L1, 12.5 + city.size()},
                               {"conditions"_L1, city.size() % 2 ? "cloudy"_L1 : "sunny"_L1}};
    // The text is a sentence, not the JSON again, so clients show both forms.
    QJsonObject r = textResult(u"%1: %2 degrees, %3"_s.arg(city)
                                   .arg(forecast.value("temperature"_L1).toDouble())
                                   .arg(forecast.value("conditions"_L1).toString()));
    r.insert("structuredContent"_L1, forecast);
    respond(id, r);
}

void DemoServer::startFlood(const ToolCall &c)
{
    const QJsonValue &id = c.id;
    const QJsonObject &args = c.args;
    const QJsonValue &token = c.token;
    const qint64 rate = std::clamp<qint64>(args.value("rate"_L1).toInteger(10000), 0, 100'000);
    const double seconds = std::clamp(args.value("seconds"_L1).toDouble(10.0), 0.0, 60.0);
    const qint64 total = qRound64(double(rate) * seconds);
    // Bursts every 10 ms, not a timer per notification. The count due is computed from the
    // elapsed time, not from the number of ticks, so late ticks (a client that reads slowly
    // blocks our writes) catch up instead of stretching the flood.
    auto *timer = new QTimer(this);
    timer->setTimerType(Qt::PreciseTimer);
    timer->setInterval(10);
    const QString key = JsonRpcMessage::idKey(id);
    m_running.insert(key, timer);
    auto sent = std::make_shared<qint64>(0);
    auto lastProgressMs = std::make_shared<qint64>(0);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    connect(timer, &QTimer::timeout, this,
            [this, timer, key, id, token, rate, total, sent, lastProgressMs, clock] {
                const QJsonValue previous = std::exchange(m_related, id);
                const auto restore = qScopeGuard([&] { m_related = previous; });
                const qint64 elapsed = clock->elapsed();
                const qint64 due = std::min(total, rate * elapsed / 1000);
                // Sent regardless of logging/setLevel: the count a client sees must be exactly
                // rate x seconds, or the flood cannot tell a client that drops from one that
                // filters.
                // A modern request sends them only when its _meta asked for a log level.
                const bool logs = mayLog(u"info"_s, true);
                while (*sent < due) {
                    ++*sent;
                    if (logs)
                        notify(u"notifications/message"_s,
                               {{"level"_L1, "info"_L1},
                                {"logger"_L1, "flood"_L1},
                                {"data"_L1, u"flood %1/%2"_s.arg(*sent).arg(total)}});
                }
                // Log messages do not reset a client's request timeout; progress does, so a
                // 60 s flood is not cut off by a 60 s timeout when the client asked for
                // progress.
                if (!token.isUndefined() && !token.isNull() && elapsed - *lastProgressMs >= 1000) {
                    *lastProgressMs = elapsed;
                    notify(
                        u"notifications/progress"_s,
                        {{"progressToken"_L1, token}, {"progress"_L1, *sent}, {"total"_L1, total}});
                }
                if (*sent >= total) {
                    m_running.remove(key);
                    timer->stop();
                    timer->deleteLater();
                    respond(id, textResult(u"flooded %1 notifications in %2 s"_s.arg(total).arg(
                                    double(clock->elapsed()) / 1000.0, 0, 'f', 2)));
                }
            });
    timer->start();
}

void DemoServer::startSlowTask(const QJsonValue &id, const QJsonObject &args,
                               const QJsonValue &token)
{
    const int duration =
        std::clamp(int(args.value("duration_ms"_L1).toInteger(2000)), 0, 3'600'000);
    const int steps = std::clamp(int(args.value("steps"_L1).toInteger(5)), 1, 10'000);
    auto *timer = new QTimer(this);
    timer->setInterval(duration / steps);
    const QString key = JsonRpcMessage::idKey(id);
    m_running.insert(key, timer);
    auto step = std::make_shared<int>(0);
    connect(timer, &QTimer::timeout, this, [this, timer, key, id, token, steps, duration, step] {
        const QJsonValue previous = std::exchange(m_related, id);
        const auto restore = qScopeGuard([&] { m_related = previous; });
        ++*step;
        if (!token.isUndefined() && !token.isNull())
            notify(u"notifications/progress"_s,
                   {{"progressToken"_L1, token},
                    {"progress"_L1, *step},
                    {"total"_L1, steps},
                    {"message"_L1, u"step %1 of %2"_s.arg(*step).arg(steps)}});
        if (*step >= steps) {
            m_running.remove(key);
            timer->stop();
            timer->deleteLater();
            respond(id,
                    textResult(
                        u"slow task finished after %1 ms in %2 steps"_s.arg(duration).arg(steps)));
        }
    });
    timer->start();
}

void DemoServer::readResource(const QJsonValue &id, const QJsonObject &params)
{
    const QString uri = params.value("uri"_L1).toString();
    QString text;
    QString mime = u"text/plain"_s;
    if (uri == "demo://readme"_L1) {
        text = u"# Sonde demo server\nTry increment-counter, then read demo://counter."_s;
        mime = u"text/markdown"_s;
    } else if (uri == "demo://counter"_L1) {
        text = QString::fromUtf8(QJsonDocument(QJsonObject{{"counter"_L1, m_state->counter()}})
                                     .toJson(QJsonDocument::Compact));
        mime = u"application/json"_s;
    } else if (uri.startsWith("demo://notes/"_L1)) {
        bool ok = false;
        const int n = uri.mid(13).toInt(&ok);
        if (!ok || n < 1 || n > 10) {
            fail(id, -32002, u"resource not found: %1"_s.arg(uri));
            return;
        }
        text = u"This is note %1."_s.arg(n);
    } else {
        fail(id, -32002, u"resource not found: %1"_s.arg(uri));
        return;
    }
    respond(id,
            {{"contents"_L1,
              QJsonArray{QJsonObject{{"uri"_L1, uri}, {"mimeType"_L1, mime}, {"text"_L1, text}}}}});
}

void DemoServer::getPrompt(const QJsonValue &id, const QJsonObject &params)
{
    const QString name = params.value("name"_L1).toString();
    const QJsonObject args = params.value("arguments"_L1).toObject();
    auto message = [](const QString &text) {
        return QJsonObject{{"role"_L1, "user"_L1}, {"content"_L1, textContent(text)}};
    };
    if (name == "greeting"_L1) {
        if (!args.value("name"_L1).isString()) {
            fail(id, JsonRpcCode::InvalidParams, u"prompt greeting needs the argument \"name\""_s);
            return;
        }
        const QString style = args.value("style"_L1).toString(u"casual"_s);
        respond(id, {{"description"_L1, "A greeting"_L1},
                     {"messages"_L1, QJsonArray{message(u"Greet %1 in a %2 style."_s.arg(
                                         args.value("name"_L1).toString(), style))}}});
    } else if (name == "summarize-notes"_L1) {
        respond(id, {{"messages"_L1, QJsonArray{message(u"Summarize the ten demo notes."_s)}}});
    } else if (name == "counter-report"_L1) {
        respond(id, {{"messages"_L1,
                      QJsonArray{QJsonObject{
                          {"role"_L1, "user"_L1},
                          {"content"_L1,
                           QJsonObject{{"type"_L1, "resource"_L1},
                                       {"resource"_L1,
                                        QJsonObject{{"uri"_L1, "demo://counter"_L1},
                                                    {"mimeType"_L1, "application/json"_L1},
                                                    {"text"_L1, u"{\"counter\":%1}"_s.arg(
                                                                    m_state->counter())}}}}}}}}});
    } else {
        fail(id, JsonRpcCode::InvalidParams, u"unknown prompt: %1"_s.arg(name));
    }
}

void DemoServer::complete(const QJsonValue &id, const QJsonObject &params)
{
    const QJsonObject ref = params.value("ref"_L1).toObject();
    const QJsonObject argument = params.value("argument"_L1).toObject();
    const QString prefix = argument.value("value"_L1).toString();
    QStringList candidates;
    if (ref.value("type"_L1).toString() == "ref/prompt"_L1 &&
        ref.value("name"_L1).toString() == "greeting"_L1 &&
        argument.value("name"_L1).toString() == "style"_L1)
        candidates = {u"formal"_s, u"casual"_s, u"pirate"_s};
    else if (ref.value("type"_L1).toString() == "ref/resource"_L1 &&
             argument.value("name"_L1).toString() == "id"_L1)
        for (int i = 1; i <= 10; ++i)
            candidates.append(QString::number(i));
    QJsonArray values;
    for (const QString &c : std::as_const(candidates))
        if (c.startsWith(prefix))
            values.append(c);
    respond(id, {{"completion"_L1, QJsonObject{{"values"_L1, values},
                                               {"total"_L1, values.size()},
                                               {"hasMore"_L1, false}}}});
}

} // namespace Sonde
