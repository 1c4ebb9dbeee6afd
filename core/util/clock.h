// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QtGlobal>

namespace Sonde {

// The time source of every timer-driven policy (request timeouts, and later the breaker and
// backoff). One clock per engine, so wire messages, stderr lines and lifecycle events share
// one time line. Thread: whichever thread owns the consumer; const methods are thread-safe.
class Clock
{
public:
    virtual ~Clock() = default;
    // Milliseconds since the Unix epoch, monotonic after construction (never jumps back when
    // the wall clock is adjusted), so durations and timestamps agree.
    virtual qint64 nowMs() const = 0;
    // The same time line in microseconds, for durations too short for milliseconds (a
    // recovery on loopback takes one or two). Clocks without a finer source step in ms.
    virtual qint64 nowUs() const { return nowMs() * 1000; }
};

class SteadyClock final : public Clock
{
public:
    SteadyClock();
    qint64 nowMs() const override;
    qint64 nowUs() const override;

private:
    qint64 m_epochAtStart;
    QElapsedTimer m_elapsed;
};

// A clock that moves only when told to: tests advance it instead of sleeping.
class ManualClock final : public Clock
{
public:
    explicit ManualClock(qint64 startMs = 1'700'000'000'000) : m_now(startMs) {}
    qint64 nowMs() const override { return m_now; }
    void advance(qint64 ms) { m_now += ms; }

private:
    qint64 m_now;
};

} // namespace Sonde
