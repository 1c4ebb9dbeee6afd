// SPDX-License-Identifier: MIT
#include "session/inputround.h"

using namespace Qt::StringLiterals;

namespace Sonde {

std::optional<InputRound> InputRound::from(const QJsonObject &result, QString *why)
{
    InputRound r;
    const QJsonValue requests = result.value("inputRequests"_L1);
    const QJsonValue state = result.value("requestState"_L1);
    if (requests.isUndefined() && state.isUndefined()) {
        *why = u"an input_required result with neither inputRequests nor requestState"_s;
        return std::nullopt;
    }
    if (!state.isUndefined()) {
        if (!state.isString()) {
            *why = u"requestState is not a string"_s;
            return std::nullopt;
        }
        r.m_requestState = state.toString();
    }
    if (!requests.isUndefined() && !requests.isObject()) {
        *why = u"inputRequests is not an object"_s;
        return std::nullopt;
    }
    const QJsonObject map = requests.toObject();
    for (auto it = map.begin(); it != map.end(); ++it) {
        const QJsonObject req = it.value().toObject();
        const QString method = req.value("method"_L1).toString();
        if (method.isEmpty()) {
            *why = u"input request \"%1\" has no method"_s.arg(it.key());
            return std::nullopt;
        }
        r.m_requests.append({it.key(), method, req.value("params"_L1).toObject()});
    }
    return r;
}

void InputRound::answer(const QString &key, const QJsonObject &result)
{
    for (const Request &r : std::as_const(m_requests))
        if (r.key == key)
            m_answers.insert(key, result);
}

QJsonObject InputRound::retryParams(QJsonObject original) const
{
    original.remove("inputResponses"_L1);
    original.remove("requestState"_L1);
    if (!m_requests.isEmpty())
        original.insert("inputResponses"_L1, m_answers);
    if (m_requestState)
        original.insert("requestState"_L1, *m_requestState);
    return original;
}

} // namespace Sonde
