// SPDX-License-Identifier: MIT
#pragma once

#include "recovery/reconnectpolicy.h"
#include "values/callvalues.h"
#include "values/recoveryvalues.h"

#include <QObject>

namespace Sonde {

class Clock;
class ClockTimer;
struct ServerProgress;

// When and why one server is reconnected (docs/recovery.md §3): one attempt at a time; after
// a failed one the next waits for the ReconnectPolicy's backoff, and after five the server
// is parked and probed every 300 s until it is reconnected by hand. While the session is
// ready, a keepalive ping (when configured) tells whether it is still alive. It does not
// touch the session: it asks for a restart or a ping and is told how they went.
// Thread: the engine's; owned by the ServerSupervisor. Waits on the injected Clock.
class ReconnectController : public QObject
{
    Q_OBJECT
public:
    ReconnectController(const Clock &clock, const ServerProgress &progress, int pingIntervalMs,
                        QObject *parent = nullptr, ReconnectPolicy policy = {});

    // Starts an attempt now, unless one is under way or the supervisor is stopping.
    void request(const QString &trigger);
    // A reconnect by hand: unparks, forgets the failed attempts, and attempts unless one is
    // under way already.
    void reconnectByHand();
    // The session became ready on a new generation (the progress says which).
    void sessionReady();
    // The session failed: a failed attempt backs off (or parks) and schedules the next.
    void sessionFailed(const QString &error);
    void stop();
    // The answer to a ping asked for by pingRequested().
    void pingAnswered(const CallOutcome &outcome);

    bool inProgress() const { return m_inProgress; }
    bool lastAttemptFailed() const { return m_lastAttemptFailed; }
    // What a call that has to answer now says about the connection.
    ReconnectOutcome outcome() const;
    ReconnectState state() const;
    const ReconnectPolicy &policy() const { return m_policy; }

Q_SIGNALS:
    // Restart the session on its configured route; `polite`: close a live one properly.
    void restartRequested(const QString &trigger, bool polite);
    void pingRequested(int timeoutMs);
    // An attempt failed (a breaker strike).
    void attemptFailed();
    void recorded(const Sonde::HistoryEvent &event);

private:
    void attempt(const QString &trigger);
    void onRetryTimer();
    void keepalive();

    const Clock &m_clock;
    const ServerProgress &m_progress;
    const int m_pingIntervalMs;
    ReconnectPolicy m_policy;
    ClockTimer *m_retryTimer = nullptr;
    ClockTimer *m_pingTimer = nullptr;
    bool m_inProgress = false;
    bool m_lastAttemptFailed = false;
    bool m_pingInFlight = false;
    QString m_trigger;
    int m_fromGeneration = 0;
    qint64 m_startedMs = 0;
};

} // namespace Sonde
