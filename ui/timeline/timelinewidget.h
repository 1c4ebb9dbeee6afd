// SPDX-License-Identifier: MIT
#pragma once

#include "application/timeline/timelinegeometry.h"
#include "application/timeline/timelinelayout.h"

#include <QAbstractScrollArea>
#include <QPointer>

#include <functional>

class QTimer;

namespace Sonde {

class ServerRegistry;

class TimelineLegendView;
class TranscriptStore;

// The transcript along a time axis: one lane per server with its session generations as
// shaded bands, each request as a bar from the request to its response coloured by outcome
// (ok, tool error, JSON-RPC error, HTTP error, cancelled, timed out, outcome uncertain, sent
// again, no response, still open up to "now"), and glyphs for reconnects, breaker transitions
// and refusals, injected faults and error classifications, with a legend under the lanes. Wheel
// (with or without Ctrl) zooms around the cursor, dragging / the scroll bar / arrow keys pan; the
// view follows the latest time until the user pans away and again once they come back to the
// end (or call followLatest()/fitAll()). Hovering shows the details as a tooltip; a click on a
// bar or glyph emits activated(storeRow). What is drawn comes from a TimelineLayout kept up
// to date from the store's signals; TimelinePainter draws it where TimelineGeometry says, and
// a paint only visits what is in view.
// Thread: GUI. Does not own the store (which may be destroyed first).
class TimelineWidget : public QAbstractScrollArea
{
    Q_OBJECT
public:
    explicit TimelineWidget(QWidget *parent = nullptr);
    ~TimelineWidget() override;

    void setStore(TranscriptStore *store);
    TranscriptStore *store() const;
    const TimelineLayout *timelineLayout() const { return m_layout; }
    void setServerRemoved(const QString &server, bool removed);
    // Marks each server's lane removed or back as the registry removes or adds it.
    void followServers(const ServerRegistry *registry);

    // "Now" on the transcript's clock (ms since the epoch), where open calls and the current
    // generation end. The wall clock unless set (tests, or a transcript read from a file).
    void setNowFunction(std::function<qint64()> now);
    qint64 nowMs() const;

    // The time range in view (ms since the epoch) and its scale.
    qint64 visibleStartMs() const;
    qint64 visibleEndMs() const;
    double visibleSpanMs() const;
    double msPerPixel() const { return m_msPerPx; }
    // Shows [startMs, endMs]; following resumes if that reaches the end.
    void setVisibleRange(qint64 startMs, qint64 endMs);
    bool isFollowing() const { return m_following; }

    // The row a click at this viewport position would activate (-1 for none), the tooltip
    // text there, and where a row (a span's request or response, or a marker) is drawn, in
    // viewport coordinates (empty when it has nothing on the timeline).
    int rowAt(const QPoint &viewportPos) const;
    QString toolTipAt(const QPoint &viewportPos) const;
    QRect itemRect(int storeRow) const;
    int currentRow() const { return m_currentRow; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public Q_SLOTS:
    void zoomIn();
    void zoomOut();
    void fitAll();
    void followLatest();
    // Outlines the bar or glyph of a store row (the transcript's selection); -1 for none.
    void setCurrentRow(int storeRow);
    // Outlines it and pans (and scrolls) so it is in view.
    void revealRow(int storeRow);

Q_SIGNALS:
    void activated(int storeRow);
    void followingChanged(bool following);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;
    bool viewportEvent(QEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void onLayoutChanged();
    void onLanesChanged();
    void onRowsDropped(int count);
    void onTick();

    TimelineGeometry geometry() const;
    TimelineLayout::Hit hitAt(const QPoint &pos) const;
    double xForTime(double timeMs) const;
    double timeAtX(double x) const;
    int plotWidth() const;
    int axisHeight() const;
    int laneTop(int lane) const;
    bool isLive() const;
    qint64 liveEndMs() const;
    double minViewStart() const;
    double maxViewStart() const;
    void zoomBy(double factor, double anchorX, bool aroundAnchor = false);
    void panBy(double pixels);
    // `mayFollow` false: the view stays put even at the end (a wheel zoom left following on
    // purpose).
    void setViewStart(double startMs, bool mayFollow = true);
    void applyFollow();
    void setFollowing(bool following);
    void syncScrollBars();
    void placeLegend();

    TimelineLayout *m_layout = nullptr;
    TimelineLegendView *m_legend = nullptr; // under the lanes, above the scroll bar
    QPointer<TranscriptStore> m_store;
    std::function<qint64()> m_now;
    QTimer *m_tick = nullptr;

    double m_viewStartMs = 0;
    double m_msPerPx = 100; // a minute across 600 px until there is data to fit
    bool m_following = true;
    // fitAll() before the widget had its size (hidden, not laid out yet): fit again on resize.
    bool m_fitPending = false;
    int m_labelWidth = 100;

    // Scroll bar values are ints: they count m_scrollUnitMs from m_scrollOriginMs.
    double m_scrollOriginMs = 0;
    double m_scrollUnitMs = 1;
    bool m_syncingScrollBars = false;

    QPoint m_pressPos;
    double m_pressViewStart = 0;
    int m_pressScrollY = 0;
    bool m_pressed = false;
    bool m_dragging = false;
    int m_hoverRow = -1;
    int m_currentRow = -1;
};

} // namespace Sonde
