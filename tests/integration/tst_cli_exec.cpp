// SPDX-License-Identifier: MIT
// `sonde-cli exec` as a live session: a program writes one step, reads its answer, then
// writes the next; async steps run side by side and `cancel` stops one that still runs.
#include "clifixtures.h"
#include "testpaths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace SondeTest;

// JSON test data without raw strings (moc cannot read raw string literals).
#define JSON_TEXT(...) #__VA_ARGS__

namespace {

// sonde-cli exec - on the demo server, driven line by line.
class ExecSession
{
public:
    explicit ExecSession(const QStringList &extra = {})
    {
        m_process.start(
            QString::fromUtf8(SONDE_CLI_PATH),
            QStringList{u"--command"_s, QString::fromUtf8(SONDE_DEMO_SERVER_PATH), u"--quiet"_s} +
                extra + QStringList{u"exec"_s, u"-"_s});
    }
    ~ExecSession()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(3000);
        }
    }
    void write(const char *step) { m_process.write(QByteArray(step) + '\n'); }
    // The next answer line, waiting on the event loop (never a sleep); empty on timeout.
    QJsonObject readLine(int timeoutMs = 20000)
    {
        QElapsedTimer t;
        t.start();
        while (!m_process.canReadLine() && t.elapsed() < timeoutMs &&
               m_process.state() != QProcess::NotRunning) {
            QSignalSpy spy(&m_process, &QProcess::readyReadStandardOutput);
            spy.wait(200);
        }
        if (!m_process.canReadLine())
            return {};
        return QJsonDocument::fromJson(m_process.readLine()).object();
    }
    int close()
    {
        m_process.closeWriteChannel();
        QSignalSpy finished(&m_process, &QProcess::finished);
        if (m_process.state() != QProcess::NotRunning && !finished.wait(20000))
            return -1;
        return m_process.exitCode();
    }
    QByteArray rest() { return m_process.readAllStandardOutput(); }
    QByteArray err() { return m_process.readAllStandardError(); }

private:
    QProcess m_process;
};

} // namespace

class TestCliExec : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void eachStepIsAnsweredBeforeTheNextIsWritten()
    {
        // The old exec read stdin to its end before starting: no answer would come while
        // stdin stays open, and readLine() would time out.
        ExecSession s;
        s.write(JSON_TEXT({"op" : "call", "tool" : "increment-counter", "args" : {"by" : 2}}));
        const QJsonObject first = s.readLine();
        QCOMPARE(first.value("step"_L1).toInt(), 1);
        QCOMPARE(first.value("result"_L1).toString(), u"counter = 2"_s);
        // The second step depends on the first answer having been read.
        s.write(JSON_TEXT({"op" : "call", "tool" : "get-counter"}));
        const QJsonObject second = s.readLine();
        QCOMPARE(second.value("step"_L1).toInt(), 2);
        QCOMPARE(second.value("result"_L1).toString(), u"counter = 2"_s);
        QCOMPARE(s.close(), 0);
        QVERIFY(s.rest().isEmpty());
    }

    void anAsyncStepRunsWhileLaterStepsAreAnsweredAndCancelStopsIt()
    {
        QTemporaryDir dir;
        const QString transcript = dir.filePath(u"t.jsonl"_s);
        ExecSession s({u"--transcript"_s, transcript});
        s.write(JSON_TEXT({
            "op" : "call",
            "tool" : "slow-task",
            "args" : {"duration_ms" : 60000, "steps" : 2},
            "async" : true
        }));
        s.write(JSON_TEXT({"op" : "call", "tool" : "echo", "args" : {"message" : "meanwhile"}}));
        const QJsonObject echo = s.readLine();
        QCOMPARE(echo.value("step"_L1).toInt(), 2);
        QCOMPARE(echo.value("result"_L1).toString(), u"Echo: meanwhile"_s);
        s.write(JSON_TEXT({"op" : "cancel", "step" : 1}));
        const QJsonObject cancel = s.readLine();
        QCOMPARE(cancel.value("step"_L1).toInt(), 3);
        QCOMPARE(cancel.value("op"_L1).toString(), u"cancel"_s);
        QCOMPARE(cancel.value("cancelled"_L1).toInt(), 1);
        const QJsonObject slow = s.readLine();
        QCOMPARE(slow.value("step"_L1).toInt(), 1);
        QCOMPARE(slow.value("op"_L1).toString(), u"call"_s);
        QVERIFY(slow.value("async"_L1).toBool());
        QCOMPARE(slow.value("kind"_L1).toString(), u"cancelled"_s);
        QVERIFY2(slow.value("elapsed_ms"_L1).toInt() < 60000,
                 qPrintable(QString::number(slow.value("elapsed_ms"_L1).toInt())));
        QCOMPARE(s.close(), 1); // a cancelled step is not a success
        // The server was told, not only our side.
        QFile f(transcript);
        QVERIFY(f.open(QIODevice::ReadOnly));
        bool told = false;
        for (const QJsonObject &e : jsonLines(f.readAll()))
            told |= e.value("dir"_L1).toString() == "send"_L1 &&
                    e.value("msg"_L1).toObject().value("method"_L1).toString() ==
                        "notifications/cancelled"_L1;
        QVERIFY(told);
    }

    void cancelReachesASynchronousCallStillRunning()
    {
        // The steps after a synchronous one wait for its answer; a cancel for it must not.
        ExecSession s;
        s.write(JSON_TEXT({"op" : "call", "tool" : "slow-task", "args" : {"duration_ms" : 60000}}));
        s.write(JSON_TEXT({"op" : "call", "tool" : "increment-counter"}));
        s.write(JSON_TEXT({"op" : "cancel", "step" : 1}));
        const QJsonObject cancel = s.readLine();
        QCOMPARE(cancel.value("step"_L1).toInt(), 3);
        QCOMPARE(cancel.value("cancelled"_L1).toInt(), 1);
        const QJsonObject slow = s.readLine();
        QCOMPARE(slow.value("step"_L1).toInt(), 1);
        QCOMPARE(slow.value("kind"_L1).toString(), u"cancelled"_s);
        QVERIFY(!slow.contains("async"_L1));
        const QJsonObject next = s.readLine();
        QCOMPARE(next.value("step"_L1).toInt(), 2);
        QCOMPARE(next.value("result"_L1).toString(), u"counter = 1"_s);
        QCOMPARE(s.close(), 1);
    }

    void cancelOfAStepThatIsNotRunningIsAnErrorLine_data()
    {
        QTest::addColumn<QByteArray>("cancel");
        QTest::addColumn<QString>("error");
        QTest::newRow("a step that already answered")
            << QByteArray(JSON_TEXT({"op" : "cancel", "step" : 1})) << u"step 1 is not running"_s;
        QTest::newRow("a step that does not exist")
            << QByteArray(JSON_TEXT({"op" : "cancel", "step" : 9})) << u"step 9 is not running"_s;
        QTest::newRow("no step number")
            << QByteArray(JSON_TEXT({"op" : "cancel"})) << u"cancel needs \"step\""_s;
    }
    void cancelOfAStepThatIsNotRunningIsAnErrorLine()
    {
        QFETCH(QByteArray, cancel);
        QFETCH(QString, error);
        const Run r = cli(
            {u"--command"_s, QString::fromUtf8(SONDE_DEMO_SERVER_PATH), u"--quiet"_s, u"exec"_s},
            QByteArray(JSON_TEXT({"op" : "notifications"})) + '\n' + cancel + '\n');
        QCOMPARE(r.exitCode, 1);
        const QList<QJsonObject> l = jsonLines(r.out);
        QCOMPARE(l.size(), 2);
        QCOMPARE(l[1].value("step"_L1).toInt(), 2);
        QVERIFY2(l[1].value("error"_L1).toString().contains(error),
                 qPrintable(l[1].value("error"_L1).toString()));
    }

    void stepsFromAFileOrAFileOnStdinStillRunInOrder_data()
    {
        QTest::addColumn<bool>("onStdin");
        QTest::newRow("a file argument") << false;
        QTest::newRow("a file as stdin") << true;
    }
    void stepsFromAFileOrAFileOnStdinStillRunInOrder()
    {
        QFETCH(bool, onStdin);
        QTemporaryDir dir;
        QFile f(dir.filePath(u"steps.jsonl"_s));
        QVERIFY(f.open(QIODevice::WriteOnly));
        // The last line has no newline: it is still a step.
        f.write(JSON_TEXT({"op" : "call", "tool" : "increment-counter"}) "\n\n" JSON_TEXT(
            {"op" : "call", "tool" : "get-counter"}));
        f.close();
        QProcess p;
        QStringList args{u"--command"_s, QString::fromUtf8(SONDE_DEMO_SERVER_PATH), u"--quiet"_s,
                         u"exec"_s};
        if (onStdin)
            p.setStandardInputFile(f.fileName());
        p.start(QString::fromUtf8(SONDE_CLI_PATH),
                args + QStringList{onStdin ? u"-"_s : f.fileName()});
        QSignalSpy finished(&p, &QProcess::finished);
        QVERIFY(finished.wait(20000));
        QCOMPARE(p.exitCode(), 0);
        const QList<QJsonObject> l = jsonLines(p.readAllStandardOutput());
        QCOMPARE(l.size(), 2);
        QCOMPARE(l[0].value("step"_L1).toInt(), 1);
        QCOMPARE(l[1].value("step"_L1).toInt(), 2);
        QCOMPARE(l[1].value("result"_L1).toString(), u"counter = 1"_s);
    }
};

QTEST_GUILESS_MAIN(TestCliExec)
#include "tst_cli_exec.moc"
