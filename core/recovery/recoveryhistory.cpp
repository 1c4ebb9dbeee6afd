// SPDX-License-Identifier: MIT
#include "recovery/recoveryhistory.h"

namespace Sonde {

void RecoveryHistory::append(const HistoryEvent &event)
{
    m_events.append(event);
    if (m_events.size() > MaxEvents)
        m_events.removeFirst();
}

QList<HistoryEvent> RecoveryHistory::recent(qsizetype count) const
{
    const qsizetype from = std::max<qsizetype>(0, m_events.size() - count);
    return m_events.mid(from);
}

} // namespace Sonde
