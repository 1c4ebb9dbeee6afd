// SPDX-License-Identifier: MIT
#pragma once

#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <deque>
#include <functional>
#include <optional>

namespace Sonde {

// One request of a transcript and what became of it, as the exports tell it: the request
// frame, its response (or how it failed), and the lifecycle records tied to it by id (a
// verdict, a resumption, a failure without a response).
struct ExportedCall
{
    QString server;
    int generation = 0;
    QJsonValue id;
    QString method;
    QString target;     // the tool or prompt name, or the resource URI
    QString targetKind; // "tool", "prompt", "resource" or empty
    qint64 startMs = 0;
    std::optional<qint64> endMs; // when the response or the failure came
    QJsonObject request;
    QJsonObject response;
    bool isError = false;
    QString errorType; // a JSON-RPC error code, "tool_error", or the failure's kind
    QString outcome;   // in words: "ok", "tool error: …", "error -32601: …", "no answer"
    QList<QJsonObject> related;
};

// Pairs requests with their responses as the records stream by (ExportCalls::pair whole, the
// streaming exports a window at a time): each call is handed on, in the order the requests
// were sent, once `window` later requests have been seen (or at finish()), so a response or a
// verdict that comes while the call is in the window is still its own and the memory held is
// the window's, not the transcript's. A call handed on before its answer came says so in its
// outcome; what comes for it afterwards is not paired. `window` 0: every call is kept until
// finish(). The messages (request, response) are dropped once read unless `keepMessages`.
class CallPairer
{
public:
    using Settled = std::function<void(ExportedCall &&call)>;

    CallPairer(qsizetype window, bool keepMessages, Settled settled);
    void add(const QJsonObject &record);
    void finish();
    // Calls handed on while they still waited for an answer (the window was full).
    qint64 handedOnEarly() const { return m_early; }

private:
    ExportedCall *callAt(qint64 index);
    void handOnFirst();

    qsizetype m_window;
    bool m_keepMessages;
    Settled m_settled;
    std::deque<ExportedCall> m_calls;
    qint64 m_first = 0;            // the index of m_calls.front() among every call seen
    QHash<QString, qint64> m_open; // callKey -> index of the latest request with it
    qint64 m_early = 0;
};

// Pairs the requests of transcript records (TranscriptEvent::toJson) with their responses
// by server, generation and id. Pure; any thread.
class ExportCalls
{
public:
    static QList<ExportedCall> pair(const QList<QJsonObject> &records);
    // What a lifecycle record says about the request it is tied to, or undefined.
    static QJsonValue requestIdOf(const QJsonObject &record);
};

} // namespace Sonde
