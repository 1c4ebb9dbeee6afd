// SPDX-License-Identifier: MIT
// The live transcript read from the SQLite history: rows the recorder writes while the view
// is open are inserted at its end, only this run's rows show, the filters are the query's,
// and scrolling every row holds no more than the model's page limit.
#include "application/history/transcripthistorysource.h"
#include "application/transcript/recordingtranscript.h"
#include "application/transcript/replayrequest.h"
#include "application/transcript/transcriptmodel.h"
#include "application/transcript/transcriptpagesource.h"
#include "application/transcript/transcriptstore.h"
#include "historyrecorder.h"
#include "historystore.h"
#include "liverecording.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

using D = TranscriptEvent::Direction;

using Recording = SondeTest::LiveRecording;
using SondeTest::exchange;
using SondeTest::liveWire;

} // namespace

class TestHistoryLiveTranscript : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rowsRecordedWhileTheViewIsOpenAreInsertedAtItsEnd()
    {
        Recording rec;
        QVERIFY(rec.start());
        TranscriptModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        HistoryFilter f;
        f.server = u"alpha"_s;
        model.setSource(rec.source(f));
        QCOMPARE(model.rowCount(), 0);
        connect(&rec.recorder, &HistoryRecorder::recorded, &model, &TranscriptModel::followSource);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

        rec.recorder.record(exchange(1));
        QTRY_COMPARE(model.rowCount(), 3);
        // As the live table shows it: the method and the request's id.
        QCOMPARE(model.data(model.index(0, TranscriptModel::MethodColumn)).toString(),
                 u"tools/call #1"_s);
        rec.recorder.record(exchange(2));
        QTRY_COMPARE(model.rowCount(), 6);
        QCOMPARE(inserted.last().at(1).toInt(), 3);
        QCOMPARE(inserted.last().at(2).toInt(), 5);
        QCOMPARE(reset.count(), 0); // inserted, not reset: a view keeps its place
        QCOMPARE(model.event(3)->toJson().value("dir"_L1).toString(), u"send"_s);
    }

    void anotherRunsRowsDoNotShow()
    {
        Recording rec;
        QVERIFY(rec.start());
        TranscriptModel model;
        model.setSource(rec.source({}));
        {
            HistoryStore other;
            QString error;
            QVERIFY(other.open(rec.path(), &error, u"sonde-cli"_s));
            QVERIFY(other.append(exchange(1), &error));
        }
        QSignalSpy recorded(&rec.recorder, &HistoryRecorder::recorded);
        rec.recorder.record(exchange(2));
        // eventsRecorded(), not the spy's wait(): the writer thread may emit before wait()
        // starts, and wait() counts only what comes after it.
        QTRY_COMPARE(rec.recorder.eventsRecorded(), 4);
        QCOMPARE(recorded.count(), 1);
        model.followSource();
        QCOMPARE(model.rowCount(), 4);
        QVERIFY(model.event(0)
                    ->toJson()
                    .value("msg"_L1)
                    .toObject()
                    .value("params"_L1)
                    .toObject()
                    .value("arguments"_L1) == QJsonObject({{"message"_L1, u"needle 2"_s}}));
    }

    void theFiltersAreTheQuerys_data()
    {
        QTest::addColumn<HistoryFilter>("filter");
        QTest::addColumn<int>("rows");
        HistoryFilter f;
        QTest::newRow("no filter shows every row of the run") << f << 40;
        f.server = u"beta"_s;
        QTest::newRow("a server") << f << 10;
        f = {};
        f.directions = QStringList{u"recv"_s};
        QTest::newRow("one direction") << f << 20;
        f.directions = QStringList{u"send"_s, u"stderr"_s};
        QTest::newRow("two directions") << f << 20;
        f = {};
        f.methodContains = u"TOOLS/"_s;
        QTest::newRow("a part of the method, any case, finds both legs") << f << 20;
        f = {};
        f.text = u"needle 7"_s;
        QTest::newRow("a phrase of the payload") << f << 1;
        f.directions = QStringList{u"recv"_s};
        QTest::newRow("a phrase and a direction") << f << 0;
    }
    void theFiltersAreTheQuerys()
    {
        QFETCH(HistoryFilter, filter);
        QFETCH(int, rows);
        Recording rec;
        QVERIFY(rec.start());
        for (int i = 0; i < 10; ++i)
            rec.recorder.record(exchange(i));
        QTRY_COMPARE(rec.recorder.eventsRecorded(), 40);
        TranscriptModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSource(rec.source(filter));
        QCOMPARE(model.rowCount(), rows);
        for (int r = 0; r < model.rowCount(); ++r)
            QVERIFY(!model.event(r)->toJson().isEmpty());
    }

    // A recount asks only for the ids after the last one seen, through whichever index the
    // filter allows (a server's sessions, the full-text index bounded by id): the rows are
    // the same as a count from the start would give.
    void aFilteredViewFollowsTheRecording_data()
    {
        QTest::addColumn<HistoryFilter>("filter");
        QTest::addColumn<int>("before");
        QTest::addColumn<int>("after");
        HistoryFilter f;
        f.server = u"beta"_s;
        QTest::newRow("a server") << f << 3 << 5;
        f = {};
        f.text = u"needle"_s;
        QTest::newRow("a phrase of the payload") << f << 3 << 5;
        f.server = u"alpha"_s;
        QTest::newRow("a server and a phrase") << f << 3 << 5;
        f = {};
        f.server = u"alpha"_s;
        f.methodContains = u"notifications"_s;
        QTest::newRow("a server and a part of the method") << f << 3 << 5;
        f.server = u"gamma"_s;
        QTest::newRow("a server without rows") << f << 0 << 0;
    }
    void aFilteredViewFollowsTheRecording()
    {
        QFETCH(HistoryFilter, filter);
        QFETCH(int, before);
        QFETCH(int, after);
        Recording rec;
        QVERIFY(rec.start());
        for (int i = 0; i < 3; ++i)
            rec.recorder.record(exchange(i));
        QTRY_COMPARE(rec.recorder.eventsRecorded(), 12);
        TranscriptModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSource(rec.source(filter));
        QCOMPARE(model.rowCount(), before);
        rec.recorder.record(exchange(3));
        rec.recorder.record(exchange(4));
        QTRY_COMPARE(rec.recorder.eventsRecorded(), 20);
        model.followSource();
        QCOMPARE(model.rowCount(), after);
        QCOMPARE(rec.source(filter)->count(), after);
    }

    void scrollingEveryRowHoldsNoMoreThanThePageLimit()
    {
        Recording rec;
        QVERIFY(rec.start());
        const int batches = TranscriptPageSource::PageSize * (TranscriptModel::MaxPages + 8) / 4 /
                            50; // 40 pages of rows, in batches of 50 exchanges
        for (int b = 0; b < batches; ++b) {
            TranscriptBatch batch;
            for (int i = 0; i < 50; ++i)
                batch += exchange(b * 50 + i);
            rec.recorder.record(batch);
        }
        QTRY_COMPARE_WITH_TIMEOUT(rec.recorder.eventsRecorded(), qint64(batches) * 200, 20000);
        TranscriptModel model;
        model.setSource(rec.source({}));
        QCOMPARE(model.rowCount(), batches * 200);
        QVERIFY(model.rowCount() > TranscriptPageSource::PageSize * TranscriptModel::MaxPages);
        for (int r = 0; r < model.rowCount(); r += 7)
            model.data(model.index(r, TranscriptModel::SummaryColumn));
        QVERIFY(model.cachedPages() <= TranscriptModel::MaxPages);
        QCOMPARE(model.event(model.rowCount() - 1)->toJson().value("dir"_L1).toString(), u"recv"_s);
    }

    // A page after one already read is found by id, not by OFFSET: the same rows either way.
    void aPageFoundByIdHoldsTheRowsOfItsOffset()
    {
        Recording rec;
        QVERIFY(rec.start());
        for (int b = 0; b < 4; ++b) {
            TranscriptBatch batch;
            for (int i = 0; i < 50; ++i)
                batch += exchange(b * 50 + i);
            rec.recorder.record(batch);
        }
        QTRY_COMPARE(rec.recorder.eventsRecorded(), 800);
        HistoryFilter f;
        f.directions = QStringList{u"recv"_s}; // every other row: ids are not offsets
        const auto byId = rec.source(f);
        const auto byOffset = rec.source(f);
        QCOMPARE(byId->count(), 400);
        QCOMPARE(byId->page(0, 256).size(), 256); // learns where row 256 starts
        const QList<QJsonObject> seeked = SondeTest::recordsOf(byId->page(256, 256));
        QCOMPARE(seeked.size(), 144);
        QCOMPARE(seeked, SondeTest::recordsOf(byOffset->page(256, 256)));
        QCOMPARE(SondeTest::recordsOf(byId->page(256, 256)),
                 seeked); // and again, as a following view re-reads
        // The last page of a source that read nothing yet is read back from the newest row.
        QCOMPARE(SondeTest::recordsOf(rec.source(f)->page(256, 256)),
                 rec.reader->records(byId->filter(), 256, 256));
        QCOMPARE(SondeTest::recordsOf(rec.source(f)->page(300, 200)),
                 rec.reader->records(byId->filter(), 300, 200));
    }

    // A text filter's pages are read in id ranges that widen until they hold the page: the
    // same rows as OFFSET reads, forwards from a known row and backwards from the newest.
    void aTextFiltersPagesHoldTheRowsOfTheirOffsets_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("limit");
        QTest::newRow("a row in fourteen, a page of one") << u"needle"_s << 1;
        QTest::newRow("a row in fourteen, pages of five") << u"needle"_s << 5;
        QTest::newRow("another server's rows, pages of three") << u"says"_s << 3;
        QTest::newRow("one row") << u"needle 7"_s << 2;
    }
    void aTextFiltersPagesHoldTheRowsOfTheirOffsets()
    {
        QFETCH(QString, text);
        QFETCH(int, limit);
        Recording rec;
        QVERIFY(rec.start());
        TranscriptBatch batch;
        for (int i = 0; i < 40; ++i) {
            batch += exchange(i);
            for (int j = 0; j < 10; ++j) // the hits farther apart than a first range is wide
                batch += liveWire(i, D::Stderr, "filler", u"gamma"_s);
        }
        rec.recorder.record(batch);
        QTRY_COMPARE(rec.recorder.eventsRecorded(), 560);
        HistoryFilter f;
        f.text = text;
        const auto paged = rec.source(f);
        const HistoryFilter all = paged->filter();
        const qint64 count = paged->count();
        QCOMPARE(count, rec.reader->count(all));
        for (qint64 offset = 0; offset < count; offset += limit)
            QCOMPARE(SondeTest::recordsOf(paged->page(offset, limit)),
                     rec.reader->records(all, offset, limit));
        const qint64 last = qMax<qint64>(0, count - limit);
        QCOMPARE(SondeTest::recordsOf(rec.source(f)->page(last, limit)),
                 rec.reader->records(all, last, limit));
    }

    void aClearStartsTheViewAgain()
    {
        Recording rec;
        QVERIFY(rec.start());
        rec.recorder.record(exchange(1));
        QTRY_COMPARE(rec.recorder.eventsRecorded(), 4);
        TranscriptModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSource(rec.source({}));
        QCOMPARE(model.rowCount(), 4);
        QString error;
        QVERIFY2(rec.reader->clear(&error), qPrintable(error));
        model.followSource();
        QCOMPARE(model.rowCount(), 0);
        rec.recorder.record(exchange(2));
        QTRY_COMPARE(rec.recorder.eventsRecorded(), 8);
        model.followSource();
        QCOMPARE(model.rowCount(), 4);
    }

    // A filter that matches nothing counts on from the newest row of the table, not from the
    // start; after a Clear the ids start again below it, and the view still sees the new rows.
    void aViewThatMatchedNothingShowsTheRowsRecordedAfterAClear()
    {
        Recording rec;
        QVERIFY(rec.start());
        for (int i = 0; i < 3; ++i)
            rec.recorder.record(exchange(i));
        QTRY_COMPARE(rec.recorder.eventsRecorded(), 12);
        TranscriptModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        HistoryFilter f;
        f.server = u"gamma"_s;
        model.setSource(rec.source(f));
        QCOMPARE(model.rowCount(), 0);
        f.runId = rec.recorder.runId();
        const HistoryStore::Tally before = rec.reader->tally(f);
        QCOMPARE(before.count, 0);
        QCOMPARE(before.lastId, 0);
        QVERIFY(before.newestId >= 12); // every row's, matched or not
        QString error;
        QVERIFY2(rec.reader->clear(&error), qPrintable(error));
        // No recount between the Clear and the next batch: the view hears of both at once.
        rec.recorder.record({liveWire(9, D::Stderr, "gamma says hello", u"gamma"_s)});
        QTRY_COMPARE(rec.recorder.eventsRecorded(), 13);
        QVERIFY(rec.reader->tally(f).newestId < before.newestId);
        model.followSource();
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.event(0)->toJson().value("server"_L1).toString(), u"gamma"_s);
    }

    // The Transcript tab's reading of the history, without the tab: the boxes' filter, a
    // store row found among the recorded ones, a request's answer found after it.
    void theRecordingTranscriptFiltersFindsRowsAndAnswersWithoutAWidget()
    {
        Recording rec;
        QVERIFY(rec.start());
        QVERIFY(rec.recordExchanges(30)); // 120 events, ids 0..29
        RecordingTranscript transcript(rec.reader, rec.recorder.runId());
        QSignalSpy filtered(&transcript, &RecordingTranscript::filtered);
        TranscriptViewFilter f;
        f.server = u"alpha"_s;
        f.directions = {D::Outgoing, D::Incoming};
        transcript.setFilter(f, false);
        QTRY_COMPARE(filtered.count(), 1);
        TranscriptModel *model = transcript.model();
        QCOMPARE(model->rowCount(), 90); // alpha's send, recv and notification of each exchange
        for (int row = 0; row < model->rowCount(); ++row)
            QCOMPARE(model->event(row)->server, u"alpha"_s);
        f.directions.clear(); // every box unchecked shows nothing
        transcript.setFilter(f, false);
        QTRY_COMPARE(filtered.count(), 2);
        QCOMPARE(model->rowCount(), 0);
        f.directions = {D::Outgoing, D::Incoming, D::Stderr, D::Lifecycle, D::Violation};
        f.server.clear();
        transcript.setFilter(f, false);
        QTRY_COMPARE(filtered.count(), 3);
        QCOMPARE(model->rowCount(), 120);

        // The store holds the same events; its row 41 (exchange 10's answer) is found.
        TranscriptStore store;
        for (int i = 0; i < 30; ++i)
            store.append(exchange(i));
        const int at = transcript.rowOf(store, 41);
        QVERIFY(at >= 0);
        QCOMPARE(model->event(at)->toJson(), store.event(41).toJson());

        // Exchange 12's request: its answer is the recv with its id, after it.
        std::optional<ReplayRequest> request =
            ReplayRequest::fromEvent(exchange(12).first(), nullptr);
        QVERIFY(request);
        transcript.collectAnswer(*request);
        QVERIFY(request->answered());
        QCOMPARE(request->answerFrame.value("id"_L1).toInt(), 12);
    }
};

QTEST_MAIN(TestHistoryLiveTranscript)
#include "tst_historylivetranscript.moc"
