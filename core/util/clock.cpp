// SPDX-License-Identifier: MIT
#include "util/clock.h"

#include <QDateTime>

namespace Sonde {

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

} // namespace Sonde
