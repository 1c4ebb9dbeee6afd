// SPDX-License-Identifier: MIT
#include "util/clock.h"

#include "util/clocktimer.h"

#include <QDateTime>
#include <QTimer>

namespace Sonde {

namespace {

class EventLoopTimer final : public ClockTimer
{
public:
    explicit EventLoopTimer(QObject *parent) : ClockTimer(parent), m_timer(new QTimer(this))
    {
        m_timer->setSingleShot(true);
        // Precise: a coarse timer may fire up to 5 % early, so a 2000 ms delay fault held an
        // answer 1910 ms, and a timeout came before its time.
        m_timer->setTimerType(Qt::PreciseTimer);
        connect(m_timer, &QTimer::timeout, this, &ClockTimer::timeout);
    }
    void start(qint64 inMs) override
    {
        m_timer->start(int(std::clamp<qint64>(inMs, 0, std::numeric_limits<int>::max())));
    }
    void stop() override { m_timer->stop(); }
    bool isActive() const override { return m_timer->isActive(); }
    qint64 remainingMs() const override
    {
        return m_timer->isActive() ? m_timer->remainingTime() : -1;
    }

private:
    QTimer *m_timer;
};

} // namespace

class ManualTimer final : public ClockTimer
{
public:
    ManualTimer(const ManualClock &clock, QObject *parent) : ClockTimer(parent), m_clock(clock) {}
    void start(qint64 inMs) override
    {
        m_deadline = m_clock.nowMs() + std::max<qint64>(0, inMs);
        m_active = true;
    }
    void stop() override { m_active = false; }
    bool isActive() const override { return m_active; }
    qint64 remainingMs() const override
    {
        return m_active ? std::max<qint64>(0, m_deadline - m_clock.nowMs()) : -1;
    }

    const ManualClock &m_clock;
    qint64 m_deadline = 0;
    bool m_active = false;
};

ClockTimer *Clock::createTimer(QObject *parent) const
{
    return new EventLoopTimer(parent);
}

SteadyClock::SteadyClock() : m_epochAtStart(QDateTime::currentMSecsSinceEpoch())
{
    m_elapsed.start();
}

qint64 SteadyClock::nowMs() const
{
    return m_epochAtStart + m_elapsed.elapsed();
}

qint64 SteadyClock::nowUs() const
{
    return m_epochAtStart * 1000 + m_elapsed.nsecsElapsed() / 1000;
}

ClockTimer *ManualClock::createTimer(QObject *parent) const
{
    auto *t = new ManualTimer(*this, parent);
    m_timers.append(t);
    return t;
}

qint64 ManualClock::nextDeadlineMs() const
{
    qint64 next = -1;
    for (const QPointer<ManualTimer> &t : std::as_const(m_timers))
        if (t && t->m_active && (next < 0 || t->m_deadline < next))
            next = t->m_deadline;
    return next;
}

void ManualClock::advance(qint64 ms)
{
    const qint64 target = m_now + ms;
    m_timers.removeAll(nullptr);
    for (;;) {
        // The earliest due timer first, with the clock at its deadline: a callback sees the
        // time it was due at, as on a real clock.
        ManualTimer *due = nullptr;
        for (const QPointer<ManualTimer> &t : std::as_const(m_timers))
            if (t && t->m_active && t->m_deadline <= target &&
                (!due || t->m_deadline < due->m_deadline))
                due = t;
        if (!due)
            break;
        m_now = std::max(m_now, due->m_deadline);
        due->m_active = false;
        Q_EMIT due->timeout();
    }
    m_now = target;
}

} // namespace Sonde
