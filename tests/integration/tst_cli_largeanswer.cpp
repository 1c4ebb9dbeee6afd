// SPDX-License-Identifier: MIT
// sonde-cli with a large answer over stdio and HTTP (issue 34): a 50 MiB text is printed
// whole and intact from the frame it came in, with the process's peak memory at most twice
// the answer plus 20 MiB; a long text with every kind of escape comes out as it went in; an
// answer over the frame limit is refused while it is read (over HTTP, from its length),
// peaking at the limit plus 20 MiB. The peak is the process's own VmHWM, read until it exits.
#include "demohttpfixture.h"
#include "testpaths.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace Qt::StringLiterals;
using SondeTest::DemoHttpServer;

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out;
    double peakMiB = 0;
};

double hwmMiB(qint64 pid)
{
    QFile f(u"/proc/%1/status"_s.arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
    return 0;
}

QStringList overStdio()
{
    return {u"--era"_s, u"initialize"_s, u"--command"_s, QString::fromUtf8(SONDE_DEMO_SERVER_PATH)};
}

// One 2026-07-28 POST per call to the demo server over HTTP; empty when it did not start.
QStringList overHttp(DemoHttpServer &demo)
{
    if (!demo.start())
        return {};
    return {u"--era"_s, u"2026-07-28"_s, u"--url"_s, demo.url()};
}

Run cli(const QStringList &args, const QString &outFile,
        const QStringList &connection = overStdio())
{
    QProcess p;
    p.setStandardOutputFile(outFile);
    p.start(QString::fromUtf8(SONDE_CLI_PATH), QStringList{u"--quiet"_s} + connection + args);
    Run r;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &p, [&] {
        if (p.processId() > 0)
            r.peakMiB = std::max(r.peakMiB, hwmMiB(p.processId()));
    });
    poll.start(2);
    QSignalSpy done(&p, &QProcess::finished);
    if (!done.wait(60000))
        p.kill();
    poll.stop();
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    QFile f(outFile);
    if (f.open(QIODevice::ReadOnly))
        r.out = f.readAll();
    return r;
}

} // namespace

class TestCliLargeAnswer : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:
    void aFiftyMebibyteTextIsPrintedWholeInBoundedMemory_data()
    {
        QTest::addColumn<bool>("http");
        QTest::newRow("over stdio") << false;
        QTest::newRow("over HTTP, one 2026-07-28 POST") << true;
    }
    void aFiftyMebibyteTextIsPrintedWholeInBoundedMemory()
    {
        QFETCH(bool, http);
        DemoHttpServer demo;
        const QStringList connection = http ? overHttp(demo) : overStdio();
        QVERIFY(!connection.isEmpty());
        constexpr qint64 Bytes = 50 * 1024 * 1024;
        const Run r = cli({u"tools"_s, u"call"_s, u"big-answer"_s, u"{\"bytes\":%1}"_s.arg(Bytes)},
                          m_dir.filePath(u"big.json"_s), connection);
        QCOMPARE(r.exitCode, 0);
        QJsonParseError e;
        const QJsonObject answer = QJsonDocument::fromJson(r.out, &e).object();
        QCOMPARE(e.error, QJsonParseError::NoError);
        const QString text = answer.value("result"_L1).toString();
        QCOMPARE(text.size(), Bytes);
        QCOMPARE(text.count(u'x'), Bytes);
        QCOMPARE(answer.value("attempts"_L1).toInt(), 1);
        // Issue 34's goal: at most twice the answer plus 20 MiB (it was 314 MiB).
        QVERIFY2(r.peakMiB > 50 && r.peakMiB <= 2 * 50 + 20,
                 qPrintable(u"peak %1 MiB"_s.arg(r.peakMiB)));
    }

    // What the server escaped stays escaped as it was: the printed answer means the same text.
    // Through exec (a 2 MiB argument does not fit a command line), so the one-line layout is
    // the one spliced.
    void aLongTextWithEscapesComesOutAsItWentIn_data()
    {
        QTest::addColumn<QStringList>("connection");
        QTest::newRow("the demo server") << overStdio();
        // The reference server escapes as the SDK's JSON.stringify does, not as Qt does.
        QTest::newRow("server-everything")
            << QStringList{u"--era"_s, u"initialize"_s, u"--command"_s,
                           u"node"_s,  u"--arg"_s,      QString::fromUtf8(SONDE_EVERYTHING_PATH),
                           u"--arg"_s, u"stdio"_s};
    }
    void aLongTextWithEscapesComesOutAsItWentIn()
    {
        QFETCH(QStringList, connection);
        QString message;
        while (message.size() < 2 * 1024 * 1024)
            message += u"quote \" backslash \\ newline \n tab \t é ✓ 𝄞 control \u0001 / end. "_s;
        const QString steps = m_dir.filePath(u"steps.jsonl"_s);
        QFile f(steps);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(QJsonObject{{"op"_L1, "call"_L1},
                                          {"tool"_L1, "echo"_L1},
                                          {"args"_L1, QJsonObject{{"message"_L1, message}}}})
                    .toJson(QJsonDocument::Compact) +
                '\n');
        f.close();
        const Run r = cli({u"exec"_s, steps}, m_dir.filePath(u"echo.jsonl"_s), connection);
        QCOMPARE(r.exitCode, 0);
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 1);
        QJsonParseError e;
        const QJsonObject answer = QJsonDocument::fromJson(lines.first(), &e).object();
        QCOMPARE(e.error, QJsonParseError::NoError);
        QVERIFY(answer.value("result"_L1).toString().contains(message));
    }

    void anAnswerOverTheFrameLimitIsRefusedWhileItIsRead_data()
    {
        QTest::addColumn<bool>("http");
        QTest::addColumn<double>("atMostMiB");
        // Read up to the limit, then dropped: the limit plus 20 MiB (it was 142 MiB).
        QTest::newRow("over stdio, as the line is read") << false << 64.0 + 20;
        // Refused from its Content-Length: none of it read (it was 147 MiB).
        QTest::newRow("over HTTP, from its length") << true << 30.0;
    }
    void anAnswerOverTheFrameLimitIsRefusedWhileItIsRead()
    {
        QFETCH(bool, http);
        QFETCH(double, atMostMiB);
        DemoHttpServer demo;
        const QStringList connection = http ? overHttp(demo) : overStdio();
        QVERIFY(!connection.isEmpty());
        const Run r = cli({u"tools"_s, u"call"_s, u"big-answer"_s, u"{\"bytes\":70000000}"_s},
                          m_dir.filePath(u"over.json"_s), connection);
        QCOMPARE(r.exitCode, 1);
        const QJsonObject answer = QJsonDocument::fromJson(r.out).object();
        QVERIFY2(answer.value("error"_L1).toString().contains(u"64 MiB frame limit"_s), r.out);
        QVERIFY2(r.peakMiB > 5 && r.peakMiB <= atMostMiB,
                 qPrintable(u"peak %1 MiB"_s.arg(r.peakMiB)));
    }
};

QTEST_GUILESS_MAIN(TestCliLargeAnswer)
#include "tst_cli_largeanswer.moc"
