// SPDX-License-Identifier: MIT
// Server → Wrap in a client config…: the dialog lists a client config's servers, wrapped or
// not, wraps the selected one in sonde-cli proxy and unwraps it to the file's own bytes.
#include "engine/corehost.h"
#include "servers/wrapconfigdialog.h"
#include "testpaths.h"
#include "window/mainwindow.h"
#include "window/mainwindowactions.h"

#include <QAction>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <csignal>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestWrapConfigDialog : public QObject
{
    Q_OBJECT
    QTemporaryDir m_runtime;
    QTemporaryDir m_data;

private Q_SLOTS:
    // The proxies a test starts announce themselves and record under folders of its own.
    void initTestCase()
    {
        qputenv("XDG_RUNTIME_DIR", m_runtime.path().toUtf8());
        qputenv("XDG_DATA_HOME", m_data.path().toUtf8());
    }

    // An HTTP entry's client connects to a proxy on this machine: the dialog starts it, on
    // the port the entry now names, and it outlives the dialog (and the window).
    void anHttpServersProxyIsStartedFromTheDialog()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"mcp.json"_s);
        QFile source(
            QString::fromUtf8(SONDE_SOURCE_DIR "/tests/fixtures/client-configs/cursor-mcp.json"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(source.readAll());
        file.close();
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const quint16 port = probe.serverPort();
        probe.close();

        WrapConfigDialog dialog(QString::fromUtf8(SONDE_CLI_PATH));
        dialog.load(path);
        QTreeWidget *entries = dialog.entries();
        entries->setCurrentItem(entries->topLevelItem(1)); // "web", http://localhost:3000/sse
        QCOMPARE(entries->currentItem()->text(0), u"web"_s);
        QVERIFY(!dialog.findChild<QPushButton *>(u"startProxyButton"_s)->isEnabled());
        dialog.findChild<QSpinBox *>()->setValue(port);
        dialog.wrapSelected(false);
        QVERIFY2(dialog.message().contains(u"Start its proxy"_s), qPrintable(dialog.message()));
        QCOMPARE(entries->currentItem()->text(0), u"web"_s);
        QVERIFY(dialog.findChild<QPushButton *>(u"startProxyButton"_s)->isEnabled());
        const qint64 pid = dialog.startProxySelected();
        QVERIFY2(pid > 0, qPrintable(dialog.message()));
        const QString socket = m_runtime.filePath(u"sonde/proxy-%1.sock"_s.arg(pid));
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(socket), 10000);
        // Listening where the entry points the client.
        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, port);
        QVERIFY(client.waitForConnected(5000));
        ::kill(pid_t(pid), SIGTERM);
        QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(socket), 10000);
    }

    void aServerIsWrappedAndUnwrappedFromTheDialog()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u".mcp.json"_s);
        QFile source(QString::fromUtf8(SONDE_SOURCE_DIR
                                       "/tests/fixtures/client-configs/claude-code.mcp.json"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QByteArray original = source.readAll();
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(original);
        file.close();

        WrapConfigDialog dialog(u"/usr/bin/sonde-cli"_s);
        dialog.load(path);
        QTreeWidget *entries = dialog.entries();
        QCOMPARE(entries->topLevelItemCount(), 2);
        QCOMPARE(entries->topLevelItem(1)->text(0), u"local"_s);
        QCOMPARE(entries->topLevelItem(1)->text(1), u"directly"_s);
        entries->setCurrentItem(entries->topLevelItem(1));
        QVERIFY(dialog.findChild<QPushButton *>(u"wrapButton"_s)->isEnabled());
        QVERIFY(!dialog.findChild<QPushButton *>(u"unwrapButton"_s)->isEnabled());

        dialog.wrapSelected(false);
        QVERIFY2(dialog.message().startsWith(u"Wrapped \"local\""_s), qPrintable(dialog.message()));
        QCOMPARE(entries->topLevelItem(1)->text(1), u"through sonde-cli proxy"_s);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray wrapped = file.readAll();
        file.close();
        QVERIFY(wrapped.contains("\"command\": \"/usr/bin/sonde-cli\""));
        QVERIFY(wrapped.contains("[\"proxy\", \"--\", \"node\", \"server.js\""));

        entries->setCurrentItem(entries->topLevelItem(1));
        QVERIFY(dialog.findChild<QPushButton *>(u"unwrapButton"_s)->isEnabled());
        dialog.unwrapSelected(false);
        QCOMPARE(entries->topLevelItem(1)->text(1), u"directly"_s);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), original);
    }

    void aFileThatIsNotAClientConfigIsSaidSo()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath(u"x.json"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("<html>not a config</html>");
        file.close();
        WrapConfigDialog dialog(u"sonde-cli"_s);
        dialog.load(file.fileName());
        QCOMPARE(dialog.entries()->topLevelItemCount(), 0);
        QVERIFY(dialog.message().contains(u"not a JSON object"_s));
        QVERIFY(!dialog.findChild<QPushButton *>(u"wrapButton"_s)->isEnabled());
    }

    void theServerMenuOffersIt()
    {
        CoreHost host;
        MainWindow window(host);
        QAction *wrap = window.actions()->action(MainWindowActions::WrapConfig);
        QVERIFY(wrap->isEnabled());
        bool inServerMenu = false;
        for (QAction *m : window.menuBar()->actions())
            if (m->menu() && m->menu()->objectName() == "menu:server"_L1)
                inServerMenu = m->menu()->actions().contains(wrap);
        QVERIFY(inServerMenu);
    }
};

QTEST_MAIN(TestWrapConfigDialog)
#include "tst_wrapconfigdialog.moc"
