// SPDX-License-Identifier: MIT
// sonde-cli history export --format otlp --to URL: the spans go to a fake collector (the
// test's QTcpServer, counting on its side) as one POST of the file's bytes; a collector that
// fails is exit 1 with the file still written; --to without otlp or with a bad URL is exit 2.
#include "clifixtures.h"
#include "fakecollector.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace SondeTest;

namespace {

Run hist(const QStringList &args)
{
    return runProgram(QString::fromUtf8(SONDE_CLI_PATH), args);
}

QByteArray line(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

// A history with one answered tools/call, made by `history import` (no server needed).
QString recordedHistory(const QTemporaryDir &dir)
{
    const QJsonObject call{{"jsonrpc"_L1, u"2.0"_s},
                           {"id"_L1, 7},
                           {"method"_L1, u"tools/call"_s},
                           {"params"_L1, QJsonObject{{"name"_L1, u"echo"_s}}}};
    const QJsonObject answer{{"jsonrpc"_L1, u"2.0"_s}, {"id"_L1, 7}, {"result"_L1, QJsonObject{}}};
    const auto record = [](qint64 ms, const QString &direction, const QJsonObject &msg) {
        return line({{"t"_L1, u"2026-12-01T10:00:00.000Z"_s},
                     {"t_ms"_L1, ms},
                     {"server"_L1, u"demo"_s},
                     {"gen"_L1, 1},
                     {"dir"_L1, direction},
                     {"msg"_L1, msg}});
    };
    QFile f(dir.filePath(u"t.jsonl"_s));
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(record(1'796'119'200'000, u"send"_s, call));
    f.write(record(1'796'119'200'012, u"recv"_s, answer));
    f.close();
    const QString db = dir.filePath(u"h.db"_s);
    if (hist({u"history"_s, u"import"_s, f.fileName(), u"--db"_s, db}).exitCode != 0)
        return {};
    return db;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestCliOtlp : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theSpansGoToTheCollectorInOnePost()
    {
        QTemporaryDir dir;
        const QString db = recordedHistory(dir);
        QVERIFY(!db.isEmpty());
        FakeCollector collector;
        QVERIFY(collector.isListening());
        const QString out = dir.filePath(u"spans.json"_s);
        const QString url = collector.url();
        const Run r = hist({u"history"_s, u"export"_s, u"--db"_s, db, u"--format"_s, u"otlp"_s,
                            u"--out"_s, out, u"--to"_s, url});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QCOMPARE(collector.posts(), 1);
        QVERIFY(collector.headers.contains("content-type: application/json"));
        // What was sent is what was written.
        QCOMPARE(collector.received, QJsonDocument::fromJson(readAll(out)).object());
        QVERIFY(!collector.received.value("resourceSpans"_L1).toArray().isEmpty());
        const QJsonObject sent = jsonLines(r.out).first().value("sent"_L1).toObject();
        QCOMPARE(sent.value("status"_L1).toInt(), 200);
        QCOMPARE(sent.value("url"_L1).toString(), url);
    }

    void aFailingCollectorIsExitOneAndTheFileIsStillWritten()
    {
        QTemporaryDir dir;
        const QString db = recordedHistory(dir);
        QVERIFY(!db.isEmpty());
        FakeCollector collector(503, "overloaded", "text/plain");
        const QString out = dir.filePath(u"spans.json"_s);
        const Run r = hist({u"history"_s, u"export"_s, u"--db"_s, db, u"--format"_s, u"otlp"_s,
                            u"--out"_s, out, u"--to"_s, collector.url()});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("HTTP 503: overloaded"), r.err.constData());
        QCOMPARE(collector.posts(), 1);
        QVERIFY(QJsonDocument::fromJson(readAll(out)).object().contains("resourceSpans"_L1));
    }

    void toIsAUsageErrorWhenItCannotBeUsed_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("url");
        QTest::addColumn<QByteArray>("said");
        QTest::newRow("a collector takes OTLP only")
            << u"har"_s << u"http://127.0.0.1:4318/v1/traces"_s << QByteArray("--format otlp");
        QTest::newRow("a collector URL is http or https")
            << u"otlp"_s << u"ftp://127.0.0.1/v1/traces"_s << QByteArray("http or https");
    }
    void toIsAUsageErrorWhenItCannotBeUsed()
    {
        QFETCH(QString, format);
        QFETCH(QString, url);
        QFETCH(QByteArray, said);
        QTemporaryDir dir;
        const QString out = dir.filePath(u"out"_s);
        const Run r = hist({u"history"_s, u"export"_s, u"--db"_s, dir.filePath(u"h.db"_s),
                            u"--format"_s, format, u"--out"_s, out, u"--to"_s, url});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(said), r.err.constData());
        QVERIFY(!QFile::exists(out));
    }
};

QTEST_MAIN(TestCliOtlp)
#include "tst_cli_otlp.moc"
