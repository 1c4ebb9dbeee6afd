// SPDX-License-Identifier: MIT
// sonde-cli run: saved collections against sonde-demo-server, through the real CLI.
#include "clifixtures.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace SondeTest;
using namespace Qt::StringLiterals;

#define JSON_TEXT(...) #__VA_ARGS__

namespace {

// The CLI with sonde-demo-server on PATH, as the issue's example names it bare.
Run runCollection(const QStringList &args)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"PATH"_s, QFileInfo(QString::fromUtf8(SONDE_DEMO_SERVER_PATH)).absolutePath() +
                              u':' + env.value(u"PATH"_s));
    return runProgram(QString::fromUtf8(SONDE_CLI_PATH), QStringList{u"run"_s} + args, {}, env);
}

struct JUnitCounts
{
    QString tests, failures, errors;
    int testcases = 0;
    QStringList failed; // the names of the testcases with a <failure>
    bool parsed = false;
};

JUnitCounts readJUnit(const QString &path)
{
    JUnitCounts c;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return c;
    QXmlStreamReader r(&f);
    QString current;
    while (!r.atEnd()) {
        if (r.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (r.name() == "testsuite"_L1) {
            c.tests = r.attributes().value("tests"_L1).toString();
            c.failures = r.attributes().value("failures"_L1).toString();
            c.errors = r.attributes().value("errors"_L1).toString();
        } else if (r.name() == "testcase"_L1) {
            ++c.testcases;
            current = r.attributes().value("name"_L1).toString();
        } else if (r.name() == "failure"_L1) {
            c.failed.append(current);
        }
    }
    c.parsed = !r.hasError();
    return c;
}

QString write(QTemporaryDir &dir, const QString &name, const QByteArray &text)
{
    QFile f(dir.filePath(name));
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(text);
    return f.fileName();
}

} // namespace

class TestCollectionCli : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theIssuesExamplePassesAgainstTheDemoServer()
    {
        QTemporaryDir dir;
        const QString junit = dir.filePath(u"out.xml"_s);
        const Run r = runCollection(
            {QFINDTESTDATA("../fixtures/collection-smoke.json"), u"--junit"_s, junit});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QJsonObject> lines = jsonLines(r.out);
        QCOMPARE(lines.size(), 3);
        for (const QJsonObject &l : lines)
            QVERIFY2(l.value("passed"_L1).toBool(), r.out.constData());
        QCOMPARE(lines[1].value("call"_L1).toString(), u"fail is an error"_s);
        const JUnitCounts c = readJUnit(junit);
        QVERIFY(c.parsed);
        QCOMPARE(c.tests, u"3"_s);
        QCOMPARE(c.failures, u"0"_s);
        QCOMPARE(c.testcases, 3);
    }

    void aFailedExpectationExitsOneAndIsReportedInJUnit()
    {
        QTemporaryDir dir;
        const QString junit = dir.filePath(u"out.xml"_s);
        const QString path = write(dir, u"c.json"_s, JSON_TEXT({
                                       "name" : "mixed",
                                       "server" : {"command" : "sonde-demo-server"},
                                       "calls" : [
                                           {
                                               "name" : "weather has its schema",
                                               "tool" : "get-weather",
                                               "args" : {"city" : "Oslo"},
                                               "expect" : {"matches_output_schema" : true}
                                           },
                                           {
                                               "name" : "echo says bye",
                                               "tool" : "echo",
                                               "args" : {"message" : "hi"},
                                               "expect" : {"text_contains" : "bye"}
                                           },
                                           {"name" : "no such tool", "tool" : "nope", "args" : {}},
                                           {"name" : "ping", "method" : "ping"}
                                       ]
                                   }));
        const Run r = runCollection({path, u"--junit"_s, junit});
        QCOMPARE(r.exitCode, 1);
        const QList<QJsonObject> lines = jsonLines(r.out);
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines[0].value("passed"_L1).toBool());
        QVERIFY(!lines[1].value("passed"_L1).toBool());
        QVERIFY(lines[1].value("reasons"_L1)[0].toString().contains("does not contain \"bye\""_L1));
        QVERIFY(!lines[2].value("passed"_L1).toBool());
        QVERIFY(lines[3].value("passed"_L1).toBool());
        const JUnitCounts c = readJUnit(junit);
        QVERIFY(c.parsed);
        QCOMPARE(c.tests, u"4"_s);
        QCOMPARE(c.failures, u"2"_s);
        QCOMPARE(c.testcases, 4);
        QCOMPARE(c.failed, (QStringList{u"echo says bye"_s, u"no such tool"_s}));
    }

    void aWriteToolInACollectionRunsOnce()
    {
        QTemporaryDir dir;
        const QString state = dir.filePath(u"state.json"_s);
        const QString path = write(
            dir, u"c.json"_s,
            "{\"server\": {\"command\": \"sonde-demo-server\", \"args\": [\"--state-file\", \"" +
                state.toUtf8() +
                "\"]}, \"calls\": [{\"tool\": \"increment-counter\", \"args\": {\"by\": 5}, "
                "\"expect\": {\"text_contains\": \"5\"}}]}");
        const Run r = runCollection({path});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QFile f(state);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(f.readAll()).object().value("counter"_L1).toInteger(), 5);
    }

    void aReasonQuotingAConfiguredSecretIsRedacted()
    {
        QTemporaryDir dir;
        const QString junit = dir.filePath(u"out.xml"_s);
        const QString path = write(dir, u"c.json"_s, JSON_TEXT({
                                       "server" : {
                                           "command" : "sonde-demo-server",
                                           "env" : {"DEMO_KEY" : "hunter2-wide-open-42"}
                                       },
                                       "calls" : [ {
                                           "tool" : "echo",
                                           "args" : {"message" : "hunter2-wide-open-42"},
                                           "expect" : {"text_contains" : "nope"}
                                       } ]
                                   }));
        const Run r = runCollection({path, u"--junit"_s, junit});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("[REDACTED]"), r.out.constData());
        QVERIFY2(!r.out.contains("hunter2"), r.out.constData());
        QFile f(junit);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray xml = f.readAll();
        QVERIFY2(xml.contains("[REDACTED]") && !xml.contains("hunter2"), xml.constData());
    }

    void anOAuthServerIsAuthorizedWithTheAgentAsked()
    {
        QProcess server;
        server.start(QString::fromUtf8(SONDE_DEMO_SERVER_PATH),
                     {u"--http"_s, u"127.0.0.1:0"_s, u"--auth"_s});
        QVERIFY(server.waitForStarted(5000) && server.waitForReadyRead(5000));
        const QByteArray url = server.readLine().trimmed();
        QTemporaryDir dir;
        const QString path = write(dir, u"c.json"_s,
                                   "{\"server\": {\"url\": \"" + url +
                                       "\", \"era\": \"legacy\"}, \"calls\": [{\"tool\": "
                                       "\"echo\", \"args\": {\"message\": \"hi\"}, "
                                       "\"expect\": {\"text_contains\": \"hi\"}}]}");
        // headless: the authorize URL is followed without a person.
        const Run r = runCollection({path, u"--auth-agent"_s, u"headless"_s});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        // no-browser (the default): the URL is printed for a person to open.
        QProcess waiting;
        waiting.start(QString::fromUtf8(SONDE_CLI_PATH), {u"run"_s, path});
        QByteArray err;
        QTRY_VERIFY_WITH_TIMEOUT((err += waiting.readAllStandardError()).contains("open this URL"),
                                 15000);
        QVERIFY2(err.contains(QByteArray("\n  " + url.left(url.indexOf("/mcp")))), err.constData());
        waiting.kill();
        waiting.waitForFinished(3000);
        server.terminate();
        server.waitForFinished(3000);
    }

    void runsOverHttpFromAUrlEntry()
    {
        SondeTest::DemoHttpServer server;
        QVERIFY(server.start());
        QTemporaryDir dir;
        const QString path = write(dir, u"c.json"_s,
                                   "{\"server\": {\"url\": \"" + server.url().toUtf8() +
                                       "\", \"era\": \"legacy\"}, \"calls\": [{\"method\": "
                                       "\"resources/read\", \"params\": {\"uri\": "
                                       "\"demo://notes/2\"}, \"expect\": {\"pointer\": "
                                       "\"/contents/0/uri\", \"equals\": \"demo://notes/2\"}}]}");
        const Run r = runCollection({path});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
    }

    void aUsageOrConnectionErrorExitsTwo_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("collection"); // written to c.json when not empty
        QTest::addColumn<QString>("expected");
        QTest::newRow("no collection named")
            << QStringList{} << QByteArray() << u"usage: sonde-cli run COLLECTION.json"_s;
        QTest::newRow("an authorization agent that does not exist")
            << QStringList{u"c.json"_s, u"--auth-agent"_s, u"robot"_s} << QByteArray()
            << u"--auth-agent wants browser, no-browser or headless, got \"robot\""_s;
        QTest::newRow("an unknown option") << QStringList{u"c.json"_s, u"--junt"_s, u"x"_s}
                                           << QByteArray() << u"run: unknown option --junt"_s;
        QTest::newRow("a file that is not there") << QStringList{u"missing.json"_s} << QByteArray()
                                                  << u"missing.json: No such file or directory"_s;
        QTest::newRow("a file that is not a collection")
            << QStringList{u"c.json"_s} << QByteArray(JSON_TEXT({"calls" : 3}))
            << u"\"server\" must be an object"_s;
        QTest::newRow("a server that cannot start")
            << QStringList{u"c.json"_s} << QByteArray(JSON_TEXT({
                   "server" : {"command" : "/nonexistent/sonde-x"},
                   "calls" : [ {"method" : "ping"} ]
               }))
            << u"cannot connect to"_s;
    }
    void aUsageOrConnectionErrorExitsTwo()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, collection);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        if (!collection.isEmpty())
            write(dir, u"c.json"_s, collection);
        for (QString &a : args)
            if (a.endsWith(".json"_L1))
                a = dir.filePath(a);
        const Run r = runCollection(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(expected), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCollectionCli)
#include "tst_collection_cli.moc"
