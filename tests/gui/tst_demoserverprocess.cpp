// SPDX-License-Identifier: MIT
// The built-in HTTP demo as a child: ready with the URL it printed, failed when it prints
// nothing within the timeout (on a ManualClock) or exits first, died when it goes after it
// was ready, and gone after stop().
#include "application/servers/demoserverprocess.h"
#include "testpaths.h"
#include "util/clock.h"

#include <QSignalSpy>
#include <QTest>

#include <csignal>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestDemoServerProcess : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theDemoIsReadyWithItsUrlAndStops()
    {
        DemoServerProcess demo;
        QSignalSpy ready(&demo, &DemoServerProcess::ready);
        demo.start(QString::fromUtf8(SONDE_DEMO_SERVER_PATH));
        QVERIFY(ready.wait(10000));
        const QUrl url = ready.at(0).at(0).toUrl();
        QCOMPARE(url.host(), u"127.0.0.1"_s);
        QVERIFY(url.port() > 0);
        QCOMPARE(demo.url(), url);
        QSignalSpy stopped(&demo, &DemoServerProcess::stopped);
        QSignalSpy died(&demo, &DemoServerProcess::died);
        demo.stop();
        QVERIFY(stopped.wait(5000));
        QVERIFY(!demo.isRunning());
        QCOMPARE(died.size(), 0);
    }

    void aChildThatPrintsNothingFailsAfterTheTimeout()
    {
        ManualClock clock;
        DemoServerProcess demo(nullptr, &clock);
        QSignalSpy failed(&demo, &DemoServerProcess::failed);
        demo.start(u"/bin/sleep"_s, {u"30"_s});
        QTRY_VERIFY(demo.processId() > 0);
        clock.advance(DemoServerProcess::StartTimeoutMs - 1);
        QCOMPARE(failed.size(), 0);
        clock.advance(1);
        QCOMPARE(failed.size(), 1);
        QVERIFY2(failed.at(0).at(0).toString().contains(u"no URL within 5 s"_s),
                 qPrintable(failed.at(0).at(0).toString()));
        QTRY_VERIFY(!demo.isRunning());
        QCOMPARE(failed.size(), 1); // not again when the kill lands
    }

    void aChildThatExitsFirstFailsWithItsStatus()
    {
        DemoServerProcess demo;
        QSignalSpy failed(&demo, &DemoServerProcess::failed);
        demo.start(QString::fromUtf8(SONDE_DEMO_SERVER_PATH), {u"--http"_s, u"nonsense"_s});
        QVERIFY(failed.wait(10000));
        const QString why = failed.at(0).at(0).toString();
        QVERIFY2(why.contains(u"exited (status 2)"_s) && why.contains(u"HOST:PORT"_s),
                 qPrintable(why));
    }

    void aDemoKilledAfterItWasReadySaysItDied()
    {
        DemoServerProcess demo;
        QSignalSpy ready(&demo, &DemoServerProcess::ready);
        QSignalSpy died(&demo, &DemoServerProcess::died);
        demo.start(QString::fromUtf8(SONDE_DEMO_SERVER_PATH));
        QVERIFY(ready.wait(10000));
        ::kill(pid_t(demo.processId()), SIGKILL);
        QVERIFY(died.wait(5000));
        QVERIFY2(died.at(0).at(0).toString().contains(u"killed"_s),
                 qPrintable(died.at(0).at(0).toString()));
        QVERIFY(!demo.isReady());
    }
};

QTEST_MAIN(TestDemoServerProcess)
#include "tst_demoserverprocess.moc"
