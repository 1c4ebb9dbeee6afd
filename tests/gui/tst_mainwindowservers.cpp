// SPDX-License-Identifier: MIT
// Two demo servers in one window: each panel shows the selected server's own state. Its
// selected tool, the values typed in its forms and its last answer and banner come back
// when it is selected again, and never show on the other server; removing a server leaves
// nothing of it in the window's store.
#include "application/servers/serverlistmodel.h"
#include "application/servers/serverviewstore.h"
#include "application/timeline/timelinelayout.h"
#include "engine/corehost.h"
#include "servers/healthpanel.h"
#include "testpaths.h"
#include "timeline/timelinewidget.h"
#include "tools/promptspanel.h"
#include "tools/resourcespanel.h"
#include "tools/toolspanel.h"
#include "window/mainwindow.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestMainWindowServers : public QObject
{
    Q_OBJECT

    std::unique_ptr<CoreHost> m_host;
    std::unique_ptr<MainWindow> m_window;

    ToolsPanel *tools() const { return m_window->toolsPanel(); }
    // Buttons anywhere in the window, by object name ("callButton") or, without one, by text.
    QPushButton *button(const QString &name) const
    {
        for (QPushButton *b : m_window->findChildren<QPushButton *>())
            if (b->objectName() == name || (b->objectName().isEmpty() && b->text() == name))
                return b;
        return nullptr;
    }
    QLineEdit *field(const QString &name) const
    {
        return tools()->findChild<QLineEdit *>(u"field:"_s + name);
    }
    int toolRows() const
    {
        return tools()->findChild<QListView *>(u"toolList"_s)->model()->rowCount();
    }

    void select(const QString &server)
    {
        m_window->selectServer(server);
        QCOMPARE(m_window->currentServer(), server);
        QTRY_VERIFY_WITH_TIMEOUT(toolRows() >= 19, 10000);
    }

    void call(const QString &tool)
    {
        QVERIFY(tools()->selectTool(tool));
        QTRY_VERIFY(button(u"callButton"_s)->isEnabled());
        QTest::mouseClick(button(u"callButton"_s), Qt::LeftButton);
    }

    // For looking at: SONDE_SCREENSHOT_DIR=dir saves the window as dir/<name>.png.
    void grab(const QString &name) const
    {
        const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            m_window->grab().save(dir + u'/' + name + u".png"_s);
    }

    // Remove… asks first: answered Yes, as the user would.
    void removeCurrent()
    {
        QTest::mouseClick(button(u"Remove…"_s), Qt::LeftButton);
        QMessageBox *ask = nullptr;
        QTRY_VERIFY((ask = m_window->findChild<QMessageBox *>(u"confirmRemove"_s)) &&
                    ask->isVisible());
        QTest::mouseClick(ask->button(QMessageBox::Yes), Qt::LeftButton);
        QTRY_VERIFY(m_window->serverStore()->indexOf(u"a"_s) < 0);
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
        m_window->show();
        m_window->tabs()->setCurrentWidget(tools());
        select(u"b"_s);
        select(u"a"_s);
    }

    void cleanup()
    {
        QSignalSpy down(m_host.get(), &CoreHost::shutdownFinished);
        m_host->shutdown();
        QVERIFY(down.wait(5000));
        m_window.reset();
        m_host.reset();
    }

    void anAnswerAndItsBannerShowOnlyOnTheirServer()
    {
        QVERIFY(tools()->selectTool(u"echo"_s));
        QTest::keyClicks(field(u"message"_s), u"only on a"_s);
        call(u"echo"_s);
        QTRY_COMPARE_WITH_TIMEOUT(tools()->resultText(), u"Echo: only on a"_s, 10000);
        // A refused call on a: the breaker is open, so the answer comes with a banner.
        QTest::mouseClick(button(u"breakerTrip"_s), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->healthPanel()->breakerText().startsWith(u"OPEN"_s),
                                 5000);
        call(u"get-counter"_s);
        QTRY_VERIFY_WITH_TIMEOUT(tools()->bannerText().startsWith(u"Not sent"_s), 5000);
        const QString refused = tools()->resultText();
        QVERIFY(!refused.isEmpty());

        select(u"b"_s);
        grab(u"b-after-a-call-on-a"_s);
        QCOMPARE(tools()->resultText(), QString());
        QCOMPARE(tools()->bannerText(), QString());
        QVERIFY(!button(u"saveAnswer"_s)->isEnabled());
        QVERIFY(tools()->selectTool(u"echo"_s));
        QCOMPARE(tools()->resultText(), QString());

        select(u"a"_s);
        grab(u"a-again"_s);
        QCOMPARE(tools()->currentToolName(), u"get-counter"_s);
        QVERIFY(tools()->bannerText().startsWith(u"Not sent"_s));
        QCOMPARE(tools()->resultText(), refused);
        QVERIFY(tools()->selectTool(u"echo"_s));
        QCOMPARE(tools()->resultText(), u"Echo: only on a"_s);
        QCOMPARE(tools()->bannerText(), QString());
    }

    // A server whose program does not start lists no tools: nothing of a's last call (its
    // "100 %", its "9 ms") may show there; and what was searched on a is a's alone.
    void theBarTheTimeAndTheSearchStayWithTheirServer()
    {
        ServerConfig broken;
        broken.name = u"broken"_s;
        broken.program = u"/nonexistent/sonde-test-no-such-server"_s;
        m_window->addServer(broken);
        call(u"get-counter"_s);
        QTRY_VERIFY_WITH_TIMEOUT(tools()->resultText().contains(u"counter"_s), 10000);
        auto *bar = tools()->findChild<QProgressBar *>(u"progressBar"_s);
        auto *elapsed = tools()->findChild<QLabel *>(u"elapsedLabel"_s);
        QCOMPARE(bar->value(), 1000);
        QVERIFY(!elapsed->text().isEmpty());
        auto *search = tools()->findChild<QLineEdit *>(u"toolSearch"_s);
        QTest::keyClicks(search, u"count"_s);
        m_window->selectServer(u"broken"_s);
        grab(u"broken-after-a-call-on-a"_s);
        QCOMPARE(tools()->currentToolName(), QString());
        QCOMPARE(bar->value(), 0);
        QCOMPARE(elapsed->text(), QString());
        QCOMPARE(search->text(), QString());
        select(u"b"_s);
        QCOMPARE(search->text(), QString());
        m_window->selectServer(u"a"_s); // filtered: two rows, not the nineteen select() waits for
        QCOMPARE(search->text(), u"count"_s);
        QVERIFY(toolRows() < 19); // filtered: the counter tools, not every one
    }

    void valuesTypedInAFormStayWithTheirServer()
    {
        QVERIFY(tools()->selectTool(u"echo"_s));
        QTest::keyClicks(field(u"message"_s), u"typed on a"_s);
        select(u"b"_s);
        QVERIFY(tools()->selectTool(u"echo"_s));
        QCOMPARE(field(u"message"_s)->text(), QString());
        QTest::keyClicks(field(u"message"_s), u"typed on b"_s);
        select(u"a"_s);
        QCOMPARE(tools()->currentToolName(), u"echo"_s);
        QCOMPARE(field(u"message"_s)->text(), u"typed on a"_s);
        // Another tool and back, on the same server: still there.
        QVERIFY(tools()->selectTool(u"get-counter"_s));
        QVERIFY(tools()->selectTool(u"echo"_s));
        QCOMPARE(field(u"message"_s)->text(), u"typed on a"_s);
        select(u"b"_s);
        QCOMPARE(field(u"message"_s)->text(), u"typed on b"_s);
    }

    void aReplayOverrideStaysWithItsServer()
    {
        auto *override = tools()->findChild<QComboBox *>(u"toolOverride"_s);
        auto *badges = tools()->findChild<QLabel *>(u"toolBadges"_s);
        QVERIFY(tools()->selectTool(u"increment-counter"_s));
        QVERIFY(badges->text().contains(u"never replayed"_s));
        override->setCurrentIndex(1);
        Q_EMIT override->activated(1); // "treat as read-only"
        QVERIFY2(badges->text().contains(u"sent again"_s), qPrintable(badges->text()));
        select(u"b"_s);
        QVERIFY(tools()->selectTool(u"increment-counter"_s));
        QCOMPARE(override->currentIndex(), 0);
        QVERIFY2(badges->text().contains(u"never replayed"_s), qPrintable(badges->text()));
        select(u"a"_s);
        QCOMPARE(tools()->currentToolName(), u"increment-counter"_s);
        QCOMPARE(override->currentIndex(), 1);
        QVERIFY(badges->text().contains(u"sent again"_s));
    }

    void eachServerIsGivenItsOwnRoots()
    {
        ServerConfig c = demo(u"c"_s);
        m_window->addServer(c, {u"/tmp"_s});
        select(u"c"_s);
        call(u"list-roots"_s);
        QTRY_COMPARE_WITH_TIMEOUT(tools()->resultText(), u"roots: file:///tmp"_s, 10000);
        select(u"a"_s);
        call(u"list-roots"_s);
        QTRY_COMPARE_WITH_TIMEOUT(tools()->resultText(), u"roots: "_s, 10000);
    }

    void aReadResourceShowsOnlyOnItsServer()
    {
        ResourcesPanel *panel = m_window->resourcesPanel();
        m_window->tabs()->setCurrentWidget(panel);
        auto *uri = panel->findChild<QLineEdit *>(u"resourceUri"_s);
        uri->setText(u"demo://notes/3"_s);
        QTest::mouseClick(panel->findChild<QPushButton *>(u"readButton"_s), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(panel->contentText(), u"This is note 3."_s, 5000);
        m_window->selectServer(u"b"_s);
        QCOMPARE(panel->contentText(), QString());
        QVERIFY(panel->findChild<QPlainTextEdit *>(u"resourceContent"_s)->toPlainText().isEmpty());
        QVERIFY(panel->uri().isEmpty());
        m_window->selectServer(u"a"_s);
        QCOMPARE(panel->contentText(), u"This is note 3."_s);
    }

    void aPromptChosenOnOneServerIsNotFetchedFromAnother()
    {
        PromptsPanel *panel = m_window->promptsPanel();
        m_window->tabs()->setCurrentWidget(panel);
        QTRY_VERIFY_WITH_TIMEOUT(panel->selectPrompt(u"greeting"_s), 10000);
        QTest::keyClicks(panel->findChild<QLineEdit *>(u"field:name"_s), u"Ada"_s);
        m_window->selectServer(u"b"_s);
        // Nothing is chosen on b yet: Get sends nothing.
        const int pending = m_window->viewStore()->pendingCount(u"b"_s);
        QTest::mouseClick(panel->findChild<QPushButton *>(u"getPromptButton"_s), Qt::LeftButton);
        QCOMPARE(m_window->viewStore()->pendingCount(u"b"_s), pending);
        QVERIFY(!panel->findChild<QLineEdit *>(u"field:name"_s));
    }

    void aRemovedServerLeavesNothingInTheStore()
    {
        ServerViewStore *store = m_window->viewStore();
        QVERIFY(tools()->selectTool(u"echo"_s));
        QTest::keyClicks(field(u"message"_s), u"soon gone"_s);
        call(u"echo"_s);
        QTRY_COMPARE_WITH_TIMEOUT(tools()->resultText(), u"Echo: soon gone"_s, 10000);
        QVERIFY(store->holds(u"a"_s));
        QVERIFY(!store->tools(u"a"_s).isEmpty());
        const auto *timeline = m_window->findChild<TimelineWidget *>(u"timeline"_s);
        QVERIFY(timeline);
        QTRY_VERIFY(timeline->timelineLayout()->laneOf(u"a"_s) >= 0);
        removeCurrent();
        QCOMPARE(m_window->currentServer(), u"b"_s);
        QVERIFY(!store->holds(u"a"_s));
        QVERIFY(!store->toolAnswer(u"a"_s, u"echo"_s));
        QVERIFY(!store->formValues(u"a"_s, u"echo"_s));
        QVERIFY(store->tools(u"a"_s).isEmpty());
        QVERIFY(store->stderrLines(u"a"_s).isEmpty());
        QCOMPARE(store->pendingCount(u"a"_s), 0);
        // Whatever a's session still sends while it closes is not kept either.
        QTest::qWait(300);
        QVERIFY(!store->holds(u"a"_s));
        QVERIFY(store->holds(u"b"_s));
        // Its timeline lane went with it, and its closing session did not bring it back.
        QCOMPARE(timeline->timelineLayout()->laneOf(u"a"_s), -1);
        QVERIFY(timeline->timelineLayout()->laneOf(u"b"_s) >= 0);
    }

    void removingAServerUnderARunningCallLetsTheNextCallRun()
    {
        QVERIFY(tools()->selectTool(u"slow-task"_s));
        field(u"duration_ms"_s)->clear();
        QTest::keyClicks(field(u"duration_ms"_s), u"30000"_s);
        QTest::mouseClick(button(u"callButton"_s), Qt::LeftButton);
        QVERIFY(!button(u"callButton"_s)->isEnabled());
        QVERIFY(m_window->viewStore()->pendingToolCall());
        removeCurrent();
        QCOMPARE(m_window->currentServer(), u"b"_s);
        QVERIFY(button(u"callButton"_s)->isEnabled());
        QVERIFY(tools()->selectTool(u"echo"_s));
        QTest::keyClicks(field(u"message"_s), u"after the removal"_s);
        call(u"echo"_s);
        QTRY_COMPARE_WITH_TIMEOUT(tools()->resultText(), u"Echo: after the removal"_s, 10000);
    }
};

QTEST_MAIN(TestMainWindowServers)
#include "tst_mainwindowservers.moc"
