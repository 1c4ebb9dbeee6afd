// SPDX-License-Identifier: MIT
#include "application/window/shutdownsequence.h"

#include "application/servers/builtindemos.h"
#include "application/servers/demoserverprocess.h"
#include "engine/corehost.h"

#include <QTimer>

#include <utility>

namespace Sonde {

ShutdownSequence::ShutdownSequence(CoreHost &host, BuiltInDemos *demos, QObject *parent)
    : QObject(parent), m_host(host), m_demos(demos)
{
}

void ShutdownSequence::start()
{
    if (std::exchange(m_started, true))
        return;
    connect(&m_host, &CoreHost::shutdownFinished, this, &ShutdownSequence::sessionsClosed);
    QTimer::singleShot(BoundMs, this, &ShutdownSequence::sessionsClosed);
    m_host.shutdown();
}

void ShutdownSequence::sessionsClosed()
{
    if (std::exchange(m_sessionsClosed, true))
        return;
    // The sessions are closed (the HTTP demo got its DELETE): now its process may go.
    if (m_demos && m_demos->stop()) {
        connect(m_demos, &BuiltInDemos::stopped, this, &ShutdownSequence::finish);
        QTimer::singleShot(DemoServerProcess::StopGraceMs + 500, this, &ShutdownSequence::finish);
        return;
    }
    finish();
}

void ShutdownSequence::finish()
{
    if (std::exchange(m_finished, true))
        return;
    Q_EMIT finished();
}

} // namespace Sonde
