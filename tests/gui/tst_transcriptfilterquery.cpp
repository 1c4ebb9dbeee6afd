// SPDX-License-Identifier: MIT
// The live Transcript tab's filters counted off the GUI thread: the count runs on the query's
// thread while the GUI thread stays free, only the newest filter's answer is shown, keystrokes
// are counted once, and the first screen of the answer needs no read on the GUI thread.
#include "application/history/transcripthistorysource.h"
#include "application/transcript/transcriptfilterquery.h"
#include "application/transcript/transcriptmodel.h"
#include "application/transcript/transcriptpagesource.h"
#include "application/transcript/transcriptstore.h"
#include "historyrecorder.h"
#include "historystore.h"
#include "liverecording.h"
#include "transcript/transcriptpanel.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <atomic>

#include <atomic>
#include <chrono>
#include <thread>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

using D = TranscriptEvent::Direction;

// The recording, with `exchanges` of four events each committed before start() returns.
struct Recording : SondeTest::LiveRecording
{
    bool start(int exchanges) { return LiveRecording::start() && recordExchanges(exchanges); }
};
using SondeTest::exchange;

// The real count, held at its start until released, on whatever thread runs it; says which
// thread that was and how many counts ran.
struct HeldCompute
{
    std::shared_ptr<QSemaphore> gate = std::make_shared<QSemaphore>(0);
    std::shared_ptr<std::atomic<int>> started = std::make_shared<std::atomic<int>>(0);
    std::shared_ptr<std::atomic<QThread *>> thread =
        std::make_shared<std::atomic<QThread *>>(nullptr);
    // Only the first `held` counts wait at the gate.
    int held = 1;
    // Waiting at the gate, a count that was superseded goes on (as the real count's loop
    // stops: HistoryStore::pagedTally).
    bool stoppable = false;
    TranscriptFilterQuery::Compute compute() const
    {
        return [gate = gate, started = started, thread = thread, held = held,
                stoppable = stoppable](const HistoryStore &store,
                                       const TranscriptFilterRequest &request) {
            thread->store(QThread::currentThread());
            if (started->fetch_add(1) < held) {
                for (int waitedMs = 0; waitedMs < 10'000 && !gate->tryAcquire(1, 10);
                     waitedMs += 10)
                    if (stoppable && request.superseded())
                        break;
            }
            return TranscriptFilterQuery::compute(store, request);
        };
    }
};

TranscriptFilterAnswer answerOf(const QSignalSpy &spy, int i)
{
    return spy.at(i).at(0).value<TranscriptFilterAnswer>();
}

QCheckBox *followBox(const TranscriptPanel &panel)
{
    for (QCheckBox *box : panel.findChildren<QCheckBox *>())
        if (box->text() == "Follow"_L1)
            return box;
    return nullptr;
}

} // namespace

class TestTranscriptFilterQuery : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aFilterIsCountedOffTheGuiThread()
    {
        Recording rec;
        QVERIFY(rec.start(10));
        HeldCompute held;
        TranscriptFilterQuery query(held.compute());
        QSignalSpy answered(&query, &TranscriptFilterQuery::answered);
        query.ask(rec.path(), rec.filter(), false);
        QVERIFY(query.isPending());
        QTRY_COMPARE(held.started->load(), 1);
        // The count is held; the GUI thread still runs its timers.
        bool ticked = false;
        QTimer::singleShot(10, this, [&ticked] { ticked = true; });
        QTRY_VERIFY(ticked);
        QVERIFY(held.thread->load() != QThread::currentThread());
        QCOMPARE(answered.count(), 0);
        QVERIFY(query.isPending());

        held.gate->release();
        QTRY_COMPARE(answered.count(), 1);
        QVERIFY(!query.isPending());
        const TranscriptFilterAnswer a = answerOf(answered, 0);
        QCOMPARE(a.count, 40);
        QCOMPARE(a.events.size(), 40);
        QCOMPARE(a.ids.size(), 40);
        QCOMPARE(a.ids.last(), a.lastId);
        QCOMPARE(a.firstRow, 0);
    }

    // Before an opened file's temporary history is deleted: the count under way is waited
    // for (it could make SQLite's files again in the folder being removed), what is queued
    // for the file is skipped, and the query goes on with other files.
    void releasingAFileWaitsForItsCountAndSkipsWhatIsQueued()
    {
        Recording rec;
        QVERIFY(rec.start(10));
        HeldCompute held;
        TranscriptFilterQuery query(held.compute());
        QSignalSpy answered(&query, &TranscriptFilterQuery::answered);
        query.ask(rec.path(), rec.filter(u"alpha"_s), false);
        QTRY_COMPARE(held.started->load(), 1);               // being counted, held at the gate
        query.ask(rec.path(), rec.filter(u"beta"_s), false); // queued behind it
        std::atomic<bool> opened = false;
        std::thread opener([&] {
            // release() blocks the GUI thread: the gate is opened from here.
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            opened = true;
            held.gate->release();
        });
        query.release(rec.path());
        const bool waited = opened.load();
        opener.join();
        QVERIFY(waited);                   // release() returned only after the count it waited for
        QCOMPARE(held.started->load(), 1); // the queued ask was skipped
        QVERIFY(!query.isPending());
        // Another ask runs as before (the file is opened again, as any other).
        query.ask(rec.path(), rec.filter(u"beta"_s), false);
        const quint64 later = query.ticket();
        QTRY_VERIFY(!answered.isEmpty() &&
                    answerOf(answered, answered.count() - 1).ticket == later);
        QCOMPARE(held.started->load(), 2);
        QCOMPARE(answerOf(answered, answered.count() - 1).count, 10);
    }

    // A count under way stops at its next check when its file is let go: release() does not
    // wait for the whole count (a second at a million rows), and no answer comes of it.
    void releasingAFileStopsItsCountUnderWay()
    {
        Recording rec;
        QVERIFY(rec.start(10));
        HeldCompute held;
        held.stoppable = true;
        TranscriptFilterQuery query(held.compute());
        QSignalSpy answered(&query, &TranscriptFilterQuery::answered);
        query.ask(rec.path(), rec.filter(u"alpha"_s), false);
        QTRY_COMPARE(held.started->load(), 1); // held at the gate, which nobody opens
        QElapsedTimer took;
        took.start();
        query.release(rec.path());
        QVERIFY2(took.elapsed() < 5'000, QByteArray::number(took.elapsed()).constData());
        QVERIFY(!query.isPending());
        // An answer it made was queued to this thread before release() returned.
        QCoreApplication::processEvents();
        QCOMPARE(answered.count(), 0);
    }

    // A count superseded by a newer filter stops at its next check instead of running to its
    // end for an answer nobody wants; the newer one is answered.
    void aCountSupersededByANewerFilterStopsEarly()
    {
        Recording rec;
        QVERIFY(rec.start(10));
        HeldCompute held;
        held.stoppable = true;
        TranscriptFilterQuery query(held.compute());
        QSignalSpy answered(&query, &TranscriptFilterQuery::answered);
        query.ask(rec.path(), rec.filter(u"alpha"_s), false);
        QTRY_COMPARE(held.started->load(), 1);
        QElapsedTimer took;
        took.start();
        query.ask(rec.path(), rec.filter(u"beta"_s), false);
        const quint64 newer = query.ticket();
        QTRY_COMPARE(answered.count(), 1); // the gate was never opened
        QVERIFY2(took.elapsed() < 5'000, QByteArray::number(took.elapsed()).constData());
        QCOMPARE(answerOf(answered, 0).ticket, newer);
        QCOMPARE(answerOf(answered, 0).filter.server, u"beta"_s);
        QCOMPARE(answerOf(answered, 0).count, 10);
    }

    // The real count asks whether its request was superseded (HistoryStore::pagedTally's
    // stop): one that was is not counted, and says so.
    void aSupersededRequestIsNotCounted()
    {
        Recording rec;
        QVERIFY(rec.start(10));
        HistoryStore store;
        QString error;
        QVERIFY2(store.open(rec.path(), &error), qPrintable(error));
        const auto latest = std::make_shared<std::atomic<quint64>>(5);
        TranscriptFilterRequest request{4, rec.path(), rec.filter(), false, latest};
        QVERIFY(request.superseded());
        const TranscriptFilterAnswer stopped = TranscriptFilterQuery::compute(store, request);
        QCOMPARE(stopped.error, u"stopped"_s);
        QCOMPARE(stopped.events.size(), 0);
        request.ticket = 5; // the newest
        const TranscriptFilterAnswer counted = TranscriptFilterQuery::compute(store, request);
        QVERIFY2(counted.error.isEmpty(), qPrintable(counted.error));
        QCOMPARE(counted.count, 40);
    }

    void aNewerFiltersAnswerWinsOverAnOlderOneThatArrivesLater()
    {
        Recording rec;
        QVERIFY(rec.start(10));
        HeldCompute held;
        TranscriptFilterQuery query(held.compute());
        QSignalSpy answered(&query, &TranscriptFilterQuery::answered);
        query.ask(rec.path(), rec.filter(u"alpha"_s), false);
        QTRY_COMPARE(held.started->load(), 1); // the older one is being counted
        query.ask(rec.path(), rec.filter(u"beta"_s), false);
        const quint64 newer = query.ticket();
        held.gate->release(); // the older answer arrives after the newer was asked
        QTRY_COMPARE(held.started->load(), 2);
        QTRY_VERIFY(!answered.isEmpty() &&
                    answerOf(answered, answered.count() - 1).ticket == newer);
        QCOMPARE(answered.count(), 1);
        QCOMPARE(answerOf(answered, 0).filter.server, u"beta"_s);
        QCOMPARE(answerOf(answered, 0).count, 10);
    }

    void aFilterQueuedBehindANewerOneIsNotCounted()
    {
        Recording rec;
        QVERIFY(rec.start(10));
        HeldCompute held;
        TranscriptFilterQuery query(held.compute());
        QSignalSpy answered(&query, &TranscriptFilterQuery::answered);
        query.ask(rec.path(), rec.filter(u"alpha"_s), false);
        QTRY_COMPARE(held.started->load(), 1);
        query.ask(rec.path(), rec.filter(u"beta"_s), false); // waits behind the first
        query.ask(rec.path(), rec.filter(), false);
        held.gate->release();
        QTRY_COMPARE(answered.count(), 1);
        QCOMPARE(answerOf(answered, 0).count, 40);
        QCOMPARE(held.started->load(), 2); // the beta one was skipped, not counted
    }

    void keystrokesWithinTheTypingDelayAreCountedOnce()
    {
        Recording rec;
        QVERIFY(rec.start(10));
        HeldCompute held;
        held.held = 0;
        TranscriptFilterQuery query(held.compute());
        query.setTypingDelay(50);
        QSignalSpy answered(&query, &TranscriptFilterQuery::answered);
        HistoryFilter f = rec.filter();
        for (const QString &typed : {u"t"_s, u"to"_s, u"too"_s, u"tool"_s}) {
            f.methodContains = typed;
            query.askSoon(rec.path(), f, false);
            QVERIFY(query.isPending());
            QVERIFY(query.isWaitingForTyping()); // not sent to the query's thread yet
        }
        QTRY_COMPARE(answered.count(), 1);
        QCOMPARE(held.started->load(), 1);
        QCOMPARE(answerOf(answered, 0).filter.methodContains, u"tool"_s);
        QCOMPARE(answerOf(answered, 0).count, 20); // tools/call and its response
    }

    void followingTheAnswerHoldsTheLastTwoPages()
    {
        Recording rec;
        QVERIFY(rec.start(150)); // 600 events: pages 0, 1 and 2 (88 rows)
        TranscriptFilterQuery query;
        QSignalSpy answered(&query, &TranscriptFilterQuery::answered);
        query.ask(rec.path(), rec.filter(), true);
        QTRY_COMPARE(answered.count(), 1);
        const TranscriptFilterAnswer a = answerOf(answered, 0);
        QCOMPARE(a.count, 600);
        QCOMPARE(a.firstRow, TranscriptPageSource::PageSize);
        QCOMPARE(a.events.size(), 600 - TranscriptPageSource::PageSize);
        QCOMPARE(a.ids.last(), a.lastId);
        // Read backwards from the newest row; the same rows as by their offset.
        QList<qint64> ids;
        QList<QJsonObject> read;
        for (const TranscriptEvent &e : a.events)
            read.append(e.toJson());
        QCOMPARE(read, rec.reader->records(rec.filter(), a.firstRow, 600, &ids));
        QCOMPARE(a.ids, ids);
        // Rows recorded after the count are left out: the read ends at its newest id.
        HistoryFilter upTo = rec.filter();
        upTo.untilId = ids.at(10);
        QList<qint64> newest;
        QCOMPARE(rec.reader->newestRecords(upTo, 3, &newest).size(), 3);
        QCOMPARE(newest, ids.mid(8, 3));
    }

    void everyPageOfAnAnswerIsSoughtByIdNotByOffset_data()
    {
        QTest::addColumn<QString>("server");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("directions");
        QTest::addColumn<bool>("tail");
        QTest::addColumn<int>("count");
        QTest::newRow("every row, following")
            << QString() << QString() << QStringList() << true << 1200;
        QTest::newRow("every row, from the top")
            << QString() << QString() << QStringList() << false << 1200;
        QTest::newRow("one server's rows")
            << u"alpha"_s << QString() << QStringList() << false << 900;
        QTest::newRow("a direction")
            << QString() << QString() << QStringList{u"recv"_s} << true << 600;
        QTest::newRow("full-text hits, one in every four events")
            << QString() << u"needle"_s << QStringList() << false << 300;
    }
    void everyPageOfAnAnswerIsSoughtByIdNotByOffset()
    {
        QFETCH(QString, server);
        QFETCH(QString, text);
        QFETCH(QStringList, directions);
        QFETCH(bool, tail);
        QFETCH(int, count);
        Recording rec;
        QVERIFY(rec.start(300)); // 1,200 events
        HistoryFilter f = rec.filter(server);
        f.text = text;
        f.directions = directions;
        TranscriptFilterQuery query;
        QSignalSpy answered(&query, &TranscriptFilterQuery::answered);
        query.ask(rec.path(), f, tail);
        QTRY_COMPARE(answered.count(), 1);
        const TranscriptFilterAnswer a = answerOf(answered, 0);
        QCOMPARE(a.count, count);
        constexpr int PageSize = TranscriptPageSource::PageSize;
        QCOMPARE(a.pageStarts.size(), (count + PageSize - 1) / PageSize);
        TranscriptHistorySource source(rec.reader, a);
        // The middle first, then every page backwards: none follows a page read before it.
        QList<qint64> order{(count / 2) / PageSize * PageSize};
        for (qint64 at = (count - 1) / PageSize * PageSize; at >= 0; at -= PageSize)
            order << at;
        for (qint64 at : std::as_const(order))
            QCOMPARE(SondeTest::recordsOf(source.page(at, PageSize)),
                     rec.reader->records(f, at, PageSize));
        QCOMPARE(source.offsetReads(), 0);
        // Without the page starts (nor the rows read), the middle is read with OFFSET: the
        // walk over every row before it that they spare.
        TranscriptFilterAnswer bare = a;
        bare.pageStarts.clear();
        bare.ids.clear();
        bare.events.clear();
        TranscriptHistorySource without(rec.reader, bare);
        QCOMPARE(SondeTest::recordsOf(without.page(order.first(), PageSize)),
                 rec.reader->records(f, order.first(), PageSize));
        QCOMPARE(without.offsetReads(), 1);
    }

    void pagesRecordedWhileFollowingAreSoughtByIdToo()
    {
        Recording rec;
        QVERIFY(rec.start(10)); // 40 events
        TranscriptFilterQuery query;
        QSignalSpy answered(&query, &TranscriptFilterQuery::answered);
        query.ask(rec.path(), rec.filter(), true);
        QTRY_COMPARE(answered.count(), 1);
        TranscriptHistorySource source(rec.reader, answerOf(answered, 0));
        QCOMPARE(source.count(), 40);
        // Three recounts, as after batches: the pages they add start at rows 256, 512, ...
        for (int b = 0; b < 3; ++b) {
            QVERIFY(rec.recordExchanges(100));
            QCOMPARE(source.recount(), 40 + 400 * (b + 1));
        }
        constexpr int PageSize = TranscriptPageSource::PageSize;
        for (qint64 at = 4 * PageSize; at >= 0; at -= PageSize)
            QCOMPARE(SondeTest::recordsOf(source.page(at, PageSize)),
                     rec.reader->records(rec.filter(), at, PageSize));
        QCOMPARE(source.offsetReads(), 0);
    }

    void theFirstScreenOfAFilteredViewIsShownWithoutReadingOnTheGuiThread_data()
    {
        QTest::addColumn<bool>("follow");
        QTest::newRow("following, the last rows") << true;
        QTest::newRow("not following, the first rows") << false;
    }
    void theFirstScreenOfAFilteredViewIsShownWithoutReadingOnTheGuiThread()
    {
        QFETCH(bool, follow);
        Recording rec;
        QVERIFY(rec.start(300)); // 1,200 events
        TranscriptStore store;
        TranscriptPanel panel(&store);
        panel.resize(900, 600);
        followBox(panel)->setChecked(follow);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.showRecording(rec.reader, rec.recorder.runId());
        auto *label = panel.findChild<QLabel *>(u"transcriptFiltering"_s);
        QVERIFY(label);
        // No QAbstractItemModelTester here (the other tests have one): it reads row 0 on a
        // reset, which is not on the screen of a view that follows.
        TranscriptModel *model = panel.recordingModel();
        QTRY_COMPARE(model->rowCount(), 1200);
        QTRY_VERIFY(label->isHidden());

        qint64 readsAtReset = -1;
        connect(model, &QAbstractItemModel::modelAboutToBeReset, this,
                [&] { readsAtReset = model->pagesRead(); });
        panel.findChild<QCheckBox *>(u"dir:recv"_s)->setChecked(false);
        QVERIFY(!label->isHidden()); // "Filtering…" until the answer
        // For looking at: SONDE_SCREENSHOT_DIR=dir saves the tab while it filters.
        if (const QString shots = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !shots.isEmpty())
            panel.grab().save(shots + u"/transcript-filtering.png"_s);
        QCOMPARE(model->rowCount(), 1200); // the old rows stay meanwhile
        QTRY_COMPARE(model->rowCount(), 600);
        QVERIFY(label->isHidden());
        auto *table = panel.findChild<QTableView *>(u"transcriptTable"_s);
        table->viewport()->grab(); // paints the first screen: every row it shows is asked for
        QCOMPARE(model->pagesRead(), readsAtReset);
        const int top = table->rowAt(0);
        const int bottom = table->rowAt(table->viewport()->height() - 1);
        QVERIFY(top >= 0);
        QCOMPARE(follow ? bottom : top, follow ? 599 : 0);
        for (int row = top; row <= (bottom < 0 ? 599 : bottom); ++row)
            QVERIFY(model->data(model->index(row, TranscriptModel::DirectionColumn)).toString() !=
                    "recv"_L1);
        QCOMPARE(model->pagesRead(), readsAtReset);
    }

    void clearingTheFilterShowsEveryRowAgain()
    {
        Recording rec;
        QVERIFY(rec.start(20));
        TranscriptStore store;
        TranscriptPanel panel(&store);
        panel.showRecording(rec.reader, rec.recorder.runId());
        TranscriptModel *model = panel.recordingModel();
        QAbstractItemModelTester tester(model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_COMPARE(model->rowCount(), 80);
        auto *query = panel.findChild<TranscriptFilterQuery *>();
        QVERIFY(query);
        auto *text = panel.findChild<QLineEdit *>(u"transcriptText"_s);
        text->setText(u"needle 7"_s);
        QVERIFY(query->isWaitingForTyping()); // a keystroke waits for the next one
        QTRY_COMPARE(model->rowCount(), 1);
        QCOMPARE(model->event(0)->toJson().value("dir"_L1).toString(), u"send"_s);
        text->clear();
        QTRY_COMPARE(model->rowCount(), 80);
        QVERIFY(panel.findChild<QLabel *>(u"transcriptFiltering"_s)->isHidden());
        panel.findChild<QCheckBox *>(u"dir:send"_s)->setChecked(false);
        QVERIFY(query->isPending());
        QVERIFY(!query->isWaitingForTyping()); // a box goes at once
        QTRY_COMPARE(model->rowCount(), 60);
    }

    void rowsRecordedWhileAFilterIsCountedAreShownWithIt()
    {
        Recording rec;
        QVERIFY(rec.start(10));
        TranscriptStore store;
        TranscriptPanel panel(&store);
        connect(&rec.recorder, &HistoryRecorder::recorded, &panel,
                &TranscriptPanel::followRecording);
        panel.showRecording(rec.reader, rec.recorder.runId());
        TranscriptModel *model = panel.recordingModel();
        QAbstractItemModelTester tester(model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_COMPARE(model->rowCount(), 40);
        panel.findChild<QCheckBox *>(u"dir:stderr"_s)->setChecked(false);
        rec.recorder.record(exchange(10));
        QTRY_COMPARE(model->rowCount(), 33);
        rec.recorder.record(exchange(11));
        QTRY_COMPARE(model->rowCount(), 36); // and it goes on following
        QCOMPARE(model->event(35)->toJson().value("dir"_L1).toString(), u"recv"_s);
    }

    // A filter change reads the recording's rows again (a model reset, which drops the table's
    // current row without a signal): the detail must not keep showing the row it hid.
    void theDetailForgetsARecordedRowTheFilterHid()
    {
        Recording rec;
        QVERIFY(rec.start(5));
        TranscriptStore store;
        TranscriptPanel panel(&store);
        panel.resize(900, 600);
        panel.show();
        panel.showRecording(rec.reader, rec.recorder.runId());
        TranscriptModel *model = panel.recordingModel();
        QTRY_COMPARE(model->rowCount(), 20);
        auto *table = panel.findChild<QTableView *>(u"transcriptTable"_s);
        auto *detail = panel.findChild<QPlainTextEdit *>(u"transcriptDetail"_s);
        table->selectRow(2); // exchange 0's stderr line
        QTRY_VERIFY2(detail->toPlainText().contains(u"beta says 0"_s),
                     qPrintable(detail->toPlainText()));
        panel.findChild<QCheckBox *>(u"dir:stderr"_s)->setChecked(false);
        QTRY_COMPARE(model->rowCount(), 15);
        QVERIFY2(!detail->toPlainText().contains(u"beta says"_s),
                 qPrintable(detail->toPlainText()));
    }
};

QTEST_MAIN(TestTranscriptFilterQuery)
#include "tst_transcriptfilterquery.moc"
