// SPDX-License-Identifier: MIT
#pragma once

#include "values/recoveryvalues.h"

#include <QList>

namespace Sonde {

// The server's history of recovery events (docs/recovery.md §3, §4), bounded: the oldest go
// first. The supervisor stamps and appends; its snapshot shows the most recent ones. Thread:
// the engine's; owned by the ServerSupervisor.
class RecoveryHistory
{
public:
    static constexpr qsizetype MaxEvents = 500;

    void append(const HistoryEvent &event);
    // The last `count` events, oldest first.
    QList<HistoryEvent> recent(qsizetype count) const;
    qsizetype size() const { return m_events.size(); }

private:
    QList<HistoryEvent> m_events;
};

} // namespace Sonde
