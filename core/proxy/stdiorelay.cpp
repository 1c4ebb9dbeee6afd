// SPDX-License-Identifier: MIT
#include "proxy/stdiorelay.h"

#include <QSocketNotifier>

#include <cerrno>
#include <csignal>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
// One read of the client's input at most; a longer message arrives over several reads.
constexpr qsizetype ReadChunk = 64 * 1024;
} // namespace

StdioRelay::StdioRelay(QString program, QStringList arguments, QObject *parent)
    : QObject(parent), m_program(std::move(program)), m_arguments(std::move(arguments))
{
    connect(&m_server, &QProcess::readyReadStandardOutput, this, &StdioRelay::relayServerOutput);
    connect(&m_server, &QProcess::readyReadStandardError, this, &StdioRelay::relayServerError);
    connect(&m_server, &QProcess::finished, this, &StdioRelay::serverFinished);
    connect(&m_server, &QProcess::bytesWritten, this, [this] {
        if (m_input && !m_clientDone && m_server.bytesToWrite() <= MaxPendingBytes / 2)
            m_input->setEnabled(true);
    });
    connect(&m_server, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart && !m_finished) {
            m_finished = true;
            Q_EMIT finished(127,
                            u"could not start %1: %2"_s.arg(m_program, m_server.errorString()));
        }
    });
}

StdioRelay::~StdioRelay() = default;

void StdioRelay::start()
{
    m_server.setProgram(m_program);
    m_server.setArguments(m_arguments);
    m_server.start(QIODevice::ReadWrite);
    m_input = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this);
    connect(m_input, &QSocketNotifier::activated, this, &StdioRelay::readClient);
}

void StdioRelay::stop()
{
    if (m_server.state() == QProcess::NotRunning)
        return;
    m_server.closeWriteChannel();
    m_server.terminate();
}

void StdioRelay::readClient()
{
    QByteArray chunk(ReadChunk, Qt::Uninitialized);
    const ssize_t n = ::read(STDIN_FILENO, chunk.data(), size_t(chunk.size()));
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        // The client closed its side: so does the server's input, and the server decides
        // when it ends (an MCP stdio server exits on end of input).
        m_clientDone = true;
        m_input->setEnabled(false);
        m_server.closeWriteChannel();
        return;
    }
    chunk.truncate(n);
    m_server.write(chunk);
    if (m_server.bytesToWrite() > MaxPendingBytes)
        m_input->setEnabled(false); // until the server has read half of it (bytesWritten)
}

void StdioRelay::relayServerOutput()
{
    writeAll(STDOUT_FILENO, m_server.readAllStandardOutput());
}

void StdioRelay::relayServerError()
{
    writeAll(STDERR_FILENO, m_server.readAllStandardError());
}

void StdioRelay::serverFinished(int code, QProcess::ExitStatus status)
{
    // What the server wrote last reaches the client before the proxy ends.
    relayServerOutput();
    relayServerError();
    if (m_finished)
        return;
    m_finished = true;
    if (status == QProcess::CrashExit) {
        // On Unix QProcess gives a killed server's signal as its exit code; a shell reports
        // that as 128 + N, and so does the proxy, so the client sees what it would directly.
        Q_EMIT finished(128 + (code > 0 ? code : SIGKILL),
                        u"the server was killed by signal %1"_s.arg(code));
        return;
    }
    Q_EMIT finished(code, QString());
}

void StdioRelay::writeAll(int fd, const QByteArray &bytes)
{
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.constData() + done, size_t(bytes.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return; // stderr closed, say: what it would have said is dropped
        done += n;
    }
}

} // namespace Sonde
