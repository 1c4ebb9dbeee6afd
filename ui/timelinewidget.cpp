// SPDX-License-Identifier: MIT
#include "timelinewidget.h"

#include "transcriptstore.h"

#include <QApplication>
#include <QDateTime>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

using Outcome = TimelineLayout::Outcome;
using MarkerKind = TimelineLayout::MarkerKind;

// Lane geometry: a strip for the marker glyphs on top, then the request tracks.
constexpr int LaneHeight = 40;
constexpr int MarkerStrip = 13;
constexpr int TrackHeight = 7;
constexpr int TrackGap = 2;
constexpr int GlyphSize = 9;
constexpr int MinLabelWidth = 70;
constexpr int MaxLabelWidth = 180;
// When following, the latest time sits this far (of the view's width) from the right edge.
constexpr double FollowMargin = 0.05;
constexpr double MinMsPerPx = 0.01;                    // 100 px per millisecond
constexpr double MaxMsPerPx = 30.0 * 86'400'000 / 400; // a month across a small window
constexpr double ZoomStep = 1.5;
constexpr int MinTickPx = 90;

QColor mix(const QColor &a, const QColor &b, double f)
{
    return QColor::fromRgbF(float(a.redF() * (1 - f) + b.redF() * f),
                            float(a.greenF() * (1 - f) + b.greenF() * f),
                            float(a.blueF() * (1 - f) + b.blueF() * f));
}

int trackTop(int track)
{
    return MarkerStrip + 2 + track * (TrackHeight + TrackGap);
}

// The glyph of a marker kind: reconnects are triangles, the breaker a square, faults a
// diamond, classifications a circle, warnings an inverted triangle; colour tells the rest.
void drawGlyph(QPainter &p, MarkerKind kind, QPointF c)
{
    const double r = GlyphSize / 2.0;
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

TimelineWidget::TimelineWidget(QWidget *parent)
    : QAbstractScrollArea(parent), m_layout(new TimelineLayout(this)),
      m_now([] { return QDateTime::currentMSecsSinceEpoch(); }), m_tick(new QTimer(this))
{
    setFocusPolicy(Qt::StrongFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    setToolTip(tr("Wheel: zoom · drag, arrows: pan · End: follow · 0: fit all"));
    connect(m_layout, &TimelineLayout::changed, this, &TimelineWidget::onLayoutChanged);
    connect(m_layout, &TimelineLayout::lanesChanged, this, &TimelineWidget::onLanesChanged);
    connect(m_tick, &QTimer::timeout, this, &TimelineWidget::onTick);
    onLanesChanged();
}

TimelineWidget::~TimelineWidget() = default;

void TimelineWidget::setStore(TranscriptStore *store)
{
    if (m_store == store)
        return;
    if (m_store)
        disconnect(m_store, nullptr, this, nullptr);
    m_store = store;
    m_currentRow = m_hoverRow = -1;
    // The layout connects first, so it has caught up by the time the widget hears of a drop.
    m_layout->setStore(store);
    if (m_store) {
        connect(m_store, &TranscriptStore::rowsDropped, this, &TimelineWidget::onRowsDropped);
        connect(m_store, &TranscriptStore::reset, this, [this] { m_currentRow = m_hoverRow = -1; });
    }
    setFollowing(true);
    onLayoutChanged();
}

TranscriptStore *TimelineWidget::store() const
{
    return m_store;
}

void TimelineWidget::setNowFunction(std::function<qint64()> now)
{
    m_now = now ? std::move(now)
                : std::function<qint64()>([] { return QDateTime::currentMSecsSinceEpoch(); });
    onLayoutChanged();
}

qint64 TimelineWidget::nowMs() const
{
    return m_now();
}

qint64 TimelineWidget::visibleStartMs() const
{
    return qint64(std::floor(m_viewStartMs));
}

qint64 TimelineWidget::visibleEndMs() const
{
    return qint64(std::ceil(m_viewStartMs + visibleSpanMs()));
}

double TimelineWidget::visibleSpanMs() const
{
    return plotWidth() * m_msPerPx;
}

void TimelineWidget::setVisibleRange(qint64 startMs, qint64 endMs)
{
    if (endMs <= startMs)
        return;
    m_msPerPx = std::clamp(double(endMs - startMs) / plotWidth(), MinMsPerPx, MaxMsPerPx);
    setViewStart(double(startMs));
}

// --- geometry ---------------------------------------------------------------------------

int TimelineWidget::plotWidth() const
{
    return qMax(1, viewport()->width() - m_labelWidth);
}

int TimelineWidget::axisHeight() const
{
    return fontMetrics().height() + 10;
}

int TimelineWidget::laneTop(int lane) const
{
    return axisHeight() + lane * LaneHeight - verticalScrollBar()->value();
}

double TimelineWidget::xForTime(double timeMs) const
{
    return m_labelWidth + (timeMs - m_viewStartMs) / m_msPerPx;
}

double TimelineWidget::timeAtX(double x) const
{
    return m_viewStartMs + (x - m_labelWidth) * m_msPerPx;
}

bool TimelineWidget::isLive() const
{
    if (m_layout->hasOpenSpans())
        return true;
    for (int lane = 0; lane < m_layout->laneCount(); ++lane) {
        const auto &bands = m_layout->bands(lane);
        if (!bands.isEmpty() && bands.last().open)
            return true;
    }
    return false;
}

qint64 TimelineWidget::liveEndMs() const
{
    // A connected session or a waiting call goes on until now; otherwise the data ends with
    // its last event (a finished transcript does not stretch to today).
    const qint64 last = m_layout->lastTimeMs();
    return isLive() ? qMax(last, nowMs()) : last;
}

double TimelineWidget::maxViewStart() const
{
    return double(liveEndMs()) - visibleSpanMs() * (1.0 - FollowMargin);
}

double TimelineWidget::minViewStart() const
{
    return qMin(double(m_layout->firstTimeMs()) - visibleSpanMs() * FollowMargin, maxViewStart());
}

// --- view changes -----------------------------------------------------------------------

void TimelineWidget::setFollowing(bool following)
{
    if (!following)
        m_fitPending = false;
    if (m_following == following)
        return;
    m_following = following;
    Q_EMIT followingChanged(following);
}

void TimelineWidget::applyFollow()
{
    if (!m_layout->isEmpty())
        m_viewStartMs = maxViewStart();
}

void TimelineWidget::setViewStart(double startMs)
{
    if (!m_layout->isEmpty()) {
        const double maxStart = maxViewStart();
        startMs = std::clamp(startMs, minViewStart(), maxStart);
        // Half a pixel short of the end still counts as being at the end.
        setFollowing(startMs >= maxStart - m_msPerPx / 2);
    }
    m_viewStartMs = startMs;
    if (m_following)
        applyFollow();
    syncScrollBars();
    viewport()->update();
}

void TimelineWidget::zoomBy(double factor, double anchorX)
{
    const double anchorTime = timeAtX(anchorX);
    const double before = m_msPerPx;
    m_msPerPx = std::clamp(m_msPerPx * factor, MinMsPerPx, MaxMsPerPx);
    if (m_msPerPx == before)
        return;
    if (m_following) {
        // Zooming keeps the latest time in view rather than what is under the cursor.
        applyFollow();
        syncScrollBars();
        viewport()->update();
        return;
    }
    setViewStart(anchorTime - (anchorX - m_labelWidth) * m_msPerPx);
}

void TimelineWidget::panBy(double pixels)
{
    setViewStart(m_viewStartMs + pixels * m_msPerPx);
}

void TimelineWidget::zoomIn()
{
    zoomBy(1.0 / ZoomStep, m_labelWidth + plotWidth() / 2.0);
}

void TimelineWidget::zoomOut()
{
    zoomBy(ZoomStep, m_labelWidth + plotWidth() / 2.0);
}

void TimelineWidget::fitAll()
{
    if (m_layout->isEmpty())
        return;
    const double span = qMax<double>(1.0, double(liveEndMs() - m_layout->firstTimeMs()));
    // The data plus both margins fills the width exactly.
    m_msPerPx = std::clamp(span / (1.0 - 2 * FollowMargin) / plotWidth(), MinMsPerPx, MaxMsPerPx);
    m_fitPending = !isVisible();
    setFollowing(true);
    applyFollow();
    syncScrollBars();
    viewport()->update();
}

void TimelineWidget::followLatest()
{
    setFollowing(true);
    applyFollow();
    syncScrollBars();
    viewport()->update();
}

void TimelineWidget::setCurrentRow(int storeRow)
{
    if (m_currentRow == storeRow)
        return;
    m_currentRow = storeRow;
    viewport()->update();
}

void TimelineWidget::revealRow(int storeRow)
{
    setCurrentRow(storeRow);
    const TimelineLayout::Hit hit = m_layout->find(storeRow);
    if (hit.type == TimelineLayout::HitType::None)
        return;
    const qint64 t = hit.type == TimelineLayout::HitType::Span
                         ? m_layout->spans(hit.lane).at(hit.index).startMs
                         : m_layout->markers(hit.lane).at(hit.index).timeMs;
    const int top = hit.lane * LaneHeight;
    QScrollBar *v = verticalScrollBar();
    if (top < v->value() || top + LaneHeight > v->value() + viewport()->height() - axisHeight())
        v->setValue(top);
    if (double(t) < m_viewStartMs || double(t) > m_viewStartMs + visibleSpanMs()) {
        setFollowing(false);
        setViewStart(double(t) - visibleSpanMs() / 3);
    }
}

void TimelineWidget::syncScrollBars()
{
    m_syncingScrollBars = true;
    QScrollBar *h = horizontalScrollBar();
    const double minStart = minViewStart();
    const double range = qMax(0.0, maxViewStart() - minStart);
    // Scroll bar values are ints: count in pixels while that fits, in coarser units beyond.
    m_scrollOriginMs = minStart;
    m_scrollUnitMs = qMax(m_msPerPx, range / 1'000'000.0);
    if (m_layout->isEmpty()) {
        h->setRange(0, 0);
    } else {
        h->setRange(0, int(std::llround(range / m_scrollUnitMs)));
        h->setPageStep(qMax(1, int(std::llround(visibleSpanMs() / m_scrollUnitMs))));
        h->setSingleStep(qMax(1, h->pageStep() / 10));
        h->setValue(int(std::llround((m_viewStartMs - minStart) / m_scrollUnitMs)));
    }
    QScrollBar *v = verticalScrollBar();
    const int lanesHeight = m_layout->laneCount() * LaneHeight;
    const int room = qMax(0, viewport()->height() - axisHeight());
    v->setRange(0, qMax(0, lanesHeight - room));
    v->setPageStep(qMax(1, room));
    v->setSingleStep(LaneHeight);
    m_syncingScrollBars = false;
}

void TimelineWidget::scrollContentsBy(int dx, int)
{
    // Both bars only say where the view is; everything is painted from that.
    if (!m_syncingScrollBars && dx != 0) {
        const double start = m_scrollOriginMs + horizontalScrollBar()->value() * m_scrollUnitMs;
        setViewStart(start);
    }
    viewport()->update();
}

// --- store and layout -------------------------------------------------------------------

void TimelineWidget::onLayoutChanged()
{
    if (m_following)
        applyFollow();
    else if (!m_layout->isEmpty())
        m_viewStartMs = std::clamp(m_viewStartMs, minViewStart(), maxViewStart());
    syncScrollBars();
    viewport()->update();
}

void TimelineWidget::onLanesChanged()
{
    const QFontMetrics fm = fontMetrics();
    int widest = fm.horizontalAdvance(u"gen 000"_s);
    for (int lane = 0; lane < m_layout->laneCount(); ++lane)
        widest = qMax(widest, fm.horizontalAdvance(m_layout->laneName(lane)));
    m_labelWidth = std::clamp(widest + 16, MinLabelWidth, MaxLabelWidth);
    updateGeometry();
}

void TimelineWidget::onRowsDropped(int count)
{
    const auto shift = [count](int row) { return row >= count ? row - count : -1; };
    m_currentRow = shift(m_currentRow);
    m_hoverRow = shift(m_hoverRow);
}

void TimelineWidget::onTick()
{
    // Open calls and the current generation grow with the clock even when nothing arrives.
    if (!isLive())
        return;
    if (m_following) {
        applyFollow();
        syncScrollBars();
    }
    viewport()->update();
    // About two pixels per tick: smooth when zoomed in, rare when zoomed out.
    m_tick->setInterval(int(std::clamp(m_msPerPx * 2, 50.0, 1000.0)));
}

// --- hit testing ------------------------------------------------------------------------

TimelineLayout::Hit TimelineWidget::hitAt(const QPoint &pos) const
{
    if (pos.x() < m_labelWidth || pos.y() < axisHeight())
        return {};
    const int lane = (pos.y() - axisHeight() + verticalScrollBar()->value()) / LaneHeight;
    if (lane < 0 || lane >= m_layout->laneCount())
        return {};
    const int y = pos.y() - laneTop(lane);
    const qint64 t = std::llround(timeAtX(pos.x()));
    const qint64 now = nowMs();
    const qint64 markerTolerance = std::llround((GlyphSize / 2.0 + 1) * m_msPerPx);
    TimelineLayout::Hit hit;
    hit.lane = lane;
    if (y < MarkerStrip + 2) {
        // The glyph strip: markers only, and the band under them.
        if ((hit.index = m_layout->markerAt(lane, t, markerTolerance)) >= 0) {
            hit.type = TimelineLayout::HitType::Marker;
            hit.row = m_layout->markers(lane).at(hit.index).row;
            return hit;
        }
    } else {
        int track = -1;
        for (int k = 0; k < TimelineLayout::MaxTracks; ++k) {
            if (y >= trackTop(k) - 1 && y < trackTop(k) + TrackHeight + 1)
                track = k;
        }
        // Bars are at least 3 px wide on screen, so a call of 0 ms is still a target.
        if (track >= 0 &&
            (hit.index = m_layout->spanAt(lane, t, std::llround(2 * m_msPerPx), now, track)) >= 0) {
            hit.type = TimelineLayout::HitType::Span;
            hit.row = m_layout->spans(lane).at(hit.index).requestRow;
            return hit;
        }
        // The marker's tick line runs down through the tracks.
        if ((hit.index = m_layout->markerAt(lane, t, std::llround(2 * m_msPerPx))) >= 0) {
            hit.type = TimelineLayout::HitType::Marker;
            hit.row = m_layout->markers(lane).at(hit.index).row;
            return hit;
        }
    }
    if ((hit.index = m_layout->bandAt(lane, t, now)) >= 0) {
        hit.type = TimelineLayout::HitType::Band;
        return hit;
    }
    return {};
}

int TimelineWidget::rowAt(const QPoint &viewportPos) const
{
    return hitAt(viewportPos).row;
}

QString TimelineWidget::toolTipAt(const QPoint &viewportPos) const
{
    return m_layout->describe(hitAt(viewportPos), nowMs());
}

QRect TimelineWidget::itemRect(int storeRow) const
{
    const TimelineLayout::Hit hit = m_layout->find(storeRow);
    const int top = hit.lane >= 0 ? laneTop(hit.lane) : 0;
    switch (hit.type) {
    case TimelineLayout::HitType::Span: {
        const TimelineLayout::Span &s = m_layout->spans(hit.lane).at(hit.index);
        const double x0 = xForTime(double(s.startMs));
        const double x1 = qMax(x0 + 3, xForTime(double(TimelineLayout::spanEndMs(s, nowMs()))));
        return QRectF(x0, top + trackTop(s.track), x1 - x0, TrackHeight).toAlignedRect();
    }
    case TimelineLayout::HitType::Marker: {
        const double x = xForTime(double(m_layout->markers(hit.lane).at(hit.index).timeMs));
        return QRectF(x - GlyphSize / 2.0, top + 2, GlyphSize, GlyphSize).toAlignedRect();
    }
    case TimelineLayout::HitType::Band:
    case TimelineLayout::HitType::None:
        break;
    }
    return {};
}

// --- input ------------------------------------------------------------------------------

void TimelineWidget::wheelEvent(QWheelEvent *event)
{
    const QPoint delta = event->angleDelta();
    const bool pan = event->modifiers() & Qt::ShiftModifier;
    if (delta.x() != 0 || (pan && delta.y() != 0)) {
        // Horizontal wheels and touchpads, or Shift+wheel: pan, 60 px per notch.
        panBy(-(delta.x() != 0 ? delta.x() : delta.y()) / 120.0 * 60.0);
    } else if (delta.y() != 0) {
        // Plain wheel and Ctrl+wheel both zoom: the timeline has no other use for the wheel
        // (lanes scroll with their scroll bar), and 25% per notch around the cursor.
        zoomBy(std::pow(1.25, -delta.y() / 120.0), event->position().x());
    }
    event->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) {
        QAbstractScrollArea::mousePressEvent(event);
        return;
    }
    m_pressed = true;
    m_dragging = false;
    m_pressPos = event->position().toPoint();
    m_pressViewStart = m_viewStartMs;
    m_pressScrollY = verticalScrollBar()->value();
    event->accept();
}

void TimelineWidget::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    if (m_pressed && (event->buttons() & Qt::LeftButton)) {
        if (!m_dragging &&
            (pos - m_pressPos).manhattanLength() >= QApplication::startDragDistance()) {
            m_dragging = true;
            viewport()->setCursor(Qt::ClosedHandCursor);
        }
        if (m_dragging) {
            verticalScrollBar()->setValue(m_pressScrollY - (pos.y() - m_pressPos.y()));
            setViewStart(m_pressViewStart - (pos.x() - m_pressPos.x()) * m_msPerPx);
        }
        event->accept();
        return;
    }
    const int row = rowAt(pos);
    if (row != m_hoverRow) {
        m_hoverRow = row;
        viewport()->setCursor(row >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
        viewport()->update();
    }
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || !m_pressed) {
        QAbstractScrollArea::mouseReleaseEvent(event);
        return;
    }
    const bool wasDrag = m_dragging;
    m_pressed = m_dragging = false;
    viewport()->setCursor(Qt::ArrowCursor);
    if (!wasDrag) {
        const int row = rowAt(event->position().toPoint());
        if (row >= 0) {
            setCurrentRow(row);
            Q_EMIT activated(row);
        }
    }
    event->accept();
}

void TimelineWidget::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Left:
        panBy(-plotWidth() / 10.0);
        break;
    case Qt::Key_Right:
        panBy(plotWidth() / 10.0);
        break;
    case Qt::Key_PageUp:
        panBy(-plotWidth() * 0.9);
        break;
    case Qt::Key_PageDown:
        panBy(plotWidth() * 0.9);
        break;
    case Qt::Key_Up:
        verticalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepSub);
        break;
    case Qt::Key_Down:
        verticalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepAdd);
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        break;
    case Qt::Key_Minus:
        zoomOut();
        break;
    case Qt::Key_Home:
        setViewStart(minViewStart());
        break;
    case Qt::Key_End:
        followLatest();
        break;
    case Qt::Key_0:
        fitAll();
        break;
    default:
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    event->accept();
}

bool TimelineWidget::viewportEvent(QEvent *event)
{
    switch (event->type()) {
    case QEvent::ToolTip: {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty()) {
            // Over empty space the widget's own tooltip explains the controls.
            QToolTip::showText(help->globalPos(),
                               help->pos().x() < m_labelWidth ? QString() : toolTip(), viewport());
        } else {
            QToolTip::showText(help->globalPos(), text, viewport(), itemRect(rowAt(help->pos())));
        }
        return true;
    }
    case QEvent::Leave:
        if (m_hoverRow >= 0) {
            m_hoverRow = -1;
            viewport()->update();
        }
        break;
    default:
        break;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

void TimelineWidget::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    if (m_fitPending && m_following) {
        fitAll();
        m_fitPending = false;
        return;
    }
    onLayoutChanged();
}

void TimelineWidget::showEvent(QShowEvent *event)
{
    QAbstractScrollArea::showEvent(event);
    m_tick->start(200);
}

void TimelineWidget::hideEvent(QHideEvent *event)
{
    m_tick->stop();
    QAbstractScrollArea::hideEvent(event);
}

QSize TimelineWidget::sizeHint() const
{
    const int lanes = qMax(2, m_layout->laneCount());
    return {800, axisHeight() + lanes * LaneHeight + horizontalScrollBar()->sizeHint().height() +
                     2 * frameWidth()};
}

QSize TimelineWidget::minimumSizeHint() const
{
    return {m_labelWidth + 120, axisHeight() + LaneHeight +
                                    horizontalScrollBar()->sizeHint().height() + 2 * frameWidth()};
}

// --- painting ---------------------------------------------------------------------------

void TimelineWidget::paintEvent(QPaintEvent *)
{
    QPainter p(viewport());
    const QPalette &pal = palette();
    const QRect area = viewport()->rect();
    p.fillRect(area, pal.base());
    if (m_layout->isEmpty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(
            area, Qt::AlignCenter | Qt::TextWordWrap,
            tr("No traffic yet. Each server gets a lane: its sessions as bands, its calls as bars, "
               "reconnects, breaker changes and faults as marks."));
        return;
    }
    const qint64 now = nowMs();
    const double fromMs = timeAtX(m_labelWidth);
    const double toMs = timeAtX(area.width());
    // One pixel of slack on each side so bars that end at the edge are not cut off early.
    const qint64 from = qint64(std::floor(fromMs - m_msPerPx));
    const qint64 to = qint64(std::ceil(toMs + m_msPerPx));
    const int firstLane = qMax(0, verticalScrollBar()->value() / LaneHeight);
    const int lastLane =
        qMin(m_layout->laneCount() - 1,
             (verticalScrollBar()->value() + area.height() - axisHeight()) / LaneHeight);

    p.save();
    p.setClipRect(QRect(m_labelWidth, axisHeight(), area.width() - m_labelWidth,
                        area.height() - axisHeight()));
    for (int lane = firstLane; lane <= lastLane; ++lane)
        paintLaneBackground(p, lane, from, to, now);

    // Grid lines at the axis ticks, under the bars.
    const qint64 step = tickStep(m_msPerPx);
    const qint64 offset = qint64(QDateTime::currentDateTime().offsetFromUtc()) * 1000;
    QColor grid = pal.color(QPalette::Text);
    grid.setAlphaF(0.08f);
    p.setPen(grid);
    for (qint64 t = qint64(std::ceil((fromMs + double(offset)) / double(step))) * step - offset;
         double(t) <= toMs; t += step)
        p.drawLine(QPointF(xForTime(double(t)), axisHeight()),
                   QPointF(xForTime(double(t)), area.height()));

    for (int lane = firstLane; lane <= lastLane; ++lane)
        paintLaneItems(p, lane, from, to, now);

    if (m_hoverRow >= 0 && m_hoverRow != m_currentRow)
        paintOutline(p, m_hoverRow, pal.color(QPalette::Text));
    if (m_currentRow >= 0)
        paintOutline(p, m_currentRow, pal.color(QPalette::Highlight));

    // "Now", where the open calls and the current generations end.
    if (isLive() && double(now) >= fromMs && double(now) <= toMs) {
        QPen pen(pal.color(QPalette::Highlight), 1, Qt::DashLine);
        p.setPen(pen);
        const double x = xForTime(double(now));
        p.drawLine(QPointF(x, axisHeight()), QPointF(x, area.height()));
    }
    p.restore();

    paintAxis(p, fromMs, toMs);
    paintLabels(p);
}

void TimelineWidget::paintLaneBackground(QPainter &p, int lane, qint64 from, qint64 to,
                                         qint64 now) const
{
    const QPalette &pal = palette();
    const int top = laneTop(lane);
    const int width = viewport()->width();
    p.fillRect(QRect(m_labelWidth, top, width - m_labelWidth, LaneHeight),
               lane % 2 ? pal.alternateBase() : pal.base());

    // Generations alternate between two tints, so a reconnect reads as a change of shade.
    const QColor base = pal.color(QPalette::Base);
    const QColor tint = pal.color(QPalette::Highlight);
    const QColor shades[2] = {mix(base, tint, 0.10), mix(base, tint, 0.20)};
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    const QFontMetrics fm(small);
    m_layout->forEachBand(lane, from, to, now, [&](int, const TimelineLayout::Band &b) {
        const double x0 = qMax<double>(m_labelWidth - 1, xForTime(double(b.startMs)));
        const double x1 =
            qMin<double>(width + 1, xForTime(double(TimelineLayout::bandEndMs(b, now))));
        if (x1 <= x0)
            return;
        const QRectF r(x0, top + 1, x1 - x0, LaneHeight - 2);
        p.fillRect(r, shades[b.generation % 2]);
        p.setPen(mix(base, tint, 0.55));
        if (xForTime(double(b.startMs)) >= m_labelWidth)
            p.drawLine(QPointF(x0, top + 1), QPointF(x0, top + LaneHeight - 1));
        const QString label = u"gen "_s + QString::number(b.generation);
        // The number stays readable while the band's start is scrolled off to the left.
        if (r.width() > fm.horizontalAdvance(label) + 8) {
            p.setPen(pal.color(QPalette::PlaceholderText));
            p.drawText(QPointF(x0 + 4, top + LaneHeight - 3), label);
        }
    });
    p.setFont(font());
}

void TimelineWidget::paintLaneItems(QPainter &p, int lane, qint64 from, qint64 to, qint64 now) const
{
    const int top = laneTop(lane);
    const double left = m_labelWidth - 2;
    const double right = viewport()->width() + 2;

    // Bars narrower than 3 px are merged with their neighbours of the same outcome on the same
    // track, so 100k calls zoomed out cost one fillRect per pixel column at most.
    struct Pending
    {
        double x0 = 0, x1 = -1;
        Outcome outcome = Outcome::Ok;
    };
    Pending pending[TimelineLayout::MaxTracks];
    const auto flush = [&](int track) {
        Pending &pd = pending[track];
        if (pd.x1 < pd.x0)
            return;
        p.fillRect(QRectF(pd.x0, top + trackTop(track), qMax(1.0, pd.x1 - pd.x0), TrackHeight),
                   TimelineLayout::outcomeColor(pd.outcome));
        pd.x1 = pd.x0 - 1;
    };
    p.setRenderHint(QPainter::Antialiasing, false);
    m_layout->forEachSpan(lane, from, to, now, [&](int, const TimelineLayout::Span &s) {
        const double x0 = qMax(left, xForTime(double(s.startMs)));
        const double x1 = qMin(right, qMax(xForTime(double(s.startMs)) + 3,
                                           xForTime(double(TimelineLayout::spanEndMs(s, now)))));
        if (x1 <= x0)
            return;
        Pending &pd = pending[s.track];
        if (x1 - x0 < 3 && s.outcome != Outcome::Open) {
            if (pd.x1 >= pd.x0 && pd.outcome == s.outcome && x0 <= pd.x1 + 1) {
                pd.x1 = qMax(pd.x1, x1);
                return;
            }
            flush(s.track);
            pd = {x0, x1, s.outcome};
            return;
        }
        flush(s.track);
        const QRectF r(x0, top + trackTop(s.track), x1 - x0, TrackHeight);
        const QColor color = TimelineLayout::outcomeColor(s.outcome);
        switch (s.outcome) {
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
            // No response at all: hatched, so it does not read as an answer.
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
    });
    for (int k = 0; k < TimelineLayout::MaxTracks; ++k)
        flush(k);

    // Markers: a tick down the lane and a glyph in the top strip; one per kind and pixel.
    p.setRenderHint(QPainter::Antialiasing, true);
    const qint64 slack = std::llround(GlyphSize * m_msPerPx);
    int lastX = std::numeric_limits<int>::min();
    MarkerKind lastKind = MarkerKind::Warning;
    m_layout->forEachMarker(
        lane, from - slack, to + slack, [&](int, const TimelineLayout::Marker &m) {
            const double x = xForTime(double(m.timeMs));
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
            if (m.durationMs > 0 && m.durationMs / m_msPerPx > 4) {
                // How long the reconnect took: a bracket back to when the attempt started.
                const double x0 = xForTime(double(m.timeMs - m.durationMs));
                const double y = top + 2 + GlyphSize / 2.0;
                p.drawLine(QPointF(x0, y), QPointF(x, y));
                p.drawLine(QPointF(x0, y - 3), QPointF(x0, y + 3));
            }
            drawGlyph(p, m.kind, QPointF(x, top + 2 + GlyphSize / 2.0));
        });
    p.setRenderHint(QPainter::Antialiasing, false);
}

void TimelineWidget::paintOutline(QPainter &p, int storeRow, const QColor &color) const
{
    const QRect r = itemRect(storeRow);
    if (r.isEmpty())
        return;
    p.setPen(QPen(color, 2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r.adjusted(-2, -2, 1, 1));
}

void TimelineWidget::paintAxis(QPainter &p, double fromMs, double toMs) const
{
    const QPalette &pal = palette();
    const int height = axisHeight();
    const int width = viewport()->width();
    p.fillRect(QRect(0, 0, width, height), pal.window());
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(0, height - 1, width, height - 1);
    const qint64 step = tickStep(m_msPerPx);
    const QString format = step < 1'000        ? u"hh:mm:ss.zzz"_s
                           : step < 60'000     ? u"hh:mm:ss"_s
                           : step < 86'400'000 ? u"hh:mm"_s
                                               : u"MMM d"_s;
    // Ticks fall on round local times, not round UTC ones.
    const qint64 offset = qint64(QDateTime::currentDateTime().offsetFromUtc()) * 1000;
    p.save();
    p.setClipRect(QRect(m_labelWidth, 0, width - m_labelWidth, height));
    p.setPen(pal.color(QPalette::WindowText));
    for (qint64 t = qint64(std::ceil((fromMs + double(offset)) / double(step))) * step - offset;
         double(t) <= toMs; t += step) {
        const double x = xForTime(double(t));
        p.drawLine(QPointF(x, height - 5), QPointF(x, height - 1));
        p.drawText(QPointF(x + 3, height - 6), QDateTime::fromMSecsSinceEpoch(t).toString(format));
    }
    p.restore();
}

void TimelineWidget::paintLabels(QPainter &p) const
{
    const QPalette &pal = palette();
    const int height = viewport()->height();
    p.fillRect(QRect(0, axisHeight(), m_labelWidth, height - axisHeight()), pal.window());
    p.save();
    p.setClipRect(QRect(0, axisHeight(), m_labelWidth, height - axisHeight()));
    const QFontMetrics fm = fontMetrics();
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    for (int lane = 0; lane < m_layout->laneCount(); ++lane) {
        const int top = laneTop(lane);
        if (top + LaneHeight < axisHeight() || top > height)
            continue;
        p.setFont(font());
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRect(6, top + 3, m_labelWidth - 10, fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(m_layout->laneName(lane), Qt::ElideRight, m_labelWidth - 10));
        const auto &bands = m_layout->bands(lane);
        if (!bands.isEmpty()) {
            p.setFont(small);
            p.setPen(pal.color(QPalette::PlaceholderText));
            const auto &b = bands.last();
            p.drawText(QRect(6, top + 3 + fm.height(), m_labelWidth - 10, fm.height()),
                       Qt::AlignLeft | Qt::AlignVCenter,
                       (b.open ? u"gen "_s : u"ended gen "_s) + QString::number(b.generation));
        }
        p.setPen(pal.color(QPalette::Midlight));
        p.drawLine(0, top + LaneHeight - 1, m_labelWidth, top + LaneHeight - 1);
    }
    p.restore();
    p.setFont(font());
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(m_labelWidth - 1, 0, m_labelWidth - 1, height);
}

} // namespace Sonde
