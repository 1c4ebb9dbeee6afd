// SPDX-License-Identifier: MIT
// The transcript: its bounded store (pairing, latency, summaries), the table model and the
// filter proxy under QAbstractItemModelTester, and the JSONL / Markdown exports.
#include "application/transcript/transcriptexporter.h"
#include "application/transcript/transcriptfilterproxymodel.h"
#include "application/transcript/transcriptmodel.h"
#include "application/transcript/transcriptstore.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

// JSON test data without raw strings (moc cannot read raw string literals).
#define JSON_TEXT(...) #__VA_ARGS__

namespace {

using Direction = TranscriptEvent::Direction;
using Events = QList<TranscriptEvent>;
constexpr qint64 T0 = 1700000000000; // 2023-11-14, any fixed instant will do

TranscriptEvent wire(qint64 t, Direction dir, const QByteArray &raw,
                     const QString &server = u"alpha"_s, int generation = 1)
{
    TranscriptEvent e;
    e.timeMs = T0 + t;
    e.server = server;
    e.generation = generation;
    e.direction = dir;
    e.raw = raw;
    return e;
}

TranscriptEvent send(qint64 t, const QByteArray &raw, const QString &server = u"alpha"_s,
                     int generation = 1)
{
    return wire(t, Direction::Outgoing, raw, server, generation);
}

TranscriptEvent recv(qint64 t, const QByteArray &raw, const QString &server = u"alpha"_s,
                     int generation = 1)
{
    return wire(t, Direction::Incoming, raw, server, generation);
}

TranscriptEvent stderrLine(qint64 t, const QByteArray &line, const QString &server = u"alpha"_s)
{
    return wire(t, Direction::Stderr, line, server);
}

TranscriptEvent lifecycle(qint64 t, const QString &event, const QJsonObject &details = {},
                          const QString &server = u"alpha"_s)
{
    TranscriptEvent e = wire(t, Direction::Lifecycle, {}, server);
    e.event = event;
    e.details =
        std::make_shared<const LifecycleDetails>(LifecycleDetails::fromJson(event, details));
    return e;
}

TranscriptEvent violation(qint64 t, const QString &what, const QByteArray &raw,
                          const QString &server = u"alpha"_s)
{
    TranscriptEvent e = wire(t, Direction::Violation, raw, server);
    e.event = what;
    return e;
}

QJsonObject modernEra()
{
    return {{"era"_L1, "modern"_L1},
            {"reason"_L1, "server/discover offered 2026-07-28"_L1},
            {"protocol_version"_L1, "2026-07-28"_L1},
            {"supported"_L1, QJsonArray{u"2026-07-28"_s, u"2025-11-25"_s}}};
}

QJsonObject inputRequiredDetails()
{
    return {{"id"_L1, 5},
            {"next_id"_L1, 6},
            {"round"_L1, 1},
            {"method"_L1, "tools/call"_L1},
            {"name"_L1, "confirm-delete"_L1},
            {"requests"_L1,
             QJsonObject{{"confirm"_L1, "elicitation/create"_L1}, {"where"_L1, "roots/list"_L1}}}};
}

QJsonObject listenAcknowledged()
{
    return {{"id"_L1, 3},
            {"requested"_L1,
             QJsonObject{{"toolsListChanged"_L1, true},
                         {"promptsListChanged"_L1, true},
                         {"resourceSubscriptions"_L1, QJsonArray{u"demo://counter"_s}}}},
            {"granted"_L1, QJsonObject{{"toolsListChanged"_L1, true}}}};
}

// A numbered notification: easy to tell apart after the front of the store was dropped.
TranscriptEvent numbered(int n, Direction dir = Direction::Outgoing)
{
    return wire(
        n, dir,
        QByteArray(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"n\":") +
            QByteArray::number(n) + "}}");
}

// 40 events, one a millisecond from T0: numbered ones, a ping (#7) answered 5 ms later at
// rows 30 and 31 (the answer 9 rows from the end), a request #8 not answered yet at row 32.
Events pairedRun();

Events numberedRange(int from, int count)
{
    static const Direction cycle[] = {Direction::Outgoing, Direction::Incoming, Direction::Stderr};
    Events out;
    for (int n = from; n < from + count; ++n) {
        TranscriptEvent e = numbered(n, cycle[n % 3]);
        if (e.direction == Direction::Stderr)
            e.raw = "line " + QByteArray::number(n);
        out.append(e);
    }
    return out;
}

Events pairedRun()
{
    Events out = numberedRange(0, 30);
    TranscriptEvent ping = send(30, JSON_TEXT({"jsonrpc" : "2.0", "id" : 7, "method" : "ping"}));
    TranscriptEvent pong = recv(35, JSON_TEXT({"jsonrpc" : "2.0", "id" : 7, "result" : {}}));
    pong.timeMs = T0 + 31;
    ping.timeMs = pong.timeMs - 5;
    out << ping << pong;
    out << send(32, JSON_TEXT({"jsonrpc" : "2.0", "id" : 8, "method" : "ping"}));
    out << numberedRange(33, 7);
    return out;
}

QList<Direction> directionsFromNames(const QStringList &names)
{
    if (names == QStringList{u"all"_s})
        return TranscriptFilterProxyModel::allDirections();
    QList<Direction> out;
    for (Direction d : TranscriptFilterProxyModel::allDirections())
        if (names.contains(TranscriptEvent::directionName(d)))
            out.append(d);
    return out;
}

QList<int> allRows(int n)
{
    QList<int> rows;
    for (int i = 0; i < n; ++i)
        rows.append(i);
    return rows;
}

// The transcript the filter and export tests share: two servers, every direction.
Events sampleTranscript()
{
    return {
        /* 0 */ send(0, JSON_TEXT({
                         "jsonrpc" : "2.0",
                         "id" : 1,
                         "method" : "tools/call",
                         "params" : {"name" : "echo", "arguments" : {"text" : "Hello"}}
                     })),
        /* 1 */ recv(12, JSON_TEXT({
                         "jsonrpc" : "2.0",
                         "id" : 1,
                         "result" : {"content" : [ {"type" : "text", "text" : "Hello back"} ]}
                     })),
        /* 2 */
        send(20, JSON_TEXT({"jsonrpc" : "2.0", "id" : 1, "method" : "tools/list"}), u"beta"_s),
        /* 3 */
        recv(27,
             JSON_TEXT(
                 {"jsonrpc" : "2.0", "id" : 1, "result" : {"tools" : [ {"name" : "Search"} ]}}),
             u"beta"_s),
        /* 4 */ stderrLine(30, "warning: disk almost FULL"),
        /* 5 */ lifecycle(31, u"ready"_s, {}, u"beta"_s),
        /* 6 */ violation(32, u"invalid JSON"_s, "garbage"),
        /* 7 */ recv(40, JSON_TEXT({
                         "jsonrpc" : "2.0",
                         "method" : "notifications/message",
                         "params" : {"level" : "info", "data" : "café ready"}
                     })),
    };
}

} // namespace

class TestTranscriptModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void modelAndProxiesStayConsistentWhileTheStoreGrowsDropsAndClears()
    {
        TranscriptStore store(20); // drops in chunks of 2
        TranscriptModel model(&store);
        TranscriptFilterProxyModel wireOnly;
        wireOnly.setSourceModel(&model);
        wireOnly.setDirections({Direction::Outgoing, Direction::Incoming});
        TranscriptFilterProxyModel everything;
        everything.setSourceModel(&model);
        const auto mode = QAbstractItemModelTester::FailureReportingMode::QtTest;
        QAbstractItemModelTester modelTester(&model, mode);
        QAbstractItemModelTester wireTester(&wireOnly, mode);
        QAbstractItemModelTester everythingTester(&everything, mode);
        QSignalSpy appended(&store, &TranscriptStore::rowsAppended);
        QSignalSpy dropped(&store, &TranscriptStore::rowsDropped);

        const auto check = [&](int size, int firstNumber) {
            QCOMPARE(store.size(), size);
            QCOMPARE(model.rowCount(), size);
            QCOMPARE(everything.rowCount(), size);
            int wireRows = 0;
            for (int r = 0; r < store.size(); ++r)
                wireRows += store.event(r).direction != Direction::Stderr;
            QCOMPARE(wireOnly.rowCount(), wireRows);
            if (size) {
                const auto first =
                    model.index(0, 0).data(TranscriptModel::EventRole).value<TranscriptEvent>();
                QCOMPARE(first.timeMs, T0 + firstNumber);
                QCOMPARE(model.index(size - 1, 0)
                             .data(TranscriptModel::EventRole)
                             .value<TranscriptEvent>()
                             .timeMs,
                         T0 + firstNumber + size - 1);
            }
        };

        // QCOMPARE in the lambda returns from the lambda only; stop the test as well.
#define CHECK(size, firstNumber)                                                                   \
    do {                                                                                           \
        check(size, firstNumber);                                                                  \
        if (QTest::currentTestFailed())                                                            \
            return;                                                                                \
    } while (false)

        int next = 0;
        for (int n : {1, 5, 7, 6}) {
            store.append(numberedRange(next, n));
            next += n;
        }
        CHECK(19, 0);
        QCOMPARE(dropped.size(), 0);
        QCOMPARE(appended.last(), (QVariantList{13, 18}));

        // 22 events do not fit in 20: the oldest two go, in one chunk, before the new rows come.
        store.append(numberedRange(next, 3));
        next += 3;
        CHECK(20, 2);
        QCOMPARE(dropped.size(), 1);
        QCOMPARE(dropped.last().at(0).toInt(), 2);
        QCOMPARE(appended.last(), (QVariantList{17, 19}));

        // One more still drops a whole chunk, so the store does not trim on every append.
        store.append(numberedRange(next, 1));
        next += 1;
        CHECK(19, 4);
        QCOMPARE(dropped.last().at(0).toInt(), 2);

        // A batch larger than the store replaces it and keeps its newest events.
        store.append(numberedRange(next, 50));
        next += 50;
        CHECK(20, next - 20);

        QSignalSpy reset(&store, &TranscriptStore::reset);
        store.clear();
        QCOMPARE(reset.size(), 1);
        CHECK(0, 0);
        store.append(numberedRange(100, 4));
        CHECK(4, 100);
#undef CHECK
    }

    void appendedRowsAreFilteredAsTheyArrive()
    {
        TranscriptStore store;
        TranscriptModel model(&store);
        TranscriptFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setServerFilter(u"alpha"_s);
        store.append({numbered(1)});
        store.append(
            {send(2, JSON_TEXT({"jsonrpc" : "2.0", "method" : "ping", "id" : 9}), u"beta"_s)});
        store.append({numbered(3)});
        QCOMPARE(proxy.visibleStoreRows(), (QList<int>{0, 2}));
        QCOMPARE(store.servers(), (QStringList{u"alpha"_s, u"beta"_s}));
    }

    void requestsArePairedWithResponses_data()
    {
        QTest::addColumn<Events>("events");
        QTest::addColumn<int>("split"); // appended as two batches at this index
        QTest::addColumn<int>("responseRow");
        QTest::addColumn<int>("requestRow"); // -1: the response must stay unpaired
        QTest::addColumn<qint64>("latencyMs");

        const QByteArray call1 = JSON_TEXT(
            {"jsonrpc" : "2.0", "id" : 1, "method" : "tools/call", "params" : {"name" : "echo"}});
        const QByteArray result1 =
            JSON_TEXT({"jsonrpc" : "2.0", "id" : 1, "result" : {"content" : []}});
        const QByteArray progress =
            JSON_TEXT({"jsonrpc" : "2.0", "method" : "notifications/progress", "params" : {}});

        QTest::newRow("a client request is answered by the server")
            << Events{send(0, call1), recv(3, progress), recv(12, result1)} << 0 << 2 << 0
            << qint64(12);
        QTest::newRow("a response in a later batch still finds its request")
            << Events{send(0, call1), recv(3, progress), recv(12, result1)} << 1 << 2 << 0
            << qint64(12);
        QTest::newRow("a server request is answered by the client")
            << Events{recv(100,
                           JSON_TEXT({"jsonrpc" : "2.0", "id" : "s-7", "method" : "roots/list"})),
                      send(104,
                           JSON_TEXT({"jsonrpc" : "2.0", "id" : "s-7", "result" : {"roots" : []}}))}
            << 0 << 1 << 0 << qint64(4);
        QTest::newRow("interleaved requests pair by id, not by order")
            << Events{send(0, call1),
                      send(5, JSON_TEXT({"jsonrpc" : "2.0", "id" : 2, "method" : "ping"})),
                      recv(7, JSON_TEXT({"jsonrpc" : "2.0", "id" : 2, "result" : {}})),
                      recv(20, result1)}
            << 0 << 3 << 0 << qint64(20);
        QTest::newRow("a response on a newer generation is not paired")
            << Events{send(0, call1, u"alpha"_s, 1), recv(12, result1, u"alpha"_s, 2)} << 0 << 1
            << -1 << qint64(-1);
        QTest::newRow("a response from another server is not paired")
            << Events{send(0, call1, u"alpha"_s), recv(12, result1, u"beta"_s)} << 0 << 1 << -1
            << qint64(-1);
        QTest::newRow("a string id does not answer the same number")
            << Events{send(0, call1),
                      recv(12, JSON_TEXT({"jsonrpc" : "2.0", "id" : "1", "result" : {}}))}
            << 0 << 1 << -1 << qint64(-1);
        QTest::newRow("a response going the same way as the request is not paired")
            << Events{send(0, call1), send(12, result1)} << 0 << 1 << -1 << qint64(-1);
        QTest::newRow("a notification is never paired")
            << Events{send(0, progress), recv(12, result1)} << 0 << 1 << -1 << qint64(-1);
    }
    void requestsArePairedWithResponses()
    {
        QFETCH(Events, events);
        QFETCH(int, split);
        QFETCH(int, responseRow);
        QFETCH(int, requestRow);
        QFETCH(qint64, latencyMs);
        TranscriptStore store;
        TranscriptModel model(&store);
        if (split > 0) {
            store.append(events.mid(0, split));
            store.append(events.mid(split));
        } else {
            store.append(events);
        }
        const TranscriptStore::Entry &response = store.entry(responseRow);
        QCOMPARE(response.pairedRow, requestRow);
        QCOMPARE(response.latencyMs, latencyMs);
        const QString latencyText =
            model.index(responseRow, TranscriptModel::LatencyColumn).data().toString();
        if (requestRow >= 0) {
            QCOMPARE(store.entry(requestRow).pairedRow, responseRow);
            QCOMPARE(store.entry(requestRow).latencyMs, qint64(-1));
            QCOMPARE(latencyText, QString::number(latencyMs) + " ms"_L1);
            QVERIFY(model.index(requestRow, TranscriptModel::LatencyColumn)
                        .data()
                        .toString()
                        .isEmpty());
        } else {
            QVERIFY(latencyText.isEmpty());
        }
    }

    void pairsFollowRowsWhenTheFrontIsDropped()
    {
        TranscriptStore store(10); // drops one at a time
        store.append({numbered(0),
                      send(1, JSON_TEXT({"jsonrpc" : "2.0", "id" : 7, "method" : "ping"})),
                      recv(6, JSON_TEXT({"jsonrpc" : "2.0", "id" : 7, "result" : {}}))});
        QCOMPARE(store.entry(2).pairedRow, 1);
        store.append(numberedRange(10, 8));
        QCOMPARE(store.size(), 10);
        QCOMPARE(store.entry(0).method, u"ping"_s);
        QCOMPARE(store.entry(0).pairedRow, 1);
        QCOMPARE(store.entry(1).pairedRow, 0);

        // The request goes; the response keeps its latency but points nowhere.
        store.append({numbered(30)});
        QCOMPARE(store.entry(0).method, u"response #7"_s);
        QCOMPARE(store.entry(0).pairedRow, -1);
        QCOMPARE(store.entry(0).latencyMs, qint64(5));

        // A request dropped before its answer came leaves the answer unpaired.
        store.append({send(40, JSON_TEXT({"jsonrpc" : "2.0", "id" : 8, "method" : "ping"}))});
        store.append(numberedRange(41, 10));
        store.append({recv(60, JSON_TEXT({"jsonrpc" : "2.0", "id" : 8, "result" : {}}))});
        QCOMPARE(store.entry(store.size() - 1).pairedRow, -1);
        QCOMPARE(store.entry(store.size() - 1).latencyMs, qint64(-1));
    }

    // A window that starts recording into a history lowers its store's bounds to a tail.
    void aLoweredCapacityDropsTheOldestAtOnce_data()
    {
        QTest::addColumn<int>("capacity");
        QTest::addColumn<qint64>("capacityBytes");
        QTest::addColumn<int>("kept");
        QTest::addColumn<bool>("answerPaired");
        constexpr qint64 Unbounded = TranscriptStore::DefaultCapacityBytes;
        QTest::newRow("a lower count keeps the newest events and their pairs")
            << 12 << Unbounded << 12 << true;
        QTest::newRow("a lower count through a pair leaves its answer unpaired")
            << 9 << Unbounded << 9 << false;
        qint64 lastFive = 0;
        const Events events = pairedRun();
        for (qsizetype i = events.size() - 5; i < events.size(); ++i)
            lastFive += events.at(i).raw.size();
        QTest::newRow("a lower byte bound drops until the bytes fit")
            << 1000 << lastFive << 5 << false;
        QTest::newRow("a bound below the newest event keeps it alone")
            << 1000 << qint64(1) << 1 << false;
        QTest::newRow("a higher bound drops nothing") << 100 << Unbounded << 40 << true;
    }
    void aLoweredCapacityDropsTheOldestAtOnce()
    {
        QFETCH(int, capacity);
        QFETCH(qint64, capacityBytes);
        QFETCH(int, kept);
        QFETCH(bool, answerPaired);
        TranscriptStore store;
        TranscriptModel model(&store);
        TranscriptFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        const auto mode = QAbstractItemModelTester::FailureReportingMode::QtTest;
        QAbstractItemModelTester modelTester(&model, mode);
        QAbstractItemModelTester proxyTester(&proxy, mode);
        store.append(pairedRun());
        QCOMPARE(store.size(), 40);
        QSignalSpy dropped(&store, &TranscriptStore::rowsDropped);

        store.setCapacity(capacity, capacityBytes);
        QCOMPARE(store.capacity(), capacity);
        QCOMPARE(store.size(), kept);
        QCOMPARE(model.rowCount(), kept);
        QCOMPARE(proxy.rowCount(), kept);
        QCOMPARE(dropped.size(), kept == 40 ? 0 : 1);
        QCOMPARE(store.droppedCount(), qint64(40 - kept));
        QCOMPARE(store.event(0).timeMs, T0 + 40 - kept); // the newest are the ones kept
        QVERIFY2(store.bytes() <= capacityBytes || store.size() == 1,
                 qPrintable(QString::number(store.bytes())));
        // Every pair left points both ways within the store.
        int pairs = 0;
        for (int row = 0; row < store.size(); ++row) {
            const int other = store.entry(row).pairedRow;
            if (other < 0)
                continue;
            QVERIFY(other < store.size());
            QCOMPARE(store.entry(other).pairedRow, row);
            ++pairs;
        }
        QCOMPARE(pairs, answerPaired ? 2 : 0);
        const int answer = kept - 9; // the ping's answer, 9 rows from the end
        if (answer >= 0) {
            QCOMPARE(store.entry(answer).method, u"response #7"_s);
            QCOMPARE(store.entry(answer).latencyMs, qint64(5)); // kept with the answer
        }

        // A request kept is still answered, at its row after the drop.
        store.append({recv(60, JSON_TEXT({"jsonrpc" : "2.0", "id" : 8, "result" : {}}))});
        QVERIFY(store.size() <= capacity);
        const TranscriptStore::Entry &late = store.entry(store.size() - 1);
        int request = -1;
        for (int row = 0; row < store.size(); ++row)
            if (store.entry(row).isRequest && store.entry(row).id == "8"_L1)
                request = row;
        QCOMPARE(late.pairedRow, request);
    }

    void theStoreIsBoundedInBytesAndKeepsTheNewestEvent()
    {
        TranscriptStore store(1000, nullptr, 10'000); // 1000 events, but 10,000 bytes
        QSignalSpy dropped(&store, &TranscriptStore::rowsDropped);
        const QByteArray big(3000, 'x');
        for (int i = 0; i < 10; ++i)
            store.append({wire(i, Direction::Incoming, big)});
        QVERIFY2(store.bytes() <= 10'000, qPrintable(QString::number(store.bytes())));
        QVERIFY(store.size() <= 3);
        QVERIFY(!dropped.isEmpty());
        QCOMPARE(store.event(store.size() - 1).timeMs, T0 + 9); // the newest is there
        // One event larger than the whole bound is still kept, alone.
        store.append({wire(20, Direction::Incoming, QByteArray(50'000, 'y'))});
        QCOMPARE(store.size(), 1);
        QCOMPARE(store.event(0).timeMs, T0 + 20);
        store.clear();
        QCOMPARE(store.bytes(), 0);
    }

    void eachEventGetsASummary_data()
    {
        QTest::addColumn<TranscriptEvent>("event");
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("summary");
        QTest::addColumn<bool>("isError");

        QTest::newRow("a tools/call request names the tool and its arguments")
            << send(0, JSON_TEXT({
                        "jsonrpc" : "2.0",
                        "id" : 3,
                        "method" : "tools/call",
                        "params" : {"name" : "echo", "arguments" : {"text" : "hi"}}
                    }))
            << u"tools/call"_s << u"3"_s << u"echo {\"text\":\"hi\"}"_s << false;
        QTest::newRow("a notification has a method and no id")
            << send(0, JSON_TEXT({"jsonrpc" : "2.0", "method" : "notifications/initialized"}))
            << u"notifications/initialized"_s << QString() << QString() << false;
        QTest::newRow("a JSON-RPC error response is an error")
            << recv(0, JSON_TEXT({
                        "jsonrpc" : "2.0",
                        "id" : 4,
                        "error" : {"code" : -32601, "message" : "Method not found"}
                    }))
            << u"response #4"_s << u"4"_s << u"error -32601: Method not found"_s << true;
        QTest::newRow("a tool result with isError true is an error")
            << recv(0, JSON_TEXT({
                        "jsonrpc" : "2.0",
                        "id" : "x",
                        "result" :
                            {"content" : [ {"type" : "text", "text" : "boom"} ], "isError" : true}
                    }))
            << u"response #x"_s << u"x"_s << u"boom"_s << true;
        QTest::newRow("a successful tool result shows its text on one line")
            << recv(0, JSON_TEXT({
                        "jsonrpc" : "2.0",
                        "id" : 5,
                        "result" : {
                            "content" : [ {"type" : "text", "text" : "hello\n  world"} ],
                            "isError" : false
                        }
                    }))
            << u"response #5"_s << u"5"_s << u"hello world"_s << false;
        QTest::newRow("a tools/list result names its tools")
            << recv(0, JSON_TEXT({
                        "jsonrpc" : "2.0",
                        "id" : 6,
                        "result" : {"tools" : [ {"name" : "a"}, {"name" : "b"} ]}
                    }))
            << u"response #6"_s << u"6"_s << u"2 tools: a, b"_s << false;
        // Past SummaryWholeParseBytes a frame is summarized from a copy with its long strings
        // cut: what is after the cut (the id, isError) still counts.
        const QByteArray mib(1 << 20, 'x');
        QTest::newRow("a 1 MiB tool error shows its text's start and the id written after it")
            << recv(0, "{\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"type\":\"text\","
                       "\"text\":\"boom \\u00e9 " +
                           mib + "\"}],\"isError\":true},\"id\":9}")
            << u"response #9"_s << u"9"_s << u"boom é xxx"_s << true;
        QTest::newRow("a 1 MiB tools/list names its tools past their long descriptions")
            << recv(0, "{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{\"tools\":[{\"description\":\"" +
                           mib + "\",\"name\":\"a\"},{\"name\":\"b\",\"description\":\"" + mib +
                           "\"}]}}")
            << u"response #6"_s << u"6"_s << u"2 tools: a, b"_s << false;
        QTest::newRow("a 1 MiB frame with invalid UTF-8 deep in a string is not JSON")
            << recv(0, "{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{\"t\":\"" + mib + "\xff\"}}")
            << QString() << QString() << u"not JSON"_s << false;
        QTest::newRow("a frame that is not JSON says so")
            << recv(0, "not json at all") << QString() << QString() << u"not JSON"_s << false;
        QTest::newRow("a stderr line is its own summary")
            << stderrLine(0, "  listening on stdio\n") << QString() << QString()
            << u"listening on stdio"_s << false;
        QTest::newRow("a lifecycle event shows its details")
            << lifecycle(0, u"spawned"_s, {{"pid"_L1, 42}}) << QString() << QString()
            << u"spawned {\"pid\":42}"_s << false;
        // The 2026-07-28 events, as ServerSession writes them.
        QTest::newRow("the era chosen by server/discover is a sentence under server/discover")
            << lifecycle(0, u"era-chosen"_s, modernEra()) << u"server/discover"_s << QString()
            << u"era modern, protocol 2026-07-28: server/discover offered 2026-07-28 (the server "
               "supports 2026-07-28, 2025-11-25)"_s
            << false;
        QTest::newRow("an era fallen back to legacy says why")
            << lifecycle(0, u"era-chosen"_s,
                         {{"era"_L1, "legacy"_L1},
                          {"reason"_L1,
                           "server/discover answered HTTP 404, so the initialize handshake was "
                           "used"_L1},
                          {"protocol_version"_L1, "2025-11-25"_L1}})
            << u"server/discover"_s << QString()
            << u"era legacy, protocol 2025-11-25: server/discover answered HTTP 404, so the "
               "initialize handshake was used"_s
            << false;
        QTest::newRow("an input_required answer names the call, what it asks and the retry")
            << lifecycle(0, u"input-required"_s, inputRequiredDetails()) << u"tools/call"_s
            << u"5"_s
            << u"input required: tools/call confirm-delete #5 asked for elicitation/create "
               "(confirm), roots/list (where), round 1; answered as #6"_s
            << false;
        QTest::newRow("an acknowledged listen stream names what it was not granted")
            << lifecycle(0, u"listen-acknowledged"_s, listenAcknowledged())
            << u"subscriptions/listen"_s << u"3"_s
            << u"listen #3 acknowledged: granted tool list changes; asked for but not granted: "
               "prompt list changes, updates of demo://counter"_s
            << false;
        QTest::newRow("a listen stream the server completed ended gracefully")
            << lifecycle(0, u"listen-ended"_s, {{"id"_L1, 3}, {"graceful"_L1, true}})
            << u"subscriptions/listen"_s << u"3"_s << u"listen #3 ended: the server completed it"_s
            << false;
        QTest::newRow("a dropped listen stream is an error and says when it listens again")
            << lifecycle(0, u"listen-dropped"_s,
                         {{"id"_L1, 3},
                          {"reason"_L1, "the stream closed without a result"_L1},
                          {"retry_in_ms"_L1, 2000}})
            << u"subscriptions/listen"_s << u"3"_s
            << u"listen #3 dropped: the stream closed without a result; listening again in 2 s"_s
            << true;
        QTest::newRow("a task says its status under the call that started it")
            << lifecycle(0, u"task-status"_s,
                         {{"id"_L1, 7},
                          {"task_id"_L1, "t-1"_L1},
                          {"status"_L1, "working"_L1},
                          {"message"_L1, "step 2 of 5"_L1}})
            << u"tools/call"_s << u"7"_s << u"task t-1 working: step 2 of 5 (call #7)"_s << false;
    }
    void eachEventGetsASummary()
    {
        QFETCH(TranscriptEvent, event);
        QFETCH(QString, method);
        QFETCH(QString, id);
        QFETCH(QString, summary);
        QFETCH(bool, isError);
        TranscriptStore store;
        store.append({event});
        const TranscriptStore::Entry &e = store.entry(0);
        QCOMPARE(e.method, method);
        QCOMPARE(e.id, id);
        QVERIFY2(e.summary.startsWith(summary), qPrintable(e.summary));
        QCOMPARE(e.isError, isError);
        QCOMPARE(store.event(0).raw, event.raw); // the bytes are kept as they came
    }

    void aHugeFrameGetsAShortOneLineSummary()
    {
        const QByteArray text = QByteArray(1 << 20, 'x').replace(1000, 1, "\\n");
        TranscriptStore store;
        store.append(
            {recv(0, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"big\":\"" + text + "\"}}"),
             stderrLine(1, QByteArray(1 << 20, 'y').replace(100, 1, "\n"))});
        for (int row : {0, 1}) {
            const QString s = store.entry(row).summary;
            QVERIFY2(s.size() <= TranscriptStore::SummaryMaxChars,
                     qPrintable(QString::number(s.size())));
            QVERIFY(s.size() > 100);
            QVERIFY(!s.contains(u'\n'));
        }
    }

    void theModelShowsEachColumn_data()
    {
        QTest::addColumn<TranscriptEvent>("event");
        QTest::addColumn<QString>("dir");
        QTest::addColumn<QString>("methodText");
        QTest::addColumn<bool>("red");

        QTest::newRow("a request sent to the server") << send(0, JSON_TEXT({
                                                                  "jsonrpc" : "2.0",
                                                                  "id" : 3,
                                                                  "method" : "tools/call",
                                                                  "params" : {"name" : "echo"}
                                                              }))
                                                      << u"send"_s << u"tools/call #3"_s << false;
        QTest::newRow("a response received from the server")
            << recv(0, JSON_TEXT({"jsonrpc" : "2.0", "id" : 3, "result" : {}})) << u"recv"_s
            << u"response #3"_s << false;
        QTest::newRow("an error response is red")
            << recv(0, JSON_TEXT(
                           {"jsonrpc" : "2.0", "id" : 3, "error" : {"code" : 1, "message" : "no"}}))
            << u"recv"_s << u"response #3"_s << true;
        QTest::newRow("a stderr line")
            << stderrLine(0, "hello") << u"stderr"_s << QString() << false;
        QTest::newRow("a lifecycle event shows its name")
            << lifecycle(0, u"ready"_s) << u"event"_s << u"ready"_s << false;
        QTest::newRow("a violation is red")
            << violation(0, u"invalid JSON"_s, "{") << u"violation"_s << u"invalid JSON"_s << true;
    }
    void theModelShowsEachColumn()
    {
        QFETCH(TranscriptEvent, event);
        QFETCH(QString, dir);
        QFETCH(QString, methodText);
        QFETCH(bool, red);
        event.generation = 4;
        TranscriptStore store;
        TranscriptModel model(&store);
        store.append({event});
        const auto cell = [&](int column, int role = Qt::DisplayRole) {
            return model.index(0, column).data(role);
        };
        QCOMPARE(model.columnCount(), int(TranscriptModel::ColumnCount));
        QCOMPARE(cell(TranscriptModel::TimeColumn).toString(),
                 QDateTime::fromMSecsSinceEpoch(event.timeMs).toString(u"hh:mm:ss.zzz"_s));
        QCOMPARE(cell(TranscriptModel::ServerColumn).toString(), u"alpha"_s);
        QCOMPARE(cell(TranscriptModel::GenerationColumn).toInt(), 4);
        QCOMPARE(cell(TranscriptModel::DirectionColumn).toString(), dir);
        QVERIFY(!cell(TranscriptModel::DirectionColumn, Qt::ToolTipRole).toString().isEmpty());
        QCOMPARE(cell(TranscriptModel::MethodColumn).toString(), methodText);
        QCOMPARE(cell(TranscriptModel::SummaryColumn).toString(), store.entry(0).summary);
        QCOMPARE(cell(0, Qt::ForegroundRole).isValid(), red);
        if (red) {
            const QColor c = cell(0, Qt::ForegroundRole).value<QColor>();
            QVERIFY(c.red() > 2 * c.green() && c.red() > 2 * c.blue());
        }
        QCOMPARE(cell(0, TranscriptModel::IsErrorRole).toBool(),
                 red && event.direction != Direction::Violation);
        QCOMPARE(cell(0, TranscriptModel::RawRole).toByteArray(), event.raw);
        QCOMPARE(cell(0, TranscriptModel::DirectionRole).toInt(), int(event.direction));
        QCOMPARE(cell(0, TranscriptModel::ServerRole).toString(), u"alpha"_s);
        QCOMPARE(cell(0, TranscriptModel::MethodRole).toString(), store.entry(0).method);
        const auto back = cell(0, TranscriptModel::EventRole).value<TranscriptEvent>();
        QCOMPARE(back.raw, event.raw);
        QCOMPARE(back.timeMs, event.timeMs);
        QCOMPARE(back.event, event.event);
        QCOMPARE(model.headerData(TranscriptModel::MethodColumn, Qt::Horizontal).toString(),
                 u"Method / Id"_s);
    }

    void theProxyFiltersRows_data()
    {
        QTest::addColumn<QString>("server");
        QTest::addColumn<QStringList>("directions");
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QList<int>>("visible");
        const QStringList all{u"all"_s};

        QTest::newRow("no filter shows every row")
            << QString() << all << QString() << QString() << allRows(8);
        QTest::newRow("a server filter shows only that server's rows")
            << u"beta"_s << all << QString() << QString() << QList<int>{2, 3, 5};
        QTest::newRow("a direction filter shows only received frames")
            << QString() << QStringList{u"recv"_s} << QString() << QString() << QList<int>{1, 3, 7};
        QTest::newRow("two directions show both")
            << QString() << QStringList{u"send"_s, u"stderr"_s} << QString() << QString()
            << QList<int>{0, 2, 4};
        QTest::newRow("events and violations are directions too")
            << QString() << QStringList{u"event"_s, u"violation"_s} << QString() << QString()
            << QList<int>{5, 6};
        QTest::newRow("no direction hides every row")
            << QString() << QStringList() << QString() << QString() << QList<int>{};
        QTest::newRow("a method filter shows the calls and the responses that answer them")
            << QString() << all << u"tools/call"_s << QString() << QList<int>{0, 1};
        QTest::newRow("a method filter ignores case and matches a part")
            << QString() << all << u"LIST"_s << QString() << QList<int>{2, 3};
        QTest::newRow("free text searches the raw frame, ignoring case")
            << QString() << all << QString() << u"JSONRPC"_s << QList<int>{0, 1, 2, 3, 7};
        QTest::newRow("free text searches the summary")
            << QString() << all << QString() << u"1 tools: search"_s << QList<int>{3};
        QTest::newRow("free text finds a stderr line")
            << QString() << all << QString() << u"disk almost full"_s << QList<int>{4};
        QTest::newRow("free text finds text that is not ASCII")
            << QString() << all << QString() << u"CAFÉ"_s << QList<int>{7};
        QTest::newRow("filters combine")
            << u"alpha"_s << QStringList{u"recv"_s} << QString() << u"hello"_s << QList<int>{1};
        QTest::newRow("free text that matches nothing hides every row")
            << QString() << all << QString() << u"no such thing"_s << QList<int>{};
    }
    void theProxyFiltersRows()
    {
        QFETCH(QString, server);
        QFETCH(QStringList, directions);
        QFETCH(QString, method);
        QFETCH(QString, text);
        QFETCH(QList<int>, visible);
        TranscriptStore store;
        TranscriptModel model(&store);
        TranscriptFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        store.append(sampleTranscript());
        QCOMPARE(proxy.visibleStoreRows(), allRows(8));

        proxy.setServerFilter(server);
        proxy.setDirections(directionsFromNames(directions));
        proxy.setMethodFilter(method);
        proxy.setTextFilter(text);
        QCOMPARE(proxy.visibleStoreRows(), visible);
        QCOMPARE(proxy.rowCount(), visible.size());

        // Lifting the filters shows every row again.
        proxy.setServerFilter({});
        proxy.setDirections(TranscriptFilterProxyModel::allDirections());
        proxy.setMethodFilter({});
        proxy.setTextFilter({});
        QCOMPARE(proxy.visibleStoreRows(), allRows(8));
    }

    void directionsCanBeToggledOneByOne()
    {
        TranscriptStore store;
        TranscriptModel model(&store);
        TranscriptFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        store.append(sampleTranscript());
        proxy.setDirectionVisible(Direction::Incoming, false);
        QVERIFY(!proxy.isDirectionVisible(Direction::Incoming));
        QCOMPARE(proxy.visibleStoreRows(), (QList<int>{0, 2, 4, 5, 6}));
        proxy.setDirectionVisible(Direction::Incoming, true);
        QCOMPARE(proxy.rowCount(), 8);
    }

    void exportedJsonLinesReadBackAsTheEvents_data()
    {
        QTest::addColumn<bool>("redact");
        QTest::newRow("secrets are redacted by default") << true;
        QTest::newRow("secrets are kept when redaction is opted out") << false;
    }
    void exportedJsonLinesReadBackAsTheEvents()
    {
        QFETCH(bool, redact);
        const QString sessionId = u"sess-4f2a9c71"_s;
        Events events = sampleTranscript();
        events.append(
            send(50, JSON_TEXT({
                     "jsonrpc" : "2.0",
                     "id" : 2,
                     "method" : "tools/call",
                     "params" : {
                         "name" : "fetch",
                         "arguments" : {"header" : "Authorization: Bearer abc.DEF-123456"}
                     }
                 })));
        events.append(lifecycle(51, u"transport-open"_s, {{"session_id"_L1, sessionId}}));
        TranscriptStore store;
        store.append(events);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(u"t.jsonl"_s);
        QString error;
        Redactor known;
        known.addSessionId(sessionId);
        QVERIFY2(TranscriptExporter::writeJsonLines(store, path, redact, known, &error),
                 qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray all = file.readAll();
        QVERIFY(all.endsWith('\n'));
        const QList<QByteArray> lines = all.chopped(1).split('\n');
        QCOMPARE(lines.size(), events.size());
        for (int i = 0; i < lines.size(); ++i) {
            QJsonParseError parseError;
            const QJsonDocument doc = QJsonDocument::fromJson(lines[i], &parseError);
            QVERIFY2(doc.isObject(), qPrintable(parseError.errorString()));
            const QJsonObject expected = events[i].toJson();
            if (!redact || i < events.size() - 2) {
                QCOMPARE(doc.object(), expected);
            } else {
                for (const auto key : {"t"_L1, "t_ms"_L1, "server"_L1, "gen"_L1, "dir"_L1})
                    QCOMPARE(doc.object().value(key), expected.value(key));
            }
        }
        QCOMPARE(all.contains("abc.DEF-123456"), !redact);
        QCOMPARE(all.contains(sessionId.toUtf8()), !redact);
        QCOMPARE(all.contains("Bearer [REDACTED]"), redact);
        QCOMPARE(all.contains("[REDACTED]"), redact);
    }

    void anEndedSessionsIdIsMaskedInTheEventsThatNameIt_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("in JSON Lines") << u"jsonl"_s;
        QTest::newRow("in Markdown") << u"md"_s;
    }
    // The window knew only the current ids: after a reconnect, the first session's id was
    // still in its closed and connection-lost events, and the export wrote it out.
    void anEndedSessionsIdIsMaskedInTheEventsThatNameIt()
    {
        QFETCH(QString, format);
        const QString oldId = u"0c5e2a8f-1b7d-4c3e-9f60-5a2b8d7e4c11"_s;
        const QString newId = u"7d41b9e0-6a2c-4f85-b3d1-2e9c0f6a8b57"_s;
        Events events;
        events << lifecycle(1, u"transport-open"_s,
                            {{"route"_L1, u"streamable-http"_s}, {"session_id"_L1, oldId}})
               << lifecycle(
                      2, u"connection-lost"_s,
                      {{"kind"_L1, u"session_expired"_s},
                       {"message"_L1,
                        u"HTTP 404 for session %1: the server no longer knows it"_s.arg(oldId)}})
               << lifecycle(3, u"closed"_s,
                            {{"route"_L1, u"streamable-http"_s}, {"session_id"_L1, oldId}})
               << lifecycle(4, u"transport-open"_s, {{"session_id"_L1, newId}});
        TranscriptStore store;
        store.append(events);
        Redactor onlyTheCurrentId; // what the window hands over after the reconnect
        onlyTheCurrentId.addSessionId(newId);
        const QByteArray out = format == "md"_L1
                                   ? TranscriptExporter::toMarkdown(store, true, onlyTheCurrentId)
                                   : TranscriptExporter::toJsonLines(store, true, onlyTheCurrentId);
        QVERIFY2(!out.contains(oldId.toUtf8()), out.constData());
        QVERIFY2(!out.contains(newId.toUtf8()), out.constData());
        if (format == "jsonl"_L1) {
            QCOMPARE(out.count("[REDACTED]"), 4);
            for (const QByteArray &line : out.trimmed().split('\n'))
                QVERIFY2(QJsonDocument::fromJson(line).isObject(), line.constData());
        }
        const QByteArray kept = TranscriptExporter::toJsonLines(store, false, onlyTheCurrentId);
        QVERIFY(kept.contains(oldId.toUtf8()));
    }

    // The Markdown table showed the store's summary, cut at 160 characters before masking:
    // a configured value across the cut lost its end and with it its match.
    void aSecretAcrossTheSummaryCutIsNotHalfShownInMarkdown()
    {
        const QString secret = u"opaque-credential-0451-abcdefghij"_s;
        const QString command = u"PADDING="_s + QString(106, u'p') + u" PLAIN_SETTING="_s + secret +
                                u" /usr/bin/server"_s;
        TranscriptStore store;
        store.append(
            {lifecycle(1, u"starting"_s, {{"route"_L1, u"stdio"_s}, {"command"_L1, command}})});
        QVERIFY(store.entry(0).summary.contains(secret.left(8))); // the cut does split it
        QVERIFY(!store.entry(0).summary.contains(secret));
        Redactor known;
        known.addSecret(secret);
        const QByteArray md = TranscriptExporter::toMarkdown(store, true, known);
        QVERIFY2(!md.contains(secret.left(8).toUtf8()), md.constData());
        QVERIFY2(md.contains("PLAIN_SETTING=[REDACTED]"), md.constData());
    }

    void anExportWritesOnlyTheRowsAskedFor()
    {
        TranscriptStore store;
        TranscriptModel model(&store);
        TranscriptFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        store.append(sampleTranscript());
        proxy.setServerFilter(u"beta"_s);
        const QList<QByteArray> lines =
            TranscriptExporter::toJsonLines(store, true, {}, proxy.visibleStoreRows())
                .trimmed()
                .split('\n');
        QCOMPARE(lines.size(), 3);
        for (const QByteArray &line : lines)
            QCOMPARE(QJsonDocument::fromJson(line).object().value("server"_L1).toString(),
                     u"beta"_s);
        QCOMPARE(TranscriptExporter::toJsonLines(store, true, {}, QList<int>{}), QByteArray());
        QCOMPARE(TranscriptExporter::toJsonLines(store, true, {}).count('\n'), 8);
    }

    void anExportToAnUnwritablePathSaysWhy()
    {
        TranscriptStore store;
        store.append(sampleTranscript());
        QTemporaryDir dir;
        QString error;
        QVERIFY(!TranscriptExporter::writeMarkdown(store, dir.filePath(u"missing/dir/t.md"_s), true,
                                                   {}, &error));
        QVERIFY(!error.isEmpty());
    }

    // The modern events sit beside the calls they are about under the method filter, and an
    // export keeps them: their sentence and their details.
    void theModernEventsAreFilteredWithTheirCallsAndExported()
    {
        const QByteArray call = JSON_TEXT({
            "jsonrpc" : "2.0",
            "id" : 5,
            "method" : "tools/call",
            "params" : {"name" : "confirm-delete", "arguments" : {}}
        });
        const Events events = {lifecycle(0, u"era-chosen"_s, modernEra()), send(1, call),
                               lifecycle(2, u"input-required"_s, inputRequiredDetails()),
                               lifecycle(3, u"listen-acknowledged"_s, listenAcknowledged())};
        TranscriptStore store;
        store.append(events);
        TranscriptModel model(&store);
        TranscriptFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setMethodFilter(u"tools/call"_s);
        QCOMPARE(proxy.visibleStoreRows(), (QList<int>{1, 2}));
        proxy.setMethodFilter(u"subscriptions/listen"_s);
        QCOMPARE(proxy.visibleStoreRows(), (QList<int>{3}));
        proxy.setMethodFilter(u"server/discover"_s);
        QCOMPARE(proxy.visibleStoreRows(), (QList<int>{0}));

        const QString md = QString::fromUtf8(TranscriptExporter::toMarkdown(store, true, {}));
        QVERIFY2(md.contains(u"| input-required | "_s), qPrintable(md));
        QVERIFY(md.contains(u"input required: tools/call confirm-delete #5 asked for"_s));
        QVERIFY(md.contains(u"listen #3 acknowledged: granted tool list changes"_s));
        QVERIFY(md.contains(u"\"next_id\": 6"_s));
        QVERIFY(md.contains(u"\"reason\": \"server/discover offered 2026-07-28\""_s));
        const QList<QByteArray> lines =
            TranscriptExporter::toJsonLines(store, true, {}).trimmed().split('\n');
        QCOMPARE(lines.size(), events.size());
        const QJsonObject mrtr = QJsonDocument::fromJson(lines.at(2)).object();
        QCOMPARE(mrtr.value("event"_L1).toString(), u"input-required"_s);
        QCOMPARE(mrtr.value("details"_L1).toObject(), inputRequiredDetails());
    }

    void theMarkdownExportHasASectionPerServerAndTheMessagesAsJson()
    {
        Events events = sampleTranscript();
        events.append(stderrLine(60, "```fenced``` Bearer abcdefgh.12345"));
        TranscriptStore store;
        store.append(events);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"t.md"_s);
        QString error;
        QVERIFY2(TranscriptExporter::writeMarkdown(store, path, true, {}, &error),
                 qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString md = QString::fromUtf8(file.readAll());
        QVERIFY(md.startsWith(u"# Sonde transcript\n"_s));
        QVERIFY(md.contains(u"\n## alpha\n"_s));
        QVERIFY(md.contains(u"\n## beta\n"_s));
        QVERIFY(md.indexOf(u"\n## alpha\n"_s) < md.indexOf(u"\n## beta\n"_s));
        QVERIFY(md.contains(u"| Time |"_s));
        QVERIFY(md.contains(u"| response #1 | 12 ms |"_s));
        QVERIFY(md.contains(u"```json\n{\n"_s));
        QVERIFY(md.contains(u"\"text\": \"Hello back\""_s));
        QVERIFY(md.contains(u"café ready"_s));
        // A backtick run in the content gets a longer fence, and secrets are masked here too.
        QVERIFY(md.contains(u"````text\n```fenced``` Bearer [REDACTED]\n````\n"_s));
        QVERIFY(!md.contains(u"abcdefgh.12345"_s));

        const QString kept = QString::fromUtf8(TranscriptExporter::toMarkdown(store, false, {}));
        QVERIFY(kept.contains(u"abcdefgh.12345"_s));
    }
};

QTEST_GUILESS_MAIN(TestTranscriptModel)
#include "tst_transcriptmodel.moc"
