// SPDX-License-Identifier: MIT
// A little over 500 lines: every step of a call's recovery (admission, classification, the
// wait, the replay or the uncertain answer, the budget) reads and writes the same Operation.
// What the verdict entries say is CallTrail's; the replay rules are ReplayPolicy's.
#include "recovery/callrecoveryunit.h"

#include "protocol/jsonrpcmessage.h"
#include "recovery/breakerbookkeeper.h"
#include "recovery/reconnectcontroller.h"
#include "recovery/recoveryerrors.h"
#include "recovery/serverprogress.h"
#include "recovery/sessionexpiryclassifier.h"
#include "session/serversession.h"
#include "util/clock.h"
#include "util/clocktimer.h"

using namespace Qt::StringLiterals;

namespace Sonde {

const QString CallRecoveryUnit::ReconnectCommand = u"sonde/reconnect"_s;

static const QString ToolsCall = u"tools/call"_s;

CallRecoveryUnit::CallRecoveryUnit(const ServerConfig &config, const Clock &clock,
                                   const ServerProgress &progress, ServerSession &session,
                                   BreakerBookkeeper &breaker, ReconnectController &reconnect,
                                   QObject *parent)
    : QObject(parent), m_config(config), m_clock(clock), m_progress(progress), m_session(session),
      m_breaker(breaker), m_reconnect(reconnect)
{
    for (auto it = config.toolReadOnlyOverrides.begin(); it != config.toolReadOnlyOverrides.end();
         ++it)
        m_replay.setOverride(it.key(), it.value());
    m_budgetTimer = clock.createTimer(this);
    connect(m_budgetTimer, &ClockTimer::timeout, this, &CallRecoveryUnit::checkBudgets);
}

void CallRecoveryUnit::setToolOverride(const QString &tool, std::optional<bool> readOnly)
{
    if (readOnly)
        m_replay.setOverride(tool, *readOnly);
    else
        m_replay.clearOverride(tool);
}

QJsonObject CallRecoveryUnit::toolEntry(const QString &name, bool justRead) const
{
    for (const QJsonValue &t : m_session.cachedList(u"tools/list"_s, justRead))
        if (t.toObject().value("name"_L1).toString() == name)
            return t.toObject();
    return {};
}

ReplayVerdict CallRecoveryUnit::toolVerdict(const Operation &op, const QJsonObject &tool) const
{
    return m_replay.verdict(ToolsCall, op.request.params.value("name"_L1).toString(), tool);
}

void CallRecoveryUnit::stop()
{
    m_budgetTimer->stop();
    const QList<quint64> tickets = m_ops.keys();
    for (quint64 t : tickets) {
        const auto it = m_ops.constFind(t);
        if (it != m_ops.constEnd() && it->waiting()) {
            CallOutcome o;
            o.error = Error::cancelled(u"the session was closed"_s);
            finish(t, o);
        }
    }
}

void CallRecoveryUnit::sessionReady()
{
    const QList<quint64> tickets = m_ops.keys();
    for (quint64 t : tickets) {
        const auto it = m_ops.constFind(t);
        if (it != m_ops.constEnd() &&
            (it->step == Step::WaitingToSend || it->step == Step::WaitingForSession) &&
            it->waitAfterGeneration < m_progress.generation)
            resume(t);
    }
}

void CallRecoveryUnit::call(const CallRequest &request)
{
    Operation op;
    op.request = request;
    op.trail = CallTrail(request);
    op.startedMs = m_clock.nowMs();
    op.deadlineMs = op.startedMs + m_config.recoveryBudgetMs;
    if (request.method == ReconnectCommand) {
        // A reconnect by hand answers when the new generation is up (or the budget is spent).
        op.step = Step::WaitingForSession;
        op.waitAfterGeneration = m_progress.generation;
        op.waitStartedMs = op.startedMs;
        m_ops.insert(request.ticket, op);
        m_reconnect.reconnectByHand();
        armBudgetTimer();
        return;
    }
    if (request.method == ToolsCall) {
        const CircuitBreaker::Admission admission = m_breaker.admit(m_config.name);
        // Interactive: while the server is not connected, an open breaker does not refuse:
        // the call waits for the reconnect it asks for at once (dispatch below), so nothing
        // reaches a server that is not there, and the developer whose server is back is not
        // refused for the rest of a cooldown. A breaker tripped by hand always refuses.
        const bool waitsInstead =
            !admission.allowed &&
            m_config.recoveryProfile == ServerConfig::RecoveryProfile::Interactive &&
            !m_progress.ready() && !m_breaker.state().trippedBy &&
            m_breaker.phase() == BreakerPhase::Open;
        if (!admission.allowed && !waitsInstead) {
            m_ops.insert(request.ticket, op);
            CallOutcome o;
            o.error = Error(Error::Kind::Refused, admission.message);
            CallRecovery refusal;
            refusal.breaker = m_breaker.phase();
            refusal.retryInS = std::max<qint64>(admission.retryInMs > 0 ? 1 : 0,
                                                (admission.retryInMs + 999) / 1000);
            Q_EMIT verdictGiven(op.trail.breakerRefused(admission.message, *refusal.retryInS));
            finish(request.ticket, o, refusal);
            return;
        }
        op.probe = admission.probe;
    }
    m_ops.insert(request.ticket, op);
    dispatch(request.ticket);
}

void CallRecoveryUnit::dispatch(quint64 ticket)
{
    auto it = m_ops.find(ticket);
    if (it == m_ops.end())
        return;
    switch (m_progress.state) {
    case SessionSnapshot::State::Ready:
    case SessionSnapshot::State::Starting:
    case SessionSnapshot::State::Initializing:
        it->step = Step::Sent;
        ++it->attempts;
        m_session.call(it->request);
        // The replay is announced as it goes out, with its new id; an answer may already have
        // ended the call (a session that failed at once), and then it names the id.
        if (const auto again = m_ops.find(ticket);
            again != m_ops.end() && again->replayed && !again->trail.replayAnnounced()) {
            const QJsonValue id = m_session.requestIdOf(ticket);
            if (id.isDouble())
                announceReplay(*again, id, m_progress.generation);
        }
        return;
    default:
        if (m_progress.stopping) {
            CallOutcome o;
            o.error = RecoveryErrors::shuttingDown(m_config.name);
            finish(ticket, o);
            return;
        }
        // Nothing to send on (the process is dead, the session closed): the call never
        // reached the server, so it is safe to send once the server is back.
        it->step = Step::WaitingToSend;
        it->waitAfterGeneration = m_progress.generation;
        it->waitStartedMs = m_clock.nowMs();
        record(HistoryEvent::CallWaitsForReconnect{
            .method = it->request.method, .state = SessionSnapshot::stateName(m_progress.state)});
        armBudgetTimer();
        m_reconnect.request(u"a call arrived while the server was %1"_s.arg(
            SessionSnapshot::stateName(m_progress.state)));
        return;
    }
}

void CallRecoveryUnit::onSessionCallFinished(const CallOutcome &outcome)
{
    if (const auto internal = m_internal.take(outcome.ticket)) {
        internal(outcome);
        return;
    }
    auto it = m_ops.find(outcome.ticket);
    if (it == m_ops.end()) {
        Q_EMIT callFinished(outcome);
        return;
    }
    it->generations.append(outcome.generation);
    it->trail.sent(outcome.requestId, outcome.generation);
    if (it->replayed && !it->trail.replayAnnounced())
        announceReplay(*it, outcome.requestId, outcome.generation);
    if (outcome.ok()) {
        if (it->request.method == ToolsCall)
            m_breaker.succeeded(u"a call succeeded"_s);
        finish(outcome.ticket, outcome);
        return;
    }
    onFailed(*it, outcome);
}

void CallRecoveryUnit::onFailed(Operation &op, const CallOutcome &outcome)
{
    const bool toolCall = op.request.method == ToolsCall;
    const Error &e = outcome.error;
    if (e.kind() == Error::Kind::Cancelled) {
        if (op.probe)
            m_breaker.releaseProbe();
        finish(outcome.ticket, outcome);
        return;
    }
    if (op.attempts >= 2) {
        // The one retry failed too: report the retry's own error (not the first one).
        if (toolCall && CircuitBreaker::isStrike(e))
            m_breaker.strike(u"the retried call failed: %1"_s.arg(e.message()));
        finish(outcome.ticket, outcome);
        return;
    }
    const auto c = SessionExpiryClassifier::classify(
        e, SessionExpiryClassifier::DefaultNodeBudget,
        m_progress.sessionless ? SessionExpiryClassifier::Era::Rev20260728
                               : SessionExpiryClassifier::Era::Initialize);
    record(HistoryEvent::Classification{.method = op.request.method,
                                        .generation = outcome.generation,
                                        .rule = ExpiryRules::name(c.rule),
                                        .detail = c.detail,
                                        .expired = c.expired});
    if (c.expired) {
        op.waitAfterGeneration = outcome.generation;
        handleExpired(outcome.ticket, e, c.rule);
        return;
    }
    if (e.kind() == Error::Kind::Timeout && toolCall) {
        m_breaker.strike(u"timeout"_s);
        op.firstError = e;
        op.rule = ExpiryRule::Timeout;
        op.waitStartedMs = m_clock.nowMs();
        onTimedOutToolCall(outcome.ticket, outcome.generation);
        return;
    }
    if (toolCall && CircuitBreaker::isStrike(e))
        m_breaker.strike(e.kind() == Error::Kind::Application
                             ? u"the server is reachable and rejected the call (isError)"_s
                             : u"%1: %2"_s.arg(Error::kindName(e.kind()), e.message()));
    // A refusal that may be the one of a task-required tool: the SDKs answer it as an error
    // -32601, or as a tool result with isError that says so (server-everything).
    if (toolCall && !m_progress.sessionless &&
        (e.jsonRpcCode() == JsonRpcCode::MethodNotFound ||
         (e.kind() == Error::Kind::Application && e.message().contains("task"_L1)))) {
        explainTaskRequired(outcome);
        return;
    }
    finish(outcome.ticket, outcome);
}

void CallRecoveryUnit::explainTaskRequired(const CallOutcome &outcome)
{
    // 2025-11-25's experimental tasks: a tool that requires task-augmented execution refuses
    // a plain call (server-everything's simulate-research-query answers -32601). Sonde
    // follows tasks in 2026-07-28 (the tasks extension), not in this revision: said, with the
    // server's own words, instead of a bare "method not found". The definition says which.
    withToolEntry(outcome.ticket, [this, outcome](const QJsonObject &tool) {
        CallOutcome o = outcome;
        if (tool.value("execution"_L1).toObject().value("taskSupport"_L1).toString() ==
            "required"_L1) {
            Error e(Error::Kind::Remote,
                    u"tool \"%1\" requires task-augmented execution (execution.taskSupport: "
                    u"\"required\", the experimental tasks of 2025-11-25), which Sonde does not "
                    u"do in this revision (it follows tasks for 2026-07-28 servers). The server "
                    u"said: %2"_s.arg(tool.value("name"_L1).toString(), outcome.error.message()));
            e.setCause(outcome.error);
            e.setJsonRpcCode(JsonRpcCode::MethodNotFound);
            o.error = e;
        }
        finish(o.ticket, o);
    });
}

void CallRecoveryUnit::onTimedOutToolCall(quint64 ticket, int generation)
{
    withToolEntry(ticket, [this, ticket, generation](const QJsonObject &tool) {
        auto op = m_ops.find(ticket);
        if (op == m_ops.end())
            return;
        op->verdict = toolVerdict(*op, tool);
        if (op->verdict->replay) {
            // A read-only call that timed out is just a timeout.
            CallOutcome o;
            o.error = op->firstError;
            finish(ticket, o);
            return;
        }
        // A timed-out write was dispatched and may have run: uncertain, and the session is
        // suspect until a ping answers.
        op->step = Step::CheckingWithPing;
        internalCall(u"ping"_s, 5000, [this, ticket, generation](const CallOutcome &ping) {
            auto w = m_ops.find(ticket);
            if (w == m_ops.end())
                return;
            if (ping.ok()) {
                finishUncertain(ticket, ReconnectOutcome::Ok);
                return;
            }
            record(HistoryEvent::SuspectSession{
                .cause = u"ping after a timed-out write failed: "_s + ping.error.message()});
            w->step = Step::WaitingForSession;
            w->waitAfterGeneration = generation;
            m_reconnect.request(u"ping failed after a timed-out write"_s);
            armBudgetTimer();
        });
        armBudgetTimer();
    });
}

void CallRecoveryUnit::handleExpired(quint64 ticket, const Error &error, ExpiryRule rule)
{
    auto it = m_ops.find(ticket);
    if (it == m_ops.end())
        return;
    it->rule = rule;
    it->firstError = error;
    it->expiredAtUs = m_clock.nowUs();
    it->step = Step::WaitingForSession;
    it->waitStartedMs = m_clock.nowMs();
    const bool toolCall = it->request.method == ToolsCall;
    const bool diedAfterWrite = m_config.route == ServerConfig::Route::Stdio &&
                                error.condition() == Error::Condition::Closed;
    if (auto v = ReplayPolicy::transportVerdict(rule, toolCall, diedAfterWrite)) {
        it->verdict = v;
    } else if (toolCall) {
        if (const QJsonObject tool = toolEntry(it->request.params.value("name"_L1).toString());
            !tool.isEmpty())
            it->verdict = toolVerdict(*it, tool);
    }
    // An expiry from a generation already replaced (a second call in flight on the drained
    // session, answered after the new one came up) says nothing about the new session:
    // reconnecting again would replace a healthy one. The call is just sent there.
    if (rule == ExpiryRule::StreamBroken && m_config.route != ServerConfig::Route::Stdio &&
        m_progress.ready()) {
        // Sessionless HTTP: nothing to reconnect. The request is re-issued now (a new id),
        // or answered as uncertain, by the same rules as after an expiry.
        it->waitAfterGeneration = m_progress.generation - 1;
        resume(ticket);
        return;
    }
    if (!m_progress.ready() || it->waitAfterGeneration >= m_progress.generation)
        m_reconnect.request(u"session expired (%1)"_s.arg(ExpiryRules::name(rule)));
    armBudgetTimer();
    if (m_progress.ready() && m_progress.generation > it->waitAfterGeneration &&
        !m_reconnect.inProgress())
        resume(ticket);
}

void CallRecoveryUnit::resume(quint64 ticket)
{
    auto it = m_ops.find(ticket);
    if (it == m_ops.end())
        return;
    it->waitedMs += m_clock.nowMs() - it->waitStartedMs;
    if (it->step == Step::WaitingToSend) {
        dispatch(ticket);
        return;
    }
    const QString method = it->request.method;
    if (method == ReconnectCommand) {
        CallOutcome o;
        o.result = QJsonObject{{"generation"_L1, m_progress.generation}};
        o.generation = m_progress.generation;
        finish(ticket, o);
        return;
    }
    if (method == ToolsCall) {
        if (it->neverReplayed()) {
            finishUncertain(ticket, ReconnectOutcome::Ok);
            return;
        }
        if (it->verdict) {
            it->replayed = true;
            dispatch(ticket);
            return;
        }
        decideToolReplay(ticket);
        return;
    }
    if (ReplayPolicy::isReadMethod(method) || (it->verdict && it->verdict->replay)) {
        it->replayed = true;
        dispatch(ticket);
        return;
    }
    CallOutcome o;
    o.error = it->firstError;
    CallRecovery answer;
    answer.reconnect = ReconnectOutcome::Ok;
    finish(ticket, o, answer);
}

void CallRecoveryUnit::withToolEntry(quint64 ticket, std::function<void(const QJsonObject &)> then)
{
    auto it = m_ops.find(ticket);
    if (it == m_ops.end())
        return;
    const QString name = it->request.params.value("name"_L1).toString();
    const QJsonObject tool = toolEntry(name);
    if (!tool.isEmpty()) {
        then(tool);
        return;
    }
    // The annotations are needed now: read them from the server (once; a failure leaves the
    // tool unknown, which is treated as write-capable).
    it->step = Step::ReadingTools;
    armBudgetTimer();
    internalCall(u"tools/list"_s, 0,
                 [this, name, then](const CallOutcome &) { then(toolEntry(name, true)); });
}

void CallRecoveryUnit::decideToolReplay(quint64 ticket)
{
    auto it = m_ops.find(ticket);
    if (it == m_ops.end())
        return;
    const QJsonObject tool =
        toolEntry(it->request.params.value("name"_L1).toString(), it->step == Step::ReadingTools);
    if (tool.isEmpty() && it->step != Step::ReadingTools) {
        // The annotations are needed now: read them from the new session (once).
        it->step = Step::ReadingTools;
        internalCall(u"tools/list"_s, 0,
                     [this, ticket](const CallOutcome &) { decideToolReplay(ticket); });
        return;
    }
    it->verdict = toolVerdict(*it, tool);
    if (it->verdict->replay) {
        it->replayed = true;
        dispatch(ticket);
    } else {
        finishUncertain(ticket, m_reconnect.outcome());
    }
}

void CallRecoveryUnit::finishUncertain(quint64 ticket, ReconnectOutcome reconnect)
{
    auto it = m_ops.find(ticket);
    if (it == m_ops.end())
        return;
    const QString tool = it->request.params.value("name"_L1).toString();
    const bool reconnected =
        !it->generations.isEmpty() && m_progress.generation > it->generations.last();
    const Error e =
        RecoveryErrors::outcomeUncertain(tool, m_config.name, it->rule, reconnect,
                                         m_progress.generation, it->firstError, reconnected);
    Q_EMIT verdictGiven(it->trail.outcomeUncertain(
        it->rule, it->verdict ? it->verdict->reason : QString(), reconnect));
    CallOutcome o;
    o.error = e;
    CallRecovery answer;
    answer.outcomeUncertain = true;
    answer.server = m_config.name;
    answer.reconnect = reconnect;
    finish(ticket, o, answer);
}

void CallRecoveryUnit::finish(quint64 ticket, CallOutcome outcome, CallRecovery answer)
{
    const auto it = m_ops.constFind(ticket);
    if (it == m_ops.constEnd())
        return;
    const Operation op = *it;
    m_ops.erase(it);
    if (op.probe && m_breaker.probeInFlight())
        m_breaker.releaseProbe();
    outcome.ticket = ticket;
    outcome.server = m_config.name;
    outcome.method = op.request.method;
    outcome.startedMs = op.startedMs;
    outcome.finishedMs = m_clock.nowMs();
    outcome.attempts = op.attempts;
    if (!op.generations.isEmpty())
        outcome.generation = op.generations.last();
    answer.generations = op.generations;
    answer.waitedMs = op.waitedMs;
    // An uncertain answer says it was not sent again, whatever happened before.
    answer.replayed = op.replayed && !answer.outcomeUncertain.value_or(false);
    answer.rule = op.rule;
    if (op.expiredAtUs) // what recovery cost this call: from the expiry verdict to this answer
        answer.recoveryMs = double(m_clock.nowUs() - *op.expiredAtUs) / 1000.0;
    answer.verdict = op.verdict;
    outcome.recovery = answer;
    armBudgetTimer();
    Q_EMIT callFinished(outcome);
}

void CallRecoveryUnit::announceReplay(Operation &op, const QJsonValue &newRequestId, int generation)
{
    Q_EMIT verdictGiven(op.trail.sentAgain(op.rule, op.verdict ? op.verdict->reason : QString(),
                                           newRequestId, generation));
}

void CallRecoveryUnit::armBudgetTimer()
{
    std::optional<qint64> next;
    for (const Operation &op : std::as_const(m_ops))
        if (op.waiting() && (!next || op.deadlineMs < *next))
            next = op.deadlineMs;
    if (!next) {
        m_budgetTimer->stop();
        return;
    }
    m_budgetTimer->start(std::max<qint64>(0, *next - m_clock.nowMs()));
}

void CallRecoveryUnit::checkBudgets()
{
    const qint64 now = m_clock.nowMs();
    const QList<quint64> tickets = m_ops.keys();
    for (quint64 t : tickets) {
        const auto it = m_ops.constFind(t);
        if (it != m_ops.constEnd() && it->waiting() && it->deadlineMs <= now)
            spendBudget(t, *it);
    }
    armBudgetTimer();
}

void CallRecoveryUnit::spendBudget(quint64 ticket, const Operation &op)
{
    const ReconnectOutcome word = m_reconnect.outcome();
    record(HistoryEvent::RecoveryBudgetSpent{
        .method = op.request.method, .budgetMs = m_config.recoveryBudgetMs, .reconnect = word});
    const bool neverRan =
        op.verdict && op.verdict->source == ReplaySource::Transport && op.verdict->replay;
    if (op.request.method == ToolsCall && op.step != Step::WaitingToSend && !neverRan) {
        finishUncertain(ticket, word);
        return;
    }
    CallOutcome o;
    if (op.step == Step::WaitingToSend) {
        o.error = RecoveryErrors::neverSent(m_config.name, m_config.recoveryBudgetMs,
                                            m_reconnect.lastAttemptFailed());
        if (op.request.method == ToolsCall)
            m_breaker.strike(u"not connected"_s);
    } else {
        o.error = RecoveryErrors::budgetSpent(op.firstError, m_config.recoveryBudgetMs,
                                              m_config.name, neverRan);
    }
    CallRecovery answer;
    answer.reconnect = word;
    finish(ticket, o, answer);
}

void CallRecoveryUnit::internalCall(const QString &method, int timeoutMs,
                                    std::function<void(const CallOutcome &)> then)
{
    CallRequest r;
    r.ticket = m_nextInternal++;
    r.server = m_config.name;
    r.method = method;
    r.timeoutMs = timeoutMs;
    m_internal.insert(r.ticket, std::move(then));
    m_session.call(r);
}

void CallRecoveryUnit::cancel(quint64 ticket, const QString &reason)
{
    const auto it = m_ops.constFind(ticket);
    if (it == m_ops.constEnd())
        return;
    if (!it->waiting()) {
        m_session.cancel(ticket, reason);
        return;
    }
    CallOutcome o;
    o.error = Error::cancelled(reason);
    finish(ticket, o);
}

} // namespace Sonde
