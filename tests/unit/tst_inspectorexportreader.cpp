// SPDX-License-Identifier: MIT
// The official MCP Inspector's exports read into Sonde transcript records: its Protocol history
// (requests with their folded responses, in both directions, and the client's refusals), its
// Console and its Logs; and the errors for a file that is not that shape, cut short or too big.
#include "inspectorexportreader.h"

#include <QBuffer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

const char ProtocolFixture[] = "../fixtures/inspector-protocol-demo-2026-08-19T15-02-09.412Z.json";
const char ConsoleFixture[] = "../fixtures/inspector-console-demo-2026-08-19T15-02-09.500Z.json";

QByteArray fixture(const char *name)
{
    QFile f(QFINDTESTDATA(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("fixture %s is missing", name);
    return f.readAll();
}

qint64 ms(const char *iso)
{
    return QDateTime::fromString(QString::fromLatin1(iso), Qt::ISODateWithMs).toMSecsSinceEpoch();
}

// "dir method-or-id" for each record, to compare a whole sequence at once.
QStringList shapes(const QList<QJsonObject> &records)
{
    QStringList out;
    for (const QJsonObject &r : records) {
        const QJsonObject msg = r.value("msg"_L1).toObject();
        QString what = msg.contains("method"_L1)
                           ? msg.value("method"_L1).toString()
                           : u"#"_s + QString::number(msg.value("id"_L1).toInteger());
        if (r.contains("line"_L1))
            what = u"line"_s;
        if (r.value("dir"_L1) == "violation"_L1)
            what = u"refused"_s;
        out << r.value("dir"_L1).toString() + u' ' + what;
    }
    return out;
}

} // namespace

class TestInspectorExportReader : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void protocolExportBecomesRecordsInTimeOrder()
    {
        const auto r = InspectorExportReader::fromJson(fixture(ProtocolFixture), u"demo"_s);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.kind, InspectorExportReader::Kind::Protocol);
        // A request folded with its response becomes two records; the server's roots/list
        // request goes in, the client's answer out; the refused tools/list answer is followed
        // by the violation that says why.
        QCOMPARE(
            shapes(r.records),
            (QStringList{u"send initialize"_s, u"recv #0"_s, u"send notifications/initialized"_s,
                         u"send tools/list"_s, u"recv #1"_s, u"recv notifications/message"_s,
                         u"send tools/call"_s, u"recv #2"_s, u"recv roots/list"_s, u"send #7"_s,
                         u"send tools/call"_s, u"recv #3"_s, u"send tools/list"_s, u"recv #4"_s,
                         u"violation refused"_s}));
        qint64 last = 0;
        for (const QJsonObject &rec : r.records) {
            QCOMPARE(rec.value("server"_L1).toString(), u"demo"_s);
            QCOMPARE(rec.value("gen"_L1).toInt(), 1);
            const qint64 t = rec.value("t_ms"_L1).toInteger();
            QVERIFY(t >= last);
            last = t;
            QCOMPARE(QDateTime::fromString(rec.value("t"_L1).toString(), Qt::ISODateWithMs)
                         .toMSecsSinceEpoch(),
                     t);
        }
    }

    void responseTimeIsTheRequestTimePlusItsDuration()
    {
        const auto r = InspectorExportReader::fromJson(fixture(ProtocolFixture), u"demo"_s);
        QCOMPARE(r.records.at(0).value("t_ms"_L1).toInteger(), ms("2026-08-19T15:02:03.120Z"));
        QCOMPARE(r.records.at(1).value("t_ms"_L1).toInteger(), ms("2026-08-19T15:02:03.120Z") + 41);
        QCOMPARE(r.records.at(1)
                     .value("msg"_L1)
                     .toObject()
                     .value("result"_L1)
                     .toObject()
                     .value("serverInfo"_L1)
                     .toObject()
                     .value("name"_L1)
                     .toString(),
                 u"sonde-demo-server"_s);
        const QJsonObject refused = r.records.last();
        QVERIFY(refused.value("event"_L1).toString().contains("missing ttlMs"_L1));
        QCOMPARE(QJsonDocument::fromJson(refused.value("raw"_L1).toString().toUtf8())
                     .object()
                     .value("id"_L1)
                     .toInt(),
                 4);
    }

    void consoleExportBecomesStderrLines()
    {
        const auto r = InspectorExportReader::fromJson(fixture(ConsoleFixture), {});
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.kind, InspectorExportReader::Kind::Console);
        QCOMPARE(shapes(r.records), (QStringList{u"stderr line"_s, u"stderr line"_s}));
        QCOMPARE(r.records.at(1).value("line"_L1).toString(),
                 u"sonde-demo-server: unknown tool missing"_s);
        QCOMPARE(r.records.at(0).value("server"_L1).toString(), u"inspector"_s);
    }

    void logsExportBecomesLogNotifications()
    {
        const QByteArray json = "[{\"receivedAt\":\"2026-08-19T15:02:05.004Z\",\"params\":"
                                "{\"level\":\"info\",\"logger\":\"demo\",\"data\":\"ready\"}}]";
        const auto r = InspectorExportReader::fromJson(json, u"demo"_s);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(shapes(r.records), QStringList{u"recv notifications/message"_s});
        QCOMPARE(r.records.first()
                     .value("msg"_L1)
                     .toObject()
                     .value("params"_L1)
                     .toObject()
                     .value("data"_L1)
                     .toString(),
                 u"ready"_s);
    }

    void entriesWithoutOriginAreReadAsTheClientsRequests()
    {
        const QByteArray json =
            "[{\"id\":\"a\",\"timestamp\":\"2026-08-19T15:02:03.120Z\",\"direction\":\"request\","
            "\"message\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
            "\"response\":{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}},\"duration\":4},"
            "{\"id\":\"b\",\"timestamp\":\"2026-08-19T15:02:03.200Z\",\"direction\":"
            "\"notification\","
            "\"message\":{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}}]";
        const auto r = InspectorExportReader::fromJson(json, u"demo"_s);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(shapes(r.records), (QStringList{u"send ping"_s, u"recv #1"_s,
                                                 u"recv notifications/tools/list_changed"_s}));
    }

    void badShapesAreRefusedWithTheReason_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error");
        QTest::newRow("an object at the top level is not an export")
            << QByteArray("{\"dir\":\"send\"}") << u"its top level is an object"_s;
        QTest::newRow("an empty array has nothing to read")
            << QByteArray("[]") << u"an empty array"_s;
        QTest::newRow("an array of numbers is not an export")
            << QByteArray("[1,2]") << u"entry 1 has none of the fields"_s;
        QTest::newRow("a network export is refused and says what to export")
            << QByteArray("[{\"id\":\"n\",\"timestamp\":\"2026-08-19T15:02:03.120Z\","
                          "\"method\":\"POST\",\"url\":\"http://localhost/mcp\","
                          "\"requestHeaders\":{},\"category\":\"transport\"}]")
            << u"Network export"_s;
        QTest::newRow("a console entry among protocol entries names its entry")
            << QByteArray("[{\"timestamp\":\"2026-08-19T15:02:03.120Z\",\"direction\":\"request\","
                          "\"message\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}},"
                          "{\"timestamp\":\"2026-08-19T15:02:03.120Z\",\"message\":\"x\"}]")
            << u"entry 2: a Console entry in a Protocol export"_s;
        QTest::newRow("a timestamp that is not a time names its entry")
            << QByteArray("[{\"timestamp\":\"yesterday\",\"direction\":\"request\","
                          "\"message\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}}]")
            << u"entry 1: no \"timestamp\" as an ISO time"_s;
        QTest::newRow("a protocol entry without its message names its entry")
            << QByteArray(
                   "[{\"timestamp\":\"2026-08-19T15:02:03.120Z\",\"direction\":\"request\"}]")
            << u"entry 1: no \"message\" object"_s;
        QTest::newRow("an origin other than client or server is refused")
            << QByteArray("[{\"timestamp\":\"2026-08-19T15:02:03.120Z\",\"direction\":\"request\","
                          "\"origin\":\"proxy\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":1,"
                          "\"method\":\"ping\"}}]")
            << u"an \"origin\" of proxy"_s;
    }

    void badShapesAreRefusedWithTheReason()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        const auto r = InspectorExportReader::fromJson(json, u"demo"_s);
        QVERIFY2(r.error.contains(error), qPrintable(r.error));
        QVERIFY(r.records.isEmpty());
    }

    void aTruncatedFileNamesTheLineWhereItStops()
    {
        const QByteArray whole = fixture(ProtocolFixture);
        const QByteArray cut = whole.left(whole.indexOf("\"tools/call\""));
        const auto r = InspectorExportReader::fromJson(cut, u"demo"_s);
        const qsizetype lines = cut.count('\n') + 1;
        QVERIFY2(r.error.startsWith(u"not JSON at line %1,"_s.arg(lines)), qPrintable(r.error));
        QVERIFY(r.records.isEmpty());
    }

    void aFileOverTheLimitIsRefusedNamingIt()
    {
        QByteArray json = fixture(ProtocolFixture);
        QBuffer in(&json);
        in.open(QIODevice::ReadOnly);
        const auto small = InspectorExportReader::read(in, u"demo"_s, 1000);
        QCOMPARE(small.error,
                 u"the file is larger than the 1000 bytes limit for an Inspector export"_s);
        QVERIFY(small.records.isEmpty());
        in.seek(0);
        const auto whole = InspectorExportReader::read(in, u"demo"_s, json.size());
        QVERIFY2(whole.error.isEmpty(), qPrintable(whole.error));
        QCOMPARE(whole.records.size(), 15);
        QVERIFY(InspectorExportReader::DefaultMaxBytes == qint64(256) * 1024 * 1024);
    }

    void serverNameComesFromTheInspectorsFileName_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("server");
        const struct
        {
            const char *row, *file, *server;
        } rows[] = {
            {"a protocol export names its server",
             "inspector-protocol-demo-2026-08-19T15-02-09.412Z.json", "demo"},
            {"a pinned export names its server",
             "inspector-protocol-pinned-demo-2026-08-19T15-02-09.412Z.json", "demo"},
            {"a percent-encoded id is decoded",
             "inspector-console-my%20server%2Fone-2026-08-19T15-02-09.412Z.json", "my server/one"},
            {"an id with dashes keeps them", "inspector-logs-a-b-c-2026-08-19T15-02-09.412Z.json",
             "a-b-c"},
            {"an export without a server has no name",
             "inspector-protocol-2026-08-19T15-02-09.412Z.json", ""},
            {"a renamed file has no name", "session.json", ""},
        };
        for (const auto &r : rows)
            QTest::newRow(r.row) << QString::fromUtf8(r.file) << QString::fromUtf8(r.server);
    }

    void serverNameComesFromTheInspectorsFileName()
    {
        QFETCH(QString, file);
        QFETCH(QString, server);
        QCOMPARE(InspectorExportReader::serverFromFileName(file), server);
    }
};

QTEST_GUILESS_MAIN(TestInspectorExportReader)
#include "tst_inspectorexportreader.moc"
