// SPDX-License-Identifier: MIT
#pragma once

#include "transcript/transcriptevent.h"

namespace Sonde {

class TranscriptPageSource;

// A recorded session read back for the Timeline: the TranscriptEvent values the live timeline
// is fed (the supervisor's entries with their typed form again, TranscriptEvent::fromJson), so
// a past session draws as it did live. Bounded: at most `maxEvents`, and `total` says how many
// there were. Values only.
class TimelineRecording
{
public:
    static constexpr int MaxEvents = 50'000;

    TranscriptBatch events;
    qint64 total = 0; // the events the source holds
    bool isCut() const { return total > events.size(); }

    // Reads `source` a page at a time, from its first event.
    static TimelineRecording read(const TranscriptPageSource &source, int maxEvents = MaxEvents);
};

} // namespace Sonde
