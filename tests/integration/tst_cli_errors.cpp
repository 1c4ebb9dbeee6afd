// SPDX-License-Identifier: MIT
// What a user reads when something is wrong: one line for an HTTP error whose body is a page,
// options taken wherever they stand (or refused, never ignored), usage errors said before any
// server starts, values that make no sense refused, an exec step's arguments passed as they
// are or refused, a timed-out call described as what it was, the flag that raises the frame
// limit named, Sonde's own notices told apart from the server's stderr, and a task-required
// tool of 2025-11-25 said as such.
#include "clifixtures.h"
#include "scriptedhttpserver.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace SondeTest;

namespace {

// python3 -m http.server's answer to a POST, and an Express 404: what a wrong URL serves.
const QByteArray PythonPage =
    "<!DOCTYPE HTML>\n<html lang=\"en\">\n    <head>\n        <meta charset=\"utf-8\">\n"
    "        <title>Error response</title>\n    </head>\n    <body>\n"
    "        <h1>Error response</h1>\n        <p>Error code: 501</p>\n"
    "        <p>Message: Unsupported method ('POST').</p>\n"
    "        <p>Error code explanation: 501 - Server does not support this operation.</p>\n"
    "    </body>\n</html>\n";
const QByteArray ExpressPage =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">"
    "\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot POST /mcp</pre>"
    "\n</body>\n</html>\n";
const QByteArray ProxyPage =
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>"
    "\r\n</body>\r\n</html>\r\n";

QStringList demo()
{
    return {u"--command"_s, QString::fromUtf8(SONDE_DEMO_SERVER_PATH)};
}

QJsonObject answer(const Run &r)
{
    return QJsonDocument::fromJson(r.out).object();
}

} // namespace

class TestCliErrors : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void anHttpErrorWithAPageIsOneLine_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("page");
        QTest::addColumn<QString>("hint");
        QTest::newRow("python3 -m http.server's 501")
            << 501 << PythonPage << u"not an MCP endpoint?"_s;
        QTest::newRow("an Express 404") << 404 << ExpressPage << u"not an MCP endpoint?"_s;
        QTest::newRow("a proxy's 502")
            << 502 << ProxyPage << u"a proxy or gateway answered: is the server behind it up?"_s;
    }
    void anHttpErrorWithAPageIsOneLine()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, page);
        QFETCH(QString, hint);
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        const QByteArray answerBytes =
            ScriptedHttpServer::response(status, "text/html; charset=utf-8", page);
        server.on(u"initialize"_s,
                  [&](const ScriptedHttpServer::Request &) { return answerBytes; });
        server.on(u"GET"_s, [&](const ScriptedHttpServer::Request &) { return answerBytes; });
        const Run r = cli({u"--url"_s, server.url(), u"--quiet"_s, u"tools"_s, u"list"_s});
        QCOMPARE(r.exitCode, 2);
        const QByteArray err = r.err.trimmed();
        QCOMPARE(err.count('\n'), 0);
        QVERIFY2(err.contains(QByteArray::number(status)), err.constData());
        QVERIFY2(err.contains("text/html"), err.constData());
        QVERIFY2(err.contains(QByteArray(QByteArray::number(page.size()) + " bytes")),
                 err.constData());
        QVERIFY2(err.contains(hint.toUtf8()), err.constData());
        QVERIFY2(!err.contains("<html") && !err.contains("<!DOCTYPE"), err.constData());
    }

    void optionsAfterTheCommandAreTakenOrRefused()
    {
        QTemporaryDir dir;
        const QString transcript = dir.filePath(u"t.jsonl"_s);
        const Run r =
            cli(demo() + QStringList{u"tools"_s, u"call"_s, u"echo"_s, u"{\"message\":\"hi\"}"_s,
                                     u"--transcript"_s, transcript, u"--quiet"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(QFile(transcript).size() > 0, "the transcript after the command is written");
        QVERIFY2(r.err.isEmpty(), r.err.constData()); // and the trailing --quiet is honoured
        const Run unknown =
            cli(demo() + QStringList{u"tools"_s, u"list"_s, u"--transcirpt"_s, transcript});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("unknown option --transcirpt after the command"),
                 unknown.err.constData());
    }

    void aUsageErrorIsSaidBeforeAnyServerStarts_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("said");
        QTest::newRow("tools call without a name")
            << QStringList{u"tools"_s, u"call"_s} << u"usage: tools call NAME [JSON]"_s;
        QTest::newRow("arguments that are not a JSON object")
            << QStringList{u"tools"_s, u"call"_s, u"echo"_s, u"[1]"_s}
            << u"arguments must be a JSON object"_s;
        QTest::newRow("an unknown command")
            << QStringList{u"tool"_s, u"list"_s} << u"unknown command \"tool\""_s;
        QTest::newRow("a log level MCP does not have")
            << QStringList{u"--log-level"_s, u"bogus"_s, u"info"_s}
            << u"--log-level wants one of debug, info"_s;
        QTest::newRow("a timeout of 1e9 s") << QStringList{u"--timeout"_s, u"1e9"_s, u"info"_s}
                                            << u"--timeout wants seconds, 0 < S <= 86400"_s;
        QTest::newRow("a timeout that is not a number")
            << QStringList{u"--timeout"_s, u"nan"_s, u"info"_s} << u"--timeout wants seconds"_s;
        QTest::newRow("an infinite timeout")
            << QStringList{u"--timeout"_s, u"inf"_s, u"info"_s} << u"--timeout wants seconds"_s;
        QTest::newRow("a recovery budget of 1e9 s")
            << QStringList{u"--recovery-budget"_s, u"1e9"_s, u"info"_s}
            << u"--recovery-budget wants seconds, 0 to 86400"_s;
    }
    void aUsageErrorIsSaidBeforeAnyServerStarts()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, said);
        QTemporaryDir dir;
        const QString started = dir.filePath(u"started"_s);
        // The "server" leaves a mark when it starts: a usage error must not get that far.
        const QStringList server{
            u"--command"_s,
            u"sh"_s,
            u"--arg"_s,
            u"-c"_s,
            u"--arg"_s,
            u"touch '%1'; exec '%2'"_s.arg(started, QString::fromUtf8(SONDE_DEMO_SERVER_PATH))};
        const Run r = cli(server + args);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.trimmed().count('\n'), 0);
        QVERIFY2(r.err.contains(said.toUtf8()), r.err.constData());
        QVERIFY2(!QFile::exists(started), "the server was started before the usage error");
    }

    void anExecStepsArgumentsAreAnObjectOrRefused()
    {
        const Run r = cli(demo() + QStringList{u"--quiet"_s, u"exec"_s},
                          R"({"op":"call","tool":"echo","args":[1]})"
                          "\n"
                          R"({"op":"call","tool":"echo","args":{"message":"after"}})"
                          "\n");
        const QList<QJsonObject> lines = jsonLines(r.out);
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0].value("error"_L1).toString(), u"\"args\" must be an object"_s);
        QCOMPARE(lines[1].value("result"_L1).toString(), u"Echo: after"_s);
    }

    void aTimedOutCallSaysWhatHappened_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("args");
        QTest::addColumn<bool>("uncertain");
        QTest::newRow("a read-only tool: a plain timeout")
            << u"slow-task"_s << u"{\"duration_ms\":3000,\"steps\":1}"_s << false;
        QTest::newRow("a write: uncertain, and the connection was never lost")
            << u"increment-counter"_s << u"{\"delay_ms\":3000}"_s << true;
    }
    void aTimedOutCallSaysWhatHappened()
    {
        QFETCH(QString, tool);
        QFETCH(QString, args);
        QFETCH(bool, uncertain);
        const Run r = cli(demo() + QStringList{u"--timeout"_s, u"1"_s, u"--quiet"_s, u"tools"_s,
                                               u"call"_s, tool, args});
        const QJsonObject a = answer(r);
        const QString error = a.value("error"_L1).toString();
        QCOMPARE(a.value("outcome_uncertain"_L1).toBool(), uncertain);
        QVERIFY2(error.contains("timed out"_L1) || error.contains("no answer within"_L1),
                 r.out.constData());
        QVERIFY2(!error.contains("re-established"_L1), r.out.constData());
        QVERIFY2(!error.contains("session failed"_L1), r.out.constData());
        if (!uncertain)
            QVERIFY2(!error.contains("may or may not"_L1), r.out.constData());
        else
            QVERIFY2(error.contains("still answers"_L1), r.out.constData());
    }

    void anAnswerOverTheFrameLimitNamesTheFlag()
    {
        const Run r =
            cli(demo() + QStringList{u"--max-frame-mb"_s, u"1"_s, u"--quiet"_s, u"tools"_s,
                                     u"call"_s, u"big-answer"_s, u"{\"bytes\":3000000}"_s});
        QVERIFY2(answer(r).value("error"_L1).toString().contains("--max-frame-mb"_L1),
                 r.out.constData());
    }

    void sondesOwnNoticesAreNotTheServersStderr()
    {
        const Run r = cli(demo() + QStringList{u"exec"_s}, R"({"op":"call","tool":"print-garbage"})"
                                                           "\n"
                                                           R"({"op":"call","tool":"list-roots"})"
                                                           "\n");
        QVERIFY2(r.err.contains("sonde-cli: sonde-demo-server: protocol violation"),
                 r.err.constData());
        QVERIFY2(r.err.contains("sonde-cli: sonde-demo-server asked roots/list: answered with 0 "
                                "root(s)"),
                 r.err.constData());
        QVERIFY2(!r.err.contains("[sonde-demo-server] protocol violation"), r.err.constData());
        // Qt's own warnings are not the user's business either.
        QVERIFY2(!r.err.contains("QIODevice"), r.err.constData());
    }

    void aTaskRequiredToolOfTheHandshakeEraIsSaidSo()
    {
        const Run r =
            cli({u"--command"_s, u"node"_s, u"--arg"_s, QString::fromUtf8(SONDE_EVERYTHING_PATH),
                 u"--arg"_s, u"stdio"_s, u"--quiet"_s, u"tools"_s, u"call"_s,
                 u"simulate-research-query"_s, u"{\"topic\":\"MCP\"}"_s});
        const QString error = answer(r).value("error"_L1).toString();
        QVERIFY2(error.contains("requires task-augmented execution"_L1), r.out.constData());
        QVERIFY2(error.contains("The server said"_L1), r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliErrors)
#include "tst_cli_errors.moc"
