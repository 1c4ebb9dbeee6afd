// SPDX-License-Identifier: MIT
#pragma once

#include "application/timeline/timelinelayout.h"
#include "transcript/transcriptevent.h"

#include <QColor>
#include <QCoreApplication>
#include <QString>

#include <optional>

namespace Sonde {

// How the timeline's items read: the names and colours of span outcomes and markers, and
// the tooltip text of a hit (method, id, times, latency, outcome; or the event and its
// details; or the generation). Stateless; the TimelineLayout forwards to it.
class TimelineLegend
{
    Q_DECLARE_TR_FUNCTIONS(TimelineLegend)
public:
    static QColor outcomeColor(TimelineLayout::Outcome outcome);
    static QString outcomeName(TimelineLayout::Outcome outcome);
    // One sentence for the legend's tooltip: what the colour means.
    static QString outcomeDescription(TimelineLayout::Outcome outcome);
    static QColor markerColor(TimelineLayout::MarkerKind kind);
    static QString markerName(TimelineLayout::MarkerKind kind);
    static QString markerDescription(TimelineLayout::MarkerKind kind);
    static QString describe(const TimelineLayout &layout, const TimelineLayout::Hit &hit,
                            qint64 nowMs);
    // A field the supervisor's entries have typed (in their body T) and the session's own
    // events (ready, closed, fault) write in their details.
    template <typename T>
    static QString detailText(const TranscriptEvent &e, QString T::*field, QLatin1StringView key)
    {
        if (e.history) {
            const T *typed = e.history->as<T>();
            return typed ? typed->*field : QString();
        }
        return e.details.value(key).toString();
    }
};

} // namespace Sonde
