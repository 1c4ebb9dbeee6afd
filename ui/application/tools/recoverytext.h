// SPDX-License-Identifier: MIT
#pragma once

#include "session/sessionsnapshot.h"
#include "values/callvalues.h"

#include <QString>

namespace Sonde {

// What the window says about recovery, in words: the rule that classified a failure, and the
// banner over a tool's answer (outcome uncertain, refused, sent again and why that was safe,
// the reconnect that happened before the call). The widgets show it; this decides it, and is
// tested without them. Pure; GUI thread in practice, any thread in principle.
namespace RecoveryText {

// A classification rule in words (Http404WithSession → "the server answered HTTP 404 for
// the session"); the rule's name goes in a tooltip. None is "".
QString ruleInWords(ExpiryRule rule);
// The same for a stored name (a recorded event's); a name this build does not know is
// returned as is.
QString ruleInWords(const QString &rule);

struct Banner
{
    enum class Tone
    {
        None,
        Good,      // answered after recovery
        Uncertain, // may or may not have run
        Refused,   // not sent
        Error
    };
    QString text;
    QString toolTip; // the rule names and the raw reason, for who wants them
    Tone tone = Tone::None;
};

// The banner over a tool's answer. `reconnectNote` (reconnectBefore) is said when nothing else
// explains the generation the answer came on.
Banner forAnswer(const CallOutcome &o, const QString &reconnectNote = {});

// When the answer came on a generation that a reconnect made before the call started (the
// session expired and was noticed outside any call, say by the GET stream): what happened,
// from the server's history in the snapshot. Empty when there is nothing to tell.
QString reconnectBefore(const SessionSnapshot &snapshot, const CallOutcome &o);

} // namespace RecoveryText

} // namespace Sonde
