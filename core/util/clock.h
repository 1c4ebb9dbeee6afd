// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QPointer>
#include <QtGlobal>

class QObject;

namespace Sonde {

class ClockTimer;
class ManualTimer;

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
    // A timer on this clock's time line, owned by `parent`. The default runs on the event
    // loop (a QTimer); ManualClock's fire when it is advanced.
    virtual ClockTimer *createTimer(QObject *parent) const;
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

// A clock that moves only when told to: tests advance it instead of sleeping. Its timers
// fire inside advance(), in deadline order, each at its own time (a timer started by
// another's timeout fires in the same advance when it falls due within it).
class ManualClock final : public Clock
{
public:
    explicit ManualClock(qint64 startMs = 1'700'000'000'000) : m_now(startMs) {}
    qint64 nowMs() const override { return m_now; }
    void advance(qint64 ms);
    ClockTimer *createTimer(QObject *parent) const override;
    // The deadline of the earliest active timer, or -1.
    qint64 nextDeadlineMs() const;

private:
    friend class ManualTimer;
    qint64 m_now;
    mutable QList<QPointer<ManualTimer>> m_timers;
};

} // namespace Sonde
