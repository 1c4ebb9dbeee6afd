// SPDX-License-Identifier: MIT
// The Doctor tab in the real window, on two demo servers over stdio (docs/window.md): a
// server that breaks a rule live (the demo's print-garbage tool writes a line that is not
// JSON to stdout) gets the finding on its Doctor tab and a count on its row, and nothing of
// it shows under the other server; double-clicking the finding selects its message in the
// transcript. Run probes the selected server on a session of its own and shows what it found
// beside the live findings (the demo is clean but for its slow flood tool). A row with no
// configuration to connect with (a proxied client's session) says why it cannot Run. A window
// that shows its transcript from the history opens a finding's message there too.
#include "application/doctor/doctorcontroller.h"
#include "application/doctor/doctorfindingmodel.h"
#include "application/doctor/doctorfindingstore.h"
#include "application/servers/serverlistmodel.h"
#include "application/servers/serverstore.h"
#include "application/transcript/transcriptmodel.h"
#include "application/transcript/transcriptstore.h"
#include "doctor/doctorpanel.h"
#include "engine/corehost.h"
#include "liverecording.h"
#include "testpaths.h"
#include "tools/toolspanel.h"
#include "transcript/transcriptpanel.h"
#include "window/mainwindow.h"

#include <QJsonDocument>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <QTreeView>

using namespace Sonde;
using namespace Qt::StringLiterals;
using Direction = TranscriptEvent::Direction;

namespace {
const QByteArray Garbage = "this line is not JSON: the demo server printed it on purpose";
const QString NotJsonRpc = u"stdio.non-jsonrpc-stdout"_s;
} // namespace

class TestDoctorWindow : public QObject
{
    Q_OBJECT

    std::unique_ptr<CoreHost> m_host;
    std::unique_ptr<MainWindow> m_window;

    ToolsPanel *tools() const { return m_window->toolsPanel(); }
    DoctorPanel *doctor() const { return m_window->doctorPanel(); }
    DoctorFindingStore *findings() const { return m_window->doctor()->findings(); }
    QTreeView *tree() const { return doctor()->findChild<QTreeView *>(u"doctorFindings"_s); }
    QPushButton *button(const QString &name) const
    {
        return doctor()->findChild<QPushButton *>(name);
    }
    int toolRows() const
    {
        return tools()->findChild<QListView *>(u"toolList"_s)->model()->rowCount();
    }
    // The server's row in the list, as the view shows it.
    QModelIndex row(const QString &server) const
    {
        const auto *list = m_window->findChild<QListView *>(u"serverList"_s);
        return list->model()->index(m_window->serverStore()->indexOf(server), 0);
    }
    QString rowTitle(const QString &server) const
    {
        return row(server).data().toString().section(u'\n', 0, 0);
    }
    bool has(const QString &server, const QString &check, bool live) const
    {
        for (const DoctorFinding &f : findings()->findings(server))
            if (f.checkId == check && f.live == live)
                return true;
        return false;
    }
    QString findingList(const QString &server) const
    {
        QStringList ids;
        for (const DoctorFinding &f : findings()->findings(server))
            ids << f.checkId + (f.live ? u" (live)"_s : u" (run)"_s) + u": "_s + f.message;
        return ids.join(u"; "_s);
    }

    void select(const QString &server)
    {
        m_window->selectServer(server);
        QCOMPARE(m_window->currentServer(), server);
    }

    // For looking at: SONDE_SCREENSHOT_DIR=dir saves the window as dir/<name>.png.
    void grab(const QString &name) const
    {
        const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            m_window->grab().save(dir + u'/' + name + u".png"_s);
    }

    static ServerConfig demo(const QString &name)
    {
        ServerConfig c;
        c.name = name;
        c.program = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
        return c;
    }

private Q_SLOTS:
    void init()
    {
        m_host = std::make_unique<CoreHost>();
        m_window = std::make_unique<MainWindow>(*m_host);
        m_window->addServer(demo(u"a"_s));
        m_window->addServer(demo(u"b"_s));
        m_window->resize(1280, 800);
        m_window->show();
        m_window->tabs()->setCurrentWidget(tools());
        select(u"b"_s);
        QTRY_VERIFY_WITH_TIMEOUT(toolRows() >= 19, 10000);
        select(u"a"_s);
        QTRY_VERIFY_WITH_TIMEOUT(toolRows() >= 19, 10000);
    }

    void cleanup()
    {
        QSignalSpy down(m_host.get(), &CoreHost::shutdownFinished);
        m_host->shutdown();
        QVERIFY(down.wait(5000));
        m_window.reset();
        m_host.reset();
    }

    void theDoctorIsTheLastTab()
    {
        QTabWidget *tabs = m_window->tabs();
        QCOMPARE(tabs->tabText(tabs->count() - 1), u"Doctor"_s);
        // The tabs before it keep their indexes (--tab, a saved workspace's tab).
        QCOMPARE(tabs->tabText(4), u"Transcript"_s);
        QCOMPARE(tabs->tabText(9), u"History"_s);
        tabs->setCurrentIndex(tabs->count() - 1);
        QCOMPARE(tabs->currentWidget(), doctor());
    }

    void aLiveFindingShowsOnItsServerAndOpensItsMessage()
    {
        QCOMPARE(rowTitle(u"a"_s), u"a"_s);
        QVERIFY(tools()->selectTool(u"print-garbage"_s));
        tools()->requestCall();
        QTRY_VERIFY2_WITH_TIMEOUT(has(u"a"_s, NotJsonRpc, true), qPrintable(findingList(u"a"_s)),
                                  10000);
        // The demo breaks nothing else, and b nothing at all.
        QCOMPARE(findings()->findings(u"a"_s).size(), 1);
        QCOMPARE(findings()->findings(u"b"_s).size(), 0);

        // The row says so without the tab open, in words and in its accessible text.
        QCOMPARE(rowTitle(u"a"_s), u"a · 1 error"_s);
        QCOMPARE(row(u"a"_s).data(ServerListModel::DoctorCountRole).toInt(), 1);
        QVERIFY(row(u"a"_s).data(Qt::ToolTipRole).toString().contains(u"1 error"_s));
        QCOMPARE(rowTitle(u"b"_s), u"b"_s);

        m_window->tabs()->setCurrentWidget(doctor());
        DoctorFindingModel *model = doctor()->model();
        const QModelIndex errors = model->groupIndex(DoctorSeverity::Error);
        QCOMPARE(errors.data().toString(), u"Errors (1)"_s);
        QCOMPARE(model->rowCount(model->groupIndex(DoctorSeverity::Warning)), 0);
        const QModelIndex first = model->index(0, 0, errors);
        QCOMPARE(model->index(0, DoctorFindingModel::Check, errors).data().toString(), NotJsonRpc);
        QCOMPARE(model->index(0, DoctorFindingModel::From, errors).data().toString(), u"live"_s);
        // Selected on its own: the detail has the message, the rule with its link, the fix and
        // what the server sent.
        QCOMPARE(tree()->currentIndex().siblingAtColumn(0), first);
        const auto *detail = doctor()->findChild<QTextBrowser *>(u"doctorFindingText"_s);
        QVERIFY2(detail->toPlainText().contains(u"MUST NOT write anything to its stdout"_s),
                 qPrintable(detail->toPlainText()));
        QVERIFY(detail->toHtml().contains(u"href=\"https://modelcontextprotocol.io/"_s));
        QVERIFY(detail->toPlainText().contains(u"How to fix it"_s));
        const auto *response = doctor()->findChild<QPlainTextEdit *>(u"doctorResponse"_s);
        QCOMPARE(response->toPlainText(), QString::fromUtf8(Garbage));
        QVERIFY(button(u"doctorOpenInTranscript"_s)->isEnabled());
        grab(u"doctor-live"_s);

        // Another server's tab has none of it; back on a, it is there again.
        select(u"b"_s);
        QCOMPARE(model->server(), u"b"_s);
        QCOMPARE(model->rowCount(model->groupIndex(DoctorSeverity::Error)), 0);
        QVERIFY(!button(u"doctorOpenInTranscript"_s)->isEnabled());
        select(u"a"_s);
        QCOMPARE(model->rowCount(model->groupIndex(DoctorSeverity::Error)), 1);

        // Double-click: the Transcript tab, on the line the server printed.
        const QModelIndex at = model->index(0, 0, model->groupIndex(DoctorSeverity::Error));
        tree()->scrollTo(at);
        const QPoint centre = tree()->visualRect(at).center();
        QTest::mouseClick(tree()->viewport(), Qt::LeftButton, {}, centre);
        QTest::mouseDClick(tree()->viewport(), Qt::LeftButton, {}, centre);
        QCOMPARE(m_window->tabs()->currentWidget(), m_window->transcriptPanel());
        const int selected = m_window->transcriptPanel()->currentStoreRow();
        QVERIFY(selected >= 0);
        const TranscriptEvent &e = m_window->transcriptStore()->event(selected);
        QCOMPARE(e.server, u"a"_s);
        QCOMPARE(e.direction, TranscriptEvent::Direction::Incoming);
        QCOMPARE(e.raw, Garbage);
    }

    void aRunFinishesAndShowsWhatItFoundBesideTheLiveFindings()
    {
        m_window->tabs()->setCurrentWidget(doctor());
        QPushButton *run = button(u"doctorRun"_s);
        QPushButton *stop = button(u"doctorStop"_s);
        QVERIFY(run->isEnabled());
        QVERIFY(!stop->isEnabled());
        QTest::mouseClick(run, Qt::LeftButton);
        QVERIFY(m_window->doctor()->isRunning(u"a"_s));
        QVERIFY(!run->isEnabled());
        QVERIFY(stop->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(doctor()->runText().startsWith(u"Running: "_s), 5000);
        // b is not running: its tab offers Run.
        select(u"b"_s);
        QVERIFY(run->isEnabled());
        select(u"a"_s);

        QTRY_COMPARE_WITH_TIMEOUT(findings()->run(u"a"_s).phase,
                                  DoctorFindingStore::Run::Phase::Finished, 60000);
        const DoctorReport report = findings()->run(u"a"_s).report;
        QVERIFY(report.connected);
        QVERIFY2(report.exitCode() == 0, qPrintable(findingList(u"a"_s)));
        QVERIFY2(has(u"a"_s, u"tools.call-no-answer"_s, false), qPrintable(findingList(u"a"_s)));
        QVERIFY(run->isEnabled());
        QVERIFY(!stop->isEnabled());
        QVERIFY2(doctor()->runText().startsWith(u"Last run ("_s), qPrintable(doctor()->runText()));
        QVERIFY(doctor()->runText().contains(u"1 info"_s));
        // Information is not a problem: the row counts none.
        QCOMPARE(row(u"a"_s).data(ServerListModel::DoctorCountRole).toInt(), 0);

        // The run's finding is in its group, marked as the run's, with its evidence.
        DoctorFindingModel *model = doctor()->model();
        const QModelIndex info = model->groupIndex(DoctorSeverity::Info);
        QVERIFY(model->rowCount(info) >= 1);
        QCOMPARE(model->index(0, DoctorFindingModel::From, info).data().toString(), u"run"_s);
        QVERIFY(doctor()->selectFinding(u"tools.call-no-answer"_s));
        const auto *detail = doctor()->findChild<QTextBrowser *>(u"doctorFindingText"_s);
        QVERIFY(detail->toPlainText().contains(u"Found by the last Run"_s));
        const DoctorFinding shown = tree()
                                        ->currentIndex()
                                        .siblingAtColumn(0)
                                        .data(DoctorFindingModel::FindingRole)
                                        .value<DoctorFinding>();
        QCOMPARE(shown.checkId, u"tools.call-no-answer"_s);
        QVERIFY(!shown.evidence.request.isEmpty() || !shown.evidence.response.isEmpty());
        const auto *request = doctor()->findChild<QPlainTextEdit *>(u"doctorRequest"_s);
        const auto *response = doctor()->findChild<QPlainTextEdit *>(u"doctorResponse"_s);
        // Each pane shows its side of the evidence (a frame indented), or says there is none.
        for (const auto &[pane, evidence] : {std::pair{request, shown.evidence.request},
                                             std::pair{response, shown.evidence.response}}) {
            const QJsonDocument json = QJsonDocument::fromJson(evidence);
            const QString expected = evidence.isEmpty() ? u"(none)"_s
                                     : json.isNull()
                                         ? QString::fromUtf8(evidence)
                                         : QString::fromUtf8(json.toJson(QJsonDocument::Indented));
            QCOMPARE(pane->toPlainText().trimmed(), expected.trimmed());
        }
        // Its messages were the run's own session's, not the transcript's.
        QVERIFY(!button(u"doctorOpenInTranscript"_s)->isEnabled());
        grab(u"doctor-run"_s);
    }

    void aFindingOpensItsMessageInATranscriptReadFromTheHistory()
    {
        SondeTest::LiveRecording rec;
        QVERIFY(rec.start());
        CoreHost host;
        {
            MainWindow window(host);
            connect(&host, &CoreHost::transcriptBatch, &rec.recorder, &HistoryRecorder::record);
            ServerConfig c;
            c.name = u"quiet"_s;
            c.program = u"/nonexistent/quiet-server"_s;
            window.addServer(c, {}, false);
            window.showRecording(&rec.recorder, rec.reader);
            window.show();
            // The session's traffic as the engine batches it: a stderr line, then a banner on
            // stdout.
            const auto line = [](Direction direction, const QByteArray &raw) {
                TranscriptEvent e = SondeTest::liveWire(1, direction, raw, u"quiet"_s);
                return e;
            };
            Q_EMIT host.transcriptBatch({line(Direction::Stderr, "starting"),
                                         line(Direction::Incoming, "quiet server v1 ready")});
            DoctorFindingStore *store = window.doctor()->findings();
            QTRY_COMPARE(store->problemCount(u"quiet"_s), 1);
            TranscriptPanel *panel = window.transcriptPanel();
            QTRY_COMPARE(panel->recordingModel()->rowCount(), 2);

            DoctorPanel *doctorTab = window.doctorPanel();
            window.tabs()->setCurrentWidget(doctorTab);
            QVERIFY(doctorTab->selectFinding(NotJsonRpc));
            doctorTab->findChild<QPushButton *>(u"doctorOpenInTranscript"_s)->click();
            QCOMPARE(window.tabs()->currentWidget(), panel);
            auto *table = panel->findChild<QTableView *>(u"transcriptTable"_s);
            const TranscriptEvent *shown = panel->eventAt(table->currentIndex().row());
            QVERIFY(shown);
            QCOMPARE(shown->direction, Direction::Incoming);
            QCOMPARE(shown->raw, QByteArray("quiet server v1 ready"));
        }
        QSignalSpy down(&host, &CoreHost::shutdownFinished);
        host.shutdown();
        QVERIFY(down.wait(5000));
    }

    void aNewRunTakesTheLastRunsFindingOffTheDetail()
    {
        DoctorFindingStore store;
        store.addServer(u"s"_s);
        DoctorPanel panel(&store);
        panel.showServer(u"s"_s, QString());
        store.runStarted(u"s"_s);
        DoctorFinding f;
        f.checkId = u"ping.not-answered"_s;
        f.message = u"ping got no answer within 5000 ms"_s;
        store.addFindings(u"s"_s, {f});
        const auto *detail = panel.findChild<QTextBrowser *>(u"doctorFindingText"_s);
        QVERIFY(detail->toPlainText().contains(f.message)); // the first finding, selected
        store.runFinished(u"s"_s, DoctorReport(), false);
        store.runStarted(u"s"_s);
        QVERIFY2(detail->toPlainText().startsWith(u"Nothing found"_s),
                 qPrintable(detail->toPlainText()));
        QCOMPARE(panel.runText(), u"Running…"_s);
    }

    void aRowWithNothingToConnectWithSaysWhyItCannotRun()
    {
        DoctorFindingStore store;
        store.addServer(u"client → server"_s);
        DoctorPanel panel(&store);
        const QString why = u"a client's session seen through sonde-cli proxy"_s;
        panel.showServer(u"client → server"_s, why);
        QVERIFY(!panel.findChild<QPushButton *>(u"doctorRun"_s)->isEnabled());
        QVERIFY(!panel.findChild<QPushButton *>(u"doctorStop"_s)->isEnabled());
        QCOMPARE(panel.runText(), why);
        QSignalSpy asked(&panel, &DoctorPanel::runRequested);
        panel.findChild<QPushButton *>(u"doctorRun"_s)->click();
        QCOMPARE(asked.size(), 0);
        panel.showServer(u"client → server"_s, QString());
        QVERIFY(panel.findChild<QPushButton *>(u"doctorRun"_s)->isEnabled());
    }
};

QTEST_MAIN(TestDoctorWindow)
#include "tst_doctorwindow.moc"
