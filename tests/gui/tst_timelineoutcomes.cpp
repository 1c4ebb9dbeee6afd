// SPDX-License-Identifier: MIT
// The timeline tells each call's outcome right: one row per outcome, each fed with the
// transcript lines the real engine writes for it (their shapes copied from sonde-cli
// --transcript runs against sonde-demo-server with the faults that cause them), checking
// the bar's outcome, where it ends and what its tooltip says; the breaker's refusal as a
// mark; the legend beside the lanes listing every outcome; colours that stay apart and
// readable on a light and on a dark base.
#include "application/timeline/timelinelayout.h"
#include "application/timeline/timelinelegend.h"
#include "application/transcript/transcriptstore.h"
#include "timeline/timelinewidget.h"

#include <QJsonDocument>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

#include <cmath>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

using Direction = TranscriptEvent::Direction;
constexpr qint64 T0 = 1796131880000; // a run of 2026-12-01
const QString Server = u"sonde-demo-server"_s;

TranscriptEvent wire(qint64 t, Direction dir, const QByteArray &raw, int generation)
{
    TranscriptEvent e;
    e.timeMs = T0 + t;
    e.server = Server;
    e.generation = generation;
    e.direction = dir;
    e.raw = raw;
    return e;
}

TranscriptEvent send(qint64 t, int id, int generation, const QByteArray &tool = "echo",
                     int ticket = 2)
{
    return wire(t, Direction::Outgoing,
                "{\"id\":" + QByteArray::number(id) +
                    ",\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"_meta\":{"
                    "\"progressToken\":\"sonde-" +
                    QByteArray::number(ticket) + "\"},\"arguments\":{},\"name\":\"" + tool + "\"}}",
                generation);
}

TranscriptEvent recv(qint64 t, const QByteArray &body, int generation)
{
    return wire(t, Direction::Incoming, body, generation);
}

TranscriptEvent answer(qint64 t, int id, int generation, bool isError = false)
{
    return recv(t,
                "{\"id\":" + QByteArray::number(id) +
                    ",\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"counter = 1\","
                    "\"type\":\"text\"}]" +
                    (isError ? ",\"isError\":true" : "") + "}}",
                generation);
}

TranscriptEvent cancelled(qint64 t, int id, int generation, const QByteArray &reason)
{
    return wire(t, Direction::Outgoing,
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{"
                "\"reason\":\"" +
                    reason + "\",\"requestId\":" + QByteArray::number(id) + "}}",
                generation);
}

// A lifecycle line as the transcript has it: the supervisor's (history) entries carry "type"
// and "t_ms" in their details and their typed form, the session's do not.
TranscriptEvent lifecycle(qint64 t, const QString &name, const QJsonObject &details, int generation)
{
    TranscriptEvent e = wire(t, Direction::Lifecycle, {}, generation);
    e.kind = eventKindFromName(name);
    e.event = name;
    QJsonObject d = details;
    if (d.contains("type"_L1))
        d.insert("t_ms"_L1, T0 + t);
    e.details = std::make_shared<const LifecycleDetails>(LifecycleDetails::fromJson(name, d));
    return e;
}

QJsonObject history(const QString &type, QJsonObject o)
{
    o.insert("type"_L1, type);
    return o;
}

// The session up to a first call: a ready generation 1.
TranscriptBatch connected()
{
    return {
        lifecycle(0, u"ready"_s, {{"protocol_version"_L1, "2025-11-25"_L1}}, 1),
        lifecycle(0, u"session-start"_s,
                  history(u"session-start"_s, {{"generation"_L1, 1}, {"transport"_L1, "stdio"_L1}}),
                  1)};
}

// expire-after-dispatch: the server's answer arrives and is withheld, the call fails with an
// injected expiry, the session is replaced by generation 2.
TranscriptBatch expiredAfterDispatch(const QByteArray &tool)
{
    return {
        send(100, 2, 1, tool),
        answer(130, 2, 1),
        lifecycle(
            130, u"fault-expire-after-dispatch"_s,
            {{"id"_L1, 2}, {"note"_L1, "the server ran the request; its answer is replaced"_L1}},
            1),
        lifecycle(130, u"request-failed"_s,
                  {{"id"_L1, 2},
                   {"kind"_L1, "injected"_L1},
                   {"message"_L1, "Invalid or expired session (injected fault)"_L1},
                   {"method"_L1, "tools/call"_L1}},
                  1),
        lifecycle(130, u"classification"_s,
                  history(u"classification"_s, {{"expired"_L1, true},
                                                {"generation"_L1, 1},
                                                {"method"_L1, "tools/call"_L1},
                                                {"rule"_L1, "text-marker"_L1}}),
                  1),
        lifecycle(130, u"restarting"_s, {{"cause"_L1, "session expired (text-marker)"_L1}}, 1),
        lifecycle(160, u"ready"_s, {{"protocol_version"_L1, "2025-11-25"_L1}}, 2),
        lifecycle(160, u"session-start"_s, history(u"session-start"_s, {{"generation"_L1, 2}}), 2),
        lifecycle(160, u"reconnect"_s,
                  history(u"reconnect"_s, {{"duration_ms"_L1, 30},
                                           {"from_generation"_L1, 1},
                                           {"outcome"_L1, "ok"_L1},
                                           {"to_generation"_L1, 2}}),
                  2)};
}

QJsonObject verdict(const QString &type, const QString &tool, QJsonObject o)
{
    o.insert("request_id"_L1, 2);
    o.insert("generation"_L1, 1);
    o.insert("method"_L1, "tools/call"_L1);
    o.insert("tool"_L1, tool);
    o.insert("ticket"_L1, 2);
    o.insert("progress_token"_L1, "sonde-2"_L1);
    return history(type, o);
}

// A read-only call of generation 1 sent again as id 9 on generation 2, and answered there.
TranscriptBatch replayedRead()
{
    return connected() + expiredAfterDispatch("get-counter") +
           TranscriptBatch{send(180, 9, 2, "get-counter"),
                           lifecycle(180, u"sent-again"_s,
                                     verdict(u"sent-again"_s, u"get-counter"_s,
                                             {{"rule"_L1, "text-marker"_L1},
                                              {"new_request_id"_L1, 9},
                                              {"new_generation"_L1, 2}}),
                                     2),
                           answer(182, 9, 2)};
}

// A multi round-trip call (2026-07-28): tools/call answered input_required, the input-required
// event linking it to the retry that carries inputResponses, and that retry.
TranscriptEvent callNeedingInput(qint64 t, int id)
{
    return send(t, id, 1, "confirm-delete");
}

TranscriptEvent inputRequiredAnswer(qint64 t, int id)
{
    return recv(t,
                "{\"id\":" + QByteArray::number(id) +
                    ",\"jsonrpc\":\"2.0\",\"result\":{\"inputRequests\":{\"confirm\":{"
                    "\"method\":\"elicitation/create\",\"params\":{\"message\":\"Delete?\"}}},"
                    "\"requestState\":\"opaque-" +
                    QByteArray::number(id) + "\",\"resultType\":\"input_required\"}}",
                1);
}

TranscriptEvent inputRequired(qint64 t, int id, int next, int round)
{
    return lifecycle(t, u"input-required"_s,
                     {{"id"_L1, id},
                      {"next_id"_L1, next},
                      {"round"_L1, round},
                      {"method"_L1, "tools/call"_L1},
                      {"name"_L1, "confirm-delete"_L1},
                      {"requests"_L1, QJsonObject{{"confirm"_L1, "elicitation/create"_L1}}}},
                     1);
}

TranscriptEvent retryWithInput(qint64 t, int id, int answered)
{
    return wire(t, Direction::Outgoing,
                "{\"id\":" + QByteArray::number(id) +
                    ",\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"arguments\":{}"
                    ",\"inputResponses\":{\"confirm\":{\"action\":\"accept\"}},\"name\":"
                    "\"confirm-delete\",\"requestState\":\"opaque-" +
                    QByteArray::number(answered) + "\"}}",
                1);
}

double luminance(const QColor &c)
{
    const auto lin = [](double v) {
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
}

double contrast(const QColor &a, const QColor &b)
{
    const double la = luminance(a), lb = luminance(b);
    return (qMax(la, lb) + 0.05) / (qMin(la, lb) + 0.05);
}

// CIE76 distance in L*a*b*: above about 20 two swatches read as different colours.
double distance(const QColor &a, const QColor &b)
{
    const auto lab = [](const QColor &c) {
        const auto lin = [](double v) {
            return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        };
        const double r = lin(c.redF()), g = lin(c.greenF()), bl = lin(c.blueF());
        const double x = (0.4124 * r + 0.3576 * g + 0.1805 * bl) / 0.95047;
        const double y = 0.2126 * r + 0.7152 * g + 0.0722 * bl;
        const double z = (0.0193 * r + 0.1192 * g + 0.9505 * bl) / 1.08883;
        const auto f = [](double t) {
            return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116;
        };
        return std::array<double, 3>{116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
    };
    const auto p = lab(a), q = lab(b);
    return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

// What the legend and the tooltips call the outcomes the issue lists.
const QStringList OutcomeNames = {
    u"ok"_s,        u"tool error"_s,        u"JSON-RPC error"_s, u"HTTP error"_s,  u"cancelled"_s,
    u"timed out"_s, u"outcome uncertain"_s, u"sent again"_s,     u"no response"_s, u"open"_s};

} // namespace

class TestTimelineOutcomes : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The 2026-07-28 listen stream is the session's stream, not a call: it is drawn on the
    // stream track at the lane's foot (not in a call's row, where it took the first row for
    // the whole session), says what it is, and is not "no response" when the session ends.
    void theListenStreamIsTheSessionsStreamNotACall()
    {
        TranscriptStore store;
        TimelineWidget w;
        w.setStore(&store);
        w.setNowFunction([] { return T0 + 5000; });
        w.resize(900, 300);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const TranscriptEvent listen = wire(
            50, Direction::Outgoing,
            R"({"id":3,"jsonrpc":"2.0","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true}}})",
            1);
        store.append(connected() + TranscriptBatch{listen, send(100, 4, 1), answer(130, 4, 1)});
        const auto &spans = w.timelineLayout()->spans(0);
        QCOMPARE(spans.size(), 2);
        QCOMPARE(spans.at(0).track, TimelineLayout::StreamTrack);
        QCOMPARE(spans.at(1).track, 0); // the call takes the first row, not the stream
        const QRect stream = w.itemRect(spans.at(0).requestRow);
        const QRect call = w.itemRect(spans.at(1).requestRow);
        QVERIFY2(stream.top() > call.bottom(), "the stream is below the calls");
        QVERIFY(stream.height() <= 5);
        const QString tip = TimelineLegend::describe(
            *w.timelineLayout(),
            TimelineLayout::Hit{TimelineLayout::HitType::Span, 0, 0, spans.at(0).requestRow},
            T0 + 5000);
        QVERIFY2(tip.contains(u"the session's listen stream"_s), qPrintable(tip));
        QVERIFY2(!tip.contains(u"outcome:"_s), qPrintable(tip));
    }

    // An 8 ms "outcome uncertain" next to the reconnect marker it caused stays visible at
    // the default scale: drawn over the marker's tick, at least 6 px wide.
    void aShortUncertainCallIsVisibleOverItsReconnectMarker()
    {
        TranscriptStore store;
        TimelineWidget w;
        w.setStore(&store);
        w.setNowFunction([] { return T0 + 600'000; });
        w.resize(900, 300);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        store.append(connected() + expiredAfterDispatch("increment-counter") +
                     TranscriptBatch{lifecycle(
                         175, u"outcome-uncertain"_s,
                         verdict(u"outcome-uncertain"_s, u"increment-counter"_s,
                                 {{"rule"_L1, "text-marker"_L1}, {"reconnect"_L1, "ok"_L1}}),
                         2)});
        // Ten minutes: 8 ms is far below a pixel.
        w.setVisibleRange(T0 - 60'000, T0 + 540'000);
        const auto &spans = w.timelineLayout()->spans(0);
        QCOMPARE(spans.at(0).outcome, TimelineLayout::Outcome::Uncertain);
        const QRect r = w.itemRect(spans.at(0).requestRow);
        const QImage shot = w.viewport()->grab().toImage();
        if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty())
            w.grab().save(dir + u"/timeline-short-uncertain.png"_s);
        const QColor uncertain = TimelineLayout::outcomeColor(TimelineLayout::Outcome::Uncertain);
        int seen = 0;
        for (int x = r.left() - 2; x <= r.left() + 6; ++x)
            seen += shot.pixelColor(x, r.center().y()).rgb() == uncertain.rgb();
        QVERIFY2(seen >= 3, qPrintable(u"%1 px of the uncertain colour"_s.arg(seen)));
    }

    void eachOutcomeHasItsEndAndItsWords_data()
    {
        QTest::addColumn<TranscriptBatch>("events");
        QTest::addColumn<qint64>("start");
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<qint64>("end");
        QTest::addColumn<qint64>("now");
        QTest::addColumn<QStringList>("says");

        QTest::newRow("an answered call is ok, its latency said")
            << connected() + TranscriptBatch{send(100, 2, 1), answer(150, 2, 1)} << 100LL << u"ok"_s
            << 150LL << 1000LL << QStringList{u"latency 50 ms"_s, u"outcome: ok"_s};
        QTest::newRow("a result with isError is a tool error")
            << connected() + TranscriptBatch{send(100, 2, 1, "fail"), answer(150, 2, 1, true)}
            << 100LL << u"tool error"_s << 150LL << 1000LL << QStringList{u"outcome: tool error"_s};
        QTest::newRow("a JSON-RPC error response is a protocol error")
            << connected() +
                   TranscriptBatch{send(100, 2, 1),
                                   recv(120,
                                        "{\"error\":{\"code\":-32602,\"message\":\"Unknown tool: "
                                        "nope\"},\"id\":2,\"jsonrpc\":\"2.0\"}",
                                        1)}
            << 100LL << u"JSON-RPC error"_s << 120LL << 1000LL
            << QStringList{u"outcome: JSON-RPC error"_s, u"Unknown tool"_s};
        QTest::newRow("an instant HTTP 503 ends at the error and says HTTP 503")
            << connected() +
                   TranscriptBatch{
                       send(100, 2, 1),
                       lifecycle(101, u"fault-http-status"_s, {{"status"_L1, 503}}, 1),
                       lifecycle(
                           101, u"request-failed"_s,
                           {{"http_status"_L1, 503},
                            {"id"_L1, 2},
                            {"kind"_L1, "transport"_L1},
                            {"message"_L1,
                             "POST http://127.0.0.1:45127/mcp (injected) answered HTTP 503"_L1},
                            {"method"_L1, "tools/call"_L1}},
                           1),
                       lifecycle(101, u"classification"_s,
                                 history(u"classification"_s, {{"expired"_L1, false},
                                                               {"generation"_L1, 1},
                                                               {"method"_L1, "tools/call"_L1},
                                                               {"rule"_L1, "no-signal"_L1}}),
                                 1)}
            << 100LL << u"HTTP error"_s << 101LL << 40000LL
            << QStringList{u"HTTP 503"_s, u"outcome: HTTP error"_s};
        QTest::newRow("a call cancelled at 2.6 s ends there and says cancelled")
            << connected() + TranscriptBatch{send(100, 2, 1, "slow-task"),
                                             cancelled(2700, 2, 1, "cancelled by the user")}
            << 100LL << u"cancelled"_s << 2700LL << 24100LL
            << QStringList{u"cancelled after 2.6 s"_s, u"cancelled by the user"_s};
        QTest::newRow("a cancelled call stays cancelled when its session later expires")
            << connected() +
                   TranscriptBatch{
                       send(100, 2, 1, "slow-task"), cancelled(2700, 2, 1, "cancelled by step 3"),
                       lifecycle(5000, u"closed"_s, {{"exit_code"_L1, 0}}, 1),
                       lifecycle(5000, u"classification"_s,
                                 history(u"classification"_s, {{"expired"_L1, true},
                                                               {"generation"_L1, 1},
                                                               {"method"_L1, "tools/call"_L1},
                                                               {"rule"_L1, "transport-closed"_L1}}),
                                 1)}
            << 100LL << u"cancelled"_s << 2700LL << 24100LL << QStringList{u"outcome: cancelled"_s};
        QTest::newRow("a call that timed out ends at the timeout, whatever comes later")
            << connected() +
                   TranscriptBatch{
                       send(100, 2, 1),
                       lifecycle(
                           1100, u"request-timed-out"_s,
                           {{"after_ms"_L1, 1000}, {"id"_L1, 2}, {"method"_L1, "tools/call"_L1}},
                           1),
                       cancelled(1100, 2, 1, "tools/call timed out after 1000 ms"),
                       answer(2600, 2, 1),
                       lifecycle(2600, u"late-response-ignored"_s, {{"id"_L1, 2}}, 1),
                       lifecycle(3900, u"outcome-uncertain"_s,
                                 verdict(u"outcome-uncertain"_s, u"echo"_s,
                                         {{"rule"_L1, "timeout"_L1}, {"reconnect"_L1, "ok"_L1}}),
                                 1)}
            << 100LL << u"timed out"_s << 1100LL << 5000LL
            << QStringList{u"timed out after 1 s"_s, u"outcome uncertain"_s};
        QTest::newRow("a write whose answer was lost ends at the expiry and is uncertain")
            << connected() + expiredAfterDispatch("increment-counter") +
                   TranscriptBatch{lifecycle(
                       175, u"outcome-uncertain"_s,
                       verdict(u"outcome-uncertain"_s, u"increment-counter"_s,
                               {{"rule"_L1, "text-marker"_L1}, {"reconnect"_L1, "ok"_L1}}),
                       2)}
            << 100LL << u"outcome uncertain"_s << 130LL << 1000LL
            << QStringList{u"outcome: outcome uncertain"_s, u"not sent again"_s, u"text-marker"_s};
        QTest::newRow("a read whose answer was lost ends at the expiry, sent again")
            << replayedRead() << 100LL << u"sent again"_s << 130LL << 1000LL
            << QStringList{u"sent again as id 9 on generation 2"_s};
        QTest::newRow("the call sent again is a normal call that names the original")
            << replayedRead() << 180LL << u"ok"_s << 182LL << 1000LL
            << QStringList{u"sent again for id 2 of generation 1"_s};
        QTest::newRow("a call whose process died under it has no response")
            << connected() + TranscriptBatch{send(100, 2, 1, "crash"),
                                             lifecycle(200, u"closed"_s, {{"exit_code"_L1, 1}}, 1)}
            << 100LL << u"no response"_s << 200LL << 1000LL
            << QStringList{u"outcome: no response"_s};
        QTest::newRow("a call still waiting is open up to now")
            << connected() + TranscriptBatch{send(100, 2, 1, "slow-task")} << 100LL << u"open"_s
            << 100LL << 3100LL << QStringList{u"open for 3 s"_s};
    }
    void eachOutcomeHasItsEndAndItsWords()
    {
        QFETCH(TranscriptBatch, events);
        QFETCH(qint64, start);
        QFETCH(QString, outcome);
        QFETCH(qint64, end);
        QFETCH(qint64, now);
        QFETCH(QStringList, says);
        TranscriptStore store;
        TimelineLayout layout;
        layout.setStore(&store);
        store.append(events);
        QCOMPARE(layout.laneCount(), 1);
        const auto &spans = layout.spans(0);
        int index = -1;
        for (int i = 0; i < spans.size(); ++i)
            if (spans.at(i).startMs == T0 + start)
                index = i;
        QVERIFY(index >= 0);
        const TimelineLayout::Span &span = spans.at(index);
        QCOMPARE(TimelineLayout::outcomeName(span.outcome), outcome);
        QCOMPARE(TimelineLayout::spanEndMs(span, T0 + now) - T0, outcome == "open"_L1 ? now : end);
        const QString tip =
            layout.describe({TimelineLayout::HitType::Span, 0, index, span.requestRow}, T0 + now);
        for (const QString &words : says)
            QVERIFY2(tip.contains(words), qPrintable(u"\"%1\" not in:\n%2"_s.arg(words, tip)));
        // A call sent again is linked to the request it was sent as.
        if (outcome == "sent again"_L1) {
            QVERIFY(span.replayRow >= 0);
            QCOMPARE(store.entry(span.replayRow).id, u"9"_s);
        }
        // Nothing that has ended keeps the view "live".
        QCOMPARE(layout.hasOpenSpans(), outcome == "open"_L1);
    }

    void aMultiRoundTripCallIsOneCallWithSeveralLegs_data()
    {
        QTest::addColumn<TranscriptBatch>("events");
        QTest::addColumn<QList<qint64>>("legStarts");
        QTest::addColumn<QList<qint64>>("rounds"); // the input-required marks
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<QStringList>("firstLegSays");

        QTest::newRow("the event written as the retry goes out links the legs")
            << connected() + TranscriptBatch{callNeedingInput(100, 5), inputRequiredAnswer(150, 5),
                                             inputRequired(900, 5, 6, 1), retryWithInput(900, 6, 5),
                                             answer(950, 6, 1)}
            << QList<qint64>{100, 900} << QList<qint64>{900} << u"ok"_s
            << QStringList{u"multi round-trip call: leg 1 of 2"_s,
                           u"answered input_required; the input went as id 6"_s,
                           u"outcome of the call: ok (its last leg, id 6)"_s};
        QTest::newRow("a retry already on the wire is linked when the event comes")
            << connected() + TranscriptBatch{callNeedingInput(100, 5), inputRequiredAnswer(150, 5),
                                             retryWithInput(900, 6, 5), inputRequired(901, 5, 6, 1),
                                             answer(950, 6, 1)}
            << QList<qint64>{100, 900} << QList<qint64>{901} << u"ok"_s
            << QStringList{u"leg 1 of 2"_s, u"the input went as id 6"_s};
        QTest::newRow("two rounds make three legs and two marks")
            << connected() +
                   TranscriptBatch{callNeedingInput(100, 5),    inputRequiredAnswer(150, 5),
                                   inputRequired(150, 5, 6, 1), retryWithInput(700, 6, 5),
                                   inputRequiredAnswer(750, 6), inputRequired(750, 6, 7, 2),
                                   retryWithInput(1300, 7, 6),  answer(1350, 7, 1)}
            << QList<qint64>{100, 700, 1300} << QList<qint64>{150, 750} << u"ok"_s
            << QStringList{u"leg 1 of 3"_s, u"its last leg, id 7"_s};
        QTest::newRow("the last leg's tool error is the whole call's outcome")
            << connected() + TranscriptBatch{callNeedingInput(100, 5), inputRequiredAnswer(150, 5),
                                             inputRequired(150, 5, 6, 1), retryWithInput(900, 6, 5),
                                             answer(950, 6, 1, true)}
            << QList<qint64>{100, 900} << QList<qint64>{150} << u"tool error"_s
            << QStringList{u"outcome of the call: tool error"_s};
        QTest::newRow("a call waiting for the user's input is open")
            << connected() + TranscriptBatch{callNeedingInput(100, 5), inputRequiredAnswer(150, 5),
                                             inputRequired(150, 5, 6, 1)}
            << QList<qint64>{100} << QList<qint64>{150} << u"open"_s
            << QStringList{u"leg 1 of 1 so far"_s, u"waiting for the input"_s};
    }
    void aMultiRoundTripCallIsOneCallWithSeveralLegs()
    {
        QFETCH(TranscriptBatch, events);
        QFETCH(QList<qint64>, legStarts);
        QFETCH(QList<qint64>, rounds);
        QFETCH(QString, outcome);
        QFETCH(QStringList, firstLegSays);
        TranscriptStore store;
        TimelineLayout layout;
        layout.setStore(&store);
        store.append(events);
        const auto &spans = layout.spans(0);
        QCOMPARE(spans.size(), legStarts.size());
        for (int i = 0; i < spans.size(); ++i) {
            const TimelineLayout::Span &leg = spans.at(i);
            QCOMPARE(leg.startMs - T0, legStarts.at(i));
            QCOMPARE(int(leg.leg), i);
            // One row: every leg on the first one's track.
            QCOMPARE(leg.track, spans.first().track);
            QCOMPARE(leg.firstLegRow, i == 0 ? -1 : spans.first().requestRow);
            QCOMPARE(leg.nextLegRow, i + 1 < spans.size() ? spans.at(i + 1).requestRow : -1);
            // The call's outcome, from whichever leg.
            QCOMPARE(TimelineLayout::outcomeName(layout.callOutcome(0, i)), outcome);
            QCOMPARE(layout.lastLegIndex(0, i), int(spans.size() - 1));
        }
        // An answered leg ends at its answer, not at the next leg.
        if (spans.size() > 1)
            QCOMPARE(spans.first().endMs - T0, 150);
        QList<qint64> marks;
        for (const TimelineLayout::Marker &m : layout.markers(0))
            if (m.kind == TimelineLayout::MarkerKind::InputRequired)
                marks.append(m.timeMs - T0);
        QCOMPARE(marks, rounds);
        const QString tip = layout.describe(
            {TimelineLayout::HitType::Span, 0, 0, spans.first().requestRow}, T0 + 2000);
        for (const QString &words : firstLegSays)
            QVERIFY2(tip.contains(words), qPrintable(u"\"%1\" not in:\n%2"_s.arg(words, tip)));
        QCOMPARE(layout.hasOpenSpans(), outcome == "open"_L1);
        // The mark says what was asked, in words.
        const int mark = layout.markerAt(0, T0 + rounds.first(), 0);
        QVERIFY(mark >= 0);
        const QString markTip = layout.describe(
            {TimelineLayout::HitType::Marker, 0, mark, layout.markers(0).at(mark).row}, T0 + 2000);
        QVERIFY2(markTip.contains(u"input required: tools/call confirm-delete #5 asked for "
                                  "elicitation/create (confirm), round 1"_s),
                 qPrintable(markTip));
    }

    // The store drops its oldest rows: the links between legs move with their rows, and a
    // leg that went leaves the rest of its call whole.
    void theLegsFollowTheirRowsWhenTheFrontIsDropped()
    {
        TranscriptStore store(10); // drops one row at a time
        TimelineLayout layout;
        layout.setStore(&store);
        store.append(connected() + TranscriptBatch{callNeedingInput(100, 5),
                                                   inputRequiredAnswer(150, 5),
                                                   inputRequired(150, 5, 6, 1)});
        const auto note = [](qint64 t) {
            return wire(t, Direction::Incoming,
                        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}", 1);
        };
        // Two of the session's first rows go; the call still waits for its next leg.
        store.append({note(200), note(201), note(202), note(203), note(204)});
        store.append({retryWithInput(900, 6, 5), answer(950, 6, 1)});
        QCOMPARE(store.size(), 10);
        auto spans = layout.spans(0);
        QCOMPARE(spans.size(), 2);
        QCOMPARE(store.entry(spans.at(0).requestRow).id, u"5"_s);
        QCOMPARE(spans.at(0).nextLegRow, spans.at(1).requestRow);
        QCOMPARE(spans.at(1).firstLegRow, spans.at(0).requestRow);
        QCOMPARE(store.entry(spans.at(1).requestRow).id, u"6"_s);
        QCOMPARE(layout.callOutcome(0, 0), TimelineLayout::Outcome::Ok);
        QVERIFY(!layout.hasOpenSpans());
        // The first leg goes: the last one is still the call's second leg, and its outcome.
        store.append({note(960), note(961)});
        spans = layout.spans(0);
        QCOMPARE(spans.size(), 1);
        QCOMPARE(store.entry(spans.at(0).requestRow).id, u"6"_s);
        QCOMPARE(spans.at(0).firstLegRow, -1);
        QCOMPARE(int(spans.at(0).leg), 1);
        QCOMPARE(layout.lastLegIndex(0, 0), 0);
        QCOMPARE(layout.callOutcome(0, 0), TimelineLayout::Outcome::Ok);
    }

    // Drawn: the gap between two legs (while the user answered) is the call's colour, not
    // the lane's background.
    void theLegsOfACallAreJoinedOnScreen()
    {
        TranscriptStore store;
        TimelineWidget w;
        w.setStore(&store);
        w.setNowFunction([] { return T0 + 1200; });
        w.resize(900, 300);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        store.append(connected() + TranscriptBatch{callNeedingInput(100, 5),
                                                   inputRequiredAnswer(150, 5),
                                                   inputRequired(150, 5, 6, 1),
                                                   retryWithInput(900, 6, 5), answer(950, 6, 1)});
        w.setVisibleRange(T0, T0 + 1200);
        const auto &spans = w.timelineLayout()->spans(0);
        QCOMPARE(spans.size(), 2);
        const QRect first = w.itemRect(spans.at(0).requestRow);
        const QRect second = w.itemRect(spans.at(1).requestRow);
        QVERIFY(first.right() + 20 < second.left());
        QCOMPARE(first.center().y(), second.center().y());
        const QImage shot = w.viewport()->grab().toImage();
        // For looking at: SONDE_SCREENSHOT_DIR=dir saves it as dir/timeline-mrtr.png.
        if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty())
            w.grab().save(dir + u"/timeline-mrtr.png"_s);
        const QPoint gap((first.right() + second.left()) / 2, first.center().y());
        QCOMPARE(shot.pixelColor(gap).rgb(),
                 TimelineLayout::outcomeColor(TimelineLayout::Outcome::Ok).rgb());
        // Above the join, inside the track: background.
        QVERIFY(shot.pixelColor(gap.x(), first.top() + 1).rgb() !=
                TimelineLayout::outcomeColor(TimelineLayout::Outcome::Ok).rgb());
    }

    void aCallRefusedByTheBreakerIsAShortMarkAtTheRefusal()
    {
        TranscriptStore store;
        TimelineLayout layout;
        layout.setStore(&store);
        store.append(
            connected() +
            TranscriptBatch{
                lifecycle(300, u"breaker"_s,
                          history(u"breaker"_s, {{"cause"_L1, "tripped by hand: user"_L1},
                                                 {"from"_L1, "closed"_L1},
                                                 {"strikes"_L1, 3},
                                                 {"threshold"_L1, 3},
                                                 {"to"_L1, "open"_L1}}),
                          1),
                lifecycle(
                    400, u"breaker-refused"_s,
                    history(u"breaker-refused"_s,
                            {{"cause"_L1,
                              "sonde-demo-server's circuit breaker is open because it was tripped "
                              "by hand (user): the call was not sent; retry in 60 s"_L1},
                             {"method"_L1, "tools/call"_L1},
                             {"progress_token"_L1, "sonde-6"_L1},
                             {"retry_in_s"_L1, 60},
                             {"ticket"_L1, 6},
                             {"tool"_L1, "echo"_L1}}),
                    1)});
        QVERIFY(layout.spans(0).isEmpty()); // nothing went on the wire
        const auto &markers = layout.markers(0);
        int index = -1;
        for (int i = 0; i < markers.size(); ++i)
            if (markers.at(i).timeMs == T0 + 400)
                index = i;
        QVERIFY(index >= 0);
        QCOMPARE(TimelineLayout::markerName(markers.at(index).kind), u"refused by the breaker"_s);
        const QString tip = layout.describe(
            {TimelineLayout::HitType::Marker, 0, index, markers.at(index).row}, T0 + 1000);
        for (const QString &words :
             {u"not sent"_s, u"echo"_s, u"tripped by hand"_s, u"retry in 60 s"_s})
            QVERIFY2(tip.contains(words), qPrintable(u"\"%1\" not in:\n%2"_s.arg(words, tip)));
    }

    void theLegendBesideTheLanesListsEveryOutcome()
    {
        TimelineWidget w;
        w.resize(900, 300);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *legend = w.findChild<QWidget *>(u"timelineLegend"_s);
        QVERIFY(legend);
        QVERIFY(legend->isVisible());
        QVERIFY(!legend->accessibleName().isEmpty());
        // Below the lanes, inside the widget, not over them.
        QVERIFY(legend->height() > 0);
        QVERIFY(w.rect().contains(legend->geometry()));
        QVERIFY(!legend->geometry().intersects(w.viewport()->geometry()));
        const QStringList entries = legend->property("entries").toStringList();
        for (const QString &name : OutcomeNames + QStringList{u"refused by the breaker"_s})
            QVERIFY2(entries.contains(name),
                     qPrintable(name + u" not in "_s + entries.join(u", ")));
        // Every entry of the legend is drawn: none is cut off at this width.
        const QVariantList rects = legend->property("entryRects").toList();
        QCOMPARE(rects.size(), entries.size());
        for (const QVariant &r : rects)
            QVERIFY(legend->rect().contains(r.toRect()));
    }

    void outcomeColoursStayApartAndReadableOnLightAndDark()
    {
        const QColor light(0xff, 0xff, 0xff);
        const QColor dark(0x23, 0x26, 0x29);
        QList<QPair<QString, QColor>> colours;
        for (int i = 0; !TimelineLayout::outcomeName(TimelineLayout::Outcome(i)).isEmpty(); ++i)
            colours.append({TimelineLayout::outcomeName(TimelineLayout::Outcome(i)),
                            TimelineLayout::outcomeColor(TimelineLayout::Outcome(i))});
        QCOMPARE(colours.size(), OutcomeNames.size());
        for (int k = 0; !TimelineLayout::markerName(TimelineLayout::MarkerKind(k)).isEmpty(); ++k)
            if (TimelineLayout::markerName(TimelineLayout::MarkerKind(k)) ==
                "refused by the breaker"_L1)
                colours.append({TimelineLayout::markerName(TimelineLayout::MarkerKind(k)),
                                TimelineLayout::markerColor(TimelineLayout::MarkerKind(k))});
        QCOMPARE(colours.size(), OutcomeNames.size() + 1);
        for (const auto &[name, c] : colours) {
            // WCAG's 3:1 for graphics, against both bases.
            QVERIFY2(contrast(c, light) >= 3.0, qPrintable(name + u" on light"_s));
            QVERIFY2(contrast(c, dark) >= 3.0, qPrintable(name + u" on dark"_s));
        }
        for (int i = 0; i < colours.size(); ++i)
            for (int j = i + 1; j < colours.size(); ++j)
                QVERIFY2(distance(colours.at(i).second, colours.at(j).second) >= 20,
                         qPrintable(colours.at(i).first + u" and "_s + colours.at(j).first));
    }
};

QTEST_MAIN(TestTimelineOutcomes)
#include "tst_timelineoutcomes.moc"
