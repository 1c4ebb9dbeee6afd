// SPDX-License-Identifier: MIT
// The paged table over a recorded history: a million rows under QAbstractItemModelTester,
// scrolled end to end with a bounded number of pages held, each row derived from its record.
#include "application/transcript/pagedtranscriptmodel.h"
#include "application/transcript/transcriptpagesource.h"

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
    QList<QJsonObject> page(qint64 offset, int limit) const override
    {
        ++*m_reads;
        QList<QJsonObject> out;
        for (qint64 i = offset; i < qMin(m_rows, offset + limit); ++i)
            out.append(recordAt(i));
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

} // namespace

class TestPagedTranscriptModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rowsShowWhatTheirRecordSays_data()
    {
        QTest::addColumn<QJsonObject>("record");
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("summary");
        QTest::addColumn<bool>("isError");
        QTest::newRow("a request shows its method and its params")
            << CountingSource::recordAt(0) << u"tools/call"_s
            << u"{\"arguments\":{\"message\":0},\"name\":\"echo\"}"_s << false;
        QTest::newRow("a response shows its id and its result")
            << CountingSource::recordAt(1) << u"response #0"_s << u"{\"isError\":false}"_s << false;
        QTest::newRow("an isError result is an error")
            << CountingSource::recordAt(9) << u"response #4"_s << u"{\"isError\":true}"_s << true;
        QTest::newRow("a lifecycle event shows its name and details")
            << QJsonObject{{"dir"_L1, u"event"_s},
                           {"event"_L1, u"reconnect"_s},
                           {"details"_L1, QJsonObject{{"attempt"_L1, 2}}}}
            << u"reconnect"_s << u"{\"attempt\":2}"_s << false;
        QTest::newRow("a stderr line shows the line")
            << QJsonObject{{"dir"_L1, u"stderr"_s}, {"line"_L1, u"listening\non 3000"_s}}
            << QString() << u"listening on 3000"_s << false;
    }
    void rowsShowWhatTheirRecordSays()
    {
        QFETCH(QJsonObject, record);
        QFETCH(QString, method);
        QFETCH(QString, summary);
        QFETCH(bool, isError);
        const PagedTranscriptModel::Row row = PagedTranscriptModel::rowOf(record);
        QCOMPARE(row.method, method);
        QCOMPARE(row.summary, summary);
        QCOMPARE(row.isError, isError);
    }

    void aMillionRowsPassTheModelTesterAndScrollWithBoundedPages()
    {
        constexpr qint64 Rows = 1'000'000;
        qint64 reads = 0;
        PagedTranscriptModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSource(std::make_unique<CountingSource>(Rows, &reads));
        QCOMPARE(model.rowCount(), int(Rows));
        // End to end, as a view scrolled to the bottom reads it: every row once.
        for (int row = 0; row < Rows; row += 97) {
            const QModelIndex index = model.index(row, PagedTranscriptModel::SummaryColumn);
            QVERIFY(!model.data(index).toString().isEmpty());
            QVERIFY(model.cachedPages() <= PagedTranscriptModel::MaxPages);
        }
        const qint64 pages =
            (Rows + PagedTranscriptModel::PageSize - 1) / PagedTranscriptModel::PageSize;
        QCOMPARE(reads, pages); // each page read once on the way down
        QCOMPARE(model.cachedPages(), PagedTranscriptModel::MaxPages);
        // The last row is the source's last record.
        QCOMPARE(model.record(int(Rows - 1)), CountingSource::recordAt(Rows - 1));
    }

    void goingBackToARecentPageReadsNothingAgain()
    {
        qint64 reads = 0;
        PagedTranscriptModel model;
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
        PagedTranscriptModel model;
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

QTEST_MAIN(TestPagedTranscriptModel)
#include "tst_pagedtranscriptmodel.moc"
