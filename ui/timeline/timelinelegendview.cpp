// SPDX-License-Identifier: MIT
#include "timeline/timelinelegendview.h"

#include "application/timeline/timelinelegend.h"
#include "timeline/timelinepainter.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

constexpr int Margin = 4;
constexpr int SwatchWidth = 18;
constexpr int Gap = 4;      // swatch to name
constexpr int Spacing = 14; // entry to entry

} // namespace

TimelineLegendView::TimelineLegendView(QWidget *parent) : QWidget(parent)
{
    setObjectName(u"timelineLegend"_s);
    setAccessibleName(tr("Timeline legend"));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Window);
    for (int o = 0; o <= int(TimelineLayout::Outcome::Open); ++o) {
        const auto outcome = TimelineLayout::Outcome(o);
        m_entries.append({TimelineLegend::outcomeName(outcome),
                          TimelineLegend::outcomeDescription(outcome), false, o});
    }
    for (int k = 0; k <= int(TimelineLayout::MarkerKind::Warning); ++k) {
        const auto kind = TimelineLayout::MarkerKind(k);
        m_entries.append(
            {TimelineLegend::markerName(kind), TimelineLegend::markerDescription(kind), true, k});
    }
    QStringList described;
    for (const Entry &e : std::as_const(m_entries))
        described << e.name + u": "_s + e.description;
    setAccessibleDescription(described.join(u'\n'));
}

QStringList TimelineLegendView::entries() const
{
    QStringList names;
    for (const Entry &e : m_entries)
        names << e.name;
    return names;
}

QVariantList TimelineLegendView::entryRects() const
{
    QVariantList out;
    for (const QRect &r : layoutFor(width()))
        out << r;
    return out;
}

int TimelineLegendView::sectionWidth() const
{
    const QFontMetrics fm = fontMetrics();
    return qMax(fm.horizontalAdvance(tr("Calls:")), fm.horizontalAdvance(tr("Marks:"))) + Spacing;
}

QList<QRect> TimelineLegendView::layoutFor(int width) const
{
    // Two sections, each starting a line after its label: the calls' bars, then the marks.
    const QFontMetrics fm = fontMetrics();
    const int lineHeight = fm.height() + 2;
    const int indent = Margin + sectionWidth();
    QList<QRect> rects;
    int x = indent;
    int y = Margin;
    for (qsizetype i = 0; i < m_entries.size(); ++i) {
        const Entry &e = m_entries.at(i);
        const int w = SwatchWidth + Gap + fm.horizontalAdvance(e.name);
        const bool newSection = i > 0 && e.marker && !m_entries.at(i - 1).marker;
        // Wraps before an entry that would not fit; a first entry wider than all stays.
        if (newSection || (x > indent && x + w > width - Margin)) {
            x = indent;
            y += lineHeight;
        }
        rects << QRect(x, y, w, lineHeight);
        x += w + Spacing;
    }
    return rects;
}

int TimelineLegendView::heightForWidth(int width) const
{
    const QList<QRect> rects = layoutFor(width);
    return rects.isEmpty() ? 0 : rects.last().bottom() + 1 + Margin;
}

QSize TimelineLegendView::sizeHint() const
{
    return {600, heightForWidth(600)};
}

QSize TimelineLegendView::minimumSizeHint() const
{
    return {100, fontMetrics().height() + 2 * Margin};
}

int TimelineLegendView::entryAt(const QPoint &pos) const
{
    const QList<QRect> rects = layoutFor(width());
    for (int i = 0; i < rects.size(); ++i)
        if (rects.at(i).contains(pos))
            return i;
    return -1;
}

bool TimelineLegendView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int i = entryAt(help->pos());
        if (i < 0)
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(),
                               m_entries.at(i).name + u"\n"_s + m_entries.at(i).description, this,
                               layoutFor(width()).at(i));
        return true;
    }
    return QWidget::event(event);
}

void TimelineLegendView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QList<QRect> rects = layoutFor(width());
    for (int i = 0; i < rects.size(); ++i) {
        const Entry &e = m_entries.at(i);
        const QRect r = rects.at(i);
        if (i == 0 || e.marker != m_entries.at(i - 1).marker) {
            p.setPen(palette().color(QPalette::PlaceholderText));
            p.drawText(QRect(Margin, r.top(), sectionWidth(), r.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, e.marker ? tr("Marks:") : tr("Calls:"));
        }
        const QRectF swatch(r.left(), r.center().y() - 4, SwatchWidth, 9);
        p.setRenderHint(QPainter::Antialiasing, e.marker);
        if (e.marker)
            TimelinePainter::drawGlyph(p, TimelineLayout::MarkerKind(e.value), swatch.center(),
                                       TimelineGeometry::GlyphSize);
        else
            TimelinePainter::drawBar(p, swatch, TimelineLayout::Outcome(e.value));
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(
            QRect(r.left() + SwatchWidth + Gap, r.top(), r.width() - SwatchWidth - Gap, r.height()),
            Qt::AlignLeft | Qt::AlignVCenter, e.name);
    }
}

} // namespace Sonde
