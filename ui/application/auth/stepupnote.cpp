// SPDX-License-Identifier: MIT
#include "application/auth/stepupnote.h"

#include "auth/wwwauthenticate.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace Sonde {

std::optional<StepUpNote> StepUpNote::fromChallenge(const LifecycleDetails::AuthChallenge &details,
                                                    const QStringList &granted)
{
    if (details.status != 403)
        return std::nullopt;
    const WwwAuthenticate::Bearer bearer =
        WwwAuthenticate::bearer({details.wwwAuthenticate.toUtf8()});
    if (bearer.error != "insufficient_scope"_L1)
        return std::nullopt;
    QStringList more;
    for (const QString &s : bearer.scope.split(u' ', Qt::SkipEmptyParts))
        if (!granted.contains(s))
            more.append(s);
    StepUpNote note;
    note.scope = more.isEmpty() ? bearer.scope.simplified() : more.join(u' ');
    return note;
}

QString StepUpNote::waiting(const AuthState &state) const
{
    const auto tr = [](const char *text) {
        return QCoreApplication::translate("StepUpNote", text);
    };
    const QString what = scope.isEmpty() ? tr("more scope") : tr("scope %1").arg(scope);
    switch (state.status) {
    case AuthState::Status::AwaitingUser:
        return tr("The server needs %1 for this call: waiting for you to sign in with %1 in "
                  "the browser. The call was not run; it is sent once you have.")
            .arg(what);
    case AuthState::Status::Failed:
    case AuthState::Status::NeedsReauth:
        return tr("The server needs %1 for this call, and signing in again failed: %2")
            .arg(what, state.error);
    case AuthState::Status::Authorized: {
        // Authorized before the step-up too (with less scope): only the new grant counts.
        const QStringList needed = scope.split(u' ', Qt::SkipEmptyParts);
        if (!needed.isEmpty() &&
            std::all_of(needed.cbegin(), needed.cend(),
                        [&state](const QString &s) { return state.scopes.contains(s); }))
            return tr("Signed in with %1: sending the call again…").arg(what);
        return tr("The server needs %1 for this call: signing in again…").arg(what);
    }
    default:
        return tr("The server needs %1 for this call: signing in again…").arg(what);
    }
}

QString StepUpNote::answered(bool ok) const
{
    const QString what = scope.isEmpty()
                             ? QCoreApplication::translate("StepUpNote", "more scope")
                             : QCoreApplication::translate("StepUpNote", "scope %1").arg(scope);
    return ok ? QCoreApplication::translate("StepUpNote",
                                            "Needed a step-up to %1: the server refused the "
                                            "call until you signed in again with it.")
                    .arg(what)
              : QCoreApplication::translate("StepUpNote",
                                            "Needed a step-up to %1, which did not complete: "
                                            "the call was not run.")
                    .arg(what);
}

} // namespace Sonde
