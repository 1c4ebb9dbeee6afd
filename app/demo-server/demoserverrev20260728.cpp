// SPDX-License-Identifier: MIT
// DemoServer's 2026-07-28 half: discovery, _meta, result decoration, subscriptions/listen,
// and the tools that need client input (legacy: server -> client requests; modern: MRTR).
// Kept apart from demoserver.cpp (the tool table and the 2025-11-25 dispatch) so neither
// file passes 500 lines.
#include "demojson.h"
#include "demoserver.h"

#include <QTimer>

#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Sonde {

using namespace DemoJson;

// How long a list or a read stays fresh (server/utilities/caching.mdx). The tool list
// changes with toggle-extra-tool, per server, so it is short and private; the counter
// changes with every increment, so it is never fresh.
static QJsonObject cacheHintsFor(const JsonRpcMessage &m)
{
    auto hints = [](int ttlMs, const char *scope) {
        return QJsonObject{{"ttlMs"_L1, ttlMs}, {"cacheScope"_L1, QLatin1StringView(scope)}};
    };
    const QString method = m.method();
    if (method == "tools/list"_L1)
        return hints(60'000, "private");
    if (method == "server/discover"_L1 || method == "prompts/list"_L1 ||
        method == "resources/list"_L1 || method == "resources/templates/list"_L1)
        return hints(300'000, "public");
    if (method == "resources/read"_L1)
        return m.params().value("uri"_L1) == "demo://counter"_L1 ? hints(0, "private")
                                                                 : hints(300'000, "public");
    return {};
}

static QString capabilityFor(const QString &inputMethod)
{
    if (inputMethod == "elicitation/create"_L1)
        return u"elicitation"_s;
    if (inputMethod == "sampling/createMessage"_L1)
        return u"sampling"_s;
    return u"roots"_s;
}

void DemoServer::handleRev20260728Request(const JsonRpcMessage &m)
{
    const QJsonValue id = m.id();
    if (m.method() == "initialize"_L1 && m_validator.era() == DemoEra::Rev20260728) {
        // A legacy client has no way forward: this message is all it can show its user.
        const QString requested = m.params().value("protocolVersion"_L1).toString();
        const QStringList supported = DemoProtocol::supportedVersions(DemoEra::Rev20260728);
        fail(
            id, DemoProtocol::UnsupportedProtocolVersion,
            u"Unsupported protocol version %1: this server speaks only %2 (no initialize; "
            "every request carries its version in _meta)"_s.arg(requested, supported.join(u", "_s)),
            QJsonObject{{"supported"_L1, QJsonArray::fromStringList(supported)},
                        {"requested"_L1, requested}});
        return;
    }
    const Rev20260728RequestValidator::Verdict verdict = m_validator.validate(m);
    if (!verdict.request) {
        fail(id, verdict.code, verdict.message, verdict.data);
        return;
    }
    m_modern.insert(JsonRpcMessage::idKey(id), {*verdict.request, cacheHintsFor(m)});
    handleRequestFor(m, true);
}

bool DemoServer::isRev20260728(const QJsonValue &id) const
{
    return m_modern.contains(JsonRpcMessage::idKey(id));
}

bool DemoServer::mayLog(const QString &level, bool always) const
{
    const auto call = m_modern.constFind(JsonRpcMessage::idKey(m_related));
    if (call != m_modern.cend())
        return !call->meta.logLevel.isEmpty() &&
               Rev20260728RequestValidator::logLevelRank(level) >=
                   Rev20260728RequestValidator::logLevelRank(call->meta.logLevel);
    return always || Rev20260728RequestValidator::logLevelRank(level) >=
                         Rev20260728RequestValidator::logLevelRank(m_logLevel);
}

QJsonObject DemoServer::discover() const
{
    return {{"supportedVersions"_L1,
             QJsonArray::fromStringList(DemoProtocol::supportedVersions(m_validator.era()))},
            {"capabilities"_L1, capabilities()},
            {"instructions"_L1, instructions()}};
}

QStringList DemoServer::resourceUris() const
{
    QStringList uris;
    for (const QJsonValue &r : resources())
        uris.append(r.toObject().value("uri"_L1).toString());
    return uris;
}

void DemoServer::listen(const QJsonValue &id, const QJsonObject &params)
{
    const QJsonObject granted =
        DemoSubscriptions::grant(params.value("notifications"_L1).toObject(), resourceUris());
    m_listens.add(id, granted);
    // No answer: the listen request stays open until the client cancels it or we shut down.
    notify(u"notifications/subscriptions/acknowledged"_s,
           {{"notifications"_L1, granted},
            {"_meta"_L1, QJsonObject{{DemoProtocol::SubscriptionIdKey, id}}}});
}

void DemoServer::publish(const QString &method, const QJsonObject &params)
{
    for (const QJsonValue &id : m_listens.listenersFor(method, params.value("uri"_L1).toString())) {
        QJsonObject p = params;
        p.insert("_meta"_L1, QJsonObject{{DemoProtocol::SubscriptionIdKey, id}});
        const QJsonValue previous = std::exchange(m_related, id);
        notify(method, p);
        m_related = previous;
    }
}

void DemoServer::shutdown()
{
    for (const QJsonValue &id : m_listens.all()) {
        m_listens.remove(id);
        respond(id, {{"_meta"_L1, QJsonObject{{DemoProtocol::SubscriptionIdKey, id}}}});
    }
}

void DemoServer::need(const ToolCall &c, const QJsonObject &requests, Answered then)
{
    if (!c.modern) {
        QStringList undeclared;
        for (const QJsonValue &request : requests) {
            const QString capability =
                capabilityFor(request.toObject().value("method"_L1).toString());
            if (m_clientCapabilities && !m_clientCapabilities->contains(capability))
                undeclared << capability;
        }
        if (!undeclared.isEmpty()) {
            respond(c.id, textResult(u"%1 needs the client capability %2, which this client did "
                                     u"not declare"_s.arg(c.name, undeclared.join(u", "_s)),
                                     true));
            return;
        }
        askInTurn(c.id, requests, {}, std::move(then));
        return;
    }
    QJsonObject missing, got;
    for (auto it = requests.begin(); it != requests.end(); ++it) {
        if (c.answers.contains(it.key()))
            got.insert(it.key(), c.answers.value(it.key()));
        else
            missing.insert(it.key(), it.value());
    }
    if (missing.isEmpty()) {
        then(got);
        return;
    }
    // Never ask for what the client did not declare.
    const QJsonObject declared =
        m_modern.value(JsonRpcMessage::idKey(c.id)).meta.clientCapabilities;
    QJsonObject required;
    for (const QJsonValue &request : std::as_const(missing)) {
        const QString capability = capabilityFor(request.toObject().value("method"_L1).toString());
        if (!declared.contains(capability))
            required.insert(capability, QJsonObject{});
    }
    if (!required.isEmpty()) {
        fail(c.id, DemoProtocol::MissingRequiredClientCapability,
             u"Missing required client capability: %1 needs %2 in _meta %3"_s.arg(
                 c.name, required.keys().join(u", "_s), DemoProtocol::ClientCapabilitiesKey),
             QJsonObject{{"requiredCapabilities"_L1, required}});
        return;
    }
    respond(c.id,
            {{"resultType"_L1, "input_required"_L1},
             {"inputRequests"_L1, missing},
             {"requestState"_L1, m_mrtr.seal(u"tools/call"_s, MrtrState::bindingOf(c.name, c.args),
                                             {{"answers"_L1, c.answers}})}});
}

void DemoServer::askInTurn(const QJsonValue &id, QJsonObject pending, QJsonObject gathered,
                           Answered then)
{
    if (pending.isEmpty()) {
        then(gathered);
        return;
    }
    const QString key = pending.begin().key();
    const QJsonObject request = pending.take(key).toObject();
    const QString method = request.value("method"_L1).toString();
    ask(method, request.value("params"_L1).toObject(),
        [this, id, key, method, pending, gathered, then](const JsonRpcMessage &a) mutable {
            if (a.type() == JsonRpcMessage::Type::ErrorResponse) {
                const QString what = method == "roots/list"_L1 ? method : capabilityFor(method);
                respond(id, textResult(what + u" failed: "_s + a.errorMessage(), true));
                return;
            }
            gathered.insert(key, a.result());
            askInTurn(id, std::move(pending), std::move(gathered), std::move(then));
        });
}

static QJsonObject inputRequest(const QString &method, const QJsonObject &params)
{
    return {{"method"_L1, method}, {"params"_L1, params}};
}

static QJsonObject elicitation(const QString &message, const QJsonObject &requestedSchema)
{
    return inputRequest(
        u"elicitation/create"_s,
        {{"mode"_L1, "form"_L1}, {"message"_L1, message}, {"requestedSchema"_L1, requestedSchema}});
}

static QString compact(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

void DemoServer::askUser(const ToolCall &c)
{
    const QJsonObject requested =
        schema({{"name"_L1, QJsonObject{{"type"_L1, "string"_L1}, {"default"_L1, "Ada"_L1}}},
                {"confirm"_L1, QJsonObject{{"type"_L1, "boolean"_L1}, {"default"_L1, true}}}},
               {u"name"_s});
    need(c, {{"who"_L1, elicitation(u"Who is using the demo?"_s, requested)}},
         [this, id = c.id](const QJsonObject &answers) {
             const QJsonObject r = answers.value("who"_L1).toObject();
             respond(id, textResult(u"action=%1 content=%2"_s.arg(
                             r.value("action"_L1).toString(),
                             compact(r.value("content"_L1).toObject()))));
         });
}

void DemoServer::askModel(const ToolCall &c)
{
    const QString question = c.args.value("question"_L1).toString(u"What is MCP?"_s);
    const QJsonObject params{
        {"messages"_L1,
         QJsonArray{QJsonObject{{"role"_L1, "user"_L1}, {"content"_L1, textContent(question)}}}},
        {"maxTokens"_L1, 100}};
    need(c, {{"answer"_L1, inputRequest(u"sampling/createMessage"_s, params)}},
         [this, id = c.id](const QJsonObject &answers) {
             const QJsonObject r = answers.value("answer"_L1).toObject();
             respond(id, textResult(u"model %1 said: %2"_s.arg(
                             r.value("model"_L1).toString(),
                             r.value("content"_L1).toObject().value("text"_L1).toString())));
         });
}

void DemoServer::listRoots(const ToolCall &c)
{
    need(c, {{"roots"_L1, inputRequest(u"roots/list"_s, {})}},
         [this, id = c.id](const QJsonObject &answers) {
             QStringList uris;
             for (const QJsonValue &root :
                  answers.value("roots"_L1).toObject().value("roots"_L1).toArray())
                 uris.append(root.toObject().value("uri"_L1).toString());
             respond(id, textResult(u"roots: "_s + uris.join(u", "_s)));
         });
}

void DemoServer::confirmTwice(const ToolCall &c)
{
    const QJsonObject yesNo =
        schema({{"confirm"_L1, QJsonObject{{"type"_L1, "boolean"_L1}, {"default"_L1, true}}}});
    // The second question is asked only once the first is answered: two rounds.
    need(c, {{"first"_L1, elicitation(u"Step 1 of 2: go on?"_s, yesNo)}},
         [this, c, yesNo](const QJsonObject &first) {
             need(c, {{"second"_L1, elicitation(u"Step 2 of 2: really?"_s, yesNo)}},
                  [this, id = c.id, first](const QJsonObject &second) {
                      respond(
                          id,
                          textResult(u"confirmed twice: first=%1 second=%2"_s.arg(
                              first.value("first"_L1).toObject().value("action"_L1).toString(),
                              second.value("second"_L1).toObject().value("action"_L1).toString())));
                  });
         });
}

void DemoServer::longJob(const ToolCall &c)
{
    const int ms = std::clamp(int(c.args.value("ms"_L1).toInteger(1500)), 0, 3'600'000);
    const QJsonObject done = textResult(u"long job done after %1 ms"_s.arg(ms));
    const bool followsTasks = c.modern && m_modern.value(JsonRpcMessage::idKey(c.id))
                                              .meta.clientCapabilities.value("extensions"_L1)
                                              .toObject()
                                              .contains("io.modelcontextprotocol/tasks"_L1);
    if (followsTasks) {
        // A durable handle at once; the work goes on without the request (SEP-2663).
        respond(c.id, m_tasks.start(ms, done, u"working on it"_s));
        return;
    }
    QTimer::singleShot(ms, this, [this, id = c.id, done] { respond(id, done); });
}

void DemoServer::answerTaskMethod(const QJsonValue &id, const QString &method,
                                  const QJsonObject &params)
{
    const QString taskId = params.value("taskId"_L1).toString();
    if (!m_tasks.contains(taskId)) {
        fail(id, JsonRpcCode::InvalidParams, u"no task \"%1\""_s.arg(taskId));
        return;
    }
    if (method == "tasks/get"_L1)
        respond(id, m_tasks.get(taskId));
    else if (method == "tasks/cancel"_L1)
        respond(id, m_tasks.cancel(taskId) ? QJsonObject{} : QJsonObject{});
    else
        respond(id, {}); // tasks/update: this demo's tasks ask for nothing
}

} // namespace Sonde
