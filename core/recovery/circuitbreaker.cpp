// SPDX-License-Identifier: MIT
#include "recovery/circuitbreaker.h"

#include "protocol/error.h"
#include "util/clock.h"
#include "util/logging.h"

using namespace Qt::StringLiterals;

namespace Sonde {

CircuitBreaker::CircuitBreaker(const Clock &clock) : CircuitBreaker(clock, Policy{})
{
}
CircuitBreaker::CircuitBreaker(const Clock &clock, Policy policy) : m_clock(clock), m_policy(policy)
{
}

QString CircuitBreaker::stateName(State state)
{
    return enumName(state);
}

CircuitBreaker::State CircuitBreaker::state() const
{
    if (!m_openUntil)
        return State::Closed;
    return m_clock.nowMs() < *m_openUntil ? State::Open : State::HalfOpen;
}

qint64 CircuitBreaker::retryInMs() const
{
    return m_openUntil ? std::max<qint64>(0, *m_openUntil - m_clock.nowMs()) : 0;
}

void CircuitBreaker::moveTo(State to, const QString &cause)
{
    if (to == m_recorded && to != State::Open)
        return;
    qCDebug(lcBreaker).noquote() << u"%1 -> %2 at %3 of %4 strikes: %5"_s
                                        .arg(stateName(m_recorded), stateName(to))
                                        .arg(m_strikes)
                                        .arg(m_policy.threshold)
                                        .arg(cause);
    m_transitions.append({m_clock.nowMs(), m_recorded, to, cause, m_strikes});
    m_recorded = to;
}

CircuitBreaker::Admission CircuitBreaker::admit(const QString &server)
{
    const State s = state();
    if (s == State::Closed)
        return {};
    if (s == State::Open) {
        const qint64 left = retryInMs();
        const qint64 seconds = std::max<qint64>(1, (left + 999) / 1000);
        if (m_trippedBecause)
            return {
                false, false, left,
                u"%1's circuit breaker is open because it was tripped by hand (%2): the call was not sent; retry in %3 s"_s
                    .arg(server, *m_trippedBecause)
                    .arg(seconds)};
        return {
            false, false, left,
            u"%1's circuit breaker is open after %2 consecutive failures: the call was not sent; retry in %3 s"_s
                .arg(server)
                .arg(m_strikes)
                .arg(seconds)};
    }
    if (m_probeInFlight)
        return {
            false, false, 0,
            u"%1's circuit breaker is half-open and its one probe call is still running: the call was not sent"_s
                .arg(server)};
    if (m_recorded != State::HalfOpen)
        moveTo(State::HalfOpen, u"cooldown over: one probe call allowed"_s);
    m_probeInFlight = true;
    return {true, true, 0, {}};
}

void CircuitBreaker::recordSuccess(const QString &cause)
{
    m_probeInFlight = false;
    m_strikes = 0;
    m_openUntil.reset();
    m_trippedBecause.reset();
    moveTo(State::Closed, cause);
}

void CircuitBreaker::recordStrike(const QString &cause)
{
    const bool wasProbe = m_probeInFlight;
    m_probeInFlight = false;
    ++m_strikes;
    qCDebug(lcBreaker).noquote() << u"strike %1 of %2%3: %4"_s.arg(m_strikes)
                                        .arg(m_policy.threshold)
                                        .arg(wasProbe ? u" (the half-open probe failed)"_s
                                                      : QString(),
                                             cause);
    if (wasProbe || m_strikes >= m_policy.threshold || m_openUntil) {
        // At the threshold it opens; while open (or after a failed probe) every strike
        // re-arms the cooldown.
        m_openUntil = m_clock.nowMs() + m_policy.cooldownMs;
        m_trippedBecause.reset();
        moveTo(State::Open, cause);
    }
}

void CircuitBreaker::releaseProbe()
{
    m_probeInFlight = false;
}

void CircuitBreaker::reset(const QString &cause)
{
    recordSuccess(u"reset by hand: "_s + cause);
}

void CircuitBreaker::trip(const QString &cause)
{
    m_probeInFlight = false;
    m_strikes = std::max(m_strikes, m_policy.threshold);
    m_openUntil = m_clock.nowMs() + m_policy.cooldownMs;
    m_trippedBecause = cause;
    moveTo(State::Open, u"tripped by hand: "_s + cause);
}

bool CircuitBreaker::isStrike(const Error &error)
{
    // A refusal for want of credentials says nothing about the server's health: tripping the
    // breaker on it would keep the user out after signing in (docs/recovery.md §9).
    if (const std::optional<int> status = error.httpStatus(); status == 401 || status == 403)
        return false;
    switch (error.kind()) {
    case Error::Kind::Transport:
    case Error::Kind::Timeout:
    case Error::Kind::Application:
    case Error::Kind::Injected:
        return true;
    case Error::Kind::None:
    case Error::Kind::Protocol:
    case Error::Kind::Remote:
    case Error::Kind::Cancelled:
    case Error::Kind::Refused:
        return false;
    }
    return false;
}

} // namespace Sonde
