// SPDX-License-Identifier: MIT
// sonde-cli's history end to end: --history records a real run (stdio and HTTP), history
// search finds it and nothing else, history import reads a --transcript file and names the
// lines it skipped (and a signal stops an import between batches, keeping those written),
// history export writes each format, and usage errors exit 2. A run
// against the reference server (server-everything, over stdio, Streamable HTTP and the legacy
// HTTP+SSE) is recorded, found and exported whole, its HAR passing har-validator.
#include "clifixtures.h"
#include "historyimporter.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>

using namespace Qt::StringLiterals;
using namespace SondeTest;

namespace {

QString demo()
{
    return QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
}

// The history commands take no connection, so no --era either (cli() adds one).
Run hist(const QStringList &args)
{
    return runProgram(QString::fromUtf8(SONDE_CLI_PATH), args);
}

QByteArray fileBytes(const QString &path)
{
    QByteArray all;
    for (const QString &p : QStringList{path, path + u"-wal"_s}) {
        QFile f(p);
        if (f.open(QIODevice::ReadOnly))
            all += f.readAll();
    }
    return all;
}

} // namespace

class TestCliHistory : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aRecordedRunIsFoundBySearchAndSecretsAreNotInTheFile()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(u"h.db"_s);
        const Run r = cli({u"--history"_s, db, u"--command"_s, demo(), u"--env"_s,
                           u"DEMO_API_KEY=sk-live-0123456789abcdefXYZ"_s, u"tools"_s, u"call"_s,
                           u"echo"_s, u"{\"message\":\"unique-needle-7781\"}"_s});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        const Run found = hist({u"history"_s, u"search"_s, u"unique-needle-7781"_s, u"--db"_s, db});
        QCOMPARE(found.exitCode, 0);
        const QList<QJsonObject> hits = jsonLines(found.out);
        QCOMPARE(hits.size(), 2); // the request and its answer
        QCOMPARE(hits.first().value("dir"_L1).toString(), u"send"_s);
        QCOMPARE(jsonLines(hist({u"history"_s, u"search"_s, u"unique-needle-7781"_s, u"--db"_s, db,
                                 u"--limit"_s, u"1"_s})
                               .out)
                     .size(),
                 1);
        QVERIFY(hist({u"history"_s, u"search"_s, u"unique-needle-7781"_s, u"--db"_s, db,
                      u"--server"_s, u"another"_s})
                    .out.isEmpty());
        QVERIFY(!fileBytes(db).contains("sk-live-0123456789abcdefXYZ"));
    }

    void aServerEverythingRunIsRecordedFoundAndExported_data()
    {
        QTest::addColumn<QString>("transport");
        QTest::newRow("over stdio") << u"stdio"_s;
        QTest::newRow("over Streamable HTTP") << u"streamableHttp"_s;
        QTest::newRow("over the legacy HTTP+SSE") << u"sse"_s;
    }
    void aServerEverythingRunIsRecordedFoundAndExported()
    {
        QFETCH(QString, transport);
        QVERIFY2(
            QFile::exists(QString::fromUtf8(SONDE_EVERYTHING_PATH)),
            "server-everything is not installed: run ./dev.sh test (it runs npm ci in tests/)");
        QTemporaryDir dir;
        const QString db = dir.filePath(u"h.db"_s);
        std::unique_ptr<EverythingServer> http;
        QStringList target;
        if (transport == "stdio"_L1) {
            target = {u"--command"_s, u"node"_s,
                      u"--arg"_s,     QString::fromUtf8(SONDE_EVERYTHING_PATH),
                      u"--arg"_s,     u"stdio"_s};
        } else {
            http = std::make_unique<EverythingServer>(transport);
            QVERIFY2(http->start(), http->log().constData());
            target = {u"--url"_s, http->url(transport == "sse"_L1 ? u"/sse"_s : u"/mcp"_s)};
        }
        const Run r = cli(target + QStringList{u"--history"_s, db, u"tools"_s, u"call"_s, u"echo"_s,
                                               u"{\"message\":\"needle-everything-5521\"}"_s});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());

        // Found: the call and the server's answer, as it wrote them, and over HTTP the
        // exchange that carried the call (its request body), in its own event.
        const Run found =
            hist({u"history"_s, u"search"_s, u"needle-everything-5521"_s, u"--db"_s, db});
        QCOMPARE(found.exitCode, 0);
        QList<QJsonObject> hits;
        QStringList exchanges;
        for (const QJsonObject &hit : jsonLines(found.out)) {
            if (hit.contains("msg"_L1))
                hits << hit;
            else if (hit.value("event"_L1).toString() == "http-exchange"_L1)
                exchanges << hit["details"_L1]["method"_L1].toString();
        }
        QCOMPARE(hits.size(), 2);
        if (transport != "stdio"_L1)
            QVERIFY2(exchanges.contains(u"POST"_s), qPrintable(exchanges.join(u' ')));
        else
            QVERIFY(exchanges.isEmpty());
        QCOMPARE(hits.at(0).value("dir"_L1).toString(), u"send"_s);
        QCOMPARE(hits.at(1).value("dir"_L1).toString(), u"recv"_s);
        const QJsonObject answer = hits.at(1).value("msg"_L1).toObject();
        QCOMPARE(answer.value("id"_L1), hits.at(0).value("msg"_L1).toObject().value("id"_L1));
        QCOMPARE(answer["result"_L1]["content"_L1][0]["text"_L1].toString(),
                 u"Echo: needle-everything-5521"_s);

        // Exported whole: the handshake with the server's name and version, then the call.
        const QString jsonl = dir.filePath(u"run.jsonl"_s);
        const Run e = hist({u"history"_s, u"export"_s, u"--db"_s, db, u"--format"_s, u"jsonl"_s,
                            u"--out"_s, jsonl});
        QVERIFY2(e.exitCode == 0, QByteArray(e.out + e.err).constData());
        QFile f(jsonl);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString protocol, serverName;
        int calls = 0;
        for (const QJsonObject &line : jsonLines(f.readAll())) {
            const QJsonObject msg = line.value("msg"_L1).toObject();
            const QJsonObject result = msg.value("result"_L1).toObject();
            if (line.value("dir"_L1).toString() == "recv"_L1 && result.contains("serverInfo"_L1)) {
                protocol = result.value("protocolVersion"_L1).toString();
                serverName = result["serverInfo"_L1]["name"_L1].toString();
            }
            if (msg.value("method"_L1).toString() == "tools/call"_L1)
                ++calls;
        }
        QVERIFY2(serverName.contains("everything"_L1), qPrintable(serverName));
        QCOMPARE(protocol, u"2025-11-25"_s);
        QCOMPARE(calls, 1); // sent once, and once only in the history

        if (transport == "stdio"_L1)
            return; // no HTTP leg: the HAR has no entry (the export's comment says why)
        const QString har = dir.filePath(u"run.har"_s);
        const Run h = hist(
            {u"history"_s, u"export"_s, u"--db"_s, db, u"--format"_s, u"har"_s, u"--out"_s, har});
        QVERIFY2(h.exitCode == 0, QByteArray(h.out + h.err).constData());
        const Run valid =
            runProgram(u"node"_s, {QString::fromUtf8(SONDE_VALIDATE_HAR_SCRIPT), har});
        QVERIFY2(valid.exitCode == 0,
                 QByteArray("har-validator: " + valid.out + valid.err).constData());
        QFile harFile(har);
        QVERIFY(harFile.open(QIODevice::ReadOnly));
        const QByteArray harBytes = harFile.readAll();
        QVERIFY(harBytes.contains("needle-everything-5521"));
        QVERIFY(harBytes.contains("\"_mcp\""));
    }

    // Each run is a session per generation: history sessions lists them newest first, and
    // export --session writes the one named, without the other run's events.
    void anExportOfOneSessionHoldsThatSessionAlone()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(u"h.db"_s);
        for (const char *needle : {"first-run-needle-1", "second-run-needle-2"}) {
            const Run r =
                cli({u"--history"_s, db, u"--command"_s, demo(), u"tools"_s, u"call"_s, u"echo"_s,
                     u"{\"message\":\"%1\"}"_s.arg(QLatin1StringView(needle))});
            QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        }
        const Run listed = hist({u"history"_s, u"sessions"_s, u"--db"_s, db});
        QVERIFY2(listed.exitCode == 0, listed.err.constData());
        const QList<QJsonObject> sessions = jsonLines(listed.out);
        QCOMPARE(sessions.size(), 4); // each run: generation 0 (connecting), then 1
        const QJsonObject newest = sessions.first();
        QCOMPARE(newest.value("server"_L1).toString(), u"sonde-demo-server"_s);
        QCOMPARE(newest.value("gen"_L1).toInt(), 1);
        QVERIFY(newest.value("events"_L1).toInteger() > 0);
        QVERIFY(newest.value("session"_L1).toInteger() >
                sessions.last().value("session"_L1).toInteger());
        const QString out = dir.filePath(u"newest.jsonl"_s);
        const Run e =
            hist({u"history"_s, u"export"_s, u"--db"_s, db, u"--format"_s, u"jsonl"_s, u"--out"_s,
                  out, u"--session"_s, QString::number(newest.value("session"_L1).toInteger())});
        QVERIFY2(e.exitCode == 0, QByteArray(e.out + e.err).constData());
        QCOMPARE(jsonLines(e.out).first().value("records"_L1).toInteger(),
                 newest.value("events"_L1).toInteger());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.contains("second-run-needle-2"));
        QVERIFY(!bytes.contains("first-run-needle-1"));
        // A session id that is none is a usage error, as any other.
        QCOMPARE(hist({u"history"_s, u"export"_s, u"--db"_s, db, u"--format"_s, u"jsonl"_s,
                       u"--out"_s, out, u"--session"_s, u"latest"_s})
                     .exitCode,
                 2);
    }

    void anHttpRunExportsInEachFormat_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("JSON Lines starts with its versioned header") << u"jsonl"_s;
        QTest::newRow("HAR has the HTTP legs") << u"har"_s;
        QTest::newRow("OTLP has a span per request") << u"otlp"_s;
        QTest::newRow("Markdown is a report") << u"md"_s;
    }
    void anHttpRunExportsInEachFormat()
    {
        QFETCH(QString, format);
        QTemporaryDir dir;
        const QString db = dir.filePath(u"h.db"_s);
        QProcess server;
        server.start(demo(), {u"--http"_s, u"127.0.0.1:0"_s});
        QVERIFY(server.waitForStarted(5000) && server.waitForReadyRead(5000));
        const QString url = QString::fromUtf8(server.readLine().trimmed());
        const Run r = cli({u"--history"_s, db, u"--url"_s, url, u"tools"_s, u"call"_s, u"echo"_s,
                           u"{\"message\":\"hi\"}"_s});
        server.terminate();
        server.waitForFinished(3000);
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        const QString out = dir.filePath(u"export."_s + format);
        const Run e = hist(
            {u"history"_s, u"export"_s, u"--db"_s, db, u"--format"_s, format, u"--out"_s, out});
        QVERIFY2(e.exitCode == 0, QByteArray(e.out + e.err).constData());
        QVERIFY(jsonLines(e.out).first().value("records"_L1).toInt() > 0);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        if (format == "jsonl"_L1) {
            const QJsonObject header =
                QJsonDocument::fromJson(bytes.left(bytes.indexOf('\n'))).object();
            QCOMPARE(header.value("format"_L1).toString(), u"sonde-transcript"_s);
        } else if (format == "har"_L1) {
            const QJsonArray entries = QJsonDocument::fromJson(bytes)
                                           .object()
                                           .value("log"_L1)
                                           .toObject()
                                           .value("entries"_L1)
                                           .toArray();
            QVERIFY(!entries.isEmpty());
            QCOMPARE(entries.first()
                         .toObject()
                         .value("request"_L1)
                         .toObject()
                         .value("method"_L1)
                         .toString(),
                     u"POST"_s);
        } else if (format == "otlp"_L1) {
            const QJsonArray spans = QJsonDocument::fromJson(bytes)
                                         .object()
                                         .value("resourceSpans"_L1)
                                         .toArray()
                                         .first()
                                         .toObject()
                                         .value("scopeSpans"_L1)
                                         .toArray()
                                         .first()
                                         .toObject()
                                         .value("spans"_L1)
                                         .toArray();
            QVERIFY(spans.size() >= 2);
        } else {
            QVERIFY2(bytes.startsWith("#") && bytes.contains("echo"), bytes.left(300).constData());
        }
    }

    // Two servers on one host are two servers: each --url run is named host:port (it was the
    // host alone, and the Markdown report put both into one section), and the report's time
    // range runs from the earliest event to the latest whatever order the history holds
    // them in (an import of an older transcript after a newer run printed it backwards).
    void theMarkdownReportHasASectionPerServerAndItsRangeForwards()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(u"h.db"_s);
        DemoHttpServer first, second;
        QVERIFY(first.start());
        QVERIFY(second.start());
        const QString transcript = dir.filePath(u"older.jsonl"_s);
        // An older run, written to a transcript first and imported after the newer ones.
        QVERIFY(cli({u"--transcript"_s, transcript, u"--command"_s, demo(), u"ping"_s}).exitCode ==
                0);
        QTest::qWait(50);
        for (const DemoHttpServer *s : {&first, &second})
            QCOMPARE(cli({u"--history"_s, db, u"--url"_s, s->url(), u"ping"_s}).exitCode, 0);
        QCOMPARE(hist({u"history"_s, u"import"_s, transcript, u"--db"_s, db}).exitCode, 0);
        const QString md = dir.filePath(u"report.md"_s);
        const Run r = hist(
            {u"history"_s, u"export"_s, u"--db"_s, db, u"--format"_s, u"md"_s, u"--out"_s, md});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString report = QString::fromUtf8(fileBytes(md));
        for (const DemoHttpServer *s : {&first, &second})
            QVERIFY2(report.contains(u"127.0.0.1:%1"_s.arg(s->port())), qPrintable(report));
        QVERIFY2(report.contains(u"3 server(s)"_s), qPrintable(report.left(400)));
        static const QRegularExpression range(u"events from (\\S+) to (\\S+) \\(UTC\\)"_s);
        const QRegularExpressionMatch m = range.match(report);
        QVERIFY2(m.hasMatch(), qPrintable(report.left(400)));
        QVERIFY2(QDateTime::fromString(m.captured(1), Qt::ISODateWithMs) <=
                     QDateTime::fromString(m.captured(2), Qt::ISODateWithMs),
                 qPrintable(m.captured(0)));
    }

    void anImportReadsATranscriptAndNamesTheLinesItSkipped()
    {
        QTemporaryDir dir;
        const QString transcript = dir.filePath(u"t.jsonl"_s);
        const Run r = cli({u"--transcript"_s, transcript, u"--command"_s, demo(), u"tools"_s,
                           u"call"_s, u"echo"_s, u"{\"message\":\"imported-needle\"}"_s});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QFile f(transcript);
        QVERIFY(f.open(QIODevice::Append));
        f.write("this is not a record\n");
        f.close();
        const qsizetype lines = [&] {
            QFile t(transcript);
            t.open(QIODevice::ReadOnly);
            return t.readAll().count('\n');
        }();
        const QString db = dir.filePath(u"h.db"_s);
        const Run i = hist({u"history"_s, u"import"_s, transcript, u"--db"_s, db});
        QCOMPARE(i.exitCode, 0);
        const QJsonObject summary = jsonLines(i.out).first();
        QCOMPARE(summary.value("imported"_L1).toInteger(), lines - 1);
        QCOMPARE(summary.value("skipped_lines"_L1).toArray(), QJsonArray{lines});
        QCOMPARE(
            jsonLines(hist({u"history"_s, u"search"_s, u"imported-needle"_s, u"--db"_s, db}).out)
                .size(),
            2);
    }

    void aCtrlCDuringAnImportStopsAtABatchAndKeepsWhatItWrote_data()
    {
        QTest::addColumn<int>("signo");
        QTest::newRow("Ctrl-C (SIGINT) exits 130 with whole batches kept") << int(SIGINT);
        QTest::newRow("SIGTERM exits 143 with whole batches kept") << int(SIGTERM);
    }

    void aCtrlCDuringAnImportStopsAtABatchAndKeepsWhatItWrote()
    {
        QFETCH(int, signo);
        // Enough lines that the import still runs when the signal comes (some seconds here).
        constexpr int Lines = 200'000;
        QTemporaryDir dir;
        const QString transcript = dir.filePath(u"long.jsonl"_s);
        QFile f(transcript);
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (int i = 0; i < Lines; ++i)
            f.write("{\"dir\":\"stderr\",\"line\":\"line " + QByteArray::number(i) +
                    " of a long run\",\"server\":\"s\",\"t_ms\":" + QByteArray::number(i + 1) +
                    "}\n");
        f.close();
        const QString db = dir.filePath(u"h.db"_s);
        QProcess p;
        // SONDE_TEST_CLI: the build before this behaviour died of the signal (a crash exit).
        p.start(qEnvironmentVariable("SONDE_TEST_CLI", QString::fromUtf8(SONDE_CLI_PATH)),
                {u"history"_s, u"import"_s, transcript, u"--db"_s, db});
        QVERIFY(p.waitForStarted());
        // The history is made (its write-ahead log appears) before the first batch is written.
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(db + u"-wal"_s), 10000);
        QTest::qWait(300);
        ::kill(pid_t(p.processId()), signo);
        QElapsedTimer sinceTheSignal;
        sinceTheSignal.start();
        QVERIFY(p.waitForFinished(10000));
        qInfo("sonde-cli history exited %lld ms after the signal", sinceTheSignal.elapsed());
        // The next batch ends it; the bound (HistoryCommand::StopBoundMs) is 1 s, the rest is
        // slack for a loaded machine.
        QVERIFY(sinceTheSignal.elapsed() < 5000);
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 128 + signo);
        QVERIFY(p.readAllStandardError().contains(": stopping"));
        const QList<QJsonObject> out = jsonLines(p.readAllStandardOutput());
        QCOMPARE(out.size(), 1);
        const qint64 imported = out.first().value("imported"_L1).toInteger();
        QVERIFY2(imported < Lines, "the import ran to its end: the signal stopped nothing");
        QCOMPARE(imported % Sonde::HistoryImporter::BatchSize, 0);
        // The history opens and holds exactly what the summary said.
        const Run sessions = hist({u"history"_s, u"sessions"_s, u"--db"_s, db});
        QCOMPARE(sessions.exitCode, 0);
        const QList<QJsonObject> listed = jsonLines(sessions.out);
        QCOMPARE(listed.size(), imported ? 1 : 0);
        if (imported)
            QCOMPARE(listed.first().value("events"_L1).toInteger(), imported);
    }

    void badUseExitsTwoAndAMissingHistoryOne_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("no subcommand") << QStringList{u"history"_s} << 2;
        QTest::newRow("an unknown subcommand") << QStringList{u"history"_s, u"frob"_s} << 2;
        QTest::newRow("search without --db") << QStringList{u"history"_s, u"search"_s, u"x"_s} << 2;
        QTest::newRow("an unknown option")
            << QStringList{u"history"_s, u"search"_s, u"x"_s, u"--db"_s,
                           u"h"_s,       u"--frob"_s, u"1"_s}
            << 2;
        QTest::newRow("an unknown export format")
            << QStringList{u"history"_s,  u"export"_s, u"--db"_s,  u"h"_s,
                           u"--format"_s, u"csv"_s,    u"--out"_s, u"o"_s}
            << 2;
        QTest::newRow("a history that is not there")
            << QStringList{u"history"_s, u"search"_s, u"x"_s, u"--db"_s, u"/nonexistent/h.db"_s}
            << 1;
    }
    void badUseExitsTwoAndAMissingHistoryOne()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        const Run r = runProgram(QString::fromUtf8(SONDE_CLI_PATH), args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY(!r.err.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliHistory)
#include "tst_cli_history.moc"
