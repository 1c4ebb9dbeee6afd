// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "protocol/sseparser.h"
#include "transport/transport.h"

#include <QHash>
#include <QJsonValue>
#include <QUrl>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;
class QTimer;

namespace Sonde {

class Clock;

// The remote routes on QNetworkAccessManager: Streamable HTTP (MCP 2025-03-26 and later),
// with a fallback to the legacy HTTP+SSE transport (2024-11-05) when POSTing initialize
// answers 400, 404 or 405, or when the config forces "sse".
// Streamable HTTP: every frame is a POST; answers are JSON or an SSE stream; the
// Mcp-Session-Id from the initialize answer goes on every later request, with
// MCP-Protocol-Version; a standalone GET stream carries server-initiated messages; a POST
// stream that drops before its response is resumed with GET + Last-Event-ID after the
// server's retry delay; close() sends DELETE. Failures keep the HTTP status, the body and the
// session id the request carried (Error), so recovery can tell an expired session from an
// auth failure. Thread: the engine's; the QNAM is created in open(), on that thread.
class HttpTransport final : public Transport
{
    Q_OBJECT
public:
    HttpTransport(const ServerConfig &config, const Clock &clock, QObject *parent = nullptr);
    ~HttpTransport() override;

    // Use this manager (and its connection pool) instead of a private one: a session hands
    // the same manager to each transport it builds, so a reconnect reuses warm connections.
    void setNetworkManager(QNetworkAccessManager *manager) { m_sharedNam = manager; }
    void open() override;
    void send(const QByteArray &frame) override;
    void close() override;
    void abort() override;
    bool canDrain() const override;
    void drain() override;
    bool isOpen() const override;
    QJsonObject details() const override;
    void setProtocolVersion(const QString &version) override;
    void abandon(const QJsonValue &id) override;
    Error injectFault(const Fault &fault) override;

    // The error value for an HTTP failure: status, JSON-RPC error from the body if there is
    // one, and the session id the request carried. Public for its unit test.
    static Error httpError(const QString &what, int status, const QByteArray &body,
                           const QString &sessionId, const QByteArray &retryAfter = {});

private:
    // A 2xx answer to a request that is not its response: the content type and the first
    // 200 characters, so one line says what the URL really serves.
    static bool sameOrigin(const QUrl &a, const QUrl &b);
    void legacyFailed(Error e);
    static Error notAnAnswer(const QString &what, int status, QNetworkReply *reply,
                             const QByteArray &body);
    enum class Mode
    {
        Streamable,
        Legacy
    };
    struct Stream
    {
        enum class Kind
        {
            Post,
            Get,
            Resume,
            LegacyGet,
            LegacyPost,
            Delete,
            ExpireDelete
        } kind = Kind::Post;
        QJsonValue requestId; // the request this stream answers (Post of a request, Resume)
        bool isInitialize = false;
        bool isInitialized = false; // the notifications/initialized POST
        QByteArray frame;           // what was POSTed (resent on fallback)
        QString sessionIdSent;
        bool decided = false;
        bool isSse = false;
        bool answered = false;
        bool abandoned = false;
        int resumes = 0;
        SseParser sse;
        QByteArray body;
    };

    QNetworkRequest request(const QUrl &url, bool sse) const;
    QNetworkReply *track(QNetworkReply *reply, Stream stream);
    void post(const QByteArray &frame);
    void openGetStream();
    void resume(const Stream &dropped, int delayMs);
    void startLegacy(const QString &reason);
    void legacyPost(const QByteArray &frame);
    void onReadyRead(QNetworkReply *reply);
    void onFinished(QNetworkReply *reply);
    void deliver(Stream &stream, const QByteArray &data);
    void failRequest(const Stream &stream, const Error &error);
    void finish(const Error &reason);
    void finishDrainIfDone();

    ServerConfig m_config;
    const Clock &m_clock;
    QNetworkAccessManager *m_nam = nullptr;
    QNetworkAccessManager *m_sharedNam = nullptr;
    QHash<QNetworkReply *, Stream> m_streams;
    Mode m_mode = Mode::Streamable;
    QString m_routeReason;
    QString m_sessionId;
    QString m_protocolVersion;
    QByteArray m_initializeFrame;
    Error m_streamableError; // why Streamable HTTP was given up, kept as the fallback's cause
    QUrl m_legacyEndpoint;
    QList<QByteArray> m_legacyQueue;
    QString m_getState = QStringLiteral("not opened");
    int m_getFailures = 0;
    QString m_getLastEventId;
    QString m_deleteOutcome;
    QTimer *m_deleteTimer = nullptr;
    int m_injectStatus = 0;
    bool m_expireInFlight = false;  // fault expire-session: its DELETE is under way
    QList<QByteArray> m_heldFrames; // sent after that DELETE, so they meet the expiry  // fault
                                    // http-status: answer the next request with it locally
    bool m_getWasOpen = false;
    bool m_open = false;
    bool m_closing = false;
    bool m_draining = false;
    bool m_finished = false;
};

} // namespace Sonde
