// SPDX-License-Identifier: MIT
#include "rawstdioprobes.h"

#include "protocol/rev20260728.h"
#include "util/version.h"

#include <QJsonDocument>
#include <QProcessEnvironment>
#include <QTimer>

#ifdef Q_OS_LINUX
#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

// A line longer than this is not waited for: the probe's answer is a few hundred bytes.
constexpr qsizetype ProbeLineLimit = 4 * 1024 * 1024;
// How long the probe waits after the initialize answer, sending nothing, for a request that
// comes too early. The servers that do it send it with the answer.
constexpr int RequestWaitMs = 300;

} // namespace

RawStdioProbes::RawStdioProbes(Options options, QObject *parent)
    : QObject(parent), m_options(std::move(options))
{
}

RawStdioProbes::~RawStdioProbes()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        // Only when the run is torn down mid-probe: a killed child is reaped in microseconds,
        // and an unreaped one would stay a zombie.
        m_process->waitForFinished(1000); // blocking-wait-ok: a killed child, torn down early
    }
}

bool RawStdioProbes::wanted(const QString &checkId) const
{
    return m_options.only.isEmpty() || m_options.only.contains(checkId);
}

void RawStdioProbes::start()
{
    const QString negotiation = m_options.rev20260728 ? u"versioning.unsupported-version-error"_s
                                                      : u"lifecycle.version-negotiation"_s;
    if (!wanted(negotiation) && !wanted(u"stdio.ignores-stdin-close"_s) &&
        !wanted(u"stdio.non-jsonrpc-stdout"_s) &&
        !wanted(u"lifecycle.request-before-initialized"_s)) {
        done();
        return;
    }
    m_process = new QProcess(this);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (auto it = m_options.server.environment.begin(); it != m_options.server.environment.end();
         ++it)
        env.insert(it.key(), it.value());
    m_process->setProcessEnvironment(env);
    if (!m_options.server.workingDirectory.isEmpty())
        m_process->setWorkingDirectory(m_options.server.workingDirectory);
    m_process->setProgram(m_options.server.program);
    m_process->setArguments(m_options.server.arguments);
    // stderr is the server's to use as it likes: not read, not kept.
    m_process->setStandardErrorFile(QProcess::nullDevice());
#ifdef Q_OS_LINUX
    m_process->setChildProcessModifier([parent = ::getpid()] {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent)
            ::_exit(127);
    });
#endif
    connect(m_process, &QProcess::readyReadStandardOutput, this, &RawStdioProbes::onStdout);
    connect(m_process, &QProcess::finished, this, [this] {
        onStdout();
        if (m_inputClosed && wanted(u"stdio.ignores-stdin-close"_s) &&
            !m_ran.contains(u"stdio.ignores-stdin-close"_s))
            m_ran << u"stdio.ignores-stdin-close"_s;
        if (!m_answered)
            m_skipped.insert(m_options.rev20260728 ? u"versioning.unsupported-version-error"_s
                                                   : u"lifecycle.version-negotiation"_s,
                             u"the second server process ended without answering"_s);
        done();
    });
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            m_skipped.insert(u"stdio.ignores-stdin-close"_s,
                             u"the server could not be started again: "_s +
                                 m_process->errorString());
            done();
        }
    });
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (!m_inputClosed) {
            // No answer in time, or the quiet time after it is over: on to the exit.
            if (m_answered && !m_options.rev20260728 &&
                wanted(u"lifecycle.request-before-initialized"_s) &&
                !m_ran.contains(u"lifecycle.request-before-initialized"_s))
                m_ran << u"lifecycle.request-before-initialized"_s;
            closeInput();
            return;
        }
        // Still running after its stdin closed.
        if (wanted(u"stdio.ignores-stdin-close"_s)) {
            m_ran << u"stdio.ignores-stdin-close"_s;
            fail(u"stdio.ignores-stdin-close"_s,
                 u"The server was still running %1 ms after its stdin closed; a client waits "
                 u"that long, then kills it"_s.arg(m_options.exitWaitMs),
                 {}, m_options.rev20260728 ? DoctorSeverity::Warning : DoctorSeverity::Info);
        }
        m_process->kill(); // finished() follows, and ends the probes
    });

    QJsonObject request{{"jsonrpc"_L1, "2.0"_L1}, {"id"_L1, "sonde-doctor-1"_L1}};
    const QJsonObject clientInfo{{"name"_L1, "sonde-doctor"_L1},
                                 {"version"_L1, QStringLiteral(SONDE_VERSION)}};
    if (m_options.rev20260728) {
        Rev20260728::RequestContext context;
        context.protocolVersion = u"1999-01-01"_s;
        context.clientInfo = clientInfo;
        request.insert("method"_L1, "server/discover"_L1);
        request.insert("params"_L1, Rev20260728::withRequestMeta({}, context));
    } else {
        request.insert("method"_L1, "initialize"_L1);
        request.insert("params"_L1, QJsonObject{{"protocolVersion"_L1, "1999-01-01"_L1},
                                                {"capabilities"_L1, QJsonObject{}},
                                                {"clientInfo"_L1, clientInfo}});
    }
    m_request = QJsonDocument(request).toJson(QJsonDocument::Compact);
    m_process->start(QIODevice::ReadWrite);
    m_process->write(m_request + '\n');
    m_timer->start(m_options.timeoutMs);
}

void RawStdioProbes::onStdout()
{
    if (!m_process || !m_process->isOpen())
        return;
    m_buffer += m_process->readAllStandardOutput();
    qsizetype nl;
    while ((nl = m_buffer.indexOf('\n')) >= 0) {
        const QByteArray line = m_buffer.left(nl);
        m_buffer.remove(0, nl + 1);
        onLine(line.trimmed());
    }
    if (m_buffer.size() > ProbeLineLimit)
        m_buffer.clear();
}

void RawStdioProbes::onLine(const QByteArray &line)
{
    if (line.isEmpty())
        return;
    const QJsonDocument doc = QJsonDocument::fromJson(line);
    if (!doc.isObject()) {
        if (wanted(u"stdio.non-jsonrpc-stdout"_s))
            fail(u"stdio.non-jsonrpc-stdout"_s,
                 u"The server wrote a line to stdout that is not a JSON-RPC message: %1"_s.arg(
                     QString::fromUtf8(line.left(120)).simplified()),
                 line, DoctorSeverity::Error);
        return;
    }
    const QJsonObject m = doc.object();
    if (m.value("id"_L1) == "sonde-doctor-1"_L1 && !m.contains("method"_L1)) {
        onAnswer(m, line);
        return;
    }
    // This process is never sent notifications/initialized: a request now is certainly
    // before it (over the engine's session the order of arrival cannot prove that).
    const QString method = m.value("method"_L1).toString();
    if (m_answered && !m_options.rev20260728 && m.contains("id"_L1) && !method.isEmpty() &&
        method != "ping"_L1 && wanted(u"lifecycle.request-before-initialized"_s))
        fail(u"lifecycle.request-before-initialized"_s,
             u"The server sent the request %1 before the client's notifications/initialized"_s.arg(
                 method),
             line, DoctorSeverity::Warning);
}

void RawStdioProbes::onAnswer(const QJsonObject &answer, const QByteArray &line)
{
    if (std::exchange(m_answered, true))
        return;
    if (m_options.rev20260728) {
        if (wanted(u"versioning.unsupported-version-error"_s)) {
            m_ran << u"versioning.unsupported-version-error"_s;
            const int code = answer.value("error"_L1).toObject().value("code"_L1).toInt();
            if (code != Rev20260728::UnsupportedProtocolVersion)
                fail(
                    u"versioning.unsupported-version-error"_s,
                    u"server/discover for protocol version \"1999-01-01\" got %1, not -32022"_s.arg(
                        code ? u"error %1"_s.arg(code) : u"a result"_s),
                    line, DoctorSeverity::Error);
        }
    } else if (wanted(u"lifecycle.version-negotiation"_s)) {
        m_ran << u"lifecycle.version-negotiation"_s;
        const QString offered =
            answer.value("result"_L1).toObject().value("protocolVersion"_L1).toString();
        if (offered == "1999-01-01"_L1)
            fail(u"lifecycle.version-negotiation"_s,
                 u"initialize asking for protocol version \"1999-01-01\" was answered with that "
                 u"same version, which no server speaks"_s,
                 line, DoctorSeverity::Error);
    }
    if (m_options.rev20260728 || !wanted(u"lifecycle.request-before-initialized"_s)) {
        closeInput();
        return;
    }
    // A quiet time without notifications/initialized: a request in it is too early.
    m_timer->start(RequestWaitMs);
}

void RawStdioProbes::closeInput()
{
    if (std::exchange(m_inputClosed, true))
        return;
    if (!wanted(u"stdio.ignores-stdin-close"_s)) {
        m_process->kill(); // finished() follows, and ends the probes
        return;
    }
    m_process->closeWriteChannel();
    m_closedAt.start();
    m_timer->start(m_options.exitWaitMs);
}

void RawStdioProbes::fail(const QString &checkId, const QString &message,
                          const QByteArray &response, DoctorSeverity severity)
{
    if (!m_ran.contains(checkId))
        m_ran << checkId;
    DoctorFinding f;
    f.checkId = checkId;
    f.severity = severity;
    f.message = message;
    f.evidence.request = m_request;
    f.evidence.response = response;
    Q_EMIT found(f);
}

void RawStdioProbes::done()
{
    if (std::exchange(m_finished, true))
        return;
    if (m_timer)
        m_timer->stop();
    QTimer::singleShot(0, this, &RawStdioProbes::finished);
}

} // namespace Sonde
