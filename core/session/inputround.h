// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace Sonde {

// One round of a multi round-trip request (basic/patterns/mrtr.mdx): the input a server
// asked for in an InputRequiredResult, the answers gathered so far, and the retry that
// carries them. The requestState is echoed exactly and never read; a round without it
// sends none. Pure bookkeeping; any thread.
class InputRound
{
public:
    struct Request
    {
        QString key;
        QString method; // elicitation/create, sampling/createMessage, roots/list
        QJsonObject params;
    };

    // The round an input_required result asks for; nullopt with `why` for a malformed one
    // (neither inputRequests nor requestState, a request without a method).
    static std::optional<InputRound> from(const QJsonObject &result, QString *why);

    const QList<Request> &requests() const { return m_requests; }
    void answer(const QString &key, const QJsonObject &result);
    bool isAnswered() const { return m_answers.size() == m_requests.size(); }
    // The original request's params with this round's inputResponses and requestState (and
    // none left over from an earlier round).
    QJsonObject retryParams(QJsonObject original) const;

private:
    QList<Request> m_requests;
    QJsonObject m_answers;
    std::optional<QString> m_requestState;
};

} // namespace Sonde
