// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringView>

#include <optional>

namespace Sonde {

// The rule that decided what a failure means for its session (SessionExpiryClassifier), or
// that a call got no answer in time: what the core's decisions switch on (the replay policy,
// the reconnect, the outcome-uncertain answer) and what the window explains in words. Its
// name is the stored form: the history's "rule", the answer's recovery object, exports.
enum class ExpiryRule
{
    None,                  // not classified
    Http404WithSession,    // "http-404-with-session"
    Http400InvalidSession, // "http-400-invalid-session": the official SDK servers' deviation
    ConnectionRefused,     // "connection-refused": never sent
    TransportClosed,       // "transport-closed": the transport closed under the request
    StreamBroken,          // "stream-broken": 2026-07-28, the response stream broke
    TextMarker,            // "text-marker": a labelled fallback on the error's text
    Timeout,               // "timeout": no answer within the call's timeout
    NoSignal,              // "no-signal": nothing says the session is gone
    CancelledByUser,       // "cancelled-by-user": vetoes every other signal
    BudgetExhausted,       // "budget-exhausted": the error tree was larger than the budget
};

namespace ExpiryRules {
// The stored name; empty for None.
QString name(ExpiryRule rule);
// A stored name back; nullopt for a name this build does not know (a newer history).
std::optional<ExpiryRule> fromName(QStringView name);
} // namespace ExpiryRules

} // namespace Sonde
