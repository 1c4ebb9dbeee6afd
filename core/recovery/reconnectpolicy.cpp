// SPDX-License-Identifier: MIT
#include "recovery/reconnectpolicy.h"

#include <QRandomGenerator>

#include <cmath>

namespace Sonde {

ReconnectPolicy::ReconnectPolicy()
    : ReconnectPolicy(Settings{}, [] { return QRandomGenerator::global()->generateDouble(); })
{
}

ReconnectPolicy::ReconnectPolicy(Settings settings, Random random)
    : m_settings(settings), m_random(std::move(random))
{
}

ReconnectPolicy::Settings ReconnectPolicy::interactiveSettings()
{
    Settings s;
    s.maxMs = 10'000;
    s.parkedProbeMs = 30'000;
    return s;
}

qint64 ReconnectPolicy::nextDelayMs() const
{
    if (parked())
        return m_settings.parkedProbeMs;
    const int doublings = std::min(m_failures, 30);
    const qint64 base = std::min<qint64>(m_settings.maxMs, m_settings.initialMs << doublings);
    // Spread in [-jitter, +jitter] so servers that failed together do not retry together.
    const double factor = 1.0 + m_settings.jitter * (2.0 * m_random() - 1.0);
    return std::max<qint64>(0, std::llround(double(base) * factor));
}

} // namespace Sonde
