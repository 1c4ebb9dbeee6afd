// SPDX-License-Identifier: MIT
// The transcript table over a recorded history: a million rows under
// QAbstractItemModelTester, scrolled end to end with a bounded number of pages held, each row
// read back from its record and shown exactly as the live table shows the same event.
#include "application/transcript/transcriptmodel.h"
#include "application/transcript/transcriptpagesource.h"
#include "application/transcript/transcriptstore.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

// Synthetic records, made on demand: a million of them cost nothing until read. Counts the
// reads so the test sees what the model asked for.
class CountingSource final : public TranscriptPageSource
{
public:
    explicit CountingSource(qint64 rows, qint64 *reads) : m_rows(rows), m_reads(reads) {}
    qint64 count() const override { return m_rows; }
    TranscriptBatch page(qint64 offset, int limit) const override
    {
        ++*m_reads;
        TranscriptBatch out;
        for (qint64 i = offset; i < qMin(m_rows, offset + limit); ++i)
            out.append(TranscriptEvent::fromJson(recordAt(i)));
        return out;
    }
    static QJsonObject recordAt(qint64 i)
    {
        QJsonObject msg{{"jsonrpc"_L1, u"2.0"_s}};
        if (i % 2 == 0) {
            msg.insert("id"_L1, i / 2);
            msg.insert("method"_L1, u"tools/call"_s);
            msg.insert("params"_L1, QJsonObject{{"name"_L1, u"echo"_s},
                                                {"arguments"_L1, QJsonObject{{"message"_L1, i}}}});
        } else {
            msg.insert("id"_L1, i / 2);
            msg.insert("result"_L1, QJsonObject{{"isError"_L1, i % 10 == 9}});
        }
        return {{"t_ms"_L1, 1700000000000 + i},
                {"server"_L1, i % 3 == 0 ? u"alpha"_s : u"beta"_s},
                {"gen"_L1, int(1 + i / 100000)},
                {"dir"_L1, i % 2 == 0 ? u"send"_s : u"recv"_s},
                {"msg"_L1, msg}};
    }

private:
    qint64 m_rows;
    qint64 *m_reads;
};

class ListSource final : public TranscriptPageSource
{
public:
    explicit ListSource(TranscriptBatch events) : m_events(std::move(events)) {}
    qint64 count() const override { return m_events.size(); }
    TranscriptBatch page(qint64 offset, int limit) const override
    {
        return m_events.mid(offset, limit);
    }

private:
    TranscriptBatch m_events;
};

} // namespace

class TestRecordedTranscriptRows : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aRecordedRowShowsWhatTheLiveRowOfItsEventShows_data()
    {
        QTest::addColumn<QList<QJsonObject>>("records");
        const QJsonObject verdict =
            TranscriptEvent::fromHistory(
                HistoryEvent{1700000000009,
                             HistoryEvent::OutcomeUncertain{.call = {.method = u"tools/call"_s,
                                                                     .tool = u"increment"_s,
                                                                     .requestId = 4,
                                                                     .generation = 1}}},
                u"alpha"_s, 1)
                .toJson();
        QTest::newRow("a request and its answer, paired with a latency")
            << QList<QJsonObject>{CountingSource::recordAt(0), CountingSource::recordAt(1)};
        QTest::newRow("an isError result is an error")
            << QList<QJsonObject>{CountingSource::recordAt(8), CountingSource::recordAt(9)};
        QTest::newRow("a lifecycle event shows its name and details")
            << QList<QJsonObject>{{{"t_ms"_L1, qint64(1700000000000)},
                                   {"server"_L1, u"alpha"_s},
                                   {"dir"_L1, u"event"_s},
                                   {"event"_L1, u"reconnect-attempt"_s},
                                   {"details"_L1, QJsonObject{{"attempt"_L1, 2}}}}};
        QTest::newRow("a verdict reads as the window said it") << QList<QJsonObject>{verdict};
        QTest::newRow("a stderr line shows the line")
            << QList<QJsonObject>{{{"t_ms"_L1, qint64(1700000000000)},
                                   {"dir"_L1, u"stderr"_s},
                                   {"line"_L1, u"listening\non 3000"_s}}};
        QTest::newRow("a frame that is not JSON shows as text") << QList<QJsonObject>{
            {{"t_ms"_L1, qint64(1700000000000)}, {"dir"_L1, u"recv"_s}, {"raw"_L1, u"<html>"_s}}};
    }
    void aRecordedRowShowsWhatTheLiveRowOfItsEventShows()
    {
        QFETCH(QList<QJsonObject>, records);
        TranscriptBatch events;
        for (const QJsonObject &r : records)
            events.append(TranscriptEvent::fromJson(r));
        TranscriptStore store;
        store.append(events);
        TranscriptModel live(&store);
        TranscriptModel recorded;
        recorded.setSource(std::make_unique<ListSource>(events));
        QCOMPARE(recorded.rowCount(), live.rowCount());
        QCOMPARE(recorded.columnCount(), int(TranscriptModel::ColumnCount));
        for (int row = 0; row < live.rowCount(); ++row) {
            for (int column = 0; column < TranscriptModel::ColumnCount; ++column)
                for (int role :
                     {int(Qt::DisplayRole), int(Qt::ToolTipRole), int(Qt::ForegroundRole),
                      int(TranscriptModel::MethodRole), int(TranscriptModel::IsErrorRole),
                      int(TranscriptModel::LatencyRole), int(TranscriptModel::PairedRowRole)})
                    QCOMPARE(recorded.index(row, column).data(role),
                             live.index(row, column).data(role));
            QCOMPARE(recorded.event(row)->toJson(), live.event(row)->toJson());
        }
        QCOMPARE(recorded.headerData(TranscriptModel::MethodColumn, Qt::Horizontal),
                 live.headerData(TranscriptModel::MethodColumn, Qt::Horizontal));
    }

    void aMillionRowsPassTheModelTesterAndScrollWithBoundedPages()
    {
        constexpr qint64 Rows = 1'000'000;
        qint64 reads = 0;
        TranscriptModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSource(std::make_unique<CountingSource>(Rows, &reads));
        QCOMPARE(model.rowCount(), int(Rows));
        // End to end, as a view scrolled to the bottom reads it: every row once.
        for (int row = 0; row < Rows; row += 97) {
            const QModelIndex index = model.index(row, TranscriptModel::SummaryColumn);
            QVERIFY(!model.data(index).toString().isEmpty());
            QVERIFY(model.cachedPages() <= TranscriptModel::MaxPages);
        }
        const qint64 pages =
            (Rows + TranscriptPageSource::PageSize - 1) / TranscriptPageSource::PageSize;
        QCOMPARE(reads, pages); // each page read once on the way down
        QCOMPARE(model.cachedPages(), TranscriptModel::MaxPages);
        // The last row is the source's last record.
        QCOMPARE(model.event(int(Rows - 1))->toJson(),
                 TranscriptEvent::fromJson(CountingSource::recordAt(Rows - 1)).toJson());
    }

    void goingBackToARecentPageReadsNothingAgain()
    {
        qint64 reads = 0;
        TranscriptModel model;
        model.setSource(std::make_unique<CountingSource>(10'000, &reads));
        model.data(model.index(0, 0));
        model.data(model.index(5'000, 0));
        const qint64 before = reads;
        model.data(model.index(1, 0));
        model.data(model.index(5'001, 0));
        QCOMPARE(reads, before);
    }

    void refreshSeesRowsRecordedSince()
    {
        qint64 reads = 0;
        auto source = std::make_unique<CountingSource>(10, &reads);
        TranscriptModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSource(std::move(source));
        QCOMPARE(model.rowCount(), 10);
        model.setSource(std::make_unique<CountingSource>(20, &reads));
        QCOMPARE(model.rowCount(), 20);
        const qint64 before = reads;
        model.refresh(); // the pages are read again, not served from before
        model.data(model.index(0, 0));
        QVERIFY(reads > before);
        model.setSource(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestRecordedTranscriptRows)
#include "tst_pagedtranscriptmodel.moc"
