// SPDX-License-Identifier: MIT
#include "protocol/lineframer.h"

#include <QTest>

using namespace Sonde;

class TestLineFramer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void framesChunks_data()
    {
        QTest::addColumn<QList<QByteArray>>("chunks");
        QTest::addColumn<QList<QByteArray>>("lines");
        QTest::addColumn<QByteArray>("remainder");
        using L = QList<QByteArray>;
        QTest::newRow("one whole message in one read") << L{"{\"a\":1}\n"} << L{"{\"a\":1}"} << QByteArray();
        QTest::newRow("a message split across two reads") << L{"{\"a\"", ":1}\n"} << L{"{\"a\":1}"} << QByteArray();
        QTest::newRow("several messages in one read") << L{"{}\n[]\n{\"b\":2}\n"} << L{"{}", "[]", "{\"b\":2}"} << QByteArray();
        QTest::newRow("a partial line stays buffered") << L{"{}\n{\"par"} << L{"{}"} << QByteArray("{\"par");
        QTest::newRow("CRLF line ends are stripped") << L{"{}\r\n{}\r\n"} << L{"{}", "{}"} << QByteArray();
        QTest::newRow("CR and LF split across reads") << L{"{}\r", "\n"} << L{"{}"} << QByteArray();
        QTest::newRow("blank lines are skipped") << L{"\n\n{}\n\r\n"} << L{"{}"} << QByteArray();
        QTest::newRow("garbage is framed like anything else") << L{"not json\n{}\n"} << L{"not json", "{}"} << QByteArray();
        QTest::newRow("a byte at a time") << L{"{", "}", "\n", "[", "]", "\n"} << L{"{}", "[]"} << QByteArray();
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
};

QTEST_APPLESS_MAIN(TestLineFramer)
#include "tst_lineframer.moc"
