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

// An empty text is left out of the entry.
std::optional<QString> nonEmpty(const QString &text)
{
    return text.isEmpty() ? std::nullopt : std::optional(text);
}

std::optional<QString> ruleName(ExpiryRule rule)
{
    return rule == ExpiryRule::None ? std::nullopt : std::optional(ExpiryRules::name(rule));
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

HistoryEvent::VerdictCall CallTrail::call() const
{
    return {.ticket = m_ticket,
            .method = m_method,
            .tool = nonEmpty(m_tool),
            .progressToken = nonEmpty(m_progressToken),
            .requestId = m_requestId,
            .generation = m_generation};
}

HistoryEvent CallTrail::outcomeUncertain(ExpiryRule rule, const QString &why,
                                         ReconnectOutcome reconnect) const
{
    return {.body = HistoryEvent::OutcomeUncertain{.call = call(),
                                                   .rule = ruleName(rule),
                                                   .detail = nonEmpty(why),
                                                   .reconnect = reconnect}};
}

HistoryEvent CallTrail::sentAgain(ExpiryRule rule, const QString &why,
                                  const QJsonValue &newRequestId, int newGeneration)
{
    m_replayAnnounced = true;
    return {.body = HistoryEvent::SentAgain{.call = call(),
                                            .rule = ruleName(rule),
                                            .detail = nonEmpty(why),
                                            .newRequestId = wireId(newRequestId),
                                            .newGeneration = newGeneration}};
}

HistoryEvent CallTrail::breakerRefused(const QString &cause, qint64 retryInS) const
{
    return {.body =
                HistoryEvent::BreakerRefused{.call = call(), .cause = cause, .retryInS = retryInS}};
}

} // namespace Sonde
