// SPDX-License-Identifier: MIT
// A client's session seen through `sonde-cli proxy`, in the window (docs/proxy.md): the
// proxy's row appears under "client → server" however the proxy started, with the session's
// frames in the Transcript, the proxy's faults (those of its transport) on the Health tab,
// one click injecting a fault into the live session and the client's verdict shown there.
// The row is never saved with the workspace, never sent to the engine (nor to a doctor's
// Run), and closes with its proxy. The test is the client: it writes the JSON-RPC lines a
// client would.
#include "application/doctor/doctorcontroller.h"
#include "application/doctor/doctorfindingstore.h"
#include "application/servers/proxiedsessions.h"
#include "application/servers/serverstore.h"
#include "application/transcript/transcriptstore.h"
#include "doctor/doctorpanel.h"
#include "engine/corehost.h"
#include "servers/healthpanel.h"
#include "servers/proxyfaultpanel.h"
#include "testpaths.h"
#include "window/mainwindow.h"
#include "window/mainwindowactions.h"

#include <QAction>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestProxiedWindow : public QObject
{
    Q_OBJECT
    QTemporaryDir m_runtime;
    QTemporaryDir m_data;

    static QByteArray line(const QByteArray &json) { return json + '\n'; }

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("XDG_RUNTIME_DIR", m_runtime.path().toUtf8());
        qputenv("XDG_DATA_HOME", m_data.path().toUtf8());
    }

    void aProxiedSessionIsARowWithItsTranscriptFaultsAndVerdicts()
    {
        // The proxy runs before the window looks: it is found all the same.
        QProcess proxy;
        proxy.start(QString::fromUtf8(SONDE_CLI_PATH),
                    {u"proxy"_s, u"--no-history"_s, u"--verdict-window"_s, u"5000"_s, u"--"_s,
                     QString::fromUtf8(SONDE_DEMO_SERVER_PATH)});
        QVERIFY(proxy.waitForStarted());
        proxy.write(line(
            R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"gui-client","version":"1"}}})"));
        proxy.write(line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));
        proxy.write(line(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})"));
        QByteArray out;
        QTRY_VERIFY2_WITH_TIMEOUT((out += proxy.readAllStandardOutput()).contains("\"id\":2"),
                                  out.constData(), 10000);

        CoreHost host;
        MainWindow window(host);
        ServerStore *servers = window.serverStore();
        QSignalSpy added(servers, &ServerStore::serverAdded);
        window.proxiedSessions()->start(QString(), false);
        const QString name = u"gui-client → sonde-demo-server"_s;
        QTRY_VERIFY_WITH_TIMEOUT(servers->indexOf(name) >= 0, 10000);
        const int row = servers->indexOf(name);
        QVERIFY(servers->isProxied(row));
        QCOMPARE(servers->configuredCount(), 0);
        QTRY_COMPARE(servers->snapshot(row).state, SessionSnapshot::State::Ready);
        QCOMPARE(servers->snapshot(row).route, ServerConfig::Route::Stdio);
        QCOMPARE(servers->snapshot(row).generation, 1);
        window.selectServer(name);
        // The Session tab's server, read off the handshake the proxy saw.
        QTRY_COMPARE(servers->snapshot(row).serverInfo.value(u"name"_s).toString(),
                     u"sonde-demo-server"_s);
        QCOMPARE(servers->snapshot(row).protocolVersion, u"2025-11-25"_s);
        QVERIFY(servers->snapshot(row).serverCapabilities.contains(u"tools"_s));

        // The frames from before the window came are in its Transcript, under the row.
        TranscriptStore *transcript = window.transcriptStore();
        QTRY_VERIFY(transcript->servers().contains(name));
        bool listed = false;
        for (int i = 0; i < transcript->size(); ++i)
            listed = listed || (transcript->event(i).server == name &&
                                transcript->event(i).raw.contains("\"tools\":["));
        QVERIFY(listed);

        // The Health tab offers the stdio proxy's faults, not the engine's nor HTTP's.
        HealthPanel *health = window.healthPanel();
        ProxyFaultPanel *faults = health->proxyFaults();
        QVERIFY(faults->isVisibleTo(health));
        auto button = [&](const QString &objectName) {
            return faults->findChild<QPushButton *>(objectName);
        };
        QVERIFY(button(u"proxyFault:drop-response"_s)->isEnabled());
        QVERIFY(button(u"proxyFault:kill-server"_s)->isEnabled());
        QVERIFY(!button(u"proxyFault:expire-session"_s)->isEnabled());
        QVERIFY(!health->findChild<QPushButton *>(u"fault:kill-process"_s)->isEnabled());
        // Nothing to edit, connect or ping: the session is the client's.
        QVERIFY(!window.actions()->action(MainWindowActions::Edit)->isEnabled());
        QVERIFY(!window.actions()->action(MainWindowActions::Connect)->isEnabled());
        QVERIFY(!window.actions()->action(MainWindowActions::Ping)->isEnabled());
        // Nor a doctor's Run: the Doctor tab says why (its messages are still linted).
        DoctorPanel *doctor = window.doctorPanel();
        QVERIFY(!doctor->findChild<QPushButton *>(u"doctorRun"_s)->isEnabled());
        QVERIFY2(doctor->runText().contains(u"sonde-cli proxy"_s), qPrintable(doctor->runText()));
        QVERIFY(window.doctor()->findings()->holds(name));

        // One click: the next answer is dropped; the client gives up and cancels: a pass.
        button(u"proxyFault:drop-response"_s)->click();
        proxy.write(line(
            R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"lost"}}})"));

        // The answer is dropped: the fault's mark on the session's lane says so (in the next
        // batch). Then the client gives up, as an SDK's timeout would.
        const auto seen = [&](const std::function<bool(int)> &match) {
            for (int i = 0; i < transcript->size(); ++i)
                if (transcript->event(i).server == name && match(i))
                    return true;
            return false;
        };
        QTRY_VERIFY(seen([&](int i) { return transcript->event(i).kind == EventKind::Fault; }));
        QVERIFY(!proxy.readAllStandardOutput().contains("\"id\":3")); // dropped, not relayed
        proxy.write(line(
            R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"timed out"}})"));
        QTreeWidget *verdicts = faults->verdictList();
        QTRY_COMPARE_WITH_TIMEOUT(verdicts->topLevelItemCount(), 1, 10000);
        QCOMPARE(verdicts->topLevelItem(0)->text(1), u"drop-response"_s);
        QVERIFY2(verdicts->topLevelItem(0)->text(2) == u"PASS"_s,
                 qPrintable(verdicts->topLevelItem(0)->text(3)));
        QVERIFY(verdicts->topLevelItem(0)->text(3).contains(u"cancelled it"_s));
        // The verdict is a row of its own too.
        QTRY_VERIFY(seen([&](int i) {
            return transcript->event(i).event == "proxy-verdict"_L1 &&
                   transcript->entry(i).summary.startsWith(u"PASS drop-response"_s);
        }));

        // Never saved with the workspace.
        QTemporaryDir dir;
        QSettings settings(dir.filePath(u"s.ini"_s), QSettings::IniFormat);
        window.saveWorkspace(settings);
        settings.sync();
        QFile ini(dir.filePath(u"s.ini"_s));
        QVERIFY(ini.open(QIODevice::ReadOnly));
        QVERIFY(!ini.readAll().contains("gui-client"));

        // The proxy ends with its server: the row stays, closed, its faults off.
        proxy.closeWriteChannel();
        QVERIFY(proxy.waitForFinished(10000));
        QTRY_COMPARE_WITH_TIMEOUT(servers->snapshot(servers->indexOf(name)).state,
                                  SessionSnapshot::State::Closed, 10000);
        QVERIFY(!button(u"proxyFault:drop-response"_s)->isEnabled());
    }
};

QTEST_MAIN(TestProxiedWindow)
#include "tst_proxiedwindow.moc"
