// SPDX-License-Identifier: MIT
#pragma once

#include "application/timeline/timelinegeometry.h"
#include "application/timeline/timelinelayout.h"

#include <QCoreApplication>
#include <QFont>
#include <QPalette>
#include <QSize>

class QPainter;

namespace Sonde {

class TimelineLayout;

// Paints a TimelineWidget's viewport: each lane with its generation bands, the call bars,
// the marker glyphs, the hovered and current row's outline, "now", the time axis and the lane
// labels, visiting only what is in view. Made for one paint event by the widget, which keeps
// the state (scroll, zoom, hover, selection) and the input; GUI thread.
class TimelinePainter
{
    Q_DECLARE_TR_FUNCTIONS(TimelinePainter)
public:
    struct Frame
    {
        TimelineGeometry geometry;
        QSize viewport;
        QPalette palette;
        QFont font;
        qint64 now = 0;
        bool live = false; // open calls or a connected session: "now" is drawn
        int hoverRow = -1;
        int currentRow = -1;
    };

    TimelinePainter(const TimelineLayout &layout, Frame frame);
    void paint(QPainter &p) const;

    // One call's bar and one marker's glyph, as the lanes draw them (the legend uses them too).
    static void drawBar(QPainter &p, const QRectF &r, TimelineLayout::Outcome outcome);
    static void drawGlyph(QPainter &p, TimelineLayout::MarkerKind kind, QPointF centre,
                          double size);

private:
    void paintLaneBackground(QPainter &p, int lane, qint64 from, qint64 to) const;
    void paintLaneItems(QPainter &p, int lane, qint64 from, qint64 to) const;
    void paintAxis(QPainter &p, double fromMs, double toMs) const;
    void paintLabels(QPainter &p) const;
    void paintOutline(QPainter &p, int storeRow, const QColor &color) const;

    const TimelineLayout &m_layout;
    Frame m_f;
};

} // namespace Sonde
