// SPDX-License-Identifier: MIT
// The Transcript tab as a user reads it: columns sized for what they hold, so the Summary is on
// screen in a narrow window, and a detail pane that follows the rows the filters leave.
#include "application/transcript/transcriptmodel.h"
#include "application/transcript/transcriptstore.h"
#include "transcript/transcriptpanel.h"

#include <QCheckBox>
#include <QHeaderView>
#include <QPlainTextEdit>
#include <QTableView>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

// JSON test data without raw strings (moc cannot read raw string literals).
#define JSON_TEXT(...) #__VA_ARGS__

namespace {

using Direction = TranscriptEvent::Direction;

TranscriptEvent wire(int n, Direction direction, const QByteArray &raw)
{
    TranscriptEvent e;
    e.timeMs = 1700000000000 + n;
    e.server = u"a-server-with-a-long-name"_s;
    e.generation = 1;
    e.direction = direction;
    e.raw = raw;
    return e;
}

// A request and its answer.
TranscriptBatch exchange()
{
    return {wire(0, Direction::Outgoing, JSON_TEXT({
                     "jsonrpc" : "2.0",
                     "id" : 1,
                     "method" : "tools/call",
                     "params" : {"name" : "echo"}
                 })),
            wire(5, Direction::Incoming, JSON_TEXT({
                     "jsonrpc" : "2.0",
                     "id" : 1,
                     "result" : {"content" : [ {"type" : "text", "text" : "hi"} ]}
                 }))};
}

struct Shown
{
    TranscriptStore store;
    TranscriptPanel panel{&store};
    explicit Shown(int width)
    {
        store.append(exchange());
        panel.resize(width, 500);
        panel.show();
    }
    QTableView *table() const { return panel.findChild<QTableView *>(u"transcriptTable"_s); }
    QString detail() const
    {
        return panel.findChild<QPlainTextEdit *>(u"transcriptDetail"_s)->toPlainText();
    }
    QCheckBox *direction(const QString &name) const
    {
        return panel.findChild<QCheckBox *>(u"dir:"_s + name);
    }
};

} // namespace

class TestTranscriptPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theSummaryStaysOnScreenInANarrowWindow_data()
    {
        QTest::addColumn<int>("width");
        QTest::newRow("the panel of a 1024-wide window") << 740;
        QTest::newRow("a wide window") << 1400;
    }

    void theSummaryStaysOnScreenInANarrowWindow()
    {
        QFETCH(int, width);
        Shown s(width);
        QTableView *table = s.table();
        QHeaderView *header = table->horizontalHeader();
        QTRY_VERIFY(header->length() > 0);
        const int viewport = table->viewport()->width();
        const int summaryLeft = header->sectionViewportPosition(TranscriptModel::SummaryColumn);
        QVERIFY2(summaryLeft + 120 <= viewport,
                 qPrintable(u"the Summary starts at %1 of %2"_s.arg(summaryLeft).arg(viewport)));
        // A one-digit generation does not take a name's width.
        QVERIFY2(header->sectionSize(TranscriptModel::GenerationColumn) <
                     header->sectionSize(TranscriptModel::ServerColumn),
                 qPrintable(u"Gen %1, Server %2"_s
                                .arg(header->sectionSize(TranscriptModel::GenerationColumn))
                                .arg(header->sectionSize(TranscriptModel::ServerColumn))));
        // A name cut by its column is whole in its tooltip.
        const QModelIndex server = table->model()->index(0, TranscriptModel::ServerColumn);
        QCOMPARE(server.data(Qt::ToolTipRole).toString(), u"a-server-with-a-long-name"_s);
    }

    void theDetailForgetsARowTheFilterHid()
    {
        Shown s(900);
        QTableView *table = s.table();
        table->selectRow(1); // the answer
        QVERIFY2(s.detail().contains(u"\"hi\""_s), qPrintable(s.detail()));
        s.direction(u"recv"_s)->setChecked(false);
        QCOMPARE(table->model()->rowCount(), 1);
        QVERIFY2(!s.detail().contains(u"\"hi\""_s), qPrintable(s.detail()));
        // The row left can be picked again, and shows.
        table->selectRow(0);
        QVERIFY2(s.detail().contains(u"tools/call"_s), qPrintable(s.detail()));
    }
};

QTEST_MAIN(TestTranscriptPanel)
#include "tst_transcriptpanel.moc"
