// SPDX-License-Identifier: MIT
// The window recording into a history (MainWindow::showRecording): its in-memory transcript
// keeps only a tail, and what used to read the whole store reads the history instead: the
// export dialog's live source (this run, the newest batch included), the Transcript tab's own
// exports (the rows its filters show), the timeline's line about the events it no longer has.
// And the Transcript tab follows a flood of committed batches at most once an interval.
#include "application/transcript/recordingtranscript.h"
#include "application/transcript/transcriptmodel.h"
#include "application/transcript/transcriptpagesource.h"
#include "application/transcript/transcriptstore.h"
#include "engine/corehost.h"
#include "exportdialogsave.h"
#include "historyrecorder.h"
#include "historystore.h"
#include "liverecording.h"
#include "timeline/timelinetab.h"
#include "transcript/exportdialog.h"
#include "transcript/transcriptpanel.h"
#include "util/clock.h"
#include "window/mainwindow.h"
#include "window/mainwindowactions.h"

#include <QAction>
#include <QFile>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace Sonde;
using namespace SondeTest;
using namespace Qt::StringLiterals;

namespace {

using D = TranscriptEvent::Direction;
const auto ConfiguredSecret = "cfg-secret-5be02c71"_L1;

// One wire event of the "demo" server (liverecording.h's, on demo).
TranscriptEvent wire(qint64 id, D dir, const QByteArray &raw)
{
    return SondeTest::liveWire(id, dir, raw, u"demo"_s);
}

// `count` exchanges from `first`: a call naming the configured secret, its answer, a stderr
// line and a log notification (four events each).
TranscriptBatch exchanges(int first, int count)
{
    TranscriptBatch out;
    for (int id = first; id < first + count; ++id) {
        const QByteArray n = QByteArray::number(id);
        out << wire(id, D::Outgoing,
                    "{\"jsonrpc\":\"2.0\",\"id\":" + n +
                        ",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{"
                        "\"note\":\"" +
                        QByteArray(ConfiguredSecret.data()) + "\"}}}")
            << wire(id, D::Incoming, "{\"jsonrpc\":\"2.0\",\"id\":" + n + ",\"result\":{}}")
            << wire(id, D::Stderr, "line " + n)
            << wire(id, D::Incoming,
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}");
    }
    return out;
}

QList<QByteArray> lines(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().split('\n');
}

// A recorder on a temporary history and a read connection to it, as `sonde` opens them.
using Recording = SondeTest::LiveRecording;

} // namespace

class TestRecordingWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aRecordingWindowKeepsATailAndExportsTheRunFromTheHistory()
    {
        CoreHost host;
        Recording rec;
        QVERIFY(rec.start());
        {
            MainWindow window(host);
            connect(&host, &CoreHost::transcriptBatch, &rec.recorder, &HistoryRecorder::record);
            ServerConfig c;
            c.name = u"demo"_s;
            c.program = u"/nonexistent/demo-server"_s;
            c.environment.insert(u"DEMO_SETTING"_s, ConfiguredSecret);
            window.addServer(c, {}, false);
            window.showRecording(&rec.recorder, rec.reader);
            QVERIFY(window.showsRecording());
            QCOMPARE(window.transcriptStore()->capacity(), MainWindow::RecordingTailEvents);

            // More than the tail, in batches as the engine sends them; the last one is not
            // waited for: the export must see it all the same.
            constexpr int Exchanges = MainWindow::RecordingTailEvents / 4 + 500;
            constexpr int Events = Exchanges * 4;
            for (int first = 0; first < Exchanges; first += 125)
                Q_EMIT host.transcriptBatch(exchanges(first, 125));
            QVERIFY(window.transcriptStore()->size() <= MainWindow::RecordingTailEvents);
            QVERIFY(window.transcriptStore()->droppedCount() > 0);
            QVERIFY2(window.timelineTab()->tailText().contains(u"History tab"_s),
                     qPrintable(window.timelineTab()->tailText()));

            // For looking at: SONDE_SCREENSHOT_DIR=dir saves the timeline with its line.
            if (const QString shots = qEnvironmentVariable("SONDE_SCREENSHOT_DIR");
                !shots.isEmpty()) {
                window.resize(1100, 700);
                window.show();
                window.tabs()->setCurrentWidget(window.timelineTab());
                QVERIFY(QTest::qWaitForWindowExposed(&window));
                window.grab().save(shots + u"/timeline-tail.png"_s);
            }
            window.actions()->action(MainWindowActions::Export)->trigger();
            ExportDialog *d = nullptr;
            QTRY_VERIFY((d = window.findChild<ExportDialog *>(u"exportDialog"_s)));
            const QString title = d->findChild<QLabel *>(u"exportSource"_s)->text();
            QVERIFY2(title.contains(u"this run, from the history"_s), qPrintable(title));
            // Read from the history file on the dialog's thread: all of the run, not a tail.
            QVERIFY(d->job()->input().isHistory());
            QVERIFY(waitCounted(*d));
            QVERIFY2(d->description().contains(u"all %1 events"_s.arg(Events)),
                     qPrintable(d->description()));
            QTemporaryDir out;
            const QString error = saveAndWait(*d, out.filePath(u"run.jsonl"_s));
            QVERIFY2(error.isEmpty(), qPrintable(error));
            const QList<QByteArray> written = lines(out.filePath(u"run.jsonl"_s));
            // A header line, every event, and the empty piece after the last newline.
            QCOMPARE(written.size(), Events + 2);
            // The last exchange's call (its answer, stderr line and notification follow).
            QVERIFY(written.at(Events - 3)
                        .contains(QByteArray("\"id\":" + QByteArray::number(Exchanges - 1))));
            for (const QByteArray &line : written)
                QVERIFY2(!line.contains(QByteArray(ConfiguredSecret.data())), line.constData());
            d->close();

            // The Transcript tab's own export writes the rows its filters show, from the
            // history, masked as before.
            TranscriptPanel *panel = window.transcriptPanel();
            QTRY_COMPARE(panel->recordingModel()->rowCount(), Events);
            // A row of the tail (a click in the timeline) is found in the paged table: the
            // same event, also the second of two answers of its millisecond.
            TranscriptStore *store = window.transcriptStore();
            auto *table = panel->findChild<QTableView *>(u"transcriptTable"_s);
            for (int row :
                 {0, store->size() / 2, store->size() - 3, store->size() - 2, store->size() - 1}) {
                QVERIFY(panel->selectStoreRow(row));
                const QJsonObject shown =
                    panel->recordingModel()->event(table->currentIndex().row())->toJson();
                const TranscriptEvent &e = store->event(row);
                const QJsonObject raw = QJsonDocument::fromJson(e.raw).object();
                QCOMPARE(shown.value("t_ms"_L1).toInteger(), e.timeMs);
                QCOMPARE(shown.value("dir"_L1).toString(),
                         TranscriptEvent::directionName(e.direction));
                QCOMPARE(shown["msg"_L1]["method"_L1], raw.value("method"_L1));
                QCOMPARE(shown["msg"_L1]["id"_L1], raw.value("id"_L1));
            }
            panel->findChild<QLineEdit *>(u"transcriptMethod"_s)->setText(u"tools/call"_s);
            // Counted off the GUI thread (TranscriptFilterQuery), after the typing delay.
            QTRY_COMPARE(panel->recordingModel()->rowCount(), Exchanges * 2); // a call, its answer
            const QString path = out.filePath(u"shown.jsonl"_s);
            QCOMPARE(panel->exportTo(path, u"jsonl"_s), QString());
            const QList<QByteArray> shown = lines(path);
            QCOMPARE(shown.size(), Exchanges * 2 + 1);
            for (int i = 0; i < Exchanges * 2; ++i) {
                const QJsonObject r = QJsonDocument::fromJson(shown.at(i)).object();
                QVERIFY2(r.value("dir"_L1).toString() == (i % 2 ? "recv"_L1 : "send"_L1),
                         shown.at(i).constData());
                QVERIFY2(!shown.at(i).contains(QByteArray(ConfiguredSecret.data())),
                         shown.at(i).constData());
            }
            QVERIFY(shown.first().contains("\"id\":0"));
            QVERIFY(shown.at(Exchanges * 2 - 1)
                        .contains(QByteArray("\"id\":" + QByteArray::number(Exchanges - 1))));
            // Its buttons open the export dialog on the same rows, read from the history file
            // on the dialog's thread: the versioned JSON Lines, a header and the rows.
            panel->findChild<QPushButton *>(u"transcriptExportJsonl"_s)->click();
            auto *shownDialog = panel->findChild<ExportDialog *>(u"exportDialog"_s);
            QVERIFY(shownDialog);
            QVERIFY(shownDialog->job()->input().isHistory());
            QCOMPARE(shownDialog->job()->input().filter.methodContains, u"tools/call"_s);
            QCOMPARE(shownDialog->format(), TranscriptExport::Format::Jsonl);
            QVERIFY(waitCounted(*shownDialog));
            QVERIFY2(shownDialog->description().contains(u"all %1 events"_s.arg(Exchanges * 2)),
                     qPrintable(shownDialog->description()));
            const QString viaDialog = saveAndWait(*shownDialog, out.filePath(u"dialog.jsonl"_s));
            QVERIFY2(viaDialog.isEmpty(), qPrintable(viaDialog));
            const QList<QByteArray> fromDialog = lines(out.filePath(u"dialog.jsonl"_s));
            QCOMPARE(fromDialog.size(), Exchanges * 2 + 2);
            QCOMPARE(fromDialog.mid(1), shown); // the same rows, after the header
            shownDialog->close();
            QCOMPARE(panel->exportTo(out.filePath(u"shown.md"_s), u"md"_s), QString());
            QFile md(out.filePath(u"shown.md"_s));
            QVERIFY(md.open(QIODevice::ReadOnly));
            const QByteArray report = md.readAll();
            QVERIFY2(
                report.contains(QByteArray(QByteArray::number(Exchanges * 2) + " events from")),
                report.left(200).constData());
        }
        QSignalSpy down(&host, &CoreHost::shutdownFinished);
        host.shutdown();
        QVERIFY(down.wait(5000));
    }

    // Without a history the store keeps its full bounds and the timeline says nothing.
    void aWindowWithoutAHistoryKeepsTheWholeStore()
    {
        CoreHost host;
        {
            MainWindow window(host);
            Q_EMIT host.transcriptBatch(exchanges(0, MainWindow::RecordingTailEvents / 4 + 500));
            QCOMPARE(window.transcriptStore()->capacity(), TranscriptStore::DefaultCapacity);
            QCOMPARE(window.transcriptStore()->size(), MainWindow::RecordingTailEvents + 2000);
            QCOMPARE(window.transcriptStore()->droppedCount(), qint64(0));
            QCOMPARE(window.timelineTab()->tailText(), QString());
        }
        QSignalSpy down(&host, &CoreHost::shutdownFinished);
        host.shutdown();
        QVERIFY(down.wait(5000));
    }

    void theTimelineSaysWhenItDrawsOnlyTheNewestEvents()
    {
        TranscriptStore store(10);
        TimelineTab tab(&store);
        store.append(exchanges(0, 2));
        QCOMPARE(tab.tailText(), QString()); // all of it is there
        store.append(exchanges(2, 2));
        QCOMPARE(tab.tailText(),
                 u"The newest %1 events; older ones were dropped"_s.arg(store.size()));
        tab.setTailInHistory(true); // the window records: the rest is in the History tab
        QCOMPARE(tab.tailText(), u"The newest %1 events; older ones: History tab → Show on "
                                 u"timeline"_s.arg(store.size()));
        store.clear();
        QCOMPARE(tab.tailText(), QString());
    }

    // Each committed batch asks the table to follow; a flood of them must not make it count
    // and read its last page on the GUI thread every 50 ms.
    void committedBatchesInARowAreFollowedAtMostOnceAnInterval()
    {
        Recording rec;
        QVERIFY(rec.start());
        TranscriptStore store;
        TranscriptPanel panel(&store);
        ManualClock clock;
        panel.setFollowClock(&clock);
        panel.resize(800, 600);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.showRecording(rec.reader, rec.recorder.runId());
        // The first count is made off the GUI thread: its answer is in before the batches.
        QTRY_VERIFY(panel.findChild<QLabel *>(u"transcriptFiltering"_s)->isHidden());
        QTRY_VERIFY(panel.recordingModel() != nullptr);
        connect(&rec.recorder, &HistoryRecorder::recorded, &panel,
                &TranscriptPanel::followRecording);
        // Counted on the GUI thread, after the panel's own slot (a spy would count on the
        // writer's thread, before the panel heard of it).
        int delivered = 0;
        connect(&rec.recorder, &HistoryRecorder::recorded, &panel, [&delivered] { ++delivered; });
        TranscriptModel *model = panel.recordingModel();
        QSignalSpy inserted(model, &QAbstractItemModel::rowsInserted);
        const qint64 readsBefore = model->pagesRead();

        constexpr int Batches = 20;
        for (int i = 0; i < Batches; ++i) {
            rec.recorder.record(exchanges(i, 1));
            QTRY_COMPARE(delivered, i + 1); // each delivered, the panel painted
        }
        // The first at once; the others wait for the interval, on the panel's clock.
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(model->rowCount(), 4);
        QVERIFY2(model->pagesRead() - readsBefore <= 2,
                 qPrintable(QString::number(model->pagesRead() - readsBefore)));

        // The interval passes: one follow takes every row committed since.
        clock.advance(RecordingTranscript::FollowIntervalMs);
        QCOMPARE(inserted.count(), 2);
        QCOMPARE(model->rowCount(), Batches * 4);
        // Then, a batch after a quiet interval is followed at once.
        clock.advance(RecordingTranscript::FollowIntervalMs);
        rec.recorder.record(exchanges(Batches, 1));
        QTRY_COMPARE(model->rowCount(), (Batches + 1) * 4);
        QCOMPARE(inserted.count(), 3);
    }
};

QTEST_MAIN(TestRecordingWindow)
#include "tst_recordingwindow.moc"
