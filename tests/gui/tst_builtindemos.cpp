// SPDX-License-Identifier: MIT
// The built-in demos and the shutdown sequence, headless, with the real sonde-demo-server:
// the HTTP demo waits at a placeholder until the child says its URL, then connects there; the
// child stops once no demo is left; quitting closes the sessions first, then stops the child,
// then says finished, once.
#include "application/servers/builtindemos.h"
#include "application/servers/demoserverprocess.h"
#include "application/servers/serverregistry.h"
#include "application/servers/serverstore.h"
#include "application/window/shutdownsequence.h"
#include "engine/corehost.h"
#include "testpaths.h"
#include "util/clock.h"

#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestBuiltInDemos : public QObject
{
    Q_OBJECT

    std::unique_ptr<CoreHost> m_host;
    std::unique_ptr<ServerRegistry> m_registry;
    std::unique_ptr<BuiltInDemos> m_demos;
    bool m_shutDown = false;

    ServerStore *servers() const { return m_registry->servers(); }
    SessionSnapshot::State state(const QString &name) const
    {
        const int row = servers()->indexOf(name);
        return row < 0 ? SessionSnapshot::State::Closed : servers()->snapshot(row).state;
    }

private Q_SLOTS:
    void init()
    {
        m_host = std::make_unique<CoreHost>();
        m_registry = std::make_unique<ServerRegistry>(*m_host);
        m_demos = std::make_unique<BuiltInDemos>(m_registry.get());
        m_demos->setProgram(QString::fromUtf8(SONDE_DEMO_SERVER_PATH));
        // The store follows the host's snapshots as the window's router makes it.
        connect(m_host.get(), &CoreHost::sessionChanged, servers(), &ServerStore::updateSnapshot);
    }

    void cleanup()
    {
        if (!std::exchange(m_shutDown, false)) {
            QSignalSpy down(m_host.get(), &CoreHost::shutdownFinished);
            m_host->shutdown();
            QVERIFY(down.wait(5000));
        }
        m_demos.reset();
        m_registry.reset();
        m_host.reset();
    }

    void theHttpDemoConnectsOnceTheChildSaysWhereItListens()
    {
        QSignalSpy marked(m_demos.get(), &BuiltInDemos::marked);
        m_demos->addHttpDemo(u"web"_s, {}, ServerConfig::Era::Initialize);
        QCOMPARE(marked.size(), 1);
        const int row = servers()->indexOf(u"web"_s);
        QVERIFY(row >= 0);
        QVERIFY(servers()->isBuiltInHttpDemo(row));
        QCOMPARE(servers()->config(row).url.port(), -1); // the placeholder, not connected
        QTRY_VERIFY_WITH_TIMEOUT(servers()->config(servers()->indexOf(u"web"_s)).url.port() > 0,
                                 10000);
        QTRY_COMPARE_WITH_TIMEOUT(state(u"web"_s), SessionSnapshot::State::Ready, 10000);
        QVERIFY(servers()->isBuiltInHttpDemo(servers()->indexOf(u"web"_s)));
    }

    void theFirstRunOpensTheDemoOverStdioAndOverHttp()
    {
        QCOMPARE(m_demos->addFirstRun(), u"demo-http"_s);
        QCOMPARE(servers()->size(), 2);
        QCOMPARE(servers()->config(servers()->indexOf(u"demo"_s)).era,
                 ServerConfig::Era::Rev20260728);
        QCOMPARE(servers()->builtInHttpDemos(), QStringList{u"demo-http"_s});
        QTRY_COMPARE_WITH_TIMEOUT(state(u"demo"_s), SessionSnapshot::State::Ready, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(state(u"demo-http"_s), SessionSnapshot::State::Ready, 10000);
    }

    void theChildStopsOnceNoDemoIsLeft()
    {
        m_demos->addHttpDemo(u"one"_s, {}, ServerConfig::Era::Initialize);
        m_demos->addHttpDemo(u"two"_s, {}, ServerConfig::Era::Initialize);
        QTRY_COMPARE_WITH_TIMEOUT(state(u"two"_s), SessionSnapshot::State::Ready, 10000);
        QSignalSpy stopped(m_demos.get(), &BuiltInDemos::stopped);
        // The registry says so at once (serverRemoved): the child is told to stop then or not.
        m_registry->remove(u"one"_s);
        QVERIFY(!m_demos->isStopping()); // "two" still uses it
        QCOMPARE(stopped.size(), 0);
        m_registry->remove(u"two"_s);
        QVERIFY(m_demos->isStopping());
        QVERIFY(stopped.wait(5000));
    }

    void quittingClosesTheSessionsThenStopsTheDemoThenFinishesOnce()
    {
        m_demos->addHttpDemo(u"web"_s, {}, ServerConfig::Era::Initialize);
        QTRY_COMPARE_WITH_TIMEOUT(state(u"web"_s), SessionSnapshot::State::Ready, 10000);
        ManualClock clock;
        ShutdownSequence shutdown(*m_host, m_demos.get(), nullptr, &clock);
        QStringList order;
        connect(m_host.get(), &CoreHost::shutdownFinished, this,
                [&] { order.append(u"sessions closed"_s); });
        connect(m_demos.get(), &BuiltInDemos::stopped, this,
                [&] { order.append(u"demo stopped"_s); });
        QSignalSpy finished(&shutdown, &ShutdownSequence::finished);
        connect(&shutdown, &ShutdownSequence::finished, this, [&] { order.append(u"finished"_s); });
        shutdown.start();
        shutdown.start(); // a second close while it runs
        QVERIFY(shutdown.isStarted());
        QVERIFY(finished.wait(ShutdownSequence::BoundMs + 3000));
        clock.advance(ShutdownSequence::BoundMs + DemoServerProcess::StopGraceMs + 1000);
        QCOMPARE(finished.size(), 1);
        QCOMPARE(order, (QStringList{u"sessions closed"_s, u"demo stopped"_s, u"finished"_s}));
        QVERIFY(shutdown.isFinished());
        m_shutDown = true;
    }
};

QTEST_MAIN(TestBuiltInDemos)
#include "tst_builtindemos.moc"
