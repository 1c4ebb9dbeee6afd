// SPDX-License-Identifier: MIT
// The http-exchange events of the HTTP routes, recorded for real (sonde-cli --transcript
// against sonde-demo-server --http), and the HAR written from them checked by the pinned
// har-validator under node (tests/package.json). node or the validator missing fails.
#include "clifixtures.h"
#include "transcript/transcriptexport.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace SondeTest;
using namespace Sonde;

namespace {

const auto Token = "sk-harexporttoken0123456789abcdef"_L1;

QList<QJsonObject> readTranscript(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return jsonLines(f.readAll());
}

QList<QJsonObject> exchanges(const QList<QJsonObject> &records)
{
    QList<QJsonObject> out;
    for (const QJsonObject &r : records)
        if (r.value("event"_L1).toString() == "http-exchange"_L1)
            out.append(r.value("details"_L1).toObject());
    return out;
}

QString header(const QJsonObject &exchange, QLatin1StringView list, QLatin1StringView name)
{
    for (const QJsonValue &h : exchange.value(list).toArray())
        if (h["name"_L1].toString().compare(name, Qt::CaseInsensitive) == 0)
            return h["value"_L1].toString();
    return u"(absent)"_s;
}

Run validate(const QString &harPath)
{
    return runProgram(u"node"_s, {QString::fromUtf8(SONDE_VALIDATE_HAR_SCRIPT), harPath});
}

} // namespace

class TestHarExport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_demo.start(), "sonde-demo-server --http did not start");
        QVERIFY(m_dir.isValid());
        const QString transcript = m_dir.filePath(u"t.jsonl"_s);
        const Run run =
            cli({u"--url"_s, m_demo.url(), u"--header"_s, u"Authorization: Bearer "_s + Token,
                 u"--transcript"_s, transcript, u"tools"_s, u"call"_s, u"slow-task"_s,
                 u"{\"duration_ms\":60,\"steps\":3}"_s});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        m_records = readTranscript(transcript);
        QVERIFY(!m_records.isEmpty());
    }

    void everyHttpRequestHasAnExchangeEvent()
    {
        const QList<QJsonObject> x = exchanges(m_records);
        QStringList methods;
        for (const QJsonObject &e : x)
            methods << e.value("method"_L1).toString();
        // initialize, notifications/initialized, the call (POSTs), the GET stream, the DELETE
        QVERIFY2(methods.count(u"POST"_s) >= 3, qPrintable(methods.join(u' ')));
        QVERIFY2(methods.contains(u"GET"_s), qPrintable(methods.join(u' ')));
        QVERIFY2(methods.contains(u"DELETE"_s), qPrintable(methods.join(u' ')));
        for (const QJsonObject &e : x) {
            QCOMPARE(e.value("url"_L1).toString(), m_demo.url());
            QVERIFY(e.value("status"_L1).toInt() >= 200);
            QVERIFY(e.value("first_byte_us"_L1).toInteger() >= 0);
            QVERIFY(e.value("first_byte_us"_L1).toInteger() <= e.value("total_us"_L1).toInteger());
            QVERIFY(header(e, "response_headers"_L1, "content-length"_L1) != u"(absent)"_s ||
                    e.contains("sse"_L1) || e.value("method"_L1).toString() == u"GET"_s);
        }
    }

    void credentialsAreMaskedAtTheSource()
    {
        const QList<QJsonObject> x = exchanges(m_records);
        QVERIFY(!x.isEmpty());
        for (const QJsonObject &e : x)
            QCOMPARE(header(e, "request_headers"_L1, "authorization"_L1), u"[REDACTED]"_s);
    }

    void theCallsSseAnswerKeepsEachFrame()
    {
        QJsonArray frames;
        for (const QJsonObject &e : exchanges(m_records))
            if (e.value("request_body"_L1).toString().contains("slow-task"_L1))
                frames = e.value("sse"_L1).toArray();
        QStringList data;
        for (const QJsonValue &f : frames) {
            QCOMPARE(f["event"_L1].toString(), u"message"_s);
            data << f["data"_L1].toString();
        }
        QCOMPARE(data.filter(u"notifications/progress"_s).size(), 3);
        QCOMPARE(data.filter(u"slow task finished"_s).size(), 1);
        QVERIFY(!frames.last()["id"_L1].toString().isEmpty());
    }

    void theHarPassesHarValidator()
    {
        const QByteArray har =
            TranscriptExport::write(TranscriptExport::Format::Har, m_records, {});
        QVERIFY(!har.contains(QByteArray(Token.data())));
        const QString path = m_dir.filePath(u"session.har"_s);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(har);
        f.close();
        const Run run = validate(path);
        QVERIFY2(run.exitCode == 0, QByteArray("har-validator: " + run.out + run.err).constData());
        QCOMPARE(run.out.trimmed(), "valid"_ba);
        const QJsonObject log = QJsonDocument::fromJson(har).object().value("log"_L1).toObject();
        QCOMPARE(log.value("entries"_L1).toArray().size(), exchanges(m_records).size());
    }

    // The validator is no rubber stamp: an entry without its timings is refused.
    void harValidatorRefusesABrokenHar()
    {
        QJsonObject doc = QJsonDocument::fromJson(
                              TranscriptExport::write(TranscriptExport::Format::Har, m_records, {}))
                              .object();
        QJsonObject log = doc.value("log"_L1).toObject();
        QJsonArray entries = log.value("entries"_L1).toArray();
        QJsonObject first = entries.first().toObject();
        first.remove("timings"_L1);
        entries[0] = first;
        log.insert("entries"_L1, entries);
        doc.insert("log"_L1, log);
        const QString path = m_dir.filePath(u"broken.har"_s);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(doc).toJson());
        f.close();
        const Run run = validate(path);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("timings"), run.err.constData());
    }

private:
    DemoHttpServer m_demo;
    QTemporaryDir m_dir;
    QList<QJsonObject> m_records;
};

QTEST_GUILESS_MAIN(TestHarExport)
#include "tst_harexport.moc"
