// SPDX-License-Identifier: MIT
#include "recovery/serversupervisor.h"

#include "recovery/sessionexpiryclassifier.h"
#include "session/serversession.h"
#include "transport/transport.h"
#include "util/clock.h"
#include "util/logging.h"

#include "util/clocktimer.h"

using namespace Qt::StringLiterals;

namespace Sonde {

static constexpr qsizetype MaxHistory = 500;
static const QString ReconnectCommand = u"sonde/reconnect"_s;

ServerSupervisor::ServerSupervisor(const ServerConfig &config, const Clock &clock,
                                   const QJsonObject &clientCapabilities, QObject *parent,
                                   TransportFactory factory)
    : QObject(parent), m_config(config), m_clock(clock),
      m_breaker(clock, {config.breakerThreshold, config.breakerCooldownMs})
{
    for (auto it = config.toolReadOnlyOverrides.begin(); it != config.toolReadOnlyOverrides.end();
         ++it)
        m_replay.setOverride(it.key(), it.value());
    m_session = new ServerSession(config, clock, clientCapabilities, std::move(factory), this);
    connect(m_session, &ServerSession::snapshotChanged, this, &ServerSupervisor::onSessionSnapshot);
    connect(m_session, &ServerSession::callFinished, this,
            &ServerSupervisor::onSessionCallFinished);
    connect(m_session, &ServerSession::serverRequestReceived, this,
            &ServerSupervisor::serverRequestReceived);
    connect(m_session, &ServerSession::notificationReceived, this,
            &ServerSupervisor::notificationReceived);
    connect(m_session, &ServerSession::listRefreshed, this, &ServerSupervisor::listRefreshed);
    connect(m_session, &ServerSession::transcriptEvent, this, &ServerSupervisor::transcriptEvent);
    connect(m_session, &ServerSession::stopped, this, &ServerSupervisor::stopped);
    connect(m_session, &ServerSession::connectionLost, this, [this](const Error &error) {
        const auto c = SessionExpiryClassifier::classify(error);
        history(u"classification"_s, {{"rule"_L1, c.rule},
                                      {"detail"_L1, c.detail},
                                      {"expired"_L1, c.expired},
                                      {"source"_L1, u"connection lost outside any call"_s}});
        if (c.expired)
            requestReconnect(u"connection lost (%1)"_s.arg(c.rule));
    });

    // On the engine's clock, so tests run a 300 s parked probe by advancing a ManualClock.
    m_budgetTimer = clock.createTimer(this);
    connect(m_budgetTimer, &ClockTimer::timeout, this, &ServerSupervisor::checkBudgets);
    m_retryTimer = clock.createTimer(this);
    connect(m_retryTimer, &ClockTimer::timeout, this, [this] {
        if (m_reconnecting || m_stopping)
            return;
        m_attemptTrigger =
            m_reconnectPolicy.parked() ? u"parked: periodic probe"_s : u"backoff: next attempt"_s;
        attemptReconnect();
    });
    m_pingTimer = clock.createTimer(this);
    if (config.pingIntervalMs > 0) {
        connect(m_pingTimer, &ClockTimer::timeout, this, [this] {
            m_pingTimer->start(m_config.pingIntervalMs);
            keepalive();
        });
    }
}

ServerSupervisor::~ServerSupervisor() = default;

void ServerSupervisor::start()
{
    m_session->start();
}

void ServerSupervisor::stop()
{
    m_stopping = true;
    m_retryTimer->stop();
    m_pingTimer->stop();
    m_budgetTimer->stop();
    const QList<quint64> tickets = m_ops.keys();
    for (quint64 t : tickets) {
        const auto it = m_ops.constFind(t);
        if (it != m_ops.constEnd() && it->stage != Stage::Dispatched) {
            CallOutcome o;
            o.error = Error::cancelled(u"the session was closed"_s);
            finish(t, o);
        }
    }
    m_session->stop();
}

QJsonObject ServerSupervisor::toolEntry(const QString &name) const
{
    for (const QJsonValue &t : m_session->cachedList(u"tools/list"_s))
        if (t.toObject().value("name"_L1).toString() == name)
            return t.toObject();
    return {};
}

void ServerSupervisor::history(const QString &type, QJsonObject details)
{
    details.insert("type"_L1, type);
    details.insert("t_ms"_L1, m_clock.nowMs());
    m_history.append(details);
    if (m_history.size() > MaxHistory)
        m_history.removeFirst();
    TranscriptEvent e;
    e.timeMs = m_clock.nowMs();
    e.server = m_config.name;
    e.generation = m_lastGeneration;
    e.direction = TranscriptEvent::Direction::Lifecycle;
    e.event = type;
    e.details = details;
    Q_EMIT transcriptEvent(e);
}

void ServerSupervisor::recordBreakerTransitions()
{
    const QList<CircuitBreaker::Transition> transitions = m_breaker.takeTransitions();
    for (const CircuitBreaker::Transition &t : transitions)
        history(u"breaker"_s, {{"from"_L1, CircuitBreaker::stateName(t.from)},
                               {"to"_L1, CircuitBreaker::stateName(t.to)},
                               {"cause"_L1, t.cause},
                               {"strikes"_L1, t.strikes},
                               {"threshold"_L1, m_breaker.threshold()}});
    if (!transitions.isEmpty())
        Q_EMIT changed();
}

void ServerSupervisor::strike(const QString &cause)
{
    m_breaker.recordStrike(cause);
    recordBreakerTransitions();
}

QJsonObject ServerSupervisor::recoveryState() const
{
    QJsonArray recent;
    for (qsizetype i = std::max<qsizetype>(0, m_history.size() - 50); i < m_history.size(); ++i)
        recent.append(m_history.at(i));
    const qint64 retryIn = m_breaker.retryInMs();
    return {{"breaker"_L1,
             QJsonObject{
                 {"state"_L1, CircuitBreaker::stateName(m_breaker.state())},
                 {"strikes"_L1, m_breaker.strikes()},
                 {"threshold"_L1, m_breaker.threshold()},
                 {"cooldown_s"_L1, double(m_breaker.policy().cooldownMs) / 1000.0},
                 {"retry_in_s"_L1, retryIn > 0 ? std::max<qint64>(1, (retryIn + 999) / 1000) : 0},
                 {"probe_in_flight"_L1, m_breaker.probeInFlight()}}},
            {"reconnect"_L1, QJsonObject{{"in_progress"_L1, m_reconnecting},
                                         {"failed_attempts"_L1, m_reconnectPolicy.failures()},
                                         {"parked"_L1, m_reconnectPolicy.parked()},
                                         {"next_attempt_in_ms"_L1, m_retryTimer->remainingMs()}}},
            {"history"_L1, recent}};
}

SessionSnapshot ServerSupervisor::snapshot() const
{
    SessionSnapshot s = m_session->snapshot();
    s.recovery = recoveryState();
    return s;
}

QString ServerSupervisor::reconnectWord() const
{
    if (m_reconnecting)
        return u"pending"_s;
    if (m_lastAttemptFailed)
        return u"failed"_s;
    return m_lastState == SessionSnapshot::State::Ready ? u"ok"_s : u"pending"_s;
}

void ServerSupervisor::onSessionSnapshot(const SessionSnapshot &s)
{
    const SessionSnapshot::State previous = m_lastState;
    m_lastState = s.state;
    // First: what follows may finish calls, and their results must not overtake this state.
    Q_EMIT changed();
    if (s.state == SessionSnapshot::State::Ready && s.generation != m_lastGeneration) {
        m_lastGeneration = s.generation;
        history(u"session-start"_s, {{"generation"_L1, s.generation},
                                     {"protocol_version"_L1, s.protocolVersion},
                                     {"transport"_L1, s.route}});
        if (m_reconnecting) {
            m_reconnecting = false;
            history(u"reconnect"_s, {{"trigger"_L1, m_attemptTrigger},
                                     {"from_generation"_L1, m_attemptFromGeneration},
                                     {"to_generation"_L1, s.generation},
                                     {"duration_ms"_L1, m_clock.nowMs() - m_attemptStartedMs},
                                     {"outcome"_L1, "ok"_L1}});
        }
        m_lastAttemptFailed = false;
        m_reconnectPolicy.recordSuccess();
        m_retryTimer->stop();
        m_breaker.recordSuccess(u"connected (generation %1)"_s.arg(s.generation));
        recordBreakerTransitions();
        if (m_config.pingIntervalMs > 0)
            m_pingTimer->start(m_config.pingIntervalMs);
        const QList<quint64> tickets = m_ops.keys();
        for (quint64 t : tickets) {
            const auto it = m_ops.constFind(t);
            if (it != m_ops.constEnd() &&
                (it->stage == Stage::WaitingToDispatch || it->stage == Stage::WaitingForRecovery) &&
                it->waitAfterGeneration < s.generation)
                resume(t);
        }
    } else if (s.state == SessionSnapshot::State::Failed &&
               previous != SessionSnapshot::State::Failed) {
        history(u"session-end"_s,
                {{"generation"_L1, s.generation}, {"cause"_L1, s.lastError.message()}});
        m_pingTimer->stop();
        if (m_reconnecting) {
            m_reconnecting = false;
            m_lastAttemptFailed = true;
            // The delay is read before this failure counts: 1 s after the first failed
            // attempt, doubling after each one (it was 2 s after the first, found by the
            // failure-path test on the manual clock).
            const qint64 backoff = m_reconnectPolicy.nextDelayMs();
            m_reconnectPolicy.recordFailure();
            history(u"reconnect"_s, {{"trigger"_L1, m_attemptTrigger},
                                     {"from_generation"_L1, m_attemptFromGeneration},
                                     {"to_generation"_L1, QJsonValue::Null},
                                     {"duration_ms"_L1, m_clock.nowMs() - m_attemptStartedMs},
                                     {"outcome"_L1, "failed"_L1},
                                     {"error"_L1, s.lastError.message()}});
            strike(u"a reconnect failed"_s);
            if (!m_stopping) {
                const qint64 delay =
                    m_reconnectPolicy.parked() ? m_reconnectPolicy.nextDelayMs() : backoff;
                m_retryTimer->start(delay);
                history(u"reconnect-scheduled"_s,
                        {{"in_ms"_L1, delay}, {"parked"_L1, m_reconnectPolicy.parked()}});
            }
        }
    } else if (s.state == SessionSnapshot::State::Closed &&
               previous != SessionSnapshot::State::Closed &&
               previous != SessionSnapshot::State::Closing) {
        history(u"session-end"_s, {{"generation"_L1, s.generation}, {"cause"_L1, u"closed"_s}});
    }
}

void ServerSupervisor::call(const CallRequest &request)
{
    Operation op;
    op.request = request;
    op.startedMs = m_clock.nowMs();
    op.deadlineMs = op.startedMs + m_config.recoveryBudgetMs;
    if (request.method == ReconnectCommand) {
        // A reconnect by hand answers when the new generation is up (or the budget is spent).
        op.stage = Stage::WaitingForRecovery;
        op.waitAfterGeneration = m_lastGeneration;
        op.waitStartedMs = op.startedMs;
        m_ops.insert(request.ticket, op);
        m_reconnectPolicy.recordSuccess(); // by hand: unpark
        m_lastAttemptFailed = false;
        m_retryTimer->stop();
        if (!m_reconnecting) {
            m_attemptTrigger = u"by hand"_s;
            attemptReconnect();
        }
        armBudgetTimer();
        return;
    }
    if (request.method == "tools/call"_L1) {
        const CircuitBreaker::Admission admission = m_breaker.admit(m_config.name);
        recordBreakerTransitions();
        if (!admission.allowed) {
            m_ops.insert(request.ticket, op);
            CallOutcome o;
            o.error = Error(Error::Kind::Refused, admission.message);
            o.recovery = {{"breaker"_L1, CircuitBreaker::stateName(m_breaker.state())},
                          {"retry_in_s"_L1, std::max<qint64>(admission.retryInMs > 0 ? 1 : 0,
                                                             (admission.retryInMs + 999) / 1000)}};
            finish(request.ticket, o);
            return;
        }
        op.probe = admission.probe;
    }
    m_ops.insert(request.ticket, op);
    dispatch(request.ticket);
}

void ServerSupervisor::dispatch(quint64 ticket)
{
    auto it = m_ops.find(ticket);
    if (it == m_ops.end())
        return;
    switch (m_lastState) {
    case SessionSnapshot::State::Ready:
    case SessionSnapshot::State::Starting:
    case SessionSnapshot::State::Initializing:
        it->stage = Stage::Dispatched;
        ++it->attempts;
        m_session->call(it->request);
        return;
    default:
        if (m_stopping) {
            CallOutcome o;
            o.error =
                Error::transport(u"%1 is shutting down: the call was not sent"_s.arg(m_config.name),
                                 Error::Condition::NotConnected);
            finish(ticket, o);
            return;
        }
        // Nothing to send on (the process is dead, the session closed): the call never
        // reached the server, so it is safe to send once the server is back.
        it->stage = Stage::WaitingToDispatch;
        it->waitAfterGeneration = m_lastGeneration;
        it->waitStartedMs = m_clock.nowMs();
        history(u"call-waits-for-reconnect"_s,
                {{"method"_L1, it->request.method},
                 {"state"_L1, SessionSnapshot::stateName(m_lastState)}});
        armBudgetTimer();
        requestReconnect(u"a call arrived while the server was %1"_s.arg(
            SessionSnapshot::stateName(m_lastState)));
        return;
    }
}

void ServerSupervisor::onSessionCallFinished(const CallOutcome &outcome)
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
    const bool toolCall = it->request.method == "tools/call"_L1;
    if (outcome.ok()) {
        if (toolCall) {
            m_breaker.recordSuccess(u"a call succeeded"_s);
            recordBreakerTransitions();
        }
        finish(outcome.ticket, outcome);
        return;
    }
    const Error &e = outcome.error;
    if (e.kind() == Error::Kind::Cancelled) {
        if (it->probe)
            m_breaker.releaseProbe();
        finish(outcome.ticket, outcome);
        return;
    }
    if (it->attempts >= 2) {
        // The one retry failed too: report the retry's own error (not the first one).
        if (toolCall && CircuitBreaker::isStrike(e))
            strike(u"the retried call failed: %1"_s.arg(e.message()));
        finish(outcome.ticket, outcome);
        return;
    }
    const auto c = SessionExpiryClassifier::classify(e);
    history(u"classification"_s, {{"method"_L1, it->request.method},
                                  {"rule"_L1, c.rule},
                                  {"detail"_L1, c.detail},
                                  {"expired"_L1, c.expired},
                                  {"generation"_L1, outcome.generation}});
    if (c.expired) {
        it->waitAfterGeneration = outcome.generation;
        handleExpired(outcome.ticket, e, c.rule, c.detail);
        return;
    }
    if (e.kind() == Error::Kind::Timeout && toolCall) {
        strike(u"timeout"_s);
        it->firstError = e;
        it->rule = u"timeout"_s;
        it->waitStartedMs = m_clock.nowMs();
        const quint64 ticket = outcome.ticket;
        const int generation = outcome.generation;
        withToolEntry(ticket, [this, ticket, generation](const QJsonObject &tool) {
            auto op = m_ops.find(ticket);
            if (op == m_ops.end())
                return;
            const QString name = op->request.params.value("name"_L1).toString();
            const ReplayPolicy::Verdict v = m_replay.verdict(u"tools/call"_s, name, tool);
            op->verdict = {{"replay"_L1, v.replay},
                           {"source"_L1, ReplayPolicy::sourceName(v.source)},
                           {"reason"_L1, v.reason}};
            if (v.replay) {
                // A read-only call that timed out is just a timeout.
                CallOutcome o;
                o.error = op->firstError;
                finish(ticket, o);
                return;
            }
            // A timed-out write was dispatched and may have run: uncertain, and the session is
            // suspect until a ping answers.
            op->uncertain = true;
            op->stage = Stage::WaitingForPing;
            internalCall(u"ping"_s, {}, 5000, [this, ticket, generation](const CallOutcome &ping) {
                auto w = m_ops.find(ticket);
                if (w == m_ops.end())
                    return;
                if (ping.ok()) {
                    finishUncertain(ticket, u"ok"_s);
                    return;
                }
                history(u"suspect-session"_s,
                        {{"cause"_L1, QString(u"ping after a timed-out write failed: "_s +
                                              ping.error.message())}});
                w->stage = Stage::WaitingForRecovery;
                w->waitAfterGeneration = generation;
                requestReconnect(u"ping failed after a timed-out write"_s);
                armBudgetTimer();
            });
            armBudgetTimer();
        });
        return;
    }
    if (toolCall && CircuitBreaker::isStrike(e))
        strike(e.kind() == Error::Kind::Application
                   ? u"the server is reachable and rejected the call (isError)"_s
                   : u"%1: %2"_s.arg(Error::kindName(e.kind()), e.message()));
    finish(outcome.ticket, outcome);
}

void ServerSupervisor::handleExpired(quint64 ticket, const Error &error, const QString &rule,
                                     const QString &)
{
    auto it = m_ops.find(ticket);
    if (it == m_ops.end())
        return;
    it->rule = rule;
    it->firstError = error;
    it->expiredAtUs = m_clock.nowUs();
    it->stage = Stage::WaitingForRecovery;
    it->waitStartedMs = m_clock.nowMs();
    const QString method = it->request.method;
    // A session refused at the HTTP layer (404 for our id, or the SDK servers' 400) means the
    // server never ran the request: like a call to a dead process, it is sent once more,
    // whatever the tool's hint.
    const bool refusedBeforeDispatch = rule == "http-404-with-session"_L1 ||
                                       rule == "http-400-invalid-session"_L1 ||
                                       rule == "connection-refused"_L1;
    if (refusedBeforeDispatch) {
        it->verdict = {
            {"replay"_L1, true},
            {"source"_L1, "transport"_L1},
            {"reason"_L1,
             rule == "connection-refused"_L1
                 ? u"the server refused the connection, so the request never reached it: sent once it is back"_s
                 : u"the server refused the session before running the request: sent again once"_s}};
    } else if (method == "tools/call"_L1) {
        const QString name = it->request.params.value("name"_L1).toString();
        if (m_config.route == ServerConfig::Route::Stdio &&
            error.condition() == Error::Condition::Closed) {
            it->uncertain = true;
            it->verdict = {
                {"replay"_L1, false},
                {"source"_L1, "transport"_L1},
                {"reason"_L1,
                 u"the server process went away after the request was written: never replayed"_s}};
        } else if (const QJsonObject tool = toolEntry(name); !tool.isEmpty()) {
            const ReplayPolicy::Verdict v = m_replay.verdict(method, name, tool);
            it->uncertain = !v.replay;
            it->verdict = {{"replay"_L1, v.replay},
                           {"source"_L1, ReplayPolicy::sourceName(v.source)},
                           {"reason"_L1, v.reason}};
        }
    }
    requestReconnect(u"session expired (%1)"_s.arg(rule));
    armBudgetTimer();
    if (m_lastState == SessionSnapshot::State::Ready &&
        m_lastGeneration > it->waitAfterGeneration && !m_reconnecting)
        resume(ticket);
}

void ServerSupervisor::resume(quint64 ticket)
{
    auto it = m_ops.find(ticket);
    if (it == m_ops.end())
        return;
    it->waitedMs += m_clock.nowMs() - it->waitStartedMs;
    if (it->stage == Stage::WaitingToDispatch) {
        dispatch(ticket);
        return;
    }
    const QString method = it->request.method;
    if (method == ReconnectCommand) {
        CallOutcome o;
        o.result = QJsonObject{{"generation"_L1, m_lastGeneration}};
        o.generation = m_lastGeneration;
        finish(ticket, o);
        return;
    }
    if (method == "tools/call"_L1) {
        if (it->uncertain) {
            finishUncertain(ticket, u"ok"_s);
            return;
        }
        if (!it->verdict.isEmpty()) {
            it->replayed = true;
            dispatch(ticket);
            return;
        }
        decideToolReplay(ticket);
        return;
    }
    if (ReplayPolicy::isReadMethod(method) || it->verdict.value("replay"_L1).toBool()) {
        it->replayed = true;
        dispatch(ticket);
        return;
    }
    CallOutcome o;
    o.error = it->firstError;
    o.recovery = {{"reconnect"_L1, "ok"_L1}};
    finish(ticket, o);
}

void ServerSupervisor::withToolEntry(quint64 ticket, std::function<void(const QJsonObject &)> then)
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
    it->stage = Stage::FetchingTools;
    armBudgetTimer();
    internalCall(u"tools/list"_s, {}, 0,
                 [this, name, then](const CallOutcome &) { then(toolEntry(name)); });
}

void ServerSupervisor::decideToolReplay(quint64 ticket)
{
    auto it = m_ops.find(ticket);
    if (it == m_ops.end())
        return;
    const QString name = it->request.params.value("name"_L1).toString();
    QJsonObject tool = toolEntry(name);
    if (tool.isEmpty() && it->stage != Stage::FetchingTools) {
        // The annotations are needed now: read them from the new session (once).
        it->stage = Stage::FetchingTools;
        internalCall(u"tools/list"_s, {}, 0,
                     [this, ticket](const CallOutcome &) { decideToolReplay(ticket); });
        return;
    }
    const ReplayPolicy::Verdict v = m_replay.verdict(u"tools/call"_s, name, tool);
    it->verdict = {{"replay"_L1, v.replay},
                   {"source"_L1, ReplayPolicy::sourceName(v.source)},
                   {"reason"_L1, v.reason}};
    if (v.replay) {
        it->replayed = true;
        dispatch(ticket);
    } else {
        it->uncertain = true;
        finishUncertain(ticket, reconnectWord());
    }
}

void ServerSupervisor::finishUncertain(quint64 ticket, const QString &reconnect)
{
    auto it = m_ops.find(ticket);
    if (it == m_ops.end())
        return;
    const QString tool = it->request.params.value("name"_L1).toString();
    const QString connection =
        reconnect == "ok"_L1 ? u"has been re-established (generation %1)"_s.arg(m_lastGeneration)
                             : u"is not recovered yet (reconnect %1)"_s.arg(reconnect);
    Error e(
        Error::Kind::Transport,
        u"The call to tool \"%1\" on server \"%2\" was sent before its session failed (%3), so it "
        u"may or may not have taken effect. "
        "It was not sent again. The connection %4. Verify the server's state before invoking it again."_s
            .arg(tool, m_config.name, it->rule, connection));
    e.setCause(it->firstError);
    CallOutcome o;
    o.error = e;
    o.recovery = {{"outcome_uncertain"_L1, true},
                  {"server"_L1, m_config.name},
                  {"replayed"_L1, false},
                  {"reconnect"_L1, reconnect}};
    finish(ticket, o);
}

void ServerSupervisor::finish(quint64 ticket, CallOutcome outcome)
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
        outcome.generation = op.generations.last().toInt();
    QJsonObject r{{"generations"_L1, op.generations},
                  {"waited_ms"_L1, op.waitedMs},
                  {"replayed"_L1, op.replayed}};
    if (!op.rule.isEmpty())
        r.insert("rule"_L1, op.rule);
    if (op.expiredAtUs) // what recovery cost this call: from the expiry verdict to this answer
        r.insert("recovery_ms"_L1, double(m_clock.nowUs() - *op.expiredAtUs) / 1000.0);
    if (!op.verdict.isEmpty())
        r.insert("replay_verdict"_L1, op.verdict);
    for (auto k = outcome.recovery.begin(); k != outcome.recovery.end(); ++k)
        r.insert(k.key(), k.value());
    outcome.recovery = r;
    armBudgetTimer();
    Q_EMIT callFinished(outcome);
}

void ServerSupervisor::requestReconnect(const QString &trigger)
{
    if (m_reconnecting || m_stopping)
        return;
    m_retryTimer->stop();
    m_attemptTrigger = trigger;
    attemptReconnect();
}

void ServerSupervisor::attemptReconnect()
{
    m_reconnecting = true;
    m_attemptFromGeneration = m_lastGeneration;
    m_attemptStartedMs = m_clock.nowMs();
    history(u"reconnect-attempt"_s, {{"trigger"_L1, m_attemptTrigger},
                                     {"from_generation"_L1, m_lastGeneration},
                                     {"attempt"_L1, m_reconnectPolicy.failures() + 1}});
    // A reconnect by hand may leave a live session behind: close it properly then.
    m_session->restart(m_attemptTrigger, m_attemptTrigger == "by hand"_L1);
}

void ServerSupervisor::reconnect(const QString &cause)
{
    CallRequest r;
    r.ticket = m_nextInternal++;
    r.method = ReconnectCommand;
    m_internal.insert(r.ticket, [](const CallOutcome &) {});
    Q_UNUSED(cause);
    call(r);
}

void ServerSupervisor::armBudgetTimer()
{
    std::optional<qint64> next;
    for (const Operation &op : std::as_const(m_ops))
        if (op.stage != Stage::Dispatched && (!next || op.deadlineMs < *next))
            next = op.deadlineMs;
    if (!next) {
        m_budgetTimer->stop();
        return;
    }
    m_budgetTimer->start(std::max<qint64>(0, *next - m_clock.nowMs()));
}

void ServerSupervisor::checkBudgets()
{
    const qint64 now = m_clock.nowMs();
    const QList<quint64> tickets = m_ops.keys();
    for (quint64 t : tickets) {
        const auto it = m_ops.constFind(t);
        if (it == m_ops.constEnd() || it->stage == Stage::Dispatched || it->deadlineMs > now)
            continue;
        const Operation op = *it;
        const QString word = reconnectWord();
        history(u"recovery-budget-spent"_s, {{"method"_L1, op.request.method},
                                             {"budget_ms"_L1, m_config.recoveryBudgetMs},
                                             {"reconnect"_L1, word}});
        const bool neverRan = op.verdict.value("source"_L1).toString() == "transport"_L1 &&
                              op.verdict.value("replay"_L1).toBool();
        if (op.request.method == "tools/call"_L1 && op.stage != Stage::WaitingToDispatch &&
            !neverRan) {
            finishUncertain(t, word);
            continue;
        }
        CallOutcome o;
        if (op.stage == Stage::WaitingToDispatch) {
            Error e = Error::transport(
                u"%1 is not connected and did not come back within the %2 ms recovery budget; the call was not sent%3"_s
                    .arg(m_config.name)
                    .arg(m_config.recoveryBudgetMs)
                    .arg(
                        m_lastAttemptFailed
                            ? u": the server does not start cleanly (see its stderr in the transcript)"_s
                            : QString()),
                Error::Condition::NotConnected);
            o.error = e;
            if (op.request.method == "tools/call"_L1)
                strike(u"not connected"_s);
        } else {
            Error e = Error::transport(
                u"%1 (the recovery budget of %2 ms was spent before %3 came back)"_s
                    .arg(op.firstError.isError() ? op.firstError.message() : u"reconnect"_s)
                    .arg(m_config.recoveryBudgetMs)
                    .arg(m_config.name),
                op.firstError.condition());
            if (op.firstError.isError())
                e.setCause(op.firstError);
            o.error = e;
        }
        o.recovery = {{"reconnect"_L1, word}};
        finish(t, o);
    }
    armBudgetTimer();
}

quint64 ServerSupervisor::internalCall(const QString &method, const QJsonObject &params,
                                       int timeoutMs, std::function<void(const CallOutcome &)> then)
{
    CallRequest r;
    r.ticket = m_nextInternal++;
    r.server = m_config.name;
    r.method = method;
    r.params = params;
    r.timeoutMs = timeoutMs;
    m_internal.insert(r.ticket, std::move(then));
    m_session->call(r);
    return r.ticket;
}

void ServerSupervisor::keepalive()
{
    if (m_pingInFlight || m_lastState != SessionSnapshot::State::Ready)
        return;
    m_pingInFlight = true;
    internalCall(u"ping"_s, {}, std::min(m_config.pingIntervalMs, 10'000),
                 [this](const CallOutcome &o) {
                     m_pingInFlight = false;
                     if (o.ok() || o.error.kind() == Error::Kind::Cancelled)
                         return;
                     history(u"keepalive-failed"_s, {{"error"_L1, o.error.message()}});
                     requestReconnect(u"keepalive ping failed: %1"_s.arg(o.error.message()));
                 });
}

void ServerSupervisor::cancel(quint64 ticket, const QString &reason)
{
    const auto it = m_ops.constFind(ticket);
    if (it == m_ops.constEnd())
        return;
    if (it->stage == Stage::Dispatched) {
        m_session->cancel(ticket, reason);
        return;
    }
    CallOutcome o;
    o.error = Error::cancelled(reason);
    finish(ticket, o);
}

void ServerSupervisor::reply(const ServerReply &reply)
{
    m_session->reply(reply);
}

Error ServerSupervisor::injectFault(const Fault &fault)
{
    const Error e = m_session->injectFault(fault);
    history(u"fault"_s, {{"kind"_L1, fault.describe()},
                         {"applied"_L1, !e.isError()},
                         {"error"_L1, e.isError() ? QJsonValue(e.message()) : QJsonValue()}});
    return e;
}

void ServerSupervisor::setToolOverride(const QString &tool, std::optional<bool> readOnly)
{
    if (readOnly)
        m_replay.setOverride(tool, *readOnly);
    else
        m_replay.clearOverride(tool);
    history(u"replay-override"_s,
            {{"tool"_L1, tool},
             {"verdict"_L1,
              readOnly ? (*readOnly ? u"read-only"_s : u"write-capable"_s) : u"server hint"_s}});
}

void ServerSupervisor::resetBreaker()
{
    m_breaker.reset(u"user"_s);
    recordBreakerTransitions();
    Q_EMIT changed();
}

void ServerSupervisor::tripBreaker()
{
    m_breaker.trip(u"user"_s);
    recordBreakerTransitions();
    Q_EMIT changed();
}

} // namespace Sonde
