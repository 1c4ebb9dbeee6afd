// SPDX-License-Identifier: MIT
// The Tools tab while a call's stream is resumed: the demo server over HTTP tags its SSE
// events with ids; Health's "Drop connection" cuts the running call's stream, and the bar says
// "stream dropped, resuming with Last-Event-ID …" while Sonde resumes it, instead of standing
// still; the call then ends with its own answer, sent once.
#include "demohttpfixture.h"
#include "engine/corehost.h"
#include "servers/healthpanel.h"
#include "testpaths.h"
#include "tools/toolspanel.h"
#include "window/mainwindow.h"

#include <QLineEdit>
#include <QListView>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestStreamResume : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aDroppedStreamIsSaidOnTheBarWhileItIsResumed()
    {
        SondeTest::DemoHttpServer demo;
        QVERIFY2(demo.start(), "sonde-demo-server --http did not start");
        const QString url = demo.url();
        {
            CoreHost host;
            MainWindow window(host);
            ServerConfig c;
            c.name = u"demo-http"_s;
            c.route = ServerConfig::Route::StreamableHttp;
            c.url = QUrl(url);
            c.era = ServerConfig::Era::Initialize; // event ids and resumption: the handshake era
            window.addServer(c);
            window.resize(1100, 720);
            window.show();
            window.selectServer(c.name);
            ToolsPanel *tools = window.toolsPanel();
            window.tabs()->setCurrentWidget(tools);
            QTRY_VERIFY_WITH_TIMEOUT(
                tools->findChild<QListView *>(u"toolList"_s)->model()->rowCount() >= 19, 10000);
            QVERIFY(tools->selectTool(u"slow-task"_s));
            auto *duration = tools->findChild<QLineEdit *>(u"field:duration_ms"_s);
            duration->clear();
            QTest::keyClicks(duration, u"4000"_s);
            auto *steps = tools->findChild<QLineEdit *>(u"field:steps"_s);
            steps->clear();
            QTest::keyClicks(steps, u"8"_s);
            QTest::mouseClick(tools->findChild<QPushButton *>(u"callButton"_s), Qt::LeftButton);
            auto *bar = tools->findChild<QProgressBar *>(u"progressBar"_s);
            QTRY_VERIFY_WITH_TIMEOUT(bar->maximum() == 1000 && bar->value() > 0, 10000);
            QTest::mouseClick(
                window.healthPanel()->findChild<QPushButton *>(u"fault:drop-connection"_s),
                Qt::LeftButton);
            QTRY_VERIFY_WITH_TIMEOUT(tools->streamNote().startsWith(u"stream dropped, resum"_s) &&
                                         tools->streamNote().contains(u"with Last-Event-ID"_s),
                                     5000);
            if (const QString shots = qEnvironmentVariable("SONDE_SCREENSHOT_DIR");
                !shots.isEmpty())
                window.grab().save(shots + u"/tools-stream-resuming.png"_s);
            // The demo server replays what the dropped stream missed: the call ends with its
            // own answer, not an uncertain one.
            QTRY_VERIFY_WITH_TIMEOUT(tools->resultText().contains(u"slow task finished"_s), 15000);
            QVERIFY2(tools->bannerText().isEmpty(), qPrintable(tools->bannerText()));
            QVERIFY(tools->streamNote().isEmpty());
            QSignalSpy down(&host, &CoreHost::shutdownFinished);
            host.shutdown();
            down.wait(5000);
        }
    }
};

QTEST_MAIN(TestStreamResume)
#include "tst_streamresume.moc"
