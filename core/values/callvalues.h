// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/error.h"
#include "values/recoveryvalues.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QMetaType>
#include <QString>

#include <optional>

namespace Sonde {

// A client → server call as the front end asks for it. `ticket` is the front end's handle
// (allocated by CoreHost); the JSON-RPC ids are the session's business.
struct CallRequest
{
    quint64 ticket = 0;
    QString server;
    QString method;
    QJsonObject params;
    int timeoutMs = 0;        // 0: the server's configured timeout
    bool followPages = true;  // list methods: follow nextCursor to the end
    bool withProgress = true; // tools/call: send _meta.progressToken

    // The _meta.progressToken every attempt of this call carries ("sonde-<ticket>"), empty
    // when it carries none: what links a replay, sent under a new JSON-RPC id, to the original.
    QString progressToken() const;
};

// How a call ended, as a value. `result` is the raw JSON-RPC result (for paginated lists:
// every page's items merged under the list key, with "pages" counted).
struct CallOutcome
{
    quint64 ticket = 0;
    QString server;
    QString method;
    QJsonValue result;
    Error error;        // kind None on success
    int generation = 0; // the session generation the call was sent on
    int attempts = 0;   // JSON-RPC requests sent for it (pages count)
    qint64 startedMs = 0;
    qint64 finishedMs = 0;
    // The JSON-RPC id of the last request sent for it; null when none reached the wire.
    // Not part of toJson(): the answer a front end prints names no wire id.
    QJsonValue requestId;
    // The frame the answer came in, when one frame of one message was being handled as the
    // call finished (else empty): shared with the transcript, never a copy. A front end that
    // passes a large text on may take its bytes from here (JsonSpan) after checking that the
    // frame's id is requestId. Not part of toJson().
    QByteArray frame;
    // How the answer was reached (docs/recovery.md §2): set by the supervisor on every call it
    // answers; none on an answer that never went through one (an unknown server).
    std::optional<CallRecovery> recovery;
    bool ok() const { return !error.isError(); }
    QJsonObject toJson() const;
};

// A request from the server (sampling, elicitation, roots) that the front end answers.
// `id` is the server's JSON-RPC id, echoed back in the reply.
struct ServerRequest
{
    QString server;
    int generation = 0;
    QJsonValue id;
    QString method;
    QJsonObject params;
};

struct ServerReply
{
    QString server;
    int generation = 0;
    QJsonValue id;
    QJsonObject result; // used when error is None
    Error error;        // a JSON-RPC error answer: code from jsonRpcCode(), else -32603
};

// A notification from the server (progress, log message, list_changed, resources/updated,
// cancelled), passed on as it came.
struct ServerNotification
{
    QString server;
    int generation = 0;
    qint64 timeMs = 0;
    QString method;
    QJsonObject params;
};

// Notifications cross from the engine's thread in batches, in the order they came: a flood
// of 100,000 a second is then a few hundred queued events, not 100,000.
using ServerNotificationBatch = QList<ServerNotification>;

} // namespace Sonde

Q_DECLARE_METATYPE(Sonde::CallRequest)
Q_DECLARE_METATYPE(Sonde::CallOutcome)
Q_DECLARE_METATYPE(Sonde::ServerRequest)
Q_DECLARE_METATYPE(Sonde::ServerReply)
Q_DECLARE_METATYPE(Sonde::ServerNotification)
Q_DECLARE_METATYPE(Sonde::ServerNotificationBatch)
