// SPDX-License-Identifier: MIT
// Ctrl-C, SIGTERM and kill -9 in the middle of a call. After SIGINT or SIGTERM sonde-cli
// shuts the session down as an ending would, within its bound: the server is told of the
// call (notifications/cancelled), an HTTP session is deleted, a stdio server that ignores
// end of input is stopped (SIGTERM, then SIGKILL) and not left behind; the exit status is
// 128 + the signal. Whatever ends it, the transcript holds whole JSON lines up to the end.
#include "clifixtures.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <memory>

using namespace SondeTest;
using namespace Qt::StringLiterals;

// SessionCommand::SignalShutdownBoundMs; the slack is for the process to start its exit.
static constexpr int ShutdownBoundMs = 3000;
static constexpr int ExitSlackMs = 700;

// A stdio server that answers initialize and tools/list, never answers a call, and neither
// stops at end of input nor on SIGTERM: only SIGKILL ends it.
static const char StubbornServer[] = R"(trap "" TERM
while IFS= read -r line; do
  id=$(printf %s "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  case "$line" in
    *'"initialize"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"stubborn","version":"1"}}}\n' "$id";;
    *'"tools/list"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[]}}\n' "$id";;
  esac
done
exec sleep 600
)";

static QByteArray fileContents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Dead: no such process, or a zombie (killed after sonde-cli left, it waits for init to reap it).
static bool gone(qint64 pid)
{
    if (::kill(pid_t(pid), 0) != 0 && errno == ESRCH)
        return true;
    const QByteArray stat = fileContents(u"/proc/%1/stat"_s.arg(pid));
    const qsizetype close = stat.lastIndexOf(')');
    return close > 0 && stat.mid(close + 2, 1) == "Z";
}

static QList<qint64> childrenOf(qint64 pid)
{
    QProcess pgrep;
    pgrep.start(u"pgrep"_s, {u"-P"_s, QString::number(pid)});
    pgrep.waitForFinished(5000);
    QList<qint64> pids;
    for (const QByteArray &l : pgrep.readAllStandardOutput().split('\n'))
        if (!l.trimmed().isEmpty())
            pids.append(l.trimmed().toLongLong());
    return pids;
}

// Kills what a failed test left running, so one failure does not leak into the next.
struct KillOnExit
{
    QList<qint64> pids;
    ~KillOnExit()
    {
        for (qint64 pid : pids)
            if (!gone(pid))
                ::kill(pid_t(pid), SIGKILL);
    }
};

// The transcript as a list of events; fails the test unless every line is complete JSON.
static QList<QJsonObject> transcriptEvents(const QString &path, QString *problem)
{
    const QByteArray all = fileContents(path);
    QList<QJsonObject> events;
    if (all.isEmpty()) {
        *problem = u"the transcript is empty"_s;
        return events;
    }
    if (!all.endsWith('\n')) {
        *problem = u"the transcript ends inside a line: "_s + QString::fromUtf8(all.right(120));
        return events;
    }
    const QList<QByteArray> lines = all.chopped(1).split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QJsonParseError e;
        const QJsonDocument d = QJsonDocument::fromJson(lines[i], &e);
        if (e.error != QJsonParseError::NoError || !d.isObject()) {
            *problem = u"line %1 is not a JSON object: %2"_s.arg(i + 1).arg(
                QString::fromUtf8(lines[i].left(120)));
            return {};
        }
        events.append(d.object());
    }
    return events;
}

static bool sent(const QList<QJsonObject> &events, const QString &method,
                 QJsonObject *msg = nullptr)
{
    for (const QJsonObject &e : events) {
        const QJsonObject m = e.value("msg"_L1).toObject();
        if (e.value("dir"_L1) == "send"_L1 && m.value("method"_L1) == method) {
            if (msg)
                *msg = m;
            return true;
        }
    }
    return false;
}

static QJsonObject findEvent(const QList<QJsonObject> &events, const QString &name)
{
    for (const QJsonObject &e : events)
        if (e.value("dir"_L1) == "event"_L1 && e.value("event"_L1) == name)
            return e;
    return {};
}

class TestCliSignals : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static std::unique_ptr<QProcess> startCli(const QStringList &args)
    {
        auto p = std::make_unique<QProcess>();
        p->start(qEnvironmentVariable("SONDE_TEST_CLI", QString::fromUtf8(SONDE_CLI_PATH)),
                 withEra(args));
        p->closeWriteChannel();
        return p;
    }

    // Waits for the call to be on its way (the transcript says it was sent). Not fatal: a
    // build that does not write the transcript as it goes fails on the transcript later.
    static void waitForTheCall(const QString &transcript)
    {
        (void)QTest::qWaitFor(
            [&] { return fileContents(transcript).contains(R"("method":"tools/call")"); }, 15000);
    }

    // Sends `signo` and waits for the exit; returns the milliseconds it took.
    static qint64 signalAndWait(QProcess &p, int signo)
    {
        QSignalSpy finished(&p, &QProcess::finished);
        QElapsedTimer t;
        t.start();
        ::kill(pid_t(p.processId()), signo);
        if (!finished.wait(ShutdownBoundMs + 10000)) {
            p.kill();
            p.waitForFinished();
        }
        return t.elapsed();
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void aSignalDuringAnHttpCallCancelsItAndDeletesTheSession_data()
    {
        QTest::addColumn<int>("signo");
        QTest::newRow("Ctrl-C (SIGINT) exits 130 after the cancel and the DELETE") << int(SIGINT);
        QTest::newRow("SIGTERM exits 143 after the cancel and the DELETE") << int(SIGTERM);
    }
    void aSignalDuringAnHttpCallCancelsItAndDeletesTheSession()
    {
        QFETCH(int, signo);
        DemoHttpServer server;
        QVERIFY(server.start());
        const QString transcript = m_dir.filePath(u"http-%1.jsonl"_s.arg(signo));
        auto cli = startCli({u"--url"_s, server.url(), u"--transcript"_s, transcript, u"tools"_s,
                             u"call"_s, u"slow-task"_s, uR"({"duration_ms":20000})"_s});
        QVERIFY(cli->waitForStarted(5000));
        waitForTheCall(transcript);

        const qint64 ms = signalAndWait(*cli, signo);
        qInfo("sonde-cli exited %lld ms after the signal", ms);
        QCOMPARE(cli->exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli->exitCode(), 128 + signo);
        QVERIFY2(ms < ShutdownBoundMs + ExitSlackMs, qPrintable(QString::number(ms)));
        const QByteArray out = cli->readAllStandardOutput();
        QVERIFY2(out.isEmpty() || out.endsWith('\n'), out.right(200).constData());

        QString problem;
        const QList<QJsonObject> events = transcriptEvents(transcript, &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QJsonObject call, cancel;
        QVERIFY(sent(events, u"tools/call"_s, &call));
        QVERIFY2(sent(events, u"notifications/cancelled"_s, &cancel),
                 "no notifications/cancelled in the transcript");
        QCOMPARE(cancel.value("params"_L1).toObject().value("requestId"_L1), call.value("id"_L1));
        const QJsonObject deleted = findEvent(events, u"session-delete"_s);
        QVERIFY2(!deleted.isEmpty(), "no session-delete event in the transcript");
        QCOMPARE(deleted.value("details"_L1).toObject().value("status"_L1).toInt(), 200);

        // And the server's side: it was told, and the session is gone.
        QTRY_VERIFY_WITH_TIMEOUT(server.log().contains("terminated by DELETE"), 3000);
        QVERIFY2(server.log().contains(" cancelled"), server.log().constData());
    }

    void aSignalDuringAStdioCallLeavesNoServerBehind_data()
    {
        QTest::addColumn<QStringList>("connection");
        QTest::addColumn<QStringList>("command");
        QTest::newRow("server-everything, which ignores end of input, is stopped")
            << QStringList{u"--command"_s, u"node"_s,
                           u"--arg"_s,     QString::fromUtf8(SONDE_EVERYTHING_PATH),
                           u"--arg"_s,     u"stdio"_s}
            << QStringList{u"tools"_s, u"call"_s, u"trigger-long-running-operation"_s,
                           uR"({"duration":30,"steps":30})"_s};
        QTest::newRow("a server that ignores end of input and SIGTERM is killed")
            << QStringList{u"--command"_s, u"/bin/sh"_s, u"--arg"_s,
                           u"-c"_s,        u"--arg"_s,   QString::fromUtf8(StubbornServer)}
            << QStringList{u"tools"_s, u"call"_s, u"hang"_s, u"{}"_s};
    }
    void aSignalDuringAStdioCallLeavesNoServerBehind()
    {
        QFETCH(QStringList, connection);
        QFETCH(QStringList, command);
        if (connection.contains(QString::fromUtf8(SONDE_EVERYTHING_PATH)))
            QVERIFY2(QFile::exists(QString::fromUtf8(SONDE_EVERYTHING_PATH)),
                     "server-everything is not installed: ./dev.sh runs npm ci in tests/");
        const QString transcript =
            m_dir.filePath(u"stdio-%1.jsonl"_s.arg(QString::fromUtf8(QTest::currentDataTag()))
                               .replace(u' ', u'-'));
        auto cli = startCli(connection + QStringList{u"--transcript"_s, transcript} + command);
        QVERIFY(cli->waitForStarted(5000));
        KillOnExit cleanup;
        QTRY_VERIFY_WITH_TIMEOUT(!childrenOf(cli->processId()).isEmpty(), 10000);
        cleanup.pids = childrenOf(cli->processId());
        waitForTheCall(transcript);

        const qint64 ms = signalAndWait(*cli, SIGINT);
        qInfo("sonde-cli exited %lld ms after SIGINT", ms);
        QCOMPARE(cli->exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli->exitCode(), 130);
        QVERIFY2(ms < ShutdownBoundMs + ExitSlackMs, qPrintable(QString::number(ms)));

        QString problem;
        const QList<QJsonObject> events = transcriptEvents(transcript, &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const qint64 pid = findEvent(events, u"transport-open"_s)
                               .value("details"_L1)
                               .toObject()
                               .value("pid"_L1)
                               .toInteger();
        QCOMPARE(QList<qint64>{pid}, cleanup.pids);
        QVERIFY(sent(events, u"notifications/cancelled"_s));
        QVERIFY2(!findEvent(events, u"closed"_s).isEmpty(),
                 "the transcript does not say the server was stopped");
        QTRY_VERIFY2_WITH_TIMEOUT(gone(pid),
                                  qPrintable(u"server pid %1 is still running"_s.arg(pid)), 1000);
    }

    void aShutdownLongerThanTheBoundIsCutAndStillLeavesNoServer()
    {
        // Asked to give the stubborn server 10 s after closing its stdin, the shutdown would
        // take 11 s: the bound cuts it, and the server is killed on the way out.
        const QString transcript = m_dir.filePath(u"bound.jsonl"_s);
        auto cli =
            startCli({u"--command"_s, u"/bin/sh"_s, u"--arg"_s, u"-c"_s, u"--arg"_s,
                      QString::fromUtf8(StubbornServer), u"--shutdown-grace"_s, u"10000"_s,
                      u"--transcript"_s, transcript, u"tools"_s, u"call"_s, u"hang"_s, u"{}"_s});
        QVERIFY(cli->waitForStarted(5000));
        KillOnExit cleanup;
        QTRY_VERIFY_WITH_TIMEOUT(!childrenOf(cli->processId()).isEmpty(), 10000);
        cleanup.pids = childrenOf(cli->processId());
        waitForTheCall(transcript);
        const qint64 ms = signalAndWait(*cli, SIGTERM);
        qInfo("sonde-cli exited %lld ms after SIGTERM", ms);
        QCOMPARE(cli->exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli->exitCode(), 143);
        QVERIFY2(ms >= ShutdownBoundMs * 9 / 10 && ms < ShutdownBoundMs + ExitSlackMs,
                 qPrintable(QString::number(ms)));
        QVERIFY2(cli->readAllStandardError().contains("the shutdown took over"),
                 "no word that the bound cut the shutdown");
        QString problem;
        transcriptEvents(transcript, &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QTRY_VERIFY2_WITH_TIMEOUT(gone(cleanup.pids.value(0)), "the server outlived sonde-cli",
                                  1000);
    }

    void aSecondSignalLeavesAtOnce()
    {
        // The stubborn server would hold a graceful shutdown for its SIGTERM grace (1 s).
        const QString transcript = m_dir.filePath(u"twice.jsonl"_s);
        auto cli = startCli({u"--command"_s, u"/bin/sh"_s, u"--arg"_s, u"-c"_s, u"--arg"_s,
                             QString::fromUtf8(StubbornServer), u"--transcript"_s, transcript,
                             u"tools"_s, u"call"_s, u"hang"_s, u"{}"_s});
        QVERIFY(cli->waitForStarted(5000));
        KillOnExit cleanup; // a user who will not wait leaves such a server behind
        QTRY_VERIFY_WITH_TIMEOUT(!childrenOf(cli->processId()).isEmpty(), 10000);
        cleanup.pids = childrenOf(cli->processId());
        waitForTheCall(transcript);
        QSignalSpy finished(cli.get(), &QProcess::finished);
        QElapsedTimer t;
        t.start();
        ::kill(pid_t(cli->processId()), SIGINT);
        QTRY_VERIFY_WITH_TIMEOUT(fileContents(transcript).contains(R"("event":"closing")"),
                                 2000); // the first is being handled
        ::kill(pid_t(cli->processId()), SIGINT);
        QVERIFY(finished.wait(5000));
        qInfo("sonde-cli exited %lld ms after the first SIGINT", t.elapsed());
        QCOMPARE(cli->exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli->exitCode(), 130);
        QVERIFY2(t.elapsed() < 900, qPrintable(QString::number(t.elapsed())));
    }

    void aKilledCliLeavesATranscriptOfWholeLinesUpToTheKill()
    {
        const QString transcript = m_dir.filePath(u"killed.jsonl"_s);
        auto cli = startCli({u"--command"_s, QString::fromUtf8(SONDE_DEMO_SERVER_PATH),
                             u"--transcript"_s, transcript, u"tools"_s, u"call"_s, u"slow-task"_s,
                             uR"({"duration_ms":20000,"steps":100})"_s});
        QVERIFY(cli->waitForStarted(5000));
        KillOnExit cleanup;
        QTRY_VERIFY_WITH_TIMEOUT(!childrenOf(cli->processId()).isEmpty(), 10000);
        cleanup.pids = childrenOf(cli->processId());
        // sonde-cli prints a server's stderr line from the batch it writes to the transcript
        // just before: once it is printed, it is in the file, however the process ends.
        QByteArray err;
        QTRY_VERIFY_WITH_TIMEOUT(
            (err += cli->readAllStandardError()).contains("demo: client initialized"), 10000);
        QSignalSpy finished(cli.get(), &QProcess::finished);
        ::kill(pid_t(cli->processId()), SIGKILL);
        QVERIFY(finished.wait(5000));
        QCOMPARE(cli->exitStatus(), QProcess::CrashExit);

        QString problem;
        const QList<QJsonObject> events = transcriptEvents(transcript, &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(sent(events, u"initialize"_s));
        bool stderrLine = false;
        for (const QJsonObject &e : events)
            stderrLine |= e.value("dir"_L1) == "stderr"_L1 &&
                          e.value("line"_L1) == "demo: client initialized"_L1;
        QVERIFY2(stderrLine, "the server's stderr line sonde-cli printed is not in the transcript");
    }

    void aKilledCliTakesItsStdioServerWithIt()
    {
        // kill -9 leaves no time for a shutdown: the server must not outlive sonde-cli all the
        // same (this one ignores end of input and SIGTERM).
        auto cli = startCli({u"--command"_s, u"/bin/sh"_s, u"--arg"_s, u"-c"_s, u"--arg"_s,
                             QString::fromUtf8(StubbornServer), u"tools"_s, u"call"_s, u"hang"_s,
                             u"{}"_s});
        QVERIFY(cli->waitForStarted(5000));
        KillOnExit cleanup;
        QTRY_VERIFY_WITH_TIMEOUT(!childrenOf(cli->processId()).isEmpty(), 10000);
        cleanup.pids = childrenOf(cli->processId());
        QSignalSpy finished(cli.get(), &QProcess::finished);
        ::kill(pid_t(cli->processId()), SIGKILL);
        QVERIFY(finished.wait(5000));
        QTRY_VERIFY2_WITH_TIMEOUT(gone(cleanup.pids.value(0)),
                                  "the server outlived a killed sonde-cli", 2000);
    }

    void theGuiStopsItsServerOnSigterm()
    {
        // With no workspace the window starts the built-in demo server over stdio.
        QTemporaryDir home;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
        env.insert(u"HOME"_s, home.path());
        env.insert(u"XDG_CONFIG_HOME"_s, home.filePath(u"config"_s));
        QProcess gui;
        gui.setProcessEnvironment(env);
        gui.start(QString::fromUtf8(SONDE_GUI_PATH), {u"--no-saved-workspace"_s});
        QVERIFY(gui.waitForStarted(5000));
        KillOnExit cleanup;
        QTRY_VERIFY_WITH_TIMEOUT(!childrenOf(gui.processId()).isEmpty(), 10000);
        cleanup.pids = childrenOf(gui.processId());
        const qint64 ms = signalAndWait(gui, SIGTERM);
        qInfo("sonde exited %lld ms after SIGTERM", ms);
        QCOMPARE(gui.exitStatus(), QProcess::NormalExit);
        QCOMPARE(gui.exitCode(), 143);
        QVERIFY2(ms < ShutdownBoundMs + ExitSlackMs, qPrintable(QString::number(ms)));
        QTRY_VERIFY_WITH_TIMEOUT(gone(cleanup.pids.value(0)), 1000);
    }
};

QTEST_GUILESS_MAIN(TestCliSignals)
#include "tst_cli_signals.moc"
