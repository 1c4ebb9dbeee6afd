// SPDX-License-Identifier: MIT
// The SQLite history: what goes in comes back in order and by filter, secrets never reach the
// file, a server's payloads can be left out, retention and Clear delete what they say, the
// schema refuses a newer file, and an import counts the lines it could not read. MCP session
// ids are kept masked (a keyed hash per recording run), sessions still group, and a history
// written with plain ids still opens and exports masked.
#include "config/serverconfig.h"
#include "historyexportsource.h"
#include "historyimporter.h"
#include "historyrecorder.h"
#include "historyschema.h"
#include "historystore.h"
#include "transcript/transcriptexport.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <malloc.h>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 T0 = 1700000000000;

TranscriptEvent wire(qint64 t, TranscriptEvent::Direction dir, const QByteArray &raw,
                     const QString &server = u"alpha"_s, int gen = 1)
{
    TranscriptEvent e;
    e.timeMs = T0 + t;
    e.server = server;
    e.generation = gen;
    e.direction = dir;
    e.raw = raw;
    return e;
}

using D = TranscriptEvent::Direction;

TranscriptBatch sample()
{
    return {wire(0, D::Outgoing,
                 "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
                 "\"echo\",\"arguments\":{\"message\":\"needle in a haystack\"}}}"),
            wire(5, D::Incoming,
                 "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[],\"isError\":true}}"),
            wire(7, D::Stderr, "listening", u"beta"_s),
            wire(9, D::Outgoing, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
                 u"alpha"_s, 2)};
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

// A history in a folder of its own, open as a test opens it.
struct TestHistory
{
    QTemporaryDir dir;
    HistoryStore store;
    QString error;
    bool open() { return store.open(dir.filePath(u"h.db"_s), &error, u"test"_s); }
};

} // namespace

class TestHistoryStore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // A long session of answered requests (100,000 pings through a proxy) keeps the table of
    // requests awaiting answers small: the answered are swept out of its order list once
    // they are half of it, not after 16,384 entries (2 MiB of a proxy's memory).
    void answeredRequestsDoNotPileUpInThePendingTable()
    {
        TestHistory s;
        QVERIFY2(s.open(), qPrintable(s.error));
        for (int batch = 0; batch < 20; ++batch) {
            TranscriptBatch b;
            for (int i = 0; i < 1000; ++i) {
                const QByteArray id = QByteArray::number(batch * 1000 + i);
                b << wire(batch, D::Outgoing,
                          "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}");
            }
            for (int i = 0; i < 1000; ++i) {
                const QByteArray id = QByteArray::number(batch * 1000 + i);
                b << wire(batch, D::Incoming,
                          "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}");
            }
            QVERIFY2(s.store.append(b, &s.error), qPrintable(s.error));
            QCOMPARE(s.store.pendingRequests(), 0);
            QVERIFY2(s.store.pendingOrderEntries() <= 2 * 1000 + 256,
                     qPrintable(QString::number(s.store.pendingOrderEntries())));
        }
    }

    // The proxy's recorder only appends: its page cache is set small (ProxyRecording).
    void aStoresPageCacheIsSetInKiB()
    {
        QTemporaryDir dir;
        HistoryStore store;
        QString error;
        QVERIFY2(store.open(dir.filePath(u"h.db"_s), &error, u"test"_s), qPrintable(error));
        QCOMPARE(store.pageCacheKiB(), 2000); // SQLite's default
        store.setPageCacheKiB(256);
        QCOMPARE(store.pageCacheKiB(), 256);
    }

    // A 20 MiB answer on one line (one FTS5 token, as a base64 image is) grew buffers SQLite
    // kept for the connection's life: the bound text widened to UTF-16 and translated back
    // (80 MiB) and the tokenizer's 32 MiB. The store writes it as UTF-8 and opens its
    // connection anew after a record over BigRecordBytes: what it holds after the write is
    // what it held before. Heap in use is glibc's count (mallinfo2), not the RSS, so the
    // allocator's caching does not blur it.
    void aBigRecordLeavesNothingHeldOnceWrittenAndStaysSearchable()
    {
        TestHistory h;
        QVERIFY2(h.open(), qPrintable(h.error));
        h.store.setPageCacheKiB(256);
        QVERIFY2(h.store.append(sample(), &h.error), qPrintable(h.error));
        const auto inUse = [] {
            const struct mallinfo2 m = mallinfo2();
            return qint64(m.uordblks + m.hblkhd);
        };
        const qint64 before = inUse();
        {
            const QByteArray big =
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[{\"type\":\"text\","
                "\"text\":\"" +
                QByteArray(20 * 1024 * 1024, 'x') + "\"}]}}";
            QVERIFY2(h.store.append({wire(20, D::Incoming, big)}, &h.error), qPrintable(h.error));
        }
        const qint64 held = inUse() - before;
        QVERIFY2(held < 4 * 1024 * 1024, qPrintable(u"%1 bytes still held"_s.arg(held)));
        // The new connection is the old one in all but its buffers.
        QCOMPARE(h.store.pageCacheKiB(), 256);
        QVERIFY2(h.store.append({wire(30, D::Outgoing,
                                      "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\","
                                      "\"params\":{\"name\":\"echo\",\"arguments\":{"
                                      "\"message\":\"after the big one\"}}}")},
                                &h.error),
                 qPrintable(h.error));
        HistoryFilter f;
        f.text = u"after the big one"_s;
        QCOMPARE(h.store.count(f), 1);
        const QList<QJsonObject> all = h.store.records({}, 0, 10);
        QCOMPARE(all.size(), 6);
        QCOMPARE(
            all.at(4).value("msg"_L1)["result"_L1]["content"_L1][0]["text"_L1].toString().size(),
            20 * 1024 * 1024);
    }

    void thisSqliteHasFullTextSearch()
    {
        // Debian 12's SQLite is built with FTS5; the LIKE fallback is for others
        // (docs/history.md). Failing here says the search below tested the fallback.
        QTemporaryDir dir;
        HistoryStore store;
        QString error;
        QVERIFY2(store.open(dir.filePath(u"h.db"_s), &error, u"test"_s), qPrintable(error));
        QVERIFY(store.hasFullText());
    }

    // An export reads the history a page at a time after the last id (HistoryExportSource):
    // over several pages, every format gives the document of the records read whole, for all
    // servers and for one.
    void anExportReadByPagesIsTheDocumentOfAllRecords_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<QString>("server");
        for (const auto &[f, name] : {std::pair{TranscriptExport::Format::Jsonl, "JSON Lines"},
                                      std::pair{TranscriptExport::Format::Markdown, "Markdown"},
                                      std::pair{TranscriptExport::Format::Har, "HAR"},
                                      std::pair{TranscriptExport::Format::Otlp, "OTLP"}}) {
            QTest::addRow("%s of every server", name) << int(f) << QString();
            QTest::addRow("%s of beta alone", name) << int(f) << u"beta"_s;
        }
    }
    void anExportReadByPagesIsTheDocumentOfAllRecords()
    {
        QFETCH(int, format);
        QFETCH(QString, server);
        TestHistory h;
        QVERIFY2(h.open(), qPrintable(h.error));
        const TranscriptEvent open = TranscriptEvent::lifecycle(
            T0, u"beta"_s, 0,
            LifecycleDetails::TransportOpen{{.route = ServerConfig::Route::StreamableHttp,
                                             .sessionId = u"0123456789abcdef0123456789abcdef"_s}});
        QVERIFY(h.store.append({open}, &h.error));
        constexpr int Batches = 1'300; // 5,201 records: three pages
        for (int i = 0; i < Batches; ++i)
            QVERIFY2(h.store.append(sample(), &h.error), qPrintable(h.error));
        QList<QJsonObject> all;
        for (const QJsonObject &r : h.store.records({}, 0, 100'000))
            if (server.isEmpty() || r.value("server"_L1).toString() == server)
                all.append(r);
        QCOMPARE(all.size(), server.isEmpty() ? 1 + 4 * Batches : 1 + Batches);
        const auto f = TranscriptExport::Format(format);
        const QByteArray whole = TranscriptExport::write(f, all, {});
        QBuffer paged;
        paged.open(QIODevice::WriteOnly);
        const HistoryExportSource source(h.store, {});
        // Recorded after the source was made: in none of its passes (the recording goes on
        // while the window exports this run; a header's count must be the lines' count).
        QVERIFY2(h.store.append(sample(), &h.error), qPrintable(h.error));
        TranscriptExport::Counts learned;
        QVERIFY2(TranscriptExport::write(f, source, {}, paged, &h.error, server, {}, &learned),
                 qPrintable(h.error));
        QCOMPARE(paged.data().size(), whole.size());
        QVERIFY(paged.data() == whole);
        QVERIFY(!whole.contains("0123456789abcdef0123456789abcdef"));
        TranscriptExport::Counts counts;
        QVERIFY(TranscriptExport::count(source, server, &counts, &h.error));
        QCOMPARE(counts.events, all.size());
        QCOMPARE(learned.events, all.size());
        QCOMPARE(learned.servers, counts.servers);
        QCOMPARE(learned.exchanges, counts.exchanges);
        QCOMPARE(learned.stdioLegs, counts.stdioLegs);
    }

    // Retention deletes the oldest rows on the recorder's connection while an export reads on
    // a connection of its own (the window's export of this run, sonde-cli's). Over a store
    // that only reads, the source holds one snapshot for every pass: the JSON Lines header
    // counts the lines after it. The other row is the reason: a store that holds none sees
    // the deletion between the passes.
    void anExportReadsOneSnapshotWhileRetentionDeletesTheOldestRows_data()
    {
        QTest::addColumn<bool>("readOnly");
        QTest::newRow("a store that only reads reads one snapshot in every pass") << true;
        QTest::newRow("a store without one sees the deletion between the passes") << false;
    }
    void anExportReadsOneSnapshotWhileRetentionDeletesTheOldestRows()
    {
        QFETCH(bool, readOnly);
        TestHistory h;
        QVERIFY2(h.open(), qPrintable(h.error));
        constexpr int Batches = 1'300; // 5,200 records: a progress call at 4,096 in each pass
        for (int i = 0; i < Batches; ++i)
            QVERIFY2(h.store.append(sample(), &h.error), qPrintable(h.error));
        HistoryStore reader;
        QVERIFY2(reader.open(h.store.path(), &h.error, readOnly ? QString() : u"other"_s),
                 qPrintable(h.error));
        RetentionPolicy newestTenth;
        newestTenth.maxBytes = h.store.recordBytes() / 10;
        qint64 deleted = 0;
        QBuffer out;
        out.open(QIODevice::WriteOnly);
        {
            const HistoryExportSource source(reader, {});
            QCOMPARE(source.holdsSnapshot(), readOnly);
            const auto retentionOnce = [&](qint64) {
                if (deleted == 0)
                    deleted = h.store.applyRetention(newestTenth, 0, &h.error);
                return deleted > 0;
            };
            QVERIFY2(TranscriptExport::write(TranscriptExport::Format::Jsonl, source, {}, out,
                                             &h.error, {}, retentionOnce),
                     qPrintable(h.error));
        }
        QVERIFY(deleted > 4 * Batches / 2); // retention deleted most rows, during the export
        const QList<QByteArray> lines = out.data().trimmed().split('\n');
        const int header =
            QJsonDocument::fromJson(lines.first()).object().value("events"_L1).toInt();
        if (readOnly) {
            QCOMPARE(header, 4 * Batches);
            QCOMPARE(lines.size() - 1, 4 * Batches);
            // The snapshot ended with the source: the reader sees the rows that are left.
            QCOMPARE(reader.count({}), 4 * Batches - deleted);
        } else {
            QCOMPARE(lines.size() - 1, 4 * Batches - deleted);
            QVERIFY(header > lines.size() - 1);
        }
    }

    // The count of a filter is asked every StopCheckRows rows whether to stop (a newer filter,
    // a file let go): it stops there, and says the tally is partial.
    void aTallyAskedToStopStopsAtItsNextCheck()
    {
        TestHistory h;
        QVERIFY2(h.open(), qPrintable(h.error));
        for (int i = 0; i < 5'000; ++i) // 20,000 rows
            QVERIFY2(h.store.append(sample(), &h.error), qPrintable(h.error));
        QList<qint64> starts;
        int asked = 0;
        const HistoryStore::Tally stopped =
            h.store.pagedTally({}, 256, 0, &starts, [&asked] { return ++asked == 2; });
        QVERIFY(stopped.stopped);
        QCOMPARE(asked, 2); // at row 0 and at row StopCheckRows
        QList<qint64> all;
        asked = 0;
        const HistoryStore::Tally whole =
            h.store.pagedTally({}, 256, 0, &all, [&asked] { return ++asked < 0; });
        QVERIFY(!whole.stopped);
        QCOMPARE(whole.count, 20'000);
        QCOMPARE(asked, 20'000 / HistoryStore::StopCheckRows + 1);
        QCOMPARE(all.size(), 20'000 / 256 + 1);
    }

    void aSnapshotIsOnlyForAStoreThatReads()
    {
        TestHistory h;
        QVERIFY2(h.open(), qPrintable(h.error));
        QVERIFY(!h.store.beginSnapshot(&h.error));
        QVERIFY2(h.error.contains(u"only reads"_s), qPrintable(h.error));
        QVERIFY2(h.store.append(sample(), &h.error), qPrintable(h.error)); // still records
    }

    void anExportOfAnEmptyHistoryStaysEmptyWhileItIsRecordedTo()
    {
        TestHistory h;
        QVERIFY2(h.open(), qPrintable(h.error));
        const HistoryExportSource source(h.store, {}); // nothing recorded yet: bounded at none
        QVERIFY2(h.store.append(sample(), &h.error), qPrintable(h.error));
        TranscriptExport::Counts counts;
        QVERIFY2(TranscriptExport::count(source, {}, &counts, &h.error), qPrintable(h.error));
        QCOMPARE(counts.events, 0);
        QCOMPARE(h.store.count({}), 4);
    }

    // A session says its era and protocol version: from the lifecycle events (the
    // 2026-07-28 revision has no initialize), or from a legacy initialize's result.
    void aSessionSaysItsEraAndProtocolVersion_data()
    {
        QTest::addColumn<bool>("modern");
        QTest::addColumn<QString>("version");
        QTest::newRow("the 2026-07-28 revision, from its ready event") << true << u"2026-07-28"_s;
        QTest::newRow("a legacy session, from its initialize result") << false << u"2025-11-25"_s;
    }
    void aSessionSaysItsEraAndProtocolVersion()
    {
        QFETCH(bool, modern);
        QFETCH(QString, version);
        TestHistory h;
        QVERIFY2(h.open(), qPrintable(h.error));
        TranscriptBatch batch{TranscriptEvent::lifecycle(
            T0, u"demo"_s, 1,
            LifecycleDetails::EraChosen{.era = modern ? u"modern"_s : u"legacy"_s})};
        if (modern) {
            batch << TranscriptEvent::lifecycle(
                T0 + 1, u"demo"_s, 1,
                LifecycleDetails::Ready{.protocolVersion = version, .era = u"modern"_s});
        } else {
            batch << wire(1, D::Incoming,
                          "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"" +
                              version.toLatin1() + "\",\"capabilities\":{}}}",
                          u"demo"_s, 1);
        }
        QVERIFY2(h.store.append(batch, &h.error), qPrintable(h.error));
        const QList<HistoryStore::Session> sessions = h.store.sessions(u"demo"_s);
        QCOMPARE(sessions.size(), 1);
        QCOMPARE(sessions.first().era, modern ? u"modern"_s : u"legacy"_s);
        QCOMPARE(sessions.first().protocolVersion, version);
    }

    void eventsComeBackInOrderAsRecords()
    {
        QTemporaryDir dir;
        HistoryStore store;
        QString error;
        QVERIFY2(store.open(dir.filePath(u"h.db"_s), &error, u"test"_s), qPrintable(error));
        QVERIFY2(store.append(sample(), &error), qPrintable(error));
        QCOMPARE(store.count({}), 4);
        const QList<QJsonObject> all = store.records({}, 0, 10);
        QCOMPARE(all.size(), 4);
        for (int i = 0; i < 4; ++i)
            QCOMPARE(all.at(i), sample().at(i).toJson());
        QCOMPARE(store.records({}, 1, 2).first(), sample().at(1).toJson());
    }

    // Without FTS5 (a SQLite built without it: no events_fts table), a text filter is a LIKE
    // scan over method, tool and record, and finds what the full-text search finds; % and _
    // are text, not wildcards. The table and its triggers are dropped here to make one.
    void withoutFullTextASearchFallsBackToLike_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("count");
        QTest::newRow("a word of the payload") << u"haystack"_s << 1;
        QTest::newRow("a phrase of the payload") << u"needle in a"_s << 1;
        QTest::newRow("a tool name: the call and its answer") << u"echo"_s << 2;
        QTest::newRow("a wildcard of LIKE is taken as text") << u"needle%haystack"_s << 0;
        QTest::newRow("a word nowhere") << u"absent-7731"_s << 0;
    }
    void withoutFullTextASearchFallsBackToLike()
    {
        QFETCH(QString, text);
        QFETCH(int, count);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"h.db"_s);
        QString error;
        {
            HistoryStore first;
            QVERIFY2(first.open(path, &error, u"test"_s), qPrintable(error));
            QVERIFY2(first.append(sample(), &error), qPrintable(error));
        }
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"no-fts"_s);
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QStringList triggers;
            QVERIFY(q.exec(u"SELECT name FROM sqlite_master WHERE type = 'trigger' AND sql LIKE "
                           u"'%events_fts%'"_s));
            while (q.next())
                triggers << q.value(0).toString();
            for (const QString &t : std::as_const(triggers))
                QVERIFY(q.exec(u"DROP TRIGGER "_s + t));
            QVERIFY2(q.exec(u"DROP TABLE events_fts"_s), qPrintable(q.lastError().text()));
            db.close();
        }
        QSqlDatabase::removeDatabase(u"no-fts"_s);
        HistoryStore store;
        QVERIFY2(store.open(path, &error, u"test"_s), qPrintable(error));
        QVERIFY(!store.hasFullText());
        QVERIFY2(store.append(sample(), &error), qPrintable(error)); // it records as before
        HistoryFilter f;
        f.text = text;
        QCOMPARE(store.count(f), 2 * count);
        QCOMPARE(store.records(f, 0, 10).size(), 2 * count);
        QVERIFY2(store.lastError().isEmpty(), qPrintable(store.lastError()));
    }

    void filtersSelectWhatTheySay_data()
    {
        QTest::addColumn<HistoryFilter>("filter");
        QTest::addColumn<int>("count");
        HistoryFilter f;
        f.server = u"beta"_s;
        QTest::newRow("by server") << f << 1;
        f = {};
        f.generation = 2;
        QTest::newRow("by generation") << f << 1;
        f = {};
        f.direction = u"send"_s;
        QTest::newRow("by direction") << f << 2;
        f = {};
        f.method = u"tools/call"_s;
        QTest::newRow("by method: the request and its response") << f << 2;
        f = {};
        f.isError = true;
        QTest::newRow("errors only") << f << 1;
        f = {};
        f.fromMs = T0 + 5;
        f.toMs = T0 + 7;
        QTest::newRow("by time range, both ends in") << f << 2;
        f = {};
        f.text = u"haystack"_s;
        QTest::newRow("a word of the payload") << f << 1;
        f = {};
        f.text = u"needle in a"_s;
        QTest::newRow("a phrase of the payload") << f << 1;
        f = {};
        f.text = u"echo"_s;
        QTest::newRow("a tool name: the call and its answer") << f << 2;
        f = {};
        f.text = u"\"unbalanced"_s;
        QTest::newRow("query syntax is taken as text") << f << 0;
        f = {};
        f.text = u"haystack"_s;
        f.server = u"beta"_s;
        QTest::newRow("text and server together") << f << 0;
    }
    void filtersSelectWhatTheySay()
    {
        QFETCH(HistoryFilter, filter);
        QFETCH(int, count);
        TestHistory h;
        QVERIFY2(h.open(), qPrintable(h.error));
        QVERIFY2(h.store.append(sample(), &h.error), qPrintable(h.error));
        QCOMPARE(h.store.count(filter), count);
        QCOMPARE(h.store.records(filter, 0, 100).size(), count);
        QVERIFY2(h.store.lastError().isEmpty(), qPrintable(h.store.lastError()));
    }

    void aPagedTallyNamesTheFirstIdOfEveryPage_data()
    {
        QTest::addColumn<HistoryFilter>("filter");
        QTest::addColumn<int>("pageSize");
        QTest::addColumn<qint64>("firstRow");
        HistoryFilter f;
        QTest::newRow("every row, pages from the first") << f << 4 << qint64(0);
        QTest::newRow("every row, counted on from row 6 (the next page starts at 8)")
            << f << 4 << qint64(6);
        QTest::newRow("a page larger than the rows: only the first") << f << 1000 << qint64(0);
        f.server = u"beta"_s;
        QTest::newRow("one server's rows among others'") << f << 3 << qint64(0);
        f = {};
        f.text = u"needle"_s;
        QTest::newRow("full-text hits") << f << 2 << qint64(0);
        f = {};
        f.afterId = 7;
        f.untilId = 30;
        QTest::newRow("an id range, as a recount asks") << f << 5 << qint64(3);
        f = {};
        f.method = u"nothing/like/this"_s;
        QTest::newRow("no row: no page") << f << 4 << qint64(0);
    }
    void aPagedTallyNamesTheFirstIdOfEveryPage()
    {
        QFETCH(HistoryFilter, filter);
        QFETCH(int, pageSize);
        QFETCH(qint64, firstRow);
        TestHistory h;
        QVERIFY2(h.open(), qPrintable(h.error));
        // 40 events: alpha's call with a needle, its answer, beta's line, alpha's list call.
        for (int i = 0; i < 10; ++i)
            QVERIFY2(h.store.append(sample(), &h.error), qPrintable(h.error));
        QList<qint64> ids;
        h.store.records(filter, 0, 1000, &ids);
        const HistoryStore::Tally plain = h.store.tally(filter);
        QList<qint64> starts;
        const HistoryStore::Tally paged = h.store.pagedTally(filter, pageSize, firstRow, &starts);
        QVERIFY2(h.store.lastError().isEmpty(), qPrintable(h.store.lastError()));
        QCOMPARE(paged.count, ids.size());
        QCOMPARE(paged.count, plain.count);
        QCOMPARE(paged.lastId, plain.lastId);
        QCOMPARE(paged.newestId, plain.newestId);
        QList<qint64> expected;
        for (qsizetype i = 0; i < ids.size(); ++i)
            if ((firstRow + i) % pageSize == 0)
                expected << ids.at(i);
        QCOMPARE(starts, expected);
    }

    void aPagedTallyLeavesRowsAfterItsNewestIdForTheNextOne()
    {
        // What a recount after each batch relies on: the rows counted end at newestId, so the
        // next tally, after newestId, counts each row once.
        TestHistory h;
        QVERIFY2(h.open(), qPrintable(h.error));
        QVERIFY(h.store.append(sample(), &h.error));
        QList<qint64> starts;
        const HistoryStore::Tally first = h.store.pagedTally({}, 2, 0, &starts);
        QCOMPARE(first.count, 4);
        QVERIFY(h.store.append(sample(), &h.error));
        HistoryFilter since;
        since.afterId = first.newestId;
        starts.clear();
        const HistoryStore::Tally next = h.store.pagedTally(since, 2, first.count, &starts);
        QCOMPARE(next.count, 4);
        QCOMPARE(next.newestId, first.newestId + 4);
        QCOMPARE(starts, (QList<qint64>{first.newestId + 1, first.newestId + 3}));
        HistoryStore empty;
        QVERIFY(empty.open(h.dir.filePath(u"empty.db"_s), &h.error, u"test"_s));
        starts.clear();
        const HistoryStore::Tally none = empty.pagedTally({}, 2, 0, &starts);
        QCOMPARE(none.count, 0);
        QCOMPARE(none.newestId, 0);
        QVERIFY(starts.isEmpty());
    }

    void sessionsAreOnePerServerAndGeneration()
    {
        TestHistory h;
        QVERIFY2(h.open(), qPrintable(h.error));
        QVERIFY(h.store.append(sample(), &h.error));
        const QList<HistoryStore::Session> alpha = h.store.sessions(u"alpha"_s);
        QCOMPARE(alpha.size(), 2);
        QCOMPARE(alpha.at(0).generation, 2); // newest first
        QCOMPARE(alpha.at(1).events, 2);
        QCOMPARE(alpha.at(1).startedMs, T0);
        QCOMPARE(alpha.at(1).endedMs, T0 + 5);
        HistoryFilter f;
        f.sessionId = alpha.at(1).id;
        QCOMPARE(h.store.count(f), 2);
        QCOMPARE(h.store.servers(), (QStringList{u"alpha"_s, u"beta"_s}));
    }

    void aSecondRunStartsItsOwnSessions()
    {
        QTemporaryDir dir;
        QString error;
        {
            HistoryStore first;
            QVERIFY(first.open(dir.filePath(u"h.db"_s), &error, u"first"_s));
            QVERIFY(first.append(sample(), &error));
        }
        HistoryStore second;
        QVERIFY(second.open(dir.filePath(u"h.db"_s), &error, u"second"_s));
        QVERIFY2(second.append(sample(), &error), qPrintable(error));
        QCOMPARE(second.sessions(u"alpha"_s).size(), 4);
        QCOMPARE(second.count({}), 8);
    }

    void secretsNeverReachTheFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"h.db"_s);
        ServerConfig config;
        config.name = u"alpha"_s;
        config.headers.append(
            qMakePair(QByteArray("X-Custom"), QByteArray("configured-value-7d1f")));
        {
            HistoryStore store;
            QString error;
            QVERIFY(store.open(path, &error, u"test"_s));
            store.addSecrets(config);
            const TranscriptBatch batch{
                wire(0, D::Outgoing,
                     "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{"
                     "\"name\":\"login\",\"arguments\":{\"api_key\":\"sk-abcdefghijklmnop123456\","
                     "\"note\":\"configured-value-7d1f\"}}}")};
            QVERIFY(store.append(batch, &error));
            QVERIFY(
                store.records({}, 0, 1).first().value("msg"_L1).toObject().contains("params"_L1));
        }
        const QByteArray bytes = fileBytes(path);
        QVERIFY(bytes.contains("login"));
        QVERIFY(!bytes.contains("sk-abcdefghijklmnop123456"));
        QVERIFY(!bytes.contains("configured-value-7d1f"));
    }

    // Session ids sat in plain text in history.sqlite, masked only at export.
    void sessionIdsAreKeptMaskedWhereverTheyAppear()
    {
        TestHistory h;
        QVERIFY2(h.open(), qPrintable(h.error));
        const QString first = u"3f1c9a7e-5b2d-4e8f-9a6b-1c2d3e4f5a6b"_s;
        const QString second = u"77aa0011-2233-4455-6677-8899aabbccdd"_s;
        const auto exchange = [](qint64 t, int gen, const QString &id) {
            return TranscriptEvent::lifecycle(
                T0 + t, u"alpha"_s, gen,
                LifecycleDetails::HttpExchange{.method = u"POST"_s,
                                               .requestHeaders = {{u"Mcp-Session-Id"_s, id}}});
        };
        const TranscriptBatch batch{
            TranscriptEvent::lifecycle(
                T0, u"alpha"_s, 1,
                LifecycleDetails::TransportOpen{
                    {.route = ServerConfig::Route::StreamableHttp, .sessionId = first}}),
            exchange(1, 1, first),
            TranscriptEvent::lifecycle(
                T0 + 2, u"alpha"_s, 1,
                LifecycleDetails::RequestFailed{.message =
                                                    u"HTTP 404: session %1 is gone"_s.arg(first)}),
            wire(3, D::Stderr, "session " + first.toUtf8() + " closed"),
            TranscriptEvent::lifecycle(
                T0 + 4, u"alpha"_s, 2,
                LifecycleDetails::TransportOpen{
                    {.route = ServerConfig::Route::StreamableHttp, .sessionId = second}}),
            exchange(5, 2, second)};
        QVERIFY2(h.store.append(batch, &h.error), qPrintable(h.error));
        const QByteArray bytes = fileBytes(h.dir.filePath(u"h.db"_s));
        QVERIFY(bytes.contains("streamable-http"));
        QVERIFY(!bytes.contains(first.toUtf8()));
        QVERIFY(!bytes.contains(second.toUtf8()));
        // Still one session per generation, and each id one mask wherever it is.
        QCOMPARE(h.store.sessions(u"alpha"_s).size(), 2);
        const QList<QJsonObject> records = h.store.records({}, 0, 100);
        QCOMPARE(records.size(), batch.size());
        const auto text = [](const QJsonObject &r) {
            return QString::fromUtf8(QJsonDocument(r).toJson(QJsonDocument::Compact));
        };
        const QRegularExpression mask(u"sid:[0-9a-f]{16}"_s);
        const QString firstMask = mask.match(text(records.at(1))).captured();
        const QString secondMask = mask.match(text(records.at(5))).captured();
        QVERIFY2(!firstMask.isEmpty(), qPrintable(text(records.at(1))));
        QVERIFY(!secondMask.isEmpty());
        QVERIFY(firstMask != secondMask);
        QVERIFY2(text(records.at(2)).contains(firstMask), qPrintable(text(records.at(2))));
        QVERIFY2(text(records.at(3)).contains(firstMask), qPrintable(text(records.at(3))));
        // An export of it holds no id either, and tells the two sessions apart when asked to
        // include them (the masks are what the history has).
        TranscriptExport::Options include;
        include.includeSessionIds = true;
        const QByteArray jsonl =
            TranscriptExport::write(TranscriptExport::Format::Jsonl, records, include);
        QVERIFY(!jsonl.contains(first.toUtf8()) && !jsonl.contains(second.toUtf8()));
        QVERIFY2(jsonl.contains(firstMask.toUtf8()) && jsonl.contains(secondMask.toUtf8()),
                 jsonl.constData());
    }

    // A history written before the ids were masked keeps them plain: it opens, groups, and
    // its export masks them as before.
    void aHistoryWithPlainIdsStillOpensAndExportsMasked()
    {
        TestHistory h;
        QVERIFY2(h.open(), qPrintable(h.error));
        const QString id = u"0123456789abcdef0123456789abcdef"_s;
        QVERIFY(h.store.append(
            {TranscriptEvent::lifecycle(T0, u"beta"_s, 1,
                                        LifecycleDetails::TransportOpen{{.sessionId = id}})},
            &h.error));
        QVERIFY(h.store.append(sample(), &h.error));
        const QString written =
            QRegularExpression(u"sid:[0-9a-f]{16}"_s)
                .match(QString::fromUtf8(QJsonDocument(h.store.records({}, 0, 1).first())
                                             .toJson(QJsonDocument::Compact)))
                .captured();
        QVERIFY(!written.isEmpty());
        {
            // What an older Sonde wrote: the id as it was.
            QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"old-writer"_s);
            db.setDatabaseName(h.dir.filePath(u"h.db"_s));
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY2(q.exec(u"UPDATE events SET record = replace(record, '%1', '%2')"_s.arg(written,
                                                                                            id)),
                     qPrintable(q.lastError().text()));
            q.finish();
            db.close();
        }
        QSqlDatabase::removeDatabase(u"old-writer"_s);
        HistoryStore reader;
        QString error;
        QVERIFY2(reader.open(h.dir.filePath(u"h.db"_s), &error), qPrintable(error));
        QCOMPARE(reader.sessions(u"beta"_s).size(), 1);
        QCOMPARE(reader.sessions(u"alpha"_s).size(), 2);
        const QList<QJsonObject> records = reader.records({}, 0, 100);
        QVERIFY(QJsonDocument(records.first()).toJson().contains(id.toUtf8()));
        const QByteArray exported =
            TranscriptExport::write(TranscriptExport::Format::Jsonl, records, {});
        QVERIFY(!exported.contains(id.toUtf8()));
    }

    void aServerCanBeRecordedWithoutPayloads()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"h.db"_s);
        HistoryStore store;
        QString error;
        QVERIFY(store.open(path, &error, u"test"_s));
        store.setPayloadsRecorded(u"alpha"_s, false);
        QVERIFY(store.append(sample(), &error));
        const QJsonObject first = store.records({}, 0, 1).first();
        QCOMPARE(first.value("payload_omitted"_L1).toBool(), true);
        QCOMPARE(first.value("msg"_L1).toObject().value("method"_L1).toString(), u"tools/call"_s);
        QVERIFY(!first.value("msg"_L1).toObject().contains("params"_L1));
        HistoryFilter f;
        f.text = u"haystack"_s;
        QCOMPARE(store.count(f), 0);
        f = {};
        f.server = u"beta"_s; // another server keeps its payloads
        QCOMPARE(store.records(f, 0, 1).first().value("line"_L1).toString(), u"listening"_s);
    }

    void retentionKeepsTheNewest_data()
    {
        QTest::addColumn<qint64>("maxAgeMs");
        QTest::addColumn<bool>("sizeOfTheTwoNewest");
        QTest::addColumn<int>("kept");
        QTest::newRow("forever keeps everything") << qint64(0) << false << 4;
        QTest::newRow("by age drops what is older") << qint64(5) << false << 3;
        QTest::newRow("by size keeps what fits from the newest end") << qint64(0) << true << 2;
    }
    void retentionKeepsTheNewest()
    {
        QFETCH(qint64, maxAgeMs);
        QFETCH(bool, sizeOfTheTwoNewest);
        QFETCH(int, kept);
        TestHistory h;
        QVERIFY2(h.open(), qPrintable(h.error));
        QVERIFY(h.store.append(sample(), &h.error));
        RetentionPolicy policy;
        policy.maxAgeMs = maxAgeMs;
        if (sizeOfTheTwoNewest) {
            const QList<QJsonObject> all = h.store.records({}, 0, 10);
            policy.maxBytes = QJsonDocument(all.at(3)).toJson(QJsonDocument::Compact).size() +
                              QJsonDocument(all.at(2)).toJson(QJsonDocument::Compact).size();
        }
        QCOMPARE(h.store.applyRetention(policy, T0 + 9, &h.error), 4 - kept);
        QCOMPARE(h.store.count({}), kept);
        QCOMPARE(h.store.records({}, 0, 10).last(), sample().last().toJson());
        // The full-text index lost the deleted rows too.
        HistoryFilter f;
        f.text = u"haystack"_s;
        QCOMPARE(h.store.count(f), kept == 4 ? 1 : 0);
    }

    void clearDeletesEverything()
    {
        TestHistory h;
        QVERIFY2(h.open(), qPrintable(h.error));
        QVERIFY(h.store.append(sample(), &h.error));
        QVERIFY2(h.store.clear(&h.error), qPrintable(h.error));
        QCOMPARE(h.store.count({}), 0);
        QVERIFY(h.store.sessions().isEmpty());
        QVERIFY2(h.store.append(sample(), &h.error), qPrintable(h.error)); // and records again
        QCOMPARE(h.store.count({}), 4);
    }

    // stop() right after the last record(): every batch queued lands (QThread::quit() from
    // outside ended the loop with batches still queued, and lost them).
    void theRecorderWritesEveryQueuedBatchBeforeItStops()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"h.db"_s);
        {
            HistoryRecorder recorder;
            recorder.start(path, u"test"_s);
            for (int i = 0; i < 50; ++i)
                recorder.record(sample());
            recorder.stop();
            QCOMPARE(recorder.eventsRecorded(), 200);
            QVERIFY2(recorder.firstError().isEmpty(), qPrintable(recorder.firstError()));
        }
        HistoryStore store;
        QString error;
        QVERIFY(store.open(path, &error));
        QCOMPARE(store.count({}), 200);
    }

    // The recorder applies its retention when it opens the file, then again after every
    // 10,000 events it writes: a long run stays within the size asked for.
    void theRecorderAppliesItsRetentionWhenItOpensAndEveryTenThousandEvents()
    {
        TestHistory h;
        QVERIFY2(h.open(), qPrintable(h.error));
        TranscriptBatch hundred; // 400 events
        for (int i = 0; i < 100; ++i)
            hundred.append(sample());
        QVERIFY2(h.store.append(hundred, &h.error), qPrintable(h.error));
        RetentionPolicy quarter;
        quarter.maxBytes = h.store.recordBytes() / 4; // about 100 events
        const auto flushed = [](HistoryRecorder &recorder) {
            QSignalSpy done(&recorder, &HistoryRecorder::flushed);
            recorder.flush();
            return done.wait(20'000);
        };
        HistoryRecorder recorder;
        recorder.start(h.store.path(), u"test"_s, quarter);
        QVERIFY(flushed(recorder));
        const qint64 atOpen = h.store.count({});
        QVERIFY2(atOpen > 0 && atOpen <= 100, QByteArray::number(atOpen).constData());
        QVERIFY(h.store.recordBytes() <= quarter.maxBytes);
        for (int i = 0; i < 26; ++i) // 10,400 events: past 10,000 once
            recorder.record(hundred);
        QVERIFY(flushed(recorder));
        QVERIFY2(recorder.firstError().isEmpty(), qPrintable(recorder.firstError()));
        QCOMPARE(recorder.eventsRecorded(), 10'400);
        // Applied at the batch that passed 10,000: what is kept then, and the 400 after it.
        const qint64 kept = h.store.count({});
        QVERIFY2(kept <= 100 + 400, QByteArray::number(kept).constData());
        recorder.stop();
    }

    // record() queues the batch to the writer's thread and returns: while another connection
    // holds the write lock, the batch waits there (up to the 5 s busy timeout), not on the
    // caller's thread, and lands once the lock is let go.
    void theRecorderWritesOnItsOwnThreadWhileTheCallerGoesOn()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"h.db"_s);
        HistoryRecorder recorder;
        recorder.start(path, u"test"_s);
        QSignalSpy flushed(&recorder, &HistoryRecorder::flushed);
        recorder.flush();
        QVERIFY(flushed.wait(20'000)); // opened, its run written
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"the-lock"_s);
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery lock(db);
            QVERIFY2(lock.exec(u"BEGIN IMMEDIATE"_s), qPrintable(lock.lastError().text()));
            QSignalSpy recorded(&recorder, &HistoryRecorder::recorded);
            recorder.record(sample()); // returns: the writer waits for the lock
            QCOMPARE(recorder.eventsRecorded(), 0);
            QCOMPARE(recorded.count(), 0);
            QVERIFY(lock.exec(u"ROLLBACK"_s));
            QVERIFY(recorded.wait(20'000));
            QCOMPARE(recorder.eventsRecorded(), 4);
            QVERIFY2(recorder.firstError().isEmpty(), qPrintable(recorder.firstError()));
            db.close();
        }
        QSqlDatabase::removeDatabase(u"the-lock"_s);
        recorder.stop();
    }

    void aRecorderThatCannotOpenSaysWhy()
    {
        HistoryRecorder recorder;
        QSignalSpy failed(&recorder, &HistoryRecorder::failed);
        recorder.start(u"/nonexistent/dir/h.db"_s, u"test"_s);
        recorder.record(sample());
        recorder.stop();
        QVERIFY2(recorder.firstError().contains("cannot open"_L1),
                 qPrintable(recorder.firstError()));
        QCOMPARE(recorder.eventsRecorded(), 0);
    }

    void aClearFromAnotherConnectionDoesNotStopTheRecording()
    {
        QTemporaryDir dir;
        HistoryStore writer, reader;
        QString error;
        QVERIFY(writer.open(dir.filePath(u"h.db"_s), &error, u"window"_s));
        QVERIFY(reader.open(dir.filePath(u"h.db"_s), &error));
        QVERIFY(writer.append(sample(), &error));
        QVERIFY2(reader.clear(&error), qPrintable(error));
        QVERIFY2(writer.append(sample(), &error), qPrintable(error));
        QCOMPARE(reader.count({}), 4);
        QCOMPARE(reader.sessions(u"alpha"_s).size(), 2);
    }

    void badFilesGetAClearError_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<int>("userVersion");
        QTest::addColumn<QString>("says");
        QTest::newRow("a text file is not a database")
            << QByteArray("{\"not\": \"sqlite\"}\n").repeated(100) << 0 << u"not a database"_s;
        QTest::newRow("a newer schema is refused, not rewritten")
            << QByteArray() << 99 << u"newer than this Sonde knows"_s;
    }
    void badFilesGetAClearError()
    {
        QFETCH(QByteArray, content);
        QFETCH(int, userVersion);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"h.db"_s);
        if (!content.isEmpty()) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(content);
        } else {
            QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"raw"_s);
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery(db).exec(u"PRAGMA user_version = %1"_s.arg(userVersion));
            db.close();
        }
        QSqlDatabase::removeDatabase(u"raw"_s);
        const QByteArray before = fileBytes(path);
        HistoryStore store;
        QString error;
        QVERIFY(!store.open(path, &error, u"test"_s));
        QVERIFY2(error.contains(says), qPrintable(error));
        if (!content.isEmpty())
            QCOMPARE(fileBytes(path), before); // nothing of the user's file lost
    }

    // A header of a version this build does not know stops the import with the reason: its
    // records may mean what this build would read differently. Version 1 (no header) and 2
    // are read.
    void anImportReadsTheVersionsItKnowsAndRefusesTheOthers_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<QString>("said");
        QTest::newRow("version 1 has no header") << QByteArray() << QString();
        QTest::newRow("version 2 is read")
            << QByteArray("{\"format\":\"sonde-transcript\",\"version\":2}") << QString();
        QTest::newRow("a newer version is refused, naming both")
            << QByteArray("{\"format\":\"sonde-transcript\",\"version\":3}")
            << u"line 1: it is sonde-transcript version 3, newer than this Sonde reads (1 to 2)"_s;
        QTest::newRow("a version that is no number is refused")
            << QByteArray("{\"format\":\"sonde-transcript\",\"version\":\"2.1\"}")
            << u"is not a version number"_s;
    }
    void anImportReadsTheVersionsItKnowsAndRefusesTheOthers()
    {
        QFETCH(QByteArray, header);
        QFETCH(QString, said);
        QByteArray jsonl = header.isEmpty() ? QByteArray() : header + '\n';
        for (const TranscriptEvent &e : sample())
            jsonl += QJsonDocument(e.toJson()).toJson(QJsonDocument::Compact) + '\n';
        QBuffer in(&jsonl);
        QVERIFY(in.open(QIODevice::ReadOnly));
        TestHistory h;
        QVERIFY2(h.open(), qPrintable(h.error));
        const HistoryImporter::Result r = HistoryImporter::import(in, h.store);
        if (said.isEmpty()) {
            QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
            QCOMPARE(r.imported, 4);
        } else {
            QVERIFY2(r.error.contains(said), qPrintable(r.error));
            QCOMPARE(r.imported, 0);
            QCOMPARE(h.store.count({}), 0);
        }
    }

    void anImportReadsEveryRecordAndCountsTheRest()
    {
        QByteArray jsonl;
        for (const TranscriptEvent &e : sample())
            jsonl += QJsonDocument(e.toJson()).toJson(QJsonDocument::Compact) + '\n';
        // The header as JsonlExport writes it: keys sorted, so "format" is not the first.
        jsonl.insert(0, "{\"events\":5,\"format\":\"sonde-transcript\",\"version\":2}\n");
        jsonl += "not json at all\n";
        jsonl += "[1,2]\n";
        jsonl += "{\"dir\":\"sideways\",\"t_ms\":1}\n";
        jsonl += "\n";
        jsonl +=
            "{\"dir\":\"stderr\",\"t\":\"2023-11-14T22:13:20.123Z\",\"line\":\"older shape\"}\n";
        QBuffer in(&jsonl);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QTemporaryDir dir;
        HistoryStore store;
        QString error;
        QVERIFY(store.open(dir.filePath(u"h.db"_s), &error, u"import"_s));
        const HistoryImporter::Result r = HistoryImporter::import(in, store);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.imported, 5);
        QCOMPARE(r.skipped, 3);
        QCOMPARE(r.skippedLines, (QList<qint64>{6, 7, 8}));
        QVERIFY(r.reasons.at(0).startsWith("line 6: not JSON"_L1));
        QCOMPARE(store.count({}), 5);
        HistoryFilter f;
        f.server = u"imported"_s;
        QCOMPARE(store.records(f, 0, 1).first().value("t_ms"_L1).toInteger(), 1700000000123);
    }

    void anImportSkipsALineOverTheLimitAndGoesOn()
    {
        QByteArray jsonl = "{\"dir\":\"stderr\",\"t_ms\":1,\"line\":\"";
        jsonl += QByteArray(HistoryImporter::MaxLineBytes + 10, 'x');
        jsonl += "\"}\n{\"dir\":\"stderr\",\"t_ms\":2,\"line\":\"after\"}\n";
        QBuffer in(&jsonl);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QTemporaryDir dir;
        HistoryStore store;
        QString error;
        QVERIFY(store.open(dir.filePath(u"h.db"_s), &error, u"import"_s));
        const HistoryImporter::Result r = HistoryImporter::import(in, store);
        QCOMPARE(r.imported, 1);
        QCOMPARE(r.skippedLines, QList<qint64>{1});
        QVERIFY2(r.reasons.first().contains("16 MiB line limit"_L1), qPrintable(r.reasons.first()));
    }
};

QTEST_GUILESS_MAIN(TestHistoryStore)
#include "tst_historystore.moc"
