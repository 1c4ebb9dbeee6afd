// SPDX-License-Identifier: MIT
// File > Open transcript… in the real window: Sonde's JSON Lines and the MCP Inspector's export
// open offline into histories of their own, each a source of the History tab with its servers,
// sessions and events, and a past session goes on the timeline; a bad file gets a message
// naming the line or the reason, a cancel stops the read, Close file takes an opened file out
// again (its temporary history deleted, the timeline back to live if it showed it), and the
// workspace's history keeps exactly the rows it had. (For looking at: SONDE_SCREENSHOT_DIR=dir
// saves the History tab as dir/window-opened-file.png, the timeline as
// dir/window-timeline-recorded.png, and the tab before and after Close file as
// dir/window-close-file-before.png and dir/window-close-file-after.png.)
#include "application/history/offlinehistory.h"
#include "application/history/storehistorycatalog.h"
#include "application/transcript/transcriptmodel.h"
#include "application/transcript/transcriptpagesource.h"
#include "engine/corehost.h"
#include "history/historypanel.h"
#include "history/offlinehistoryopener.h"
#include "historystore.h"
#include "recordedcall.h"
#include "timeline/timelinetab.h"
#include "timeline/timelinewidget.h"
#include "window/mainwindow.h"
#include "window/mainwindowactions.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

const char InspectorFixture[] = "../fixtures/inspector-protocol-demo-2026-08-19T15-02-09.412Z.json";

QJsonObject call(const QString &server, int gen, qint64 t, int id, bool answer)
{
    return SondeTest::recordedCall(server, gen, t, id, answer);
}

// A JSON Lines transcript as sonde-cli --transcript writes it: two servers, two generations
// of the first.
QString writeJsonl(const QTemporaryDir &dir)
{
    QFile f(dir.filePath(u"recorded.jsonl"_s));
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write the JSONL file");
    int id = 0;
    for (const auto &[server, gen, calls] :
         {std::tuple{u"files"_s, 1, 3}, std::tuple{u"files"_s, 2, 2}, std::tuple{u"web"_s, 1, 4}}) {
        for (int i = 0; i < calls; ++i, ++id) {
            f.write(QJsonDocument(call(server, gen, id * 10, id, false))
                        .toJson(QJsonDocument::Compact) +
                    '\n');
            f.write(QJsonDocument(call(server, gen, id * 10 + 4, id, true))
                        .toJson(QJsonDocument::Compact) +
                    '\n');
        }
    }
    return f.fileName();
}

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    QFile f(dir.filePath(name));
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(name));
    f.write(bytes);
    return f.fileName();
}

qint64 rowsIn(const QString &db)
{
    HistoryStore store;
    QString error;
    if (!store.open(db, &error))
        return -1;
    return store.count({});
}

void grab(QWidget *w, const QString &name)
{
    if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty())
        w->grab().save(dir + u'/' + name + u".png"_s);
}

} // namespace

class TestWindowOffline : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_workspaceDb;
    std::unique_ptr<CoreHost> m_host;
    std::unique_ptr<MainWindow> m_window;
    StoreHistoryCatalog m_workspace;

    HistoryPanel *panel() const { return m_window->historyPanel(); }
    QComboBox *sources() const { return panel()->findChild<QComboBox *>(u"historySource"_s); }
    QComboBox *fileServers() const
    {
        return panel()->findChild<QComboBox *>(u"historyFileServer"_s);
    }
    QListWidget *sessions() const
    {
        return panel()->findChild<QListWidget *>(u"historySessions"_s);
    }
    QPushButton *closeFile() const
    {
        return panel()->findChild<QPushButton *>(u"closeHistoryFile"_s);
    }
    QPushButton *showOnTimeline() const
    {
        return panel()->findChild<QPushButton *>(u"showOnTimeline"_s);
    }

    // Opens `path` through the opener and waits for the outcome: the message, "" when opened.
    QString openAndWait(const QString &path, bool *ok)
    {
        QSignalSpy opened(m_window->offlineHistory(), &OfflineHistoryOpener::opened);
        QSignalSpy failed(m_window->offlineHistory(), &OfflineHistoryOpener::failed);
        m_window->offlineHistory()->open(path);
        [&] { QTRY_VERIFY_WITH_TIMEOUT(opened.count() + failed.count() == 1, 20000); }();
        *ok = opened.count() == 1;
        return *ok ? opened.first().at(1).toString() : failed.first().first().toString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_workspaceDb = m_dir.filePath(u"workspace.sqlite"_s);
        HistoryStore store;
        QString error;
        QVERIFY2(store.open(m_workspaceDb, &error, u"window"_s), qPrintable(error));
        QVERIFY(store.appendRecords(
            {call(u"demo"_s, 1, 0, 1, false), call(u"demo"_s, 1, 3, 1, true)}, &error));
        QVERIFY2(m_workspace.open(m_workspaceDb, &error), qPrintable(error));
        m_host = std::make_unique<CoreHost>();
        m_window = std::make_unique<MainWindow>(*m_host);
        m_window->setHistoryCatalog(&m_workspace);
        m_window->resize(1280, 760);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanupTestCase()
    {
        m_window.reset();
        QSignalSpy down(m_host.get(), &CoreHost::shutdownFinished);
        m_host->shutdown();
        down.wait(5000);
    }

    void theFileMenuOpensATranscriptWithItsOwnShortcut()
    {
        QAction *open = m_window->actions()->action(MainWindowActions::OpenTranscript);
        QCOMPARE(open->objectName(), u"action:openTranscript"_s);
        QCOMPARE(open->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
        QVERIFY(open->shortcut() !=
                m_window->actions()->action(MainWindowActions::Import)->shortcut());
    }

    void aJsonlFileOpensAsASourceOfItsOwn()
    {
        const qint64 before = rowsIn(m_workspaceDb);
        bool ok = false;
        const QString message = openAndWait(writeJsonl(m_dir), &ok);
        QVERIFY2(ok, qPrintable(message));
        QVERIFY2(message.contains("18 event(s) read"_L1), qPrintable(message));
        QCOMPARE(m_window->tabs()->currentWidget(), panel());
        QCOMPARE(sources()->count(), 2);
        QCOMPARE(sources()->currentText(), u"recorded.jsonl"_s);
        QVERIFY(fileServers()->isVisible());
        QCOMPARE(fileServers()->count(), 2);
        QCOMPARE(fileServers()->currentText(), u"files"_s);
        // Newest first: generation 2 (two calls), then generation 1 (three).
        QCOMPARE(sessions()->count(), 2);
        QVERIFY(sessions()->item(0)->text().contains("Generation 2"_L1));
        QTRY_COMPARE(panel()->eventModel()->rowCount(), 4);
        sessions()->setCurrentRow(1);
        QTRY_COMPARE(panel()->eventModel()->rowCount(), 6);
        fileServers()->setCurrentText(u"web"_s);
        QCOMPARE(sessions()->count(), 1);
        QTRY_COMPARE(panel()->eventModel()->rowCount(), 8);
        // Clear history is the workspace's: an opened file is not cleared.
        QVERIFY(!panel()->findChild<QPushButton *>(u"clearHistory"_s)->isEnabled());
        QCOMPARE(rowsIn(m_workspaceDb), before);
    }

    void theInspectorsExportOpensUnderItsServer()
    {
        const qint64 before = rowsIn(m_workspaceDb);
        bool ok = false;
        const QString message = openAndWait(QFINDTESTDATA(InspectorFixture), &ok);
        QVERIFY2(ok, qPrintable(message));
        QCOMPARE(sources()->count(), 3);
        QCOMPARE(sources()->currentText(),
                 u"inspector-protocol-demo-2026-08-19T15-02-09.412Z.json"_s);
        QCOMPARE(fileServers()->count(), 1);
        QCOMPARE(fileServers()->currentText(), u"demo"_s);
        QCOMPARE(sessions()->count(), 1);
        QTRY_COMPARE(panel()->eventModel()->rowCount(), 15);
        QCOMPARE(
            panel()->eventModel()->event(0)->toJson().value("msg"_L1).toObject().value("method"_L1),
            u"initialize"_s);
        QCOMPARE(rowsIn(m_workspaceDb), before);
        grab(m_window.get(), u"window-opened-file"_s);
    }

    void aPastSessionGoesOnTheTimelineAndBack()
    {
        QVERIFY(sources()->currentIndex() > 0); // the Inspector's file, from the row before
        auto *show = panel()->findChild<QPushButton *>(u"showOnTimeline"_s);
        QVERIFY(show->isEnabled());
        show->click();
        TimelineTab *tab = m_window->timelineTab();
        QCOMPARE(m_window->tabs()->currentWidget(), tab);
        QVERIFY(tab->isRecorded());
        QVERIFY2(
            tab->bannerText().startsWith("Recorded session: demo, generation 1, 2026-08-19"_L1),
            qPrintable(tab->bannerText()));
        QVERIFY(tab->bannerText().contains("(not live)"_L1));
        const TimelineLayout *layout = m_window->timeline()->timelineLayout();
        QCOMPARE(layout->laneCount(), 1);
        QCOMPARE(layout->laneName(0), u"demo"_s);
        // Six requests answered: the client's five and the server's roots/list.
        QCOMPARE(layout->spans(0).size(), 6);
        QVERIFY(!layout->hasOpenSpans());
        grab(m_window.get(), u"window-timeline-recorded"_s);
        tab->findChild<QPushButton *>(u"backToLive"_s)->click();
        QVERIFY(!tab->isRecorded());
        QCOMPARE(m_window->timeline()->store(), m_window->transcriptStore());
        QVERIFY(!tab->findChild<QWidget *>(u"recordedBanner"_s)->isVisible());
    }

    void theWorkspaceIsStillASource()
    {
        panel()->setServer(u"demo"_s); // as the window does when its server "demo" is picked
        sources()->setCurrentIndex(0);
        QVERIFY(!fileServers()->isVisible());
        QCOMPARE(sessions()->count(), 1);
        QTRY_COMPARE(panel()->eventModel()->rowCount(), 2);
        QVERIFY(panel()->findChild<QPushButton *>(u"clearHistory"_s)->isEnabled());
    }

    void badFilesAreRefusedWithTheReason_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        QByteArray inspector;
        {
            QFile f(QFINDTESTDATA(InspectorFixture));
            if (f.open(QIODevice::ReadOnly))
                inspector = f.readAll();
        }
        const QByteArray cut = inspector.left(inspector.indexOf("\"roots/list\""));
        QTest::newRow("a truncated Inspector export names its line")
            << u"cut.json"_s << cut << u"not JSON at line %1,"_s.arg(cut.count('\n') + 1);
        QTest::newRow("a text file says how it starts")
            << u"notes.txt"_s << QByteArray("meeting notes\n") << u"it starts with"_s;
        QTest::newRow("an empty file says so")
            << u"empty.jsonl"_s << QByteArray() << u"the file is empty"_s;
        QTest::newRow("a JSONL file of no records names its first bad line")
            << u"bad.jsonl"_s << QByteArray("{\"hello\":1}\n{\"dir\":\"sideways\"}\n")
            << u"line 1: no \"dir\""_s;
    }

    void badFilesAreRefusedWithTheReason()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        const qint64 before = rowsIn(m_workspaceDb);
        const int count = sources()->count();
        bool ok = true;
        const QString said = openAndWait(writeFile(m_dir, name, bytes), &ok);
        QVERIFY(!ok);
        QVERIFY2(said.contains(message), qPrintable(said));
        QCOMPARE(sources()->count(), count);
        QCOMPARE(rowsIn(m_workspaceDb), before);
        QTRY_VERIFY(m_window->findChild<QMessageBox *>(u"openTranscriptError"_s));
        for (auto *box : m_window->findChildren<QMessageBox *>(u"openTranscriptError"_s))
            box->close();
    }

    void aCancelledReadAddsNoSource()
    {
        QByteArray many;
        for (int i = 0; i < 200'000; ++i)
            many +=
                QJsonDocument(call(u"big"_s, 1, i, i, i % 2)).toJson(QJsonDocument::Compact) + '\n';
        const QString path = writeFile(m_dir, u"big.jsonl"_s, many);
        const int count = sources()->count();
        QSignalSpy failed(m_window->offlineHistory(), &OfflineHistoryOpener::failed);
        m_window->offlineHistory()->open(path);
        QVERIFY(m_window->offlineHistory()->histories().last()->isReading());
        auto *progress = m_window->findChild<QProgressDialog *>(u"openTranscriptProgress"_s);
        QVERIFY(progress);
        QPushButton *cancel = progress->findChild<QPushButton *>();
        QVERIFY(cancel);
        QCOMPARE(cancel->text(), u"Cancel"_s);
        cancel->click();

        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 20000);
        QVERIFY2(failed.first().first().toString().contains("cancelled"_L1),
                 qPrintable(failed.first().first().toString()));
        QCOMPARE(sources()->count(), count);
        for (auto *box : m_window->findChildren<QMessageBox *>(u"openTranscriptError"_s))
            box->close();
    }

    void theWorkspaceSourceCannotBeClosed()
    {
        const qint64 before = rowsIn(m_workspaceDb);
        m_window->tabs()->setCurrentWidget(panel());
        sources()->setCurrentIndex(0);
        QVERIFY(closeFile()->isVisible());
        QVERIFY(!closeFile()->isEnabled());
        QCOMPARE(closeFile()->toolTip(), u"This workspace's history cannot be closed"_s);
        const int count = sources()->count();
        QVERIFY(!m_window->offlineHistory()->close(&m_workspace));
        QCOMPARE(sources()->count(), count);
        QCOMPARE(panel()->currentCatalog(), &m_workspace);
        QCOMPARE(rowsIn(m_workspaceDb), before);
    }

    void closingAnOpenedFileRemovesItsSourceAndDeletesItsTemporaryDatabase()
    {
        const qint64 before = rowsIn(m_workspaceDb);
        bool ok = false;
        const QString message = openAndWait(writeJsonl(m_dir), &ok);
        QVERIFY2(ok, qPrintable(message));
        OfflineHistoryOpener *opener = m_window->offlineHistory();
        OfflineHistory *opened = opener->histories().last();
        const QString db = opened->databasePath();
        QVERIFY2(QFile::exists(db), qPrintable(db));
        QCOMPARE(panel()->currentCatalog(), opened->catalog());
        const int count = sources()->count();
        QVERIFY(closeFile()->isEnabled());
        QVERIFY2(closeFile()->toolTip().startsWith("Close recorded.jsonl"_L1),
                 qPrintable(closeFile()->toolTip()));
        grab(m_window.get(), u"window-close-file-before"_s);

        QSignalSpy closed(opener, &OfflineHistoryOpener::closed);
        QTest::mouseClick(closeFile(), Qt::LeftButton);
        QCOMPARE(closed.count(), 1);
        QCOMPARE(closed.first().first().toString(), u"recorded.jsonl"_s);
        QCOMPARE(sources()->count(), count - 1);
        QCOMPARE(sources()->currentIndex(), 0);
        QCOMPARE(sources()->currentText(), u"This workspace"_s);
        QCOMPARE(panel()->currentCatalog(), &m_workspace);
        QVERIFY(!opener->histories().contains(opened));
        QVERIFY(!QFile::exists(db));
        QVERIFY(!QFileInfo::exists(QFileInfo(db).path()));
        QVERIFY(!closeFile()->isEnabled());
        QVERIFY(!fileServers()->isVisible());
        // The workspace's session of "demo" (the server picked in theWorkspaceIsStillASource).
        QCOMPARE(sessions()->count(), 1);
        QTRY_COMPARE(panel()->eventModel()->rowCount(), 2);
        QCOMPARE(rowsIn(m_workspaceDb), before);
        grab(m_window.get(), u"window-close-file-after"_s);
    }

    void closingItWhileItsSessionIsOnTheTimelineBringsTheTimelineBackToLive()
    {
        bool ok = false;
        const QString message = openAndWait(QFINDTESTDATA(InspectorFixture), &ok);
        QVERIFY2(ok, qPrintable(message));
        const HistoryCatalog *catalog = panel()->currentCatalog();
        showOnTimeline()->click();
        TimelineTab *tab = m_window->timelineTab();
        QVERIFY(tab->isRecorded());
        QCOMPARE(tab->recordedFrom(), catalog);
        m_window->tabs()->setCurrentWidget(panel());
        QTest::mouseClick(closeFile(), Qt::LeftButton);
        QVERIFY(!tab->isRecorded());
        QCOMPARE(tab->recordedFrom(), nullptr);
        QCOMPARE(m_window->timeline()->store(), m_window->transcriptStore());
        QVERIFY(tab->findChild<QWidget *>(u"recordedBanner"_s)->isHidden());
    }

    void closingAnotherFileLeavesTheTimelineOnItsSession()
    {
        bool ok = false;
        QString message = openAndWait(writeJsonl(m_dir), &ok);
        QVERIFY2(ok, qPrintable(message));
        message = openAndWait(QFINDTESTDATA(InspectorFixture), &ok);
        QVERIFY2(ok, qPrintable(message));
        const HistoryCatalog *shown = panel()->currentCatalog();
        showOnTimeline()->click();
        TimelineTab *tab = m_window->timelineTab();
        QVERIFY(tab->isRecorded());
        m_window->tabs()->setCurrentWidget(panel());
        sources()->setCurrentIndex(sources()->count() - 2); // the JSON Lines file
        QCOMPARE(sources()->currentText(), u"recorded.jsonl"_s);
        QTest::mouseClick(closeFile(), Qt::LeftButton);
        QVERIFY(tab->isRecorded());
        QCOMPARE(tab->recordedFrom(), shown);
        tab->showLive();
    }
};

QTEST_MAIN(TestWindowOffline)
#include "tst_window_offline.moc"
