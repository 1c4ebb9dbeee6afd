// SPDX-License-Identifier: MIT
#include "messagelinter.h"

#include "protocol/jsonrpcmessage.h"
#include "protocol/jsonschemavalidator.h"
#include "protocol/mcp.h"
#include "protocol/rev20260728.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

// A frame over this is not parsed a second time for the lints: the session already parsed it
// once, and a third copy of a 50 MB answer costs more than what its envelope could tell.
constexpr qsizetype LintParseLimit = 16 * 1024 * 1024;

// The id's value as text, whatever its type: what a server that changed the type kept.
QString looseText(const QJsonValue &id)
{
    return id.isString() ? id.toString() : QString::number(id.toDouble(), 'g', 17);
}

QString idText(const QJsonValue &id)
{
    return id.isString() ? u"\"%1\""_s.arg(id.toString()) : JsonSchemaValidator::jsonText(id);
}

// What is wrong with a message's JSON-RPC 2.0 envelope, or empty.
QString envelopeProblem(const QJsonObject &m)
{
    if (m.value("jsonrpc"_L1) != "2.0"_L1)
        return m.contains("jsonrpc"_L1) ? u"\"jsonrpc\" is not \"2.0\""_s
                                        : u"no \"jsonrpc\": \"2.0\" member"_s;
    const bool hasMethod = m.contains("method"_L1);
    const bool hasResult = m.contains("result"_L1);
    const bool hasError = m.contains("error"_L1);
    if (hasMethod) {
        if (!m.value("method"_L1).isString())
            return u"\"method\" is not a string"_s;
        if (hasResult || hasError)
            return u"a request or notification that also carries \"result\" or \"error\""_s;
        if (m.contains("params"_L1) && !m.value("params"_L1).isObject() &&
            !m.value("params"_L1).isArray())
            return u"\"params\" is neither an object nor an array"_s;
        if (m.contains("id"_L1) && !m.value("id"_L1).isString() &&
            !JsonSchemaValidator::isIntegral(m.value("id"_L1)))
            return u"a request id that is neither a string nor an integer"_s;
        return {};
    }
    if (hasResult == hasError)
        return hasResult ? u"a response with both \"result\" and \"error\""_s
                         : u"neither a method nor a result or error"_s;
    if (!m.contains("id"_L1))
        return u"a response without \"id\""_s;
    if (hasError) {
        const QJsonValue e = m.value("error"_L1);
        if (!e.isObject())
            return u"\"error\" is not an object"_s;
        if (!JsonSchemaValidator::isIntegral(e.toObject().value("code"_L1)))
            return u"the error's \"code\" is not an integer"_s;
        if (!e.toObject().value("message"_L1).isString())
            return u"the error's \"message\" is not a string"_s;
    }
    return {};
}

QByteArray cut(const QByteArray &frame)
{
    return frame.size() > DoctorEvidenceLimit ? frame.left(DoctorEvidenceLimit) : frame;
}

bool declared(const QJsonObject &caps, const QString &capability, const QString &flag = {})
{
    if (!caps.contains(capability))
        return false;
    return flag.isEmpty() || caps.value(capability).toObject().value(flag).toBool();
}

} // namespace

void MessageLinter::reset()
{
    // Requests in flight are kept: a late answer to one is still an answer, not a stray id.
    m_progress.clear();
    m_clientCaps = {};
    m_serverCaps = {};
    m_capsKnown = false;
    m_initializeSent = false;
    m_initializedSent = false;
    m_rev20260728 = false;
    m_requestedVersion.clear();
    m_outputSchemas.clear();
    m_walks.clear();
    m_walkOfCursor.clear();
    m_listens.clear();
    // What was said stays said: a server that breaks a rule on every connection is told once.
}

QList<DoctorFinding> MessageLinter::feed(const TranscriptEvent &event, qint64 index)
{
    m_new.clear();
    switch (event.direction) {
    case TranscriptEvent::Direction::Outgoing:
        onOutgoing(event);
        break;
    case TranscriptEvent::Direction::Incoming:
        onIncoming(event, index);
        break;
    default:
        break;
    }
    return std::exchange(m_new, {});
}

void MessageLinter::remember(const QString &key, Pending pending)
{
    if (m_pending.size() >= MaxPending) {
        // Forget the oldest: a server that never answers must not grow this without bound.
        auto oldest = m_pending.begin();
        for (auto it = m_pending.begin(); it != m_pending.end(); ++it)
            if (it->order < oldest->order)
                oldest = it;
        m_pending.erase(oldest);
    }
    pending.order = ++m_order;
    m_pending.insert(key, std::move(pending));
}

void MessageLinter::onOutgoing(const TranscriptEvent &event)
{
    if (event.raw.size() > LintParseLimit)
        return;
    const QJsonObject m = QJsonDocument::fromJson(event.raw).object();
    const QString method = m.value("method"_L1).toString();
    const QJsonObject params = m.value("params"_L1).toObject();
    const QJsonObject meta = params.value("_meta"_L1).toObject();
    const bool rev2026 = Rev20260728::isProtocolVersion(
        meta.value(QLatin1String(Rev20260728::MetaProtocolVersion)).toString());
    if (rev2026) {
        m_rev20260728 = !m_initializeSent;
        m_clientCaps = meta.value(QLatin1String(Rev20260728::MetaClientCapabilities)).toObject();
    }
    if (method.isEmpty())
        return; // our answer to a server's request
    if (!m.contains("id"_L1)) {
        if (method == "notifications/initialized"_L1)
            m_initializedSent = true;
        else if (method == "notifications/cancelled"_L1)
            m_cancelled.insert(JsonRpcMessage::idKey(params.value("requestId"_L1)));
        return;
    }
    Pending p;
    p.method = method;
    p.frame = cut(event.raw);
    p.rev20260728 = rev2026;
    if (method == "initialize"_L1) {
        // A new session (a connection, or a reconnect): what the last one declared is gone.
        reset();
        m_initializeSent = true;
        m_rev20260728 = false; // auto's server/discover probe was refused: the handshake era
        m_requestedVersion = params.value("protocolVersion"_L1).toString();
        m_clientCaps = params.value("capabilities"_L1).toObject();
    }
    if (method == "tools/call"_L1)
        p.tool = params.value("name"_L1).toString();
    if (!Mcp::listKeyFor(method).isEmpty()) {
        p.cursor = params.value("cursor"_L1).toString();
        if (const auto w = m_walkOfCursor.constFind(method + u' ' + p.cursor);
            params.contains("cursor"_L1) && w != m_walkOfCursor.cend() && m_walks.contains(*w)) {
            p.walk = *w;
        } else {
            p.walk = m_nextWalk++;
            m_walks.insert(p.walk, {});
            m_walks.remove(p.walk - MaxWalks);
        }
    }
    if (method == "subscriptions/listen"_L1) {
        if (m_listens.size() >= MaxWalks)
            m_listens.clear(); // streams are few; a client reopening for ever is not
        m_listens.insert(JsonRpcMessage::idKey(m.value("id"_L1)),
                         {params.value("notifications"_L1).toObject(), cut(event.raw), false});
    }
    const QJsonValue token = meta.value("progressToken"_L1);
    if (token.isString() || token.isDouble()) {
        p.progressToken = looseText(token);
        if (m_progressTokens.size() >= 4 * MaxPending)
            m_progressTokens.clear(); // bounded; an old token's progress would be long over
        m_progressTokens.insert(p.progressToken);
    }
    remember(JsonRpcMessage::idKey(m.value("id"_L1)), std::move(p));
}

void MessageLinter::onIncoming(const TranscriptEvent &event, qint64 index)
{
    if (m_stdio)
        m_exercised.insert(u"stdio.non-jsonrpc-stdout"_s);
    if (event.raw.size() > LintParseLimit)
        return;
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(event.raw, &pe);
    if (pe.error != QJsonParseError::NoError || (!doc.isObject() && !doc.isArray())) {
        const QString what =
            pe.error != QJsonParseError::NoError ? pe.errorString() : u"JSON, but not an object"_s;
        if (m_stdio)
            report(u"stdio.non-jsonrpc-stdout"_s, {},
                   u"The server wrote a line to stdout that is not a JSON-RPC message: %1"_s.arg(
                       QString::fromUtf8(event.raw.left(120)).simplified()),
                   {}, event, index);
        else
            report(u"jsonrpc.envelope-invalid"_s, u"not-json"_s,
                   u"The server sent a message that is not a JSON object (%1)"_s.arg(what), {},
                   event, index);
        return;
    }
    if (doc.isArray()) {
        // Batches left the protocol in 2025-06-18; each element is still checked.
        for (const QJsonValue &v : doc.array())
            onMessage(v.toObject(), event, index);
        return;
    }
    onMessage(doc.object(), event, index);
}

void MessageLinter::onMessage(const QJsonObject &m, const TranscriptEvent &event, qint64 index)
{
    m_exercised.insert(u"jsonrpc.envelope-invalid"_s);
    if (const QString why = envelopeProblem(m); !why.isEmpty())
        report(u"jsonrpc.envelope-invalid"_s, why,
               u"A message from the server is not valid JSON-RPC 2.0: %1"_s.arg(why), {}, event,
               index);
    if (m.contains("method"_L1)) {
        if (m.contains("id"_L1))
            onServerRequest(m, event, index);
        else
            onNotification(m, event, index);
        return;
    }
    const QJsonValue id = m.value("id"_L1);
    if (id.isNull() || id.isUndefined())
        return; // an error about a request the server could not read (JSON-RPC 2.0 §5)
    m_exercised.insert(u"jsonrpc.response-id-mismatch"_s);
    const QString key = JsonRpcMessage::idKey(id);
    if (const auto it = m_pending.constFind(key); it != m_pending.cend()) {
        const Pending request = *it;
        m_pending.erase(it);
        onResponse(m, request, event, index);
        return;
    }
    if (m_cancelled.contains(key))
        return;
    // No request with this id and type: the same value under the other type, or nothing.
    const QString loose = looseText(id);
    for (auto it = m_pending.cbegin(); it != m_pending.cend(); ++it) {
        if (it.key().mid(2) != loose) // a key is its type's letter, ':', and the value's text
            continue;
        const Pending request = *it;
        report(u"jsonrpc.response-id-mismatch"_s, request.method,
               u"The answer to %1 came with id %2, not the request's id (its type or value "
               u"changed)"_s.arg(request.method, idText(id)),
               request.frame, event, index);
        m_pending.erase(it);
        return;
    }
    report(
        u"jsonrpc.response-id-mismatch"_s, u"unknown"_s,
        u"A response came with id %1, which no request of this session carried"_s.arg(idText(id)),
        {}, event, index);
}

void MessageLinter::onResponse(const QJsonObject &m, const Pending &request,
                               const TranscriptEvent &event, qint64 index)
{
    if (!request.progressToken.isEmpty())
        m_progress.remove(request.progressToken);
    if (!m.value("result"_L1).isObject())
        return; // an error answer (or a broken envelope, said above)
    const QJsonObject result = m.value("result"_L1).toObject();
    if (request.method == "initialize"_L1)
        checkInitializeResult(result, request, event, index);
    else if (request.method == "server/discover"_L1)
        checkDiscoverResult(result, request, event, index);
    if (request.rev20260728)
        check2026Result(result, request, event, index);
    if (request.method == "tools/list"_L1)
        checkToolsPage(result, request, event, index);
    if (!Mcp::listKeyFor(request.method).isEmpty())
        checkPage(result, request, event, index);
    if (request.method == "tools/call"_L1)
        checkToolResult(result, request, event, index);
}

void MessageLinter::checkInitializeResult(const QJsonObject &result, const Pending &request,
                                          const TranscriptEvent &event, qint64 index)
{
    m_exercised.insert(u"lifecycle.initialize-result-invalid"_s);
    QStringList missing;
    if (!result.value("protocolVersion"_L1).isString())
        missing << u"protocolVersion"_s;
    if (!result.value("capabilities"_L1).isObject())
        missing << u"capabilities"_s;
    const QJsonObject info = result.value("serverInfo"_L1).toObject();
    if (!info.value("name"_L1).isString() || !info.value("version"_L1).isString())
        missing << u"serverInfo (name and version)"_s;
    if (!missing.isEmpty())
        report(u"lifecycle.initialize-result-invalid"_s, {},
               u"The initialize result lacks %1"_s.arg(missing.join(u", "_s)), request.frame, event,
               index);
    m_serverCaps = result.value("capabilities"_L1).toObject();
    m_capsKnown = true;
    const QString version = result.value("protocolVersion"_L1).toString();
    static const QStringList known = {u"2025-11-25"_s, u"2025-06-18"_s, u"2025-03-26"_s,
                                      u"2024-11-05"_s};
    m_exercised.insert(u"lifecycle.version-negotiation"_s);
    if (!version.isEmpty() && !known.contains(version) && !Rev20260728::isProtocolVersion(version))
        report(
            u"lifecycle.version-negotiation"_s, version,
            u"The server answered initialize with protocol version \"%1\", which is no "
            u"published revision (the client asked for \"%2\")"_s.arg(version, m_requestedVersion),
            request.frame, event, index);
}

void MessageLinter::checkDiscoverResult(const QJsonObject &result, const Pending &request,
                                        const TranscriptEvent &event, qint64 index)
{
    m_exercised.insert(u"discover.result-invalid"_s);
    QStringList missing;
    const QJsonArray versions = result.value("supportedVersions"_L1).toArray();
    if (versions.isEmpty())
        missing << u"supportedVersions"_s;
    if (!result.value("capabilities"_L1).isObject())
        missing << u"capabilities"_s;
    if (!missing.isEmpty())
        report(u"discover.result-invalid"_s, {},
               u"The server/discover result lacks %1"_s.arg(missing.join(u", "_s)), request.frame,
               event, index);
    if (result.value("capabilities"_L1).isObject()) {
        m_serverCaps = result.value("capabilities"_L1).toObject();
        m_capsKnown = true;
    }
}

void MessageLinter::check2026Result(const QJsonObject &result, const Pending &request,
                                    const TranscriptEvent &event, qint64 index)
{
    m_exercised << u"rev20260728.result-type-unknown"_s << u"rev20260728.result-type-missing"_s;
    if (!result.contains("resultType"_L1))
        report(u"rev20260728.result-type-missing"_s, request.method,
               u"The %1 result has no resultType"_s.arg(request.method), request.frame, event,
               index);
    const QString type = Rev20260728::resultType(result);
    if (!Rev20260728::isKnownResultType(type))
        report(u"rev20260728.result-type-unknown"_s, type,
               u"The %1 result has resultType \"%2\", which 2026-07-28 does not define"_s.arg(
                   request.method, type),
               request.frame, event, index);
    static const QStringList cacheable = {
        u"server/discover"_s,          u"tools/list"_s,    u"prompts/list"_s, u"resources/list"_s,
        u"resources/templates/list"_s, u"resources/read"_s};
    if (!cacheable.contains(request.method) || type != "complete"_L1)
        return;
    m_exercised << u"cache.hints-missing"_s << u"cache.hint-invalid"_s;
    if (!result.contains("ttlMs"_L1) || !result.contains("cacheScope"_L1)) {
        report(u"cache.hints-missing"_s, request.method,
               u"The %1 result lacks %2"_s.arg(
                   request.method, result.contains("ttlMs"_L1)        ? u"cacheScope"_s
                                   : result.contains("cacheScope"_L1) ? u"ttlMs"_s
                                                                      : u"ttlMs and cacheScope"_s),
               request.frame, event, index);
        return;
    }
    const QJsonValue ttl = result.value("ttlMs"_L1);
    if (result.contains("ttlMs"_L1) &&
        (!JsonSchemaValidator::isIntegral(ttl) || ttl.toDouble() < 0))
        report(u"cache.hint-invalid"_s, request.method + u"/ttlMs"_s,
               u"The %1 result's ttlMs is %2, not a non-negative integer"_s.arg(
                   request.method, JsonSchemaValidator::jsonText(ttl)),
               request.frame, event, index);
    const QJsonValue scope = result.value("cacheScope"_L1);
    if (result.contains("cacheScope"_L1) && scope != "public"_L1 && scope != "private"_L1)
        report(u"cache.hint-invalid"_s, request.method + u"/cacheScope"_s,
               u"The %1 result's cacheScope is %2, not \"public\" or \"private\""_s.arg(
                   request.method, JsonSchemaValidator::jsonText(scope)),
               request.frame, event, index);
}

void MessageLinter::checkToolsPage(const QJsonObject &result, const Pending &request,
                                   const TranscriptEvent &event, qint64 index)
{
    static const QRegularExpression nameRule(u"^[A-Za-z0-9_.-]{1,128}$"_s);
    m_exercised << u"tools.duplicate-name"_s << u"tools.input-schema-invalid"_s
                << u"tools.name-invalid"_s;
    Walk *walk = m_walks.contains(request.walk) ? &m_walks[request.walk] : nullptr;
    for (const QJsonValue &v : result.value("tools"_L1).toArray()) {
        const QJsonObject tool = v.toObject();
        const QString name = tool.value("name"_L1).toString();
        if (walk && walk->names.contains(name))
            report(u"tools.duplicate-name"_s, name,
                   u"tools/list lists the tool \"%1\" more than once"_s.arg(name), request.frame,
                   event, index);
        if (walk)
            walk->names.insert(name);
        if (!nameRule.match(name).hasMatch())
            report(u"tools.name-invalid"_s, name,
                   u"The tool name \"%1\" is not 1 to 128 of A-Z, a-z, 0-9, _, - and ."_s.arg(name),
                   request.frame, event, index);
        const QJsonValue input = tool.value("inputSchema"_L1);
        if (!input.isObject() || input.toObject().value("type"_L1) != "object"_L1)
            report(u"tools.input-schema-invalid"_s, name,
                   input.isObject()
                       ? u"The tool \"%1\" has an inputSchema of type %2, not \"object\""_s.arg(
                             name, JsonSchemaValidator::jsonText(input.toObject().value("type"_L1)))
                       : u"The tool \"%1\" has no inputSchema object"_s.arg(name),
                   request.frame, event, index);
        const QJsonValue output = tool.value("outputSchema"_L1);
        if (output.isUndefined()) {
            m_outputSchemas.remove(name);
            continue;
        }
        m_exercised.insert(u"tools.output-schema-invalid"_s);
        if (!output.isObject() || output.toObject().value("type"_L1) != "object"_L1) {
            report(u"tools.output-schema-invalid"_s, name,
                   u"The tool \"%1\" has an outputSchema that is not a schema of type "
                   u"\"object\""_s.arg(name),
                   request.frame, event, index);
            continue;
        }
        m_outputSchemas.insert(name, output.toObject());
    }
}

void MessageLinter::checkPage(const QJsonObject &result, const Pending &request,
                              const TranscriptEvent &event, qint64 index)
{
    const QJsonValue next = result.value("nextCursor"_L1);
    if (!next.isString())
        return;
    m_exercised.insert(u"pagination.cursor-repeats"_s);
    if (!m_walks.contains(request.walk))
        return;
    Walk &walk = m_walks[request.walk];
    if (!request.cursor.isEmpty())
        walk.cursors.insert(request.cursor);
    if (walk.cursors.contains(next.toString()))
        report(u"pagination.cursor-repeats"_s, request.method,
               u"%1 gave the cursor \"%2\" again: the list never ends"_s.arg(
                   request.method, next.toString().left(80)),
               request.frame, event, index);
    m_walkOfCursor.insert(request.method + u' ' + next.toString(), request.walk);
    if (m_walkOfCursor.size() > 4 * MaxPending)
        m_walkOfCursor.clear(); // a server minting a cursor per page for ever
}

void MessageLinter::checkToolResult(const QJsonObject &result, const Pending &request,
                                    const TranscriptEvent &event, qint64 index)
{
    const auto schema = m_outputSchemas.constFind(request.tool);
    const bool isError = result.value("isError"_L1).toBool();
    const QJsonValue structured = result.value("structuredContent"_L1);
    if (!structured.isUndefined() && !isError) {
        // The same JSON as a text block, for clients from before structured output.
        m_exercised.insert(u"tools.structured-content-text"_s);
        bool serialised = false;
        for (const QJsonValue &c : result.value("content"_L1).toArray()) {
            const QJsonObject block = c.toObject();
            if (block.value("type"_L1) != "text"_L1)
                continue;
            const QJsonDocument text =
                QJsonDocument::fromJson(block.value("text"_L1).toString().toUtf8());
            if ((text.isObject() && QJsonValue(text.object()) == structured) ||
                (text.isArray() && QJsonValue(text.array()) == structured))
                serialised = true;
        }
        if (!serialised)
            report(u"tools.structured-content-text"_s, request.tool,
                   u"The tool \"%1\" returned structuredContent without the same JSON in a "
                   u"text block"_s.arg(request.tool),
                   request.frame, event, index);
    }
    if (schema == m_outputSchemas.cend() || isError)
        return;
    m_exercised << u"tools.structured-content-missing"_s << u"tools.output-schema-violation"_s;
    if (structured.isUndefined()) {
        report(u"tools.structured-content-missing"_s, request.tool,
               u"The tool \"%1\" has an outputSchema but returned no structuredContent"_s.arg(
                   request.tool),
               request.frame, event, index);
        return;
    }
    const QList<JsonSchemaValidator::Violation> violations =
        JsonSchemaValidator::validate(structured, *schema);
    if (!violations.isEmpty())
        report(
            u"tools.output-schema-violation"_s, request.tool,
            u"The tool \"%1\" returned structuredContent that its outputSchema refuses: %2"_s.arg(
                request.tool, violations.constFirst().text()),
            request.frame, event, index);
}

void MessageLinter::onServerRequest(const QJsonObject &m, const TranscriptEvent &event,
                                    qint64 index)
{
    const QString method = m.value("method"_L1).toString();
    if (m_rev20260728 && !m_initializeSent) {
        m_exercised.insert(u"rev20260728.server-request"_s);
        report(u"rev20260728.server-request"_s, method,
               u"The server sent the request %1; in 2026-07-28 servers send none"_s.arg(method), {},
               event, index);
        return;
    }
    if (m_initializeSent && !m_rev20260728) {
        m_exercised.insert(u"lifecycle.request-before-initialized"_s);
        if (!m_initializedSent && method != "ping"_L1)
            report(u"lifecycle.request-before-initialized"_s, method,
                   u"The server sent the request %1 before the client's "
                   u"notifications/initialized"_s.arg(method),
                   {}, event, index);
    }
    // A server asks only for what the client declared.
    static const QHash<QString, QString> needs = {{u"sampling/createMessage"_s, u"sampling"_s},
                                                  {u"roots/list"_s, u"roots"_s},
                                                  {u"elicitation/create"_s, u"elicitation"_s}};
    const QString capability = needs.value(method);
    if (capability.isEmpty() || (!m_initializeSent && !m_rev20260728))
        return;
    m_exercised.insert(u"capabilities.undeclared-request"_s);
    if (!declared(m_clientCaps, capability))
        report(
            u"capabilities.undeclared-request"_s, method,
            u"The server sent %1, but the client did not declare \"%2\""_s.arg(method, capability),
            {}, event, index);
}

void MessageLinter::onNotification(const QJsonObject &m, const TranscriptEvent &event, qint64 index)
{
    const QString method = m.value("method"_L1).toString();
    const QJsonObject params = m.value("params"_L1).toObject();
    const QJsonValue subscription =
        params.value("_meta"_L1).toObject().value(QLatin1String(Rev20260728::MetaSubscriptionId));
    if (subscription.isString() || subscription.isDouble())
        onListenNotification(method, params, event, index);
    if (method == "notifications/progress"_L1) {
        m_exercised << u"progress.not-increasing"_s << u"progress.unknown-token"_s;
        const QJsonValue tokenValue = params.value("progressToken"_L1);
        const QString token = looseText(tokenValue);
        if (!m_progressTokens.contains(token)) {
            report(u"progress.unknown-token"_s, token,
                   u"A progress notification names the token %1, which no request of the client "
                   u"carried"_s.arg(idText(tokenValue)),
                   {}, event, index);
            return;
        }
        const double progress = params.value("progress"_L1).toDouble();
        if (const auto last = m_progress.constFind(token);
            last != m_progress.cend() && !(progress > *last))
            report(u"progress.not-increasing"_s, token,
                   u"Progress for the token %1 went from %2 to %3"_s.arg(idText(tokenValue))
                       .arg(*last)
                       .arg(progress),
                   {}, event, index);
        m_progress.insert(token, progress);
        return;
    }
    if (!m_capsKnown)
        return; // before the capabilities are known (server-everything's early list_changed)
    struct Needs
    {
        const char *method;
        const char *capability;
        const char *flag;
    };
    static constexpr Needs table[] = {
        {"notifications/tools/list_changed", "tools", "listChanged"},
        {"notifications/prompts/list_changed", "prompts", "listChanged"},
        {"notifications/resources/list_changed", "resources", "listChanged"},
        {"notifications/resources/updated", "resources", "subscribe"},
        {"notifications/message", "logging", ""},
    };
    for (const Needs &n : table) {
        if (method != QLatin1String(n.method))
            continue;
        m_exercised.insert(u"capabilities.undeclared-notification"_s);
        const QString capability = QString::fromLatin1(n.capability);
        const QString flag = QString::fromLatin1(n.flag);
        if (!declared(m_serverCaps, capability, flag))
            report(
                u"capabilities.undeclared-notification"_s, method,
                flag.isEmpty()
                    ? u"The server sent %1 without declaring the \"%2\" capability"_s.arg(
                          method, capability)
                    : u"The server sent %1 without declaring %2.%3"_s.arg(method, capability, flag),
                {}, event, index);
    }
}

void MessageLinter::onListenNotification(const QString &method, const QJsonObject &params,
                                         const TranscriptEvent &event, qint64 index)
{
    const QJsonValue id =
        params.value("_meta"_L1).toObject().value(QLatin1String(Rev20260728::MetaSubscriptionId));
    const auto listen = m_listens.find(JsonRpcMessage::idKey(id));
    if (listen == m_listens.end())
        return; // a stream this linter did not see open (the engine says so itself)
    m_exercised << u"listen.not-acknowledged-first"_s << u"listen.unrequested-notification"_s;
    if (method == "notifications/subscriptions/acknowledged"_L1) {
        listen->acknowledged = true;
        return;
    }
    if (!listen->acknowledged)
        report(u"listen.not-acknowledged-first"_s, method,
               u"%1 came on the subscription %2 before notifications/subscriptions/"
               u"acknowledged"_s.arg(method, idText(id)),
               listen->frame, event, index);
    static const QHash<QString, QString> flags = {
        {u"notifications/tools/list_changed"_s, u"toolsListChanged"_s},
        {u"notifications/prompts/list_changed"_s, u"promptsListChanged"_s},
        {u"notifications/resources/list_changed"_s, u"resourcesListChanged"_s}};
    bool requested = true;
    if (const auto flag = flags.constFind(method); flag != flags.cend())
        requested = listen->filter.value(*flag).toBool();
    else if (method == "notifications/resources/updated"_L1)
        requested = listen->filter.value("resourceSubscriptions"_L1)
                        .toArray()
                        .contains(params.value("uri"_L1));
    if (!requested)
        report(u"listen.unrequested-notification"_s, method,
               u"%1 came on the subscription %2, whose filter did not ask for it"_s.arg(method,
                                                                                        idText(id)),
               listen->frame, event, index);
}

void MessageLinter::report(const QString &checkId, const QString &subject, const QString &message,
                           const QByteArray &request, const TranscriptEvent &event, qint64 index)
{
    if (m_said.contains(checkId + u'\x1f' + subject))
        return;
    m_said.insert(checkId + u'\x1f' + subject);
    const DoctorCheck *check = DoctorCatalog::find(checkId);
    Q_ASSERT(check);
    DoctorFinding f;
    f.checkId = checkId;
    f.severity = check ? check->severity : DoctorSeverity::Error;
    f.message = message;
    f.evidence.request = request;
    f.evidence.response = cut(event.raw);
    f.evidence.transcriptIndex = index;
    f.evidence.timeMs = event.timeMs;
    f.evidence.generation = event.generation;
    f.live = true;
    m_new.append(std::move(f));
}

} // namespace Sonde
