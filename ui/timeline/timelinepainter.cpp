// SPDX-License-Identifier: MIT
#include "timeline/timelinepainter.h"

#include <QDateTime>
#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>

#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

using Outcome = TimelineLayout::Outcome;
using MarkerKind = TimelineLayout::MarkerKind;

constexpr int LaneHeight = TimelineGeometry::LaneHeight;
constexpr int MarkerStrip = TimelineGeometry::MarkerStrip;
constexpr int TrackHeight = TimelineGeometry::TrackHeight;
constexpr int GlyphSize = TimelineGeometry::GlyphSize;
constexpr int MinTickPx = 90;
// How wide a notable call (TimelineLayout::isNotable) is drawn at least, whatever the zoom.
constexpr double NotableMinWidth = 6;

QColor mix(const QColor &a, const QColor &b, double f)
{
    return QColor::fromRgbF(float(a.redF() * (1 - f) + b.redF() * f),
                            float(a.greenF() * (1 - f) + b.greenF() * f),
                            float(a.blueF() * (1 - f) + b.blueF() * f));
}

// Tick steps that read well on a clock: 1-2-5 below a second, then seconds, minutes, hours.
qint64 tickStep(double msPerPx)
{
    static const qint64 steps[] = {
        1,         2,         5,          10,         20,         50,        100,
        200,       500,       1'000,      2'000,      5'000,      10'000,    15'000,
        30'000,    60'000,    120'000,    300'000,    600'000,    900'000,   1'800'000,
        3'600'000, 7'200'000, 10'800'000, 21'600'000, 43'200'000, 86'400'000};
    for (qint64 s : steps) {
        if (double(s) / msPerPx >= MinTickPx)
            return s;
    }
    const qint64 day = 86'400'000;
    return day * qint64(std::ceil(MinTickPx * msPerPx / double(day)));
}

} // namespace

// The glyph of a marker kind: reconnects are triangles, the breaker a square, faults a
// diamond, classifications a circle, warnings an inverted triangle; colour tells the rest.
void TimelinePainter::drawGlyph(QPainter &p, MarkerKind kind, QPointF c, double size)
{
    const double r = size / 2.0;
    QPainterPath path;
    switch (kind) {
    case MarkerKind::ReconnectOk:
    case MarkerKind::ReconnectFailed:
        path.moveTo(c.x(), c.y() - r);
        path.lineTo(c.x() + r, c.y() + r);
        path.lineTo(c.x() - r, c.y() + r);
        path.closeSubpath();
        break;
    case MarkerKind::BreakerOpen:
    case MarkerKind::BreakerHalfOpen:
    case MarkerKind::BreakerClosed:
        path.addRect(QRectF(c.x() - r + 0.5, c.y() - r + 0.5, 2 * r - 1, 2 * r - 1));
        break;
    case MarkerKind::Fault:
        path.moveTo(c.x(), c.y() - r);
        path.lineTo(c.x() + r, c.y());
        path.lineTo(c.x(), c.y() + r);
        path.lineTo(c.x() - r, c.y());
        path.closeSubpath();
        break;
    case MarkerKind::Classification:
    case MarkerKind::ClassificationExpired:
    case MarkerKind::BreakerRefused:
    case MarkerKind::InputRequired:
        path.addEllipse(c, r - 0.5, r - 0.5);
        break;
    case MarkerKind::Warning:
        path.moveTo(c.x() - r, c.y() - r);
        path.lineTo(c.x() + r, c.y() - r);
        path.lineTo(c.x(), c.y() + r);
        path.closeSubpath();
        break;
    }
    const QColor color = TimelineLayout::markerColor(kind);
    p.setPen(QPen(color.darker(140), 1));
    p.setBrush(color);
    p.drawPath(path);
    if (kind == MarkerKind::BreakerRefused) {
        // A no-entry sign: the call was stopped before it went out.
        p.setPen(QPen(Qt::white, qMax(1.5, size / 5)));
        p.drawLine(QPointF(c.x() - r / 2, c.y()), QPointF(c.x() + r / 2, c.y()));
    }
    if (kind == MarkerKind::InputRequired) {
        // A hand-over: the call waits for an answer from this side.
        p.setPen(QPen(Qt::white, qMax(1.5, size / 5)));
        p.drawLine(QPointF(c.x(), c.y() - r / 2), QPointF(c.x(), c.y() + r / 2));
    }
}

void TimelinePainter::drawBar(QPainter &p, const QRectF &r, Outcome outcome)
{
    const QColor color = TimelineLayout::outcomeColor(outcome);
    switch (outcome) {
    case Outcome::Open: {
        // Still waiting: fading towards now, with a solid head where it started.
        QLinearGradient g(r.topLeft(), r.topRight());
        QColor faded = color;
        faded.setAlphaF(0.25f);
        g.setColorAt(0, color);
        g.setColorAt(1, faded);
        p.fillRect(r, g);
        break;
    }
    case Outcome::Uncertain:
    case Outcome::Unanswered:
    case Outcome::Replayed:
        // No answer was taken: hatched, so it does not read as an answer.
        p.fillRect(r, color.lighter(130));
        p.fillRect(r, QBrush(color.darker(150), Qt::BDiagPattern));
        break;
    default:
        p.fillRect(r, color);
        break;
    }
    if (r.width() >= 6) {
        p.setPen(color.darker(140));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r.adjusted(0, 0, -1, -1));
    }
}

TimelinePainter::TimelinePainter(const TimelineLayout &layout, Frame frame)
    : m_layout(layout), m_f(std::move(frame))
{
}

void TimelinePainter::paint(QPainter &p) const
{
    const TimelineGeometry &g = m_f.geometry;
    const QPalette &pal = m_f.palette;
    const QRect area = QRect(QPoint(0, 0), m_f.viewport);
    p.fillRect(area, pal.base());
    if (m_layout.isEmpty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(
            area, Qt::AlignCenter | Qt::TextWordWrap,
            tr("No traffic yet. Each server gets a lane: its sessions as bands, its calls as bars, "
               "reconnects, breaker changes and faults as marks."));
        return;
    }
    const double fromMs = g.timeAtX(g.labelWidth);
    const double toMs = g.timeAtX(area.width());
    // One pixel of slack on each side so bars that end at the edge are not cut off early.
    const qint64 from = qint64(std::floor(fromMs - g.msPerPx));
    const qint64 to = qint64(std::ceil(toMs + g.msPerPx));
    const int firstLane = qMax(0, g.scrollY / LaneHeight);
    const int lastLane =
        qMin(m_layout.laneCount() - 1, (g.scrollY + area.height() - g.axisHeight) / LaneHeight);

    p.save();
    p.setClipRect(QRect(g.labelWidth, g.axisHeight, area.width() - g.labelWidth,
                        area.height() - g.axisHeight));
    for (int lane = firstLane; lane <= lastLane; ++lane)
        paintLaneBackground(p, lane, from, to);

    // Grid lines at the axis ticks, under the bars.
    const qint64 step = tickStep(g.msPerPx);
    const qint64 offset = qint64(QDateTime::currentDateTime().offsetFromUtc()) * 1000;
    QColor grid = pal.color(QPalette::Text);
    grid.setAlphaF(0.08f);
    p.setPen(grid);
    for (qint64 t = qint64(std::ceil((fromMs + double(offset)) / double(step))) * step - offset;
         double(t) <= toMs; t += step)
        p.drawLine(QPointF(g.xForTime(double(t)), g.axisHeight),
                   QPointF(g.xForTime(double(t)), area.height()));

    for (int lane = firstLane; lane <= lastLane; ++lane)
        paintLaneItems(p, lane, from, to);

    if (m_f.hoverRow >= 0 && m_f.hoverRow != m_f.currentRow)
        paintOutline(p, m_f.hoverRow, pal.color(QPalette::Text));
    if (m_f.currentRow >= 0)
        paintOutline(p, m_f.currentRow, pal.color(QPalette::Highlight));

    // "Now", where the open calls and the current generations end.
    if (m_f.live && double(m_f.now) >= fromMs && double(m_f.now) <= toMs) {
        QPen pen(pal.color(QPalette::Highlight), 1, Qt::DashLine);
        p.setPen(pen);
        const double x = g.xForTime(double(m_f.now));
        p.drawLine(QPointF(x, g.axisHeight), QPointF(x, area.height()));
    }
    p.restore();

    paintAxis(p, fromMs, toMs);
    paintLabels(p);
}

void TimelinePainter::paintLaneBackground(QPainter &p, int lane, qint64 from, qint64 to) const
{
    const TimelineGeometry &g = m_f.geometry;
    const QPalette &pal = m_f.palette;
    const int top = g.laneTop(lane);
    const int width = m_f.viewport.width();
    p.fillRect(QRect(g.labelWidth, top, width - g.labelWidth, LaneHeight),
               lane % 2 ? pal.alternateBase() : pal.base());

    // Generations alternate between two tints, so a reconnect reads as a change of shade.
    const QColor base = pal.color(QPalette::Base);
    const QColor tint = pal.color(QPalette::Highlight);
    const QColor shades[2] = {mix(base, tint, 0.10), mix(base, tint, 0.20)};
    QFont small = m_f.font;
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    const QFontMetrics fm(small);
    m_layout.forEachBand(lane, from, to, m_f.now, [&](int, const TimelineLayout::Band &b) {
        const double x0 = qMax<double>(g.labelWidth - 1, g.xForTime(double(b.startMs)));
        const double x1 =
            qMin<double>(width + 1, g.xForTime(double(TimelineLayout::bandEndMs(b, m_f.now))));
        if (x1 <= x0)
            return;
        const QRectF r(x0, top + 1, x1 - x0, LaneHeight - 2);
        p.fillRect(r, shades[b.generation % 2]);
        p.setPen(mix(base, tint, 0.55));
        if (g.xForTime(double(b.startMs)) >= g.labelWidth)
            p.drawLine(QPointF(x0, top + 1), QPointF(x0, top + LaneHeight - 1));
        const QString label = u"gen "_s + QString::number(b.generation);
        // The number stays readable while the band's start is scrolled off to the left.
        if (r.width() > fm.horizontalAdvance(label) + 8) {
            p.setPen(pal.color(QPalette::PlaceholderText));
            p.drawText(QPointF(x0 + 4, top + LaneHeight - 3), label);
        }
    });
    p.setFont(m_f.font);
}

void TimelinePainter::paintLaneItems(QPainter &p, int lane, qint64 from, qint64 to) const
{
    const TimelineGeometry &g = m_f.geometry;
    const int top = g.laneTop(lane);
    const double left = g.labelWidth - 2;
    const double right = m_f.viewport.width() + 2;

    // Bars narrower than 3 px are merged with their neighbours of the same outcome on the same
    // track, so 100k calls zoomed out cost one fillRect per pixel column at most.
    struct Pending
    {
        double x0 = 0, x1 = -1;
        Outcome outcome = Outcome::Ok;
    };
    Pending pending[TimelineLayout::MaxTracks];
    QList<std::pair<QRectF, int>> replays;     // the bar sent again, the row it was sent as
    QList<std::pair<QRectF, Outcome>> notable; // short calls that must stay visible
    QList<std::pair<QRectF, bool>> streams;    // listen streams; true: open or ended well
    // A leg of a multi round-trip call: where its bar ends, the next leg's row, the call's
    // outcome.
    struct Join
    {
        QPointF from;
        int nextRow = -1;
        Outcome outcome = Outcome::Ok;
    };
    QList<Join> joins;
    const auto flush = [&](int track) {
        Pending &pd = pending[track];
        if (pd.x1 < pd.x0)
            return;
        p.fillRect(QRectF(pd.x0, top + TimelineGeometry::trackTop(track), qMax(1.0, pd.x1 - pd.x0),
                          TrackHeight),
                   TimelineLayout::outcomeColor(pd.outcome));
        pd.x1 = pd.x0 - 1;
    };
    p.setRenderHint(QPainter::Antialiasing, false);
    m_layout.forEachSpan(lane, from, to, m_f.now, [&](int index, const TimelineLayout::Span &s) {
        if (s.track == TimelineLayout::StreamTrack) {
            // The session's listen stream: a line along the lane's foot, live while open.
            const double sx0 = qMax(left, g.xForTime(double(s.startMs)));
            const double sx1 =
                qMin(right, g.xForTime(double(TimelineLayout::spanEndMs(s, m_f.now))));
            if (sx1 > sx0)
                streams.append({QRectF(sx0, top + TimelineGeometry::streamTop(), sx1 - sx0,
                                       TimelineGeometry::StreamHeight),
                                s.outcome == Outcome::Open || s.outcome == Outcome::Ok});
            return;
        }
        const double x0 = qMax(left, g.xForTime(double(s.startMs)));
        const double x1 =
            qMin(right, qMax(g.xForTime(double(s.startMs)) + 3,
                             g.xForTime(double(TimelineLayout::spanEndMs(s, m_f.now)))));
        if (x1 <= x0)
            return;
        // Every leg of a multi round-trip call shows the call's outcome: its last leg's.
        const Outcome outcome = s.nextLegRow >= 0 ? m_layout.callOutcome(lane, index) : s.outcome;
        // The calls that matter after a fault are the short ones next to its reconnect marker
        // (an 8 ms "outcome uncertain"): each keeps a mark of its own, drawn over the markers.
        if (x1 - x0 < NotableMinWidth && TimelineLayout::isNotable(outcome))
            notable.append(
                {QRectF(g.xForTime(double(s.startMs)) - 1,
                        top + TimelineGeometry::trackTop(s.track), NotableMinWidth, TrackHeight),
                 outcome});
        if (s.nextLegRow >= 0)
            joins.append(
                {QPointF(x1, top + TimelineGeometry::trackTop(s.track) + TrackHeight / 2.0),
                 s.nextLegRow, outcome});
        Pending &pd = pending[s.track];
        if (x1 - x0 < 3 && s.outcome != Outcome::Open) {
            if (pd.x1 >= pd.x0 && pd.outcome == outcome && x0 <= pd.x1 + 1) {
                pd.x1 = qMax(pd.x1, x1);
                return;
            }
            flush(s.track);
            pd = {x0, x1, outcome};
            return;
        }
        flush(s.track);
        const QRectF r(x0, top + TimelineGeometry::trackTop(s.track), x1 - x0, TrackHeight);
        drawBar(p, r, outcome);
        if (s.outcome == Outcome::Replayed && s.replayRow >= 0)
            replays.append({r, s.replayRow});
    });
    for (int k = 0; k < TimelineLayout::MaxTracks; ++k)
        flush(k);
    for (const auto &[r, well] : std::as_const(streams)) {
        if (well) {
            p.fillRect(r, QColor(0x00, 0x89, 0x7b));
        } else { // broken: dashed, in the colour of an answer that never came
            p.setPen(QPen(TimelineLayout::outcomeColor(Outcome::Unanswered), r.height(),
                          Qt::DashLine, Qt::FlatCap));
            p.drawLine(QPointF(r.left(), r.center().y()), QPointF(r.right(), r.center().y()));
        }
    }
    // A call sent again: a dashed link from where the original ended to the new request.
    for (const auto &[original, row] : std::as_const(replays)) {
        const QRect again = m_f.geometry.itemRect(m_layout, row, m_f.now);
        if (again.isEmpty())
            continue;
        p.setPen(QPen(TimelineLayout::outcomeColor(Outcome::Replayed), 1, Qt::DashLine));
        p.drawLine(QPointF(original.right(), original.center().y()),
                   QPointF(again.left(), again.center().y()));
    }

    // The legs of one call: a solid link (the same call, not a new one as a replay is), as
    // thick as a third of the bar, while the user answers what the server asked for.
    for (const Join &j : std::as_const(joins)) {
        const QRect next = m_f.geometry.itemRect(m_layout, j.nextRow, m_f.now);
        if (next.isEmpty())
            continue;
        p.setPen(QPen(TimelineLayout::outcomeColor(j.outcome), qMax(2, TrackHeight / 3),
                      Qt::SolidLine, Qt::FlatCap));
        p.drawLine(j.from, QPointF(next.left(), j.from.y()));
    }

    // Markers: a tick down the lane and a glyph in the top strip; one per kind and pixel.
    p.setRenderHint(QPainter::Antialiasing, true);
    const qint64 slack = std::llround(GlyphSize * g.msPerPx);
    int lastX = std::numeric_limits<int>::min();
    MarkerKind lastKind = MarkerKind::Warning;
    m_layout.forEachMarker(
        lane, from - slack, to + slack, [&](int, const TimelineLayout::Marker &m) {
            const double x = g.xForTime(double(m.timeMs));
            const int ix = int(std::lround(x));
            if (ix == lastX && m.kind == lastKind)
                return;
            lastX = ix;
            lastKind = m.kind;
            const QColor color = TimelineLayout::markerColor(m.kind);
            QColor line = color;
            line.setAlphaF(0.7f);
            p.setPen(QPen(line, 1));
            p.drawLine(QPointF(x, top + MarkerStrip), QPointF(x, top + LaneHeight - 2));
            if (m.durationMs > 0 && m.durationMs / g.msPerPx > 4) {
                // How long the reconnect took: a bracket back to when the attempt started.
                const double x0 = g.xForTime(double(m.timeMs - m.durationMs));
                const double y = top + 2 + GlyphSize / 2.0;
                p.drawLine(QPointF(x0, y), QPointF(x, y));
                p.drawLine(QPointF(x0, y - 3), QPointF(x0, y + 3));
            }
            drawGlyph(p, m.kind, QPointF(x, top + 2 + GlyphSize / 2.0), GlyphSize);
        });
    p.setRenderHint(QPainter::Antialiasing, false);
    for (const auto &[r, outcome] : std::as_const(notable)) {
        p.fillRect(r, TimelineLayout::outcomeColor(outcome));
        p.setPen(QPen(m_f.palette.color(QPalette::Base), 1));
        p.setBrush(Qt::NoBrush); // the glyphs left theirs: an outline only
        p.drawRect(r.adjusted(0, 0, -1, -1));
    }
}

void TimelinePainter::paintOutline(QPainter &p, int storeRow, const QColor &color) const
{
    const QRect r = m_f.geometry.itemRect(m_layout, storeRow, m_f.now);
    if (r.isEmpty())
        return;
    p.setPen(QPen(color, 2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r.adjusted(-2, -2, 1, 1));
}

void TimelinePainter::paintAxis(QPainter &p, double fromMs, double toMs) const
{
    const TimelineGeometry &g = m_f.geometry;
    const QPalette &pal = m_f.palette;
    const int height = g.axisHeight;
    const int width = m_f.viewport.width();
    p.fillRect(QRect(0, 0, width, height), pal.window());
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, height - 1, width, height - 1);
    const qint64 step = tickStep(g.msPerPx);
    const QString format = step < 1'000        ? u"hh:mm:ss.zzz"_s
                           : step < 60'000     ? u"hh:mm:ss"_s
                           : step < 86'400'000 ? u"hh:mm"_s
                                               : u"MMM d"_s;
    // Ticks fall on round local times, not round UTC ones.
    const qint64 offset = qint64(QDateTime::currentDateTime().offsetFromUtc()) * 1000;
    p.save();
    p.setClipRect(QRect(g.labelWidth, 0, width - g.labelWidth, height));
    p.setPen(pal.color(QPalette::WindowText));
    for (qint64 t = qint64(std::ceil((fromMs + double(offset)) / double(step))) * step - offset;
         double(t) <= toMs; t += step) {
        const double x = g.xForTime(double(t));
        p.drawLine(QPointF(x, height - 5), QPointF(x, height - 1));
        p.drawText(QPointF(x + 3, height - 6), QDateTime::fromMSecsSinceEpoch(t).toString(format));
    }
    p.restore();
}

void TimelinePainter::paintLabels(QPainter &p) const
{
    const TimelineGeometry &g = m_f.geometry;
    const QPalette &pal = m_f.palette;
    const int height = m_f.viewport.height();
    p.fillRect(QRect(0, g.axisHeight, g.labelWidth, height - g.axisHeight), pal.window());
    p.save();
    p.setClipRect(QRect(0, g.axisHeight, g.labelWidth, height - g.axisHeight));
    const QFontMetrics fm = QFontMetrics(m_f.font);
    QFont small = m_f.font;
    small.setPointSizeF(small.pointSizeF() * 0.85);
    for (int lane = 0; lane < m_layout.laneCount(); ++lane) {
        const int top = g.laneTop(lane);
        if (top + LaneHeight < g.axisHeight || top > height)
            continue;
        p.setFont(m_f.font);
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRect(6, top + 3, g.labelWidth - 10, fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(m_layout.laneName(lane), Qt::ElideRight, g.labelWidth - 10));
        const auto &bands = m_layout.bands(lane);
        if (!bands.isEmpty()) {
            p.setFont(small);
            p.setPen(pal.color(QPalette::PlaceholderText));
            const auto &b = bands.last();
            p.drawText(QRect(6, top + 3 + fm.height(), g.labelWidth - 10, fm.height()),
                       Qt::AlignLeft | Qt::AlignVCenter,
                       (b.open ? u"gen "_s : u"ended gen "_s) + QString::number(b.generation));
        }
        p.setPen(pal.color(QPalette::Midlight));
        p.drawLine(0, top + LaneHeight - 1, g.labelWidth, top + LaneHeight - 1);
    }
    p.restore();
    p.setFont(m_f.font);
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(g.labelWidth - 1, 0, g.labelWidth - 1, height);
}

} // namespace Sonde
