// SPDX-License-Identifier: MIT
#pragma once

#include "values/authvalues.h"
#include "values/lifecycledetails.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace Sonde {

// A tool call held at the server's door for a step-up (HTTP 403 with an insufficient_scope
// challenge, docs/auth.md): the call waits, unsent, while Sonde signs in again with more
// scope, which needs the user in the browser. What the Tools tab says while it waits and on
// its answer, decided from the call's auth-challenge event and the server's AuthState. A
// value.
struct StepUpNote
{
    // What the challenge asks for beyond the scopes granted ("mcp:write"); the whole
    // challenge scope when none were granted or it names nothing new.
    QString scope;

    // From an auth-challenge event's details: nullopt for a challenge that is no step-up
    // (a 401 asks for a sign-in or a refresh, not for more scope).
    static std::optional<StepUpNote> fromChallenge(const LifecycleDetails::AuthChallenge &details,
                                                   const QStringList &granted);
    // While the call waits: where the step-up stands, from the server's authorization.
    QString waiting(const AuthState &state) const;
    // On the answer: that it needed one (and, `ok` false, that it never came).
    QString answered(bool ok) const;
};

} // namespace Sonde
