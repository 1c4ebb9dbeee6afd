// SPDX-License-Identifier: MIT
#include "protocol/lineframer.h"

#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestLineFramer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theHeadOfADroppedLineIsKeptToNameItsRequest_data()
    {
        QTest::addColumn<int>("chunk");
        QTest::newRow("the line in one read") << 1;
        QTest::newRow("the line in 100-byte reads") << 100;
    }
    void theHeadOfADroppedLineIsKeptToNameItsRequest()
    {
        QFETCH(int, chunk);
        LineFramer f(1000);
        const QByteArray big = "{\"jsonrpc\":\"2.0\",\"id\":8,\"result\":\"" +
                               QByteArray(5000, 'x') + "\"}\n{\"small\":1}\n";
        QList<QByteArray> lines;
        const int step = chunk == 1 ? int(big.size()) : chunk;
        for (qsizetype i = 0; i < big.size(); i += step)
            lines += f.feed(big.mid(i, step));
        QCOMPARE(lines, QList<QByteArray>{QByteArray("{\"small\":1}")});
        const QList<QByteArray> heads = f.takeOversizedHeads();
        QCOMPARE(heads.size(), 1);
        QVERIFY(heads.first().startsWith("{\"jsonrpc\":\"2.0\",\"id\":8,\"result\":\""));
        QVERIFY(heads.first().size() <= LineFramer::HeadBytes);
        QVERIFY(f.takeOversizedHeads().isEmpty());
    }

    void framesChunks_data()
    {
        QTest::addColumn<QList<QByteArray>>("chunks");
        QTest::addColumn<QList<QByteArray>>("lines");
        QTest::addColumn<QByteArray>("remainder");
        using L = QList<QByteArray>;
        QTest::newRow("one whole message in one read")
            << L{"{\"a\":1}\n"} << L{"{\"a\":1}"} << QByteArray();
        QTest::newRow("a message split across two reads")
            << L{"{\"a\"", ":1}\n"} << L{"{\"a\":1}"} << QByteArray();
        QTest::newRow("several messages in one read")
            << L{"{}\n[]\n{\"b\":2}\n"} << L{"{}", "[]", "{\"b\":2}"} << QByteArray();
        QTest::newRow("a partial line stays buffered")
            << L{"{}\n{\"par"} << L{"{}"} << QByteArray("{\"par");
        QTest::newRow("CRLF line ends are stripped")
            << L{"{}\r\n{}\r\n"} << L{"{}", "{}"} << QByteArray();
        QTest::newRow("CR and LF split across reads") << L{"{}\r", "\n"} << L{"{}"} << QByteArray();
        QTest::newRow("blank lines are skipped") << L{"\n\n{}\n\r\n"} << L{"{}"} << QByteArray();
        QTest::newRow("garbage is framed like anything else")
            << L{"not json\n{}\n"} << L{"not json", "{}"} << QByteArray();
        QTest::newRow("a byte at a time")
            << L{"{", "}", "\n", "[", "]", "\n"} << L{"{}", "[]"} << QByteArray();
    }
    void framesChunks()
    {
        QFETCH(QList<QByteArray>, chunks);
        QFETCH(QList<QByteArray>, lines);
        QFETCH(QByteArray, remainder);
        LineFramer f;
        QList<QByteArray> got;
        for (const QByteArray &c : chunks)
            got += f.feed(c);
        QCOMPARE(got, lines);
        QCOMPARE(f.takeRemainder(), remainder);
    }

    void aTenMegabyteLineInSmallReadsArrivesWhole()
    {
        const QByteArray big = "{\"text\":\"" + QByteArray(10 * 1024 * 1024, 'x') + "\"}";
        const QByteArray stream = big + "\n{}\n";
        LineFramer f;
        QList<QByteArray> got;
        for (qsizetype i = 0; i < stream.size(); i += 65536)
            got += f.feed(stream.mid(i, 65536));
        QCOMPARE(got.size(), 2);
        QCOMPARE(got[0].size(), big.size());
        QCOMPARE(got[0], big);
        QCOMPARE(got[1], QByteArray("{}"));
        QCOMPARE(f.bufferedBytes(), 0);
    }

    // The limit holds while the line is read: what continues a held line is measured before
    // it is taken in, so a line over the limit is never held past it, however it arrives.
    void aLineIsNeverHeldPastTheLimit_data()
    {
        QTest::addColumn<QList<int>>("reads");
        QTest::newRow("in reads that each fit") << QList<int>{600, 300, 300, 300};
        QTest::newRow("in one read larger than the limit") << QList<int>{1500};
        QTest::newRow("a small start, then one large read") << QList<int>{10, 5000};
    }
    void aLineIsNeverHeldPastTheLimit()
    {
        QFETCH(QList<int>, reads);
        LineFramer f(1000);
        qsizetype most = 0;
        for (int n : reads) {
            QVERIFY(f.feed(QByteArray(n, 'a')).isEmpty());
            most = std::max(most, f.bufferedBytes());
        }
        QVERIFY2(most <= 1001, qPrintable(QString::number(most)));
        QCOMPARE(f.takeOversizedCount(), 1);
        // The rest of that line is skipped; the next one comes through.
        QCOMPARE(f.feed("aaa\n{\"ok\":1}\n"), QList<QByteArray>{"{\"ok\":1}"});
        QCOMPARE(f.bufferedBytes(), 0);
    }

    // A big line's buffer is reserved once rather than doubled (which held the old buffer and
    // its copy at once: sonde-bench-stdio measures that); the line still arrives intact.
    void aBigLineReadIntoItsReservationArrivesIntact()
    {
        LineFramer f(8 * 1024 * 1024);
        const QByteArray chunk(64 * 1024, 'b');
        for (int i = 0; i < 64; ++i)
            QVERIFY(f.feed(chunk).isEmpty());
        const QList<QByteArray> lines = f.feed("c\n");
        QCOMPARE(lines.size(), 1);
        QCOMPARE(lines.first().size(), 64 * 64 * 1024 + 1);
        QVERIFY(lines.first().startsWith("bbbb") && lines.first().endsWith("bc"));
    }

    void aLineOverTheLimitIsDroppedAndTheNextOneSurvives()
    {
        LineFramer f(16);
        QList<QByteArray> got = f.feed(QByteArray(20, 'y'));
        QVERIFY(got.isEmpty());
        QCOMPARE(f.takeOversizedCount(), 1);
        got = f.feed("still the long line\n{\"ok\":1}\n");
        QCOMPARE(got, QList<QByteArray>{"{\"ok\":1}"});
        QCOMPARE(f.takeOversizedCount(), 0);
    }

    void linesAreHeldToTheLimitHoweverTheyArrive_data()
    {
        QTest::addColumn<QList<QByteArray>>("chunks");
        QTest::addColumn<QList<QByteArray>>("lines");
        QTest::addColumn<int>("dropped");
        using L = QList<QByteArray>;
        const QByteArray atLimit(16, 'x');
        const QByteArray over(17, 'y');
        QTest::newRow("a whole line over the limit in one read is dropped")
            << L{over + "\n{}\n"} << L{"{}"} << 1;
        QTest::newRow("a line over the limit between two good ones is dropped alone")
            << L{"{\"a\":1}\n" + over + "\n{\"b\":2}\n"} << L{"{\"a\":1}", "{\"b\":2}"} << 1;
        QTest::newRow("a line exactly at the limit is kept")
            << L{atLimit + "\n"} << L{atLimit} << 0;
        QTest::newRow("a line at the limit whose CRLF is split across reads is kept")
            << L{atLimit + "\r", "\n"} << L{atLimit} << 0;
        QTest::newRow("a line that grows over the limit across reads is dropped")
            << L{QByteArray(10, 'y'), QByteArray(10, 'y'), "\n{}\n"} << L{"{}"} << 1;
        QTest::newRow("two lines over the limit are both counted")
            << L{over + "\n" + over + "\n{}\n"} << L{"{}"} << 2;
    }
    void linesAreHeldToTheLimitHoweverTheyArrive()
    {
        QFETCH(QList<QByteArray>, chunks);
        QFETCH(QList<QByteArray>, lines);
        QFETCH(int, dropped);
        LineFramer f(16);
        QList<QByteArray> got;
        for (const QByteArray &c : chunks)
            got += f.feed(c);
        QCOMPARE(got, lines);
        QCOMPARE(f.takeOversizedCount(), dropped);
        // And byte by byte: where reads end never changes the outcome.
        LineFramer bytewise(16);
        got.clear();
        for (const QByteArray &c : chunks)
            for (char b : c)
                got += bytewise.feed(QByteArray(1, b));
        QCOMPARE(got, lines);
        QCOMPARE(bytewise.takeOversizedCount(), dropped);
    }

    void theDefaultLimitIs64MiBAndADroppedLineNamesIt()
    {
        LineFramer f;
        QCOMPARE(f.maxLineBytes(), qsizetype(64) * 1024 * 1024);
        const QByteArray mib(1024 * 1024, 'z');
        for (int i = 0; i < 65; ++i)
            QVERIFY(f.feed(mib).isEmpty());
        QVERIFY(f.bufferedBytes() <= f.maxLineBytes());
        QCOMPARE(f.feed("\n{}\n"), QList<QByteArray>{"{}"});
        QCOMPARE(f.takeOversizedError(u"stdout line"_s),
                 u"a stdout line is over the 64 MiB frame limit; dropped"_s);
        QCOMPARE(f.takeOversizedError(), QString());
    }

    void aLimitSetByTheOwnerIsNamedInTheError()
    {
        LineFramer f;
        f.setMaxLineBytes(4096);
        QVERIFY(f.feed(QByteArray(5000, 'a') + "\n" + QByteArray(4097, 'b') + "\nok\n") ==
                QList<QByteArray>{"ok"});
        QCOMPARE(f.takeOversizedError(), u"2 lines were over the 4 KiB frame limit; dropped"_s);
    }
};

QTEST_APPLESS_MAIN(TestLineFramer)
#include "tst_lineframer.moc"
