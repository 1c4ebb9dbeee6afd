// SPDX-License-Identifier: MIT
// OtlpSender against a fake collector on loopback (the test's QTcpServer): what reaches the
// collector is counted on its side of the wire, so a POST Qt sent again would show.
#include "fakecollector.h"
#include "transport/otlpsender.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Sonde;
using namespace SondeTest;
using namespace Qt::StringLiterals;

class TestOtlpSender : public QObject
{
    Q_OBJECT

    // What OtlpExport writes, in miniature: the collector only has to see it byte for byte.
    static QByteArray exportBody()
    {
        const QJsonObject span{{"name"_L1, u"tools/call echo"_s}, {"kind"_L1, 3}};
        const QJsonObject doc{
            {"resourceSpans"_L1,
             QJsonArray{QJsonObject{
                 {"scopeSpans"_L1, QJsonArray{QJsonObject{{"spans"_L1, QJsonArray{span}}}}}}}}};
        return QJsonDocument(doc).toJson(QJsonDocument::Compact);
    }

    static OtlpSender::Result sendOnce(OtlpSender &sender, const QUrl &url)
    {
        QSignalSpy done(&sender, &OtlpSender::finished);
        sender.send(url, exportBody());
        if (!done.wait(10'000))
            return {};
        return done.first().first().value<OtlpSender::Result>();
    }

private Q_SLOTS:
    // A collector that refuses an export unread (a wrong path, a size limit) closes the
    // connection under the upload, and Qt loses its status: it said "Unknown error" with
    // status 0. Now what happened, with how much went out.
    void aCollectorThatRefusesTheExportUnreadIsSaidInWords()
    {
        ScriptedHttpServer collector;
        QVERIFY(collector.listen());
        collector.rejectBodiesOver(
            1024 * 1024,
            ScriptedHttpServer::response(413, "text/plain", "too large", "Connection: close\r\n"),
            false);
        OtlpSender sender;
        QSignalSpy done(&sender, &OtlpSender::finished);
        const QByteArray big =
            "{\"resourceSpans\":[],\"pad\":\"" + QByteArray(8 << 20, 'x') + "\"}";
        sender.send(QUrl(u"http://127.0.0.1:%1/v1/traces"_s.arg(collector.port())), big);
        QVERIFY(done.wait(10'000));
        const OtlpSender::Result r = done.first().first().value<OtlpSender::Result>();
        QVERIFY(!r.ok());
        QVERIFY2(!r.error.contains("Unknown error"_L1), qPrintable(r.error));
        QVERIFY2(r.error.contains("closed the connection"_L1) || r.error.contains("413"_L1),
                 qPrintable(r.error));
        QCOMPARE(collector.earlyRejections(), 1);
    }

    void theCollectorReceivesExactlyOnePostWithTheJsonBody()
    {
        FakeCollector collector;
        QVERIFY(collector.isListening());
        OtlpSender sender;
        const OtlpSender::Result r = sendOnce(sender, QUrl(collector.url()));
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.status, 200);
        QCOMPARE(collector.posts(), 1);
        QVERIFY(collector.headers.startsWith("post /v1/traces "));
        QVERIFY(collector.headers.contains("content-type: application/json"));
        QCOMPARE(collector.received, QJsonDocument::fromJson(exportBody()).object());
        QVERIFY(r.describe().contains(u"took the export (HTTP 200)"_s));
        // Some time later, still one: nothing is sent again behind the caller's back.
        QTest::qWait(300);
        QCOMPARE(collector.posts(), 1);
    }

    void aCollectorErrorIsReportedAndNotRetried_data()
    {
        QTest::addColumn<int>("status");
        QTest::newRow("a 500 is said with its status and body") << 500;
        QTest::newRow("a 400 is said with its status and body") << 400;
    }
    void aCollectorErrorIsReportedAndNotRetried()
    {
        QFETCH(int, status);
        FakeCollector collector(status, "collector is unhappy", "text/plain");
        OtlpSender sender;
        const OtlpSender::Result r = sendOnce(sender, QUrl(collector.url()));
        QVERIFY(!r.ok());
        QCOMPARE(r.status, status);
        QVERIFY2(r.error.contains(u"HTTP %1: collector is unhappy"_s.arg(status)),
                 qPrintable(r.error));
        QTest::qWait(300);
        QCOMPARE(collector.posts(), 1);
    }

    void aCollectorThatNeverAnswersTimesOutNamingTheTimeout()
    {
        FakeCollector collector(0);
        OtlpSender sender;
        sender.setTimeoutMs(300);
        const OtlpSender::Result r = sendOnce(sender, QUrl(collector.url()));
        QVERIFY(!r.ok());
        QCOMPARE(r.status, 0);
        QVERIFY2(r.error.contains(u"no answer within 300 ms (the timeout)"_s), qPrintable(r.error));
        QCOMPARE(collector.posts(), 1);
        QVERIFY(!sender.isBusy());
    }

    void anOversizedAnswerIsCutNamingTheLimit()
    {
        FakeCollector collector(200, QByteArray(256 * 1024, 'x'));
        OtlpSender sender;
        sender.setMaxAnswerBytes(1024);
        const OtlpSender::Result r = sendOnce(sender, QUrl(collector.url()));
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains(u"over 1024 bytes (the limit)"_s), qPrintable(r.error));
        QVERIFY(r.body.size() <= 1024);
    }

    void aRefusedConnectionIsAClearMessage()
    {
        quint16 port = 0;
        {
            ScriptedHttpServer gone;
            QVERIFY(gone.listen());
            port = gone.port(); // closed again when it goes: nothing listens there
        }
        OtlpSender sender;
        const OtlpSender::Result r =
            sendOnce(sender, QUrl(u"http://127.0.0.1:%1/v1/traces"_s.arg(port)));
        QVERIFY(!r.ok());
        QCOMPARE(r.status, 0);
        QVERIFY2(r.error.contains(u"refused"_s, Qt::CaseInsensitive), qPrintable(r.error));
        QVERIFY(r.describe().startsWith(u"not sent to the collector at http://127.0.0.1:"_s));
    }

    // The written file is read back to be sent whole: within the limit it is read as it is,
    // over it it is not read at all, and the error names the limit.
    void aWrittenExportIsReadBackWithinTheSendLimit_data()
    {
        QTest::addColumn<qint64>("limit");
        QTest::addColumn<bool>("exists");
        QTest::addColumn<QString>("said");
        QTest::newRow("a file within the limit is read whole")
            << qint64(1'000) << true << QString();
        QTest::newRow("a file over the limit is not read and the limit is named")
            << qint64(10) << true << u"bytes, over the 10 bytes one send takes (the limit)"_s;
        QTest::newRow("a file that is gone says it cannot be read back")
            << qint64(1'000) << false << u"cannot read"_s;
    }
    void aWrittenExportIsReadBackWithinTheSendLimit()
    {
        QFETCH(qint64, limit);
        QFETCH(bool, exists);
        QFETCH(QString, said);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"spans.json"_s);
        if (exists) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(exportBody());
        }
        QByteArray document;
        QString error;
        const bool read = OtlpSender::readDocument(path, limit, &document, &error);
        QCOMPARE(read, said.isEmpty());
        if (read) {
            QCOMPARE(document, exportBody());
        } else {
            QVERIFY2(error.contains(said), qPrintable(error));
            QVERIFY(document.isEmpty());
        }
    }

    void aUrlThatIsNoCollectorIsRefusedBeforeSending_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("said");
        QTest::newRow("a file URL is not http") << u"file:///tmp/x"_s << u"http or https"_s;
        QTest::newRow("a relative path is not a URL") << u"v1/traces"_s << u"not a URL"_s;
        QTest::newRow("an http URL without a host names none") << u"http:/v1"_s << u"no host"_s;
        QTest::newRow("nothing at all is not a URL") << QString() << u"not a URL"_s;
    }
    void aUrlThatIsNoCollectorIsRefusedBeforeSending()
    {
        QFETCH(QString, url);
        QFETCH(QString, said);
        OtlpSender sender;
        const OtlpSender::Result r = sendOnce(sender, QUrl(url));
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains(said), qPrintable(r.error));
    }
};

QTEST_MAIN(TestOtlpSender)
#include "tst_otlpsender.moc"
