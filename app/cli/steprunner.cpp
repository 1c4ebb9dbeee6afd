// SPDX-License-Identifier: MIT
#include "steprunner.h"

#include "clioutput.h"
#include "engine/corehost.h"
#include "protocol/jsonrpcmessage.h"
#include "protocol/jsonspan.h"
#include "protocol/mcp.h"
#include "transcript/redactor.h"

#include <QJsonArray>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

StepRunner::StepRunner(CoreHost &host, QString server, const Redactor *masker, QObject *parent)
    : QObject(parent), m_host(host), m_server(std::move(server)), m_masker(masker)
{
    connect(&m_host, &CoreHost::callFinished, this, &StepRunner::onCallFinished);
    connect(&m_host, &CoreHost::notificationsReceived, this,
            [this](const ServerNotificationBatch &batch) {
                for (const ServerNotification &n : batch) {
                    if (m_notifications.size() >= 10'000)
                        break;
                    m_notifications.append(
                        QJsonObject{{"method"_L1, n.method}, {"params"_L1, n.params}});
                }
            });
}

QString StepRunner::masked(const QString &text) const
{
    return m_masker ? m_masker->apply(text) : text;
}

QJsonObject StepRunner::masked(const QJsonObject &o) const
{
    return m_masker ? m_masker->apply(o) : o;
}

quint64 StepRunner::call(const QString &method, const QJsonObject &params, Done done)
{
    const quint64 ticket = m_host.call(m_server, method, params);
    m_waiting.insert(ticket, std::move(done));
    return ticket;
}

void StepRunner::await(quint64 ticket, Done done)
{
    m_waiting.insert(ticket, std::move(done));
}

void StepRunner::cancel(quint64 ticket, const QString &reason)
{
    m_host.cancel(ticket, reason);
}

void StepRunner::cancelAll(const QString &reason)
{
    for (auto it = m_waiting.cbegin(); it != m_waiting.cend(); ++it)
        m_host.cancel(it.key(), reason);
}

bool StepRunner::takeSnapshot(const SessionSnapshot &snapshot)
{
    if (!m_snapshotWaiter)
        return false;
    auto waiter = std::exchange(m_snapshotWaiter, nullptr);
    waiter(snapshot);
    return true;
}

quint64 StepRunner::run(const CliStep &step, Done done)
{
    return std::visit(
        [&](const auto &s) -> quint64 {
            using T = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<T, InfoStep>) {
                m_snapshotWaiter = [this, done](const SessionSnapshot &snap) {
                    done({{"serverInfo"_L1, snap.serverInfo},
                          {"protocolVersion"_L1, snap.protocolVersion},
                          {"capabilities"_L1, snap.serverCapabilities},
                          {"clientCapabilities"_L1, snap.clientCapabilities},
                          {"instructions"_L1, snap.instructions},
                          {"session"_L1, masked(snap.toJson())}},
                         true);
                };
                m_host.requestSnapshot(m_server);
                return 0;
            } else if constexpr (std::is_same_v<T, PingStep>) {
                return call(u"ping"_s, {}, done);
            } else if constexpr (std::is_same_v<T, ToolsListStep>) {
                return call(u"tools/list"_s, {}, done);
            } else if constexpr (std::is_same_v<T, ToolCallStep>) {
                return call(u"tools/call"_s, {{"name"_L1, s.tool}, {"arguments"_L1, s.arguments}},
                            done);
            } else if constexpr (std::is_same_v<T, ResourcesListStep>) {
                return call(u"resources/list"_s, {}, done);
            } else if constexpr (std::is_same_v<T, ResourceTemplatesListStep>) {
                return call(u"resources/templates/list"_s, {}, done);
            } else if constexpr (std::is_same_v<T, ResourceReadStep>) {
                return call(u"resources/read"_s, {{"uri"_L1, s.uri}}, done);
            } else if constexpr (std::is_same_v<T, ResourceSubscribeStep>) {
                return call(u"resources/subscribe"_s, {{"uri"_L1, s.uri}}, done);
            } else if constexpr (std::is_same_v<T, ResourceUnsubscribeStep>) {
                return call(u"resources/unsubscribe"_s, {{"uri"_L1, s.uri}}, done);
            } else if constexpr (std::is_same_v<T, PromptsListStep>) {
                return call(u"prompts/list"_s, {}, done);
            } else if constexpr (std::is_same_v<T, PromptGetStep>) {
                return call(u"prompts/get"_s, {{"name"_L1, s.name}, {"arguments"_L1, s.arguments}},
                            done);
            } else if constexpr (std::is_same_v<T, CompleteStep>) {
                QJsonObject params{{"ref"_L1, s.ref}, {"argument"_L1, s.argument}};
                if (s.context)
                    params.insert("context"_L1, *s.context);
                return call(u"completion/complete"_s, params, done);
            } else if constexpr (std::is_same_v<T, SetLogLevelStep>) {
                return call(u"logging/setLevel"_s, {{"level"_L1, s.level}}, done);
            } else if constexpr (std::is_same_v<T, RequestStep>) {
                return call(s.method, s.params, done);
            } else if constexpr (std::is_same_v<T, FaultStep>) {
                Fault f;
                f.kind = s.kind;
                f.ms = s.ms;
                f.status = s.status;
                await(m_host.injectFault(m_server, f), done);
                return 0;
            } else if constexpr (std::is_same_v<T, ReconnectStep>) {
                await(m_host.reconnect(m_server), done);
                return 0;
            } else if constexpr (std::is_same_v<T, BreakerStep>) {
                await(m_host.breaker(m_server, s.action), done);
                return 0;
            } else if constexpr (std::is_same_v<T, SleepStep>) {
                const int ms = s.ms;
                QTimer::singleShot(ms, this, [done, ms] { done({{"slept_ms"_L1, ms}}, true); });
                return 0;
            } else if constexpr (std::is_same_v<T, NotificationsStep>) {
                done({{"notifications"_L1, std::exchange(m_notifications, {})}}, true);
                return 0;
            } else if constexpr (std::is_same_v<T, StateStep>) {
                m_snapshotWaiter = [this, done](const SessionSnapshot &snap) {
                    done(masked(snap.toJson()), true);
                };
                m_host.requestSnapshot(m_server);
                return 0;
            } else {
                static_assert(std::is_same_v<T, CancelStep>, "every kind of step is run");
                // Which call a step number stands for is known to the exec session only.
                done({{"error"_L1, "cancel is an exec step"_L1}}, false);
                return 0;
            }
        },
        step);
}

// A tool's one long text block stays in the frame it came in: the answer holds a token the
// printer replaces with the frame's bytes (CliOutput::verbatim). Copying it out of the parsed
// result into the answer, then serializing that, held three copies of a 50 MiB text at once.
// Only for the frame that answered this very call (its id), and only a string: otherwise the
// parsed result, as before.
QJsonObject StepRunner::verbatimText(const CallOutcome &o)
{
    const QJsonObject result = o.result.toObject();
    const QJsonArray content = result.value("content"_L1).toArray();
    if (o.frame.size() < VerbatimBytes || content.size() != 1 ||
        content.first().toObject().value("type"_L1) != "text"_L1 ||
        JsonRpcMessage::leadingId(o.frame) != o.requestId)
        return result;
    const std::optional<JsonSpan::Span> text =
        JsonSpan::stringAt(o.frame, {"result"_L1, "content"_L1, 0, "text"_L1});
    if (!text || text->size < VerbatimBytes)
        return result;
    // Built anew: a copy of the block edited in place would detach, copying the text after all.
    QJsonObject block;
    const QJsonObject original = content.first().toObject();
    for (auto it = original.constBegin(); it != original.constEnd(); ++it)
        if (it.key() != "text"_L1)
            block.insert(it.key(), it.value());
    block.insert("text"_L1, CliOutput::verbatim(o.frame, text->from, text->size));
    QJsonObject light = result;
    light.insert("content"_L1, QJsonArray{block});
    return light;
}

void StepRunner::onCallFinished(const CallOutcome &o)
{
    const Done done = m_waiting.take(o.ticket);
    if (!done)
        return;
    QJsonObject answer;
    bool ok = o.ok();
    if (o.method == "tools/call"_L1 && (o.ok() || o.error.kind() == Error::Kind::Application)) {
        answer = Mcp::toolAnswer(verbatimText(o));
    } else if (o.ok()) {
        answer = o.result.isObject() ? o.result.toObject() : QJsonObject{{"result"_L1, o.result}};
    } else {
        QString message = masked(o.error.message());
        // The core names the limit; the flag that raises it is this front end's to say.
        if (message.contains("frame limit"_L1))
            message += u" (sonde-cli --max-frame-mb N raises the limit)"_s;
        answer.insert("error"_L1, message);
        answer.insert("kind"_L1, Error::kindName(o.error.kind()));
        if (o.error.jsonRpcCode())
            answer.insert("code"_L1, *o.error.jsonRpcCode());
        if (!o.error.data().isUndefined() && !o.error.data().isNull())
            answer.insert("data"_L1, o.error.data());
        if (o.error.httpStatus())
            answer.insert("http_status"_L1, *o.error.httpStatus());
    }
    // How the answer was reached (docs/recovery.md §2): outcome_uncertain / replayed /
    // reconnect, breaker / retry_in_s, generations, rule, waited_ms, recovery_ms,
    // replay_verdict.
    if (o.recovery) {
        const QJsonObject recovery = o.recovery->toJson();
        for (auto it = recovery.begin(); it != recovery.end(); ++it)
            answer.insert(it.key(), it.value());
    }
    answer.insert("attempts"_L1, o.attempts);
    answer.insert("generation"_L1, o.generation);
    answer.insert("elapsed_ms"_L1, o.finishedMs - o.startedMs);
    done(answer, ok);
}

} // namespace Sonde
