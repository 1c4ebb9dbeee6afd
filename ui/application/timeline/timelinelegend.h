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
    // A text field of whichever of these structs the event's details are: the supervisor's
    // entry or the session's own event for the same thing (a fault, a session's start).
    template <typename... T, typename... V>
    static QString detailText(const TranscriptEvent &e, V T::*...fields)
    {
        QString found;
        const auto take = [&found](const auto *typed, const auto &field) {
            if (typed && found.isEmpty())
                found = std::optional<QString>(typed->*field).value_or(QString());
        };
        (take(e.detailsAs<T>(), fields), ...);
        return found;
    }
};

} // namespace Sonde
