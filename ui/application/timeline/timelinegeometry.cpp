// SPDX-License-Identifier: MIT
#include "application/timeline/timelinegeometry.h"

#include <QRectF>

#include <cmath>

namespace Sonde {

TimelineLayout::Hit TimelineGeometry::hitAt(const TimelineLayout &layout, const QPoint &pos,
                                            qint64 now) const
{
    if (pos.x() < labelWidth || pos.y() < axisHeight)
        return {};
    const int lane = (pos.y() - axisHeight + scrollY) / LaneHeight;
    if (lane < 0 || lane >= layout.laneCount())
        return {};
    const int y = pos.y() - laneTop(lane);
    const qint64 t = std::llround(timeAtX(pos.x()));
    const qint64 markerTolerance = std::llround((GlyphSize / 2.0 + 1) * msPerPx);
    TimelineLayout::Hit hit;
    hit.lane = lane;
    if (y < MarkerStrip + 2) {
        // The glyph strip: markers only, and the band under them.
        if ((hit.index = layout.markerAt(lane, t, markerTolerance)) >= 0) {
            hit.type = TimelineLayout::HitType::Marker;
            hit.row = layout.markers(lane).at(hit.index).row;
            return hit;
        }
    } else {
        int track = -1;
        for (int k = 0; k < TimelineLayout::MaxTracks; ++k) {
            if (y >= trackTop(k) - 1 && y < trackTop(k) + TrackHeight + 1)
                track = k;
        }
        if (track < 0 && y >= streamTop() - 2 && y < LaneHeight)
            track = TimelineLayout::StreamTrack;
        // Bars are at least 3 px wide on screen, so a call of 0 ms is still a target.
        if (track >= 0 &&
            (hit.index = layout.spanAt(lane, t, std::llround(2 * msPerPx), now, track)) >= 0) {
            hit.type = TimelineLayout::HitType::Span;
            hit.row = layout.spans(lane).at(hit.index).requestRow;
            return hit;
        }
        // The marker's tick line runs down through the tracks.
        if ((hit.index = layout.markerAt(lane, t, std::llround(2 * msPerPx))) >= 0) {
            hit.type = TimelineLayout::HitType::Marker;
            hit.row = layout.markers(lane).at(hit.index).row;
            return hit;
        }
    }
    if ((hit.index = layout.bandAt(lane, t, now)) >= 0) {
        hit.type = TimelineLayout::HitType::Band;
        return hit;
    }
    return {};
}

QRect TimelineGeometry::itemRect(const TimelineLayout &layout, int storeRow, qint64 now) const
{
    const TimelineLayout::Hit hit = layout.find(storeRow);
    const int top = hit.lane >= 0 ? laneTop(hit.lane) : 0;
    switch (hit.type) {
    case TimelineLayout::HitType::Span: {
        const TimelineLayout::Span &s = layout.spans(hit.lane).at(hit.index);
        const double x0 = xForTime(double(s.startMs));
        const double x1 = qMax(x0 + 3, xForTime(double(TimelineLayout::spanEndMs(s, now))));
        if (s.track == TimelineLayout::StreamTrack)
            return QRectF(x0, top + streamTop() - 1, x1 - x0, StreamHeight + 2).toAlignedRect();
        return QRectF(x0, top + trackTop(s.track), x1 - x0, TrackHeight).toAlignedRect();
    }
    case TimelineLayout::HitType::Marker: {
        const double x = xForTime(double(layout.markers(hit.lane).at(hit.index).timeMs));
        return QRectF(x - GlyphSize / 2.0, top + 2, GlyphSize, GlyphSize).toAlignedRect();
    }
    case TimelineLayout::HitType::Band:
    case TimelineLayout::HitType::None:
        break;
    }
    return {};
}

} // namespace Sonde
