// SPDX-License-Identifier: MIT
#pragma once

#include "recovery/replaypolicy.h"
#include "transcript/transcriptevent.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace Sonde {

// A recorded request to send again (docs/history.md, "Replay"): what was sent, read from its
// transcript event (live, or read back from the history), and what came of it then, gathered
// from the events after it in the same session: the answer with its id (followed through a
// `sent-again` verdict to the id it was sent again under) and the verdicts tied to it
// (outcome-uncertain, sent-again, breaker-refused). Its params lose `_meta`: the progress
// token and the 2026-07-28 fields belong to the old request, and the engine adds its own, as
// it gives the request a new id. Pure value; GUI thread (it reads through the caller).
class ReplayRequest
{
public:
    // Records looked at after the request for its answer, at most: a long session holds
    // far more, and an answer that far away is not found (the dialog says so).
    static constexpr qint64 MaxScanRecords = 20'000;

    QString server;
    int generation = 0;
    QJsonValue recordedId;
    qint64 recordedAtMs = 0;
    QString method;
    QJsonObject params; // without _meta
    QString tool;       // a tools/call's tool name, else empty
    // The recv frame that answered it; empty when none was found.
    QJsonObject answerFrame;
    TranscriptBatch verdicts; // the verdict events, in order

    // A sent JSON-RPC request with a method and an id; nullopt with the reason otherwise (a
    // notification, an answer, a handshake that cannot be sent into a live session).
    static std::optional<ReplayRequest> fromEvent(const TranscriptEvent &event, QString *error);
    // Whether an event is one of the verdicts a call can get (docs/recovery.md §7).
    static bool isVerdict(EventKind kind);

    // Reads the events from `from` (the row after the request) up to `end` or
    // MaxScanRecords, whichever comes first, keeping the verdicts and stopping at the answer.
    // `eventAt` gives null for a row that is not there; its event lives until the next call.
    void collect(const std::function<const TranscriptEvent *(qint64)> &eventAt, qint64 from,
                 qint64 end);
    // Looks at one later event; true when it was the answer.
    bool take(const TranscriptEvent &event);

    bool answered() const { return !answerFrame.isEmpty(); }
    // What the dialog compares: the recorded result, or {"error": ...} for an error answer;
    // undefined when nothing was recorded.
    QJsonValue recordedAnswer() const;
    // The same shape for a live answer (the engine's result or its error).
    static QJsonValue answerOf(bool ok, const QJsonValue &result, int code, const QString &message,
                               const QJsonValue &data);

    // Whether sending it again may change the server's state, by the same rule as recovery
    // (ReplayPolicy: a tool's readOnlyHint from the live tools list, or the user's override).
    ReplayVerdict verdict(const QJsonArray &liveTools, const QHash<QString, bool> &overrides) const;
    // What the recorded call did when it ran, in sentences: its answer (a tool's isError and
    // text) and its verdicts. For the question before a write.
    QString recordedOutcomeText() const;
    // A value as one line of text (a string as itself, the rest as compact JSON), cut at
    // `most` characters with an ellipsis.
    static QString shortJson(const QJsonValue &value, int most);
    // "tools/call increment-counter" or the method alone.
    QString title() const;

private:
    // The id the answer will carry: the recorded one, or the one a sent-again verdict named.
    QJsonValue m_waitId;
    int m_waitGeneration = 0;
};

} // namespace Sonde
