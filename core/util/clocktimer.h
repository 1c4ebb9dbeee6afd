// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

namespace Sonde {

// A single-shot timer on a Clock's time line. Recovery's waits (the budget, the reconnect
// backoff, the parked probe, the keepalive, request timeouts) are made from these instead
// of raw QTimers, so a test on a ManualClock runs a 300 s probe by advancing the clock:
// no sleeps, and exact. Made by Clock::createTimer; thread of its parent.
class ClockTimer : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    // (Re)starts: timeout() once, `inMs` from now on the clock (0: on the next chance).
    virtual void start(qint64 inMs) = 0;
    virtual void stop() = 0;
    virtual bool isActive() const = 0;
    virtual qint64 remainingMs() const = 0;

Q_SIGNALS:
    void timeout();
};

} // namespace Sonde
