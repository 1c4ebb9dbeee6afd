// SPDX-License-Identifier: MIT
// The History tab over a catalog of its own: the selected server's sessions newest first, the
// picked session's events a page at a time, a search that replaces them with its hits,
// Clear history only after the question is answered Yes, an opened file as a source with its
// own servers, and Show on timeline for the picked session. Over a history file, the search
// is counted off the GUI thread and its pages sought by id.
#include "application/history/historycatalog.h"
#include "application/history/storehistorycatalog.h"
#include "application/history/transcripthistorysource.h"
#include "application/transcript/transcriptmodel.h"
#include "application/transcript/transcriptpagesource.h"
#include "history/historypanel.h"
#include "historystore.h"
#include "liverecording.h"

#include <QComboBox>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

QJsonObject request(const QString &server, int gen, int id, const QString &text)
{
    return {{"t_ms"_L1, qint64(1700000000000) + id},
            {"server"_L1, server},
            {"gen"_L1, gen},
            {"dir"_L1, u"send"_s},
            {"msg"_L1,
             QJsonObject{
                 {"jsonrpc"_L1, u"2.0"_s},
                 {"id"_L1, id},
                 {"method"_L1, u"tools/call"_s},
                 {"params"_L1, QJsonObject{{"name"_L1, u"echo"_s},
                                           {"arguments"_L1, QJsonObject{{"message"_L1, text}}}}}}}};
}

class ListSource final : public TranscriptPageSource
{
public:
    explicit ListSource(QList<QJsonObject> records) : m_records(std::move(records)) {}
    qint64 count() const override { return m_records.size(); }
    TranscriptBatch page(qint64 offset, int limit) const override
    {
        TranscriptBatch events;
        for (const QJsonObject &r : m_records.mid(offset, limit))
            events.append(TranscriptEvent::fromJson(r));
        return events;
    }

private:
    QList<QJsonObject> m_records;
};

// Two sessions of "alpha" (generation 2 is the newer) and one of "beta".
class FakeCatalog final : public HistoryCatalog
{
public:
    QStringList servers() const override { return {u"alpha"_s, u"beta"_s}; }
    QList<RecordedSession> sessions(const QString &server) const override
    {
        QList<RecordedSession> out;
        for (const RecordedSession &s : m_sessions)
            if (s.server == server)
                out.prepend(s);
        return out;
    }
    std::unique_ptr<TranscriptPageSource> sessionEvents(qint64 id) const override
    {
        QList<QJsonObject> out;
        for (const auto &[session, record] : m_events)
            if (session == id)
                out.append(record);
        return std::make_unique<ListSource>(out);
    }
    std::unique_ptr<TranscriptPageSource> search(const QString &text,
                                                 const QString &server) const override
    {
        ++searches;
        QList<QJsonObject> out;
        for (const auto &[session, record] : m_events)
            if ((server.isEmpty() || record.value("server"_L1).toString() == server) &&
                QJsonDocument(record).toJson().contains(text.toUtf8()))
                out.append(record);
        return std::make_unique<ListSource>(out);
    }
    bool clear(QString *) override
    {
        ++clears;
        m_sessions.clear();
        m_events.clear();
        return true;
    }
    mutable int searches = 0;
    int clears = 0;

private:
    QList<RecordedSession> m_sessions{
        {1, u"alpha"_s, 1, 1700000000000, 1700000060000, 2, u"legacy"_s, u"2025-11-25"_s},
        {2, u"alpha"_s, 2, 1700000070000, 0, 3, u"modern"_s, u"2026-07-28"_s},
        {3, u"beta"_s, 1, 1700000000000, 0, 1, {}, {}}};
    QList<std::pair<qint64, QJsonObject>> m_events{
        {1, request(u"alpha"_s, 1, 1, u"old one"_s)}, {1, request(u"alpha"_s, 1, 2, u"old two"_s)},
        {2, request(u"alpha"_s, 2, 3, u"needle"_s)},  {2, request(u"alpha"_s, 2, 4, u"hay"_s)},
        {2, request(u"alpha"_s, 2, 5, u"hay"_s)},     {3, request(u"beta"_s, 1, 6, u"needle"_s)}};
};

// A history file of 300 exchanges (SondeTest::exchange): alpha's 900 events in one session,
// 300 of them calls with "needle N", and beta's 300 stderr lines.
bool writeHistory(const QString &path)
{
    HistoryStore store;
    QString error;
    TranscriptBatch batch;
    for (int i = 0; i < 300; ++i)
        batch += SondeTest::exchange(i);
    return store.open(path, &error, u"test"_s) && store.append(batch, &error);
}

// writeHistory's file in a folder of its own, and a catalog open on it.
struct HistoryFile
{
    QTemporaryDir dir;
    StoreHistoryCatalog catalog;
    QString error;
    QString path() const { return dir.filePath(u"h.db"_s); }
    bool open()
    {
        if (!writeHistory(path())) {
            error = u"cannot write the history "_s + path();
            return false;
        }
        return catalog.open(path(), &error);
    }
};

void grab(QWidget *w, const QString &name)
{
    if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty())
        w->grab().save(dir + u'/' + name + u".png"_s);
}

} // namespace

class TestHistoryPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theNewestSessionOfTheSelectedServerIsShown()
    {
        FakeCatalog catalog;
        HistoryPanel panel(&catalog);
        panel.resize(900, 500);
        panel.setServer(u"alpha"_s);
        auto *sessions = panel.findChild<QListWidget *>(u"historySessions"_s);
        QCOMPARE(sessions->count(), 2);
        QVERIFY(sessions->item(0)->text().contains("Generation 2"_L1));
        QVERIFY(sessions->item(0)->text().contains("modern 2026-07-28"_L1));
        QVERIFY(sessions->item(1)->text().contains("Generation 1"_L1));
        QCOMPARE(sessions->currentRow(), 0);
        QCOMPARE(panel.eventModel()->rowCount(), 3);
        panel.show();
        grab(&panel, u"history-alpha"_s);
        sessions->setCurrentRow(1);
        QCOMPARE(panel.eventModel()->rowCount(), 2);
        // Another server: its own sessions only.
        panel.setServer(u"beta"_s);
        QCOMPARE(sessions->count(), 1);
        QVERIFY(sessions->item(0)->text().contains("Generation 1"_L1));
        QCOMPARE(panel.eventModel()->rowCount(), 1);
        QCOMPARE(panel.eventModel()->event(0)->toJson().value("server"_L1).toString(), u"beta"_s);
        grab(&panel, u"history-beta-after-switching"_s);
    }

    // The History tab of a 1024x700 window is about 740 pixels wide: the Summary column is on
    // screen beside the sessions, not behind a horizontal scroll bar.
    void theSummaryIsOnScreenInA1024WideWindow()
    {
        FakeCatalog catalog;
        HistoryPanel panel(&catalog);
        panel.resize(740, 560);
        panel.setServer(u"alpha"_s);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto *table = panel.findChild<QTableView *>(u"historyEvents"_s);
        QHeaderView *header = table->horizontalHeader();
        const int left = header->sectionViewportPosition(TranscriptModel::SummaryColumn);
        QVERIFY2(left + 100 <= table->viewport()->width(),
                 qPrintable(u"the Summary starts at %1 of %2"_s.arg(left).arg(
                     table->viewport()->width())));
        grab(&panel, u"history-1024"_s);
    }

    void theSelectedEventShowsItsRecord()
    {
        FakeCatalog catalog;
        HistoryPanel panel(&catalog);
        panel.setServer(u"alpha"_s);
        auto *table = panel.findChild<QTableView *>(u"historyEvents"_s);
        table->setCurrentIndex(panel.eventModel()->index(0, 0));
        auto *json = panel.findChild<QPlainTextEdit *>(u"historyEvent"_s);
        QVERIFY2(json->toPlainText().contains("needle"_L1), qPrintable(json->toPlainText()));
    }

    void aSearchShowsItsHitsAndClearingItShowsTheSessionAgain()
    {
        FakeCatalog catalog;
        HistoryPanel panel(&catalog);
        panel.setServer(u"alpha"_s);
        auto *search = panel.findChild<QLineEdit *>(u"historySearch"_s);
        search->setText(u"old"_s);
        QTest::keyClick(search, Qt::Key_Return);
        QCOMPARE(catalog.searches, 1);
        QCOMPARE(panel.eventModel()->rowCount(), 2);
        QVERIFY(panel.findChild<QLabel *>(u"historyStatus"_s)->text().contains("2 event"_L1));
        search->clear();
        QCOMPARE(panel.eventModel()->rowCount(), 3);
    }

    // The field says "Search the whole history": it finds beta's needle too while alpha is
    // the selected server, and the Server column tells them apart.
    void aSearchCoversEveryServerOfTheHistory()
    {
        FakeCatalog catalog;
        HistoryPanel panel(&catalog);
        panel.setServer(u"alpha"_s);
        auto *search = panel.findChild<QLineEdit *>(u"historySearch"_s);
        QVERIFY(search->placeholderText().contains(u"whole history"_s));
        search->setText(u"needle"_s);
        QTest::keyClick(search, Qt::Key_Return);
        QCOMPARE(panel.eventModel()->rowCount(), 2);
        QStringList servers;
        for (int row = 0; row < 2; ++row)
            servers.append(panel.eventModel()->event(row)->toJson().value("server"_L1).toString());
        servers.sort();
        QCOMPARE(servers, (QStringList{u"alpha"_s, u"beta"_s}));
        QVERIFY2(panel.findChild<QLabel *>(u"historyStatus"_s)->text().contains("whole history"_L1),
                 qPrintable(panel.findChild<QLabel *>(u"historyStatus"_s)->text()));
    }

    void aSearchOfAHistoryFileIsCountedOffTheGuiThreadAndSoughtById()
    {
        HistoryFile file;
        QVERIFY2(file.open(), qPrintable(file.error));
        HistoryPanel panel(&file.catalog);
        panel.setServer(u"alpha"_s);
        TranscriptModel *model = panel.eventModel();
        QTRY_VERIFY(!panel.isReading());
        QCOMPARE(model->rowCount(), 900); // the session's events
        auto *search = panel.findChild<QLineEdit *>(u"historySearch"_s);
        auto *status = panel.findChild<QLabel *>(u"historyStatus"_s);
        search->setText(u"needle"_s);
        QTest::keyClick(search, Qt::Key_Return);
        QVERIFY(panel.isReading());
        QVERIFY2(status->text().contains("Searching"_L1), qPrintable(status->text()));
        QCOMPARE(model->rowCount(), 900); // the old rows stay until the hits come
        QTRY_VERIFY(!panel.isReading());
        QCOMPARE(model->rowCount(), 300);
        QVERIFY2(status->text().contains("300 event"_L1), qPrintable(status->text()));
        const auto *source = dynamic_cast<const TranscriptHistorySource *>(model->source());
        QVERIFY(source);
        // Hit 150 is exchange 150's call, read by id from the answer's page starts.
        const QByteArray middle = QJsonDocument(model->event(150)->toJson()).toJson();
        QVERIFY2(middle.contains("\"needle 150\""), middle.constData());
        QCOMPARE(source->offsetReads(), 0);
    }

    void aSessionOfAHistoryFileIsReadOffTheGuiThreadAndSoughtById()
    {
        HistoryFile file;
        QVERIFY2(file.open(), qPrintable(file.error));
        HistoryPanel panel(&file.catalog);
        panel.resize(900, 500);
        panel.show();
        panel.setServer(u"alpha"_s);
        TranscriptModel *model = panel.eventModel();
        auto *status = panel.findChild<QLabel *>(u"historyStatus"_s);
        QVERIFY(panel.isReading()); // asked, not read here
        QCOMPARE(model->rowCount(), 0);
        QVERIFY2(status->text().contains("Reading"_L1), qPrintable(status->text()));
        grab(&panel, u"history-file-reading"_s);
        QTRY_VERIFY(!panel.isReading());
        QCOMPARE(model->rowCount(), 900);
        QVERIFY2(status->text().contains("900 event"_L1), qPrintable(status->text()));
        auto *table = panel.findChild<QTableView *>(u"historyEvents"_s);
        table->scrollTo(model->index(601, 0), QAbstractItemView::PositionAtCenter);
        table->setCurrentIndex(model->index(601, 0));
        grab(&panel, u"history-file-session-middle"_s);
        const auto *source = dynamic_cast<const TranscriptHistorySource *>(model->source());
        QVERIFY(source);
        QCOMPARE(source->offsetReads(), 0); // what the shown table asked was read by id
        // Row 601 is exchange 200's answer (alpha has three events an exchange).
        const QJsonObject row = model->event(601)->toJson();
        QCOMPARE(row.value("dir"_L1).toString(), u"recv"_s);
        QCOMPARE(row["msg"_L1]["id"_L1].toInt(), 200);
        QCOMPARE(source->offsetReads(), 0);
    }

    void hitsOfASearchGivenUpOnAreNotShown()
    {
        HistoryFile file;
        QVERIFY2(file.open(), qPrintable(file.error));
        HistoryPanel panel(&file.catalog);
        panel.setServer(u"alpha"_s);
        QTRY_VERIFY(!panel.isReading());
        auto *search = panel.findChild<QLineEdit *>(u"historySearch"_s);
        search->setText(u"needle"_s);
        QTest::keyClick(search, Qt::Key_Return);
        QVERIFY(panel.isReading());
        search->clear(); // the session's events again
        QTRY_VERIFY(!panel.isReading());
        QCOMPARE(panel.eventModel()->rowCount(), 900);
        QVERIFY(panel.findChild<QLabel *>(u"historyStatus"_s)->text().contains("900 event"_L1));
        // Another search asked while one is counted: the hits shown are the last one's.
        search->setText(u"needle"_s);
        QTest::keyClick(search, Qt::Key_Return);
        search->setText(u"nowhere-in-this-history"_s);
        QTest::keyClick(search, Qt::Key_Return);
        QTRY_VERIFY(!panel.isReading());
        QCOMPARE(panel.eventModel()->rowCount(), 0);
    }

    void clearHistoryAsksFirst_data()
    {
        QTest::addColumn<bool>("yes");
        QTest::addColumn<int>("clears");
        QTest::newRow("Cancel keeps everything") << false << 0;
        QTest::newRow("Yes deletes everything") << true << 1;
    }
    void clearHistoryAsksFirst()
    {
        QFETCH(bool, yes);
        QFETCH(int, clears);
        FakeCatalog catalog;
        HistoryPanel panel(&catalog);
        panel.setServer(u"alpha"_s);
        panel.findChild<QPushButton *>(u"clearHistory"_s)->click();
        auto *box = panel.findChild<QMessageBox *>(u"clearHistoryConfirm"_s);
        QVERIFY(box);
        QCOMPARE(catalog.clears, 0);
        box->button(yes ? QMessageBox::Yes : QMessageBox::Cancel)->click();
        QCOMPARE(catalog.clears, clears);
        QCOMPARE(panel.findChild<QListWidget *>(u"historySessions"_s)->count(), yes ? 0 : 2);
    }

    void aClearAskedFromElsewhereShowsTheWorkspaceAndAsksFirst()
    {
        FakeCatalog workspace, file;
        HistoryPanel panel(&workspace);
        panel.setServer(u"alpha"_s);
        panel.addSource(u"recorded.jsonl"_s, &file);
        QCOMPARE(panel.currentCatalog(), &file);
        panel.requestClear();
        QCOMPARE(panel.currentCatalog(), &workspace); // what is cleared is what is shown
        auto *box = panel.findChild<QMessageBox *>(u"clearHistoryConfirm"_s);
        QVERIFY(box);
        box->button(QMessageBox::Yes)->click();
        QCOMPARE(workspace.clears, 1);
        QCOMPARE(file.clears, 0);
    }

    void anOpenedFileIsASourceWithItsOwnServers()
    {
        FakeCatalog workspace, file;
        HistoryPanel panel(&workspace);
        panel.setServer(u"beta"_s);
        auto *sessions = panel.findChild<QListWidget *>(u"historySessions"_s);
        QCOMPARE(sessions->count(), 1);
        panel.addSource(u"recorded.jsonl"_s, &file);
        auto *source = panel.findChild<QComboBox *>(u"historySource"_s);
        auto *servers = panel.findChild<QComboBox *>(u"historyFileServer"_s);
        QCOMPARE(source->count(), 2);
        QCOMPARE(source->currentText(), u"recorded.jsonl"_s);
        QCOMPARE(panel.currentCatalog(), &file);
        // The file's first server, not the window's "beta".
        QCOMPARE(servers->count(), 2);
        QCOMPARE(panel.currentServer(), u"alpha"_s);
        QCOMPARE(sessions->count(), 2);
        // The window picking another server does not change what the file shows.
        panel.setServer(u"gamma"_s);
        QCOMPARE(sessions->count(), 2);
        QVERIFY(!panel.findChild<QPushButton *>(u"clearHistory"_s)->isEnabled());
        source->setCurrentIndex(0);
        QCOMPARE(panel.currentCatalog(), &workspace);
        QCOMPARE(panel.currentServer(), u"gamma"_s);
        QCOMPARE(sessions->count(), 0);
        FakeCatalog other;
        panel.addSource(u"other.jsonl"_s, &other);
        QCOMPARE(panel.currentCatalog(), &other);
        panel.removeSource(&other);
        QCOMPARE(source->count(), 2);
        panel.removeSource(&file);
        QCOMPARE(source->count(), 1);
        QCOMPARE(panel.currentCatalog(), &workspace);
    }

    void showOnTimelineAsksForThePickedSession()
    {
        FakeCatalog catalog;
        HistoryPanel panel(&catalog);
        auto *show = panel.findChild<QPushButton *>(u"showOnTimeline"_s);
        QVERIFY(!show->isEnabled()); // no server, no session
        panel.setServer(u"alpha"_s);
        QVERIFY(show->isEnabled());
        panel.findChild<QListWidget *>(u"historySessions"_s)->setCurrentRow(1);
        QSignalSpy asked(&panel, &HistoryPanel::timelineRequested);
        show->click();
        QCOMPARE(asked.count(), 1);
        const auto session = asked.first().first().value<RecordedSession>();
        QCOMPARE(session.id, 1);
        QCOMPARE(session.generation, 1);
    }
};

QTEST_MAIN(TestHistoryPanel)
#include "tst_historypanel.moc"
