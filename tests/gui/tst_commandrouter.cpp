// SPDX-License-Identifier: MIT
// The command router, headless, against sonde-demo-server over stdio: a ready generation's
// lists are fetched once into the view store, one tool call runs at a time, and each answer
// goes where its ticket says (a completion to the panel kind that asked, a command to the
// status line, a call's answer to whoever shows it).
#include "application/servers/commandrouter.h"
#include "application/servers/serverregistry.h"
#include "application/servers/serverstore.h"
#include "application/servers/serverviewstore.h"
#include "engine/corehost.h"
#include "protocol/mcprequests.h"
#include "testpaths.h"

#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;
using Kind = PendingCommand::Kind;

class TestCommandRouter : public QObject
{
    Q_OBJECT

    std::unique_ptr<CoreHost> m_host;
    std::unique_ptr<ServerRegistry> m_registry;
    std::unique_ptr<CommandRouter> m_router;

private Q_SLOTS:
    void init()
    {
        m_host = std::make_unique<CoreHost>();
        m_registry = std::make_unique<ServerRegistry>(*m_host);
        m_router = std::make_unique<CommandRouter>(*m_host, m_registry.get());
        ServerConfig demo;
        demo.name = u"demo"_s;
        demo.program = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
        demo.era = ServerConfig::Era::Initialize;
        m_registry->add(demo, {});
        QTRY_VERIFY_WITH_TIMEOUT(m_registry->views()->tools(u"demo"_s).size() >= 19, 10000);
    }

    void cleanup()
    {
        QSignalSpy down(m_host.get(), &CoreHost::shutdownFinished);
        m_host->shutdown();
        QVERIFY(down.wait(5000));
        m_router.reset();
        m_registry.reset();
        m_host.reset();
    }

    void aReadyGenerationsListsAreFetchedIntoTheViewStore()
    {
        ServerViewStore *views = m_registry->views();
        QCOMPARE(views->listsFetchedForGeneration(u"demo"_s), 1);
        QTRY_VERIFY(!views->list(u"demo"_s, u"resources/list"_s).isEmpty());
        QTRY_VERIFY(!views->list(u"demo"_s, u"prompts/list"_s).isEmpty());
        QCOMPARE(m_registry->servers()->snapshot(0).state, SessionSnapshot::State::Ready);
    }

    void oneToolCallRunsAtATime()
    {
        QSignalSpy finished(m_router.get(), &CommandRouter::toolCallFinished);
        QSignalSpy status(m_router.get(), &CommandRouter::status);
        QVERIFY(m_router->callTool(u"demo"_s, u"echo"_s, {{"message"_L1, "hi"_L1}}));
        QVERIFY(!m_router->callTool(u"demo"_s, u"echo"_s, {{"message"_L1, "again"_L1}}));
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.size(), 1);
        QVERIFY(finished.at(0).at(0).value<CallOutcome>().ok());
        QVERIFY2(status.last().at(0).toString().startsWith(u"demo: answered in "_s),
                 qPrintable(status.last().at(0).toString()));
        QCOMPARE(m_registry->views()->pendingToolCall(), quint64(0));
        QVERIFY(m_router->callTool(u"demo"_s, u"echo"_s, {{"message"_L1, "now"_L1}}));
        QVERIFY(finished.wait(10000));
    }

    // Notifications come from the engine in batches; the window still gets each one, in
    // order, and the call's progress before its answer.
    void aFloodReachesTheWindowOneNotificationAtATimeInOrder()
    {
        QSignalSpy notes(m_router.get(), &CommandRouter::notification);
        QSignalSpy progress(m_router.get(), &CommandRouter::toolProgress);
        QSignalSpy finished(m_router.get(), &CommandRouter::toolCallFinished);
        int progressAtAnswer = -1;
        connect(m_router.get(), &CommandRouter::toolCallFinished, this,
                [&] { progressAtAnswer = int(progress.size()); });
        // 1.2 s: the flood reports its progress once a second.
        QVERIFY(
            m_router->callTool(u"demo"_s, u"flood"_s, {{"rate"_L1, 2000}, {"seconds"_L1, 1.2}}));
        QVERIFY(finished.wait(10000));
        QVERIFY(finished.at(0).at(0).value<CallOutcome>().ok());
        QCOMPARE(notes.size(), 2400);
        for (int i = 0; i < notes.size(); ++i) {
            const auto n = notes.at(i).at(0).value<ServerNotification>();
            QCOMPARE(n.params.value("data"_L1).toString(), u"flood %1/2400"_s.arg(i + 1));
        }
        QCOMPARE(progressAtAnswer, 1);
    }

    void aCompletionGoesToThePanelKindThatAsked_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QJsonObject>("params");
        QTest::addColumn<QStringList>("values");
        QTest::newRow("a prompt argument's values go to the prompts")
            << int(Kind::PromptCompletion)
            << McpRequests::completePromptArgument(u"greeting"_s, u"style"_s, u"p"_s, {})
            << QStringList{u"pirate"_s};
        QTest::newRow("a template variable's values go to the resources")
            << int(Kind::ResourceCompletion)
            << McpRequests::completeResourceArgument(u"demo://notes/{id}"_s, u"id"_s, u"1"_s, {})
            << QStringList{u"1"_s, u"10"_s};
    }
    void aCompletionGoesToThePanelKindThatAsked()
    {
        QFETCH(int, kind);
        QFETCH(QJsonObject, params);
        QFETCH(QStringList, values);
        QSignalSpy ready(m_router.get(), &CommandRouter::completionReady);
        m_router->send(u"demo"_s, Kind(kind), u"arg"_s, u"completion/complete"_s, params);
        QVERIFY(ready.wait(10000));
        QCOMPARE(ready.at(0).at(0).toString(), u"demo"_s);
        QCOMPARE(ready.at(0).at(1).value<Kind>(), Kind(kind));
        QCOMPARE(ready.at(0).at(2).toString(), u"arg"_s);
        QCOMPARE(ready.at(0).at(3).toStringList(), values);
    }

    void aCommandIsToldOnTheStatusLine()
    {
        QSignalSpy status(m_router.get(), &CommandRouter::status);
        m_router->command(u"demo"_s, m_host->reconnect(u"demo"_s), u"reconnect"_s);
        QTRY_VERIFY_WITH_TIMEOUT(!status.isEmpty() &&
                                     status.last().at(0).toString() == u"demo reconnect: done"_s,
                                 10000);
        // The new generation's lists are fetched again.
        QTRY_COMPARE_WITH_TIMEOUT(m_registry->views()->listsFetchedForGeneration(u"demo"_s), 2,
                                  10000);
    }
};

QTEST_MAIN(TestCommandRouter)
#include "tst_commandrouter.moc"
