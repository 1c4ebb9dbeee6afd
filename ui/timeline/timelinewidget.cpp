// SPDX-License-Identifier: MIT
// Over 500 lines on purpose: what is left here is the view state (zoom, pan, following the
// latest time, the scroll bars) and the input that changes it, and every handler reads and
// writes the same few members; painting is TimelinePainter's, and where things are on screen
// (hit testing included) TimelineGeometry's.
#include "timeline/timelinewidget.h"

#include "application/servers/serverregistry.h"

#include "application/transcript/transcriptstore.h"
#include "timeline/timelinelegendview.h"
#include "timeline/timelinepainter.h"

#include <QApplication>
#include <QDateTime>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

constexpr int MinLabelWidth = 70;
constexpr int MaxLabelWidth = 180;
// When following, the latest time sits this far (of the view's width) from the right edge.
constexpr double FollowMargin = 0.05;
constexpr double MinMsPerPx = 0.01;                    // 100 px per millisecond
constexpr double MaxMsPerPx = 30.0 * 86'400'000 / 400; // a month across a small window
constexpr double ZoomStep = 1.5;

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
    setAccessibleName(tr("Timeline"));
    connect(m_layout, &TimelineLayout::changed, this, &TimelineWidget::onLayoutChanged);
    connect(m_layout, &TimelineLayout::lanesChanged, this, &TimelineWidget::onLanesChanged);
    connect(m_tick, &QTimer::timeout, this, &TimelineWidget::onTick);
    m_legend = new TimelineLegendView(this);
    onLanesChanged();
    placeLegend();
}

void TimelineWidget::placeLegend()
{
    // In the viewport's bottom margin: inside the scroll area's frame, never over a lane.
    const int h = m_legend->heightForWidth(qMax(1, width() - 2 * frameWidth()));
    if (viewportMargins().bottom() != h)
        setViewportMargins(0, 0, 0, h);
    const QRect vp = viewport()->geometry();
    m_legend->setGeometry(vp.left(), vp.bottom() + 1, vp.width(), h);
}

TimelineWidget::~TimelineWidget() = default;

void TimelineWidget::followServers(const ServerRegistry *registry)
{
    connect(registry, &ServerRegistry::serverAdded, this,
            [this](const ServerConfig &c) { setServerRemoved(c.name, false); });
    connect(registry, &ServerRegistry::serverRemoved, this,
            [this](const QString &name) { setServerRemoved(name, true); });
}

void TimelineWidget::setServerRemoved(const QString &server, bool removed)
{
    m_layout->setServerRemoved(server, removed);
}

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
    return geometry().laneTop(lane);
}

double TimelineWidget::xForTime(double timeMs) const
{
    return geometry().xForTime(timeMs);
}

double TimelineWidget::timeAtX(double x) const
{
    return geometry().timeAtX(x);
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

void TimelineWidget::setViewStart(double startMs, bool mayFollow)
{
    if (!m_layout->isEmpty()) {
        const double maxStart = maxViewStart();
        startMs = std::clamp(startMs, minViewStart(), maxStart);
        // Half a pixel short of the end still counts as being at the end.
        setFollowing(mayFollow && startMs >= maxStart - m_msPerPx / 2);
    }
    m_viewStartMs = startMs;
    if (m_following)
        applyFollow();
    syncScrollBars();
    viewport()->update();
}

void TimelineWidget::zoomBy(double factor, double anchorX, bool aroundAnchor)
{
    const double anchorTime = timeAtX(anchorX);
    const double before = m_msPerPx;
    m_msPerPx = std::clamp(m_msPerPx * factor, MinMsPerPx, MaxMsPerPx);
    if (m_msPerPx == before)
        return;
    if (aroundAnchor) {
        // The wheel zooms around what is under the cursor, live or not: following stops until
        // asked again (End, Follow), instead of snapping back to now.
        setFollowing(false);
        setViewStart(anchorTime - (anchorX - m_labelWidth) * m_msPerPx, false);
        return;
    }
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
    const int top = hit.lane * TimelineGeometry::LaneHeight;
    QScrollBar *v = verticalScrollBar();
    if (top < v->value() ||
        top + TimelineGeometry::LaneHeight > v->value() + viewport()->height() - axisHeight())
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
    const int lanesHeight = m_layout->laneCount() * TimelineGeometry::LaneHeight;
    const int room = qMax(0, viewport()->height() - axisHeight());
    v->setRange(0, qMax(0, lanesHeight - room));
    v->setPageStep(qMax(1, room));
    v->setSingleStep(TimelineGeometry::LaneHeight);
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

TimelineGeometry TimelineWidget::geometry() const
{
    TimelineGeometry g;
    g.labelWidth = m_labelWidth;
    g.axisHeight = axisHeight();
    g.scrollY = verticalScrollBar()->value();
    g.viewStartMs = m_viewStartMs;
    g.msPerPx = m_msPerPx;
    return g;
}

TimelineLayout::Hit TimelineWidget::hitAt(const QPoint &pos) const
{
    return geometry().hitAt(*m_layout, pos, nowMs());
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
    return geometry().itemRect(*m_layout, storeRow, nowMs());
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
        zoomBy(std::pow(1.25, -delta.y() / 120.0), event->position().x(), true);
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
    placeLegend();
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
    return {800, axisHeight() + lanes * TimelineGeometry::LaneHeight +
                     horizontalScrollBar()->sizeHint().height() + m_legend->heightForWidth(800) +
                     2 * frameWidth()};
}

QSize TimelineWidget::minimumSizeHint() const
{
    return {m_labelWidth + 120, axisHeight() + TimelineGeometry::LaneHeight +
                                    horizontalScrollBar()->sizeHint().height() +
                                    m_legend->minimumSizeHint().height() + 2 * frameWidth()};
}

void TimelineWidget::paintEvent(QPaintEvent *)
{
    QPainter p(viewport());
    TimelinePainter::Frame frame{geometry(), viewport()->size(), palette(),  font(),
                                 nowMs(),    isLive(),           m_hoverRow, m_currentRow};
    TimelinePainter(*m_layout, std::move(frame)).paint(p);
}

} // namespace Sonde
