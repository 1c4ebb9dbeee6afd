// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/error.h"

#include <QByteArray>
#include <QJsonValue>
#include <QList>
#include <QPair>
#include <QString>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;
class QUrl;

namespace Sonde {

// What every HTTP route builds and reads the same way: requests with the configured headers,
// POST bodies Qt cannot re-send, the error values of HTTP failures, and the `sonde.wire` log
// lines. Nothing here knows of sessions: a route adds its own headers (Streamable HTTP's
// Mcp-Session-Id) to the request it gets, so a sessionless route can use the same pieces.
// Stateless; the engine's thread (where the replies live).
class HttpExchange
{
public:
    using Headers = QList<QPair<QByteArray, QByteArray>>;
    enum class Shape
    {
        Post,        // Streamable HTTP: the answer may be JSON or an SSE stream
        EventStream, // a GET stream
        LegacyPost,  // 2024-11-05: a JSON body, no Accept, the answer comes on the stream
    };

    static QNetworkRequest request(const QUrl &url, Shape shape, const Headers &headers);
    // POSTs through a body that cannot be rewound (OneShotBody): Qt cannot re-send it.
    static QNetworkReply *postOnce(QNetworkAccessManager *nam, QNetworkRequest request,
                                   const QByteArray &frame);
    // The error value for an HTTP failure: status, JSON-RPC error from the body if there is
    // one, and the session id the request carried.
    // A body that is not a JSON-RPC error is said in one line: an HTML page by its content
    // type, size and a hint ("not an MCP endpoint?"), other text by its first line.
    static Error httpError(const QString &what, int status, const QByteArray &body,
                           const QString &sessionId, const QByteArray &retryAfter = {},
                           const QString &contentType = {});
    // What a body that is not JSON-RPC says, in one line (empty for an empty body).
    static QString describeBody(int status, const QString &contentType, const QByteArray &body);
    // A 2xx answer to a request that is not its response: the content type and the first
    // 200 characters, so one line says what the URL really serves.
    static Error notAnAnswer(const QString &what, int status, QNetworkReply *reply,
                             const QByteArray &body);
    // A request that got no HTTP answer (refused, reset, timed out) or whose 2xx stream broke.
    // `answered`: the headers had come, so the request was certainly written.
    static Error connectionFailure(const QString &what, QNetworkReply *reply, bool answered,
                                   const QString &sessionId);
    // An SSE answer stream that ended before the response to `requestId` came.
    static Error streamEndedUnanswered(const QJsonValue &requestId);
    // What a DELETE of the session came to, for the snapshot and the transcript.
    static QString deleteOutcome(int status, const QString &errorText);
    // A JSON body over the frame limit; the reply is aborted by the caller.
    static Error oversizedBody(qsizetype maxFrameBytes);
    static int status(QNetworkReply *reply);
    static bool isEventStream(QNetworkReply *reply);

    // sonde.wire: one line per request out and per response and stream in.
    static void logSent(const char *verb, const QUrl &url, const QByteArray &frame);
    static void logAnswered(QNetworkReply *reply, qint64 bytes);
    static void logStream(const char *what, const QUrl &url, const QString &detail);
};

} // namespace Sonde
