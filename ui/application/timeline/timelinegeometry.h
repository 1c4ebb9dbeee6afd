// SPDX-License-Identifier: MIT
#pragma once

#include "application/timeline/timelinelayout.h"

#include <QPoint>
#include <QRect>

namespace Sonde {

// Where things are on a TimelineWidget's viewport: time <-> x, lanes and tracks <-> y, the
// rectangle a store row is drawn in, and what is under a point. The widget makes one for
// each paint and each hit test from its scroll and zoom state; TimelinePainter draws with it.
// A value; GUI thread.
struct TimelineGeometry
{
    // Lane geometry: a strip for the marker glyphs on top, then the request tracks.
    static constexpr int LaneHeight = 40;
    static constexpr int MarkerStrip = 13;
    static constexpr int TrackHeight = 7;
    static constexpr int TrackGap = 2;
    static constexpr int GlyphSize = 9;

    int labelWidth = 100; // the lane names, left of the plot
    int axisHeight = 0;   // the time axis, above the lanes
    int scrollY = 0;      // the vertical scroll bar's value
    double viewStartMs = 0;
    double msPerPx = 100;

    double xForTime(double timeMs) const { return labelWidth + (timeMs - viewStartMs) / msPerPx; }
    double timeAtX(double x) const { return viewStartMs + (x - labelWidth) * msPerPx; }
    int laneTop(int lane) const { return axisHeight + lane * LaneHeight - scrollY; }
    static int trackTop(int track) { return MarkerStrip + 2 + track * (TrackHeight + TrackGap); }
    // The session's listen stream (TimelineLayout::StreamTrack): a line at the lane's foot.
    static constexpr int StreamHeight = 2;
    static int streamTop() { return LaneHeight - StreamHeight - 1; }

    // The bar or glyph under a viewport position (a band when there is none; nothing outside
    // the plot), with "now" ending the open spans and bands.
    TimelineLayout::Hit hitAt(const TimelineLayout &layout, const QPoint &pos, qint64 now) const;
    // Where a store row's bar or glyph is drawn; empty when it has none.
    QRect itemRect(const TimelineLayout &layout, int storeRow, qint64 now) const;
};

} // namespace Sonde
