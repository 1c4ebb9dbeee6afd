// SPDX-License-Identifier: MIT
// sonde-bench-history: the SQLite history against its floors, in one run (issue 14):
// - insert: a 10,000 notifications/s flood in 50 ms batches through HistoryStore::append
//   (redaction, derived columns, sessions, FTS5), beside a bare QSQLITE insert loop of the
//   same records into the same tables with the same batch size, and beside the store's
//   general path (every frame parsed into its record object, as before WireFrameRecord); and
//   what the GUI thread pays per batch (HistoryRecorder::record only queues);
// - search for a unique string over N events (1,000,000 by default): median of 5, beside
//   `grep -c` over the same JSONL file;
// - import of the N-line JSONL, beside the same bare insert loop's rate;
// - the History tab's model over N events: first screen, a scroll to the end and back, RSS;
// - the Transcript tab's filters and the History tab's search over N events: what the GUI
//   thread waits, before (counted on it, OFFSET to the middle) and now (off it, pages by id);
// - exports of the N events: sonde-cli history export (streamed) beside the whole list in
//   memory, time and peak RSS, the same bytes; and the window's export dialog
//   (TranscriptExportJob) beside the same export on the GUI thread: the GUI's longest wait.
#include "application/history/storehistorycatalog.h"
#include "application/history/transcripthistorysource.h"
#include "application/transcript/transcriptexportjob.h"
#include "application/transcript/transcriptfilterquery.h"
#include "application/transcript/transcriptmodel.h"
#include "application/transcript/transcriptpagesource.h"
#include "application/transcript/transcriptstore.h"
#include "benchsupport.h"
#include "historyexportsource.h"
#include "historyimporter.h"
#include "historyrecorder.h"
#include "historyschema.h"
#include "historystore.h"
#include "transcript/transcriptexport.h"
#include "util/version.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QHash>
#include <QJsonDocument>
#include <QProcess>
#include <QSaveFile>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <functional>
#include <memory>

using namespace Qt::StringLiterals;
using namespace SondeBench;

namespace {

constexpr int BatchSize = 500; // 50 ms of a 10,000/s flood

Sonde::TranscriptEvent notification(qint64 n)
{
    Sonde::TranscriptEvent e;
    e.timeMs = 1700000000000 + n / 10;
    e.server = u"flood"_s;
    e.generation = 1;
    e.direction = Sonde::TranscriptEvent::Direction::Incoming;
    e.raw = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":"
            "\"info\",\"logger\":\"flood\",\"data\":\"event " +
            QByteArray::number(n) + " of the flood, a line of about the size a server logs\"}}";
    return e;
}

Sonde::TranscriptBatch batchAt(qint64 first)
{
    Sonde::TranscriptBatch b;
    b.reserve(BatchSize);
    for (qint64 i = first; i < first + BatchSize; ++i)
        b.append(notification(i));
    return b;
}

// The floor: the same tables (HistorySchema: the events table, its four indexes and its FTS5
// index, filled as the store fills it, by one INSERT ... SELECT per batch), the same rows
// (the same record text), statements prepared once and bound by name, one transaction per
// batch; nothing parsed, derived or redacted, no session kept. What HistoryStore pays above it
// is its own work.
// Every column is bound, as any loop writing rows of more than one session, server or kind
// must. The floor of stop 14 wrote five of them (session, gen, tool, request_id, is_error) as
// SQL constants, which only a loop that knows every row is a notification of session 1 can:
// it is kept as a second column (Constants), so both ratios are printed.
struct BareInserter
{
    enum Binding
    {
        EveryColumn,
        Constants
    };
    QString name;
    Binding binding;
    QSqlDatabase db;
    QSqlQuery *q = nullptr;
    QSqlQuery *fts = nullptr;
    BareInserter(const QString &path, Binding how)
        : name(how == EveryColumn ? u"bare"_s : u"bare-constants"_s), binding(how)
    {
        db = QSqlDatabase::addDatabase(u"QSQLITE"_s, name);
        db.setDatabaseName(path);
        if (!db.open())
            fail(1, u"cannot open "_s + path);
        QSqlQuery(db).exec(u"PRAGMA journal_mode=WAL"_s);
        QSqlQuery(db).exec(u"PRAGMA synchronous=NORMAL"_s);
        QString error;
        if (!Sonde::HistorySchema::migrate(db, &error))
            fail(1, error);
        QSqlQuery(db).exec(u"INSERT INTO runs (id, started_ms, source) VALUES (1, 0, 'bare')"_s);
        QSqlQuery(db).exec(u"INSERT INTO sessions (id, run, server, generation, started_ms) "
                           u"VALUES (1, 1, 'flood', 1, 0)"_s);
        q = new QSqlQuery(db);
        q->prepare(how == EveryColumn
                       ? u"INSERT INTO events (session, t_ms, server, gen, dir, method, tool, "
                         u"request_id, is_error, size, record) VALUES (:session, :t_ms, :server, "
                         u":gen, :dir, :method, :tool, :request_id, :is_error, :size, :record)"_s
                       : u"INSERT INTO events (session, t_ms, server, gen, dir, method, tool, "
                         u"request_id, is_error, size, record) VALUES (1, :t_ms, :server, 1, :dir, "
                         u":method, '', '', 0, :size, :record)"_s);
        fts = new QSqlQuery(db);
        fts->prepare(u"INSERT INTO events_fts (rowid, method, tool, record) SELECT id, method, "
                     u"tool, record FROM events WHERE id >= ?"_s);
    }
    ~BareInserter()
    {
        delete fts;
        delete q;
        db.close();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(name);
    }
    void insert(const QList<QByteArray> &records, qint64 firstT)
    {
        db.transaction();
        qint64 t = firstT;
        qint64 firstId = 0;
        for (const QByteArray &r : records) {
            // By name, as HistoryStore binds (a positional bind formats its name each time).
            if (binding == EveryColumn) {
                q->bindValue(u":session"_s, qint64(1));
                q->bindValue(u":gen"_s, 1);
                q->bindValue(u":tool"_s, u""_s);
                q->bindValue(u":request_id"_s, u""_s);
                q->bindValue(u":is_error"_s, 0);
            }
            q->bindValue(u":t_ms"_s, t++);
            q->bindValue(u":server"_s, u"flood"_s);
            q->bindValue(u":dir"_s, u"recv"_s);
            q->bindValue(u":method"_s, u"notifications/message"_s);
            q->bindValue(u":size"_s, qint64(r.size()));
            q->bindValue(u":record"_s, QString::fromUtf8(r));
            if (!q->exec())
                fail(1, u"bare insert: "_s + q->lastError().text());
            if (firstId == 0)
                firstId = q->lastInsertId().toLongLong();
        }
        fts->bindValue(0, firstId);
        if (!fts->exec())
            fail(1, u"bare insert, the full-text index: "_s + fts->lastError().text());
        db.commit();
    }
};

QList<QByteArray> recordsOf(const Sonde::TranscriptBatch &b)
{
    QList<QByteArray> out;
    for (const Sonde::TranscriptEvent &e : b)
        out << QJsonDocument(e.toJson()).toJson(QJsonDocument::Compact);
    return out;
}

// Runs the event loop until `sender` emits `signal` (queued from its thread); its argument.
template <class Sender, class Value>
Value nextValue(Sender *sender, void (Sender::*signal)(const Value &))
{
    Value got;
    QEventLoop loop;
    const QMetaObject::Connection c = QObject::connect(sender, signal, &loop, [&](const Value &v) {
        got = v;
        loop.quit();
    });
    loop.exec();
    QObject::disconnect(c);
    return got;
}

double msSince(const QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

} // namespace

// The exports as they were before they streamed, for the baseline: every record of the
// history read into a list (by id, as sonde-cli did last), then the document made whole and
// written. Run as a child (--whole-export), so its peak memory is its own.
int wholeExport(const QString &db, const QString &formatName, const QString &outPath)
{
    Sonde::HistoryStore store;
    QString error;
    if (!store.open(db, &error))
        fail(1, error);
    Sonde::HistoryFilter filter;
    QList<QJsonObject> records;
    for (;;) {
        QList<qint64> ids;
        const QList<QJsonObject> page = store.records(filter, 0, 10'000, &ids);
        records += page;
        if (page.size() < 10'000)
            break;
        filter.afterId = ids.last();
    }
    QSaveFile file(outPath);
    if (!file.open(QIODevice::WriteOnly))
        fail(1, file.errorString());
    file.write(Sonde::TranscriptExport::write(*Sonde::TranscriptExport::formatFromName(formatName),
                                              records, {}));
    if (!file.commit())
        fail(1, file.errorString());
    return 0;
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    // The exports name their writer's version: the same as sonde-cli's, for the same bytes.
    QCoreApplication::setApplicationVersion(QStringLiteral(SONDE_VERSION));
    if (app.arguments().value(1) == "--whole-export"_L1)
        return runGuarded("sonde-bench-history", [&] {
            return wholeExport(app.arguments().value(2), app.arguments().value(3),
                               app.arguments().value(4));
        });
    return runGuarded("sonde-bench-history", [&] {
        qint64 events = 1'000'000;
        int floodBatches = 200; // 100,000 events, 10 s of flood
        const QStringList args = app.arguments();
        for (qsizetype i = 1; i < args.size(); ++i) {
            if (args[i] == "--events"_L1 && i + 1 < args.size())
                events = args[++i].toLongLong();
            else if (args[i] == "--flood-batches"_L1 && i + 1 < args.size())
                floodBatches = args[++i].toInt();
            else
                fail(2, u"usage: sonde-bench-history [--events N] [--flood-batches N]"_s);
        }
        QTemporaryDir dir;
        out(u"sonde-bench-history: batches of %1 events (50 ms of a 10,000/s flood)"_s.arg(
            BatchSize));

        // ---- insert ----
        std::vector<double> oursMs, generalMs, floorMs, constantsMs, enqueueMs;
        {
            Sonde::HistoryStore store;
            QString error;
            if (!store.open(dir.filePath(u"ours.db"_s), &error, u"bench"_s))
                fail(1, error);
            // The same store with every frame through its record object (before WireFrameRecord).
            Sonde::HistoryStore general;
            if (!general.open(dir.filePath(u"general.db"_s), &error, u"bench"_s))
                fail(1, error);
            general.setFramesReadDirectly(false);
            BareInserter bare(dir.filePath(u"bare.db"_s), BareInserter::EveryColumn);
            BareInserter constants(dir.filePath(u"constants.db"_s), BareInserter::Constants);
            // Alternated, so drift in the machine's load reaches both columns alike.
            for (int b = 0; b < floodBatches; ++b) {
                const Sonde::TranscriptBatch batch = batchAt(qint64(b) * BatchSize);
                QElapsedTimer t;
                t.start();
                if (!store.append(batch, &error))
                    fail(1, error);
                oursMs.push_back(msSince(t));
                t.restart();
                if (!general.append(batch, &error))
                    fail(1, error);
                generalMs.push_back(msSince(t));
                const QList<QByteArray> records = recordsOf(batch); // the floor gets them made
                t.restart();
                bare.insert(records, qint64(b) * BatchSize);
                floorMs.push_back(msSince(t));
                t.restart();
                constants.insert(records, qint64(b) * BatchSize);
                constantsMs.push_back(msSince(t));
            }
        }
        {
            // What the GUI thread pays: record() queues the batch to the writer thread.
            Sonde::HistoryRecorder recorder;
            recorder.start(dir.filePath(u"recorder.db"_s), u"bench"_s);
            for (int b = 0; b < floodBatches; ++b) {
                const Sonde::TranscriptBatch batch = batchAt(qint64(b) * BatchSize);
                QElapsedTimer t;
                t.start();
                recorder.record(batch);
                enqueueMs.push_back(msSince(t));
            }
            recorder.stop();
            if (recorder.eventsRecorded() != qint64(floodBatches) * BatchSize)
                fail(1, u"the recorder lost events: %1 of %2 (%3)"_s.arg(recorder.eventsRecorded())
                            .arg(qint64(floodBatches) * BatchSize)
                            .arg(recorder.firstError()));
        }
        const double ours = percentile(oursMs, 50), floor = percentile(floorMs, 50);
        const double constantsFloor = percentile(constantsMs, 50);
        out(u"Insert, %1 batches of %2: per batch (ms)   p50      p99    events/s   ratio to the floor"_s
                .arg(floodBatches)
                .arg(BatchSize));
        const auto row = [&](const QString &what, const std::vector<double> &ms) {
            const double p50 = percentile(ms, 50);
            out(u"  %1"_s.arg(what, -38) + num(p50, 8, 2) + num(percentile(ms, 99), 9, 2) +
                num(BatchSize / p50 * 1000, 12, 0) + num(p50 / floor, 10, 2) + u'x');
        };
        row(u"HistoryStore"_s, oursMs);
        row(u"bare QSQLITE loop (the floor)"_s, floorMs);
        row(u"HistoryStore, general path"_s, generalMs);
        row(u"bare loop, 5 columns as SQL constants"_s, constantsMs);
        out(u"  (general path: every frame through its record object, as before WireFrameRecord;"
            u" HistoryStore to the constants loop: %1x)"_s.arg(ours / constantsFloor, 0, 'f', 2));
        out(u"  the GUI thread per batch: p50 %1 ms, max %2 ms (queued to the writer thread); "
            u"no event lost"_s.arg(percentile(enqueueMs, 50), 0, 'f', 3)
                .arg(maxOf(enqueueMs), 0, 'f', 3));
        out(u"  goal: within 1.3x of the bare insert loop: "_s + verdict(ours <= floor * 1.3));
        out(u"  goal: the GUI's stall per flood batch under 50 ms: "_s +
            verdict(maxOf(enqueueMs) < 50));
        out(QString());

        // ---- the same, while the flood runs ----
        // A 10,000/s flood as the window gets it: a batch of 500 every 50 ms from a timer on
        // this (the GUI) thread, written on a thread of its own, each batch timed from its tick
        // to its commit's answer back on this thread (two thread hops). Twice: HistoryRecorder,
        // then the bare loop paced the same way on a thread of its own, the floor of this shape.
        // A StallProbe measures this thread's longest stall while the recorder runs.
        struct Paced
        {
            std::vector<double> ms;
            double stallMs = 0, p99GapMs = 0;
        };
        // prepare(b) makes batch b's data on this thread, untimed, and returns what hands it
        // over: called with landed(), which is called on this thread once it is committed.
        using Send = std::function<void(std::function<void()>)>;
        const auto paced = [&](const std::function<Send(int)> &prepare) {
            Paced p;
            std::vector<QElapsedTimer> sent(static_cast<size_t>(floodBatches));
            int next = 0, landed = 0;
            QEventLoop loop;
            QTimer flood;
            flood.setTimerType(Qt::PreciseTimer);
            StallProbe probe;
            QObject::connect(&flood, &QTimer::timeout, &loop, [&] {
                if (next == floodBatches)
                    return flood.stop();
                const int b = next++;
                const Send send = prepare(b);
                sent[size_t(b)].start();
                send([&, b] {
                    p.ms.push_back(msSince(sent[size_t(b)]));
                    if (++landed == floodBatches)
                        loop.quit();
                });
            });
            flood.start(50);
            probe.start();
            QTimer::singleShot(floodBatches * 50 + 30'000, &loop, &QEventLoop::quit);
            loop.exec();
            probe.stop();
            if (landed != floodBatches)
                fail(1, u"the flood's batches were not all written: %1 of %2"_s.arg(landed).arg(
                            floodBatches));
            p.stallMs = probe.longestStallMs();
            p.p99GapMs = percentile(probe.gapsMs(), 99);
            return p;
        };
        Paced recorded, bare;
        {
            Sonde::HistoryRecorder recorder;
            recorder.start(dir.filePath(u"flood.db"_s), u"bench"_s);
            QList<std::function<void()>> owed; // batches commit in order: the oldest is owed
            QObject::connect(&recorder, &Sonde::HistoryRecorder::recorded, &recorder,
                             [&](qint64) { owed.takeFirst()(); });
            recorded = paced([&](int b) -> Send {
                return [&, batch = batchAt(qint64(b) * BatchSize)](std::function<void()> done) {
                    owed.append(std::move(done));
                    recorder.record(batch);
                };
            });
            recorder.stop();
            if (!recorder.firstError().isEmpty())
                fail(1, recorder.firstError());
        }
        {
            QThread writer;
            writer.start();
            QObject onWriter;
            onWriter.moveToThread(&writer);
            std::unique_ptr<BareInserter> floorLoop;
            const QString path = dir.filePath(u"bare-paced.db"_s);
            QMetaObject::invokeMethod(
                &onWriter,
                [&] {
                    floorLoop = std::make_unique<BareInserter>(path, BareInserter::EveryColumn);
                },
                Qt::BlockingQueuedConnection);
            QObject here;
            bare = paced([&](int b) -> Send {
                // The floor gets its records made, as in the loop above.
                return [&, b, records = recordsOf(batchAt(qint64(b) * BatchSize))](
                           std::function<void()> done) {
                    QMetaObject::invokeMethod(&onWriter, [&, b, records, done = std::move(done)] {
                        floorLoop->insert(records, qint64(b) * BatchSize);
                        QMetaObject::invokeMethod(&here, done, Qt::QueuedConnection);
                    });
                };
            });
            QMetaObject::invokeMethod(
                &onWriter, [&] { floorLoop.reset(); }, Qt::BlockingQueuedConnection);
            writer.quit();
            writer.wait();
        }
        {
            const double p50 = percentile(recorded.ms, 50), floorP50 = percentile(bare.ms, 50);
            out(u"Insert while a 10,000/s flood runs (%1 batches of %2 every 50 ms, each written "
                u"on a thread of its own; ms from the tick to the commit's answer):"_s
                    .arg(floodBatches)
                    .arg(BatchSize));
            out(u"  HistoryRecorder: p50 %1 ms, p99 %2 ms, %3 events/s; the bare loop paced the "
                u"same way: p50 %4 ms, p99 %5 ms; ratio %6x"_s.arg(p50, 0, 'f', 2)
                    .arg(percentile(recorded.ms, 99), 0, 'f', 2)
                    .arg(BatchSize / p50 * 1000, 0, 'f', 0)
                    .arg(floorP50, 0, 'f', 2)
                    .arg(percentile(bare.ms, 99), 0, 'f', 2)
                    .arg(p50 / floorP50, 0, 'f', 2));
            out(u"  goal: within 1.3x of the bare insert loop: "_s +
                verdict(p50 <= floorP50 * 1.3));
            out(u"  the GUI thread meanwhile (a 5 ms probe timer): longest stall %1 ms, p99 gap "
                u"%2 ms; goal: under 50 ms: "_s.arg(recorded.stallMs, 0, 'f', 1)
                    .arg(recorded.p99GapMs, 0, 'f', 1) +
                verdict(recorded.stallMs < 50));
            out(QString());
        }

        // ---- the N-event history and its JSONL ----
        const QString jsonl = dir.filePath(u"big.jsonl"_s);
        const qint64 needleAt = events / 2 + 7;
        {
            QFile f(jsonl);
            if (!f.open(QIODevice::WriteOnly))
                fail(1, u"cannot write "_s + jsonl);
            for (qint64 n = 0; n < events; ++n) {
                Sonde::TranscriptEvent e = notification(n);
                if (n == needleAt)
                    e.raw.replace("of the flood", "unique-needle-41c7");
                f.write(QJsonDocument(e.toJson()).toJson(QJsonDocument::Compact) + '\n');
            }
        }
        const QString big = dir.filePath(u"big.db"_s);
        double importS = 0;
        qint64 importRun = 0;
        {
            Sonde::HistoryStore store;
            QString error;
            if (!store.open(big, &error, u"import"_s))
                fail(1, error);
            QFile in(jsonl);
            in.open(QIODevice::ReadOnly);
            QElapsedTimer t;
            t.start();
            const Sonde::HistoryImporter::Result r = Sonde::HistoryImporter::import(in, store);
            importS = msSince(t) / 1000;
            importRun = store.runId();
            if (r.imported != events)
                fail(1, u"imported %1 of %2: %3"_s.arg(r.imported).arg(events).arg(r.error));
        }
        const double floorRate = BatchSize / floor * 1000;
        out(u"Import of a %1-line JSONL: %2 s, %3 events/s; the bare insert loop: %4 events/s "
            u"(%5x)"_s.arg(events)
                .arg(importS, 0, 'f', 1)
                .arg(events / importS, 0, 'f', 0)
                .arg(floorRate, 0, 'f', 0)
                .arg(floorRate / (events / importS), 0, 'f', 2));
        out(QString());

        // ---- search ----
        std::vector<double> searchMs, grepMs;
        {
            Sonde::HistoryStore store;
            QString error;
            if (!store.open(big, &error))
                fail(1, error);
            for (int i = 0; i < 5; ++i) {
                Sonde::HistoryFilter f;
                f.text = u"unique-needle-41c7"_s;
                QElapsedTimer t;
                t.start();
                const QList<QJsonObject> hits = store.records(f, 0, 100);
                searchMs.push_back(msSince(t));
                if (hits.size() != 1)
                    fail(1, u"the search found %1 events, not 1"_s.arg(hits.size()));
                t.restart();
                QProcess grep;
                grep.start(u"grep"_s, {u"-c"_s, u"unique-needle-41c7"_s, jsonl});
                grep.waitForFinished(60000);
                grepMs.push_back(msSince(t));
            }
        }
        const double s50 = percentile(searchMs, 50);
        out(u"Search for a unique string over %1 events (median of 5): history %2 ms, grep -c "
            u"over the JSONL %3 ms"_s.arg(events)
                .arg(s50, 0, 'f', 2)
                .arg(percentile(grepMs, 50), 0, 'f', 1));
        out(u"  goal: under 300 ms: "_s + verdict(s50 < 300));
        out(QString());

        // ---- the History tab's model ----
        {
            const double rssBefore = selfMiB("VmRSS");
            QElapsedTimer t;
            t.start();
            Sonde::StoreHistoryCatalog catalog;
            QString error;
            if (!catalog.open(big, &error))
                fail(1, error);
            const QList<Sonde::RecordedSession> sessions = catalog.sessions(u"flood"_s);
            if (sessions.isEmpty())
                fail(1, u"no session in the imported history"_s);
            const auto screen = [](const Sonde::TranscriptModel &model, int first) {
                for (int r = first; r < qMin(first + 40, model.rowCount()); ++r)
                    model.data(model.index(r, Sonde::TranscriptModel::SummaryColumn));
            };
            // Twenty jumps over the whole session, each a screen: the worst is a stall.
            const auto jumps = [&](const Sonde::TranscriptModel &model) {
                std::vector<double> ms;
                const int rows = model.rowCount();
                for (int step = 1; step <= 20; ++step) {
                    QElapsedTimer j;
                    j.start();
                    screen(model, int(qint64(rows - 40) * (step % 10) / 9));
                    ms.push_back(msSince(j));
                }
                return ms;
            };
            // Before: counted and read on the GUI thread, each page by OFFSET.
            Sonde::TranscriptModel model;
            model.setSource(catalog.sessionEvents(sessions.first().id));
            screen(model, 0);
            const double firstScreen = msSince(t);
            const std::vector<double> before = jumps(model);
            // Now (HistoryPanel over a file): counted off the GUI thread with the first id
            // of every page, so each jump seeks.
            Sonde::TranscriptFilterQuery query;
            QElapsedTimer gui, total;
            total.start();
            gui.start();
            query.ask(catalog.historyPath(),
                      Sonde::HistoryCatalog::sessionFilter(sessions.first().id), false);
            double blocked = msSince(gui);
            const Sonde::TranscriptFilterAnswer a =
                nextValue(&query, &Sonde::TranscriptFilterQuery::answered);
            gui.restart();
            Sonde::TranscriptModel paged;
            paged.setSource(catalog.pagesOf(a), a.firstRow, a.events);
            screen(paged, 0);
            blocked += msSince(gui);
            const double shown = msSince(total);
            const std::vector<double> now = jumps(paged);
            if (paged.rowCount() != model.rowCount() ||
                paged.event(model.rowCount() / 2)->toJson() !=
                    model.event(model.rowCount() / 2)->toJson())
                fail(1, u"the session read by id differs from the one read by OFFSET"_s);
            out(u"The History tab's model over a session of %1 events: before, the count and "
                u"the first screen on the GUI thread %2 ms, a jump to anywhere p50 %3 ms, max "
                u"%4 ms; now the GUI thread's share %5 ms, shown after %6 ms, a jump p50 %7 "
                u"ms, max %8 ms; RSS %9 MiB (+%10 MiB for the models)"_s.arg(model.rowCount())
                    .arg(firstScreen, 0, 'f', 1)
                    .arg(percentile(before, 50), 0, 'f', 1)
                    .arg(maxOf(before), 0, 'f', 1)
                    .arg(blocked, 0, 'f', 1)
                    .arg(shown, 0, 'f', 1)
                    .arg(percentile(now, 50), 0, 'f', 1)
                    .arg(maxOf(now), 0, 'f', 1)
                    .arg(selfMiB("VmRSS"), 0, 'f', 1)
                    .arg(selfMiB("VmRSS") - rssBefore, 0, 'f', 1));
            out(u"  goal: the first screen under 1 s: "_s + verdict(shown < 1000) +
                u"; under 200 MiB RSS: "_s + verdict(selfMiB("VmRSS") < 200) +
                u"; no stall over 50 ms: "_s + verdict(blocked < 50 && maxOf(now) < 50));
        }
        // ---- the History tab itself, in a process of its own ----
        // The widget as the window shows it (HistoryPanel: sessions, events table, JSON view),
        // offscreen, by sonde-bench-gui --history-window: its memory is the tab's alone.
        {
            QProcess child;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
            child.setProcessEnvironment(env);
            child.start(QDir(QCoreApplication::applicationDirPath()).filePath(u"sonde-bench-gui"_s),
                        {u"--history-window"_s, big, u"flood"_s});
            if (!child.waitForFinished(120'000) || child.exitCode() != 0)
                fail(1, u"sonde-bench-gui --history-window failed: "_s +
                            QString::fromUtf8(child.readAllStandardError()));
            QHash<QString, double> figure;
            for (const QByteArray &line : child.readAllStandardOutput().split('\n'))
                if (line.startsWith("history-window "))
                    for (const QByteArray &pair : line.mid(15).split(' '))
                        if (const qsizetype eq = pair.indexOf('='); eq > 0)
                            figure.insert(QString::fromLatin1(pair.left(eq)),
                                          pair.mid(eq + 1).toDouble());
            if (!figure.contains(u"first_screen_ms"_s))
                fail(1, u"sonde-bench-gui --history-window printed no figures"_s);
            const double first = figure.value(u"first_screen_ms"_s);
            const double rss = figure.value(u"rss_mib"_s);
            out(u"The History tab in the window (HistoryPanel offscreen, a process of its own) "
                u"over the %1-event session: first screen painted %2 ms (the GUI thread's "
                u"longest stall meanwhile %3 ms), 20 jumps of the scroll bar to the end: p50 %4 "
                u"ms, max %5 ms; RSS %6 MiB (%7 MiB before the tab)"_s
                    .arg(qint64(figure.value(u"rows"_s)))
                    .arg(first, 0, 'f', 1)
                    .arg(figure.value(u"longest_stall_ms"_s), 0, 'f', 1)
                    .arg(figure.value(u"jump_p50_ms"_s), 0, 'f', 1)
                    .arg(figure.value(u"jump_max_ms"_s), 0, 'f', 1)
                    .arg(rss, 0, 'f', 1)
                    .arg(figure.value(u"rss_before_mib"_s), 0, 'f', 1));
            out(u"  goal: the first screen under 1 s: "_s + verdict(first < 1000) +
                u"; under 200 MiB RSS: "_s + verdict(rss < 200) + u"; no jump over 50 ms: "_s +
                verdict(figure.value(u"jump_max_ms"_s) < 50));
            out(QString());
        }

        // ---- the Transcript tab's filters over the same events ----
        {
            // What typing into a filter box costs the window (the GUI thread): the new source
            // counts its rows, and the first screen is read.
            auto reader = std::make_shared<Sonde::HistoryStore>();
            QString error;
            if (!reader->open(big, &error))
                fail(1, error);
            struct Case
            {
                QString what;
                Sonde::HistoryFilter filter;
            };
            QList<Case> cases;
            Sonde::HistoryFilter f;
            f.runId = importRun; // the tab's query: one run's events
            f.server = u"flood"_s;
            cases.append({u"the server (every event)"_s, f});
            f.methodContains = u"message"_s;
            cases.append({u"+ a method part that every event has"_s, f});
            f.methodContains = u"tools/call"_s;
            cases.append({u"+ a method part that none has"_s, f});
            f.methodContains.clear();
            f.directions = {u"send"_s};
            cases.append({u"+ a direction none has"_s, f});
            f.directions.clear();
            f.text = u"unique-needle-41c7"_s;
            cases.append({u"+ text found once"_s, f});
            f.text = u"flood"_s;
            cases.append({u"+ text in every event"_s, f});
            out(u"The Transcript tab's filters over %1 events (median of 3, ms). Before: the "
                u"count and the first screen on the GUI thread, and a jump to the middle read "
                u"with OFFSET there. Now: the GUI thread's share of a filter change (ask, then "
                u"reset with the answer's pages), until the answer is shown (following: the "
                u"last two pages), then on the GUI thread a jump to the start, to the middle, "
                u"the page after that, and a recount after a batch with nothing new"_s.arg(events));
            out(u"  %1 %2 %3 %4 | %5 %6 %7 %8 %9 %10"_s.arg(u"filter"_s, -38)
                    .arg(u"rows"_s, 7)
                    .arg(u"before"_s, 6)
                    .arg(u"OFFSET"_s, 6)
                    .arg(u"GUI"_s, 5)
                    .arg(u"shown"_s, 6)
                    .arg(u"start"_s, 5)
                    .arg(u"middle"_s, 6)
                    .arg(u"next"_s, 5)
                    .arg(u"follow"_s, 6));
            double worst = 0, worstBlocked = 0, worstJump = 0, worstOffset = 0;
            Sonde::TranscriptFilterQuery query;
            constexpr int PageSize = Sonde::TranscriptPageSource::PageSize;
            const auto show = [](const Sonde::TranscriptModel &model, int first) {
                for (int r = first; r < qMin(first + 40, model.rowCount()); ++r)
                    model.data(model.index(r, Sonde::TranscriptModel::SummaryColumn));
            };
            for (const Case &c : std::as_const(cases)) {
                std::vector<double> ms, offsetMs, blockedMs, shownMs, startMs, midMs, nextMs,
                    followMs;
                qint64 rows = 0;
                for (int i = 0; i < 3; ++i) {
                    // Before: what a TranscriptHistorySource counted on the GUI thread, and
                    // the read of a page in the middle that had nothing to seek from.
                    QElapsedTimer t;
                    t.start();
                    const Sonde::HistoryStore::Tally tally = reader->tally(c.filter);
                    reader->records(c.filter, 0, PageSize);
                    ms.push_back(msSince(t));
                    rows = tally.count;
                    if (rows > 2 * PageSize) {
                        t.restart();
                        reader->records(c.filter, rows / 2 / PageSize * PageSize, PageSize);
                        offsetMs.push_back(msSince(t));
                    }
                }
                for (int i = 0; i < 3; ++i) {
                    Sonde::TranscriptModel model;
                    QElapsedTimer total, gui;
                    total.start();
                    gui.start();
                    query.ask(big, c.filter, true);
                    double blocked = msSince(gui);
                    const Sonde::TranscriptFilterAnswer a =
                        nextValue(&query, &Sonde::TranscriptFilterQuery::answered);
                    if (!a.error.isEmpty())
                        fail(1, a.error);
                    gui.restart();
                    model.setSource(std::make_unique<Sonde::TranscriptHistorySource>(reader, a),
                                    a.firstRow, a.events);
                    model.followSource();
                    show(model, qMax(0, model.rowCount() - 40));
                    blocked += msSince(gui);
                    shownMs.push_back(msSince(total));
                    blockedMs.push_back(blocked);
                    if (model.pagesRead() != 0 || model.rowCount() != rows)
                        fail(1, u"the answer's first screen was read again (%1 pages) or its "
                                u"count differs (%2 of %3)"_s.arg(model.pagesRead())
                                    .arg(model.rowCount())
                                    .arg(rows));
                    gui.restart();
                    model.followSource();
                    followMs.push_back(msSince(gui));
                    if (rows > 4 * PageSize) {
                        gui.restart();
                        show(model, 0);
                        startMs.push_back(msSince(gui));
                        const int middle = model.rowCount() / 2;
                        gui.restart();
                        show(model, middle);
                        midMs.push_back(msSince(gui));
                        gui.restart();
                        show(model, middle + PageSize);
                        nextMs.push_back(msSince(gui));
                        // The rows the seek found are the ones OFFSET finds.
                        const QList<QJsonObject> expected = reader->records(c.filter, middle, 1);
                        if (expected.isEmpty() || model.event(middle)->toJson() != expected.first())
                            fail(1, u"the row in the middle is not the one OFFSET reads"_s);
                    }
                }
                worst = std::max(worst, percentile(ms, 50));
                worstBlocked = std::max(worstBlocked, percentile(blockedMs, 50));
                if (!midMs.empty()) {
                    worstJump = std::max({worstJump, percentile(midMs, 50), percentile(startMs, 50),
                                          percentile(nextMs, 50)});
                    worstOffset = std::max(worstOffset, percentile(offsetMs, 50));
                }
                const auto cell = [](const std::vector<double> &v) {
                    return v.empty() ? u"-"_s : QString::number(percentile(v, 50), 'f', 1);
                };
                out(u"  %1 %2 %3 %4 | %5 %6 %7 %8 %9 %10"_s.arg(c.what, -38)
                        .arg(rows, 7)
                        .arg(cell(ms), 6)
                        .arg(cell(offsetMs), 6)
                        .arg(cell(blockedMs), 5)
                        .arg(cell(shownMs), 6)
                        .arg(cell(startMs), 5)
                        .arg(cell(midMs), 6)
                        .arg(cell(nextMs), 5)
                        .arg(cell(followMs), 6));
            }
            out(u"  slowest before: %1 ms counted, %2 ms to the middle; now the GUI thread's "
                u"share at most %3 ms, a jump at most %4 ms (goal: a stall under 50 ms, a frame "
                u"or three): "_s.arg(worst, 0, 'f', 1)
                    .arg(worstOffset, 0, 'f', 1)
                    .arg(worstBlocked, 0, 'f', 1)
                    .arg(worstJump, 0, 'f', 1) +
                verdict(worstBlocked < 50 && worstJump < 50));

            // A newer filter asked while an older one is counted, and the file let go during a
            // count (a closed offline file): the older count now stops at its next check.
            // Before, it ran to its end first: the same count with nothing to stop it.
            {
                const auto toItsEnd = [](const Sonde::HistoryStore &store,
                                         const Sonde::TranscriptFilterRequest &request) {
                    Sonde::TranscriptFilterRequest never = request;
                    never.latest.reset(); // never superseded: counted to its end
                    return Sonde::TranscriptFilterQuery::compute(store, never);
                };
                const Sonde::HistoryFilter older =
                    cases.last().filter; // text in every event: slowest
                Sonde::HistoryFilter newer = older;
                newer.text = u"unique-needle-41c7"_s;
                const auto intoTheCount = [&](Sonde::TranscriptFilterQuery &q) {
                    q.ask(big, older, true);
                    QThread::msleep(20); // the older count is under way on the query's thread
                };
                const auto measure = [&](Sonde::TranscriptFilterQuery &q, double *answeredMs,
                                         double *releaseMs) {
                    std::vector<double> answered, released;
                    q.ask(big, newer, true); // the query's thread opens the file first
                    nextValue(&q, &Sonde::TranscriptFilterQuery::answered);
                    for (int i = 0; i < 3; ++i) {
                        intoTheCount(q);
                        QElapsedTimer t;
                        t.start();
                        q.ask(big, newer, true);
                        const Sonde::TranscriptFilterAnswer a =
                            nextValue(&q, &Sonde::TranscriptFilterQuery::answered);
                        answered.push_back(msSince(t));
                        if (!a.error.isEmpty())
                            fail(1, u"the newer filter was not answered: "_s + a.error);
                        intoTheCount(q);
                        t.restart();
                        q.release(big);
                        released.push_back(msSince(t));
                    }
                    *answeredMs = percentile(answered, 50);
                    *releaseMs = percentile(released, 50);
                };
                double nowAnswered = 0, nowReleased = 0, beforeAnswered = 0, beforeReleased = 0;
                {
                    Sonde::TranscriptFilterQuery now;
                    measure(now, &nowAnswered, &nowReleased);
                }
                {
                    Sonde::TranscriptFilterQuery before(toItsEnd);
                    measure(before, &beforeAnswered, &beforeReleased);
                }
                out(u"  a newer filter asked 20 ms into the count of a text in every event (median "
                    u"of 3): "
                    u"answered in %1 ms, against %2 ms when the older count ran to its end; the "
                    u"file let go then: release() blocked the GUI thread %3 ms, against %4 ms"_s
                        .arg(nowAnswered, 0, 'f', 1)
                        .arg(beforeAnswered, 0, 'f', 1)
                        .arg(nowReleased, 0, 'f', 1)
                        .arg(beforeReleased, 0, 'f', 1));
            }

            // A click in the timeline (an event of the newest 10,000, the window's tail) finds
            // its row: before, the rows before its millisecond were counted; now the rows from
            // it on (TranscriptPanel::recordingRowOf). Both on the GUI thread.
            const Sonde::HistoryFilter all = cases.first().filter;
            const Sonde::HistoryStore::Tally tally = reader->tally(all);
            const qint64 clickedMs = notification(events - 5000).timeMs;
            std::vector<double> beforeMs, fromMs;
            for (int i = 0; i < 3; ++i) {
                Sonde::HistoryFilter before = all;
                before.toMs = clickedMs - 1;
                QElapsedTimer t;
                t.start();
                const qint64 rowsBefore = reader->count(before);
                beforeMs.push_back(msSince(t));
                Sonde::HistoryFilter from = all;
                from.fromMs = clickedMs;
                from.untilId = tally.lastId;
                t.restart();
                const qint64 rowsFrom = reader->count(from);
                fromMs.push_back(msSince(t));
                if (rowsBefore + rowsFrom != tally.count)
                    fail(1, u"the rows before the click (%1) and from it (%2) are not all %3"_s
                                .arg(rowsBefore)
                                .arg(rowsFrom)
                                .arg(tally.count));
            }
            out(u"  a click in the timeline's tail finds its row: before %1 ms (the rows before "
                u"it counted), now %2 ms (the rows from it, by the time index): "_s
                    .arg(percentile(beforeMs, 50), 0, 'f', 1)
                    .arg(percentile(fromMs, 50), 0, 'f', 1) +
                verdict(percentile(fromMs, 50) < 50));
        }
        out(QString());

        // ---- the History tab's search ----
        {
            Sonde::StoreHistoryCatalog catalog;
            QString error;
            if (!catalog.open(big, &error))
                fail(1, error);
            out(u"The History tab's search over %1 events (median of 3, ms). Before: "
                u"StoreHistoryCatalog::search counted on the GUI thread, the first screen and a "
                u"jump to the middle with OFFSET. Now: the GUI thread's share (ask, then the "
                u"answer's rows), until the hits are shown, and a jump to the middle"_s.arg(
                    events));
            out(u"  %1 %2 %3 %4 | %5 %6 %7"_s.arg(u"text"_s, -24)
                    .arg(u"hits"_s, 7)
                    .arg(u"before"_s, 6)
                    .arg(u"middle"_s, 6)
                    .arg(u"GUI"_s, 5)
                    .arg(u"shown"_s, 6)
                    .arg(u"middle"_s, 6));
            double worstBlocked = 0;
            Sonde::TranscriptFilterQuery query;
            const auto show = [](const Sonde::TranscriptModel &model, int first) {
                for (int r = first; r < qMin(first + 40, model.rowCount()); ++r)
                    model.data(model.index(r, Sonde::TranscriptModel::SummaryColumn));
            };
            for (const QString &text : {u"unique-needle-41c7"_s, u"flood"_s}) {
                std::vector<double> syncMs, syncMidMs, blockedMs, shownMs, midMs;
                qint64 hits = 0;
                for (int i = 0; i < 3; ++i) {
                    Sonde::TranscriptModel model;
                    QElapsedTimer t;
                    t.start();
                    model.setSource(catalog.search(text, u"flood"_s));
                    show(model, 0);
                    syncMs.push_back(msSince(t));
                    hits = model.rowCount();
                    if (hits > 1) {
                        t.restart();
                        show(model, model.rowCount() / 2);
                        syncMidMs.push_back(msSince(t));
                    }
                }
                for (int i = 0; i < 3; ++i) {
                    Sonde::TranscriptModel model;
                    QElapsedTimer total, gui;
                    total.start();
                    gui.start();
                    query.ask(catalog.historyPath(),
                              Sonde::HistoryCatalog::searchFilter(text, u"flood"_s), false);
                    double blocked = msSince(gui);
                    const Sonde::TranscriptFilterAnswer a =
                        nextValue(&query, &Sonde::TranscriptFilterQuery::answered);
                    if (!a.error.isEmpty())
                        fail(1, a.error);
                    gui.restart();
                    model.setSource(catalog.pagesOf(a), a.firstRow, a.events);
                    show(model, 0);
                    blocked += msSince(gui);
                    blockedMs.push_back(blocked);
                    shownMs.push_back(msSince(total));
                    if (model.rowCount() != hits)
                        fail(1, u"the search's hits differ: %1, not %2"_s.arg(model.rowCount())
                                    .arg(hits));
                    if (hits > 1) {
                        gui.restart();
                        show(model, model.rowCount() / 2);
                        midMs.push_back(msSince(gui));
                    }
                }
                worstBlocked = std::max(worstBlocked, percentile(blockedMs, 50));
                if (!midMs.empty())
                    worstBlocked = std::max(worstBlocked, percentile(midMs, 50));
                const auto cell = [](const std::vector<double> &v) {
                    return v.empty() ? u"-"_s : QString::number(percentile(v, 50), 'f', 1);
                };
                out(u"  %1 %2 %3 %4 | %5 %6 %7"_s.arg(text, -24)
                        .arg(hits, 7)
                        .arg(cell(syncMs), 6)
                        .arg(cell(syncMidMs), 6)
                        .arg(cell(blockedMs), 5)
                        .arg(cell(shownMs), 6)
                        .arg(cell(midMs), 6));
            }
            out(u"  the GUI thread now waits at most %1 ms (goal: under 50 ms): "_s.arg(
                    worstBlocked, 0, 'f', 1) +
                verdict(worstBlocked < 50));
        }
        // ---- exports of the whole history ----
        out(QString());
        out(u"Export of the %1-event history to a file: sonde-cli history export (streamed) "
            u"beside the whole list in memory (as before), the same bytes"_s.arg(events));
        out(u"  format   streamed: s   peak MiB | whole list: s   peak MiB"_s);
        for (const auto *format : {"jsonl", "md", "har", "otlp"}) {
            const QString streamedPath = dir.filePath(u"streamed."_s + QLatin1StringView(format));
            const QString wholePath = dir.filePath(u"whole."_s + QLatin1StringView(format));
            const CliRun streamed = cliOneShot({QFile::encodeName(cliPath()), "history", "export",
                                                "--db", QFile::encodeName(big), "--format", format,
                                                "--out", QFile::encodeName(streamedPath)});
            const CliRun whole =
                cliOneShot({QFile::encodeName(app.applicationFilePath()), "--whole-export",
                            QFile::encodeName(big), format, QFile::encodeName(wholePath)});
            QFile a(streamedPath), b(wholePath);
            a.open(QIODevice::ReadOnly);
            b.open(QIODevice::ReadOnly);
            const bool same = a.size() == b.size() && a.readAll() == b.readAll();
            if (!same)
                fail(1,
                     u"the %1 exports differ (%2 against %3 bytes)"_s.arg(QLatin1StringView(format))
                         .arg(a.size())
                         .arg(b.size()));
            out(u"  %1 %2 %3 | %4 %5   (%6 MB)"_s.arg(QLatin1StringView(format), -6)
                    .arg(streamed.wallMs / 1000, 12, 'f', 1)
                    .arg(streamed.ownPeakMiB, 10, 'f', 0)
                    .arg(whole.wallMs / 1000, 14, 'f', 1)
                    .arg(whole.ownPeakMiB, 10, 'f', 0)
                    .arg(double(a.size()) / 1e6, 0, 'f', 0));
        }
        // ---- the window's export ----
        // The export dialog's way (TranscriptExportJob: counted, then written on its own
        // thread) beside the same export on the GUI thread, as the dialog wrote before: the
        // GUI thread's longest wait between two turns of its event loop, which a 1 ms timer
        // measures.
        out(QString());
        out(u"The window's export of the %1-event history (JSON Lines): the GUI thread's longest "
            u"wait, the dialog's job beside the same export on the GUI thread"_s.arg(events));
        {
            double longestGap = 0, jobMs = 0, countMs = 0;
            QElapsedTimer sinceTick;
            QTimer tick;
            tick.setInterval(1);
            QObject::connect(&tick, &QTimer::timeout, [&] {
                longestGap = std::max(longestGap, msSince(sinceTick));
                sinceTick.restart();
            });
            Sonde::ExportInput input;
            input.historyPath = big;
            Sonde::TranscriptExportJob job(input);
            QElapsedTimer total;
            total.start();
            sinceTick.start();
            tick.start();
            job.count();
            const Sonde::ExportCountAnswer counted =
                nextValue(&job, &Sonde::TranscriptExportJob::counted);
            countMs = msSince(total);
            if (!counted.ok())
                fail(1, counted.error);
            Sonde::ExportWriteRequest request;
            request.format = Sonde::TranscriptExport::Format::Jsonl;
            request.path = dir.filePath(u"job.jsonl"_s);
            total.restart();
            job.write(request);
            const Sonde::ExportWriteAnswer written =
                nextValue(&job, &Sonde::TranscriptExportJob::written);
            jobMs = msSince(total);
            tick.stop();
            if (!written.ok())
                fail(1, written.error);
            const double jobGap = longestGap;

            // The same file, written on this thread: the loop waits for all of it.
            total.restart();
            {
                Sonde::HistoryStore store;
                QString error;
                if (!store.open(big, &error))
                    fail(1, error);
                const Sonde::HistoryExportSource source(store, {});
                QSaveFile file(dir.filePath(u"gui.jsonl"_s));
                if (!file.open(QIODevice::WriteOnly) ||
                    !Sonde::TranscriptExport::write(Sonde::TranscriptExport::Format::Jsonl, source,
                                                    {}, file, &error) ||
                    !file.commit())
                    fail(1, error);
            }
            const double guiMs = msSince(total);
            QFile a(request.path), b(dir.filePath(u"gui.jsonl"_s));
            a.open(QIODevice::ReadOnly);
            b.open(QIODevice::ReadOnly);
            if (a.size() != b.size() || a.readAll() != b.readAll())
                fail(1, u"the job's file is not the GUI thread's"_s);
            out(u"  count %1 s, write %2 s: the GUI thread waited at most %3 ms (goal: under "
                u"50 ms), against %4 s on the GUI thread: "_s.arg(countMs / 1000, 0, 'f', 1)
                    .arg(jobMs / 1000, 0, 'f', 1)
                    .arg(jobGap, 0, 'f', 1)
                    .arg(guiMs / 1000, 0, 'f', 1) +
                verdict(jobGap < 50));

            // Without a history, the live store's events go to the dialog: made records on
            // the GUI thread (before) or handed over shared, made records on the job's thread.
            Sonde::TranscriptStore live(Sonde::TranscriptStore::DefaultCapacity);
            for (qint64 first = 0; live.size() < Sonde::TranscriptStore::DefaultCapacity;
                 first += BatchSize)
                live.append(batchAt(first));
            total.restart();
            QList<QJsonObject> records;
            records.reserve(live.size());
            for (const Sonde::TranscriptEvent &e : live.events())
                records.append(e.toJson());
            const double asRecordsMs = msSince(total);
            total.restart();
            const Sonde::TranscriptBatch shared = live.events();
            const double sharedMs = msSince(total);
            out(u"  the live transcript's %1 events to the dialog, on the GUI thread: %2 ms "
                u"handed over shared, against %3 ms made records there (before)"_s
                    .arg(shared.size())
                    .arg(sharedMs, 0, 'f', 3)
                    .arg(asRecordsMs, 0, 'f', 1));
        }
        return 0;
    });
}
