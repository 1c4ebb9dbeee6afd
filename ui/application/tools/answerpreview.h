// SPDX-License-Identifier: MIT
#pragma once

#include "values/callvalues.h"

#include <QJsonValue>

#include <optional>

namespace Sonde {

// What the answer view shows of a tool answer too big to show whole: its result with every
// string cut to CutStringBytes, taken in one pass from the frame the answer came in
// (JsonSpan::shortened). The GUI thread then neither serializes 20 MiB again for the JSON tab
// nor widens a 20 MiB text to UTF-16 for the Text tab: one scan, and the views lay out what
// fits on a screen. Save answer still writes the whole answer. A value; any thread.
struct AnswerPreview
{
    // Below this an answer is shown from its parsed result, as it always was.
    static constexpr qsizetype BigAnswerBytes = 1024 * 1024;
    // More than a view shows of one string (TextDisplay::MaxShownChars in ASCII).
    static constexpr qsizetype CutStringBytes = 256 * 1024;

    QJsonValue result;      // the answer's result, long strings cut and marked "…"
    qsizetype cutBytes = 0; // what the cuts left out
    qsizetype frameBytes = 0;

    // Nothing for a small answer, an answer without its own frame (pages, a batch, an
    // error made here), or a frame the cut copy of which does not parse: the view then
    // shows the parsed result.
    static std::optional<AnswerPreview> of(const CallOutcome &outcome);
};

} // namespace Sonde
