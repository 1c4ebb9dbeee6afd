// SPDX-License-Identifier: MIT
#pragma once

#include "application/timeline/timelinelayout.h"

#include <QList>
#include <QRect>
#include <QStringList>
#include <QVariantList>
#include <QWidget>

namespace Sonde {

// The timeline's legend, drawn under its lanes: one entry per call outcome (its bar) and per
// marker (its glyph), with TimelineLegend's names and colours, wrapped over as many lines as
// the width needs; hovering an entry says what it means. Thread: GUI; a child of the
// TimelineWidget, which gives it its place.
class TimelineLegendView : public QWidget
{
    Q_OBJECT
    Q_PROPERTY(QStringList entries READ entries CONSTANT)
    Q_PROPERTY(QVariantList entryRects READ entryRects)
public:
    explicit TimelineLegendView(QWidget *parent = nullptr);

    QStringList entries() const;
    // Where each entry is drawn at the current width, in this widget's coordinates.
    QVariantList entryRects() const;

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;

private:
    struct Entry
    {
        QString name;
        QString description;
        bool marker = false;
        int value = 0; // an Outcome or a MarkerKind
    };
    QList<QRect> layoutFor(int width) const;
    int sectionWidth() const;
    int entryAt(const QPoint &pos) const;

    QList<Entry> m_entries;
};

} // namespace Sonde
