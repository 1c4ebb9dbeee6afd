// SPDX-License-Identifier: MIT
#include "recovery/calltrail.h"

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

// Sonde numbers its own requests; any other id is not one of them.
std::optional<qint64> wireId(const QJsonValue &id)
{
    return id.isDouble() ? std::optional<qint64>(id.toInteger()) : std::nullopt;
}

} // namespace

CallTrail::CallTrail(const CallRequest &request)
    : m_ticket(request.ticket), m_method(request.method), m_progressToken(request.progressToken())
{
    if (request.method == "tools/call"_L1)
        m_tool = request.params.value("name"_L1).toString();
}

void CallTrail::sent(const QJsonValue &requestId, int generation)
{
    if (m_requestId)
        return;
    m_requestId = wireId(requestId);
    if (m_requestId)
        m_generation = generation;
}

HistoryEvent CallTrail::verdict(EventKind kind, ExpiryRule rule, const QString &why) const
{
    HistoryEvent e;
    e.kind = kind;
    e.ticket = m_ticket;
    e.method = m_method;
    if (!m_tool.isEmpty())
        e.tool = m_tool;
    if (!m_progressToken.isEmpty())
        e.progressToken = m_progressToken;
    e.requestId = m_requestId;
    e.generation = m_generation;
    if (rule != ExpiryRule::None)
        e.rule = ExpiryRules::name(rule);
    if (!why.isEmpty())
        e.detail = why;
    return e;
}

HistoryEvent CallTrail::outcomeUncertain(ExpiryRule rule, const QString &why,
                                         ReconnectOutcome reconnect) const
{
    HistoryEvent e = verdict(EventKind::OutcomeUncertain, rule, why);
    e.reconnect = reconnect;
    return e;
}

HistoryEvent CallTrail::sentAgain(ExpiryRule rule, const QString &why,
                                  const QJsonValue &newRequestId, int newGeneration)
{
    m_replayAnnounced = true;
    HistoryEvent e = verdict(EventKind::SentAgain, rule, why);
    e.newRequestId = wireId(newRequestId);
    e.newGeneration = newGeneration;
    return e;
}

HistoryEvent CallTrail::breakerRefused(const QString &cause, qint64 retryInS) const
{
    HistoryEvent e = verdict(EventKind::BreakerRefused);
    e.cause = cause;
    e.retryInS = retryInS;
    return e;
}

} // namespace Sonde
