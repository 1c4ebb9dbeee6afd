// SPDX-License-Identifier: MIT
// The timeline: its layout (lanes, generation bands, request spans and their outcomes,
// recovery markers, hit testing) computed headless from a TranscriptStore, kept consistent
// as the store grows and drops its front; and the widget over it (painting at several
// zooms, zoom and pan, follow mode, tooltips, clicks that activate a store row).
#include "application/timeline/timelinelayout.h"
#include "application/transcript/transcriptstore.h"
#include "timeline/timelinewidget.h"

#include <QApplication>
#include <QImage>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

using Direction = TranscriptEvent::Direction;
using Outcome = TimelineLayout::Outcome;
using MarkerKind = TimelineLayout::MarkerKind;
constexpr qint64 T0 = 1700000000000; // 2023-11-14, any fixed instant will do
constexpr qint64 Now = T0 + 1000;

TranscriptEvent wire(qint64 t, Direction dir, const QByteArray &raw, const QString &server,
                     int generation)
{
    TranscriptEvent e;
    e.timeMs = T0 + t;
    e.server = server;
    e.generation = generation;
    e.direction = dir;
    e.raw = raw;
    return e;
}

TranscriptEvent call(qint64 t, int id, const QString &server, int generation,
                     const QByteArray &method = "tools/call")
{
    return wire(t, Direction::Outgoing,
                "{\"jsonrpc\":\"2.0\",\"id\":" + QByteArray::number(id) + ",\"method\":\"" +
                    method + "\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"hi\"}}}",
                server, generation);
}

TranscriptEvent result(qint64 t, int id, const QString &server, int generation,
                       bool isError = false)
{
    return wire(t, Direction::Incoming,
                "{\"jsonrpc\":\"2.0\",\"id\":" + QByteArray::number(id) +
                    ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],\"isError\":" +
                    (isError ? "true" : "false") + "}}",
                server, generation);
}

TranscriptEvent rpcError(qint64 t, int id, const QString &server, int generation)
{
    return wire(t, Direction::Incoming,
                "{\"jsonrpc\":\"2.0\",\"id\":" + QByteArray::number(id) +
                    ",\"error\":{\"code\":-32602,\"message\":\"Unknown tool\"}}",
                server, generation);
}

TranscriptEvent lifecycle(qint64 t, const QString &event, const QJsonObject &details,
                          const QString &server, int generation)
{
    TranscriptEvent e = wire(t, Direction::Lifecycle, {}, server, generation);
    e.kind = eventKindFromName(event);
    e.event = event;
    // The supervisor's entries (its fault says whether it "applied") are its history's
    // entries, as ServerSupervisor records them.
    QJsonObject typed = details;
    if (e.kind >= EventKind::Classification ||
        (e.kind == EventKind::Fault && details.contains("applied"_L1))) {
        typed.insert("type"_L1, event);
        typed.insert("t_ms"_L1, t);
    }
    e.details = std::make_shared<const LifecycleDetails>(LifecycleDetails::fromJson(event, typed));
    return e;
}

const QString alpha = u"alpha"_s;
const QString beta = u"beta"_s;

// Two servers, in time order as the engine would deliver them. alpha: a start, calls with
// each outcome, a close with a call left unanswered and classified as expired, a reconnect
// into generation 2, the breaker opening, a call still open. beta: one answered call, a
// fault (recorded twice, by the session and by the supervisor), a failed reconnect.
TranscriptBatch scenario()
{
    return {
        lifecycle(0, u"starting"_s, {}, alpha, 0),
        call(10, 0, alpha, 0, "initialize"),
        result(20, 0, alpha, 0),
        lifecycle(30, u"ready"_s, {{"protocol_version"_L1, "2025-06-18"_L1}}, alpha, 1),
        lifecycle(31, u"session-start"_s, {{"generation"_L1, 1}}, alpha, 1),
        lifecycle(50, u"ready"_s, {}, beta, 1),
        call(100, 1, alpha, 1),
        call(120, 1, beta, 1, "tools/list"),
        result(130, 1, beta, 1),
        result(150, 1, alpha, 1),
        call(200, 2, alpha, 1),
        lifecycle(250, u"fault"_s, {{"kind"_L1, "drop-next"_L1}}, beta, 1),
        lifecycle(251, u"fault"_s, {{"kind"_L1, "drop-next"_L1}, {"applied"_L1, true}}, beta, 1),
        result(260, 2, alpha, 1, true),
        call(300, 3, alpha, 1),
        rpcError(320, 3, alpha, 1),
        call(400, 4, alpha, 1),
        lifecycle(450, u"reconnect"_s, {{"outcome"_L1, "failed"_L1}, {"duration_ms"_L1, 40}}, beta,
                  1),
        lifecycle(500, u"closed"_s, {}, alpha, 1),
        lifecycle(505, u"classification"_s,
                  {{"method"_L1, "tools/call"_L1},
                   {"expired"_L1, true},
                   {"generation"_L1, 1},
                   {"rule"_L1, "404"_L1}},
                  alpha, 1),
        lifecycle(510, u"reconnect-attempt"_s, {{"from_generation"_L1, 1}}, alpha, 1),
        lifecycle(600, u"ready"_s, {}, alpha, 2),
        lifecycle(601, u"session-start"_s, {{"generation"_L1, 2}}, alpha, 2),
        lifecycle(602, u"reconnect"_s,
                  {{"outcome"_L1, "ok"_L1},
                   {"duration_ms"_L1, 92},
                   {"from_generation"_L1, 1},
                   {"to_generation"_L1, 2}},
                  alpha, 2),
        lifecycle(700, u"breaker"_s,
                  {{"from"_L1, "closed"_L1}, {"to"_L1, "open"_L1}, {"strikes"_L1, 3}}, alpha, 2),
        call(800, 1, alpha, 2),
    };
}

// The row of the event a server recorded at T0 + t.
int rowOf(const TranscriptStore &store, qint64 t, const QString &server)
{
    for (int row = 0; row < store.size(); ++row) {
        if (store.event(row).timeMs == T0 + t && store.event(row).server == server)
            return row;
    }
    return -1;
}

// A layout in words, to compare two of them with one QCOMPARE that prints the difference.
// Without bands: after drops, a layout that followed the store still knows a generation whose
// start was dropped (the server is still connected), which one built afresh cannot; lanes
// then come in name order and only with something in them.
QStringList describeLayout(const TimelineLayout &layout, bool withBands = true)
{
    QStringList out;
    QStringList names;
    for (int lane = 0; lane < layout.laneCount(); ++lane)
        names << layout.laneName(lane);
    if (!withBands)
        names.sort();
    for (const QString &name : std::as_const(names)) {
        const int lane = layout.laneOf(name);
        if (!withBands && layout.spans(lane).isEmpty() && layout.markers(lane).isEmpty())
            continue;
        out << u"lane "_s + name;
        for (const auto &b : layout.bands(lane)) {
            if (withBands)
                out << u"band gen %1 %2..%3 open=%4 rows %5/%6"_s.arg(b.generation)
                           .arg(b.startMs - T0)
                           .arg(b.open ? -1 : b.endMs - T0)
                           .arg(b.open)
                           .arg(b.startRow)
                           .arg(b.endRow);
        }
        for (const auto &s : layout.spans(lane))
            out << u"span %1..%2 rows %3/%4 gen %5 %6 track %7"_s.arg(s.startMs - T0)
                       .arg(s.endMs - T0)
                       .arg(s.requestRow)
                       .arg(s.responseRow)
                       .arg(s.generation)
                       .arg(TimelineLayout::outcomeName(s.outcome))
                       .arg(s.track);
        for (const auto &m : layout.markers(lane))
            out << u"marker %1 at %2 row %3"_s.arg(TimelineLayout::markerName(m.kind))
                       .arg(m.timeMs - T0)
                       .arg(m.row);
    }
    return out;
}

// Every row the layout points at is in the store and is what it claims to be.
void verifyRows(const TimelineLayout &layout, const TranscriptStore &store)
{
    for (int lane = 0; lane < layout.laneCount(); ++lane) {
        for (const auto &s : layout.spans(lane)) {
            QVERIFY(s.requestRow >= 0 && s.requestRow < store.size());
            QVERIFY(store.entry(s.requestRow).isRequest);
            QCOMPARE(store.event(s.requestRow).server, layout.laneName(lane));
            QCOMPARE(store.event(s.requestRow).timeMs, s.startMs);
            if (s.responseRow >= 0) {
                QVERIFY(s.responseRow < store.size());
                QCOMPARE(store.entry(s.responseRow).pairedRow, s.requestRow);
                QCOMPARE(store.event(s.responseRow).timeMs, s.endMs);
            }
        }
        for (const auto &m : layout.markers(lane)) {
            QVERIFY(m.row >= 0 && m.row < store.size());
            QCOMPARE(store.event(m.row).timeMs, m.timeMs);
            QCOMPARE(store.event(m.row).server, layout.laneName(lane));
        }
        for (const auto &b : layout.bands(lane)) {
            QVERIFY(b.startRow < store.size() && b.endRow < store.size());
            if (b.startRow >= 0)
                QCOMPARE(store.event(b.startRow).timeMs, b.startMs);
            if (b.endRow >= 0)
                QCOMPARE(store.event(b.endRow).timeMs, b.endMs);
        }
    }
}

bool imageHasColor(const QImage &image, const QColor &color)
{
    const QRgb wanted = color.rgb();
    for (int y = 0; y < image.height(); ++y) {
        const auto *line = reinterpret_cast<const QRgb *>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            if ((line[x] | 0xff000000) == wanted)
                return true;
        }
    }
    return false;
}

// One notch of the wheel over the timeline at `at`: up (+1) zooms in, down (-1) out.
void wheel(TimelineWidget &w, const QPointF &at, int notch,
           Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    QWheelEvent e(at, w.viewport()->mapToGlobal(at), {}, QPoint(0, 120 * notch), Qt::NoButton,
                  modifiers, Qt::NoScrollPhase, false);
    QApplication::sendEvent(w.viewport(), &e);
}

QImage renderImage(TimelineWidget &w)
{
    QImage image(w.size(), QImage::Format_ARGB32);
    image.fill(Qt::black);
    w.render(&image);
    return image;
}

} // namespace

class TestTimelineWidget : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void oneLanePerServerInOrderOfAppearance()
    {
        TranscriptStore store;
        TimelineLayout layout;
        layout.setStore(&store);
        QSignalSpy lanes(&layout, &TimelineLayout::lanesChanged);
        store.append(scenario());
        QCOMPARE(layout.laneCount(), 2);
        QCOMPARE(layout.laneName(0), alpha);
        QCOMPARE(layout.laneName(1), beta);
        QCOMPARE(layout.laneOf(beta), 1);
        QCOMPARE(lanes.count(), 1);
        QCOMPARE(layout.firstTimeMs(), T0);
        QCOMPARE(layout.lastTimeMs(), T0 + 800);
    }

    void aRemovedServerLosesItsLaneAndARenewedOneShowsOnlyWhatCameAfter()
    {
        TranscriptStore store;
        TimelineLayout layout;
        layout.setStore(&store);
        store.append(scenario());
        QSignalSpy lanes(&layout, &TimelineLayout::lanesChanged);
        layout.setServerRemoved(alpha, true);
        QCOMPARE(layout.laneCount(), 1);
        QCOMPARE(layout.laneName(0), beta);
        QVERIFY(lanes.count() >= 1);
        // What the removed server's closing session still sends does not bring it back.
        store.append({lifecycle(900, u"closed"_s, {}, alpha, 2)});
        QCOMPARE(layout.laneCount(), 1);
        // Added again under the same name: a fresh lane with only its new events.
        layout.setServerRemoved(alpha, false);
        store.append({lifecycle(1000, u"starting"_s, {}, alpha, 0), call(1010, 0, alpha, 0)});
        QCOMPARE(layout.laneCount(), 2);
        QCOMPARE(layout.laneOf(alpha), 1);
        QCOMPARE(layout.spans(1).size(), 1);
        QVERIFY(layout.bands(1).isEmpty());
    }

    void generationsBecomeBands()
    {
        TranscriptStore store;
        store.append(scenario());
        TimelineLayout layout;
        layout.setStore(&store); // built from rows already there
        const auto &a = layout.bands(layout.laneOf(alpha));
        QCOMPARE(a.size(), 2); // the session-start after each ready does not add a band
        QCOMPARE(a.at(0).generation, 1);
        QCOMPARE(a.at(0).startMs, T0 + 30);
        QCOMPARE(a.at(0).startRow, rowOf(store, 30, alpha));
        QVERIFY(!a.at(0).open);
        QCOMPARE(a.at(0).endMs, T0 + 500);
        QCOMPARE(a.at(0).endRow, rowOf(store, 500, alpha));
        QCOMPARE(a.at(1).generation, 2);
        QCOMPARE(a.at(1).startMs, T0 + 600);
        QVERIFY(a.at(1).open);
        QCOMPARE(TimelineLayout::bandEndMs(a.at(1), Now), Now);
        const auto &b = layout.bands(layout.laneOf(beta));
        QCOMPARE(b.size(), 1);
        QCOMPARE(b.at(0).generation, 1);
        QCOMPARE(b.at(0).startMs, T0 + 50);
        QVERIFY(b.at(0).open);
    }

    void requestsBecomeSpansColouredByOutcome_data()
    {
        QTest::addColumn<QString>("server");
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("end");
        QTest::addColumn<int>("outcome");
        QTest::addColumn<int>("generation");
        QTest::newRow("the initialize exchange is a span of the old generation")
            << alpha << 10LL << 20LL << int(Outcome::Ok) << 0;
        QTest::newRow("an answered call is ok") << alpha << 100LL << 150LL << int(Outcome::Ok) << 1;
        QTest::newRow("an isError result is a tool error")
            << alpha << 200LL << 260LL << int(Outcome::ToolError) << 1;
        QTest::newRow("an error response is a JSON-RPC error")
            << alpha << 300LL << 320LL << int(Outcome::RpcError) << 1;
        // A classification is only a mark: without a verdict about it (outcome-uncertain,
        // sent-again) the call just had no response when its session closed.
        QTest::newRow("unanswered, then classified expired: no response, ended at the close")
            << alpha << 400LL << 500LL << int(Outcome::Unanswered) << 1;
        QTest::newRow("a call still waiting is open")
            << alpha << 800LL << 800LL << int(Outcome::Open) << 2;
        QTest::newRow("the other server's call is in its own lane")
            << beta << 120LL << 130LL << int(Outcome::Ok) << 1;
    }
    void requestsBecomeSpansColouredByOutcome()
    {
        QFETCH(QString, server);
        QFETCH(qint64, start);
        QFETCH(qint64, end);
        QFETCH(int, outcome);
        QFETCH(int, generation);
        TranscriptStore store;
        TimelineLayout layout;
        layout.setStore(&store);
        store.append(scenario());
        const int lane = layout.laneOf(server);
        const auto &spans = layout.spans(lane);
        const auto it = std::find_if(spans.cbegin(), spans.cend(),
                                     [&](const auto &s) { return s.startMs == T0 + start; });
        QVERIFY(it != spans.cend());
        QCOMPARE(it->endMs, T0 + end);
        QCOMPARE(int(it->outcome), outcome);
        QCOMPARE(it->generation, generation);
        QCOMPARE(it->requestRow, rowOf(store, start, server));
        if (it->outcome == Outcome::Open) {
            QCOMPARE(TimelineLayout::spanEndMs(*it, Now), Now);
            QVERIFY(layout.hasOpenSpans());
        }
        verifyRows(layout, store);
    }

    void outcomesHaveDistinctColours()
    {
        const QColor ok = TimelineLayout::outcomeColor(Outcome::Ok);
        const QColor tool = TimelineLayout::outcomeColor(Outcome::ToolError);
        const QColor rpc = TimelineLayout::outcomeColor(Outcome::RpcError);
        const QColor uncertain = TimelineLayout::outcomeColor(Outcome::Uncertain);
        QVERIFY(ok.green() > ok.red());                                   // green
        QVERIFY(rpc.red() > 2 * rpc.green());                             // red
        QVERIFY(tool.red() > tool.green() && tool.green() > tool.blue()); // orange
        QVERIFY(uncertain.green() > tool.green()); // amber, lighter than orange
        QSet<QRgb> all;
        for (Outcome o : {Outcome::Ok, Outcome::ToolError, Outcome::RpcError, Outcome::Uncertain,
                          Outcome::Unanswered, Outcome::Open})
            all.insert(TimelineLayout::outcomeColor(o).rgb());
        QCOMPARE(all.size(), 6);
        QSet<QRgb> markers;
        for (int k = 0; k <= int(MarkerKind::Warning); ++k)
            markers.insert(TimelineLayout::markerColor(MarkerKind(k)).rgb());
        QCOMPARE(markers.size(), int(MarkerKind::Warning) + 1);
    }

    void recoveryEventsBecomeMarkers()
    {
        TranscriptStore store;
        TimelineLayout layout;
        layout.setStore(&store);
        store.append(scenario());
        const auto &a = layout.markers(layout.laneOf(alpha));
        QCOMPARE(a.size(),
                 3); // reconnect-attempt is not a marker: the reconnect carries its duration
        QCOMPARE(a.at(0).kind, MarkerKind::ClassificationExpired);
        QCOMPARE(a.at(0).row, rowOf(store, 505, alpha));
        QCOMPARE(a.at(1).kind, MarkerKind::ReconnectOk);
        QCOMPARE(a.at(1).timeMs, T0 + 602);
        QCOMPARE(a.at(1).durationMs, 92);
        QCOMPARE(a.at(2).kind, MarkerKind::BreakerOpen);
        QCOMPARE(a.at(2).row, rowOf(store, 700, alpha));
        const auto &b = layout.markers(layout.laneOf(beta));
        QCOMPARE(b.size(), 2);
        QCOMPARE(b.at(0).kind, MarkerKind::Fault);
        QCOMPARE(b.at(0).row,
                 rowOf(store, 251, beta)); // one glyph for both records, the fuller one
        QCOMPARE(b.at(1).kind, MarkerKind::ReconnectFailed);
    }

    void hitTestingFindsTheStoreRow_data()
    {
        QTest::addColumn<QString>("server");
        QTest::addColumn<qint64>("t");
        QTest::addColumn<qint64>("tolerance");
        QTest::addColumn<int>("type");
        QTest::addColumn<qint64>("rowTime"); // the time of the row it should return, -1 for none
        QTest::newRow("inside an answered call")
            << alpha << 120LL << 0LL << int(TimelineLayout::HitType::Span) << 100LL;
        QTest::newRow("just past its end, within the tolerance")
            << alpha << 152LL << 3LL << int(TimelineLayout::HitType::Span) << 100LL;
        QTest::newRow("inside the call left without a response")
            << alpha << 480LL << 0LL << int(TimelineLayout::HitType::Span) << 400LL;
        QTest::newRow("near a marker beats the span under it")
            << alpha << 506LL << 2LL << int(TimelineLayout::HitType::Marker) << 505LL;
        QTest::newRow("the open call, up to now")
            << alpha << 950LL << 0LL << int(TimelineLayout::HitType::Span) << 800LL;
        QTest::newRow("between calls: the generation's band")
            << alpha << 170LL << 0LL << int(TimelineLayout::HitType::Band) << -1LL;
        QTest::newRow("before the first generation: nothing")
            << alpha << 5LL << 0LL << int(TimelineLayout::HitType::None) << -1LL;
        QTest::newRow("the other lane")
            << beta << 125LL << 0LL << int(TimelineLayout::HitType::Span) << 120LL;
        QTest::newRow("a fault marker")
            << beta << 249LL << 3LL << int(TimelineLayout::HitType::Marker) << 251LL;
    }
    void hitTestingFindsTheStoreRow()
    {
        QFETCH(QString, server);
        QFETCH(qint64, t);
        QFETCH(qint64, tolerance);
        QFETCH(int, type);
        QFETCH(qint64, rowTime);
        TranscriptStore store;
        TimelineLayout layout;
        layout.setStore(&store);
        store.append(scenario());
        const TimelineLayout::Hit hit =
            layout.hitTest(layout.laneOf(server), T0 + t, tolerance, Now);
        QCOMPARE(int(hit.type), type);
        QCOMPARE(hit.row, rowTime < 0 ? -1 : rowOf(store, rowTime, server));
        if (hit.type != TimelineLayout::HitType::None)
            QVERIFY(!layout.describe(hit, Now).isEmpty());
    }

    void findMapsBothEndsOfACallToItsSpan()
    {
        TranscriptStore store;
        TimelineLayout layout;
        layout.setStore(&store);
        store.append(scenario());
        const int request = rowOf(store, 300, alpha);
        const int response = rowOf(store, 320, alpha);
        QCOMPARE(layout.find(request).row, request);
        QCOMPARE(layout.find(response).row, request);
        QCOMPARE(layout.find(response).type, TimelineLayout::HitType::Span);
        QCOMPARE(layout.find(rowOf(store, 700, alpha)).type, TimelineLayout::HitType::Marker);
        QCOMPARE(layout.find(rowOf(store, 0, alpha)).type,
                 TimelineLayout::HitType::None); // "starting"
    }

    void tooltipsSayWhatHappened()
    {
        TranscriptStore store;
        TimelineLayout layout;
        layout.setStore(&store);
        store.append(scenario());
        const int lane = layout.laneOf(alpha);
        const QString call = layout.describe(layout.hitTest(lane, T0 + 120, 0, Now), Now);
        QVERIFY2(call.contains(u"tools/call"_s) && call.contains(u"id 1"_s), qPrintable(call));
        QVERIFY2(call.contains(u"latency 50 ms"_s) && call.contains(u"outcome: ok"_s),
                 qPrintable(call));
        const QString error = layout.describe(layout.hitTest(lane, T0 + 310, 0, Now), Now);
        QVERIFY2(error.contains(u"JSON-RPC error"_s) && error.contains(u"Unknown tool"_s),
                 qPrintable(error));
        const QString reconnect = layout.describe(layout.hitTest(lane, T0 + 602, 0, Now), Now);
        QVERIFY2(reconnect.contains(u"reconnected"_s) && reconnect.contains(u"duration_ms: 92"_s) &&
                     reconnect.contains(u"to_generation: 2"_s),
                 qPrintable(reconnect));
        const QString band = layout.describe(layout.hitTest(lane, T0 + 170, 0, Now), Now);
        QVERIFY2(band.contains(u"generation 1"_s) && band.contains(u"protocol 2025-06-18"_s),
                 qPrintable(band));
    }

    void visibleRangeQueriesFindOnlyWhatIntersects()
    {
        TranscriptStore store;
        TimelineLayout layout;
        layout.setStore(&store);
        store.append(scenario());
        const int lane = layout.laneOf(alpha);
        QList<qint64> starts;
        const auto collect = [&](qint64 from, qint64 to) {
            starts.clear();
            layout.forEachSpan(
                lane, T0 + from, T0 + to, Now,
                [&](int, const TimelineLayout::Span &s) { starts << s.startMs - T0; });
        };
        collect(140, 210);
        QCOMPARE(starts, (QList<qint64>{100, 200}));
        collect(450, 460); // inside a long call that started before the range
        QCOMPARE(starts, (QList<qint64>{400}));
        collect(900, 950); // only the open call reaches there
        QCOMPARE(starts, (QList<qint64>{800}));
        collect(330, 390);
        QVERIFY(starts.isEmpty());
        int markers = 0;
        layout.forEachMarker(lane, T0 + 600, T0 + 650,
                             [&](int, const TimelineLayout::Marker &) { ++markers; });
        QCOMPARE(markers, 1);
        int bands = 0;
        layout.forEachBand(lane, T0 + 520, T0 + 590, Now,
                           [&](int, const TimelineLayout::Band &) { ++bands; });
        QCOMPARE(bands, 0); // the gap between two generations
    }

    void appendingInBatchesGivesTheSameLayoutAsAtOnce()
    {
        TranscriptStore whole, pieces;
        TimelineLayout a, b;
        a.setStore(&whole);
        b.setStore(&pieces);
        const TranscriptBatch events = scenario();
        whole.append(events);
        for (qsizetype i = 0; i < events.size(); i += 3)
            pieces.append(events.mid(i, 3));
        QCOMPARE(describeLayout(b), describeLayout(a));
        TimelineLayout rebuilt;
        rebuilt.setStore(&whole);
        QCOMPARE(describeLayout(rebuilt), describeLayout(a));
    }

    void droppingTheFrontKeepsTheLayoutConsistent()
    {
        // Capacity 10 drops a chunk of 1 row each time: every prefix of the scenario is cut.
        TranscriptStore store(10);
        TimelineLayout layout;
        layout.setStore(&store);
        QSignalSpy dropped(&store, &TranscriptStore::rowsDropped);
        const TranscriptBatch events = scenario();
        for (const TranscriptEvent &e : events) {
            store.append({e});
            verifyRows(layout, store);
            if (QTest::currentTestFailed())
                return;
            // The calls and markers that survive are what a layout of the remaining rows shows.
            TimelineLayout fresh;
            fresh.setStore(&store);
            QCOMPARE(describeLayout(layout, false), describeLayout(fresh, false));
        }
        QVERIFY(dropped.count() > 5);
        QCOMPARE(store.size(), 10);
        // Generation 2 is still the current one, though its "ready" has been dropped.
        const auto &bands = layout.bands(layout.laneOf(alpha));
        QVERIFY(!bands.isEmpty());
        QCOMPARE(bands.last().generation, 2);
        QVERIFY(bands.last().open);
        // The oldest calls went; the hit test answers with rows that are still there.
        const int lane = layout.laneOf(alpha);
        QVERIFY(layout.spans(lane).size() < 6);
        const TimelineLayout::Hit hit = layout.hitTest(lane, T0 + 900, 0, Now);
        QCOMPARE(hit.row, rowOf(store, 800, alpha));
        store.clear();
        QCOMPARE(layout.laneCount(), 0);
        QVERIFY(!layout.hasOpenSpans());
    }

    void aLargeTranscriptIsSearchedNotScanned()
    {
        TranscriptStore store(100000);
        TimelineLayout layout;
        layout.setStore(&store);
        TranscriptBatch batch;
        batch.reserve(100000);
        batch << lifecycle(0, u"ready"_s, {}, alpha, 1);
        for (int i = 0; i < 49999; ++i) {
            batch << call(10 * i + 1, i, alpha, 1);
            batch << result(10 * i + 5, i, alpha, 1, i % 100 == 0);
        }
        store.append(batch);
        QCOMPARE(layout.spans(0).size(), 49999);
        int visited = 0;
        layout.forEachSpan(0, T0 + 250000, T0 + 250100, Now,
                           [&](int, const TimelineLayout::Span &) { ++visited; });
        QCOMPARE(visited, 10);
        const TimelineLayout::Hit hit = layout.hitTest(0, T0 + 250003, 0, Now);
        QCOMPARE(hit.row, rowOf(store, 250001, alpha));
    }

    void aHundredThousandEventsPaint()
    {
        TranscriptStore store;
        TranscriptBatch batch;
        batch << lifecycle(0, u"ready"_s, {}, alpha, 1) << lifecycle(0, u"ready"_s, {}, beta, 1);
        for (int i = 0; i < 50000; ++i) {
            const QString &server = i % 2 ? beta : alpha;
            batch << call(4 * i + 1, i, server, 1);
            batch << (i % 7 ? result(4 * i + 3, i, server, 1, i % 50 == 0)
                            : rpcError(4 * i + 6, i, server, 1));
            if (i % 1000 == 0)
                batch << lifecycle(4 * i + 2, u"breaker"_s,
                                   {{"to"_L1, i % 2000 ? "open"_L1 : "closed"_L1}}, server, 1);
        }
        store.append(batch);
        TimelineWidget w;
        w.setNowFunction([] { return T0 + 200000; });
        w.resize(1200, 300);
        w.setStore(&store);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.timelineLayout()->spans(0).size() + w.timelineLayout()->spans(1).size(), 50000);
        w.fitAll();
        QImage image = renderImage(w);
        QVERIFY(imageHasColor(image, TimelineLayout::outcomeColor(Outcome::Ok)));
        w.setVisibleRange(T0 + 100000, T0 + 100500);
        image = renderImage(w);
        QVERIFY(imageHasColor(image, TimelineLayout::outcomeColor(Outcome::RpcError)));
        // A click in the middle of it still finds its call.
        const int row = rowOf(store, 100001, alpha);
        QCOMPARE(w.rowAt(w.itemRect(row).center()), row);
    }

    void theWidgetPaintsAtEveryZoom()
    {
        TranscriptStore store;
        store.append(scenario());
        TimelineWidget w;
        w.setNowFunction([] { return Now; });
        w.setStore(&store);
        w.resize(900, 260);
        w.fitAll(); // before it was ever shown: it fits once it has its size
        const QImage fitted = renderImage(w);
        QVERIFY(w.visibleStartMs() <= T0 && w.visibleStartMs() > T0 - 100);
        QVERIFY(w.visibleEndMs() >= Now && w.visibleEndMs() < Now + 100);
        // The bars are there, in their outcome colours.
        QVERIFY(imageHasColor(fitted, TimelineLayout::outcomeColor(Outcome::Ok)));
        QVERIFY(imageHasColor(fitted, TimelineLayout::outcomeColor(Outcome::ToolError)));
        QVERIFY(imageHasColor(fitted, TimelineLayout::outcomeColor(Outcome::RpcError)));
        QVERIFY(imageHasColor(fitted, TimelineLayout::markerColor(MarkerKind::BreakerOpen)));
        if (qEnvironmentVariableIsSet("SONDE_TIMELINE_PNG"))
            fitted.save(qEnvironmentVariable("SONDE_TIMELINE_PNG"));
        // Zooming in narrows the span at each step, down to a floor, and paints the widget.
        double span = w.visibleEndMs() - w.visibleStartMs();
        for (int i = 0; i < 12; ++i) {
            w.zoomIn();
            const double narrower = w.visibleEndMs() - w.visibleStartMs();
            QVERIFY2(narrower < span || narrower <= 1.0,
                     qPrintable(u"step %1: %2 ms after %3 ms"_s.arg(i).arg(narrower).arg(span)));
            span = narrower;
            QCOMPARE(renderImage(w).size(), w.size());
        }
        // Zoomed out, the whole run is in view at every step: every outcome is still drawn.
        for (int i = 0; i < 30; ++i) {
            w.zoomOut();
            const QImage out = renderImage(w);
            QVERIFY2(imageHasColor(out, TimelineLayout::outcomeColor(Outcome::Ok)) &&
                         imageHasColor(out, TimelineLayout::outcomeColor(Outcome::ToolError)),
                     qPrintable(u"zoom-out step %1"_s.arg(i)));
        }
        w.setVisibleRange(T0 + 100, T0 + 101); // deeper than a pixel per millisecond
        QCOMPARE(renderImage(w).size(), w.size());
        // Given an empty store, it draws what a new timeline with nothing recorded draws: no
        // bar of the old store is left.
        TranscriptStore empty;
        w.setStore(&empty);
        TimelineWidget fresh;
        fresh.setNowFunction([] { return Now; });
        fresh.setStore(&empty);
        fresh.resize(w.size());
        QCOMPARE(renderImage(w), renderImage(fresh));
    }

    void zoomChangesTheVisibleSpan()
    {
        TranscriptStore store;
        store.append(scenario());
        TimelineWidget w;
        w.setNowFunction([] { return Now; });
        w.setStore(&store);
        w.resize(900, 260);
        w.fitAll();
        const double fitted = w.visibleSpanMs();
        QVERIFY(fitted >= 1000 && fitted < 1300); // T0 .. now plus margins
        QVERIFY(w.visibleStartMs() <= T0 && w.visibleEndMs() >= Now);
        w.zoomIn();
        QVERIFY(qAbs(w.visibleSpanMs() - fitted / 1.5) < 1);
        QVERIFY(w.visibleEndMs() >= Now); // still following: the latest time stays in view
        w.zoomOut();
        w.zoomOut();
        QVERIFY(qAbs(w.visibleSpanMs() - fitted * 1.5) < 1);
        // The wheel zooms too, 25% a notch, plain or with Ctrl.
        const double before = w.visibleSpanMs();
        const QPointF at = w.viewport()->rect().center();
        wheel(w, at, +1);
        QVERIFY(qAbs(w.visibleSpanMs() - before / 1.25) < 1);
        wheel(w, at, -1, Qt::ControlModifier);
        QVERIFY(qAbs(w.visibleSpanMs() - before) < 1);
    }

    // The wheel while live zooms around the cursor and stops following (it snapped back to
    // now); End asks for following again.
    void aWheelZoomWhileLiveZoomsAroundTheCursorAndStopsFollowing()
    {
        TranscriptStore store;
        store.append(scenario());
        TimelineWidget w;
        w.setNowFunction([] { return Now; });
        w.setStore(&store);
        w.resize(900, 260);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.fitAll();
        QVERIFY(w.isFollowing());
        // A quarter of the way in: the time under the cursor stays under it.
        const QPointF at(w.viewport()->width() / 4.0, w.viewport()->height() / 2.0);
        const double start = w.visibleStartMs();
        const double span = w.visibleSpanMs();
        const double timeUnder = start + span * (at.x() / w.viewport()->width());
        for (int notch = 0; notch < 3; ++notch)
            wheel(w, at, +1);
        QVERIFY(!w.isFollowing());
        QVERIFY2(w.visibleEndMs() < Now, "zoomed in where the cursor is, not at now");
        const double after =
            w.visibleStartMs() + w.visibleSpanMs() * (at.x() / w.viewport()->width());
        QVERIFY2(qAbs(after - timeUnder) < span / 20,
                 qPrintable(u"%1 vs %2"_s.arg(after).arg(timeUnder)));
        QTest::keyClick(&w, Qt::Key_End);
        QVERIFY(w.isFollowing());
    }

    void panningStopsFollowingAndEndResumesIt()
    {
        TranscriptStore store;
        store.append(scenario());
        TimelineWidget w;
        qint64 now = Now;
        w.setNowFunction([&now] { return now; });
        w.setStore(&store);
        w.resize(900, 260);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setVisibleRange(T0, T0 + 400);
        QVERIFY(!w.isFollowing());
        QSignalSpy following(&w, &TimelineWidget::followingChanged);
        now += 5000;
        store.append({call(5900, 9, alpha, 2)});
        QCOMPARE(w.visibleStartMs(), T0); // panned away: new traffic does not move the view
        QTest::keyClick(&w, Qt::Key_End);
        QVERIFY(w.isFollowing());
        QCOMPARE(following.count(), 1);
        QVERIFY(w.visibleEndMs() >= now);
        QTest::keyClick(&w, Qt::Key_Left);
        QVERIFY(!w.isFollowing());
        const qint64 start = w.visibleStartMs();
        QTest::keyClick(&w, Qt::Key_Right);
        QVERIFY(w.visibleStartMs() > start);
        QVERIFY(w.isFollowing()); // back at the end
        // A drag to the right shows earlier times.
        w.zoomIn();
        const qint64 before = w.visibleStartMs();
        const QPoint from = w.viewport()->rect().center();
        QTest::mousePress(w.viewport(), Qt::LeftButton, {}, from);
        QMouseEvent move(QEvent::MouseMove, QPointF(from + QPoint(200, 0)),
                         w.viewport()->mapToGlobal(QPointF(from + QPoint(200, 0))), Qt::NoButton,
                         Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w.viewport(), &move);
        QTest::mouseRelease(w.viewport(), Qt::LeftButton, {}, from + QPoint(200, 0));
        QVERIFY(w.visibleStartMs() < before);
        QVERIFY(!w.isFollowing());
    }

    void clickingASpanOrMarkerActivatesItsRow()
    {
        TranscriptStore store;
        store.append(scenario());
        TimelineWidget w;
        w.setNowFunction([] { return Now; });
        w.setStore(&store);
        w.resize(900, 260);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.fitAll();
        QSignalSpy activated(&w, &TimelineWidget::activated);

        const int errorCall = rowOf(store, 300, alpha);
        const QRect bar = w.itemRect(errorCall);
        QVERIFY(!bar.isEmpty());
        QVERIFY(w.viewport()->rect().contains(bar.center()));
        // The response row shows the same bar.
        QCOMPARE(w.itemRect(rowOf(store, 320, alpha)), bar);
        QTest::mouseClick(w.viewport(), Qt::LeftButton, {}, bar.center());
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toInt(), errorCall);
        QCOMPARE(w.currentRow(), errorCall);
        QVERIFY(w.toolTipAt(bar.center()).contains(u"JSON-RPC error"_s));

        const int breaker = rowOf(store, 700, alpha);
        const QRect glyph = w.itemRect(breaker);
        QVERIFY(!glyph.isEmpty());
        QTest::mouseClick(w.viewport(), Qt::LeftButton, {}, glyph.center());
        QCOMPARE(activated.count(), 2);
        QCOMPARE(activated.at(1).at(0).toInt(), breaker);

        // Bars of the other lane are further down.
        const int betaCall = rowOf(store, 120, beta);
        QVERIFY(w.itemRect(betaCall).top() > bar.bottom());
        QTest::mouseClick(w.viewport(), Qt::LeftButton, {}, w.itemRect(betaCall).center());
        QCOMPARE(activated.count(), 3);
        QCOMPARE(activated.at(2).at(0).toInt(), betaCall);

        // Empty space and the label column activate nothing.
        QTest::mouseClick(w.viewport(), Qt::LeftButton, {}, QPoint(5, bar.center().y()));
        QTest::mouseClick(w.viewport(), Qt::LeftButton, {},
                          QPoint(bar.center().x(), w.viewport()->height() - 3));
        QCOMPARE(activated.count(), 3);
    }

    void droppingRowsKeepsTheWidgetConsistent()
    {
        TranscriptStore store(12);
        TimelineWidget w;
        w.setNowFunction([] { return Now; });
        w.setStore(&store);
        w.resize(900, 260);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const TranscriptBatch events = scenario();
        store.append(events.mid(0, 16));
        w.fitAll();
        const int first = rowOf(store, 300, alpha);
        w.setCurrentRow(first);
        store.append(events.mid(16));
        QVERIFY(store.size() <= 12);
        verifyRows(*w.timelineLayout(), store);
        // The current row moved with its event, or went with it.
        QVERIFY(w.currentRow() == rowOf(store, 300, alpha));
        QVERIFY(!renderImage(w).isNull());
        w.fitAll();
        QSignalSpy activated(&w, &TimelineWidget::activated);
        const int open = rowOf(store, 800, alpha);
        QVERIFY(open >= 0);
        QTest::mouseClick(w.viewport(), Qt::LeftButton, {}, w.itemRect(open).center());
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toInt(), open);
        QCOMPARE(store.event(open).timeMs, T0 + 800);
    }
};

QTEST_MAIN(TestTimelineWidget)
#include "tst_timelinewidget.moc"
