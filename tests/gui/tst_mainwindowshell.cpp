// SPDX-License-Identifier: MIT
// The window's shell against sonde-demo-server over stdio: the menus and the toolbar hold
// the actions (found by object name, so this test builds against a window without them),
// the Faults menu does what the Health tab's buttons do and is disabled where they are, the
// title and the server's row say its state (an open breaker and its cause too), Remove asks
// first, the shortcuts dialog is generated from the actions, and About says what a bug
// report needs (licence, homepage, revisions, paths) and copies it as plain text.
#include "application/servers/serverlistmodel.h"
#include "application/servers/serverstore.h"
#include "engine/corehost.h"
#include "protocol/mcp.h"
#include "protocol/rev20260728.h"
#include "servers/healthpanel.h"
#include "servers/serverlistpanel.h"
#include "servers/sessionpanel.h"
#include "testpaths.h"
#include "tools/toolspanel.h"
#include "util/version.h"
#include "window/aboutdialog.h"
#include "window/elidingstatusbar.h"
#include "window/mainwindow.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAction>
#include <QClipboard>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QListView>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSysInfo>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <QToolBar>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestMainWindowShell : public QObject
{
    Q_OBJECT

    std::unique_ptr<CoreHost> m_host;
    std::unique_ptr<MainWindow> m_window;
    bool m_quit = false;

    ToolsPanel *tools() const { return m_window->toolsPanel(); }
    QAction *action(const QString &name) const
    {
        return m_window->findChild<QAction *>(u"action:"_s + name);
    }
    QPushButton *healthButton(const QString &name) const
    {
        return m_window->healthPanel()->findChild<QPushButton *>(name);
    }
    QPushButton *listButton(const QString &text) const
    {
        for (QPushButton *b : m_window->findChildren<QPushButton *>())
            if (b->text() == text)
                return b;
        return nullptr;
    }
    QModelIndex row(const QString &server) const
    {
        auto *list = m_window->findChild<QListView *>(u"serverList"_s);
        return list->model()->index(m_window->serverStore()->indexOf(server), 0);
    }
    void call(const QString &tool)
    {
        QVERIFY(tools()->selectTool(tool));
        auto *button = tools()->findChild<QPushButton *>(u"callButton"_s);
        QTRY_VERIFY(button->isEnabled());
        QTest::mouseClick(button, Qt::LeftButton);
    }
    static ServerConfig demo(const QString &name)
    {
        ServerConfig c;
        c.name = name;
        c.program = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
        // The session faults and the wording of a session: the handshake era's.
        c.era = ServerConfig::Era::Initialize;
        return c;
    }
    // Help → About, opened (null if it did not open).
    QDialog *openAbout() const
    {
        action(u"about"_s)->trigger();
        QDialog *about = nullptr;
        const bool shown = QTest::qWaitFor([&] {
            about = m_window->findChild<QDialog *>(u"aboutDialog"_s);
            return about && about->isVisible();
        });
        return shown ? about : nullptr;
    }
    QMessageBox *confirmation() const
    {
        return m_window->findChild<QMessageBox *>(u"confirmRemove"_s);
    }

private Q_SLOTS:
    void init()
    {
        m_host = std::make_unique<CoreHost>();
        m_window = std::make_unique<MainWindow>(*m_host);
        m_window->addServer(demo(u"a"_s));
        m_window->addServer(demo(u"b"_s));
        m_window->show();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        m_window->tabs()->setCurrentWidget(tools());
        m_window->selectServer(u"a"_s);
        QTRY_COMPARE_WITH_TIMEOUT(m_window->sessionPanel()->shownGeneration(), 1, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(
            tools()->findChild<QListView *>(u"toolList"_s)->model()->rowCount() >= 19, 10000);
    }

    void cleanup()
    {
        QSignalSpy down(m_host.get(), &CoreHost::shutdownFinished);
        if (!std::exchange(m_quit, false)) { // Quit shut the host down already
            m_host->shutdown();
            QVERIFY(down.wait(5000));
        }
        m_window.reset();
        m_host.reset();
    }

    void eachMenuHoldsItsActions_data()
    {
        QTest::addColumn<QString>("menu");
        QTest::addColumn<QStringList>("actions");
        QTest::newRow("File imports, exports the transcript and quits")
            << u"file"_s << QStringList{u"import"_s, u"export"_s, u"quit"_s};
        QTest::newRow("Server adds, edits, removes, moves, connects, reconnects and pings")
            << u"server"_s << QStringList{u"add"_s,      u"edit"_s,    u"remove"_s,    u"moveUp"_s,
                                          u"moveDown"_s, u"connect"_s, u"reconnect"_s, u"ping"_s};
        QTest::newRow("Faults has the breaker and every fault of the Health tab")
            << u"faults"_s
            << QStringList{u"breaker:reset"_s,      u"breaker:trip"_s, u"fault:expire-session"_s,
                           u"fault:kill-process"_s, u"fault:delay"_s,  u"fault:clear"_s};
        QTest::newRow("View goes to each tab and switches dark mode")
            << u"view"_s << QStringList{u"tab:1"_s, u"tab:8"_s, u"dark"_s};
        QTest::newRow("Help has About and the keyboard shortcuts")
            << u"help"_s << QStringList{u"about"_s, u"shortcuts"_s};
    }
    void eachMenuHoldsItsActions()
    {
        QFETCH(QString, menu);
        QFETCH(QStringList, actions);
        auto *m = m_window->menuBar()->findChild<QMenu *>(u"menu:"_s + menu);
        QVERIFY2(m, qPrintable(menu));
        QVERIFY(m_window->menuBar()->actions().contains(m->menuAction()));
        QStringList names;
        for (const QAction *a : m->actions())
            names.append(a->objectName());
        for (const QString &a : actions) {
            QVERIFY2(names.contains(u"action:"_s + a),
                     qPrintable(a + u" in "_s + names.join(u' ')));
            QVERIFY2(!action(a)->text().isEmpty() && !action(a)->toolTip().isEmpty(),
                     qPrintable(a));
        }
    }

    void theStandardKeysAreUsed_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QKeySequence>("keys");
        // The platform's key, or where it has none (Qt's generic theme), the usual one.
        const auto standard = [](QKeySequence::StandardKey key, QKeyCombination otherwise) {
            return QKeySequence::keyBindings(key).value(0, QKeySequence(otherwise));
        };
        QTest::newRow("Quit is the platform's quit key")
            << u"quit"_s << standard(QKeySequence::Quit, Qt::CTRL | Qt::Key_Q);
        QTest::newRow("Add is New") << u"add"_s << QKeySequence(QKeySequence::New);
        QTest::newRow("Import is Open") << u"import"_s << QKeySequence(QKeySequence::Open);
        QTest::newRow("Export is Save As")
            << u"export"_s << standard(QKeySequence::SaveAs, Qt::CTRL | Qt::SHIFT | Qt::Key_S);
        QTest::newRow("Reconnect is Ctrl+R")
            << u"reconnect"_s << QKeySequence(Qt::CTRL | Qt::Key_R);
        QTest::newRow("Find is Find") << u"find"_s << QKeySequence(QKeySequence::Find);
        QTest::newRow("the third tab is Alt+3") << u"tab:3"_s << QKeySequence(Qt::ALT | Qt::Key_3);
    }
    void theStandardKeysAreUsed()
    {
        QFETCH(QString, name);
        QFETCH(QKeySequence, keys);
        QVERIFY2(action(name), qPrintable(name));
        QCOMPARE(action(name)->shortcut(), keys);
    }

    void quitFromTheMenuGoesThroughTheBoundedShutdown()
    {
        QVERIFY(action(u"quit"_s));
        QSignalSpy done(m_window.get(), &MainWindow::shutdownFinished);
        QSignalSpy hostDone(m_host.get(), &CoreHost::shutdownFinished);
        action(u"quit"_s)->trigger();
        m_quit = true;
        QVERIFY(!m_window->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, MainWindow::ShutdownBoundMs + 1000);
        QCOMPARE(hostDone.size(), 1);
    }

    void ctrlRReconnectsThroughItsAction()
    {
        QVERIFY(action(u"reconnect"_s));
        QTest::keyClick(m_window.get(), Qt::Key_R, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(m_window->sessionPanel()->shownGeneration(), 2, 10000);
    }

    void aFaultMenuItemIsEnabledExactlyWhenItsButtonIs_data()
    {
        QTest::addColumn<QString>("fault");
        QTest::addColumn<bool>("enabledOnStdio");
        QTest::newRow("Expire session is greyed out on stdio in both")
            << u"expire-session"_s << false;
        QTest::newRow("Drop connection is greyed out on stdio in both")
            << u"drop-connection"_s << false;
        QTest::newRow("Kill process is there on stdio in both") << u"kill-process"_s << true;
        QTest::newRow("Delay answers is there everywhere") << u"delay"_s << true;
    }
    void aFaultMenuItemIsEnabledExactlyWhenItsButtonIs()
    {
        QFETCH(QString, fault);
        QFETCH(bool, enabledOnStdio);
        QPushButton *button = healthButton(u"fault:"_s + fault);
        QVERIFY(button);
        QTRY_COMPARE(button->isEnabled(), enabledOnStdio);
        QVERIFY2(action(u"fault:"_s + fault), qPrintable(fault));
        QCOMPARE(action(u"fault:"_s + fault)->isEnabled(), enabledOnStdio);
        // The entry is the button's words, and the parameter it will use where it has one.
        QVERIFY2(action(u"fault:"_s + fault)->text().startsWith(button->text()),
                 qPrintable(action(u"fault:"_s + fault)->text()));
        if (fault == "delay"_L1)
            QVERIFY(action(u"fault:"_s + fault)->text().contains(u" ms each"_s));
    }

    void aFaultFromTheMenuDoesWhatItsButtonDoes()
    {
        QVERIFY(action(u"fault:expire-after-dispatch"_s));
        action(u"fault:expire-after-dispatch"_s)->trigger();
        call(u"increment-counter"_s);
        QTRY_VERIFY_WITH_TIMEOUT(tools()->bannerText().startsWith(u"Outcome uncertain"_s), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(m_window->sessionPanel()->shownGeneration(), 2, 10000);
    }

    void theBreakerIsTrippedFromTheMenu()
    {
        QVERIFY(action(u"breaker:trip"_s));
        action(u"breaker:trip"_s)->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->healthPanel()->breakerText().startsWith(u"OPEN"_s),
                                 5000);
        action(u"breaker:reset"_s)->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(m_window->healthPanel()->breakerText(), u"CLOSED"_s, 5000);
    }

    void theViewMenuGoesToATab()
    {
        QVERIFY(action(u"tab:3"_s));
        QTest::keyClick(m_window.get(), Qt::Key_3, Qt::AltModifier);
        QCOMPARE(m_window->tabs()->currentWidget(), m_window->healthPanel());
        QVERIFY(action(u"tab:3"_s)->isChecked());
        m_window->tabs()->setCurrentIndex(0);
        QVERIFY(action(u"tab:1"_s)->isChecked());
        QVERIFY(!action(u"tab:3"_s)->isChecked());
    }

    // What a first run never shows is built when its tab is first shown: until then it costs
    // no memory, and once shown it is the selected server's, as if it had always been there.
    void aTabIsBuiltWhenFirstShownAndShowsTheSelectedServer_data()
    {
        QTest::addColumn<int>("tab");
        QTest::addColumn<QString>("panelClass");
        QTest::addColumn<QString>("shows"); // a list of the server's items, or a label's words
        QTest::newRow("Authorization says the selected stdio server needs none")
            << 3 << u"Sonde::AuthPanel"_s << u"over stdio"_s;
        QTest::newRow("Resources lists the selected server's resources")
            << 6 << u"Sonde::ResourcesPanel"_s << u"resourceList"_s;
        QTest::newRow("Prompts lists the selected server's prompts")
            << 7 << u"Sonde::PromptsPanel"_s << u"promptList"_s;
    }
    void aTabIsBuiltWhenFirstShownAndShowsTheSelectedServer()
    {
        QFETCH(int, tab);
        QFETCH(QString, panelClass);
        QFETCH(QString, shows);
        const auto built = [&]() -> QWidget * {
            for (QWidget *w : m_window->tabs()->findChildren<QWidget *>())
                if (panelClass == QLatin1StringView(w->metaObject()->className()))
                    return w;
            return nullptr;
        };
        QVERIFY2(!built(), "built before its tab was shown");
        const QString title = m_window->tabs()->tabText(tab);
        action(u"tab:%1"_s.arg(tab + 1))->trigger();
        QWidget *panel = built();
        QVERIFY(panel);
        QCOMPARE(m_window->tabs()->currentIndex(), tab);
        QCOMPARE(m_window->tabs()->currentWidget(), panel);
        QCOMPARE(m_window->tabs()->tabText(tab), title);
        QVERIFY(action(u"tab:%1"_s.arg(tab + 1))->isChecked());
        QTRY_VERIFY(panel->isVisible());
        if (auto *list = panel->findChild<QAbstractItemView *>(shows)) {
            QTRY_VERIFY_WITH_TIMEOUT(list->model()->rowCount() >= 1, 10000);
        } else {
            const auto said = [&] {
                for (const QLabel *l : panel->findChildren<QLabel *>())
                    if (l->text().contains(shows))
                        return true;
                return false;
            };
            QTRY_VERIFY(said());
        }
    }

    void theTitleNamesTheServerAndItsState()
    {
        QTRY_COMPARE_WITH_TIMEOUT(m_window->windowTitle(), u"a — connected, generation 1 — Sonde"_s,
                                  5000);
        m_host->reconnect(u"a"_s);
        QTRY_COMPARE_WITH_TIMEOUT(m_window->windowTitle(), u"a — connected, generation 2 — Sonde"_s,
                                  10000);
        QTest::mouseClick(healthButton(u"breakerTrip"_s), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->windowTitle().endsWith(u"breaker open — Sonde"_s), 5000);
        m_window->selectServer(u"b"_s);
        QTRY_COMPARE_WITH_TIMEOUT(m_window->windowTitle(), u"b — connected, generation 1 — Sonde"_s,
                                  5000);
    }

    void theToolbarConnectsAndShowsTheState()
    {
        auto *bar = m_window->findChild<QToolBar *>(u"mainToolBar"_s);
        QVERIFY(bar);
        QVERIFY(bar->actions().contains(action(u"connect"_s)));
        QVERIFY(bar->actions().contains(action(u"reconnect"_s)));
        auto *state = bar->findChild<QLabel *>(u"toolbarState"_s);
        QVERIFY(state);
        QVERIFY(!state->accessibleName().isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(state->text(), u"a — connected, generation 1"_s, 5000);
        QCOMPARE(action(u"connect"_s)->text(), tr("Disconnect"));
        action(u"connect"_s)->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(state->text().startsWith(u"a — closed"_s), 5000);
        QCOMPARE(action(u"connect"_s)->text(), tr("Connect"));
        QVERIFY(!action(u"ping"_s)->isEnabled());
        action(u"connect"_s)->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(state->text(), u"a — connected, generation 2"_s, 10000);
        QVERIFY(action(u"ping"_s)->isEnabled());
    }

    void anOpenBreakerShowsOnTheServersRow()
    {
        const QColor healthy = row(u"a"_s).data(Qt::DecorationRole).value<QColor>();
        QTest::mouseClick(healthButton(u"breakerTrip"_s), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(row(u"a"_s).data().toString().contains(u"breaker open"_s), 5000);
        QVERIFY(row(u"a"_s).data(Qt::DecorationRole).value<QColor>() != healthy);
        const QString tip = row(u"a"_s).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(u"breaker is open"_s) && tip.contains(u"tripped by hand"_s),
                 qPrintable(tip));
        // The other server's row is untouched.
        QVERIFY(!row(u"b"_s).data(Qt::ToolTipRole).toString().contains(u"breaker"_s));
    }

    // A status longer than the bar ends in "…" and its tooltip holds it whole; a short one
    // has no tooltip to hover for.
    void aLongStatusIsElidedWithItsWholeTextInATooltip()
    {
        m_window->resize(800, 600);
        auto *bar = qobject_cast<ElidingStatusBar *>(m_window->statusBar());
        QVERIFY(bar);
        const QString longText =
            u"demo: the call to tool \"increment-counter\" was sent before its session failed, "
            "so it may or may not have taken effect; it was not sent again, and the connection "
            "has been re-established"_s;
        bar->showMessage(longText);
        QCOMPARE(bar->currentMessage(), longText);
        QTRY_VERIFY(bar->isMessageElided());
        QCOMPARE(bar->toolTip(), longText);
        bar->showMessage(u"demo: answered in 4 ms"_s);
        QVERIFY(!bar->isMessageElided());
        QVERIFY(bar->toolTip().isEmpty());
    }

    // A long server name widens the list (up to a limit) rather than being cut, and a row's
    // tooltip starts with all of its words.
    void aLongServerNameWidensTheListAndIsInItsTooltip()
    {
        const QString name = u"github-enterprise-production-east"_s;
        m_window->addServer(demo(name));
        m_window->resize(1280, 800);
        auto *list = m_window->findChild<QListView *>(u"serverList"_s);
        const QModelIndex index = row(name);
        QVERIFY(index.data(Qt::ToolTipRole).toString().startsWith(index.data().toString()));
        // The splitter starts the list at its hint, at every start.
        auto *panel = m_window->findChild<ServerListPanel *>();
        const int nameWidth = list->fontMetrics().horizontalAdvance(name);
        QVERIFY2(
            panel->sizeHint().width() > nameWidth + 40,
            qPrintable(u"the list asks for %1 for a name of %2"_s.arg(panel->sizeHint().width())
                           .arg(nameWidth)));
        QVERIFY(panel->sizeHint().width() <= 420);
    }

    void removeAsksFirst_data()
    {
        QTest::addColumn<bool>("yes");
        QTest::newRow("Yes removes the server") << true;
        QTest::newRow("No keeps the server") << false;
    }
    void removeAsksFirst()
    {
        QFETCH(bool, yes);
        QTest::mouseClick(listButton(tr("Remove…")) ? listButton(tr("Remove…"))
                                                    : listButton(tr("Remove")),
                          Qt::LeftButton);
        QTRY_VERIFY(confirmation() && confirmation()->isVisible());
        QVERIFY2(confirmation()->text().contains(u"\"a\""_s), qPrintable(confirmation()->text()));
        QVERIFY(m_window->serverStore()->indexOf(u"a"_s) >= 0); // not yet
        // The engine's answers keep coming while it is up: the dialog is not a nested loop.
        const int before = m_window->sessionPanel()->shownGeneration();
        m_host->reconnect(u"a"_s);
        QTRY_COMPARE_WITH_TIMEOUT(m_window->sessionPanel()->shownGeneration(), before + 1, 10000);
        QTest::mouseClick(confirmation()->button(yes ? QMessageBox::Yes : QMessageBox::No),
                          Qt::LeftButton);
        QTRY_VERIFY(!confirmation() || !confirmation()->isVisible());
        QCOMPARE(m_window->serverStore()->indexOf(u"a"_s) >= 0, !yes);
        QCOMPARE(m_window->currentServer(), yes ? u"b"_s : u"a"_s);
    }

    void theAboutDialogNamesTheVersions()
    {
        QVERIFY(action(u"about"_s));
        action(u"about"_s)->trigger();
        QDialog *about = nullptr;
        QTRY_VERIFY((about = m_window->findChild<QDialog *>(u"aboutDialog"_s)) &&
                    about->isVisible());
        QString text;
        for (const QLabel *l : about->findChildren<QLabel *>())
            text += l->text() + u'\n';
        QVERIFY2(text.contains(u"Sonde " SONDE_VERSION ""_s), qPrintable(text));
        QVERIFY2(text.contains(QString::fromLatin1(qVersion())), qPrintable(text));
        QVERIFY2(text.contains(QString::fromLatin1(QT_VERSION_STR)), qPrintable(text));
        QVERIFY2(text.contains(u"KSyntaxHighlighting"_s) || text.contains(u"built-in JSON"_s),
                 qPrintable(text));
        about->close();
    }

    void theAboutDialogSaysWhatABugReportNeeds_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QStringList>("says");
        QFile metainfo(QString::fromUtf8(SONDE_METAINFO_PATH));
        QVERIFY(metainfo.open(QIODevice::ReadOnly));
        const QString xml = QString::fromUtf8(metainfo.readAll());
        const auto tag = [&xml](const QString &pattern) {
            return QRegularExpression(pattern).match(xml).captured(1);
        };
        const QString homepage = tag(u"<url type=\"homepage\">([^<]+)</url>"_s);
        const QString licence = tag(u"<project_license>([^<]+)</project_license>"_s);
        QVERIFY(!homepage.isEmpty() && !licence.isEmpty());
        QTest::newRow("the licence is the metainfo's") << u"aboutLicence"_s << QStringList{licence};
        QTest::newRow("the homepage is the metainfo's, as a link")
            << u"aboutHomepage"_s << QStringList{u"href=\"%1\""_s.arg(homepage)};
        QTest::newRow("the protocol revisions are the ones the protocol code speaks")
            << u"aboutRevisions"_s
            << Rev20260728::supportedProtocolVersions() + Mcp::supportedProtocolVersions();
        QTest::newRow("the settings file is the one this run uses")
            << u"aboutSettings"_s << QStringList{QDir::homePath() + u"/.config/Sonde/Sonde.conf"_s};
        QTest::newRow("the history file is this run's")
            << u"aboutHistory"_s << QStringList{QDir::homePath() + u"/data/history.sqlite"_s};
        QTest::newRow("the logs say where they go, there being no file")
            << u"aboutLogs"_s << QStringList{u"no log file"_s, u"standard error"_s};
    }

    void theAboutDialogSaysWhatABugReportNeeds()
    {
        QFETCH(QString, field);
        QFETCH(QStringList, says);
        m_window->setRunPaths(QDir::homePath() + u"/.config/Sonde/Sonde.conf"_s,
                              QDir::homePath() + u"/data/history.sqlite"_s);
        QDialog *about = openAbout();
        QVERIFY(about);
        auto *label = about->findChild<QLabel *>(field);
        QVERIFY(label);
        for (const QString &s : says)
            QVERIFY2(label->text().contains(s), qPrintable(label->text() + u" lacks "_s + s));
        if (field == u"aboutLogs"_s)
            if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty())
                about->grab().save(dir + u"/about.png"_s);
        about->close();
    }

    void copyForABugReportCopiesPlainTextWithoutSecrets_data()
    {
        QTest::addColumn<bool>("recording");
        QTest::newRow("a run that records its history names the file") << true;
        QTest::newRow("a run without history says none is recorded") << false;
    }

    void copyForABugReportCopiesPlainTextWithoutSecrets()
    {
        QFETCH(bool, recording);
        // A server with secrets of both kinds: none of them belongs in a bug report.
        ServerConfig secret = demo(u"secret"_s);
        secret.environment.insert(u"API_TOKEN"_s, u"env-s3cret-value"_s);
        m_window->addServer(secret, {}, false);
        const QString history = QDir::homePath() + u"/data/history.sqlite"_s;
        m_window->setRunPaths(QDir::homePath() + u"/.config/Sonde/Sonde.conf"_s,
                              recording ? history : QString());
        QDialog *about = openAbout();
        QVERIFY(about);
        QGuiApplication::clipboard()->clear();
        auto *copy = about->findChild<QPushButton *>(u"aboutCopyReport"_s);
        QVERIFY(copy);
        QTest::mouseClick(copy, Qt::LeftButton);
        const QString report = QGuiApplication::clipboard()->text();
        QStringList lines = report.split(u'\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.size() >= 8, qPrintable(report));
        QCOMPARE(lines.mid(0, 3), AboutDialog::versionLines());
        const auto line = [&lines](const QString &head) {
            for (const QString &l : lines)
                if (l.startsWith(head))
                    return l;
            return QString();
        };
        QVERIFY2(line(u"OS: "_s).contains(QSysInfo::kernelType()), qPrintable(report));
        for (const QString &v :
             Rev20260728::supportedProtocolVersions() + Mcp::supportedProtocolVersions())
            QVERIFY2(line(u"Protocol revisions: "_s).contains(v), qPrintable(report));
        QCOMPARE(line(u"Settings: "_s), u"Settings: ~/.config/Sonde/Sonde.conf"_s);
        QCOMPARE(line(u"History: "_s), recording ? u"History: ~/data/history.sqlite"_s
                                                 : u"History: none recorded in this run"_s);
        QVERIFY2(line(u"Logs: "_s).contains(u"standard error"_s), qPrintable(report));
        QVERIFY2(!report.contains(QDir::homePath() + u'/'), qPrintable(report));
        QVERIFY2(!report.contains(u"s3cret"_s), qPrintable(report));
        QVERIFY2(!report.contains(u'<'), qPrintable(report)); // plain text, not HTML
        about->close();
    }

    void theShortcutsDialogListsEveryActionsShortcut()
    {
        QVERIFY(action(u"shortcuts"_s));
        action(u"shortcuts"_s)->trigger();
        QDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = m_window->findChild<QDialog *>(u"shortcutsDialog"_s)) &&
                    dialog->isVisible());
        auto *table = dialog->findChild<QTableWidget *>(u"shortcutsTable"_s);
        QVERIFY(table);
        QStringList shown;
        for (int r = 0; r < table->rowCount(); ++r)
            shown.append(table->item(r, 0)->text() + u'=' + table->item(r, 1)->text());
        int withKeys = 0;
        for (const QAction *a : m_window->findChildren<QAction *>()) {
            if (a->shortcut().isEmpty() || !a->objectName().startsWith(u"action:"_s))
                continue;
            ++withKeys;
            const QString entry = QString(a->text()).remove(u'&') + u'=' +
                                  a->shortcut().toString(QKeySequence::NativeText);
            QVERIFY2(shown.contains(entry),
                     qPrintable(entry + u" not in "_s + shown.join(u", "_s)));
        }
        QVERIFY(withKeys >= 10);
        dialog->close();
    }
};

QTEST_MAIN(TestMainWindowShell)
#include "tst_mainwindowshell.moc"
