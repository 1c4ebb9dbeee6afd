// SPDX-License-Identifier: MIT
// The window on a server that speaks only 2026-07-28: the official v2 SDK server
// (tests/fixtures/v2-server.mjs) over stdio, as a user adds it. auto finds the era, the
// tools list, a call from the form answers, an MRTR question opens the same dialog a
// 2025-11-25 server's request would and the call finishes with the answer, and the
// transcript says one call took two legs.
#include "application/transcript/transcriptstore.h"
#include "engine/corehost.h"
#include "testpaths.h"
#include "tools/toolspanel.h"
#include "window/guiserverrequesthandler.h"
#include "window/mainwindow.h"

#include <QDialog>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestMainWindowRev20260728 : public QObject
{
    Q_OBJECT

    std::unique_ptr<CoreHost> m_host;
    std::unique_ptr<MainWindow> m_window;

    ToolsPanel *tools() const { return m_window->toolsPanel(); }
    QPushButton *callButton() const { return tools()->findChild<QPushButton *>(u"callButton"_s); }
    int toolRows() const
    {
        return tools()->findChild<QListView *>(u"toolList"_s)->model()->rowCount();
    }

private Q_SLOTS:
    void init()
    {
        m_host = std::make_unique<CoreHost>();
        m_window = std::make_unique<MainWindow>(*m_host);
        ServerConfig c;
        c.name = u"v2"_s;
        c.program = u"node"_s;
        c.arguments = {QString::fromUtf8(SONDE_V2_SERVER_PATH), u"--stdio"_s};
        m_window->addServer(c); // era auto, as the dialog leaves it
        m_window->show();
        m_window->selectServer(c.name);
        QTRY_COMPARE_WITH_TIMEOUT(m_host->lastSnapshot(u"v2"_s).state,
                                  SessionSnapshot::State::Ready, 15000);
    }
    void cleanup()
    {
        QSignalSpy down(m_host.get(), &CoreHost::shutdownFinished);
        m_host->shutdown();
        down.wait(5000);
        m_window.reset();
        m_host.reset();
    }

    void autoFindsTheModernEraAndTheToolsAreListed()
    {
        const SessionSnapshot s = m_host->lastSnapshot(u"v2"_s);
        QCOMPARE(s.era, ServerConfig::Era::Rev20260728);
        QCOMPARE(s.protocolVersion, u"2026-07-28"_s);
        QVERIFY(s.sessionId.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(toolRows(), 5, 10000);
        QVERIFY(tools()->selectTool(u"echo"_s));
        auto *message = tools()->findChild<QLineEdit *>(u"field:message"_s);
        QVERIFY(message);
        QTest::keyClicks(message, u"from the window"_s);
        QTRY_VERIFY(callButton()->isEnabled());
        QTest::mouseClick(callButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(tools()->resultText(), u"Echo: from the window"_s, 10000);
    }

    void anInputRequiredCallOpensTheDialogAndFinishesWithTheAnswer()
    {
        QTRY_COMPARE_WITH_TIMEOUT(toolRows(), 5, 10000);
        QSignalSpy shown(m_window->requestHandler(), &GuiServerRequestHandler::requestShown);
        QVERIFY(tools()->selectTool(u"ask-name"_s));
        QTRY_VERIFY(callButton()->isEnabled());
        QTest::mouseClick(callButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(shown.size(), 1, 10000);
        QCOMPARE(shown.at(0).at(0).toString(), u"elicitation/create"_s);
        auto *dialog = qobject_cast<QDialog *>(shown.at(0).at(1).value<QWidget *>());
        QVERIFY(dialog);
        auto *name = dialog->findChild<QLineEdit *>(u"field:name"_s);
        QVERIFY(name);
        QTest::keyClicks(name, u"Ada"_s);
        QTest::mouseClick(dialog->findChild<QPushButton *>(u"elicitationAccept"_s), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(tools()->resultText(), u"hello Ada"_s, 10000);
        // One call, two legs: the transcript links the request to its retry.
        bool linked = false;
        const TranscriptStore *store = m_window->transcriptStore();
        for (int i = 0; i < store->size(); ++i)
            linked |= store->event(i).event == "input-required"_L1;
        QVERIFY(linked);
    }
};

QTEST_MAIN(TestMainWindowRev20260728)
#include "tst_mainwindowrev20260728.moc"
