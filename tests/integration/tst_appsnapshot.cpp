// SPDX-License-Identifier: MIT
// `sonde app-snapshot` (docs/apps.md), run as a user runs it, against the official example
// App server from npm (server-basic-vanillajs), the demo server's counter App in both
// revisions, and a fixture whose Apps each do one thing the host must allow or refuse: fetch
// a loopback origin they did not declare (the listener counts no request) or did, call a tool
// that is not theirs to call (the server never sees it) or one that is (it sees it once), or
// break the protocol (the wrong type, no ui/initialize).
#include "testpaths.h"

#include <QColor>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {

// A loopback HTTP listener that counts the requests it gets and answers each with 200 and
// Access-Control-Allow-Origin: * (a sandboxed App's origin is opaque, "null").
class CountingListener : public QObject
{
public:
    CountingListener()
    {
        QVERIFY(m_server.listen(QHostAddress::LocalHost));
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [this, s] {
                    m_buffer[s] += s->readAll();
                    if (!m_buffer[s].contains("\r\n\r\n"))
                        return;
                    const QByteArray line = m_buffer[s].left(m_buffer[s].indexOf("\r\n"));
                    if (line.startsWith("GET "))
                        m_paths << QString::fromLatin1(line.split(' ').value(1));
                    m_buffer.remove(s);
                    s->write("HTTP/1.1 200 OK\r\nAccess-Control-Allow-Origin: *\r\n"
                             "Content-Length: 2\r\nConnection: close\r\n\r\nok");
                    s->disconnectFromHost();
                });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    QString url() const { return u"http://127.0.0.1:%1"_s.arg(m_server.serverPort()); }
    QStringList paths() const { return m_paths; }

private:
    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffer;
    QStringList m_paths;
};

struct Snapshot
{
    int exitCode = -1;
    QJsonObject line;
    QString stderrText;
    QImage image;
};

// Runs the command and keeps the event loop turning (the listener answers meanwhile).
Snapshot snapshot(const QStringList &args, const QString &png)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    p.setProcessEnvironment(env);
    p.start(QString::fromUtf8(SONDE_GUI_PATH),
            QStringList{u"app-snapshot"_s} + args + QStringList{u"--out"_s, png});
    QSignalSpy done(&p, &QProcess::finished);
    if (!done.wait(60000)) {
        p.kill();
        p.waitForFinished();
    }
    Snapshot s;
    s.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    const QList<QByteArray> lines = p.readAllStandardOutput().trimmed().split('\n');
    s.line = QJsonDocument::fromJson(lines.constLast()).object();
    s.stderrText = QString::fromUtf8(p.readAllStandardError());
    s.image.load(png);
    return s;
}

// Not blank: more than a handful of colours (a page's text, a button, a background).
int colours(const QImage &image)
{
    QSet<QRgb> seen;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            seen.insert(image.pixel(x, y));
    return int(seen.size());
}

QStringList logOf(const Snapshot &s)
{
    QStringList out;
    for (const QJsonValue &v : s.line.value("log"_L1).toArray())
        out << v.toString();
    return out;
}

QStringList fixture(const QString &fetchUrl = {}, const QString &callLog = {})
{
    QStringList a{u"--command"_s, u"node"_s, u"--arg"_s,
                  QString::fromUtf8(SONDE_APPS_FIXTURE_PATH)};
    if (!fetchUrl.isEmpty())
        a << u"--arg"_s << u"--fetch-url"_s << u"--arg"_s << fetchUrl;
    if (!callLog.isEmpty())
        a << u"--arg"_s << u"--call-log"_s << u"--arg"_s << callLog;
    return a;
}

// The tools/call requests the fixture server counted for `tool` (its --call-log).
int callsOf(const QString &callLog, const QString &tool)
{
    QFile f(callLog);
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    return int(f.readAll().count((u"tools/call "_s + tool + u'\n').toUtf8()));
}

} // namespace

class TestAppSnapshot : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    QString png(const char *name) const { return m_dir.filePath(QString::fromLatin1(name)); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(QString::fromUtf8(SONDE_VANILLA_APP_SERVER_PATH)),
                 "the pinned server-basic-vanillajs is missing: run ./dev.sh test (npm ci in "
                 "tests/)");
        QVERIFY(m_dir.isValid());
    }

    void anAppInitializesGetsItsResultAndIsPainted_data()
    {
        QTest::addColumn<QStringList>("connection");
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("resource");
        const QString demo = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
        QTest::newRow("the official example App (server-basic-vanillajs over stdio)")
            << QStringList{u"--command"_s, u"node"_s,
                           u"--arg"_s,     QString::fromUtf8(SONDE_VANILLA_APP_SERVER_PATH),
                           u"--arg"_s,     u"--stdio"_s}
            << u"get-time"_s << u"ui://get-time/mcp-app.html"_s;
        QTest::newRow("the demo server's counter App, initialize era")
            << QStringList{u"--command"_s, demo, u"--era"_s, u"initialize"_s} << u"counter-app"_s
            << u"ui://demo/counter-app.html"_s;
        QTest::newRow("the demo server's counter App, 2026-07-28")
            << QStringList{u"--command"_s, demo, u"--era"_s, u"2026-07-28"_s} << u"counter-app"_s
            << u"ui://demo/counter-app.html"_s;
    }
    void anAppInitializesGetsItsResultAndIsPainted()
    {
        QFETCH(QStringList, connection);
        QFETCH(QString, tool);
        QFETCH(QString, resource);
        const Snapshot s = snapshot(
            connection + QStringList{u"--tool"_s, tool, u"--size"_s, u"640x480"_s}, png("app.png"));
        QVERIFY2(s.exitCode == 0, qPrintable(s.stderrText));
        QCOMPARE(s.line.value("tool"_L1).toString(), tool);
        QCOMPARE(s.line.value("resource"_L1).toString(), resource);
        QVERIFY(s.line.value("initialized"_L1).toBool());
        QVERIFY(s.line.value("tool_result_delivered"_L1).toBool());
        QCOMPARE(s.line.value("size"_L1).toArray(), (QJsonArray{640, 480}));
        QCOMPARE(s.image.size(), QSize(640, 480));
        QVERIFY2(colours(s.image) > 8, qPrintable(u"%1 colours"_s.arg(colours(s.image))));
        QCOMPARE(s.line.value("csp_blocked"_L1).toArray(), QJsonArray());
        // As root Chromium's sandbox cannot run, and the line says so; otherwise it runs.
        QCOMPARE(s.line.value("sandbox"_L1).toBool(), geteuid() != 0);
    }

    void whatIsNotAWorkingAppFailsNamingWhy_data()
    {
        QTest::addColumn<QStringList>("connection");
        QTest::addColumn<QString>("tool");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("why");
        QTest::newRow("a tool without an App")
            << QStringList{u"--command"_s, QString::fromUtf8(SONDE_DEMO_SERVER_PATH)} << u"echo"_s
            << 3 << u"has no App"_s;
        QTest::newRow("a resource that is not text/html;profile=mcp-app")
            << fixture() << u"wrong-type"_s << 4 << u"not text/html;profile=mcp-app"_s;
        QTest::newRow("an App that never sends ui/initialize")
            << fixture() << u"never-initializes"_s << 1 << u"never sent ui/initialize"_s;
        QTest::newRow("a tool the server does not have")
            << fixture() << u"no-such-tool"_s << 2 << u"no tool named"_s;
    }
    void whatIsNotAWorkingAppFailsNamingWhy()
    {
        QFETCH(QStringList, connection);
        QFETCH(QString, tool);
        QFETCH(int, exitCode);
        QFETCH(QString, why);
        const Snapshot s = snapshot(
            connection + QStringList{u"--tool"_s, tool, u"--timeout"_s, u"3"_s}, png("failed.png"));
        QCOMPARE(s.exitCode, exitCode);
        QVERIFY2(s.line.value("error"_L1).toString().contains(why),
                 qPrintable(s.line.value("error"_L1).toString()));
        QVERIFY2(s.stderrText.contains(u"sonde app-snapshot: "_s) && s.stderrText.contains(why),
                 qPrintable(s.stderrText));
        QVERIFY(!s.line.value("tool_result_delivered"_L1).toBool());
    }

    // apps.mdx: with no connectDomains declared, no network at all; a declared origin is
    // reached. Counted where it would arrive.
    void anAppReachesOnlyTheOriginsItDeclared()
    {
        CountingListener listener;
        const Snapshot blocked =
            snapshot(fixture(listener.url()) + QStringList{u"--tool"_s, u"fetch-undeclared"_s},
                     png("undeclared.png"));
        QVERIFY2(blocked.exitCode == 0, qPrintable(blocked.stderrText));
        QVERIFY2(logOf(blocked).join(u'\n').contains(u"fetch undeclared: blocked"_s),
                 qPrintable(logOf(blocked).join(u'\n')));
        QCOMPARE(blocked.line.value("csp_blocked"_L1).toArray(),
                 (QJsonArray{u"connect-src %1/undeclared"_s.arg(listener.url())}));
        QCOMPARE(listener.paths(), QStringList());

        const Snapshot declared =
            snapshot(fixture(listener.url()) + QStringList{u"--tool"_s, u"fetch-declared"_s},
                     png("declared.png"));
        QVERIFY2(declared.exitCode == 0, qPrintable(declared.stderrText));
        QVERIFY2(logOf(declared).join(u'\n').contains(u"fetch declared: ok 200"_s),
                 qPrintable(logOf(declared).join(u'\n')));
        QCOMPARE(declared.line.value("csp_blocked"_L1).toArray(), QJsonArray());
        QCOMPARE(listener.paths(), QStringList{u"/declared"_s});
    }

    // apps.mdx: "Host MUST reject tools/call requests from apps for tools that don't include
    // "app" in visibility". The server's own count says whether it was sent.
    void anAppCallsOnlyToolsVisibleToApps_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("called");
        QTest::addColumn<int>("reached");
        QTest::addColumn<QString>("logged");
        QTest::newRow("a tool whose visibility is [\"model\"] is refused")
            << u"call-model-only"_s << u"model-only"_s << 0 << u"model-only: error -32602"_s;
        QTest::newRow("a tool whose visibility is [\"app\"] is called once")
            << u"call-app-tool"_s << u"app-only"_s << 1 << u"app-only: result app-only answered"_s;
    }
    void anAppCallsOnlyToolsVisibleToApps()
    {
        QFETCH(QString, tool);
        QFETCH(QString, called);
        QFETCH(int, reached);
        QFETCH(QString, logged);
        const QString callLog = m_dir.filePath(tool + u".calls"_s);
        const Snapshot s =
            snapshot(fixture({}, callLog) + QStringList{u"--tool"_s, tool}, png("calls.png"));
        QVERIFY2(s.exitCode == 0, qPrintable(s.stderrText));
        QVERIFY2(logOf(s).join(u'\n').contains(logged), qPrintable(logOf(s).join(u'\n')));
        QCOMPARE(callsOf(callLog, tool), 1);
        QCOMPARE(callsOf(callLog, called), reached);
    }

    // The App's frame stays on its document: a page it navigates to would run under no policy
    // of the App's and still speak to the host as the App.
    void anAppCannotTakeItsFrameElsewhere()
    {
        const Snapshot s =
            snapshot(fixture() + QStringList{u"--tool"_s, u"navigates-away"_s}, png("away.png"));
        QVERIFY2(s.exitCode == 0, qPrintable(s.stderrText));
        const QString log = logOf(s).join(u'\n');
        QVERIFY2(log.contains(u"navigating away"_s), qPrintable(log));
        QVERIFY2(log.contains(u"Refused to load 'data:text/html"_s), qPrintable(log));
        QVERIFY2(!log.contains(u"[info] escaped the policy"_s), qPrintable(log));
    }

    void badOptionsAreOneLineErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("error");
        QTest::newRow("no server") << QStringList{u"--tool"_s, u"x"_s}
                                   << u"say which server: --command, --url or --config"_s;
        QTest::newRow("arguments that are not an object")
            << QStringList{u"--command"_s, u"x"_s, u"--tool"_s, u"x"_s, u"--args"_s, u"[1]"_s}
            << u"--args wants a JSON object: not an object"_s;
        QTest::newRow("a size that is not WxH")
            << QStringList{u"--command"_s, u"x"_s, u"--tool"_s, u"x"_s, u"--size"_s, u"big"_s}
            << u"--size wants WIDTHxHEIGHT, each 10 to 8192 pixels"_s;
    }
    void badOptionsAreOneLineErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, error);
        const Snapshot s = snapshot(args, png("bad.png"));
        QCOMPARE(s.exitCode, 2);
        QCOMPARE(s.stderrText.trimmed(), u"sonde app-snapshot: "_s + error);
    }
};

QTEST_GUILESS_MAIN(TestAppSnapshot)
#include "tst_appsnapshot.moc"
