// SPDX-License-Identifier: MIT
#include "protocol/sseparser.h"

#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestSseParser : public QObject
{
    Q_OBJECT

    // Feeds `stream` cut at every position in `cuts` (and also whole, and byte by byte), and
    // checks that each way yields the same events: a parser must not care where reads end.
    static QList<SseEvent> parseAllWays(const QByteArray &stream, QString *lastId,
                                        std::optional<int> *retry)
    {
        SseParser whole;
        const QList<SseEvent> reference = whole.feed(stream);
        for (qsizetype cut = 0; cut <= stream.size(); ++cut) {
            SseParser p;
            QList<SseEvent> got = p.feed(stream.left(cut));
            got += p.feed(stream.mid(cut));
            if (got.size() != reference.size())
                return {};
            for (qsizetype i = 0; i < got.size(); ++i)
                if (got[i].data != reference[i].data || got[i].type != reference[i].type ||
                    got[i].id != reference[i].id)
                    return {};
        }
        SseParser bytewise;
        QList<SseEvent> got;
        for (char c : stream)
            got += bytewise.feed(QByteArray(1, c));
        if (got.size() != reference.size())
            return {};
        *lastId = whole.lastEventId();
        *retry = whole.retryMs();
        return reference;
    }

private Q_SLOTS:
    void parses_data()
    {
        QTest::addColumn<QByteArray>("stream");
        QTest::addColumn<QStringList>("types");
        QTest::addColumn<QList<QByteArray>>("datas");
        QTest::addColumn<QString>("lastId");
        QTest::addColumn<int>("retry");
        using B = QList<QByteArray>;
        QTest::newRow("one message event")
            << QByteArray("event: message\ndata: {\"a\":1}\n\n") << QStringList{u"message"_s}
            << B{"{\"a\":1}"} << QString() << -1;
        QTest::newRow("an event without a type is a message")
            << QByteArray("data: x\n\n") << QStringList{u"message"_s} << B{"x"} << QString() << -1;
        QTest::newRow("event split inside the field name")
            << QByteArray("eve"
                          "nt: endpoint\nda"
                          "ta: /message?sessionId=1\n\n")
            << QStringList{u"endpoint"_s} << B{"/message?sessionId=1"} << QString() << -1;
        QTest::newRow("CRLF line ends") << QByteArray("id: 7\r\ndata: a\r\n\r\n")
                                        << QStringList{u"message"_s} << B{"a"} << u"7"_s << -1;
        QTest::newRow("CR line ends") << QByteArray("data: a\rdata: b\r\r")
                                      << QStringList{u"message"_s} << B{"a\nb"} << QString() << -1;
        QTest::newRow("comment between events")
            << QByteArray("data: 1\n\n: keep-alive\n\ndata: 2\n\n")
            << QStringList{u"message"_s, u"message"_s} << B{"1", "2"} << QString() << -1;
        QTest::newRow("retry then id") << QByteArray("retry: 500\nid: e-1\ndata: \n\n")
                                       << QStringList{u"message"_s} << B{""} << u"e-1"_s << 500;
        QTest::newRow("a priming event with an id and no data line dispatches nothing")
            << QByteArray("id: p-1\n\n") << QStringList{} << B{} << u"p-1"_s << -1;
        QTest::newRow("data with empty line continuation")
            << QByteArray("data: first\ndata:\ndata: third\n\n") << QStringList{u"message"_s}
            << B{"first\n\nthird"} << QString() << -1;
        QTest::newRow("a value keeps everything after one leading space")
            << QByteArray("data:  two spaces\ndata:none\n\n") << QStringList{u"message"_s}
            << B{" two spaces\nnone"} << QString() << -1;
        QTest::newRow("a retry over a minute is clamped to a minute")
            << QByteArray("retry: 3600000\ndata: x\n\n") << QStringList{u"message"_s} << B{"x"}
            << QString() << 60000;
        QTest::newRow("a retry too large for an int is clamped to a minute")
            << QByteArray("retry: 99999999999999999999\ndata: x\n\n") << QStringList{u"message"_s}
            << B{"x"} << QString() << 60000;
        QTest::newRow("a retry of zero is kept")
            << QByteArray("retry: 0\ndata: x\n\n") << QStringList{u"message"_s} << B{"x"}
            << QString() << 0;
        QTest::newRow("a retry that is not all digits is ignored")
            << QByteArray("retry: 5s\ndata: x\n\n") << QStringList{u"message"_s} << B{"x"}
            << QString() << -1;
        QTest::newRow("an id holding NUL is ignored")
            << QByteArray("id: good\ndata: 1\n\nid: b\0d\ndata: 2\n\n", 36)
            << QStringList{u"message"_s, u"message"_s} << B{"1", "2"} << u"good"_s << -1;
        QTest::newRow("a field without a colon has an empty value")
            << QByteArray("data\ndata\n\n") << QStringList{u"message"_s} << B{"\n"} << QString()
            << -1;
        QTest::newRow("unknown fields are ignored")
            << QByteArray("foo: bar\ndata: x\n\n") << QStringList{u"message"_s} << B{"x"}
            << QString() << -1;
        QTest::newRow("a leading byte order mark is skipped")
            << QByteArray("\xEF\xBB\xBF"
                          "data: x\n\n")
            << QStringList{u"message"_s} << B{"x"} << QString() << -1;
        QTest::newRow("an unfinished event is held back")
            << QByteArray("data: x\n") << QStringList{} << B{} << QString() << -1;
        QTest::newRow("the event id in force is attached to later events")
            << QByteArray("id: 1\ndata: a\n\ndata: b\n\n")
            << QStringList{u"message"_s, u"message"_s} << B{"a", "b"} << u"1"_s << -1;
    }
    void parses()
    {
        QFETCH(QByteArray, stream);
        QFETCH(QStringList, types);
        QFETCH(QList<QByteArray>, datas);
        QFETCH(QString, lastId);
        QFETCH(int, retry);
        QString gotId;
        std::optional<int> gotRetry;
        const QList<SseEvent> events = parseAllWays(stream, &gotId, &gotRetry);
        QCOMPARE(events.size(), types.size());
        for (qsizetype i = 0; i < events.size(); ++i) {
            QCOMPARE(events[i].type, types[i]);
            QCOMPARE(events[i].data, datas[i]);
        }
        if (!types.isEmpty() || !lastId.isEmpty())
            QCOMPARE(gotId, lastId);
        QCOMPARE(gotRetry.value_or(-1), retry);
    }

    void aCrAtTheEndOfOneReadAndLfAtTheStartOfTheNextAreOneLineEnd()
    {
        SseParser p;
        QVERIFY(p.feed("data: a\r").isEmpty());
        QVERIFY(p.feed("\n").isEmpty()); // not a second, empty line
        const QList<SseEvent> e = p.feed("\r\n");
        QCOMPARE(e.size(), 1);
        QCOMPARE(e[0].data, QByteArray("a"));
    }

    void aTwentyMegabyteEventArrivingInSmallReadsIsDeliveredWhole()
    {
        const QByteArray payload(20 * 1024 * 1024, 'p');
        const QByteArray wire = "id: 1\nevent: message\ndata: " + payload + "\ndata: tail\n\n";
        SseParser parser;
        QList<SseEvent> events;
        for (qsizetype at = 0; at < wire.size(); at += 64 * 1024)
            events += parser.feed(wire.mid(at, 64 * 1024));
        QCOMPARE(events.size(), 1);
        QCOMPARE(events[0].data.size(), payload.size() + 5);
        QVERIFY(events[0].data.startsWith("ppp"));
        QVERIFY(events[0].data.endsWith("p\ntail"));
        QCOMPARE(events[0].id, u"1"_s);
        QCOMPARE(parser.pendingBytes(), 0);
    }

    void eventsAreHeldToTheLimitHoweverTheyArrive_data()
    {
        QTest::addColumn<QByteArray>("stream");
        QTest::addColumn<QList<QByteArray>>("datas");
        QTest::addColumn<QString>("lastId");
        QTest::addColumn<int>("dropped");
        using B = QList<QByteArray>;
        const QByteArray big(40, 'x');
        QTest::newRow("an event over the limit is dropped and the next one is delivered")
            << QByteArray("data: " + big + "\n\ndata: ok\n\n") << B{"ok"} << QString() << 1;
        QTest::newRow("an event whose data lines add up over the limit is dropped")
            << QByteArray("data: 0123456789\ndata: 0123456789\ndata: 0123456789\n\ndata: ok\n\n")
            << B{"ok"} << QString() << 1;
        QTest::newRow("an event exactly at the limit is kept")
            << QByteArray("data: " + QByteArray(26, 'k') + "\n\n") << B{QByteArray(26, 'k')}
            << QString() << 0;
        QTest::newRow("the id after the data of a dropped event does not become the last event id")
            << QByteArray("id: 1\ndata: a\n\ndata: " + big + "\nid: 2\n\n") << B{"a"} << u"1"_s
            << 1;
        QTest::newRow("a dropped event with CRLF line ends ends at its blank line")
            << QByteArray("data: " + big + "\r\nevent: x\r\n\r\ndata: ok\r\n\r\n") << B{"ok"}
            << QString() << 1;
        QTest::newRow("two events over the limit are both counted")
            << QByteArray("data: " + big + "\n\n: " + big + "\ndata: y\n\ndata: ok\n\n") << B{"ok"}
            << QString() << 2;
    }
    void eventsAreHeldToTheLimitHoweverTheyArrive()
    {
        QFETCH(QByteArray, stream);
        QFETCH(QList<QByteArray>, datas);
        QFETCH(QString, lastId);
        QFETCH(int, dropped);
        // Whole, cut at every position, and byte by byte: the same events and drops.
        QList<QList<QByteArray>> splits{{stream}};
        for (qsizetype cut = 1; cut < stream.size(); ++cut)
            splits.append({stream.left(cut), stream.mid(cut)});
        QList<QByteArray> bytes;
        for (char c : stream)
            bytes.append(QByteArray(1, c));
        splits.append(bytes);
        for (const QList<QByteArray> &chunks : std::as_const(splits)) {
            SseParser p(32);
            QList<QByteArray> got;
            for (const QByteArray &c : chunks)
                for (const SseEvent &e : p.feed(c))
                    got.append(e.data);
            QCOMPARE(got, datas);
            QCOMPARE(p.lastEventId(), lastId);
            QCOMPARE(p.takeOversizedCount(), dropped);
        }
    }

    void theDefaultLimitIs64MiBAndADroppedEventNamesIt()
    {
        SseParser parser;
        QCOMPARE(parser.maxEventBytes(), qsizetype(64) * 1024 * 1024);
        QList<SseEvent> events = parser.feed("data: ");
        const QByteArray mib(1024 * 1024, 'e');
        for (int i = 0; i < 65; ++i)
            events += parser.feed(mib);
        QVERIFY(parser.pendingBytes() <= parser.maxEventBytes());
        events += parser.feed("\n\ndata: next\n\n");
        QCOMPARE(events.size(), 1);
        QCOMPARE(events[0].data, QByteArray("next"));
        QCOMPARE(parser.takeOversizedError(),
                 u"an SSE event is over the 64 MiB frame limit; dropped"_s);
        QCOMPARE(parser.takeOversizedError(), QString());
    }
};

QTEST_APPLESS_MAIN(TestSseParser)
#include "tst_sseparser.moc"
