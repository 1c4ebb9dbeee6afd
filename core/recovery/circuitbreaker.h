// SPDX-License-Identifier: MIT
#pragma once

#include "values/recoveryvalues.h"

#include <QList>
#include <QString>

#include <optional>

namespace Sonde {

class Clock;
class Error;

// One server's circuit breaker (docs/recovery.md §4): Closed, Open until a moment, HalfOpen with
// exactly one probe in flight. Strikes open it at the threshold and re-arm the cooldown
// while open; any success, and every (re)connect, closes it. Time comes from the injected
// clock, so tests move time instead of sleeping. Every transition is recorded with its time,
// cause and counts for the server's history. Thread: the engine's.
class CircuitBreaker
{
public:
    using State = BreakerPhase;
    struct Policy
    {
        int threshold = 3;
        qint64 cooldownMs = 60'000;
    };
    struct Admission
    {
        bool allowed = true;
        bool probe = false;   // this call is the half-open probe
        qint64 retryInMs = 0; // when refused
        QString message;      // when refused: names the server, the failures, the wait
    };
    struct Transition
    {
        qint64 timeMs = 0;
        State from = State::Closed;
        State to = State::Closed;
        QString cause;
        int strikes = 0;
    };

    explicit CircuitBreaker(const Clock &clock);
    CircuitBreaker(const Clock &clock, Policy policy);

    // Asks to dispatch a call. Refusals are not strikes and dispatch nothing.
    Admission admit(const QString &server);
    void recordSuccess(const QString &cause);
    void recordStrike(const QString &cause);
    // The probe ended without a verdict (e.g. cancelled): let another probe through.
    void releaseProbe();
    void reset(const QString &cause);
    void trip(const QString &cause);

    State state() const;
    int strikes() const { return m_strikes; }
    int threshold() const { return m_policy.threshold; }
    qint64 retryInMs() const;
    bool probeInFlight() const { return m_probeInFlight; }
    const std::optional<QString> &trippedBecause() const { return m_trippedBecause; }
    const Policy &policy() const { return m_policy; }
    QList<Transition> takeTransitions() { return std::exchange(m_transitions, {}); }

    static QString stateName(State state);
    // Whether a failed call counts against the breaker: transport failures, timeouts,
    // "not connected" and tool isError do; user cancellation and remote JSON-RPC errors
    // (the server answered, just not happily) do not.
    static bool isStrike(const Error &error);

private:
    void moveTo(State to, const QString &cause);

    const Clock &m_clock;
    Policy m_policy;
    int m_strikes = 0;
    std::optional<qint64> m_openUntil; // unset: not open, whatever the strikes
    // Set while open because the user tripped it: a refusal then names that, not strikes
    // that never happened.
    std::optional<QString> m_trippedBecause;
    bool m_probeInFlight = false;
    State m_recorded = State::Closed; // the last state written to the history
    QList<Transition> m_transitions;
};

} // namespace Sonde
