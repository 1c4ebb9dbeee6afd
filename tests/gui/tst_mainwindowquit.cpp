// SPDX-License-Identifier: MIT
// Quitting the window closes the sessions before it goes: against sonde-demo-server over
// HTTP, the server sees the DELETE before the window says it is done, and the event loop
// ran all along (the close is refused at first, not blocked on).
#include "../integration/clifixtures.h"
#include "engine/corehost.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace SondeTest;
using namespace Qt::StringLiterals;

class TestMainWindowQuit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void quittingWaitsForTheSessionToBeDeleted_data()
    {
        QTest::addColumn<bool>("byShortcut");
        QTest::newRow("closing the window waits for the HTTP session's DELETE") << false;
        QTest::newRow("Ctrl+Q waits for the HTTP session's DELETE") << true;
    }
    void quittingWaitsForTheSessionToBeDeleted()
    {
        QFETCH(bool, byShortcut);
        DemoHttpServer server;
        QVERIFY(server.start());
        CoreHost host;
        MainWindow window(host);
        ServerConfig web;
        web.name = u"web"_s;
        web.url = QUrl(server.url());
        web.route = ServerConfig::Route::StreamableHttp;
        web.era = ServerConfig::Era::Initialize; // a session, hence a DELETE to wait for
        window.addServer(web);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTRY_COMPARE_WITH_TIMEOUT(host.lastSnapshot(u"web"_s).state, SessionSnapshot::State::Ready,
                                  10000);

        // By name, so this test builds (and fails) against a window that does not wait.
        QSignalSpy done(&window, SIGNAL(shutdownFinished()));
        QVERIFY2(done.isValid(), "MainWindow has no shutdownFinished() signal");
        QSignalSpy hostDone(&host, &CoreHost::shutdownFinished);
        QElapsedTimer quitting;
        quitting.start();
        if (byShortcut) {
            QTest::keyClick(&window, Qt::Key_Q, Qt::ControlModifier);
        } else {
            QVERIFY2(!window.close(), "the window closed before its sessions did");
        }
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, MainWindow::ShutdownBoundMs + 1000);
        qInfo("the window was done %lld ms after the quit", quitting.elapsed());
        QCOMPARE(hostDone.size(), 1); // the core finished, not the bound
        QVERIFY(!window.isVisible());
        const QByteArray log = server.log();
        QVERIFY2(log.contains("terminated by DELETE"), log.constData());
    }
};

QTEST_MAIN(TestMainWindowQuit)
#include "tst_mainwindowquit.moc"
