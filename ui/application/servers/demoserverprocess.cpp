// SPDX-License-Identifier: MIT
#include "application/servers/demoserverprocess.h"

#include "util/clock.h"
#include "util/clocktimer.h"

#ifdef Q_OS_LINUX
#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace Sonde {

DemoServerProcess::DemoServerProcess(QObject *parent, const Clock *clock) : QObject(parent)
{
    if (!clock) {
        m_ownClock = std::make_unique<SteadyClock>();
        clock = m_ownClock.get();
    }
    m_process = new QProcess(this);
    m_process->setObjectName(u"httpDemoProcess"_s);
#ifdef Q_OS_LINUX
    // Sonde killed or crashed without its shutdown: the demo goes with it, as stdio servers
    // do (StdioTransport), instead of listening on as an orphan. The GUI thread forks it and
    // lives as long as the process.
    m_process->setChildProcessModifier([parent = ::getpid()] {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent)
            ::_exit(127);
    });
#endif
    m_timer = clock->createTimer(this);
    connect(m_process, &QProcess::readyReadStandardOutput, this, &DemoServerProcess::readUrl);
    connect(m_process, &QProcess::readyReadStandardError, this, [this] {
        // Only the end is kept: it says why the server stopped, if it does.
        m_stderrTail.append(m_process->readAllStandardError());
        m_stderrTail = m_stderrTail.right(2000);
    });
    connect(m_process, &QProcess::finished, this, &DemoServerProcess::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            m_timer->stop();
            fail(tr("the built-in HTTP demo did not start: %1").arg(m_process->errorString()));
        }
    });
    connect(m_timer, &ClockTimer::timeout, this, [this] {
        if (m_stopping) {
            m_process->kill();
            return;
        }
        if (m_url.isValid())
            return;
        fail(tr("the built-in HTTP demo printed no URL within %1 s").arg(StartTimeoutMs / 1000));
        m_process->kill();
    });
}

DemoServerProcess::~DemoServerProcess()
{
    // Never left behind, even when the window goes without stop() (QProcess's own
    // destructor kills and reaps it too; this only says it first).
    disconnect(m_process, nullptr, this, nullptr);
    if (m_process->state() != QProcess::NotRunning)
        m_process->kill();
}

void DemoServerProcess::start(const QString &program, const QStringList &arguments)
{
    if (isRunning())
        return;
    m_url.clear();
    m_stderrTail.clear();
    m_stopping = false;
    m_failedSaid = false;
    m_process->start(program, arguments, QIODevice::ReadOnly);
    m_timer->start(StartTimeoutMs);
}

void DemoServerProcess::readUrl()
{
    if (m_url.isValid()) {
        m_process->readAllStandardOutput(); // nothing more is expected; not kept
        return;
    }
    if (!m_process->canReadLine())
        return;
    const QString line = QString::fromUtf8(m_process->readLine()).trimmed();
    const QUrl url(line, QUrl::StrictMode);
    m_timer->stop();
    if (!url.isValid() || url.scheme() != "http"_L1 || url.port() <= 0) {
        fail(tr("the built-in HTTP demo printed \"%1\", not its URL").arg(line));
        m_process->kill();
        return;
    }
    m_url = url;
    Q_EMIT ready(url);
}

void DemoServerProcess::stop()
{
    if (!isRunning()) {
        Q_EMIT stopped();
        return;
    }
    m_stopping = true;
    m_process->terminate();
    m_timer->start(StopGraceMs);
}

QString DemoServerProcess::lastWords() const
{
    const QList<QByteArray> lines = m_stderrTail.trimmed().split('\n');
    return QString::fromUtf8(lines.value(lines.size() - 1)).trimmed();
}

void DemoServerProcess::onFinished(int code, QProcess::ExitStatus status)
{
    m_timer->stop();
    const bool wasReady = m_url.isValid();
    m_url.clear();
    if (m_stopping) {
        m_stopping = false;
        Q_EMIT stopped();
        return;
    }
    QString why = status == QProcess::CrashExit
                      ? tr("the built-in HTTP demo was killed")
                      : tr("the built-in HTTP demo exited (status %1)").arg(code);
    if (const QString words = lastWords(); !words.isEmpty())
        why += u": "_s + words;
    if (wasReady)
        Q_EMIT died(why);
    else
        fail(why);
}

void DemoServerProcess::fail(const QString &why)
{
    if (!std::exchange(m_failedSaid, true))
        Q_EMIT failed(why);
}

} // namespace Sonde
