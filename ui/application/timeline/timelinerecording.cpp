// SPDX-License-Identifier: MIT
#include "application/timeline/timelinerecording.h"

#include "application/transcript/transcriptpagesource.h"

namespace Sonde {

TimelineRecording TimelineRecording::read(const TranscriptPageSource &source, int maxEvents)
{
    constexpr int Page = 2000;
    TimelineRecording r;
    r.total = source.count();
    const qint64 wanted = qMin<qint64>(r.total, maxEvents);
    r.events.reserve(wanted);
    while (r.events.size() < wanted) {
        const TranscriptBatch page =
            source.page(r.events.size(), int(qMin<qint64>(Page, wanted - r.events.size())));
        if (page.isEmpty())
            break; // fewer than counted (a retention pass in between): what there is
        r.events.append(page);
    }
    return r;
}

} // namespace Sonde
