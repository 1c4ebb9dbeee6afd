// SPDX-License-Identifier: MIT
// The saved workspace is written when it changes, read back by a fresh QSettings while the
// window is still open (a crash loses nothing), in the order the user chose; and the first
// run opens the built-in demo twice, over stdio and over HTTP on a port of its own, which
// the window starts as a child, records as "the built-in HTTP demo" and stops after the
// sessions closed.
#include "application/servers/serverstore.h"
#include "application/workspace/workspacesettings.h"
#include "config/workspace.h"
#include "engine/corehost.h"
#include "servers/healthpanel.h"
#include "testpaths.h"
#include "tools/toolspanel.h"
#include "window/mainwindow.h"

#include <QAbstractButton>
#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <functional>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestMainWindowWorkspace : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString ini() const { return m_dir.filePath(u"sonde.ini"_s); }
    // What a new process would find: a QSettings opened after the change, on the same file.
    Workspace saved() const
    {
        QSettings fresh(ini(), QSettings::IniFormat);
        return WorkspaceSettings::load(fresh);
    }
    static QStringList names(const Workspace &w)
    {
        QStringList out;
        for (const Workspace::Server &s : w.servers)
            out.append(s.config.name);
        return out;
    }
    static ServerConfig demo(const QString &name)
    {
        ServerConfig c;
        c.name = name;
        c.program = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
        return c;
    }
    static QAction *action(MainWindow &w, const QString &name)
    {
        return w.findChild<QAction *>(u"action:"_s + name);
    }
    static void shutDown(MainWindow &window)
    {
        QSignalSpy done(&window, &MainWindow::shutdownFinished);
        window.close();
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, MainWindow::ShutdownBoundMs + 2000);
    }
    // What a restart finds: a fresh window loads the saved workspace, `check` looks at it.
    void afterARestart(const std::function<void(const ServerStore &)> &check) const
    {
        CoreHost host;
        MainWindow restored(host);
        QSettings again(ini(), QSettings::IniFormat);
        restored.loadWorkspace(again);
        check(*restored.serverStore());
        QSignalSpy down(&host, &CoreHost::shutdownFinished);
        host.shutdown();
        QVERIFY(down.wait(5000));
    }
    // A first start, as the program makes it: the two demo servers added, the workspace
    // saved to ini() as it changes. Not shown yet, so a test can size the window first.
    struct FirstRun
    {
        CoreHost host;
        MainWindow window{host};
        QSettings settings;
        explicit FirstRun(const QString &ini) : settings(ini, QSettings::IniFormat)
        {
            window.autosaveTo(&settings);
            window.setDemoServerProgram(QString::fromUtf8(SONDE_DEMO_SERVER_PATH));
            window.addFirstRunDemos();
        }
    };
    static bool processGone(qint64 pid) { return ::kill(pid_t(pid), 0) == -1 && errno == ESRCH; }

private Q_SLOTS:
    void init() { QFile::remove(ini()); }

    // The first run and an import add servers before the window is shown: what the autosave
    // writes then must not be a layout nobody saw (a splitter with no sizes yet), or a crash
    // before any later change leaves the next start with the server list squeezed shut.
    void aLayoutIsNotSavedBeforeTheWindowWasEverShown()
    {
        {
            CoreHost host;
            MainWindow window(host);
            QSettings settings(ini(), QSettings::IniFormat);
            window.autosaveTo(&settings);
            window.addServer(demo(u"a"_s));
            QCOMPARE(names(saved()), QStringList{u"a"_s});
            QVERIFY(saved().splitter.isEmpty());
            QVERIFY(saved().geometry.isEmpty());
            QSignalSpy down(&host, &CoreHost::shutdownFinished);
            host.shutdown();
            QVERIFY(down.wait(5000));
        }
        CoreHost host;
        MainWindow window(host);
        QSettings settings(ini(), QSettings::IniFormat);
        window.loadWorkspace(settings);
        window.resize(1200, 760);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *list = window.findChild<QListView *>(u"serverList"_s);
        QVERIFY(list);
        QVERIFY2(list->width() > 150, qPrintable(QString::number(list->width())));
        shutDown(window);
    }

    void theWorkspaceIsSavedWhenItChangesInTheUsersOrder()
    {
        CoreHost host;
        MainWindow window(host);
        QSettings settings(ini(), QSettings::IniFormat);
        window.autosaveTo(&settings);
        window.show();
        for (const QString &name : {u"a"_s, u"b"_s, u"c"_s})
            window.addServer(demo(name), {}, false);
        QCOMPARE(names(saved()), (QStringList{u"a"_s, u"b"_s, u"c"_s}));

        window.selectServer(u"c"_s);
        QVERIFY(action(window, u"moveUp"_s));
        action(window, u"moveUp"_s)->trigger();
        QCOMPARE(window.serverStore()->names(), (QStringList{u"a"_s, u"c"_s, u"b"_s}));
        QCOMPARE(window.currentServer(), u"c"_s);
        QCOMPARE(names(saved()), (QStringList{u"a"_s, u"c"_s, u"b"_s}));
        window.selectServer(u"a"_s);
        action(window, u"moveDown"_s)->trigger();
        QCOMPARE(names(saved()), (QStringList{u"c"_s, u"a"_s, u"b"_s}));
        // Dragged in the list: the list's model moves the row, and that is saved too.
        auto *list = window.findChild<QListView *>(u"serverList"_s);
        QVERIFY(list->model()->moveRow({}, 2, {}, 0));
        QCOMPARE(names(saved()), (QStringList{u"b"_s, u"c"_s, u"a"_s}));
        QVERIFY(list->model()->moveRow({}, 0, {}, 3));
        QCOMPARE(names(saved()), (QStringList{u"c"_s, u"a"_s, u"b"_s}));

        window.selectServer(u"b"_s);
        action(window, u"remove"_s)->trigger();
        QMessageBox *ask = nullptr;
        QTRY_VERIFY((ask = window.findChild<QMessageBox *>(u"confirmRemove"_s)) &&
                    ask->isVisible());
        QTest::mouseClick(ask->button(QMessageBox::Yes), Qt::LeftButton);
        QTRY_COMPARE(names(saved()), (QStringList{u"c"_s, u"a"_s}));

        action(window, u"dark"_s)->trigger();
        QVERIFY(saved().darkMode);
        action(window, u"dark"_s)->trigger();
        QVERIFY(!saved().darkMode);

        // And after a restart, the same order.
        afterARestart([](const ServerStore &store) {
            QCOMPARE(store.names(), (QStringList{u"c"_s, u"a"_s}));
        });
        shutDown(window);
    }

    // The dialogs are opened with open(): found and answered like a user would, while the
    // test's own event loop (and the engine's answers) go on.
    void aServerAddedOrEditedInItsDialogIsSavedAtOnceInItsPlace()
    {
        CoreHost host;
        MainWindow window(host);
        QSettings settings(ini(), QSettings::IniFormat);
        window.autosaveTo(&settings);
        window.show();
        window.addServer(demo(u"first"_s), {}, false);
        window.addServer(demo(u"last"_s), {}, false);
        const auto answer = [&](const QString &name) {
            QDialog *dialog = nullptr;
            QTRY_VERIFY((dialog = window.findChild<QDialog *>(u"serverDialog"_s)) &&
                        dialog->isVisible());
            auto *field = dialog->findChild<QLineEdit *>(u"serverName"_s);
            QVERIFY(field && !field->accessibleName().isEmpty());
            field->clear();
            QTest::keyClicks(field, name);
            auto *program = dialog->findChild<QLineEdit *>(u"serverProgram"_s);
            program->setText(QString::fromUtf8(SONDE_DEMO_SERVER_PATH));
            auto *buttons = dialog->findChild<QDialogButtonBox *>();
            QTest::mouseClick(buttons->button(QDialogButtonBox::Ok), Qt::LeftButton);
            QTRY_VERIFY(!window.findChild<QDialog *>(u"serverDialog"_s) ||
                        !window.findChild<QDialog *>(u"serverDialog"_s)->isVisible());
        };
        action(window, u"add"_s)->trigger();
        answer(u"middle"_s);
        QCOMPARE(names(saved()), (QStringList{u"first"_s, u"last"_s, u"middle"_s}));
        // Renamed in Edit: the same place in the list, and saved so.
        window.selectServer(u"first"_s);
        action(window, u"edit"_s)->trigger();
        answer(u"renamed"_s);
        QCOMPARE(window.serverStore()->names(),
                 (QStringList{u"renamed"_s, u"last"_s, u"middle"_s}));
        QCOMPARE(names(saved()), (QStringList{u"renamed"_s, u"last"_s, u"middle"_s}));
        QCOMPARE(window.currentServer(), u"renamed"_s);
        shutDown(window);
    }

    // A server's protocol era is saved, survives an edit in its dialog, and comes back after
    // a restart.
    void aServersEraIsSavedKeptByAnEditAndRestored()
    {
        CoreHost host;
        MainWindow window(host);
        QSettings settings(ini(), QSettings::IniFormat);
        window.autosaveTo(&settings);
        window.show();
        ServerConfig legacy = demo(u"legacy"_s);
        legacy.era = ServerConfig::Era::Initialize;
        window.addServer(legacy, {}, false);
        ServerConfig modern = demo(u"modern"_s);
        modern.era = ServerConfig::Era::Rev20260728;
        window.addServer(modern, {}, false);
        const auto eraOf = [](const Workspace &w, const QString &name) {
            for (const Workspace::Server &s : w.servers)
                if (s.config.name == name)
                    return ServerConfig::eraName(s.config.era);
            return QString();
        };
        QCOMPARE(eraOf(saved(), u"legacy"_s), u"initialize"_s);
        QCOMPARE(eraOf(saved(), u"modern"_s), u"2026-07-28"_s);

        // Edited and renamed in its dialog: the era shown there is the one saved.
        window.selectServer(u"legacy"_s);
        action(window, u"edit"_s)->trigger();
        QDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<QDialog *>(u"serverDialog"_s)) &&
                    dialog->isVisible());
        auto *name = dialog->findChild<QLineEdit *>(u"serverName"_s);
        name->setText(u"still-legacy"_s);
        QTest::mouseClick(dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok),
                          Qt::LeftButton);
        QTRY_COMPARE(eraOf(saved(), u"still-legacy"_s), u"initialize"_s);
        QCOMPARE(eraOf(saved(), u"modern"_s), u"2026-07-28"_s);

        afterARestart([](const ServerStore &store) {
            QCOMPARE(store.config(store.indexOf(u"still-legacy"_s)).era,
                     ServerConfig::Era::Initialize);
            QCOMPARE(store.config(store.indexOf(u"modern"_s)).era, ServerConfig::Era::Rev20260728);
        });
        shutDown(window);
    }

    // The hint's whole path, as a new user follows it: Expire session on demo-http, then a
    // call. The event stream notices the expiry at once and Sonde reconnects before the call,
    // so the answer itself would look as if nothing happened: it says what did.
    void theFirstRunHintsStoryIsTold()
    {
        FirstRun run(ini());
        CoreHost &host = run.host;
        MainWindow &window = run.window;
        window.resize(1200, 760);
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(host.lastSnapshot(u"demo-http"_s).state,
                                  SessionSnapshot::State::Ready, 10000);
        const QString hint = window.findChild<QLabel *>(u"firstRunHint"_s)->text();
        QVERIFY2(hint.contains(u"Sonde notices and reconnects"_s), qPrintable(hint));
        ToolsPanel *tools = window.toolsPanel();
        QTRY_VERIFY_WITH_TIMEOUT(
            tools->findChild<QListView *>(u"toolList"_s)->model()->rowCount() >= 19, 10000);
        auto *expire = window.healthPanel()->findChild<QPushButton *>(u"fault:expire-session"_s);
        QTRY_VERIFY(expire->isEnabled());
        QTest::mouseClick(expire, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(host.lastSnapshot(u"demo-http"_s).generation, 2, 10000);
        window.tabs()->setCurrentWidget(tools);
        QVERIFY(tools->selectTool(u"get-counter"_s));
        QTRY_VERIFY(tools->findChild<QPushButton *>(u"callButton"_s)->isEnabled());
        QTest::mouseClick(tools->findChild<QPushButton *>(u"callButton"_s), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(tools->resultText().contains(u"counter"_s), 10000);
        const QString banner = tools->bannerText();
        QVERIFY2(banner.contains(u"Sonde had reconnected before this call"_s), qPrintable(banner));
        QVERIFY2(banner.contains(u"HTTP 404 for the session"_s), qPrintable(banner));
        QVERIFY2(banner.contains(u"expire-session"_s), qPrintable(banner));
        if (const QString shots = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !shots.isEmpty())
            window.grab().save(shots + u"/first-run-story.png"_s);
        // Said once: the next answer on the same generation is a plain answer.
        QTest::mouseClick(tools->findChild<QPushButton *>(u"callButton"_s), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(tools->bannerText().isEmpty(), 10000);
        shutDown(window);
    }

    void theFirstRunShowsTheDemoOverStdioAndHttp()
    {
        FirstRun run(ini());
        CoreHost &host = run.host;
        MainWindow &window = run.window;
        window.show();
        QCOMPARE(window.serverStore()->names(), (QStringList{u"demo"_s, u"demo-http"_s}));
        QTRY_COMPARE_WITH_TIMEOUT(host.lastSnapshot(u"demo-http"_s).state,
                                  SessionSnapshot::State::Ready, 10000);
        // Both revisions: demo-http keeps a 2025-11-25 session (its faults are the hint's), and
        // demo speaks 2026-07-28.
        QCOMPARE(host.lastSnapshot(u"demo-http"_s).era, ServerConfig::Era::Initialize);
        QVERIFY(!host.lastSnapshot(u"demo-http"_s).sessionId.isEmpty());
        QCOMPARE(host.lastSnapshot(u"demo-http"_s).route, ServerConfig::Route::StreamableHttp);
        QTRY_COMPARE_WITH_TIMEOUT(host.lastSnapshot(u"demo"_s).state, SessionSnapshot::State::Ready,
                                  10000);
        QCOMPARE(host.lastSnapshot(u"demo"_s).era, ServerConfig::Era::Rev20260728);
        QCOMPARE(host.lastSnapshot(u"demo"_s).protocolVersion, u"2026-07-28"_s);

        auto *hint = window.findChild<QLabel *>(u"firstRunHint"_s);
        QVERIFY(hint);
        QVERIFY(hint->isVisible());
        QVERIFY2(hint->text().contains(u"Expire session"_s), qPrintable(hint->text()));

        // The HTTP demo is the one shown first.
        QCOMPARE(window.currentServer(), u"demo-http"_s);
        auto *expire = window.healthPanel()->findChild<QPushButton *>(u"fault:expire-session"_s);
        QTRY_VERIFY(expire->isEnabled());
        QVERIFY(action(window, u"fault:expire-session"_s)->isEnabled());
        window.selectServer(u"demo"_s);
        QTRY_VERIFY(!expire->isEnabled());

        // Saved as the built-in HTTP demo, not as this run's port.
        const Workspace w = saved();
        QCOMPARE(names(w), (QStringList{u"demo"_s, u"demo-http"_s}));
        QVERIFY(!w.servers.at(0).builtInHttpDemo);
        QVERIFY(w.servers.at(1).builtInHttpDemo);

        auto *child = window.findChild<QProcess *>(u"httpDemoProcess"_s);
        QVERIFY(child);
        const qint64 pid = child->processId();
        QVERIFY(pid > 0);
        QVERIFY(!processGone(pid));
        const QUrl firstUrl =
            window.serverStore()->config(window.serverStore()->indexOf(u"demo-http"_s)).url;
        QVERIFY2(firstUrl.isValid() && firstUrl.port() > 0, qPrintable(firstUrl.toString()));
        shutDown(window);
        QTRY_VERIFY(processGone(pid));

        // The next start launches it again, on whatever port it gets this time.
        CoreHost host2;
        MainWindow again(host2);
        again.setDemoServerProgram(QString::fromUtf8(SONDE_DEMO_SERVER_PATH));
        QSettings settings2(ini(), QSettings::IniFormat);
        again.loadWorkspace(settings2);
        again.show();
        QTRY_COMPARE_WITH_TIMEOUT(host2.lastSnapshot(u"demo-http"_s).state,
                                  SessionSnapshot::State::Ready, 10000);
        auto *hint2 = again.findChild<QLabel *>(u"firstRunHint"_s);
        QVERIFY(!hint2 || !hint2->isVisible());
        shutDown(again);
    }

    void removingTheHttpDemoStopsItsChild()
    {
        FirstRun run(ini());
        CoreHost &host = run.host;
        MainWindow &window = run.window;
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(host.lastSnapshot(u"demo-http"_s).state,
                                  SessionSnapshot::State::Ready, 10000);
        const qint64 pid = window.findChild<QProcess *>(u"httpDemoProcess"_s)->processId();
        window.removeServer(u"demo-http"_s);
        QTRY_VERIFY(processGone(pid));
        const Workspace w = saved();
        QCOMPARE(names(w), QStringList{u"demo"_s});
        QVERIFY(!w.servers.at(0).builtInHttpDemo);
        shutDown(window);
    }

    void theHintIsDismissed()
    {
        CoreHost host;
        MainWindow window(host);
        window.setDemoServerProgram(QString::fromUtf8(SONDE_DEMO_SERVER_PATH));
        window.addFirstRunDemos();
        window.show();
        auto *hint = window.findChild<QLabel *>(u"firstRunHint"_s);
        QVERIFY(hint && hint->isVisible());
        auto *close = window.findChild<QAbstractButton *>(u"firstRunHintClose"_s);
        QVERIFY(close);
        QVERIFY(!close->accessibleName().isEmpty());
        // Its link goes there.
        window.selectServer(u"demo"_s);
        Q_EMIT hint->linkActivated(u"demo-http"_s);
        QCOMPARE(window.currentServer(), u"demo-http"_s);
        QCOMPARE(window.tabs()->currentWidget(), window.healthPanel());
        QTest::mouseClick(close, Qt::LeftButton);
        QVERIFY(!hint->isVisible());
        shutDown(window);
    }
};

QTEST_MAIN(TestMainWindowWorkspace)
#include "tst_mainwindowworkspace.moc"
