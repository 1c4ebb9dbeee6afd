// SPDX-License-Identifier: MIT
#include "recovery/serversupervisor.h"

#include "auth/authorizer.h"
#include "auth/headlessuseragent.h"
#include "auth/loopbackuseragent.h"
#include "recovery/breakerbookkeeper.h"
#include "recovery/callrecoveryunit.h"
#include "recovery/reconnectcontroller.h"
#include "recovery/sessionexpiryclassifier.h"
#include "session/serversession.h"
#include "transport/transport.h"
#include "util/clock.h"

#include <QRandomGenerator>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

// How many of the history's events a snapshot shows.
static constexpr qsizetype RecentHistory = 50;

ServerSupervisor::ServerSupervisor(const ServerConfig &config, const Clock &clock,
                                   const QJsonObject &clientCapabilities, QObject *parent,
                                   TransportFactory factory)
    : QObject(parent), m_config(config), m_clock(clock)
{
    m_session = new ServerSession(config, clock, clientCapabilities, std::move(factory), this);
    m_breaker =
        new BreakerBookkeeper(clock, {config.breakerThreshold, config.breakerCooldownMs}, this);
    m_reconnect = new ReconnectController(
        clock, m_progress, config.pingIntervalMs, this,
        config.recoveryProfile == ServerConfig::RecoveryProfile::Interactive
            ? ReconnectPolicy(ReconnectPolicy::interactiveSettings(),
                              [] { return QRandomGenerator::global()->generateDouble(); })
            : ReconnectPolicy());
    m_calls = new CallRecoveryUnit(m_config, clock, m_progress, *m_session, *m_breaker,
                                   *m_reconnect, this);

    connect(m_session, &ServerSession::snapshotChanged, this, &ServerSupervisor::onSessionSnapshot);
    connect(m_session, &ServerSession::callFinished, m_calls,
            &CallRecoveryUnit::onSessionCallFinished);
    connect(m_session, &ServerSession::serverRequestReceived, this,
            &ServerSupervisor::serverRequestReceived);
    connect(m_session, &ServerSession::notificationReceived, this,
            &ServerSupervisor::notificationReceived);
    connect(m_session, &ServerSession::listRefreshed, this, &ServerSupervisor::listRefreshed);
    connect(m_session, &ServerSession::transcriptEvent, this, &ServerSupervisor::transcriptEvent);
    connect(m_session, &ServerSession::stopped, this, &ServerSupervisor::stopped);
    connect(m_session, &ServerSession::connectionLost, this, &ServerSupervisor::onConnectionLost);

    connect(m_breaker, &BreakerBookkeeper::recorded, this, &ServerSupervisor::record);
    connect(m_breaker, &BreakerBookkeeper::transitioned, this, &ServerSupervisor::changed);
    connect(m_reconnect, &ReconnectController::recorded, this, &ServerSupervisor::record);
    connect(m_reconnect, &ReconnectController::restartRequested, m_session,
            &ServerSession::restart);
    connect(m_reconnect, &ReconnectController::attemptFailed, this,
            [this] { m_breaker->strike(u"a reconnect failed"_s); });
    connect(m_reconnect, &ReconnectController::pingRequested, this, [this](int timeoutMs) {
        m_calls->internalCall(u"ping"_s, timeoutMs,
                              [this](const CallOutcome &o) { m_reconnect->pingAnswered(o); });
    });
    connect(m_calls, &CallRecoveryUnit::recorded, this, &ServerSupervisor::record);
    connect(m_calls, &CallRecoveryUnit::verdictGiven, this, [this](HistoryEvent e) {
        e.timeMs = m_clock.nowMs();
        Q_EMIT transcriptEvent(
            TranscriptEvent::fromHistory(e, m_config.name, m_progress.generation));
    });
    connect(m_calls, &CallRecoveryUnit::callFinished, this, &ServerSupervisor::callFinished);
}

ServerSupervisor::~ServerSupervisor()
{
    // The parts refer to this object's members (the config, the progress): they go first.
    delete m_calls;
    delete m_reconnect;
    delete m_breaker;
}

void ServerSupervisor::start()
{
    Authorizer *auth = authorizer();
    if (!auth || m_authLoaded) {
        m_session->start();
        return;
    }
    // A token stored by an earlier run goes on the first request, so a server that needs one
    // is not asked without it (and no flow runs while one is held).
    m_authLoaded = true;
    auth->loadStored([this] { m_session->start(); });
}

static std::unique_ptr<AuthorizationUserAgent>
userAgentFor(const ServerConfig &config, QNetworkAccessManager *nam, const Clock &clock)
{
    if (config.auth.agent == ServerConfig::Auth::Agent::Headless)
        return std::make_unique<HeadlessUserAgent>(nam);
    // The window and the CLI open (or print) the URL from the AuthState that carries it; the
    // listener waits as long as the whole flow may take, the person included.
    return std::make_unique<LoopbackUserAgent>(
        [](const QUrl &) {}, clock, config.auth.flowTimeoutMs,
        ServerConfig::authAgentName(config.auth.agent), config.name);
}

Authorizer *ServerSupervisor::authorizer()
{
    if (m_auth || !m_config.auth.enabled || m_config.route == ServerConfig::Route::Stdio)
        return m_auth;
    QNetworkAccessManager *nam = m_session->network();
    m_auth = new Authorizer(m_config, nam, userAgentFor(m_config, nam, m_clock), m_secrets, m_clock,
                            this);
    m_session->setAuthorization(m_auth);
    connect(m_auth, &Authorizer::stepRecorded, this, [this](const AuthStep &step) {
        Q_EMIT transcriptEvent(TranscriptEvent::lifecycle(m_clock.nowMs(), m_config.name,
                                                          m_progress.generation,
                                                          LifecycleDetails::AuthStep{step}));
    });
    connect(m_auth, &Authorizer::stateChanged, this, [this](const AuthState &state) {
        Q_EMIT transcriptEvent(TranscriptEvent::lifecycle(m_clock.nowMs(), m_config.name,
                                                          m_progress.generation,
                                                          LifecycleDetails::AuthState{state}));
        Q_EMIT authChanged(state);
    });
    return m_auth;
}

AuthState ServerSupervisor::authState() const
{
    if (m_auth)
        return m_auth->state();
    AuthState s;
    s.server = m_config.name;
    return s;
}

void ServerSupervisor::authCommand(AuthAction action,
                                   std::function<void(const AuthState &, const Error &)> done)
{
    Authorizer *auth = authorizer();
    if (!auth) {
        done(authState(),
             Error::protocol(m_config.route == ServerConfig::Route::Stdio
                                 ? u"authorization is for HTTP servers; this one runs over stdio"_s
                                 : u"authorization is off for this server (\"auth\": false)"_s));
        return;
    }
    const auto answer = [this, done](const HttpAuthorization::Verdict &v) {
        done(authState(), v.retry ? Error() : v.error);
    };
    const auto afterLoad = [this, auth, action, done, answer] {
        switch (action) {
        case AuthAction::Login:
            auth->login(answer);
            break;
        case AuthAction::Refresh:
            auth->refresh(answer);
            break;
        case AuthAction::SignOut:
            auth->signOut([this, done] { done(authState(), Error()); });
            break;
        case AuthAction::Status:
            done(authState(), Error());
            break;
        }
    };
    if (m_authLoaded) {
        afterLoad();
        return;
    }
    m_authLoaded = true;
    auth->loadStored(afterLoad);
}

void ServerSupervisor::stop()
{
    m_progress.stopping = true;
    m_reconnect->stop();
    m_calls->stop();
    m_session->stop();
}

void ServerSupervisor::call(const CallRequest &request)
{
    m_calls->call(request);
}

void ServerSupervisor::cancel(quint64 ticket, const QString &reason)
{
    m_calls->cancel(ticket, reason);
}

void ServerSupervisor::reply(const ServerReply &reply)
{
    m_session->reply(reply);
}

void ServerSupervisor::record(HistoryEvent event)
{
    event.timeMs = m_clock.nowMs();
    m_history.append(event);
    Q_EMIT transcriptEvent(
        TranscriptEvent::fromHistory(event, m_config.name, m_progress.generation));
}

void ServerSupervisor::onConnectionLost(const Error &error)
{
    const auto c = SessionExpiryClassifier::classify(
        error, SessionExpiryClassifier::DefaultNodeBudget,
        m_progress.sessionless ? SessionExpiryClassifier::Era::Rev20260728
                               : SessionExpiryClassifier::Era::Initialize);
    // Only the Streamable HTTP GET stream reports a lost session outside any call.
    record({.body = HistoryEvent::Classification{
                .rule = ExpiryRules::name(c.rule),
                .detail = c.detail,
                .expired = c.expired,
                .source = u"by the session's event stream (GET), outside any call"_s}});
    if (c.expired)
        m_reconnect->request(u"connection lost (%1)"_s.arg(ExpiryRules::name(c.rule)));
}

RecoveryState ServerSupervisor::recoveryState() const
{
    RecoveryState r;
    r.breaker = m_breaker->state();
    r.reconnect = m_reconnect->state();
    r.history = m_history.recent(RecentHistory);
    return r;
}

SessionSnapshot ServerSupervisor::snapshot() const
{
    SessionSnapshot s = m_session->snapshot();
    s.recovery = recoveryState();
    return s;
}

void ServerSupervisor::onSessionSnapshot(const SessionSnapshot &s)
{
    const SessionSnapshot::State previous = m_progress.state;
    m_progress.state = s.state;
    if (s.era)
        m_progress.sessionless = s.sessionless;
    // First: what follows may finish calls, and their results must not overtake this state.
    Q_EMIT changed();
    if (s.state == SessionSnapshot::State::Ready && s.generation != m_progress.generation) {
        m_progress.generation = s.generation;
        record({.body = HistoryEvent::SessionStart{.generation = s.generation,
                                                   .protocolVersion = s.protocolVersion,
                                                   .transport = ServerConfig::routeName(s.route)}});
        m_reconnect->sessionReady();
        m_breaker->succeeded(u"connected (generation %1)"_s.arg(s.generation));
        m_calls->sessionReady();
    } else if (s.state == SessionSnapshot::State::Failed &&
               previous != SessionSnapshot::State::Failed) {
        record({.body = HistoryEvent::SessionEnd{.generation = s.generation,
                                                 .cause = s.lastError.message()}});
        const bool duringAttempt = m_reconnect->inProgress();
        m_reconnect->sessionFailed(s.lastError.message());
        // A session that was up and failed on its own (a stdio server killed or crashed while
        // idle): reconnected now, not left "failed" until a call comes. Backoff and parking
        // hold a server that keeps dying.
        // Posted: this runs inside the session's own handling of the close, which must end
        // before a new connection starts; a call that comes first asks for the reconnect
        // itself, and this one then finds it under way.
        if (!duringAttempt && previous == SessionSnapshot::State::Ready && !m_progress.stopping)
            QTimer::singleShot(0, this, [this, why = s.lastError.message()] {
                if (m_progress.state == SessionSnapshot::State::Failed && !m_progress.stopping)
                    m_reconnect->request(
                        u"the connection was lost outside any call: %1"_s.arg(why));
            });
    } else if (s.state == SessionSnapshot::State::Closed &&
               previous != SessionSnapshot::State::Closed &&
               previous != SessionSnapshot::State::Closing) {
        record(
            {.body = HistoryEvent::SessionEnd{.generation = s.generation, .cause = u"closed"_s}});
    }
}

// A plain forward: fault handling belongs to the session and its transport.
Error ServerSupervisor::injectFault(const Fault &fault)
{
    const Error e = m_session->injectFault(fault);
    record({.body = HistoryEvent::Fault{.description = fault.describe(),
                                        .applied = !e.isError(),
                                        .error = e.isError() ? std::optional(e.message())
                                                             : std::nullopt}});
    return e;
}

void ServerSupervisor::setToolOverride(const QString &tool, std::optional<bool> readOnly)
{
    m_calls->setToolOverride(tool, readOnly);
    record({.body = HistoryEvent::ReplayOverride{
                .tool = tool,
                .verdict = readOnly ? (*readOnly ? u"read-only"_s : u"write-capable"_s)
                                    : u"server hint"_s}});
}

void ServerSupervisor::resetBreaker()
{
    m_breaker->reset(u"user"_s);
    Q_EMIT changed();
}

void ServerSupervisor::tripBreaker()
{
    m_breaker->trip(u"user"_s);
    Q_EMIT changed();
}

} // namespace Sonde
