// SPDX-License-Identifier: MIT
#pragma once

#include "session/inputround.h"
#include "session/listfetcher.h"
#include "values/callvalues.h"

#include <QJsonObject>

#include <optional>

namespace Sonde {

// One call the session carries out for its caller (a ticket): what was asked, what it will
// answer, and where its legs stand. The session owns it; an era keeps the parts of a leg that
// are its own here (an input round, the header retry). Thread: the session's.
struct Operation
{
    CallRequest request;
    CallOutcome outcome;
    ListFetcher list;                // paginated lists: the pages so far
    QJsonObject sentParams;          // what the first leg sent, for the retries of an MRTR call
    std::optional<InputRound> input; // the round of input being gathered (2026-07-28)
    int rounds = 0;
    bool headersRefreshed = false; // a -32020 has been answered by reading the tools again
};

} // namespace Sonde
