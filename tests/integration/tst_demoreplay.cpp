// SPDX-License-Identifier: MIT
// sonde-demo-server --replay: a session recorded with sonde-cli --transcript, served again.
#include "clifixtures.h"

#include <QTemporaryDir>
#include <QTest>

using namespace SondeTest;
using namespace Qt::StringLiterals;

namespace {

const QString kDemo = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);

const QByteArray kSteps =
    "{\"op\":\"call\",\"tool\":\"echo\",\"args\":{\"message\":\"hi\"}}\n"
    "{\"op\":\"resources/read\",\"uri\":\"demo://notes/1\"}\n"
    "{\"op\":\"call\",\"tool\":\"get-weather\",\"args\":{\"city\":\"Oslo\"}}\n"
    "{\"op\":\"call\",\"tool\":\"fail\",\"args\":{}}\n"
    "{\"op\":\"call\",\"tool\":\"increment-counter\",\"args\":{\"by\":1}}\n"
    "{\"op\":\"call\",\"tool\":\"increment-counter\",\"args\":{\"by\":1}}\n"
    "{\"op\":\"tools/list\"}\n";

// The answers without what differs from run to run (timings).
QList<QJsonObject> answers(const QByteArray &out)
{
    QList<QJsonObject> lines = jsonLines(out);
    for (QJsonObject &l : lines) {
        l.remove("elapsed_ms"_L1);
        l.remove("waited_ms"_L1);
    }
    return lines;
}

Run replayExec(const QString &recording, const QByteArray &steps)
{
    return cli({u"--era"_s, u"2026-07-28"_s, u"--quiet"_s, u"--command"_s, kDemo, u"--arg"_s,
                u"--replay"_s, u"--arg"_s, recording, u"exec"_s, u"-"_s},
               steps);
}

} // namespace

class TestDemoReplay : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_recording;
    QList<QJsonObject> m_recorded;

private Q_SLOTS:
    void initTestCase()
    {
        m_recording = m_dir.filePath(u"session.jsonl"_s);
        // A 2026-07-28 recording (over stdio auto would take the handshake the demo answers).
        const Run r = cli({u"--era"_s, u"2026-07-28"_s, u"--quiet"_s, u"--transcript"_s,
                           m_recording, u"--command"_s, kDemo, u"--arg"_s, u"--state-file"_s,
                           u"--arg"_s, m_dir.filePath(u"state.json"_s), u"exec"_s, u"-"_s},
                          kSteps);
        QVERIFY2(r.exitCode == 1, r.err.constData()); // the fail tool's step
        m_recorded = answers(r.out);
        QCOMPARE(m_recorded.size(), 7);
        QCOMPARE(m_recorded[4].value("result"_L1).toString(), u"counter = 1"_s);
        QCOMPARE(m_recorded[5].value("result"_L1).toString(), u"counter = 2"_s);
    }

    void aReplayOverStdioAnswersAsTheRecordedServerDid()
    {
        const Run r = replayExec(m_recording, kSteps);
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(answers(r.out), m_recorded);
    }

    void aRequestAskedMoreOftenThanRecordedGetsTheLastAnswerAgain()
    {
        const QByteArray inc =
            "{\"op\":\"call\",\"tool\":\"increment-counter\",\"args\":{\"by\":1}}\n";
        const Run r = replayExec(m_recording, inc + inc + inc);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QJsonObject> lines = jsonLines(r.out);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0].value("result"_L1).toString(), u"counter = 1"_s);
        QCOMPARE(lines[1].value("result"_L1).toString(), u"counter = 2"_s);
        QCOMPARE(lines[2].value("result"_L1).toString(), u"counter = 2"_s);
    }

    void aCallTheRecordingNeverSawGetsMethodNotFoundNamingTheFile()
    {
        const Run r = cli({u"--era"_s, u"2026-07-28"_s, u"--quiet"_s, u"--command"_s, kDemo,
                           u"--arg"_s, u"--replay"_s, u"--arg"_s, m_recording, u"tools"_s,
                           u"call"_s, u"echo"_s, u"{\"message\":\"never said\"}"_s});
        QCOMPARE(r.exitCode, 1);
        const QJsonObject answer = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(answer.value("code"_L1).toInt(), -32601);
        const QString message = answer.value("error"_L1).toString();
        QVERIFY2(message.contains("tools/call of \"echo\""_L1), qPrintable(message));
        QVERIFY2(message.contains(u"a replay of "_s + m_recording), qPrintable(message));
    }

    void aReplayOverHttpAnswersAsTheRecordedServerDid()
    {
        QProcess server;
        server.start(kDemo, {u"--replay"_s, m_recording, u"--http"_s, u"127.0.0.1:0"_s});
        QVERIFY(server.waitForStarted(5000));
        QVERIFY(server.waitForReadyRead(5000));
        const QString url = QString::fromUtf8(server.readLine().trimmed());
        QVERIFY2(url.startsWith("http://127.0.0.1:"_L1), qPrintable(url));
        const Run r =
            cli({u"--era"_s, u"auto"_s, u"--quiet"_s, u"--url"_s, url, u"exec"_s, u"-"_s}, kSteps);
        // A legacy client asks initialize, which this 2026-07-28 recording never saw: the
        // default one answers, and the recorded calls still do.
        const Run legacy = cli({u"--era"_s, u"initialize"_s, u"--quiet"_s, u"--url"_s, url,
                                u"tools"_s, u"call"_s, u"echo"_s, u"{\"message\":\"hi\"}"_s});
        server.terminate();
        server.waitForFinished(3000);
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(answers(r.out), m_recorded);
        QVERIFY2(legacy.exitCode == 0, legacy.err.constData());
        QCOMPARE(QJsonDocument::fromJson(legacy.out).object().value("result"_L1).toString(),
                 u"Echo: hi"_s);
        QVERIFY(server.readAllStandardError().contains(
            "holds no initialize: answering with a default"));
    }

    void aFileThatIsNotATranscriptStopsTheServerNamingTheLine()
    {
        QFile bad(m_dir.filePath(u"bad.jsonl"_s));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"dir\":\"event\"}\nnot json\n");
        bad.close();
        const Run r = runProgram(kDemo, {u"--replay"_s, bad.fileName()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(
            r.err.contains(QByteArray(bad.fileName().toUtf8() + ":2: not a transcript record")),
            r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestDemoReplay)
#include "tst_demoreplay.moc"
