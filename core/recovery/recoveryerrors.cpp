// SPDX-License-Identifier: MIT
#include "recovery/recoveryerrors.h"

using namespace Qt::StringLiterals;

namespace Sonde {

Error RecoveryErrors::outcomeUncertain(const QString &tool, const QString &server, ExpiryRule rule,
                                       ReconnectOutcome reconnect, int generation,
                                       const Error &cause, bool reconnected)
{
    // What happened, in the words of what failed: a timeout is not a failed session, and
    // the sessionless revision has no session to fail.
    const QString what =
        rule == ExpiryRule::Timeout ? u"got no answer within its timeout"_s
        : rule == ExpiryRule::StreamBroken
            ? u"was sent, and its response stream broke before the answer (stream-broken)"_s
            : u"was sent before its session failed (%1)"_s.arg(ExpiryRules::name(rule));
    const QString connection =
        reconnect != ReconnectOutcome::Ok
            ? u"The connection is not recovered yet (reconnect %1)."_s.arg(enumName(reconnect))
        : reconnected ? u"The connection has been re-established (generation %1)."_s.arg(generation)
        : rule == ExpiryRule::Timeout
            ? u"The server still answers on the same connection (a check after the timeout did)."_s
            : u"The connection is still up (generation %1)."_s.arg(generation);
    Error e(
        Error::Kind::Transport,
        u"The call to tool \"%1\" on server \"%2\" %3, so it may or may not have taken "
        u"effect. It was not sent again. %4 Verify the server's state before invoking it again."_s
            .arg(tool, server, what, connection));
    e.setCause(cause);
    return e;
}

Error RecoveryErrors::neverSent(const QString &server, int budgetMs, bool lastAttemptFailed)
{
    return Error::transport(
        u"%1 is not connected and did not come back within the %2 ms recovery budget; the call was not sent%3"_s
            .arg(server)
            .arg(budgetMs)
            .arg(lastAttemptFailed
                     ? u": the server does not start cleanly (see its stderr in the transcript)"_s
                     : QString()),
        Error::Condition::NotConnected);
}

Error RecoveryErrors::budgetSpent(const Error &first, int budgetMs, const QString &server,
                                  bool neverSent)
{
    Error e =
        Error::transport(u"%1 (the recovery budget of %2 ms was spent before %3 came back%4)"_s
                             .arg(first.isError() ? first.message() : u"reconnect"_s)
                             .arg(budgetMs)
                             .arg(server)
                             .arg(neverSent ? u"; the call was not sent"_s : QString()),
                         first.condition());
    if (first.isError())
        e.setCause(first);
    return e;
}

Error RecoveryErrors::shuttingDown(const QString &server)
{
    return Error::transport(u"%1 is shutting down: the call was not sent"_s.arg(server),
                            Error::Condition::NotConnected);
}

} // namespace Sonde
