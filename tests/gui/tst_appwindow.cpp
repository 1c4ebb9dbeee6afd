// SPDX-License-Identifier: MIT
// MCP Apps in the real window (docs/apps.md): calling the demo server's counter-app opens its
// App in the answer's App tab; the App's own Increment (pressed in the page, by keyboard)
// reaches the server once, and the transcript marks that call as the App's. Dark mode toggled
// while an App is open reaches the App as host-context-changed (the fixture's App logs the
// theme it was told). Tools only an App may call are left out of the list until asked for. A
// server the user turned Apps off for is not told Sonde renders them.
#include "application/apps/appsession.h"
#include "application/timeline/timelinelayout.h"
#include "application/tools/toollistmodel.h"
#include "application/transcript/transcriptstore.h"
#include "apps/apppane.h"
#include "engine/corehost.h"
#include "protocol/mcpapps.h"
#include "testpaths.h"
#include "timeline/timelinewidget.h"
#include "tools/toolspanel.h"
#include "window/mainwindow.h"
#include "window/mainwindowactions.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QListView>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTimer>

using namespace Sonde;
using namespace Qt::StringLiterals;
using Direction = TranscriptEvent::Direction;

// The user at the window: answers every question Sonde asks (a QMessageBox) with `answer`,
// and keeps what was asked.
struct User
{
    explicit User(QMessageBox::StandardButton answer)
    {
        QObject::connect(&poll, &QTimer::timeout, &poll, [this, answer] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                asked << box->text();
                box->button(answer)->click();
            }
        });
        poll.start(20);
    }
    QStringList asked;
    QTimer poll;
};

class TestAppWindow : public QObject
{
    Q_OBJECT

    std::unique_ptr<CoreHost> m_host;
    std::unique_ptr<MainWindow> m_window;

    ToolsPanel *tools() const { return m_window->toolsPanel(); }
    AppPane *pane() const { return tools()->appPane(); }
    QListView *toolList() const { return tools()->findChild<QListView *>(u"toolList"_s); }
    QStringList toolNames() const
    {
        QStringList names;
        for (int i = 0; i < toolList()->model()->rowCount(); ++i)
            names << toolList()->model()->index(i, 0).data(ToolListModel::NameRole).toString();
        return names;
    }
    void addAndSelect(const ServerConfig &c)
    {
        m_window->addServer(c);
        m_window->selectServer(c.name);
        QTRY_VERIFY_WITH_TIMEOUT(toolList()->model()->rowCount() > 0, 15000);
    }
    static ServerConfig demo(const QString &name = u"demo"_s)
    {
        ServerConfig c;
        c.name = name;
        c.program = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
        return c;
    }
    static ServerConfig fixture()
    {
        ServerConfig c;
        c.name = u"apps"_s;
        c.program = u"node"_s;
        c.arguments = {QString::fromUtf8(SONDE_APPS_FIXTURE_PATH)};
        return c;
    }
    // The tools/call requests of `server` for `tool`, and how many the transcript marks as
    // the App's.
    std::pair<int, int> calls(const QString &server, const QString &tool) const
    {
        const TranscriptStore *t = m_window->transcriptStore();
        int sent = 0;
        int app = 0;
        for (int row = 0; row < t->size(); ++row) {
            const TranscriptEvent &e = t->event(row);
            if (e.server != server || e.direction != Direction::Outgoing)
                continue;
            const QJsonObject m = QJsonDocument::fromJson(e.raw).object();
            if (m.value("method"_L1) != "tools/call"_L1 ||
                m.value("params"_L1).toObject().value("name"_L1) != tool)
                continue;
            ++sent;
            app += t->isAppCall(server, t->entry(row));
        }
        return {sent, app};
    }
    // The store row of the App's tools/call request for `tool`.
    int appRequestRow(const QString &tool) const
    {
        const TranscriptStore *t = m_window->transcriptStore();
        for (int row = 0; row < t->size(); ++row)
            if (t->entry(row).isRequest && t->isAppCall(t->event(row).server, t->entry(row)) &&
                t->event(row).raw.contains(tool.toUtf8()))
                return row;
        return -1;
    }
    void openApp(const QString &tool)
    {
        QVERIFY(tools()->selectTool(tool));
        QSignalSpy painted(pane(), &AppPane::appPainted);
        tools()->requestCall();
        QVERIFY2(painted.wait(30000), qPrintable(pane()->logText()));
        QVERIFY(pane()->session()->initialized());
        QVERIFY(pane()->session()->toolResultDelivered());
    }
    void grab(const QString &name) const
    {
        const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            m_window->grab().save(dir + u'/' + name + u".png"_s);
    }

private Q_SLOTS:
    void init()
    {
        m_host = std::make_unique<CoreHost>();
        // As WindowApplication does: the window renders Apps.
        m_host->setClientCapabilities(
            McpApps::withExtension(CoreHost::defaultClientCapabilities()));
        m_window = std::make_unique<MainWindow>(*m_host);
        m_window->resize(1100, 800);
        m_window->show();
        m_window->tabs()->setCurrentWidget(tools());
    }

    void cleanup()
    {
        if (m_window->actions()->action(MainWindowActions::DarkMode)->isChecked())
            m_window->actions()->action(MainWindowActions::DarkMode)->setChecked(false);
        QSignalSpy down(m_host.get(), &CoreHost::shutdownFinished);
        m_host->shutdown();
        QVERIFY(down.wait(5000));
        m_window.reset();
        m_host.reset();
    }

    void theDemosAppOpensInTheAnswerAndItsIncrementReachesTheServerOnce()
    {
        addAndSelect(demo());
        openApp(u"counter-app"_s);
        auto *answerTabs = tools()->findChild<QTabWidget *>(u"answerTabs"_s);
        QCOMPARE(answerTabs->currentWidget(), pane());
        QVERIFY(pane()->statusText().contains(u"ui://demo/counter-app.html (counter-app)"_s));
        QCOMPARE(calls(u"demo"_s, u"increment-counter"_s), std::make_pair(0, 0));

        // The user presses the page's own button (its only control): Tab into the App's frame,
        // then Space.
        QWidget *page = pane()->findChild<QWidget *>(u"appView"_s);
        QVERIFY(page);
        QWidget *input = page->focusProxy() ? page->focusProxy() : page;
        input->setFocus();
        QSignalSpy answered(pane()->session(), &AppSession::serverCallFinished);
        QTest::keyClick(input, Qt::Key_Tab);
        QTest::keyClick(input, Qt::Key_Space);
        QVERIFY2(answered.wait(15000), qPrintable(pane()->logText()));
        QVERIFY(answered.first().first().value<CallOutcome>().ok());
        // Once on the wire, and marked as the App's (its request and its answer), in the
        // transcript and on the timeline.
        QTRY_COMPARE(calls(u"demo"_s, u"increment-counter"_s), std::make_pair(1, 1));
        const TimelineLayout *timeline = m_window->timeline()->timelineLayout();
        QTRY_VERIFY(timeline->find(appRequestRow(u"increment-counter"_s)).type ==
                    TimelineLayout::HitType::Span);
        const TimelineLayout::Hit span = timeline->find(appRequestRow(u"increment-counter"_s));
        QVERIFY2(timeline->describe(span, QDateTime::currentMSecsSinceEpoch())
                     .contains(u"(the MCP App's call)"_s),
                 qPrintable(timeline->describe(span, QDateTime::currentMSecsSinceEpoch())));
        // The server's own count says it ran once.
        QSignalSpy read(m_host.get(), &CoreHost::callFinished);
        const quint64 ticket =
            m_host->call(u"demo"_s, u"tools/call"_s,
                         {{"name"_L1, "get-counter"_L1}, {"arguments"_L1, QJsonObject{}}});
        QTRY_VERIFY(std::any_of(read.cbegin(), read.cend(), [ticket](const QList<QVariant> &a) {
            return a.first().value<CallOutcome>().ticket == ticket;
        }));
        for (const QList<QVariant> &a : std::as_const(read)) {
            const CallOutcome o = a.first().value<CallOutcome>();
            if (o.ticket == ticket)
                QCOMPARE(o.result.toObject()
                             .value("content"_L1)
                             .toArray()
                             .first()
                             .toObject()
                             .value("text"_L1)
                             .toString(),
                         u"counter = 1"_s);
        }
        QTRY_VERIFY(pane()->logText().contains(u"counter 1"_s));
        grab(u"app-counter"_s);

        // The App belongs to that server's tool: another server's same tool does not show it,
        // and coming back does.
        addAndSelect(demo(u"other"_s));
        QVERIFY(tools()->selectTool(u"counter-app"_s));
        QVERIFY(!answerTabs->isTabVisible(answerTabs->indexOf(pane())));
        grab(u"app-other-server"_s);
        m_window->selectServer(u"demo"_s);
        QTRY_VERIFY(answerTabs->isTabVisible(answerTabs->indexOf(pane())));
        QCOMPARE(tools()->currentToolName(), u"counter-app"_s);
    }

    void darkModeToggledWhileAnAppIsOpenReachesTheApp()
    {
        addAndSelect(fixture());
        openApp(u"theme-watch"_s);
        QTRY_VERIFY(pane()->logText().contains(u"theme light"_s));
        QSignalSpy posted(pane()->session(), &AppSession::postToApp);
        m_window->actions()->action(MainWindowActions::DarkMode)->setChecked(true);
        QTRY_VERIFY2(pane()->logText().contains(u"theme dark"_s), qPrintable(pane()->logText()));
        const auto changed = std::find_if(posted.cbegin(), posted.cend(), [](const auto &a) {
            return a.first().toJsonObject().value("method"_L1) ==
                   "ui/notifications/host-context-changed"_L1;
        });
        QVERIFY(changed != posted.cend());
        const QJsonObject params = changed->first().toJsonObject().value("params"_L1).toObject();
        QCOMPARE(params.value("theme"_L1).toString(), u"dark"_s);
        QVERIFY(!params.value("styles"_L1)
                     .toObject()
                     .value("variables"_L1)
                     .toObject()
                     .value("--color-background-primary"_L1)
                     .toString()
                     .isEmpty());
        grab(u"app-dark"_s);
        m_window->actions()->action(MainWindowActions::DarkMode)->setChecked(false);
        QTRY_COMPARE(pane()->logText().count(u"theme light"_s), 2);
    }

    // What the App asks of the host itself: a message for a chat Sonde does not have (its
    // log), fullscreen in a window of its own (Escape brings it back), and a link, which
    // waits for the user (who says no here).
    void anAppsMessageFullscreenAndLinkGoThroughTheUser()
    {
        addAndSelect(fixture());
        User user(QMessageBox::No);
        openApp(u"asks-host"_s);
        QTRY_VERIFY2(pane()->logText().contains(u"open-link: error"_s),
                     qPrintable(pane()->logText()));
        const QString log = pane()->logText();
        QVERIFY2(log.contains(u"[message] ui/message (user): hello from the App"_s),
                 qPrintable(log));
        QVERIFY(log.contains(u"message: ok"_s));
        QVERIFY(log.contains(u"display-mode fullscreen"_s));
        QVERIFY(log.contains(u"open-link: error -32000 the user did not open the link"_s));
        QCOMPARE(user.asked.size(), 1);
        QVERIFY(user.asked.first().contains(u"https://example.invalid/sonde"_s));
        QWidget *view = pane()->findChild<QWidget *>(u"appView"_s);
        QWidget *own = nullptr;
        // In fullscreen the view has left the pane for a window of its own.
        for (QWidget *w : QApplication::topLevelWidgets())
            if (w != m_window.get() && w->isVisible() &&
                w->windowTitle().contains(u"ui://apps-fixture/asks-host.html"_s))
                own = w;
        QVERIFY(!view);
        QVERIFY(own);
        QSignalSpy posted(pane()->session(), &AppSession::postToApp);
        QTest::keyClick(own, Qt::Key_Escape);
        QTRY_VERIFY(pane()->findChild<QWidget *>(u"appView"_s));
        // The App hears it is inline again.
        QVERIFY(std::any_of(posted.cbegin(), posted.cend(), [](const auto &a) {
            const QJsonObject m = a.first().toJsonObject();
            return m.value("method"_L1) == "ui/notifications/host-context-changed"_L1 &&
                   m.value("params"_L1).toObject().value("displayMode"_L1) == "inline"_L1;
        }));
    }

    // apps.mdx: permissions are denied unless declared; a declared one is asked of the user.
    void aPermissionIsAskedOnlyWhenTheResourceDeclaredIt_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<bool>("userSaysYes");
        QTest::addColumn<int>("questions");
        QTest::addColumn<QString>("logged");
        QTest::newRow("geolocation undeclared: denied without asking")
            << u"geolocation-undeclared"_s << true << 0
            << u"geolocation: denied 1 Geolocation has been disabled in this document"_s;
        QTest::newRow("geolocation declared: asked, and the user says no")
            << u"geolocation-declared"_s << false << 1 << u"geolocation denied by the user"_s;
        QTest::newRow("clipboard undeclared: denied without asking")
            << u"clipboard-undeclared"_s << true << 0 << u"clipboard: denied"_s;
        QTest::newRow("clipboard declared: asked, and the user says no")
            << u"clipboard-declared"_s << false << 1 << u"clipboard: denied"_s;
        QTest::newRow("clipboard declared: asked, and the user says yes")
            << u"clipboard-declared"_s << true << 1 << u"clipboard: written"_s;
    }
    void aPermissionIsAskedOnlyWhenTheResourceDeclaredIt()
    {
        QFETCH(QString, tool);
        QFETCH(bool, userSaysYes);
        QFETCH(int, questions);
        QFETCH(QString, logged);
        addAndSelect(fixture());
        User user(userSaysYes ? QMessageBox::Yes : QMessageBox::No);
        openApp(tool);
        QTRY_VERIFY2(pane()->logText().contains(logged), qPrintable(pane()->logText()));
        QCOMPARE(user.asked.size(), questions);
    }

    void toolsOnlyAnAppCallsAreHiddenUntilAskedFor()
    {
        addAndSelect(fixture());
        QVERIFY(!toolNames().contains(u"app-only"_s));
        QVERIFY(toolNames().contains(u"model-only"_s));
        auto *show = tools()->findChild<QCheckBox *>(u"showAppOnlyTools"_s);
        QVERIFY(show->isVisible());
        QCOMPARE(show->text(), u"Show 1 App-only tool"_s);
        show->setChecked(true);
        QVERIFY(toolNames().contains(u"app-only"_s));
        show->setChecked(false);
        QVERIFY(!toolNames().contains(u"app-only"_s));
        // A server without such tools does not offer the box.
        addAndSelect(demo());
        QVERIFY(!show->isVisible());
    }

    void aServerIsToldAboutAppsUnlessTheUserTurnedThemOff_data()
    {
        QTest::addColumn<QString>("era");
        QTest::addColumn<bool>("apps");
        QTest::newRow("initialize era, Apps on") << u"initialize"_s << true;
        QTest::newRow("initialize era, Apps off") << u"initialize"_s << false;
        QTest::newRow("2026-07-28, Apps on") << u"2026-07-28"_s << true;
        QTest::newRow("2026-07-28, Apps off") << u"2026-07-28"_s << false;
    }
    void aServerIsToldAboutAppsUnlessTheUserTurnedThemOff()
    {
        QFETCH(QString, era);
        QFETCH(bool, apps);
        ServerConfig c = demo();
        c.era = *ServerConfig::eraFromName(era);
        c.mcpApps = apps;
        addAndSelect(c);
        const TranscriptStore *t = m_window->transcriptStore();
        int requests = 0;
        int declaring = 0;
        for (int row = 0; row < t->size(); ++row) {
            const TranscriptEvent &e = t->event(row);
            if (e.direction != Direction::Outgoing || !t->entry(row).isRequest)
                continue;
            ++requests;
            declaring += e.raw.contains("\"io.modelcontextprotocol/ui\"");
        }
        QVERIFY(requests > 0);
        // Initialize era: the one initialize says it; 2026-07-28: every request's _meta.
        if (apps)
            QVERIFY2(era == "initialize"_L1 ? declaring == 1 : declaring == requests,
                     qPrintable(u"%1 of %2"_s.arg(declaring).arg(requests)));
        else
            QCOMPARE(declaring, 0);
    }
};

// As the program's main does: QtWebEngine needs the shared OpenGL context asked for before
// the application exists.
int main(int argc, char **argv)
{
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication app(argc, argv);
    TestAppWindow test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_appwindow.moc"
