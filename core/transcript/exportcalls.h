// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

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

// Pairs the requests of transcript records (TranscriptEvent::toJson) with their responses
// by server, generation and id. Pure; any thread.
class ExportCalls
{
public:
    static QList<ExportedCall> pair(const QList<QJsonObject> &records);
    // An id in one textual form, whatever JSON type it travelled as.
    static QString idText(const QJsonValue &id);
    // What a lifecycle record says about the request it is tied to, or undefined.
    static QJsonValue requestIdOf(const QJsonObject &record);
};

} // namespace Sonde
