// SPDX-License-Identifier: MIT
// TimelineLegend: the names and colours of the timeline's outcomes and markers stay what
// they were when they were switches (the widget, the tooltips and the screenshots use them).
#include "timelinelegend.h"

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
            << int(Outcome::Ok) << u"ok"_s << QColor(0x2e, 0x9e, 0x4f);
        QTest::newRow("an isError result is a tool error, in orange")
            << int(Outcome::ToolError) << u"tool error"_s << QColor(0xf0, 0x8c, 0x1a);
        QTest::newRow("an error response is a JSON-RPC error, in red")
            << int(Outcome::RpcError) << u"JSON-RPC error"_s << QColor(0xd8, 0x3a, 0x3a);
        QTest::newRow("no answer before an expiry is uncertain, in yellow")
            << int(Outcome::Uncertain) << u"uncertain (no answer; the session expired)"_s
            << QColor(0xf5, 0xc4, 0x00);
        QTest::newRow("no answer before the end is unanswered, in grey")
            << int(Outcome::Unanswered) << u"unanswered (the session ended first)"_s
            << QColor(0x9a, 0x9a, 0x9a);
        QTest::newRow("a request still waiting is open, in blue")
            << int(Outcome::Open) << u"open"_s << QColor(0x3b, 0x82, 0xd6);
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
