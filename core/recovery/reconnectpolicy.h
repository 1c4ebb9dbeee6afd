// SPDX-License-Identifier: MIT
#pragma once

#include <QtGlobal>

#include <functional>

namespace Sonde {

// When to try reconnecting after failed attempts (docs/recovery.md §3): 1 s doubling to 60 s,
// each delay jittered by +/-20 %; after 5 failed attempts the server is parked and probed
// every 300 s (or reconnected by hand). The random source is injected so tests are exact.
// Pure bookkeeping; thread of the owner.
class ReconnectPolicy
{
public:
    struct Settings
    {
        qint64 initialMs = 1'000;
        qint64 maxMs = 60'000;
        double jitter = 0.2;
        int attemptsBeforeParking = 5;
        qint64 parkedProbeMs = 300'000;
    };
    // Returns a value in [0, 1).
    using Random = std::function<double()>;

    ReconnectPolicy();
    ReconnectPolicy(Settings settings, Random random);
    // The settings of a recovery profile (ServerConfig::RecoveryProfile): the agent's are
    // the defaults above; the interactive ones back off to 10 s and probe a parked server
    // every 30 s, for a developer whose server is down for the seconds of a rebuild.
    static Settings interactiveSettings();

    // The delay before the next attempt, given the failures so far.
    qint64 nextDelayMs() const;
    void recordFailure() { ++m_failures; }
    void recordSuccess() { m_failures = 0; }
    int failures() const { return m_failures; }
    bool parked() const { return m_failures >= m_settings.attemptsBeforeParking; }
    const Settings &settings() const { return m_settings; }

private:
    Settings m_settings;
    Random m_random;
    int m_failures = 0;
};

} // namespace Sonde
