// SPDX-License-Identifier: MIT
#include "recovery/reconnectcontroller.h"

#include "recovery/serverprogress.h"
#include "util/clock.h"
#include "util/clocktimer.h"

using namespace Qt::StringLiterals;

namespace Sonde {

static const QString ByHand = u"by hand"_s;

ReconnectController::ReconnectController(const Clock &clock, const ServerProgress &progress,
                                         int pingIntervalMs, QObject *parent,
                                         ReconnectPolicy policy)
    : QObject(parent), m_clock(clock), m_progress(progress), m_pingIntervalMs(pingIntervalMs),
      m_policy(std::move(policy))
{
    // On the engine's clock, so tests run a 300 s parked probe by advancing a ManualClock.
    m_retryTimer = clock.createTimer(this);
    connect(m_retryTimer, &ClockTimer::timeout, this, &ReconnectController::onRetryTimer);
    m_pingTimer = clock.createTimer(this);
    if (m_pingIntervalMs > 0) {
        connect(m_pingTimer, &ClockTimer::timeout, this, [this] {
            m_pingTimer->start(m_pingIntervalMs);
            keepalive();
        });
    }
}

void ReconnectController::request(const QString &trigger)
{
    if (m_inProgress || m_progress.stopping)
        return;
    m_retryTimer->stop();
    attempt(trigger);
}

void ReconnectController::reconnectByHand()
{
    m_policy.recordSuccess(); // by hand: unpark
    m_lastAttemptFailed = false;
    m_retryTimer->stop();
    if (!m_inProgress)
        attempt(ByHand);
}

void ReconnectController::onRetryTimer()
{
    if (m_inProgress || m_progress.stopping)
        return;
    attempt(m_policy.parked() ? u"parked: periodic probe"_s : u"backoff: next attempt"_s);
}

void ReconnectController::attempt(const QString &trigger)
{
    m_inProgress = true;
    m_trigger = trigger;
    m_fromGeneration = m_progress.generation;
    m_startedMs = m_clock.nowMs();
    Q_EMIT recorded({.body = HistoryEvent::ReconnectAttempt{.trigger = trigger,
                                                            .fromGeneration = m_progress.generation,
                                                            .attempt = m_policy.failures() + 1}});
    // A reconnect by hand may leave a live session behind: close it properly then.
    Q_EMIT restartRequested(trigger, trigger == ByHand);
}

void ReconnectController::sessionReady()
{
    if (m_inProgress) {
        m_inProgress = false;
        Q_EMIT recorded(
            {.body = HistoryEvent::Reconnect{.trigger = m_trigger,
                                             .fromGeneration = m_fromGeneration,
                                             .toGeneration = m_progress.generation,
                                             .durationMs = m_clock.nowMs() - m_startedMs,
                                             .outcome = ReconnectOutcome::Ok}});
    }
    m_lastAttemptFailed = false;
    m_policy.recordSuccess();
    m_retryTimer->stop();
    if (m_pingIntervalMs > 0)
        m_pingTimer->start(m_pingIntervalMs);
}

void ReconnectController::sessionFailed(const QString &error)
{
    m_pingTimer->stop();
    if (!m_inProgress)
        return;
    m_inProgress = false;
    m_lastAttemptFailed = true;
    // The delay is read before this failure counts: 1 s after the first failed attempt,
    // doubling after each one (it was 2 s after the first, found by the failure-path test on
    // the manual clock).
    const qint64 backoff = m_policy.nextDelayMs();
    m_policy.recordFailure();
    Q_EMIT recorded({.body = HistoryEvent::Reconnect{.trigger = m_trigger,
                                                     .fromGeneration = m_fromGeneration,
                                                     .durationMs = m_clock.nowMs() - m_startedMs,
                                                     .outcome = ReconnectOutcome::Failed,
                                                     .error = error}});
    Q_EMIT attemptFailed();
    if (m_progress.stopping)
        return;
    const qint64 delay = m_policy.parked() ? m_policy.nextDelayMs() : backoff;
    m_retryTimer->start(delay);
    Q_EMIT recorded(
        {.body = HistoryEvent::ReconnectScheduled{.inMs = delay, .parked = m_policy.parked()}});
}

void ReconnectController::stop()
{
    m_retryTimer->stop();
    m_pingTimer->stop();
}

void ReconnectController::keepalive()
{
    if (m_pingInFlight || !m_progress.ready())
        return;
    m_pingInFlight = true;
    Q_EMIT pingRequested(std::min(m_pingIntervalMs, 10'000));
}

void ReconnectController::pingAnswered(const CallOutcome &o)
{
    m_pingInFlight = false;
    if (o.ok() || o.error.kind() == Error::Kind::Cancelled)
        return;
    Q_EMIT recorded({.body = HistoryEvent::KeepaliveFailed{.error = o.error.message()}});
    request(u"keepalive ping failed: %1"_s.arg(o.error.message()));
}

ReconnectOutcome ReconnectController::outcome() const
{
    if (m_inProgress)
        return ReconnectOutcome::Pending;
    if (m_lastAttemptFailed)
        return ReconnectOutcome::Failed;
    return m_progress.ready() ? ReconnectOutcome::Ok : ReconnectOutcome::Pending;
}

ReconnectState ReconnectController::state() const
{
    ReconnectState s;
    s.inProgress = m_inProgress;
    s.failedAttempts = m_policy.failures();
    s.parked = m_policy.parked();
    s.nextAttemptInMs = m_retryTimer->remainingMs();
    return s;
}

} // namespace Sonde
