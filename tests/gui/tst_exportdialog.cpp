// SPDX-License-Identifier: MIT
// The export dialog: what it says the file will hold follows the format, the servers and the
// opt-ins; Save writes a file that format's reader takes; secrets and session ids stay out
// unless asked for; for OTLP a collector URL gets the same document in one POST, and a failed
// send leaves the file as written. A history file is counted and written on the dialog's job
// thread, byte for byte what the core's streamed writer makes of it, and Stop keeps the file.
#include "../integration/fakecollector.h"
#include "application/history/storehistorycatalog.h"
#include "application/transcript/transcriptmodel.h"
#include "application/transcript/transcriptpagesource.h"
#include "application/transcript/transcriptstore.h"
#include "engine/corehost.h"
#include "exportdialogsave.h"
#include "history/historypanel.h"
#include "historyexportsource.h"
#include "historyimporter.h"
#include "historystore.h"
#include "transcript/exportdialog.h"
#include "window/mainwindow.h"
#include "window/mainwindowactions.h"

#include <QAction>
#include <QBuffer>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace Sonde;
using namespace SondeTest;
using namespace Qt::StringLiterals;

namespace {

const auto ConfiguredSecret = "cfg-secret-9d1e77a2"_L1;
const auto PatternSecret = "sk-live-0123456789abcdefXYZ"_L1;
const auto SessionId = "sess-4f1c9a8e2b7d"_L1;

QJsonObject record(qint64 ms, const QString &server, const QString &dir, const QJsonObject &msg)
{
    return {{"t"_L1, u"2026-12-01T10:00:00.000Z"_s},
            {"t_ms"_L1, ms},
            {"server"_L1, server},
            {"gen"_L1, 1},
            {"dir"_L1, dir},
            {"msg"_L1, msg}};
}

QJsonObject call(int id, const QJsonObject &arguments)
{
    return {{"jsonrpc"_L1, u"2.0"_s},
            {"id"_L1, id},
            {"method"_L1, u"tools/call"_s},
            {"params"_L1, QJsonObject{{"name"_L1, u"echo"_s}, {"arguments"_L1, arguments}}}};
}

QJsonObject answer(int id)
{
    return {{"jsonrpc"_L1, u"2.0"_s}, {"id"_L1, id}, {"result"_L1, QJsonObject{}}};
}

// A stdio server ("demo": two wire events) and an HTTP one ("web": a call, its answer and the
// exchange that carried them, with the session id in a header).
ExportDialog::Source fixture()
{
    const qint64 t = 1'796'119'200'000;
    QJsonObject exchange{{"t"_L1, u"2026-12-01T10:00:01.020Z"_s},
                         {"t_ms"_L1, t + 1020},
                         {"server"_L1, u"web"_s},
                         {"gen"_L1, 1},
                         {"dir"_L1, u"event"_s},
                         {"event"_L1, u"http-exchange"_s}};
    exchange.insert(
        "details"_L1,
        QJsonObject{{"method"_L1, u"POST"_s},
                    {"url"_L1, u"http://127.0.0.1:9/mcp"_s},
                    {"status"_L1, 200},
                    {"status_text"_L1, u"OK"_s},
                    {"total_us"_L1, 12000},
                    {"first_byte_us"_L1, 9000},
                    {"content_type"_L1, u"application/json"_s},
                    {"request_headers"_L1, QJsonArray{QJsonObject{{"name"_L1, u"Mcp-Session-Id"_s},
                                                                  {"value"_L1, SessionId}}}},
                    {"response_headers"_L1, QJsonArray{}},
                    {"request_body"_L1,
                     QString::fromUtf8(QJsonDocument(call(2, {})).toJson(QJsonDocument::Compact))},
                    {"response_body"_L1,
                     QString::fromUtf8(QJsonDocument(answer(2)).toJson(QJsonDocument::Compact))}});
    ExportDialog::Source source;
    source.title = u"the fixture"_s;
    source.input.records = {record(t, u"demo"_s, u"send"_s,
                                   call(1, {{"message"_L1, u"hello"_s},
                                            {"note"_L1, QString(u"uses "_s + ConfiguredSecret +
                                                                u" and "_s + PatternSecret)}})),
                            record(t + 5, u"demo"_s, u"recv"_s, answer(1)),
                            record(t + 1000, u"web"_s, u"send"_s, call(2, {})),
                            record(t + 1010, u"web"_s, u"recv"_s, answer(2)), exchange};
    return source;
}

Redactor configured()
{
    Redactor r;
    r.addSecret(ConfiguredSecret);
    return r;
}

template <class T> T *child(const ExportDialog &d, const char *name)
{
    return d.findChild<T *>(QLatin1StringView(name));
}

void chooseFormat(ExportDialog &d, TranscriptExport::Format f)
{
    auto *combo = child<QComboBox>(d, "exportFormat");
    combo->setCurrentIndex(combo->findData(int(f)));
}

// OTLP to `path`, sent to the test's collector at `url` on Save.
void chooseOtlpTo(ExportDialog &d, const QString &path, const QString &url)
{
    chooseFormat(d, TranscriptExport::Format::Otlp);
    child<QLineEdit>(d, "exportPath")->setText(path);
    child<QLineEdit>(d, "exportCollector")->setText(url);
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

qsizetype lineCount(const QString &path)
{
    return readAll(path).count('\n');
}

// A history file holding the fixture's records `copies` times over (each copy a generation
// of its own), as the window's recorder would have written them.
QString writeHistory(const QTemporaryDir &dir, const QString &name, int copies)
{
    const QList<QJsonObject> one = fixture().input.records;
    QList<QJsonObject> all;
    all.reserve(one.size() * copies);
    for (int c = 0; c < copies; ++c)
        for (QJsonObject r : one) {
            r.insert("gen"_L1, c + 1);
            r.insert("t_ms"_L1, r.value("t_ms"_L1).toInteger() + c * 2000);
            all.append(r);
        }
    const QString path = dir.filePath(name);
    HistoryStore store;
    QString error;
    if (!store.open(path, &error, u"test"_s) || !store.appendRecords(all, &error))
        qFatal("cannot write the history %s: %s", qPrintable(path), qPrintable(error));
    return path;
}

ExportDialog::Source historySource(const QString &path, const HistoryFilter &filter = {})
{
    ExportDialog::Source source;
    source.title = u"a history file"_s;
    source.input.historyPath = path;
    source.input.filter = filter;
    return source;
}

// What sonde-cli history export writes from the same file (the one streamed writer).
QByteArray writtenByTheCore(const QString &path, TranscriptExport::Format f,
                            const TranscriptExport::Options &o, const QString &server)
{
    HistoryStore store;
    QString error;
    if (!store.open(path, &error))
        return {};
    const HistoryExportSource history(store, {});
    const MaskedExportSource masked(history, configured());
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    if (!TranscriptExport::write(f, masked, o, buffer, &error, server))
        return {};
    return buffer.data();
}

} // namespace

Q_DECLARE_METATYPE(Sonde::TranscriptExport::Format)

class TestExportDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theTextSaysWhatTheFileWillHold_data()
    {
        using F = TranscriptExport::Format;
        QTest::addColumn<F>("format");
        QTest::addColumn<bool>("onlyWeb");
        QTest::addColumn<bool>("secrets");
        QTest::addColumn<bool>("sessionIds");
        QTest::addColumn<QString>("collector");
        QTest::addColumn<QStringList>("said");
        QTest::newRow("JSON Lines by default holds every event, masked")
            << F::Jsonl << false << false << false << QString()
            << QStringList{u"JSON Lines: all 5 events"_s, u"secrets redacted"_s,
                           u"session ids masked"_s, u"Every server's events"_s};
        QTest::newRow("HAR counts the HTTP exchanges and says the stdio leg is left out")
            << F::Har << false << false << false << QString()
            << QStringList{u"HAR 1.2: 1 HTTP exchanges"_s, u"1 stdio legs left out"_s};
        QTest::newRow("one server's events are counted alone")
            << F::Jsonl << true << false << false << QString()
            << QStringList{u"all 3 events"_s, u"Only web's events"_s};
        QTest::newRow("secrets shown says so")
            << F::Markdown << false << true << false << QString()
            << QStringList{u"Markdown report"_s, u"secrets NOT redacted"_s};
        QTest::newRow("session ids shown says so")
            << F::Jsonl << false << false << true << QString()
            << QStringList{u"session ids included"_s};
        QTest::newRow("OTLP names the collector it will be sent to")
            << F::Otlp << false << false << false << u"http://localhost:4318/v1/traces"_s
            << QStringList{u"OTLP/JSON: one span per request"_s,
                           u"to be sent to http://localhost:4318/v1/traces"_s};
        QTest::newRow("a collector URL that is none says it will not be sent")
            << F::Otlp << false << false << false << u"ftp://localhost/v1/traces"_s
            << QStringList{u"Not sent: a collector URL is http or https"_s};
    }
    void theTextSaysWhatTheFileWillHold()
    {
        QFETCH(TranscriptExport::Format, format);
        QFETCH(bool, onlyWeb);
        QFETCH(bool, secrets);
        QFETCH(bool, sessionIds);
        QFETCH(QString, collector);
        QFETCH(QStringList, said);
        ExportDialog d(fixture(), configured(), u"web"_s);
        QVERIFY(waitCounted(d));
        const QString before = d.description();
        chooseFormat(d, format);
        auto *scope = child<QComboBox>(d, "exportScope");
        QCOMPARE(scope->count(), 2); // all, or the selected server
        scope->setCurrentIndex(onlyWeb ? 1 : 0);
        child<QCheckBox>(d, "exportShowSecrets")->setChecked(secrets);
        child<QCheckBox>(d, "exportShowSessionIds")->setChecked(sessionIds);
        child<QLineEdit>(d, "exportCollector")->setText(collector);
        for (const QString &s : said)
            QVERIFY2(d.description().contains(s), qPrintable(d.description()));
        QCOMPARE(child<QPlainTextEdit>(d, "exportSummary")->toPlainText(), d.description());
        if (format != TranscriptExport::Format::Jsonl || onlyWeb || secrets || sessionIds)
            QVERIFY(d.description() != before);
        // The warning is there exactly when secrets will be in the file.
        d.show();
        QCOMPARE(child<QLabel>(d, "exportSecretsWarning")->isVisible(), secrets);
        QCOMPARE(child<QLineEdit>(d, "exportCollector")->isVisible(),
                 format == TranscriptExport::Format::Otlp);
    }

    void secretsAndSessionIdsAreOffByDefault()
    {
        ExportDialog d(fixture(), configured(), {});
        QVERIFY(!child<QCheckBox>(d, "exportShowSecrets")->isChecked());
        QVERIFY(!child<QCheckBox>(d, "exportShowSessionIds")->isChecked());
        QVERIFY(child<QCheckBox>(d, "exportPayloads")->isChecked());
        QVERIFY(waitCounted(d));
        QCOMPARE(child<QComboBox>(d, "exportScope")->count(), 1); // no server selected
        QTemporaryDir dir;
        for (const auto f : {TranscriptExport::Format::Jsonl, TranscriptExport::Format::Markdown,
                             TranscriptExport::Format::Har}) {
            chooseFormat(d, f);
            const QString path = dir.filePath(u"out-"_s + TranscriptExport::formatName(f));
            const QString error = saveAndWait(d, path);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            const QByteArray bytes = readAll(path);
            // The payload is there (HAR leaves the stdio leg out, the report sums the calls up).
            if (f == TranscriptExport::Format::Jsonl)
                QVERIFY(bytes.contains("hello"));
            QVERIFY2(!bytes.contains(QByteArray(ConfiguredSecret.data())), path.toUtf8());
            QVERIFY2(!bytes.contains(QByteArray(PatternSecret.data())), path.toUtf8());
            QVERIFY2(!bytes.contains(QByteArray(SessionId.data())), path.toUtf8());
        }
        // Asked for, they are there.
        chooseFormat(d, TranscriptExport::Format::Jsonl);
        child<QCheckBox>(d, "exportShowSecrets")->setChecked(true);
        child<QCheckBox>(d, "exportShowSessionIds")->setChecked(true);
        QCOMPARE(saveAndWait(d, dir.filePath(u"clear.jsonl"_s)), QString());
        const QByteArray clear = readAll(dir.filePath(u"clear.jsonl"_s));
        QVERIFY(clear.contains(QByteArray(ConfiguredSecret.data())));
        QVERIFY(clear.contains(QByteArray(SessionId.data())));
    }

    void saveWritesAFileTheFormatsReaderTakes_data()
    {
        using F = TranscriptExport::Format;
        QTest::addColumn<F>("format");
        QTest::newRow("JSON Lines imports back into a history") << F::Jsonl;
        QTest::newRow("HAR has a log with the exchange") << F::Har;
        QTest::newRow("OTLP has a span per request") << F::Otlp;
        QTest::newRow("Markdown is a report") << F::Markdown;
    }
    void saveWritesAFileTheFormatsReaderTakes()
    {
        QFETCH(TranscriptExport::Format, format);
        ExportDialog d(fixture(), configured(), {});
        chooseFormat(d, format);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"export.out"_s);
        child<QLineEdit>(d, "exportPath")->setText(path);
        QSignalSpy saved(&d, &ExportDialog::saved);
        d.open();
        QVERIFY(waitCounted(d));
        child<QPushButton>(d, "exportSave")->click();
        QVERIFY(saved.wait(20'000));
        QCOMPARE(saved.size(), 1);
        QCOMPARE(saved.first().first().toString(), path);
        QCOMPARE(d.result(), int(QDialog::Accepted)); // nothing to send: it closes
        const QByteArray bytes = readAll(path);
        const QJsonObject doc = QJsonDocument::fromJson(bytes).object();
        switch (format) {
        case TranscriptExport::Format::Jsonl: {
            QFile in(path);
            QVERIFY(in.open(QIODevice::ReadOnly));
            HistoryStore store;
            QString error;
            QVERIFY2(store.open(dir.filePath(u"h.sqlite"_s), &error, u"test"_s), qPrintable(error));
            const HistoryImporter::Result r = HistoryImporter::import(in, store);
            QCOMPARE(r.imported, 5);
            // Every record is taken, and the versioned header line is no record to skip.
            QVERIFY(r.skippedLines.isEmpty());
            const QJsonObject header =
                QJsonDocument::fromJson(bytes.left(bytes.indexOf('\n'))).object();
            QCOMPARE(header.value("format"_L1).toString(), u"sonde-transcript"_s);
            QCOMPARE(header.value("events"_L1).toInt(), 5);
            break;
        }
        case TranscriptExport::Format::Har:
            QCOMPARE(doc.value("log"_L1)["version"_L1].toString(), u"1.2"_s);
            QCOMPARE(doc.value("log"_L1)["entries"_L1].toArray().size(), 1);
            break;
        case TranscriptExport::Format::Otlp:
            QCOMPARE(
                doc.value("resourceSpans"_L1)[0]["scopeSpans"_L1][0]["spans"_L1].toArray().size(),
                2);
            break;
        case TranscriptExport::Format::Markdown:
            QVERIFY2(bytes.startsWith("#") && bytes.contains("tools/call"), bytes.constData());
            break;
        }
    }

    void aFileThatCannotBeWrittenIsSaidAndTheDialogStays()
    {
        ExportDialog d(fixture(), configured(), {});
        child<QLineEdit>(d, "exportPath")->setText(u"/nonexistent-dir-4471/x.jsonl"_s);
        QSignalSpy saved(&d, &ExportDialog::saved);
        QSignalSpy failed(&d, &ExportDialog::failed);
        d.open();
        QVERIFY(waitCounted(d));
        child<QPushButton>(d, "exportSave")->click();
        QVERIFY(failed.wait(20'000));
        QCOMPARE(saved.size(), 0);
        QVERIFY(d.isVisible());
        QVERIFY2(child<QLabel>(d, "exportStatus")->text().startsWith(u"Not written to"_s),
                 qPrintable(child<QLabel>(d, "exportStatus")->text()));
    }

    void aSourceThatCouldNotBeReadCannotBeSaved()
    {
        ExportDialog d({u"a huge session"_s, {}, u"2000000 events, over the limit"_s}, {}, {});
        QVERIFY(d.isCounted()); // nothing to count
        QVERIFY(!child<QPushButton>(d, "exportSave")->isEnabled());
        QVERIFY(d.description().contains(u"2000000 events, over the limit"_s));
    }

    void theCollectorGetsTheFileInOnePost_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("said");
        QTest::newRow("a collector that takes it is said")
            << 200 << u"took the export (HTTP 200)"_s;
        QTest::newRow("a failing collector is said and the file stays")
            << 500 << u"the collector answered HTTP 500: down"_s;
    }
    void theCollectorGetsTheFileInOnePost()
    {
        QFETCH(int, status);
        QFETCH(QString, said);
        FakeCollector collector(status, "down", "text/plain");
        QVERIFY(collector.isListening());
        ExportDialog d(fixture(), configured(), {});
        QTemporaryDir dir;
        const QString path = dir.filePath(u"spans.json"_s);
        chooseOtlpTo(d, path, collector.url());
        QSignalSpy sent(&d, &ExportDialog::sendFinished);
        d.open();
        QVERIFY(waitCounted(d));
        child<QPushButton>(d, "exportSave")->click();
        QVERIFY(sent.wait(10'000));
        QVERIFY(d.isVisible()); // it stays, to show the collector's answer
        const QString text = child<QLabel>(d, "exportStatus")->text();
        QVERIFY2(text.contains(said), qPrintable(text));
        QCOMPARE(collector.posts(), 1);
        QCOMPARE(collector.received, QJsonDocument::fromJson(readAll(path)).object());
        QVERIFY(child<QPushButton>(d, "exportSave")->isEnabled());
        // For looking at: SONDE_SCREENSHOT_DIR=dir saves the dialog as dir/export-dialog.png.
        if (const QString shots = qEnvironmentVariable("SONDE_SCREENSHOT_DIR");
            !shots.isEmpty() && status == 200) {
            child<QCheckBox>(d, "exportShowSecrets")->setChecked(true);
            d.grab().save(shots + u"/export-dialog.png"_s);
        }
    }

    void aHistoryIsWrittenFromItsFileAsTheCoreWritesIt_data()
    {
        using F = TranscriptExport::Format;
        QTest::addColumn<F>("format");
        QTest::addColumn<bool>("onlyWeb");
        QTest::newRow("JSON Lines of every server") << F::Jsonl << false;
        QTest::newRow("JSON Lines of the selected server only") << F::Jsonl << true;
        QTest::newRow("a Markdown report") << F::Markdown << false;
        QTest::newRow("HAR of the selected server") << F::Har << true;
        QTest::newRow("OTLP of every server") << F::Otlp << false;
    }
    void aHistoryIsWrittenFromItsFileAsTheCoreWritesIt()
    {
        QFETCH(TranscriptExport::Format, format);
        QFETCH(bool, onlyWeb);
        QTemporaryDir dir;
        const QString db = writeHistory(dir, u"h.sqlite"_s, 600); // 3,000 events
        ExportDialog d(historySource(db), configured(), u"web"_s);
        QVERIFY(!d.isCounted()); // counted on the job's thread, not in the constructor
        QVERIFY(d.description().contains(u"Counting"_s));
        QVERIFY(!child<QPushButton>(d, "exportSave")->isEnabled());
        QVERIFY(waitCounted(d));
        auto *scope = child<QComboBox>(d, "exportScope");
        QCOMPARE(scope->count(), 2); // "Only web": the tally found its events
        scope->setCurrentIndex(onlyWeb ? 1 : 0);
        chooseFormat(d, format);
        if (format == TranscriptExport::Format::Jsonl)
            QVERIFY2(d.description().contains(u"all %1 events"_s.arg(onlyWeb ? 1800 : 3000)),
                     qPrintable(d.description()));
        const QString path = dir.filePath(u"out"_s);
        const QString error = saveAndWait(d, path);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QByteArray bytes = readAll(path);
        QVERIFY(!bytes.isEmpty());
        QVERIFY(bytes == writtenByTheCore(db, format, d.options(), onlyWeb ? u"web"_s : QString()));
        QVERIFY(!bytes.contains(QByteArray(ConfiguredSecret.data())));
        QVERIFY(!bytes.contains(QByteArray(SessionId.data())));
    }

    // The writing is the job's: save() returns at once, the window's loop runs on while the
    // file is written, and saved() comes from the loop.
    void theWindowRunsOnWhileAHistoryIsWritten()
    {
        QTemporaryDir dir;
        const QString db = writeHistory(dir, u"h.sqlite"_s, 4000); // 20,000 events
        ExportDialog d(historySource(db), configured(), {});
        QVERIFY(waitCounted(d));
        QVERIFY2(d.description().contains(u"all 20000 events"_s), qPrintable(d.description()));
        QSignalSpy saved(&d, &ExportDialog::saved);
        int ticks = 0;
        QTimer tick;
        tick.setInterval(0);
        connect(&tick, &QTimer::timeout, this, [&] { ++ticks; });
        tick.start();
        QString error;
        QVERIFY2(d.save(dir.filePath(u"out.jsonl"_s), &error), qPrintable(error));
        QCOMPARE(saved.size(), 0);
        QVERIFY(d.isWriting());
        QVERIFY(child<QProgressBar>(d, "exportProgress")->isVisibleTo(&d));
        QVERIFY(child<QPushButton>(d, "exportStop")->isVisibleTo(&d));
        QVERIFY(!child<QPushButton>(d, "exportSave")->isEnabled());
        // For looking at: SONDE_SCREENSHOT_DIR=dir saves the dialog while it writes.
        if (const QString shots = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !shots.isEmpty()) {
            d.show();
            QVERIFY(QTest::qWaitForWindowExposed(&d));
            QSignalSpy moved(d.job(), &TranscriptExportJob::progressed);
            moved.wait(5000);
            d.grab().save(shots + u"/export-dialog-writing.png"_s);
            const QString status = child<QLabel>(d, "exportStatus")->text();
            QVERIFY2(saved.size() || status.contains(dir.filePath(u"out.jsonl"_s)),
                     qPrintable(status));
        }
        QVERIFY(!saved.isEmpty() || saved.wait(60'000));
        QVERIFY2(ticks > 5, qPrintable(QString::number(ticks)));
        QVERIFY(!child<QProgressBar>(d, "exportProgress")->isVisibleTo(&d));
        QCOMPARE(lineCount(dir.filePath(u"out.jsonl"_s)), 20001); // the header and every event
    }

    void stopLeavesTheFileAsItWas_data()
    {
        QTest::addColumn<bool>("byClosing");
        QTest::newRow("Stop ends the writing and keeps the dialog") << false;
        QTest::newRow("closing the dialog ends the writing") << true;
    }
    void stopLeavesTheFileAsItWas()
    {
        QFETCH(bool, byClosing);
        QTemporaryDir data;
        const QString db = writeHistory(data, u"h.sqlite"_s, 4000);
        QTemporaryDir out;
        const QString path = out.filePath(u"kept.jsonl"_s);
        {
            QFile old(path);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("what was there\n");
        }
        auto *d = new ExportDialog(historySource(db), configured(), {});
        QVERIFY(waitCounted(*d));
        QSignalSpy failed(d, &ExportDialog::failed);
        QString error;
        QVERIFY2(d->save(path, &error), qPrintable(error));
        if (byClosing) {
            // Once it writes (the temporary file beside the old one exists), it is closed.
            QSignalSpy moved(d->job(), &TranscriptExportJob::progressed);
            QVERIFY(moved.wait(20'000));
            delete d; // the job is told to stop and waited for
        } else {
            child<QPushButton>(*d, "exportStop")->click();
            QVERIFY(failed.wait(20'000));
            QCOMPARE(failed.first().at(1).toString(), u"cancelled"_s);
            QVERIFY2(child<QLabel>(*d, "exportStatus")->text().startsWith(u"Stopped"_s),
                     qPrintable(child<QLabel>(*d, "exportStatus")->text()));
            QVERIFY(child<QPushButton>(*d, "exportSave")->isEnabled()); // it can be saved again
            delete d;
        }
        QCOMPARE(readAll(path), QByteArray("what was there\n"));
        QCOMPARE(QDir(out.path()).entryList(QDir::Files), QStringList{u"kept.jsonl"_s});
    }

    // A history still recorded to: the file holds what the dialog counted and said, not the
    // rows recorded between the count and Save.
    void whatWasCountedIsWhatIsWritten()
    {
        QTemporaryDir dir;
        const QString db = writeHistory(dir, u"h.sqlite"_s, 10); // 50 events
        ExportDialog d(historySource(db), configured(), {});
        QVERIFY(waitCounted(d));
        QVERIFY2(d.description().contains(u"all 50 events"_s), qPrintable(d.description()));
        {
            HistoryStore recorder;
            QString error;
            QVERIFY2(recorder.open(db, &error, u"test"_s), qPrintable(error));
            QVERIFY2(recorder.appendRecords(fixture().input.records, &error), qPrintable(error));
        }
        const QString path = dir.filePath(u"counted.jsonl"_s);
        const QString error = saveAndWait(d, path);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(lineCount(path), 51); // the header and the 50 events counted
        const QByteArray bytes = readAll(path);
        const QJsonObject header =
            QJsonDocument::fromJson(bytes.left(bytes.indexOf('\n'))).object();
        QCOMPARE(header.value("events"_L1).toInt(), 50);
    }

    // Rows the history's retention deleted between the count and Save are not in the file:
    // the status says how many of those counted, and the dialog stays open to show it.
    void eventsDeletedAfterTheCountAreSaidAtSave()
    {
        QTemporaryDir dir;
        const QString db = writeHistory(dir, u"h.sqlite"_s, 10); // 50 events
        ExportDialog d(historySource(db), configured(), {});
        QVERIFY(waitCounted(d));
        qint64 left = 0;
        {
            HistoryStore recorder;
            QString error;
            QVERIFY2(recorder.open(db, &error, u"test"_s), qPrintable(error));
            RetentionPolicy half;
            half.maxBytes = recorder.recordBytes() / 2;
            QVERIFY2(recorder.applyRetention(half, 0, &error) > 0, qPrintable(error));
            left = recorder.count({});
        }
        QVERIFY(left > 0 && left < 50);
        d.open();
        const QString path = dir.filePath(u"after-retention.jsonl"_s);
        child<QLineEdit>(d, "exportPath")->setText(path);
        QSignalSpy saved(&d, &ExportDialog::saved);
        child<QPushButton>(d, "exportSave")->click();
        QVERIFY(saved.wait(20'000));
        QCOMPARE(lineCount(path), 1 + left);
        const QString text = child<QLabel>(d, "exportStatus")->text();
        const QString said = u"%1 of the 50 events counted were deleted"_s.arg(50 - left);
        QVERIFY2(text.contains(said), qPrintable(text));
        QVERIFY(d.isVisible());
        // For looking at: SONDE_SCREENSHOT_DIR=dir saves it as dir/export-dialog-retention.png.
        if (const QString shots = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !shots.isEmpty()) {
            QCoreApplication::processEvents(); // the layout makes room for the wrapped status
            d.grab().save(shots + u"/export-dialog-retention.png"_s);
        }
    }

    // A document over what one send takes is written and not sent; the status names the
    // limit, and the collector saw nothing.
    void anExportOverTheSendLimitIsWrittenAndNotSent()
    {
        FakeCollector collector;
        QVERIFY(collector.isListening());
        ExportDialog d(fixture(), configured(), {});
        d.setMaxSendBytes(100);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"spans.json"_s);
        chooseOtlpTo(d, path, collector.url());
        QSignalSpy saved(&d, &ExportDialog::saved);
        QSignalSpy sent(&d, &ExportDialog::sendFinished);
        d.open();
        QVERIFY(waitCounted(d));
        child<QPushButton>(d, "exportSave")->click();
        QVERIFY(saved.wait(20'000));
        const QString text = child<QLabel>(d, "exportStatus")->text();
        QVERIFY2(text.contains(u"not sent"_s) && text.contains(u"over the 100 bytes"_s),
                 qPrintable(text));
        QVERIFY(QFileInfo(path).size() > 100);
        QVERIFY(d.isVisible());
        QVERIFY(child<QPushButton>(d, "exportSave")->isEnabled());
        QCOMPARE(sent.count(), 0);
        QCOMPARE(collector.posts(), 0);
    }

    void aHistoryThatCannotBeOpenedIsSaid()
    {
        ExportDialog d(historySource(u"/nonexistent-dir-4471/h.sqlite"_s), configured(), {});
        QVERIFY(waitCounted(d));
        QVERIFY2(d.description().startsWith(u"Nothing can be exported"_s),
                 qPrintable(d.description()));
        QVERIFY(!child<QPushButton>(d, "exportSave")->isEnabled());
    }

    // On the History tab, Export is the session shown, read from the history file by the
    // dialog's job (not the rows the table holds).
    void theWindowsExportOfTheHistoryTabReadsTheFile()
    {
        QTemporaryDir dir;
        const QString db = writeHistory(dir, u"h.sqlite"_s, 600);
        StoreHistoryCatalog catalog;
        QString error;
        QVERIFY2(catalog.open(db, &error), qPrintable(error));
        CoreHost host;
        {
            MainWindow window(host);
            window.setHistoryCatalog(&catalog);
            ServerConfig c;
            c.name = u"web"_s;
            c.program = u"/nonexistent/web-server"_s;
            window.addServer(c, {}, false);
            window.tabs()->setCurrentWidget(window.historyPanel());
            QTRY_VERIFY(!window.historyPanel()->isReading());
            const RecordedSession newest = window.historyPanel()->currentSession();
            QCOMPARE(newest.server, u"web"_s);
            QCOMPARE(newest.generation, 600);
            QCOMPARE(window.historyPanel()->eventModel()->rowCount(), 3);
            window.actions()->action(MainWindowActions::Export)->trigger();
            auto *d = window.findChild<ExportDialog *>(u"exportDialog"_s);
            QVERIFY(d);
            QVERIFY(child<QLabel>(*d, "exportSource")->text().contains(u"3 event(s) shown"_s));
            QVERIFY(d->job()->input().isHistory());
            QCOMPARE(d->job()->input().historyPath, db);
            QCOMPARE(d->job()->input().filter.sessionId, newest.id);
            QVERIFY(waitCounted(*d));
            QVERIFY2(d->description().contains(u"all 3 events"_s), qPrintable(d->description()));
            const QString path = dir.filePath(u"session.jsonl"_s);
            const QString written = saveAndWait(*d, path);
            QVERIFY2(written.isEmpty(), qPrintable(written));
            const QList<QByteArray> lines = readAll(path).split('\n');
            QCOMPARE(lines.size(), 5); // the header, three events, the piece after the last
            for (int i = 1; i < 4; ++i)
                QCOMPARE(QJsonDocument::fromJson(lines.at(i)).object().value("gen"_L1).toInt(),
                         600);
            d->close();

            // Another server selected: the tab shows its sessions and events, and its export
            // is that server's session.
            ServerConfig demo;
            demo.name = u"demo"_s;
            demo.program = u"/nonexistent/demo-server"_s;
            window.addServer(demo, {}, false);
            window.selectServer(u"demo"_s);
            QTRY_VERIFY(!window.historyPanel()->isReading());
            QCOMPARE(window.historyPanel()->currentSession().server, u"demo"_s);
            QCOMPARE(window.historyPanel()->eventModel()->rowCount(), 2);
            const auto shown = window.historyPanel()->shownHistory();
            QVERIFY(shown);
            QCOMPARE(shown->second.sessionId, window.historyPanel()->currentSession().id);
            // For looking at: SONDE_SCREENSHOT_DIR=dir saves the window as
            // dir/window-history-switched.png.
            if (const QString shots = qEnvironmentVariable("SONDE_SCREENSHOT_DIR");
                !shots.isEmpty()) {
                window.resize(1200, 760);
                window.show();
                QVERIFY(QTest::qWaitForWindowExposed(&window));
                window.grab().save(shots + u"/window-history-switched.png"_s);
            }
            QSignalSpy down(&host, &CoreHost::shutdownFinished);
            host.shutdown();
            QVERIFY(down.wait(5000));
        }
    }

    // The window's Export action opens the dialog on the live transcript, and what it masks
    // includes every configured value of the window's servers.
    void theWindowsExportActionOpensItOnTheLiveTranscript()
    {
        CoreHost host;
        {
            MainWindow window(host);
            ServerConfig c;
            c.name = u"demo"_s;
            c.program = u"/nonexistent/demo-server"_s;
            c.environment.insert(u"DEMO_SETTING"_s, ConfiguredSecret);
            window.addServer(c, {}, false);
            TranscriptEvent e;
            e.timeMs = 1'796'119'200'000;
            e.server = u"demo"_s;
            e.generation = 1;
            e.direction = TranscriptEvent::Direction::Outgoing;
            e.raw = QJsonDocument(call(1, {{"note"_L1, ConfiguredSecret}}))
                        .toJson(QJsonDocument::Compact);
            window.transcriptStore()->append({e});
            window.actions()->action(MainWindowActions::Export)->trigger();
            auto *d = window.findChild<ExportDialog *>(u"exportDialog"_s);
            QVERIFY(d);
            QVERIFY(d->isVisible());
            QVERIFY(child<QLabel>(*d, "exportSource")->text().contains(u"live transcript"_s));
            // The store's events themselves, made records on the dialog's thread.
            QCOMPARE(d->job()->input().events.size(), 1);
            QVERIFY(d->job()->input().records.isEmpty());
            QVERIFY(waitCounted(*d));
            QVERIFY2(d->description().contains(u"all 1 events"_s), qPrintable(d->description()));
            QTemporaryDir dir;
            const QString error = saveAndWait(*d, dir.filePath(u"t.jsonl"_s));
            QVERIFY2(error.isEmpty(), qPrintable(error));
            const QByteArray bytes = readAll(dir.filePath(u"t.jsonl"_s));
            QVERIFY(bytes.contains("tools/call"));
            QVERIFY(!bytes.contains(QByteArray(ConfiguredSecret.data())));
            d->close();
            QSignalSpy down(&host, &CoreHost::shutdownFinished);
            host.shutdown();
            QVERIFY(down.wait(5000));
        }
    }
};

QTEST_MAIN(TestExportDialog)
#include "tst_exportdialog.moc"
