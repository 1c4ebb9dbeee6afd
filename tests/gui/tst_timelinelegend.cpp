// SPDX-License-Identifier: MIT
// TimelineLegend: the names and colours of the timeline's outcomes and markers stay what
// they were when they were switches (the widget, the tooltips and the screenshots use them).
#include "application/timeline/timelinelegend.h"

#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

using Outcome = TimelineLayout::Outcome;
using MarkerKind = TimelineLayout::MarkerKind;

class TestTimelineLegend : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void outcomesKeepTheirNamesAndColours_data()
    {
        QTest::addColumn<int>("outcome");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QColor>("color");
        QTest::newRow("an answered request is ok, in green")
            << int(Outcome::Ok) << u"ok"_s << QColor(0x2e, 0x85, 0x40);
        QTest::newRow("an isError result is a tool error, in orange")
            << int(Outcome::ToolError) << u"tool error"_s << QColor(0xc9, 0x6a, 0x00);
        QTest::newRow("an error response is a JSON-RPC error, in red")
            << int(Outcome::RpcError) << u"JSON-RPC error"_s << QColor(0xd4, 0x2f, 0x2f);
        QTest::newRow("an HTTP error status is an HTTP error, in magenta")
            << int(Outcome::HttpError) << u"HTTP error"_s << QColor(0xc0, 0x2e, 0xc0);
        QTest::newRow("a cancelled request is cancelled, in brown")
            << int(Outcome::Cancelled) << u"cancelled"_s << QColor(0x8a, 0x6d, 0x5a);
        QTest::newRow("a request past its timeout timed out, in teal")
            << int(Outcome::TimedOut) << u"timed out"_s << QColor(0x00, 0x85, 0x8f);
        QTest::newRow("a write not sent again is outcome uncertain, in dark yellow")
            << int(Outcome::Uncertain) << u"outcome uncertain"_s << QColor(0x9a, 0x82, 0x00);
        QTest::newRow("a request sent again is sent again, in violet")
            << int(Outcome::Replayed) << u"sent again"_s << QColor(0x85, 0x60, 0xd8);
        QTest::newRow("no answer before the end is no response, in grey")
            << int(Outcome::Unanswered) << u"no response"_s << QColor(0x7d, 0x87, 0x90);
        QTest::newRow("a request still waiting is open, in blue")
            << int(Outcome::Open) << u"open"_s << QColor(0x2f, 0x6f, 0xd6);
    }
    void outcomesKeepTheirNamesAndColours()
    {
        QFETCH(int, outcome);
        QFETCH(QString, name);
        QFETCH(QColor, color);
        QCOMPARE(TimelineLegend::outcomeName(Outcome(outcome)), name);
        QCOMPARE(TimelineLegend::outcomeColor(Outcome(outcome)), color);
        QCOMPARE(TimelineLayout::outcomeName(Outcome(outcome)), name);
    }

    void markersKeepTheirNamesAndColours_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QColor>("color");
        QTest::newRow("a reconnect that worked")
            << int(MarkerKind::ReconnectOk) << u"reconnected"_s << QColor(0x22, 0xa3, 0x4a);
        QTest::newRow("a reconnect that failed")
            << int(MarkerKind::ReconnectFailed) << u"reconnect failed"_s
            << QColor(0xdc, 0x26, 0x26);
        QTest::newRow("a breaker trip")
            << int(MarkerKind::BreakerOpen) << u"breaker opened"_s << QColor(0x99, 0x1b, 0x1b);
        QTest::newRow("a half-open breaker") << int(MarkerKind::BreakerHalfOpen)
                                             << u"breaker half-open"_s << QColor(0xd9, 0x77, 0x06);
        QTest::newRow("a closed breaker")
            << int(MarkerKind::BreakerClosed) << u"breaker closed"_s << QColor(0x15, 0x80, 0x3d);
        QTest::newRow("an injected fault")
            << int(MarkerKind::Fault) << u"fault injected"_s << QColor(0x93, 0x33, 0xea);
        QTest::newRow("a classification")
            << int(MarkerKind::Classification) << u"error classified"_s << QColor(0x64, 0x74, 0x8b);
        QTest::newRow("an expiry") << int(MarkerKind::ClassificationExpired) << u"session expired"_s
                                   << QColor(0xea, 0xb3, 0x08);
        QTest::newRow("a call the breaker refused")
            << int(MarkerKind::BreakerRefused) << u"refused by the breaker"_s
            << QColor(0xd1, 0x37, 0x6e);
        QTest::newRow("a leg of a multi round-trip call answered input_required")
            << int(MarkerKind::InputRequired) << u"input required"_s << QColor(0x08, 0x91, 0xb2);
        QTest::newRow("a warning")
            << int(MarkerKind::Warning) << u"warning"_s << QColor(0xea, 0x58, 0x0c);
    }
    void markersKeepTheirNamesAndColours()
    {
        QFETCH(int, kind);
        QFETCH(QString, name);
        QFETCH(QColor, color);
        QCOMPARE(TimelineLegend::markerName(MarkerKind(kind)), name);
        QCOMPARE(TimelineLegend::markerColor(MarkerKind(kind)), color);
        QCOMPARE(TimelineLayout::markerColor(MarkerKind(kind)), color);
    }
};

QTEST_GUILESS_MAIN(TestTimelineLegend)
#include "tst_timelinelegend.moc"
