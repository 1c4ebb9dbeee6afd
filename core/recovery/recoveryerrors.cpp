// SPDX-License-Identifier: MIT
#include "recovery/recoveryerrors.h"

using namespace Qt::StringLiterals;

namespace Sonde {

Error RecoveryErrors::outcomeUncertain(const QString &tool, const QString &server,
                                       const QString &rule, ReconnectOutcome reconnect,
                                       int generation, const Error &cause)
{
    const QString connection =
        reconnect == ReconnectOutcome::Ok
            ? u"has been re-established (generation %1)"_s.arg(generation)
            : u"is not recovered yet (reconnect %1)"_s.arg(reconnectOutcomeName(reconnect));
    Error e(
        Error::Kind::Transport,
        u"The call to tool \"%1\" on server \"%2\" was sent before its session failed (%3), so it "
        u"may or may not have taken effect. "
        "It was not sent again. The connection %4. Verify the server's state before invoking it again."_s
            .arg(tool, server, rule, connection));
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

Error RecoveryErrors::budgetSpent(const Error &first, int budgetMs, const QString &server)
{
    Error e = Error::transport(u"%1 (the recovery budget of %2 ms was spent before %3 came back)"_s
                                   .arg(first.isError() ? first.message() : u"reconnect"_s)
                                   .arg(budgetMs)
                                   .arg(server),
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
