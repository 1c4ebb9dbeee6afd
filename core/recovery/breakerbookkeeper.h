// SPDX-License-Identifier: MIT
#pragma once

#include "recovery/circuitbreaker.h"
#include "values/recoveryvalues.h"

#include <QObject>

namespace Sonde {

// One server's CircuitBreaker with its paper trail (docs/recovery.md §4): every transition
// becomes a "breaker" entry of the server's history as soon as the call that caused it
// returns, so no caller can forget to record one. Thread: the engine's; owned by the
// ServerSupervisor, used by its call recovery.
class BreakerBookkeeper : public QObject
{
    Q_OBJECT
public:
    BreakerBookkeeper(const Clock &clock, CircuitBreaker::Policy policy, QObject *parent = nullptr);

    CircuitBreaker::Admission admit(const QString &server);
    void succeeded(const QString &cause);
    void strike(const QString &cause);
    void releaseProbe() { m_breaker.releaseProbe(); }
    bool probeInFlight() const { return m_breaker.probeInFlight(); }
    void reset(const QString &cause);
    void trip(const QString &cause);
    BreakerPhase phase() const { return m_breaker.state(); }
    BreakerState state() const;

Q_SIGNALS:
    void recorded(const Sonde::HistoryEvent &event);
    // The breaker moved (after its entries were recorded).
    void transitioned();

private:
    void recordTransitions();

    CircuitBreaker m_breaker;
};

} // namespace Sonde
