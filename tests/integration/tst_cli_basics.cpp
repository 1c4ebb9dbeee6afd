// SPDX-License-Identifier: MIT
// What every program says about itself and how sonde-cli reports trouble: --version, one
// line per usage or connection error, a quiet --quiet, and config placeholders that are
// resolved or named, never passed on.
#include "clifixtures.h"
#include "testpaths.h"
#include "util/version.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace SondeTest;

namespace {

// An HTTP server that answers every request with a web page, as a wrong URL does.
class WebPageServer : public QObject
{
public:
    WebPageServer()
    {
        m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [s] {
                    if (!s->readAll().contains("\r\n\r\n"))
                        return;
                    const QByteArray body =
                        "<html><body>Welcome to the company intranet</body></html>";
                    s->write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " +
                             QByteArray::number(body.size()) + "\r\n\r\n" + body);
                });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    QString url() const { return u"http://127.0.0.1:%1/mcp"_s.arg(m_server.serverPort()); }

private:
    QTcpServer m_server;
};

// Sixty seconds: a program that hangs here is the failure.
Run runWithEnvironment(const QString &program, const QStringList &args,
                       const QProcessEnvironment &env)
{
    return runProgram(program, args, {}, env, 60000);
}

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &content)
{
    const QString path = dir.filePath(name);
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(content);
    return path;
}

} // namespace

class TestCliBasics : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyProgramAnswersVersion_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("sonde-cli")
            << QString::fromUtf8(SONDE_CLI_PATH) << QByteArray("sonde-cli " SONDE_VERSION "\n");
        QTest::newRow("sonde-demo-server") << QString::fromUtf8(SONDE_DEMO_SERVER_PATH)
                                           << QByteArray("sonde-demo-server " SONDE_VERSION "\n");
        // Without any display: --version must not need one.
        QTest::newRow("sonde, the GUI, on a machine without a display")
            << QString::fromUtf8(SONDE_GUI_PATH) << QByteArray("Sonde " SONDE_VERSION "\n");
    }
    void everyProgramAnswersVersion()
    {
        QFETCH(QString, program);
        QFETCH(QByteArray, expected);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
            env.remove(QString::fromLatin1(name));
        const Run r = runWithEnvironment(program, {u"--version"_s}, env);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, expected);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
    }

    void usageErrorsAreOneLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString demo = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
        QTest::newRow("an unknown option")
            << QStringList{u"--bogus"_s, u"ping"_s} << u"unknown option --bogus"_s;
        QTest::newRow("an option without its value")
            << QStringList{u"--command"_s} << u"--command needs a value"_s;
        QTest::newRow("a bad value")
            << QStringList{u"--command"_s, demo, u"--timeout"_s, u"soon"_s, u"ping"_s}
            << u"--timeout wants seconds"_s;
        QTest::newRow("no command") << QStringList{u"--command"_s, demo} << u"no command given"_s;
        QTest::newRow("an unknown command")
            << QStringList{u"--command"_s, demo, u"dance"_s} << u"unknown command \"dance\""_s;
        QTest::newRow("an incomplete command")
            << QStringList{u"--command"_s, demo, u"--quiet"_s, u"tools"_s}
            << u"incomplete or unknown command"_s;
        QTest::newRow("arguments that are not JSON")
            << QStringList{u"--command"_s, demo,      u"--quiet"_s, u"tools"_s,
                           u"call"_s,      u"echo"_s, u"{"_s}
            << u"arguments must be a JSON object"_s;
    }
    void usageErrorsAreOneLine()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.count('\n') == 1 && r.err.endsWith('\n'), r.err.constData());
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    }

    void aConnectionErrorIsSaidOnce()
    {
        // The page once came twice: in the error, and again as a protocol violation.
        WebPageServer web;
        const Run r = cli({u"--url"_s, web.url(), u"--timeout"_s, u"5"_s, u"ping"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.count("Welcome to the company intranet") == 1, r.err.constData());
        QVERIFY2(r.err.count("cannot connect") == 1, r.err.constData());
    }

    void quietKeepsQtsOwnMessagesOffStderr()
    {
        // Qt's plugin loader talks when asked to; --quiet must keep any such Qt message (a
        // QIODevice warning included) away, leaving only the one line about the failure.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"QT_LOGGING_RULES"_s, u"qt.*=true"_s);
        const QStringList args{u"--url"_s, u"http://127.0.0.1:%1/mcp"_s.arg(freePort()), u"ping"_s};
        const Run loud = runWithEnvironment(QString::fromUtf8(SONDE_CLI_PATH), args, env);
        QVERIFY2(loud.err.contains("qt."), "the trigger no longer makes Qt speak; pick another");
        const Run quiet = runWithEnvironment(QString::fromUtf8(SONDE_CLI_PATH),
                                             QStringList{u"--quiet"_s} + args, env);
        QCOMPARE(quiet.exitCode, 2);
        QVERIFY2(quiet.err.count('\n') == 1 && quiet.err.startsWith("sonde-cli: cannot connect"),
                 quiet.err.constData());
    }

    void anInputPlaceholderExits2NamingIt()
    {
        QTemporaryDir dir;
        // JSONC as VS Code writes it: a comment, trailing commas.
        const QString config = writeFile(
            dir, u".vscode/mcp.json"_s,
            "{\n  // VS Code asks for this one when the server starts\n"
            "  \"inputs\": [{\"type\": \"promptString\", \"id\": \"api-key\", \"password\": "
            "true},],\n"
            "  \"servers\": {\"gh\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:9/mcp\",\n"
            "                        \"headers\": {\"Authorization\": \"Bearer "
            "${input:api-key}\"}},},\n}\n");
        const Run r = cli({u"--config"_s, config, u"ping"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.count('\n') == 1, r.err.constData());
        QVERIFY2(r.err.contains("${input:api-key}") && r.err.contains("header \"Authorization\""),
                 r.err.constData());
    }

    void anUnsetVariableExits2NamingIt()
    {
        QTemporaryDir dir;
        const QString config = writeFile(
            dir, u".mcp.json"_s,
            QJsonDocument(
                QJsonObject{
                    {"mcpServers"_L1,
                     QJsonObject{
                         {"demo"_L1,
                          QJsonObject{
                              {"command"_L1, QString::fromUtf8(SONDE_DEMO_SERVER_PATH)},
                              {"args"_L1, QJsonArray{u"--state-file"_s,
                                                     u"${env:SONDE_TEST_SURELY_UNSET}"_s}}}}}}})
                .toJson());
        const Run r = cli({u"--config"_s, config, u"ping"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("${env:SONDE_TEST_SURELY_UNSET} is not set"), r.err.constData());
        // Nothing was started with the placeholder as a file name.
        QVERIFY(!QFile::exists(dir.filePath(u"${env:SONDE_TEST_SURELY_UNSET}"_s)));
    }

    void anEnvPlaceholderReachesTheServerProcessEnvironment()
    {
        // The demo server keeps its counter where --state-file says; a shell passes it the
        // value of STATE from its environment, so the file appears only if the resolved
        // value reached the process environment.
        QTemporaryDir dir;
        const QString state = dir.filePath(u"state.json"_s);
        const QString config = writeFile(
            dir, u"mcp.json"_s,
            QJsonDocument(
                QJsonObject{
                    {"servers"_L1,
                     QJsonObject{
                         {"demo"_L1,
                          QJsonObject{{"command"_L1, u"/bin/sh"_s},
                                      {"args"_L1,
                                       QJsonArray{u"-c"_s, u"exec \"$0\" --state-file \"$STATE\""_s,
                                                  QString::fromUtf8(SONDE_DEMO_SERVER_PATH)}},
                                      {"env"_L1, QJsonObject{{"STATE"_L1,
                                                              u"${env:SONDE_TEST_STATE}"_s}}}}}}}})
                .toJson());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"SONDE_TEST_STATE"_s, state);
        const Run r = runWithEnvironment(
            QString::fromUtf8(SONDE_CLI_PATH),
            {u"--config"_s, config, u"--quiet"_s, u"tools"_s, u"call"_s, u"increment-counter"_s},
            env);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile f(state);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(state));
        QCOMPARE(QJsonDocument::fromJson(f.readAll()).object().value("counter"_L1).toInt(), 1);
    }
};

QTEST_GUILESS_MAIN(TestCliBasics)
#include "tst_cli_basics.moc"
