// SPDX-License-Identifier: MIT
#include "demoserver.h"
#include "util/version.h"

#include "demojson.h"

#include <QJsonDocument>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

using namespace DemoJson;

DemoServer::DemoServer(std::shared_ptr<DemoState> state, QObject *parent)
    : QObject(parent), m_state(std::move(state))
{
    // The counter is shared (HTTP: by every session and the modern endpoint), so whoever
    // changed it, this server's listeners hear it.
    connect(m_state.get(), &DemoState::counterChanged, this, [this] {
        publish(u"notifications/resources/updated"_s, {{"uri"_L1, "demo://counter"_L1}});
    });
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
        if (m_state->replay()) {
            if (m.isRequest())
                answerFromReplay(m); // notifications and answers change nothing in a replay
        } else if (m.isRequest()) {
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
            {"version"_L1, QStringLiteral(SONDE_VERSION)}};
}

QString DemoServer::instructions()
{
    return u"A demo server for exploring Sonde: a counter to read (get-counter) and change "
           "(increment-counter), a slow task with progress, tools that fail, crash or ask "
           "the client questions, notes as resources and two prompts."_s;
}

QJsonObject DemoServer::initialize(const QJsonObject &params)
{
    m_clientCapabilities = params.value("capabilities"_L1).toObject();
    const QString asked = params.value("protocolVersion"_L1).toString();
    const QString version = DemoProtocol::legacyVersions().contains(asked)
                                ? asked
                                : QString::fromLatin1(DemoProtocol::LegacyVersion);
    return {{"protocolVersion"_L1, version},
            {"capabilities"_L1, capabilities()},
            {"serverInfo"_L1, serverInfo()},
            {"instructions"_L1, instructions()}};
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
    r.append(QJsonObject{{"uri"_L1, QString::fromLatin1(CounterAppUri)},
                         {"name"_L1, "counter app"_L1},
                         {"mimeType"_L1, QString::fromLatin1(McpAppMimeType)},
                         {"description"_L1, "The page an MCP App host shows for counter-app"_L1}});
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
    if (m_validator.isRev20260728(m))
        handleRev20260728Request(m);
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
    else if (modern && (method == "tasks/get"_L1 || method == "tasks/update"_L1 ||
                        method == "tasks/cancel"_L1))
        answerTaskMethod(id, method, m.params());
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
                  isRev20260728(id),
                  {}};
    if (call.modern) {
        // The answers of earlier rounds come back sealed in requestState; this round's in
        // inputResponses.
        if (params.contains("requestState"_L1)) {
            const std::optional<QJsonObject> state =
                m_mrtr.open(params.value("requestState"_L1).toString(), u"tools/call"_s,
                            MrtrState::bindingOf(name, call.args));
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
    } else if (uri == QLatin1StringView(CounterAppUri)) {
        text = counterAppPage();
        mime = QString::fromLatin1(McpAppMimeType);
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
