// SPDX-License-Identifier: MIT
#include "transport/stdiotransport.h"

#include "protocol/jsonrpcmessage.h"
#include "protocol/limits.h"

#include "util/clock.h"
#include "util/logging.h"

#include <QThread>
#include <QTimer>

#ifdef Q_OS_LINUX
#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace Sonde {

StdioTransport::StdioTransport(const ServerConfig &config, const Clock &clock, QObject *parent)
    : Transport(parent), m_config(config), m_clock(clock)
{
    m_stdout.setMaxLineBytes(config.maxFrameBytes);
    // stderr is read for people: a line that long is cut by the limit like any frame.
    m_stderr.setMaxLineBytes(config.maxFrameBytes);
}

StdioTransport::~StdioTransport()
{
    if (m_process && m_process->state() != QProcess::NotRunning &&
        QThread::currentThread()->loopLevel() == 0) {
        // The engine's thread is ending (no event loop will run again): nobody else is served
        // here any more, and a detached process would never be reaped. SIGKILL is reaped in
        // microseconds.
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(1000); // blocking-wait-ok: no event loop left to stall
        return;
    }
    if (m_process && m_process->state() != QProcess::NotRunning) {
        // Destroyed without a completed shutdown: do not leave an orphan behind, and do not
        // wait for it either (the engine thread serves every other server meanwhile). The
        // QProcess outlives this transport until the child is reaped: its destructor would
        // block in waitForFinished().
        QProcess *process = m_process;
        process->disconnect(this);
        process->setParent(nullptr);
        connect(process, &QProcess::finished, process, &QObject::deleteLater);
        connect(process, &QProcess::errorOccurred, process, [process](QProcess::ProcessError e) {
            if (e == QProcess::FailedToStart || process->state() == QProcess::NotRunning)
                process->deleteLater();
        });
        process->kill();
        m_process = nullptr;
    }
}

void StdioTransport::open()
{
    Q_ASSERT(!m_process);
    m_process = new QProcess(this);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (auto it = m_config.environment.begin(); it != m_config.environment.end(); ++it)
        env.insert(it.key(), it.value());
    m_process->setProcessEnvironment(env);
    if (!m_config.workingDirectory.isEmpty())
        m_process->setWorkingDirectory(m_config.workingDirectory);
    m_process->setProgram(m_config.program);
    m_process->setArguments(m_config.arguments);
#ifdef Q_OS_LINUX
    // If Sonde dies without a shutdown (kill -9, a crash), its servers die with it instead of
    // running on as orphans; a server that ignores end of input would otherwise never stop.
    // SIGKILL: with the parent gone nobody is left to wait for a graceful exit. The setting
    // belongs to the forking thread, the engine's, which lives until every transport closed.
    m_process->setChildProcessModifier([parent = ::getpid()] {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) // the parent died before prctl took effect
            ::_exit(127);
    });
#endif

    connect(m_process, &QProcess::readyReadStandardOutput, this,
            &StdioTransport::onReadyReadStdout);
    connect(m_process, &QProcess::readyReadStandardError, this, &StdioTransport::onReadyReadStderr);
    connect(m_process, &QProcess::finished, this, &StdioTransport::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, &StdioTransport::onErrorOccurred);
    connect(m_process, &QProcess::started, this, [this] {
        m_pid = m_process->processId();
        m_startedMs = m_clock.nowMs();
        qCDebug(lcTransport) << "started" << m_config.program << "pid" << m_pid;
        if (!m_closing)
            Q_EMIT opened();
    });
    m_process->start(QIODevice::ReadWrite);
}

void StdioTransport::send(const QByteArray &frame)
{
    if (!isOpen()) {
        qCDebug(lcTransport) << "send on a closed stdio transport dropped";
        return;
    }
    // One write so the frame and its newline reach the pipe together.
    QByteArray line;
    line.reserve(frame.size() + 1);
    line.append(frame).append('\n');
    m_process->write(line);
    // QProcess only buffers here and writes when its write notifier fires on a later loop
    // iteration; pushing the bytes now saves that round through the event loop on every
    // request (a zero timeout never blocks).
    m_process->waitForBytesWritten(0);
}

bool StdioTransport::kill()
{
    if (!m_process || m_process->state() == QProcess::NotRunning)
        return false;
    m_process->kill();
    return true;
}

bool StdioTransport::isOpen() const
{
    return m_process && m_process->state() == QProcess::Running && !m_closing && !m_finished;
}

void StdioTransport::close()
{
    if (m_finished || !m_process) {
        if (!m_finished)
            finish(Error());
        return;
    }
    if (m_closing)
        return;
    m_closing = true;
    if (m_process->state() == QProcess::Starting) {
        m_process->kill();
        return;
    }
    m_shutdownTimer = new QTimer(this);
    m_shutdownTimer->setSingleShot(true);
    connect(m_shutdownTimer, &QTimer::timeout, this, [this] {
        if (!m_process || m_process->state() == QProcess::NotRunning)
            return;
        if (m_stage == ShutdownStage::StdinClosed) {
            qCDebug(lcTransport) << "grace over, SIGTERM" << m_pid;
            m_stage = ShutdownStage::Terminated;
            m_process->terminate();
            m_shutdownTimer->start(m_config.terminateGraceMs);
        } else if (m_stage == ShutdownStage::Terminated) {
            qCDebug(lcTransport) << "still alive, SIGKILL" << m_pid;
            m_stage = ShutdownStage::Killed;
            m_process->kill();
        }
    });
    m_stage = ShutdownStage::StdinClosed;
    m_process->closeWriteChannel();
    m_shutdownTimer->start(m_config.shutdownGraceMs);
}

void StdioTransport::onReadyReadStdout()
{
    // Drained again on exit and on a kill: a channel Qt already closed has nothing more, and
    // reading it only prints Qt's "QIODevice::read (QProcess): device not open" on stderr.
    if (!m_process->isOpen())
        return;
    const QList<QByteArray> lines = m_stdout.feed(m_process->readAllStandardOutput());
    const QList<QByteArray> heads = m_stdout.takeOversizedHeads();
    if (const QString why = m_stdout.takeOversizedError(u"stdout line"_s); !why.isEmpty()) {
        Q_EMIT frameDropped(why);
        // An answer too large to take fails its own request now, with the limit named, instead
        // of leaving it to time out.
        for (const QByteArray &head : heads)
            if (const std::optional<QJsonValue> id = JsonRpcMessage::leadingId(head))
                Q_EMIT requestFailed(
                    *id,
                    Error::protocol(
                        u"the answer is over the %1 frame limit (a stdout line); dropped"_s.arg(
                            Limits::describeBytes(m_config.maxFrameBytes))));
    }
    for (const QByteArray &line : lines)
        Q_EMIT frameReceived(line);
}

void StdioTransport::onReadyReadStderr()
{
    if (!m_process->isOpen())
        return;
    const QList<QByteArray> lines = m_stderr.feed(m_process->readAllStandardError());
    for (const QByteArray &line : lines)
        Q_EMIT stderrLine(QString::fromUtf8(line));
}

void StdioTransport::onFinished(int exitCode, QProcess::ExitStatus status)
{
    if (m_finished)
        return; // declared dead already (declareKilled); its session has moved on
    // Drain what the child wrote before it went away.
    onReadyReadStdout();
    onReadyReadStderr();
    const QByteArray tail = m_stdout.takeRemainder();
    if (!tail.isEmpty())
        Q_EMIT frameReceived(tail);
    const QByteArray errTail = m_stderr.takeRemainder();
    if (!errTail.isEmpty())
        Q_EMIT stderrLine(QString::fromUtf8(errTail));

    m_endedMs = m_clock.nowMs();
    QString how;
    if (status == QProcess::CrashExit) {
        m_exitSignal = exitCode;
        how = u"was killed by signal %1"_s.arg(exitCode);
    } else {
        m_exitCode = exitCode;
        how = u"exited with code %1"_s.arg(exitCode);
    }
    if (m_closing) {
        finish(Error());
        return;
    }
    finish(
        Error::transport(u"server process %1 %2"_s.arg(m_pid).arg(how), Error::Condition::Closed));
}

void StdioTransport::declareKilled(const Error &reason)
{
    if (m_finished)
        return;
    // What the child wrote before the signal is still delivered; SIGKILL cannot be caught, so
    // nothing more will come. The exit is recorded as what it will be once reaped.
    onReadyReadStdout();
    onReadyReadStderr();
    m_endedMs = m_clock.nowMs();
    m_exitSignal = 9;
    finish(reason);
}

void StdioTransport::onErrorOccurred(QProcess::ProcessError error)
{
    if (error == QProcess::FailedToStart) {
        m_endedMs = m_clock.nowMs();
        finish(Error::transport(
            u"cannot start \"%1\": %2"_s.arg(m_config.program, m_process->errorString()),
            Error::Condition::NotStarted));
    } else if (error == QProcess::WriteError && !m_closing) {
        qCDebug(lcTransport) << "write error" << m_process->errorString();
        // The exit that follows reports the failure; a broken pipe alone is not the end.
    }
}

void StdioTransport::finish(const Error &reason)
{
    if (m_finished)
        return;
    m_finished = true;
    if (m_shutdownTimer)
        m_shutdownTimer->stop();
    Q_EMIT closed(reason);
}

TransportDetails StdioTransport::details() const
{
    TransportDetails d;
    d.program = m_config.program;
    if (m_pid)
        d.pid = m_pid;
    if (m_startedMs) {
        const qint64 end = m_endedMs ? m_endedMs : m_clock.nowMs();
        d.uptimeMs = end - m_startedMs;
    }
    if (m_finished && m_exitSignal)
        d.exitSignal = m_exitSignal;
    else if (m_finished && m_exitCode >= 0)
        d.exitCode = m_exitCode;
    return d;
}

} // namespace Sonde
