// SPDX-License-Identifier: MIT
// A transcript file's format told from its first bytes (Sonde's JSON Lines of every version,
// the MCP Inspector's export, and the files that are neither: empty, binary, other JSON or
// text), and each read into a history through the one entry point the CLI and the window use.
#include "historyimporter.h"
#include "historystore.h"
#include "transcriptfilereader.h"

#include <QBuffer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

const char ProtocolFixture[] = "../fixtures/inspector-protocol-demo-2026-08-19T15-02-09.412Z.json";

using Format = TranscriptFileReader::Format;

} // namespace

class TestTranscriptFileReader : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void formatsAreToldFromTheStart_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<int>("format");
        QTest::newRow("a record of the first release is Sonde's JSON Lines")
            << QByteArray("{\"dir\":\"send\",\"gen\":1,\"msg\":{},\"server\":\"a\","
                          "\"t\":\"2026-01-01T00:00:00.000Z\",\"t_ms\":1}\n")
            << int(Format::SondeJsonl);
        QTest::newRow("the versioned header line is Sonde's JSON Lines")
            << QByteArray("{\"format\":\"sonde-transcript\",\"version\":2}\n{\"dir\":\"recv\"}\n")
            << int(Format::SondeJsonl);
        QTest::newRow("a single record without a line break is Sonde's JSON Lines")
            << QByteArray("{\"dir\":\"stderr\",\"line\":\"x\",\"t_ms\":1}")
            << int(Format::SondeJsonl);
        QTest::newRow("an array is the Inspector's export")
            << QByteArray("[\n  {\n    \"id\": \"x\",") << int(Format::InspectorJson);
        QTest::newRow("a byte order mark and blank lines before the array are skipped")
            << QByteArray("\xEF\xBB\xBF\n\n  [{") << int(Format::InspectorJson);
    }

    void formatsAreToldFromTheStart()
    {
        QFETCH(QByteArray, head);
        QFETCH(int, format);
        QString why;
        const auto f = TranscriptFileReader::sniff(head, &why);
        QVERIFY2(f.has_value(), qPrintable(why));
        QCOMPARE(int(*f), format);
    }

    void otherFilesAreRefusedWithTheReason_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<QString>("error");
        QTest::newRow("an empty file") << QByteArray() << u"the file is empty"_s;
        QTest::newRow("a file of blank lines") << QByteArray("\n \n\t\n") << u"the file is empty"_s;
        QTest::newRow("a PNG image is binary")
            << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16) << u"a binary file"_s;
        QTest::newRow("a SQLite database is binary")
            << QByteArray("SQLite format 3\0\x10\0\x01\x01", 20) << u"a binary file"_s;
        QTest::newRow("a pretty-printed object is neither format")
            << QByteArray("{\n  \"dir\": \"send\"\n}\n") << u"line 1 is not a whole JSON object"_s;
        QTest::newRow("plain text says how it starts")
            << QByteArray("hello world\n") << u"it starts with \"hello world\""_s;
    }

    void otherFilesAreRefusedWithTheReason()
    {
        QFETCH(QByteArray, head);
        QFETCH(QString, error);
        QString why;
        QVERIFY(!TranscriptFileReader::sniff(head, &why).has_value());
        QVERIFY2(why.contains(error), qPrintable(why));
    }

    void tellingTheFormatConsumesNothing()
    {
        QByteArray bytes("{\"dir\":\"stderr\",\"line\":\"x\",\"t_ms\":1}\n");
        QBuffer in(&bytes);
        in.open(QIODevice::ReadOnly);
        QString why;
        QCOMPARE(TranscriptFileReader::formatOf(in, &why), std::optional(Format::SondeJsonl));
        QCOMPARE(in.pos(), 0);
    }

    void bothFormatsReadIntoAHistory_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("jsonl");
        QTest::addColumn<qint64>("imported");
        QTest::addColumn<QString>("server");
        QTest::newRow("the Inspector's export, named after its server")
            << QFINDTESTDATA(ProtocolFixture) << QByteArray() << qint64(15) << u"demo"_s;
        QTest::newRow("Sonde's JSON Lines, a bad line skipped")
            << u"run.jsonl"_s
            << QByteArray("{\"dir\":\"stderr\",\"line\":\"a\",\"server\":\"s\",\"t_ms\":1}\n"
                          "not json\n"
                          "{\"dir\":\"stderr\",\"line\":\"b\",\"server\":\"s\",\"t_ms\":2}\n")
            << qint64(2) << u"s"_s;
    }

    void bothFormatsReadIntoAHistory()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, jsonl);
        QFETCH(qint64, imported);
        QFETCH(QString, server);
        QByteArray bytes = jsonl;
        if (bytes.isEmpty()) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::ReadOnly));
            bytes = f.readAll();
        }
        QBuffer in(&bytes);
        in.open(QIODevice::ReadOnly);
        QString why;
        const auto format = TranscriptFileReader::formatOf(in, &why);
        QVERIFY2(format, qPrintable(why));
        QTemporaryDir dir;
        HistoryStore store;
        QString error;
        QVERIFY2(store.open(dir.filePath(u"h.sqlite"_s), &error, u"test"_s), qPrintable(error));
        const auto r = TranscriptFileReader::importInto(in, *format, file, store);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.imported, imported);
        QCOMPARE(store.count({}), imported);
        QCOMPARE(store.servers(), QStringList{server});
    }

    void aBadInspectorFileAddsNothing()
    {
        QByteArray bytes("[{\"timestamp\":\"2026-08-19T15:02:03.120Z\",\"direction\":\"request\","
                         "\"message\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}},\n"
                         "{\"timestamp\":\"later\",\"direction\":\"request\",\"message\":{}}]");
        QBuffer in(&bytes);
        in.open(QIODevice::ReadOnly);
        QTemporaryDir dir;
        HistoryStore store;
        QString error;
        QVERIFY(store.open(dir.filePath(u"h.sqlite"_s), &error, u"test"_s));
        const auto r =
            TranscriptFileReader::importInto(in, Format::InspectorJson, u"x.json"_s, store);
        QVERIFY2(r.error.startsWith("entry 2:"_L1), qPrintable(r.error));
        QCOMPARE(r.imported, 0);
        QCOMPARE(store.count({}), 0);
    }

    void cancellingStopsBetweenBatches_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<int>("batchesBeforeTheCancel");
        QTest::addColumn<qint64>("imported");
        QTest::newRow("the Inspector's export cancelled at once adds nothing")
            << int(Format::InspectorJson) << 0 << qint64(0);
        QTest::newRow("JSON Lines cancelled at once adds nothing")
            << int(Format::SondeJsonl) << 0 << qint64(0);
        QTest::newRow("JSON Lines cancelled after a batch keeps that batch and no more")
            << int(Format::SondeJsonl) << 1 << qint64(HistoryImporter::BatchSize);
    }

    void cancellingStopsBetweenBatches()
    {
        QFETCH(int, format);
        QFETCH(int, batchesBeforeTheCancel);
        QFETCH(qint64, imported);
        QByteArray bytes;
        if (Format(format) == Format::InspectorJson) {
            QFile f(QFINDTESTDATA(ProtocolFixture));
            QVERIFY(f.open(QIODevice::ReadOnly));
            bytes = f.readAll();
        } else {
            // Two batches and a bit: a cancel between them is seen.
            for (int i = 0; i < 2 * HistoryImporter::BatchSize + 10; ++i)
                bytes += "{\"dir\":\"stderr\",\"line\":\"l" + QByteArray::number(i) +
                         "\",\"server\":\"s\",\"t_ms\":" + QByteArray::number(i + 1) + "}\n";
        }
        QBuffer in(&bytes);
        in.open(QIODevice::ReadOnly);
        QTemporaryDir dir;
        HistoryStore store;
        QString error;
        QVERIFY(store.open(dir.filePath(u"h.sqlite"_s), &error, u"test"_s));
        int asked = 0;
        const auto r = TranscriptFileReader::importInto(
            in, Format(format), u"x.json"_s, store,
            [&asked, batchesBeforeTheCancel] { return asked++ >= batchesBeforeTheCancel; });
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.imported, imported);
        QCOMPARE(store.count({}), imported);
    }
};

QTEST_GUILESS_MAIN(TestTranscriptFileReader)
#include "tst_transcriptfilereader.moc"
