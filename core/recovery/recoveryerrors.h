// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/error.h"
#include "values/recoveryvalues.h"

namespace Sonde {

// The errors recovery answers with instead of the server's own (docs/recovery.md §2, §3),
// worded in one place: users read them to decide whether to call again. Pure; any thread.
struct RecoveryErrors
{
    // A write-capable call sent before its session failed (or that got no answer in time):
    // it may or may not have run. `reconnected`: a new connection replaced the call's own,
    // so "re-established"; otherwise the connection it was sent on still answers.
    static Error outcomeUncertain(const QString &tool, const QString &server, ExpiryRule rule,
                                  ReconnectOutcome reconnect, int generation, const Error &cause,
                                  bool reconnected = true);
    // A call that waited for the server and never went out within its budget.
    static Error neverSent(const QString &server, int budgetMs, bool lastAttemptFailed);
    // A call that waited for a newer generation after it failed, and the budget ran out.
    // `neverSent`: the request never reached the server (refused at connect or at the door),
    // and the message says so.
    static Error budgetSpent(const Error &first, int budgetMs, const QString &server,
                             bool neverSent = false);
    static Error shuttingDown(const QString &server);
};

} // namespace Sonde
