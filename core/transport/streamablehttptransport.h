// SPDX-License-Identifier: MIT
#pragma once

#include "protocol/sseparser.h"
#include "transport/getstream.h"
#include "transport/httproute.h"

#include <QJsonValue>

#include <functional>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;
class QTimer;

namespace Sonde {

// One reply of the Streamable HTTP route and what is known of it.
struct StreamableHttpStream
{
    enum class Kind
    {
        Post,
        Get,
        Resume,
        Delete,
    } kind = Kind::Post;
    QJsonValue requestId; // the request this stream answers (Post of a request, Resume)
    bool isInitialize = false;
    QString sessionIdSent;
    bool decided = false;
    bool isSse = false;
    bool answered = false;
    bool abandoned = false;
    // How far the request got (Error::Reach): a Post's becomes ResponseStarted with the
    // headers of a 2xx answer; a Resume's is that from the start. Every failure of the
    // request carries it, so a resumption refused by a restarting server cannot make a
    // request that was sent look unsent (docs/recovery.md §1).
    Error::Reach reach = Error::Reach::Unknown;
    int resumes = 0;
    qint64 uploaded = 0;   // Post: bytes of the body written so far
    bool yielded = false;  // Resume: a message came on it
    int quietRetries = 0;  // Resume: the resumptions before it that yielded nothing
    QString resumedFromId; // Resume: the Last-Event-ID it carried
    SseParser sse;
    HttpExchangeRecord exchange;
    QByteArray body;
    QByteArray frame;    // Post: what was sent, for a resend after a refusal at the door
    QByteArray authSent; // the Authorization it carried
    int authRetries = 0;
    std::function<void(int status, const QString &error)> deleted; // Delete
};

// The Streamable HTTP route (MCP 2025-03-26 and later): every frame is a POST; answers are
// JSON or an SSE stream; the Mcp-Session-Id from the initialize answer goes on every later
// request, with MCP-Protocol-Version; a standalone GET stream (GetStream) carries
// server-initiated messages; a POST stream that drops before its response is resumed with
// GET + Last-Event-ID after the server's retry delay; close() sends DELETE; drain() lets the
// requests in flight finish. Failures keep the HTTP status, the body and the session id the
// request carried (Error), so recovery can tell an expired session from an auth failure.
// Thread: the engine's. Owned by HttpFallbackTransport, which hands it the network manager.
class StreamableHttpTransport final : public HttpRoute<StreamableHttpStream>
{
    Q_OBJECT
public:
    using Stream = StreamableHttpStream;

    explicit StreamableHttpTransport(const ServerConfig &config, QObject *parent = nullptr);

    void open() override;
    void send(const QByteArray &frame) override;
    void setToolHeaders(const McpHeaders::ToolParams &params) override { m_toolHeaders = params; }
    void close() override;
    bool canDrain() const override;
    void drain() override;
    TransportDetails details() const override;
    void setProtocolVersion(const QString &version) override;
    void abandon(const QJsonValue &id) override;

    bool answersEachPost() const override { return true; }
    QString sessionId() const override { return m_sessionId; }
    void setSessionId(const QString &id) override { m_sessionId = id; }
    bool endSessionOnServer(std::function<void(int status)> done) override;

private:
    QNetworkRequest request(bool sse) const;
    void post(const QByteArray &frame, Stream s);
    bool holdForAuthorization(const Stream &s, QNetworkReply *reply, int status);
    void openGetStream();
    bool mayResume(const Stream &s) const;
    void resume(const Stream &dropped, int delayMs);
    void failResumption(const Stream &s, const Error &why);
    QNetworkReply *sendDelete(std::function<void(int status, const QString &error)> done);
    void onReadyRead(QNetworkReply *reply) override;
    void readJsonBody(Stream &s, QNetworkReply *reply);
    void onEvents(QNetworkReply *reply, const QList<SseEvent> &events, const QString &oversized);
    void onFinished(QNetworkReply *reply) override;
    void onAnswerFinished(Stream &s, QNetworkReply *reply);
    void onAnswerFailed(const Stream &s, QNetworkReply *reply, int status);
    void onGetFinished(const Stream &s, QNetworkReply *reply, int status);
    void deliver(Stream &stream, const QByteArray &data);
    void failRequest(const Stream &stream, const Error &error);
    void finishDrainIfDone();

    GetStream m_get;
    QString m_sessionId;
    QString m_protocolVersion;
    bool m_modern = false; // 2026-07-28: per-request headers, no GET stream, no resumption
    McpHeaders::ToolParams m_toolHeaders;
    QString m_deleteOutcome;
    QTimer *m_deleteTimer = nullptr;
    bool m_draining = false;
    // Resumptions waiting for their server's retry delay: each is a request still owed an
    // answer, so a drain is not done while one waits.
    int m_resumesDue = 0;
};

} // namespace Sonde
