// SPDX-License-Identifier: MIT
#include "recovery/breakerbookkeeper.h"

namespace Sonde {

BreakerBookkeeper::BreakerBookkeeper(const Clock &clock, CircuitBreaker::Policy policy,
                                     QObject *parent)
    : QObject(parent), m_breaker(clock, policy)
{
}

CircuitBreaker::Admission BreakerBookkeeper::admit(const QString &server)
{
    const CircuitBreaker::Admission a = m_breaker.admit(server);
    recordTransitions();
    return a;
}

void BreakerBookkeeper::succeeded(const QString &cause)
{
    m_breaker.recordSuccess(cause);
    recordTransitions();
}

void BreakerBookkeeper::strike(const QString &cause)
{
    m_breaker.recordStrike(cause);
    recordTransitions();
}

void BreakerBookkeeper::reset(const QString &cause)
{
    m_breaker.reset(cause);
    recordTransitions();
}

void BreakerBookkeeper::trip(const QString &cause)
{
    m_breaker.trip(cause);
    recordTransitions();
}

BreakerState BreakerBookkeeper::state() const
{
    BreakerState s;
    s.phase = m_breaker.state();
    s.strikes = m_breaker.strikes();
    s.threshold = m_breaker.threshold();
    s.cooldownS = double(m_breaker.policy().cooldownMs) / 1000.0;
    const qint64 retryIn = m_breaker.retryInMs();
    s.retryInS = retryIn > 0 ? std::max<qint64>(1, (retryIn + 999) / 1000) : 0;
    s.probeInFlight = m_breaker.probeInFlight();
    s.trippedBy = m_breaker.trippedBecause();
    return s;
}

void BreakerBookkeeper::recordTransitions()
{
    const QList<CircuitBreaker::Transition> transitions = m_breaker.takeTransitions();
    for (const CircuitBreaker::Transition &t : transitions) {
        Q_EMIT recorded({.body = HistoryEvent::Breaker{.from = t.from,
                                                       .to = t.to,
                                                       .cause = t.cause,
                                                       .strikes = t.strikes,
                                                       .threshold = m_breaker.threshold()}});
    }
    if (!transitions.isEmpty())
        Q_EMIT transitioned();
}

} // namespace Sonde
