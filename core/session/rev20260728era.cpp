// SPDX-License-Identifier: MIT
#include "session/rev20260728era.h"

#include "config/serverconfig.h"
#include "session/listcache.h"
#include "session/operation.h"
#include "session/sessionhost.h"
#include "session/sessionlimits.h"
#include "session/sessionsnapshot.h"
#include "transport/faultinjectingtransport.h"

#include <QTimer>

#include <memory>

using namespace Qt::StringLiterals;

namespace Sonde {

static constexpr auto TasksExtension = "io.modelcontextprotocol/tasks";

Rev20260728Era::Rev20260728Era(SessionHost &host)
    : SessionEra(host), m_listen(host),
      m_tasks(host, [this](quint64 ticket, const QString &prefix) { askForInput(ticket, prefix); })
{
}

bool Rev20260728Era::speaks(const QString &version) const
{
    return Rev20260728::isProtocolVersion(version);
}

QStringList Rev20260728Era::probedVersions() const
{
    return Rev20260728::supportedProtocolVersions();
}

void Rev20260728Era::reset()
{
    m_version.clear();
    m_listen.reset();
}

QJsonObject Rev20260728Era::requestParams(const QString &method, const QJsonObject &params)
{
    Q_UNUSED(method)
    // What the client says of itself is the same on every request: built once, not per call.
    if (m_context.clientInfo.isEmpty()) {
        m_context.clientCapabilities = capabilities();
        m_context.clientInfo = clientInfo();
    }
    // The probe, before a version is chosen, asks with this revision's own.
    m_context.protocolVersion = m_version.isEmpty() ? probedVersions().constFirst() : m_version;
    m_context.logLevel = m_logLevel;
    return Rev20260728::withRequestMeta(params, m_context);
}

QJsonObject Rev20260728Era::capabilities() const
{
    // Sonde follows tasks, so it says so on every request; a server may then answer a call
    // with one instead of making it wait (declared only where it is followed).
    QJsonObject caps = m_host.clientCapabilities();
    QJsonObject extensions = caps.value("extensions"_L1).toObject();
    extensions.insert(QLatin1StringView(TasksExtension), QJsonObject{});
    caps.insert("extensions"_L1, extensions);
    return caps;
}

void Rev20260728Era::describe(SessionSnapshot &snapshot) const
{
    snapshot.sessionId.clear(); // this revision has none; an id a server sends means nothing
    snapshot.sessionless = true;
    snapshot.toolHeaders = m_host.config().route != ServerConfig::Route::Stdio;
    snapshot.subscriptions = m_listen.status();
    snapshot.cacheHints = m_host.lists().hints();
}

bool Rev20260728Era::cancelsWithNotification() const
{
    // Over HTTP, closing the request's stream is the cancellation
    // (basic/patterns/cancellation.mdx).
    return m_host.config().route == ServerConfig::Route::Stdio;
}

bool Rev20260728Era::takeResponse(const JsonRpcMessage &response)
{
    if (!m_listen.isStream(response.id()))
        return false;
    m_listen.answered(response);
    return true;
}

bool Rev20260728Era::takeRequestFailure(const QJsonValue &id, const Error &error)
{
    if (id.isUndefined() || !m_listen.isStream(id))
        return false;
    m_listen.failed(error);
    return true;
}

bool Rev20260728Era::takeNotification(const JsonRpcMessage &notification)
{
    return m_listen.takeNotification(notification);
}

void Rev20260728Era::clear()
{
    m_inputRequests.clear();
    m_tasks.stopAll();
}

void Rev20260728Era::listRead(const QString &method, const QJsonObject &result)
{
    m_host.lists().noteHints(method, result);
}

QJsonArray Rev20260728Era::acceptTools(const QJsonArray &tools)
{
    // Over HTTP a tool whose x-mcp-header annotations break the rules must be left out
    // (transports/streamable-http.mdx, "Custom Headers"); on stdio they mean nothing.
    if (m_host.config().route == ServerConfig::Route::Stdio)
        return tools;
    QJsonArray accepted;
    McpHeaders::ToolParams params;
    for (const QJsonValue &v : tools) {
        const QJsonObject tool = v.toObject();
        const QString name = tool.value("name"_L1).toString();
        QString why;
        const std::optional<QList<McpHeaders::Param>> p =
            McpHeaders::paramsOf(tool.value("inputSchema"_L1).toObject(), &why);
        if (!p) {
            m_host.recordViolation(u"tool \"%1\" left out of tools/list: %2"_s.arg(name, why));
            continue;
        }
        if (!p->isEmpty())
            params.insert(name, *p);
        accepted.append(v);
    }
    m_toolHeaders = params;
    if (FaultInjectingTransport *t = m_host.transport())
        t->setToolHeaders(m_toolHeaders);
    return accepted;
}

bool Rev20260728Era::continueCall(quint64 ticket, const JsonRpcMessage &response,
                                  const Error &error)
{
    if (!error.isError())
        return continueWithResult(ticket, response);
    return retryAfterHeaderMismatch(ticket, error);
}

bool Rev20260728Era::continueWithResult(quint64 ticket, const JsonRpcMessage &response)
{
    Operation *op = m_host.operation(ticket);
    if (!op)
        return true;
    const QJsonObject result = response.result().toObject();
    const QString type = Rev20260728::resultType(result);
    if (type == "complete"_L1)
        return false;
    if (type == "task"_L1) {
        m_tasks.follow(ticket, result);
        return true;
    }
    if (type != "input_required"_L1) {
        m_host.finish(ticket, {},
                      Error::protocol(u"the server answered with resultType \"%1\", which "
                                      u"2026-07-28 does not define"_s.arg(type)));
        return true;
    }
    const QString method = op->request.method;
    if (method != "tools/call"_L1 && method != "resources/read"_L1 && method != "prompts/get"_L1) {
        m_host.finish(ticket, {},
                      Error::protocol(u"the server asked for input on %1, where 2026-07-28 "
                                      u"does not allow it (only tools/call, resources/read "
                                      u"and prompts/get)"_s.arg(method)));
        return true;
    }
    if (++op->rounds > SessionLimits::MaxInputRounds) {
        m_host.finish(ticket, {},
                      Error::protocol(u"the server asked for input %1 times in a row; Sonde "
                                      u"stops at %2"_s.arg(op->rounds)
                                          .arg(SessionLimits::MaxInputRounds)));
        return true;
    }
    QString why;
    std::optional<InputRound> round = InputRound::from(result, &why);
    if (!round) {
        m_host.finish(ticket, {}, Error::protocol(u"a malformed input_required: "_s + why));
        return true;
    }
    op->input = std::move(round);
    if (op->input->requests().isEmpty()) {
        sendInputRetry(ticket); // only requestState: retry at once (mrtr.mdx)
        return true;
    }
    askForInput(ticket, u"input"_s);
    return true;
}

void Rev20260728Era::askForInput(quint64 ticket, const QString &prefix)
{
    // Each input request goes to the front end as the server request it would have been in
    // 2025-11-25, under an id of this session's own that never reaches the wire.
    const Operation *op = m_host.operation(ticket);
    if (!op || !op->input)
        return;
    const QList<InputRound::Request> requests = op->input->requests();
    const int round = op->rounds;
    for (const InputRound::Request &r : requests) {
        const QString id = u"%1-%2-%3-%4"_s.arg(prefix).arg(ticket).arg(round).arg(r.key);
        m_inputRequests.insert(id, {ticket, r.key});
        m_host.ask(ServerRequest{m_host.config().name, m_host.generation(), QJsonValue(id),
                                 r.method, r.params});
    }
}

bool Rev20260728Era::takeReply(const ServerReply &reply)
{
    if (!reply.id.isString())
        return false;
    const auto found = m_inputRequests.constFind(reply.id.toString());
    if (found == m_inputRequests.constEnd())
        return false;
    const auto [ticket, key] = *found;
    m_inputRequests.erase(found);
    Operation *op = m_host.operation(ticket);
    if (!op || !op->input)
        return true;
    if (reply.error.isError()) {
        // The input was refused locally (no answer given): the call ends here; nothing is
        // retried behind the user's back.
        m_host.finish(
            ticket, {},
            Error::cancelled(u"the input the server asked for (%1) was not given: %2"_s.arg(
                key, reply.error.message())));
        return true;
    }
    op->input->answer(key, reply.result);
    if (op->input->isAnswered()) {
        if (m_tasks.follows(ticket))
            m_tasks.sendInput(ticket);
        else
            sendInputRetry(ticket);
    }
    return true;
}

void Rev20260728Era::sendInputRetry(quint64 ticket)
{
    Operation *op = m_host.operation(ticket);
    if (!op || !op->input)
        return;
    if (!m_host.isReady()) {
        m_host.finish(ticket, {},
                      Error::transport(u"the connection closed while the input was gathered"_s,
                                       Error::Condition::NotConnected));
        return;
    }
    const QJsonObject params = op->input->retryParams(op->sentParams);
    QJsonObject requests;
    for (const InputRound::Request &r : op->input->requests())
        requests.insert(r.key, r.method);
    const QJsonValue previous = m_host.requestIdOf(ticket);
    const int round = op->rounds;
    const QString method = op->request.method;
    const QString name =
        op->request.params.value("name"_L1).toString(op->request.params.value("uri"_L1).toString());
    op->input.reset();
    const QJsonValue id =
        m_host.sendRequest(method, params, op->request.timeoutMs, op->request.progressToken(),
                           [this, ticket](const JsonRpcMessage &r, const Error &e) {
                               if (!e.isError() && continueWithResult(ticket, r))
                                   return;
                               m_host.finish(ticket, r.result(), e);
                           });
    m_host.setRequestId(ticket, id);
    m_host.record(LifecycleDetails::InputRequired{.id = previous,
                                                  .nextId = id,
                                                  .round = round,
                                                  .method = method,
                                                  .name = name,
                                                  .requests = requests});
}

bool Rev20260728Era::answerLocally(quint64 ticket)
{
    Operation *op = m_host.operation(ticket);
    const QString method = op->request.method;
    const QJsonObject params = op->request.params;
    if (method == "logging/setLevel"_L1) {
        // There is no setLevel in 2026-07-28: the level rides on every request's _meta.
        m_logLevel = params.value("level"_L1).toString();
        m_host.finish(ticket,
                      QJsonObject{{"_meta"_L1, QJsonObject{{"sonde/local"_L1,
                                                            u"2026-07-28 has no logging/setLevel; "
                                                            u"the level is sent in each request's "
                                                            u"_meta"_s}}}},
                      {});
        return true;
    }
    if (method == "resources/subscribe"_L1 || method == "resources/unsubscribe"_L1) {
        // subscriptions/listen replaces them: the stream is opened again with the new set.
        const QString uri = params.value("uri"_L1).toString();
        if (method == "resources/subscribe"_L1)
            m_listen.subscribe(uri);
        else
            m_listen.unsubscribe(uri);
        m_listen.close();
        m_listen.open();
        m_host.finish(ticket, QJsonObject{{"subscriptions"_L1, m_listen.status().toJson()}}, {});
        return true;
    }
    if (method == "ping"_L1) {
        // No ping in this revision: server/discover is the cheapest request that proves the
        // server answers (keepalive, the check after a timed-out write).
        ++op->outcome.attempts;
        const QJsonValue id = m_host.sendRequest(
            u"server/discover"_s, {}, op->request.timeoutMs, {},
            [this, ticket](const JsonRpcMessage &, const Error &e) {
                m_host.finish(ticket, e.isError() ? QJsonValue() : QJsonObject{}, e);
            });
        m_host.setRequestId(ticket, id);
        return true;
    }
    return false;
}

bool Rev20260728Era::cancel(quint64 ticket, const QString &reason)
{
    if (!m_tasks.follows(ticket))
        return false;
    m_tasks.cancel(ticket);
    m_host.finish(ticket, {}, Error::cancelled(reason));
    return true;
}

bool Rev20260728Era::retryAfterHeaderMismatch(quint64 ticket, const Error &error)
{
    Operation *op = m_host.operation(ticket);
    if (!op || op->headersRefreshed || op->request.method != "tools/call"_L1 ||
        Rev20260728::jsonRpcErrorOf(error).value("code"_L1).toInt() != Rev20260728::HeaderMismatch)
        return false;
    // The server refused the request before running it (header validation), so sending it
    // again is safe; the spec asks for exactly this (streamable-http.mdx, "Client Behavior").
    op->headersRefreshed = true;
    auto fetcher = std::make_shared<ListFetcher>(
        u"tools/list"_s, u"tools/list (headers)"_s, QJsonObject{}, true,
        ListFetcher::Limits{SessionLimits::MaxPages, SessionLimits::MaxCachedItems});
    auto page = std::make_shared<std::function<void()>>();
    *page = [this, ticket, fetcher, page] {
        m_host.sendRequest(u"tools/list"_s, fetcher->pageParams(), m_host.config().requestTimeoutMs,
                           {},
                           [this, ticket, fetcher, page](const JsonRpcMessage &r, const Error &e) {
                               if (!e.isError() && fetcher->addPage(r.result().toObject()) ==
                                                       ListFetcher::Step::NextPage) {
                                   (*page)();
                                   return;
                               }
                               // Deferred: this lambda is what `page` holds.
                               QTimer::singleShot(0, m_host.context(), [page] { *page = nullptr; });
                               if (e.isError()) {
                                   m_host.finish(ticket, {}, e);
                                   return;
                               }
                               m_host.lists().store(u"tools/list"_s, acceptTools(fetcher->items()));
                               m_host.dispatch(ticket);
                           });
    };
    (*page)();
    return true;
}

} // namespace Sonde
