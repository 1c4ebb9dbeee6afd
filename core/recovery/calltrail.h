// SPDX-License-Identifier: MIT
#pragma once

#include "values/callvalues.h"
#include "values/recoveryvalues.h"

#include <QJsonValue>
#include <QString>

#include <optional>

namespace Sonde {

// What ties one call's verdict to the call (docs/recovery.md §7): its ticket, method and
// tool, the progress token every attempt carries, and the first request that reached the
// wire (its JSON-RPC id and generation). It builds the verdict entries the front ends show
// and the exports keep: "outcome-uncertain", "sent-again" (with the new request) and
// "breaker-refused" (never sent, so no JSON-RPC id: the ticket and the token name it).
// A value; kept per call by the CallRecoveryUnit, on the engine's thread.
class CallTrail
{
public:
    CallTrail() = default;
    explicit CallTrail(const CallRequest &request);

    // A request of this call was answered or failed: the first one is the original.
    void sent(const QJsonValue &requestId, int generation);
    bool replayAnnounced() const { return m_replayAnnounced; }

    // `rule`: the classification that failed the call; `why`: the replay verdict's reason.
    HistoryEvent outcomeUncertain(ExpiryRule rule, const QString &why,
                                  ReconnectOutcome reconnect) const;
    // Marks the replay as announced: one "sent-again" per call.
    HistoryEvent sentAgain(ExpiryRule rule, const QString &why, const QJsonValue &newRequestId,
                           int newGeneration);
    HistoryEvent breakerRefused(const QString &cause, qint64 retryInS) const;

private:
    HistoryEvent::VerdictCall call() const;

    quint64 m_ticket = 0;
    QString m_method;
    QString m_tool;
    QString m_progressToken;
    std::optional<qint64> m_requestId;
    std::optional<int> m_generation;
    bool m_replayAnnounced = false;
};

} // namespace Sonde
