// SPDX-License-Identifier: MIT
// WireFrameRecord: the history's direct read of a wire frame keeps what the general path
// (TranscriptEvent::toJson, Redactor::apply, QJsonDocument) keeps, row for row, and says no
// to every frame that path would write another way.
#include "config/serverconfig.h"
#include "historyimporter.h"
#include "historystore.h"
#include "wireframerecord.h"

#include <QBuffer>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Sonde;

namespace {

const QString Secret = u"hunter2-is-the-configured-value"_s;

// "send:{...}" or "recv:{...}": a frame of the flood's server, generation 1.
TranscriptEvent frame(const QByteArray &line, qint64 t)
{
    TranscriptEvent e;
    e.timeMs = 1700000000000 + t;
    e.server = u"srv"_s;
    e.generation = 1;
    e.direction = line.startsWith("send:") ? TranscriptEvent::Direction::Outgoing
                                           : TranscriptEvent::Direction::Incoming;
    e.raw = line.mid(5);
    return e;
}

Redactor redactorWithSecret()
{
    Redactor r;
    r.addSecret(Secret);
    return r;
}

// Every column of every event, the record as parsed JSON (its "msg" may keep the frame's
// own key order and spacing), and the sessions' protocol versions.
QList<QVariantList> rowsOf(const QString &path)
{
    QList<QVariantList> out;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"check"_s);
        db.setDatabaseName(path);
        if (!db.open())
            return out;
        QSqlQuery q(db);
        q.exec(u"SELECT e.t_ms, e.server, e.gen, e.dir, e.method, e.tool, e.request_id,"
               u" e.is_error, e.record, s.protocol_version FROM events e JOIN sessions s"
               u" ON s.id = e.session ORDER BY e.id"_s);
        while (q.next()) {
            QVariantList row;
            for (int c = 0; c < 10; ++c)
                row << (c == 8 ? QVariant(QJsonDocument::fromJson(q.value(c).toByteArray())
                                              .object()
                                              .toVariantMap())
                               : q.value(c));
            out << row;
        }
    }
    QSqlDatabase::removeDatabase(u"check"_s);
    return out;
}

} // namespace

class TestWireFrameRecord : public QObject
{
    Q_OBJECT
private slots:
    void theRowsAreTheGeneralPathsRows_data()
    {
        QTest::addColumn<QByteArrayList>("frames");
        QTest::addColumn<QList<bool>>("readDirectly");
        QTest::addColumn<QString>("server");

        const QString s = u"srv"_s;
        QTest::newRow("a log notification is read off its bytes")
            << QByteArrayList{"recv:{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                              "\"params\":{\"level\":\"info\",\"data\":\"event 1\"}}"}
            << QList<bool>{true} << s;
        QTest::newRow("a tool call keeps its tool and its answer pairs with it")
            << QByteArrayList{"send:{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
                              "\"params\":{\"name\":\"echo\",\"arguments\":{\"message\":\"hi\"}}}",
                              "recv:{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[{"
                              "\"type\":\"text\",\"text\":\"hi\"}]}}"}
            << QList<bool>{true, true} << s;
        QTest::newRow("params before the method still name the tool")
            << QByteArrayList{"send:{\"params\":{\"name\":\"echo\"},\"id\":\"a-1\",\"method\":"
                              "\"tools/call\",\"jsonrpc\":\"2.0\"}"}
            << QList<bool>{true} << s;
        QTest::newRow("a resource read keeps its uri as the tool")
            << QByteArrayList{"send:{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\","
                              "\"params\":{\"uri\":\"demo://notes/1\"}}"}
            << QList<bool>{true} << s;
        QTest::newRow("an error answer is an error")
            << QByteArrayList{"recv:{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32601,"
                              "\"message\":\"no such method\"}}"}
            << QList<bool>{true} << s;
        QTest::newRow("a result with isError true is an error, a nested one is not")
            << QByteArrayList{"recv:{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"isError\":true}}",
                              "recv:{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{\"inner\":{"
                              "\"isError\":true}}}"}
            << QList<bool>{true, true} << s;
        QTest::newRow("an initialize answer gives the session its protocol version")
            << QByteArrayList{"recv:{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"protocolVersion\":"
                              "\"2025-11-25\",\"capabilities\":{}}}"}
            << QList<bool>{true} << s;
        QTest::newRow(
            "a fractional id and one beyond qint64 are written as JSON numbers, never cast")
            << QByteArrayList{"recv:{\"jsonrpc\":\"2.0\",\"id\":1.5,\"result\":{}}",
                              "recv:{\"jsonrpc\":\"2.0\",\"id\":1e2,\"result\":{}}",
                              "recv:{\"jsonrpc\":\"2.0\",\"id\":123456789012345678901,"
                              "\"result\":{}}",
                              "recv:{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":1}}"}
            << QList<bool>{true, true, true, true} << s;
        QTest::newRow("spaces between the tokens and around the frame are kept or trimmed")
            << QByteArrayList{"recv:  { \"jsonrpc\" : \"2.0\" , \"method\" : \"x/y\" , "
                              "\"params\" : { } }  "}
            << QList<bool>{true} << s;
        QTest::newRow("escaped quotes, backslashes and line breaks in a string are read directly")
            << QByteArrayList{"recv:{\"jsonrpc\":\"2.0\",\"method\":\"n\\\"ote\",\"params\":{"
                              "\"data\":\"a\\\\b\\nc\\td\"}}"}
            << QList<bool>{true} << s;
        QTest::newRow("text outside ASCII is read directly")
            << QByteArrayList{"recv:{\"jsonrpc\":\"2.0\",\"method\":\"n\",\"params\":{\"data\":"
                              "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"}}"}
            << QList<bool>{true} << s;
        QTest::newRow("a \\u escape takes the general path, which writes it as UTF-8")
            << QByteArrayList{"recv:{\"jsonrpc\":\"2.0\",\"method\":\"n\",\"params\":{\"data\":"
                              "\"caf\\u00e9\"}}",
                              "recv:{\"jsonrpc\":\"2.0\",\"method\":\"a\\/b\"}"}
            << QList<bool>{false, false} << s;
        QTest::newRow("a line break between tokens takes the general path")
            << QByteArrayList{"recv:{\"jsonrpc\":\"2.0\",\n\"method\":\"n\"}",
                              "recv:{\"jsonrpc\":\"2.0\",\t\"method\":\"n\"}"}
            << QList<bool>{false, false} << s;
        QTest::newRow("a bearer token in a value takes the general path and is masked")
            << QByteArrayList{"send:{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\","
                              "\"params\":{\"name\":\"fetch\",\"arguments\":{\"header\":"
                              "\"Bearer abcdef0123456789abcdef\"}}}"}
            << QList<bool>{false} << s;
        QTest::newRow("a configured secret value takes the general path and is masked")
            << QByteArrayList{("recv:{\"jsonrpc\":\"2.0\",\"method\":\"n\",\"params\":{"
                               "\"data\":\"the value " +
                               Secret.toUtf8() + " leaked\"}}")}
            << QList<bool>{false} << s;
        QTest::newRow("a secret behind an escape is still seen")
            << QByteArrayList{("recv:{\"jsonrpc\":\"2.0\",\"method\":\"n\",\"params\":{"
                               "\"data\":\"line\\n" +
                               Secret.toUtf8() + "\"}}")}
            << QList<bool>{false} << s;
        QTest::newRow("a key that names a secret is left alone, as Redactor::apply leaves it")
            << QByteArrayList{"recv:{\"jsonrpc\":\"2.0\",\"method\":\"n\",\"params\":{"
                              "\"token\":3,\"password\":null}}"}
            << QList<bool>{true} << s;
        QTest::newRow("a batch takes the general path")
            << QByteArrayList{"send:[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]"}
            << QList<bool>{false} << s;
        QTest::newRow("broken JSON, trailing bytes and invalid UTF-8 take the general path")
            << QByteArrayList{"recv:{\"jsonrpc\":\"2.0\",\"method\":",
                              "recv:{\"jsonrpc\":\"2.0\",\"method\":\"n\"} x",
                              "recv:{\"jsonrpc\":\"2.0\",\"method\":\"n\xff\"}", "recv:not json"}
            << QList<bool>{false, false, false, false} << s;
        QTest::newRow("a member twice and an empty object take the general path")
            << QByteArrayList{"recv:{\"jsonrpc\":\"2.0\",\"method\":\"a\",\"method\":\"b\"}",
                              "recv:{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"result\":1}",
                              "recv:{}"}
            << QList<bool>{false, false, false} << s;
        QTest::newRow("a server name with a quote and a control character is escaped as Qt does")
            << QByteArrayList{"recv:{\"jsonrpc\":\"2.0\",\"method\":\"n\"}"} << QList<bool>{true}
            << u"my \"demo\"\x01 caf\u00e9"_s;
        QTest::newRow("a server name a secret rule may match takes the general path")
            << QByteArrayList{"recv:{\"jsonrpc\":\"2.0\",\"method\":\"n\"}"} << QList<bool>{false}
            << u"token=abcdef0123456789"_s;
    }

    void theRowsAreTheGeneralPathsRows()
    {
        QFETCH(QByteArrayList, frames);
        QFETCH(QList<bool>, readDirectly);
        QFETCH(QString, server);
        QCOMPARE(frames.size(), readDirectly.size());

        TranscriptBatch batch;
        for (qsizetype i = 0; i < frames.size(); ++i) {
            TranscriptEvent e = frame(frames[i], i);
            e.server = server;
            batch << e;
        }
        const Redactor redactor = redactorWithSecret();
        for (qsizetype i = 0; i < batch.size(); ++i)
            QVERIFY2(WireFrameRecord::read(batch[i], &redactor).has_value() == readDirectly[i],
                     qPrintable(u"frame %1 should%2 be read directly"_s.arg(i).arg(
                         readDirectly[i] ? QString() : u" not"_s)));

        QTemporaryDir dir;
        QList<QVariantList> rows[2];
        for (int direct = 0; direct < 2; ++direct) {
            const QString path = dir.filePath(u"h%1.sqlite"_s.arg(direct));
            {
                HistoryStore store;
                QString error;
                QVERIFY2(store.open(path, &error, u"test"_s), qPrintable(error));
                ServerConfig config;
                config.name = server;
                config.environment.insert(u"API_KEY"_s, Secret);
                store.addSecrets(config);
                store.setFramesReadDirectly(direct == 1);
                QVERIFY2(store.append(batch, &error), qPrintable(error));
            }
            rows[direct] = rowsOf(path);
        }
        QCOMPARE(rows[1].size(), batch.size());
        QCOMPARE(rows[1], rows[0]);
        for (const QVariantList &row : std::as_const(rows[1]))
            QVERIFY(!QJsonDocument::fromVariant(row[8]).toJson().contains(Secret.toUtf8()));
    }

    void eachRowKeepsItsOwnColumnsWhateverTheRowBefore()
    {
        // The store binds only what changed since the row before (bound values stay bound
        // after exec()): every column must still be the row's own, and a value the row before
        // had must not leak into a row without it.
        TranscriptBatch batch{
            frame("send:{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":"
                  "{\"name\":\"echo\"}}",
                  0),
            frame("recv:{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}", 1),
            frame("recv:{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-1}}", 2),
            frame("recv:{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}", 3)};
        batch[3].server = u"other"_s;
        batch[3].generation = 2;
        QTemporaryDir dir;
        const QString path = dir.filePath(u"h.sqlite"_s);
        for (int round = 0; round < 2; ++round) { // and the first row of the next batch
            HistoryStore store;
            QString error;
            QVERIFY2(store.open(path, &error, u"test"_s), qPrintable(error));
            QVERIFY2(store.append(batch, &error), qPrintable(error));
        }
        const QList<QVariantList> rows = rowsOf(path);
        QCOMPARE(rows.size(), 8);
        // server, gen, dir, method, tool, request_id, is_error
        const QList<QVariantList> expected = {
            {u"srv"_s, 1, u"send"_s, u"tools/call"_s, u"echo"_s, u"7"_s, 0},
            {u"srv"_s, 1, u"recv"_s, u"notifications/message"_s, u""_s, u""_s, 0},
            {u"srv"_s, 1, u"recv"_s, u"tools/call"_s, u"echo"_s, u"7"_s, 1},
            {u"other"_s, 2, u"recv"_s, u"notifications/message"_s, u""_s, u""_s, 0}};
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 7; ++c)
                QVERIFY2(rows[r][c + 1].toString() == expected[r % 4][c].toString(),
                         qPrintable(u"row %1, column %2: %3, not %4"_s.arg(r).arg(c + 1).arg(
                             rows[r][c + 1].toString(), expected[r % 4][c].toString())));
    }

    void anImportedLineIsStoredAsItsParsedRecordIs_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<bool>("readDirectly");
        const QByteArray msg = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}";
        const QByteArray tail = ",\"server\":\"srv\",\"t\":\"2023-11-14T22:13:20.000Z\","
                                "\"t_ms\":1700000000000}";
        QTest::newRow("a record of today's shape is not parsed")
            << "{\"dir\":\"recv\",\"gen\":1,\"msg\":" + msg + tail << true;
        QTest::newRow("its keys in another order and spaces between them")
            << "{ \"t_ms\" : 1700000000000 , \"msg\" : " + msg +
                   ", \"gen\":2,\"server\":\"srv\",\"dir\":\"send\",\"t\":"
                   "\"2023-11-14T22:13:20.000Z\"}"
            << true;
        QTest::newRow("a server name with an escaped quote")
            << "{\"dir\":\"recv\",\"gen\":1,\"msg\":" + msg +
                   ",\"server\":\"my \\\"srv\\\"\",\"t\":\"2023-11-14T22:13:20.000Z\","
                   "\"t_ms\":1700000000000}"
            << true;
        QTest::newRow("a bearer token in the frame is masked, as when it was parsed")
            << "{\"dir\":\"send\",\"gen\":1,\"msg\":{\"jsonrpc\":\"2.0\",\"id\":1,"
               "\"method\":\"tools/call\",\"params\":{\"name\":\"f\",\"arguments\":{"
               "\"h\":\"Bearer abcdef0123456789abcdef\"}}}" +
                   tail
            << true;
        QTest::newRow("a t that is not the ISO form of t_ms is parsed")
            << "{\"dir\":\"recv\",\"gen\":1,\"msg\":" + msg +
                   ",\"server\":\"srv\",\"t\":\"yesterday\",\"t_ms\":1700000000000}"
            << false;
        QTest::newRow("a generation written 1.0 is parsed")
            << "{\"dir\":\"recv\",\"gen\":1.0,\"msg\":" + msg + tail << false;
        QTest::newRow("a server name with a \\u escape is parsed")
            << "{\"dir\":\"recv\",\"gen\":1,\"msg\":" + msg +
                   ",\"server\":\"caf\\u00e9\",\"t\":\"2023-11-14T22:13:20.000Z\","
                   "\"t_ms\":1700000000000}"
            << false;
        QTest::newRow("a lifecycle event is parsed")
            << QByteArray("{\"dir\":\"event\",\"event\":\"ready\",\"gen\":1" + tail) << false;
        QTest::newRow("a line without its payload is parsed")
            << "{\"dir\":\"recv\",\"gen\":1,\"msg\":" + msg + ",\"payload_omitted\":true" + tail
            << false;
        QTest::newRow("a batch frame is parsed")
            << "{\"dir\":\"recv\",\"gen\":1,\"msg\":[" + msg + "]" + tail << false;
        QTest::newRow("a key twice is parsed")
            << "{\"dir\":\"recv\",\"dir\":\"send\",\"gen\":1,\"msg\":" + msg + tail << false;
    }
    void anImportedLineIsStoredAsItsParsedRecordIs()
    {
        QFETCH(QByteArray, line);
        QFETCH(bool, readDirectly);
        QCOMPARE(WireFrameRecord::eventOfRecordLine(line).has_value(), readDirectly);
        const QJsonObject parsed = QJsonDocument::fromJson(line).object();
        QVERIFY(!parsed.isEmpty());
        QTemporaryDir dir;
        const QString imported = dir.filePath(u"imported.sqlite"_s);
        const QString appended = dir.filePath(u"appended.sqlite"_s);
        {
            HistoryStore store;
            QString error;
            QVERIFY2(store.open(imported, &error, u"import"_s), qPrintable(error));
            QBuffer in;
            in.setData(line + '\n');
            QVERIFY(in.open(QIODevice::ReadOnly));
            const HistoryImporter::Result r = HistoryImporter::import(in, store);
            QCOMPARE(r.imported, qint64(1));
        }
        {
            HistoryStore store;
            QString error;
            QVERIFY2(store.open(appended, &error, u"import"_s), qPrintable(error));
            QVERIFY2(store.appendRecords({parsed}, &error), qPrintable(error));
        }
        const QList<QVariantList> rows = rowsOf(imported);
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows, rowsOf(appended));
        QVERIFY(!QJsonDocument::fromVariant(rows[0][8]).toJson().contains("abcdef0123456789"));
    }

    void aDirectRecordIsTheGeneralRecordButForItsFrame()
    {
        // Byte for byte: the same keys in the same order, the frame as it came.
        TranscriptEvent e = frame("recv:{\"jsonrpc\":\"2.0\",\"method\":\"n\",\"params\":{}}", 0);
        const std::optional<WireFrameRecord> r = WireFrameRecord::read(e, nullptr);
        QVERIFY(r);
        QCOMPARE(r->record, QJsonDocument(e.toJson()).toJson(QJsonDocument::Compact));
    }

    void theTimeIsQDateTimes_data()
    {
        QTest::addColumn<qint64>("ms");
        QTest::newRow("the epoch") << qint64(0);
        QTest::newRow("a November afternoon") << qint64(1700000000123);
        QTest::newRow("a leap day") << qint64(1709164800999);
        QTest::newRow("the leap day of 2000") << qint64(951782400000);
        QTest::newRow("the last millisecond of 1999") << qint64(946684799999);
        QTest::newRow("the last millisecond of 9999") << qint64(253402300799999);
        QTest::newRow("before the epoch (QDateTime's own)") << qint64(-1);
        QTest::newRow("after 9999 (QDateTime's own)") << qint64(253402300800000);
    }
    void theTimeIsQDateTimes()
    {
        QFETCH(qint64, ms);
        QCOMPARE(
            WireFrameRecord::isoTime(ms),
            QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs).toLatin1());
    }
    void everyDayOfFourCenturiesIsQDateTimes()
    {
        // One time a day from 1970 to 2370, each at another time of the day.
        for (qint64 day = 0; day < 146097; ++day) {
            const qint64 ms = day * 86'400'000 + (day * 7919) % 86'400'000;
            const QByteArray expected =
                QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs).toLatin1();
            if (WireFrameRecord::isoTime(ms) != expected)
                QFAIL(qPrintable(u"day %1: %2, not %3"_s.arg(day).arg(
                    QString::fromLatin1(WireFrameRecord::isoTime(ms)),
                    QString::fromLatin1(expected))));
        }
    }

    void aJsonStringIsQJsonDocuments()
    {
        QString all;
        for (char16_t c = 1; c < 0x80; ++c)
            all += QChar(c);
        all += u"caf\u00e9 \U0001F600"_s;
        const QByteArray array = QJsonDocument(QJsonArray{all}).toJson(QJsonDocument::Compact);
        QCOMPARE(WireFrameRecord::jsonString(all), array.mid(1, array.size() - 2));
    }
};

QTEST_GUILESS_MAIN(TestWireFrameRecord)
#include "tst_wireframerecord.moc"
