// SPDX-License-Identifier: MIT
#include "proxy/stdiorelay.h"

#include "protocol/jsonrpcmessage.h"
#include "proxy/proxysession.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSocketNotifier>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
// One read of the client's input at most; a longer message arrives over several reads.
constexpr qsizetype ReadChunk = 64 * 1024;
} // namespace

StdioRelay::StdioRelay(QString program, QStringList arguments, ProxySession *session,
                       QObject *parent)
    : QObject(parent), m_program(std::move(program)), m_arguments(std::move(arguments)),
      m_session(session)
{
    if (m_session)
        connect(m_session, &ProxySession::actNow, this, &StdioRelay::act);
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
        if (m_session)
            m_session->judge().clientEnded();
        return;
    }
    chunk.truncate(n);
    m_server.write(chunk);
    if (m_session) {
        for (const QByteArray &line : m_clientLines.feed(chunk))
            m_session->clientFrame(line);
        m_clientLines.takeOversizedCount(); // too long to judge; relayed all the same
    }
    if (m_server.bytesToWrite() > MaxPendingBytes)
        m_input->setEnabled(false); // until the server has read half of it (bytesWritten)
}

void StdioRelay::relayServerOutput()
{
    const QByteArray bytes = m_server.readAllStandardOutput();
    if (!m_session) {
        writeAll(STDOUT_FILENO, bytes);
        return;
    }
    if (m_held.isEmpty() && !lineFaultArmed() && m_notifications.isEmpty()) {
        // Nothing to act on: the bytes go as they came, seen on the way.
        writeAll(STDOUT_FILENO, bytes);
        if (!bytes.isEmpty())
            m_atLineStart = bytes.endsWith('\n');
        observeServer(bytes);
        return;
    }
    m_held += bytes;
    relayLines();
}

bool StdioRelay::lineFaultArmed() const
{
    using K = ProxyFault::Kind;
    return m_session->armedFor(K::DropResponse) || m_session->armedFor(K::CorruptResponse) ||
           m_session->armedFor(K::Delay);
}

void StdioRelay::observeServer(const QByteArray &bytes)
{
    for (const QByteArray &line : m_serverLines.feed(bytes))
        m_session->serverFrame(line);
    m_serverLines.takeOversizedCount();
}

void StdioRelay::relayLines()
{
    using K = ProxyFault::Kind;
    while (!m_held.isEmpty() && !(m_delay && m_delay->isActive())) {
        if (!m_atLineStart) {
            // The rest of a line the client already has the start of.
            const qsizetype nl = m_held.indexOf('\n');
            const QByteArray part = nl < 0 ? std::exchange(m_held, {}) : m_held.left(nl + 1);
            m_held.remove(0, part.size());
            writeLine(part);
            continue;
        }
        const qsizetype nl = m_held.indexOf('\n');
        if (nl < 0) {
            if (m_held.size() > MaxHeldLineBytes) {
                // Too long to hold whole: it goes through as it is, unfaulted.
                writeLine(std::exchange(m_held, {}));
            }
            return;
        }
        const QByteArray line = m_held.left(nl + 1);
        if (std::exchange(m_releaseFirst, false)) {
            // The answer a delay held: it goes now, as it is.
            m_held.remove(0, line.size());
            writeLine(line);
            continue;
        }
        const auto envelope = JsonRpcMessage::peekEnvelope(QByteArrayView(line).trimmed());
        const bool response = envelope && !envelope->hasMethod && !envelope->id.isUndefined();
        const ObservedRequest request =
            response ? m_session->requestFor(JsonRpcMessage::idKey(envelope->id))
                     : ObservedRequest();
        const QString what =
            request.tool.isEmpty() ? request.method : u"tools/call "_s + request.tool;
        if (response) {
            if (const auto f = m_session->take(K::Delay)) {
                m_session->fired(f->first, request, {},
                                 u"held the answer to %1 for %2 ms"_s.arg(what).arg(f->second.ms));
                if (!m_delay) {
                    m_delay = new QTimer(this);
                    m_delay->setSingleShot(true);
                    connect(m_delay, &QTimer::timeout, this, [this] {
                        m_releaseFirst = true;
                        relayLines();
                    });
                }
                m_delay->start(f->second.ms);
                return; // the line stays first in m_held until the timer ends
            }
        }
        m_held.remove(0, line.size());
        if (response) {
            if (const auto f = m_session->take(K::DropResponse)) {
                observeServer(line);
                m_session->fired(f->first, request, {},
                                 u"did not relay the answer to %1"_s.arg(what));
                continue;
            }
            if (const auto f = m_session->take(K::CorruptResponse)) {
                observeServer(line);
                m_session->fired(f->first, request, {},
                                 u"relayed the answer to %1 cut in half"_s.arg(what));
                writeLine(line.left(qMax<qsizetype>(1, line.size() / 2)) + '\n');
                continue;
            }
        }
        writeLine(line);
    }
}

void StdioRelay::writeLine(const QByteArray &bytes)
{
    writeAll(STDOUT_FILENO, bytes);
    observeServer(bytes);
    m_atLineStart = bytes.endsWith('\n');
    while (m_atLineStart && !m_notifications.isEmpty())
        writeAll(STDOUT_FILENO, m_notifications.takeFirst());
}

void StdioRelay::act(int id, const ProxyFault &fault)
{
    if (fault.kind == ProxyFault::Kind::KillServer) {
        if (m_server.state() == QProcess::NotRunning) {
            m_session->failed(id, u"the server is not running"_s);
            return;
        }
        m_session->fired(id, {}, {}, u"killed the server (SIGKILL)"_s);
        m_server.kill();
        return;
    }
    if (fault.kind != ProxyFault::Kind::Notify)
        return;
    const QByteArray line = QJsonDocument(QJsonObject{{u"jsonrpc"_s, u"2.0"_s},
                                                      {u"method"_s, fault.method},
                                                      {u"params"_s, fault.params}})
                                .toJson(QJsonDocument::Compact) +
                            '\n';
    m_session->fired(id, {}, {}, u"sent %1 to the client"_s.arg(fault.method));
    if (m_atLineStart && m_held.isEmpty())
        writeAll(STDOUT_FILENO, line);
    else
        m_notifications.append(line); // after the line the client is in the middle of
}

void StdioRelay::relayServerError()
{
    writeAll(STDERR_FILENO, m_server.readAllStandardError());
}

void StdioRelay::serverFinished(int code, QProcess::ExitStatus status)
{
    // What the server wrote last reaches the client before the proxy ends (held lines too:
    // a delay does not outlive the server).
    relayServerOutput();
    if (m_delay)
        m_delay->stop();
    if (!m_held.isEmpty())
        writeAll(STDOUT_FILENO, std::exchange(m_held, {}));
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
