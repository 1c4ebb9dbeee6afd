// SPDX-License-Identifier: MIT
#pragma once

#include "values/expiryrule.h"

#include <QString>
#include <QStringList>

namespace Sonde {

class Error;

// Decides whether a failure means "the server's session is gone" (docs/recovery.md §1), and says
// which rule decided, so the inspector can show it. Structured signals first (HTTP 404 for
// a request that carried a session id; the 400 "no valid session" deviation of the official
// SDK servers; the transport closing under an outstanding request), then text markers as a
// labelled fallback. The error tree is walked iteratively (node, its group children, its
// cause) with a visited set and a node budget, and a user cancellation anywhere in what was
// visited vetoes everything. Pure function; any thread.
class SessionExpiryClassifier
{
public:
    static constexpr int DefaultNodeBudget = 10'000;

    struct Result
    {
        bool expired = false;
        ExpiryRule rule = ExpiryRule::None;
        QString detail; // e.g. the marker that matched, the status seen
        int nodesVisited = 0;
        bool budgetExhausted = false;
    };

    // Which rules apply depends on the era: 2026-07-28 has no session, so only a refused
    // connection and a broken stream ("stream-broken": the request is lost and must be sent
    // again with a new id, or answered as uncertain) say anything there.
    enum class Era
    {
        Initialize,
        Rev20260728
    };
    static Result classify(const Error &error, int nodeBudget = DefaultNodeBudget,
                           Era era = Era::Initialize);
    static const QStringList &textMarkers();
};

} // namespace Sonde
