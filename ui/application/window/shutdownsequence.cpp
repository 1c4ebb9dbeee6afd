// SPDX-License-Identifier: MIT
#include "application/window/shutdownsequence.h"

#include "application/servers/builtindemos.h"
#include "application/servers/demoserverprocess.h"
#include "engine/corehost.h"

#include "util/clock.h"
#include "util/clocktimer.h"

#include <utility>

namespace Sonde {

ShutdownSequence::ShutdownSequence(CoreHost &host, BuiltInDemos *demos, QObject *parent,
                                   const Clock *clock)
    : QObject(parent), m_host(host), m_demos(demos)
{
    if (!clock) {
        m_ownClock = std::make_unique<SteadyClock>();
        clock = m_ownClock.get();
    }
    m_bound = clock->createTimer(this);
    connect(m_bound, &ClockTimer::timeout, this, [this] {
        if (!m_sessionsClosed)
            sessionsClosed();
        else
            finish();
    });
}

ShutdownSequence::~ShutdownSequence() = default;

void ShutdownSequence::start()
{
    if (std::exchange(m_started, true))
        return;
    connect(&m_host, &CoreHost::shutdownFinished, this, &ShutdownSequence::sessionsClosed);
    m_bound->start(BoundMs);
    m_host.shutdown();
}

void ShutdownSequence::sessionsClosed()
{
    if (std::exchange(m_sessionsClosed, true))
        return;
    m_bound->stop();
    // The sessions are closed (the HTTP demo got its DELETE): now its process may go.
    if (m_demos && m_demos->stop()) {
        connect(m_demos, &BuiltInDemos::stopped, this, &ShutdownSequence::finish);
        m_bound->start(DemoServerProcess::StopGraceMs + 500);
        return;
    }
    finish();
}

void ShutdownSequence::finish()
{
    if (std::exchange(m_finished, true))
        return;
    m_bound->stop();
    Q_EMIT finished();
}

} // namespace Sonde
