// SPDX-License-Identifier: MIT
#include "transport/httptransport.h"

#include "protocol/jsonrpcmessage.h"
#include "protocol/limits.h"
#include "transport/oneshotbody.h"
#include "util/clock.h"
#include "util/logging.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QScopeGuard>
#include <QTimer>
#include <QUuid>

using namespace Qt::StringLiterals;

namespace Sonde {

static constexpr int MaxResumes = 5;
static constexpr int DefaultRetryMs = 1000;
// An idle pooled connection is dropped after this long instead of Qt's 120 s. Servers close
// idle keep-alive connections on their own timer (Node: 5 s), and a request written onto a
// connection the server is closing at that moment fails with no response byte: since Qt may
// not re-send it (OneShotBody), a write would be reported uncertain though it never ran.
static constexpr int PooledConnectionIdleSeconds = 2;

// POSTs go through here: the body cannot be rewound, so Qt cannot re-send it (OneShotBody).
static QNetworkReply *postOnce(QNetworkAccessManager *nam, const QNetworkRequest &request,
                               const QByteArray &frame)
{
    auto *body = new OneShotBody(frame);
    QNetworkReply *reply = nam->post(request, body);
    body->setParent(reply);
    return reply;
}

HttpTransport::HttpTransport(const ServerConfig &config, const Clock &clock, QObject *parent)
    : Transport(parent), m_config(config), m_clock(clock)
{
    m_mode = config.route == ServerConfig::Route::LegacySse ? Mode::Legacy : Mode::Streamable;
    m_routeReason = m_mode == Mode::Legacy
                        ? u"the configuration asks for the legacy SSE transport"_s
                        : u"configured with a URL; Streamable HTTP tried first"_s;
}

HttpTransport::~HttpTransport()
{
    const QList<QNetworkReply *> replies = m_streams.keys();
    for (QNetworkReply *r : replies) {
        r->disconnect(this);
        r->abort();
        r->deleteLater();
    }
}

void HttpTransport::open()
{
    m_nam = m_sharedNam ? m_sharedNam : new QNetworkAccessManager(this);
    m_nam->setRedirectPolicy(QNetworkRequest::NoLessSafeRedirectPolicy);
    m_open = true;
    if (m_mode == Mode::Legacy)
        startLegacy(m_routeReason);
    Q_EMIT opened();
}

bool HttpTransport::isOpen() const
{
    return m_open && !m_closing && !m_finished;
}

void HttpTransport::setProtocolVersion(const QString &version)
{
    m_protocolVersion = version;
}

QNetworkRequest HttpTransport::request(const QUrl &url, bool sse) const
{
    QNetworkRequest r(url);
    r.setRawHeader("Accept", sse ? QByteArray("text/event-stream")
                                 : QByteArray("application/json, text/event-stream"));
    if (!sse)
        r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    r.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    r.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);
    r.setAttribute(QNetworkRequest::ConnectionCacheExpiryTimeoutSecondsAttribute,
                   PooledConnectionIdleSeconds);
    if (!m_sessionId.isEmpty() && m_mode == Mode::Streamable)
        r.setRawHeader("Mcp-Session-Id", m_sessionId.toUtf8());
    if (!m_protocolVersion.isEmpty() && m_mode == Mode::Streamable)
        r.setRawHeader("MCP-Protocol-Version", m_protocolVersion.toUtf8());
    for (const auto &[name, value] : m_config.headers)
        r.setRawHeader(name, value);
    return r;
}

QNetworkReply *HttpTransport::track(QNetworkReply *reply, Stream stream)
{
    stream.sse.setMaxEventBytes(m_config.maxFrameBytes);
    m_streams.insert(reply, std::move(stream));
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] { onReadyRead(reply); });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onFinished(reply); });
    return reply;
}

void HttpTransport::send(const QByteArray &frame)
{
    if (!isOpen())
        return;
    if (m_expireInFlight) {
        m_heldFrames.append(frame);
        return;
    }
    if (m_mode == Mode::Legacy) {
        if (m_legacyEndpoint.isEmpty())
            m_legacyQueue.append(frame);
        else
            legacyPost(frame);
        return;
    }
    post(frame);
}

static void classify(const QByteArray &frame, QJsonValue *id, QString *method)
{
    // Requests carry an id and a method; responses to the server carry an id only. The
    // envelope is read without parsing the frame (a call may carry megabytes of arguments).
    if (const auto e = JsonRpcMessage::peekEnvelope(frame)) {
        *method = e->method;
        *id = e->hasMethod ? e->id : QJsonValue();
        return;
    }
    const QJsonObject o = QJsonDocument::fromJson(frame).object();
    *method = o.value("method"_L1).toString();
    *id = o.contains("method"_L1) ? o.value("id"_L1) : QJsonValue();
}

void HttpTransport::post(const QByteArray &frame)
{
    Stream s;
    s.kind = Stream::Kind::Post;
    QString method;
    classify(frame, &s.requestId, &method);
    s.isInitialize = method == "initialize"_L1;
    s.isInitialized = method == "notifications/initialized"_L1;
    s.frame = frame;
    s.sessionIdSent = m_sessionId;
    if (s.isInitialize)
        m_initializeFrame = frame;
    if (m_injectStatus && !s.isInitialize) {
        // The request never leaves: its answer is the injected status, as if the server sent it.
        const int status = std::exchange(m_injectStatus, 0);
        QTimer::singleShot(0, this, [this, s, status] {
            Q_EMIT lifecycleEvent(u"fault-http-status"_s, {{"status"_L1, status}});
            failRequest(s, httpError(u"POST %1 (injected)"_s.arg(m_config.url.toString()), status,
                                     {}, s.sessionIdSent));
        });
        return;
    }
    QNetworkRequest r = request(m_config.url, false);
    if (s.requestId.isUndefined())
        r.setTransferTimeout(30'000); // notifications and responses get 202 at once
    const bool initialized = s.isInitialized;
    track(postOnce(m_nam, r, frame), std::move(s));
    // Open the standalone stream together with notifications/initialized rather than after
    // its 202: servers send requests that belong to no POST (elicitation from inside a tool,
    // say) on it and drop them while it is missing, and the first calls follow at once.
    if (initialized && m_getState == "not opened"_L1)
        openGetStream();
}

void HttpTransport::onReadyRead(QNetworkReply *reply)
{
    auto it = m_streams.find(reply);
    if (it == m_streams.end())
        return;
    Stream &s = *it;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (!s.decided) {
        s.decided = true;
        // Take the session id with the headers: the initialize answer is delivered (and
        // notifications/initialized sent) before this reply finishes.
        if (s.isInitialize && status >= 200 && status < 300 && m_sessionId.isEmpty())
            m_sessionId = QString::fromUtf8(reply->rawHeader("Mcp-Session-Id"));
        s.isSse = status >= 200 && status < 300 &&
                  reply->header(QNetworkRequest::ContentTypeHeader)
                      .toString()
                      .startsWith("text/event-stream"_L1);
        if (s.kind == Stream::Kind::Get && s.isSse) {
            m_getState = u"open"_s;
            m_getWasOpen = true;
            m_getFailures = 0;
            Q_EMIT lifecycleEvent(u"get-stream-open"_s, {{"last_event_id"_L1, m_getLastEventId}});
        }
    }
    const QByteArray bytes = reply->readAll();
    if (!s.isSse) {
        if (s.body.size() + bytes.size() > m_config.maxFrameBytes) {
            const Stream copy = s;
            s.abandoned = true;
            reply->abort(); // may finish (and erase) the stream at once: `copy` outlives it
            failRequest(copy, Error::protocol(Limits::oversizedMessage(
                                  1, u"a JSON body"_s, u"JSON bodies"_s, m_config.maxFrameBytes)));
            return;
        }
        s.body.append(bytes);
        return;
    }
    const QList<SseEvent> events = s.sse.feed(bytes);
    if (s.kind == Stream::Kind::Get)
        m_getLastEventId = s.sse.lastEventId();
    const QString oversized = s.sse.takeOversizedError();
    // Delivering a frame can make the session send (and so insert into m_streams) at once:
    // look the stream up again for every event instead of holding a reference.
    for (const SseEvent &e : events) {
        if (e.data.isEmpty())
            continue; // a priming event: its id is kept by the parser for resumption
        if (s.kind == Stream::Kind::LegacyGet && e.type == "endpoint"_L1) {
            const QUrl endpoint = m_config.url.resolved(QUrl(QString::fromUtf8(e.data).trimmed()));
            if (!sameOrigin(endpoint, m_config.url)) {
                // Every configured header (Authorization included) goes with each POST: a
                // server must not be able to send them elsewhere (the official SDKs refuse too).
                s.abandoned = true;
                reply->abort();
                legacyFailed(Error::protocol(
                    u"the legacy SSE endpoint event points to %1, another origin than %2; refused, "
                    u"so that this server's "
                    "credentials are not sent there"_s.arg(
                        endpoint.toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery),
                        m_config.url
                            .adjusted(QUrl::RemovePath | QUrl::RemoveUserInfo | QUrl::RemoveQuery)
                            .toString())));
                return;
            }
            m_legacyEndpoint = endpoint;
            Q_EMIT lifecycleEvent(u"legacy-endpoint"_s,
                                  {{"endpoint"_L1, m_legacyEndpoint.toString()}});
            const QList<QByteArray> queued = std::exchange(m_legacyQueue, {});
            for (const QByteArray &f : queued)
                legacyPost(f);
            continue;
        }
        if (e.type != "message"_L1)
            continue;
        const auto current = m_streams.find(reply);
        if (current == m_streams.end())
            return; // abandoned or closed while delivering
        deliver(*current, e.data);
    }
    if (!oversized.isEmpty()) {
        Q_EMIT frameDropped(oversized);
        const auto current = m_streams.find(reply);
        if (current != m_streams.end() && !current->requestId.isUndefined() && !current->answered) {
            // The event over the limit was most likely the answer (progress and questions are
            // small): fail the request now, naming the limit, rather than at its timeout.
            const Stream copy = *current;
            current->abandoned = true;
            reply->abort();
            failRequest(copy,
                        Error::protocol(u"%1 (on the stream of this request)"_s.arg(oversized)));
        }
    }
}

void HttpTransport::deliver(Stream &stream, const QByteArray &data)
{
    if (!stream.requestId.isUndefined() && !stream.answered) {
        // The session parses the frame; here only its envelope is read (a second full parse
        // of a 50 MB answer would cost as much as the first).
        if (const auto e = JsonRpcMessage::peekEnvelope(data)) {
            stream.answered = !e->hasMethod && e->id == stream.requestId;
        } else {
            const QJsonObject o = QJsonDocument::fromJson(data).object();
            stream.answered = !o.contains("method"_L1) && o.value("id"_L1) == stream.requestId;
        }
    }
    Q_EMIT frameReceived(data);
}

void HttpTransport::failRequest(const Stream &stream, const Error &error)
{
    if (!stream.requestId.isUndefined()) {
        Q_EMIT requestFailed(stream.requestId, error);
        return;
    }
    Q_EMIT frameDropped(error.message());
}

Error HttpTransport::httpError(const QString &what, int status, const QByteArray &body,
                               const QString &sessionId, const QByteArray &retryAfter)
{
    QString message = u"%1 answered HTTP %2"_s.arg(what).arg(status);
    if (const QByteArray wait = retryAfter.trimmed().left(64); !wait.isEmpty()) {
        // Seconds or an HTTP date; either way the user decides when to call again.
        bool seconds = false;
        wait.toInt(&seconds);
        message +=
            u" (retry after %1%2)"_s.arg(QString::fromLatin1(wait), seconds ? u" s"_s : QString());
    }
    std::optional<int> code;
    QJsonValue data;
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    const QJsonObject err = doc.object().value("error"_L1).toObject();
    if (!err.isEmpty()) {
        if (err.value("code"_L1).isDouble())
            code = err.value("code"_L1).toInt();
        message += u": "_s + err.value("message"_L1).toString();
        data = doc.object();
    } else if (!body.trimmed().isEmpty()) {
        message += u": "_s + QString::fromUtf8(body.trimmed().left(500));
    }
    Error e(Error::Kind::Transport, message);
    e.setHttpStatus(status).setSessionId(sessionId);
    if (code)
        e.setJsonRpcCode(*code);
    if (!data.isUndefined())
        e.setData(data);
    return e;
}

Error HttpTransport::notAnAnswer(const QString &what, int status, QNetworkReply *reply,
                                 const QByteArray &body)
{
    const QString type = reply->header(QNetworkRequest::ContentTypeHeader).toString();
    const QByteArray trimmed = body.trimmed();
    QString first = QString::fromUtf8(trimmed.left(200)).simplified();
    if (trimmed.size() > 200)
        first += u"…"_s;
    Error e =
        trimmed.isEmpty()
            ? Error::protocol(
                  u"%1 answered HTTP %2 with no body, so the request has no answer"_s.arg(what).arg(
                      status))
            : Error::protocol(
                  u"%1 answered HTTP %2 with Content-Type %3, which is not a JSON-RPC answer to this request: %4"_s
                      .arg(what)
                      .arg(status)
                      .arg(type.isEmpty() ? u"(none)"_s : type, first));
    e.setHttpStatus(status);
    return e;
}

void HttpTransport::onFinished(QNetworkReply *reply)
{
    reply->deleteLater();
    auto it = m_streams.find(reply);
    if (it == m_streams.end())
        return;
    Stream s = *it;
    m_streams.erase(it);
    // Whichever way this stream ends, a draining transport closes after its last request.
    const auto drained = qScopeGuard([this] { finishDrainIfDone(); });
    if (s.abandoned || m_finished)
        return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QNetworkReply::NetworkError netError = reply->error();
    if (!s.decided)
        s.body.append(reply->readAll());
    else if (!s.isSse)
        s.body.append(reply->readAll());

    if (s.kind == Stream::Kind::ExpireDelete) {
        Q_EMIT lifecycleEvent(
            u"fault-expire-session"_s,
            {{"status"_L1, status},
             {"outcome"_L1, status >= 200 && status < 300
                                ? u"the server ended the session; the client keeps its id"_s
                                : u"the server answered HTTP %1"_s.arg(status)}});
        m_expireInFlight = false;
        const QList<QByteArray> held = std::exchange(m_heldFrames, {});
        for (const QByteArray &frame : held)
            send(frame);
        return;
    }
    if (s.kind == Stream::Kind::Delete) {
        m_deleteOutcome = status == 405 ? u"not allowed by the server (HTTP 405)"_s
                          : status >= 200 && status < 300
                              ? u"session terminated (HTTP %1)"_s.arg(status)
                          : status ? u"HTTP %1"_s.arg(status)
                                   : reply->errorString();
        Q_EMIT lifecycleEvent(u"session-delete"_s,
                              {{"status"_L1, status}, {"outcome"_L1, m_deleteOutcome}});
        finish(Error());
        return;
    }
    if (m_closing && !m_draining)
        return;

    const QString where =
        s.kind == Stream::Kind::LegacyPost ? m_legacyEndpoint.toString() : m_config.url.toString();
    const bool ok2xx = netError == QNetworkReply::NoError && status >= 200 && status < 300;

    switch (s.kind) {
    case Stream::Kind::Post:
    case Stream::Kind::Resume: {
        if (ok2xx) {
            if (s.isInitialize && m_sessionId.isEmpty())
                m_sessionId = QString::fromUtf8(reply->rawHeader("Mcp-Session-Id"));
            const QByteArray start = s.body.trimmed().left(1);
            const bool json = reply->header(QNetworkRequest::ContentTypeHeader)
                                  .toString()
                                  .contains("json"_L1, Qt::CaseInsensitive) ||
                              start == "{" || start == "[";
            if (!s.isSse && !json && !s.requestId.isUndefined()) {
                // HTML where JSON belongs (a login page, a proxy, the wrong URL): one error
                // with the content type and the first bytes, not the page as a frame.
                failRequest(s, notAnAnswer(u"POST %1"_s.arg(where), status, reply, s.body));
            } else if (!s.isSse && !s.body.trimmed().isEmpty()) {
                deliver(s, s.body.trimmed());
                if (!s.requestId.isUndefined() && !s.answered) {
                    // A complete answer that is not this request's response (an HTML login
                    // page, a proxy's error text) will not become one: fail now, not at timeout.
                    failRequest(s, notAnAnswer(u"POST %1"_s.arg(where), status, reply, s.body));
                }
            } else if (!s.isSse && !s.requestId.isUndefined()) {
                failRequest(s, notAnAnswer(u"POST %1"_s.arg(where), status, reply, s.body));
            } else if (s.isSse && !s.requestId.isUndefined() && !s.answered) {
                if (!s.sse.lastEventId().isEmpty() && s.resumes < MaxResumes) {
                    resume(s, s.sse.retryMs().value_or(0));
                } else {
                    failRequest(
                        s,
                        Error::transport(
                            u"the server ended the SSE stream of request %1 before answering it"_s
                                .arg(QString::fromUtf8(
                                    QJsonDocument(QJsonObject{{"id"_L1, s.requestId}})
                                        .toJson(QJsonDocument::Compact))),
                            Error::Condition::Closed));
                }
            }
            return;
        }
        if (status == 0 || (status >= 200 && status < 300)) {
            // No HTTP answer at all (refused, reset), or a 2xx stream that broke midway.
            if (s.isSse && !s.requestId.isUndefined() && !s.answered &&
                !s.sse.lastEventId().isEmpty() && s.resumes < MaxResumes) {
                resume(s, s.sse.retryMs().value_or(0)); // a disconnect is not a cancellation
                return;
            }
            // Refused or unresolvable: nothing was there. Reset, closed or aborted midway: the
            // connection died under the request.
            // Qt is not allowed to re-send (OneShotBody), so a refused connection is the first
            // connection attempt for this request: the request was never written.
            const bool refused = netError == QNetworkReply::ConnectionRefusedError ||
                                 netError == QNetworkReply::HostNotFoundError;
            const bool neverConnected = refused || netError == QNetworkReply::TimeoutError;
            const QString why =
                netError == QNetworkReply::ContentReSendError
                    ? u"the connection closed after the request was sent, before any answer"_s
                    : reply->errorString();
            Error e =
                Error::transport(u"POST %1 failed: %2"_s.arg(where, why),
                                 refused && !s.decided          ? Error::Condition::Refused
                                 : neverConnected && !s.decided ? Error::Condition::NotConnected
                                                                : Error::Condition::Closed);
            e.setSessionId(s.sessionIdSent);
            failRequest(s, e);
            return;
        }
        if (s.kind == Stream::Kind::Resume) {
            // The request was sent and its stream broke; the resumption being refused says
            // nothing about whether the request ran.
            Error e = Error::transport(u"the stream of a request broke and could not be resumed"_s,
                                       Error::Condition::Closed);
            e.setCause(httpError(u"GET %1 (resume)"_s.arg(where), status, s.body, s.sessionIdSent));
            failRequest(s, e);
            return;
        }
        const Error e = httpError(u"POST %1"_s.arg(where), status, s.body, s.sessionIdSent,
                                  reply->rawHeader("Retry-After"));
        if (s.isInitialize && m_mode == Mode::Streamable &&
            (status == 400 || status == 404 || status == 405)) {
            m_streamableError = e;
            startLegacy(
                u"POST initialize answered HTTP %1, so the legacy HTTP+SSE transport was tried"_s
                    .arg(status));
            m_legacyQueue.prepend(s.frame);
            return;
        }
        failRequest(s, e);
        return;
    }
    case Stream::Kind::Get: {
        if (m_getWasOpen && (status == 400 || status == 404) && !s.sessionIdSent.isEmpty()) {
            // The stream worked for this session and is now refused: the session is gone.
            m_getState = u"refused (HTTP %1)"_s.arg(status);
            Q_EMIT connectionLost(httpError(u"GET %1"_s.arg(m_config.url.toString()), status,
                                            s.body, s.sessionIdSent));
            return;
        }
        if (status == 404 || status == 405) {
            m_getState = u"none (the server answered HTTP %1)"_s.arg(status);
            Q_EMIT lifecycleEvent(u"get-stream-unavailable"_s, {{"status"_L1, status}});
            return;
        }
        if (status >= 400) {
            m_getState = u"failed (HTTP %1)"_s.arg(status);
            Q_EMIT lifecycleEvent(u"get-stream-failed"_s, {{"status"_L1, status}});
            return;
        }
        // Ended or dropped: reopen after the server's retry delay (with backoff on failures).
        ++m_getFailures;
        const int delay = s.sse.retryMs().value_or(
            std::min(DefaultRetryMs << std::min(m_getFailures - 1, 5), 30'000));
        m_getState = u"reconnecting"_s;
        Q_EMIT lifecycleEvent(u"get-stream-closed"_s,
                              {{"reconnect_in_ms"_L1, delay}, {"error"_L1, reply->errorString()}});
        QTimer::singleShot(delay, this, [this] {
            if (isOpen())
                openGetStream();
        });
        return;
    }
    case Stream::Kind::LegacyGet: {
        Error e = ok2xx ? Error::transport(u"the legacy SSE stream %1 ended"_s.arg(where),
                                           Error::Condition::Closed)
                  : status
                      ? httpError(u"GET %1"_s.arg(where), status, s.body, QString())
                      : Error::transport(u"GET %1 failed: %2"_s.arg(where, reply->errorString()),
                                         Error::Condition::Closed);
        legacyFailed(e);
        return;
    }
    case Stream::Kind::LegacyPost: {
        if (ok2xx)
            return;
        failRequest(
            s, status ? httpError(u"POST %1"_s.arg(where), status, s.body, QString())
                      : Error::transport(u"POST %1 failed: %2"_s.arg(where, reply->errorString())));
        return;
    }
    case Stream::Kind::Delete:
    case Stream::Kind::ExpireDelete:
        return;
    }
}

bool HttpTransport::sameOrigin(const QUrl &a, const QUrl &b)
{
    return a.scheme().compare(b.scheme(), Qt::CaseInsensitive) == 0 &&
           a.host().compare(b.host(), Qt::CaseInsensitive) == 0 &&
           a.port(a.scheme() == "https"_L1 ? 443 : 80) ==
               b.port(b.scheme() == "https"_L1 ? 443 : 80);
}

void HttpTransport::legacyFailed(Error e)
{
    if (m_legacyEndpoint.isEmpty() && m_streamableError.isError()) {
        // Neither transport works: say why for both.
        Error both = Error::transport(u"%1; the legacy SSE fallback failed too: %2"_s.arg(
            m_streamableError.message(), e.message()));
        both.setHttpStatus(m_streamableError.httpStatus().value_or(0));
        both.setCause(e);
        both.addChild(m_streamableError);
        e = both;
    }
    finish(e);
}

void HttpTransport::resume(const Stream &dropped, int delayMs)
{
    Stream s;
    s.kind = Stream::Kind::Resume;
    s.requestId = dropped.requestId;
    s.resumes = dropped.resumes + 1;
    s.sessionIdSent = m_sessionId;
    const QString lastId = dropped.sse.lastEventId();
    Q_EMIT lifecycleEvent(
        u"stream-resume"_s,
        {{"id"_L1, dropped.requestId}, {"last_event_id"_L1, lastId}, {"delay_ms"_L1, delayMs}});
    QTimer::singleShot(delayMs, this, [this, s, lastId]() mutable {
        if (!isOpen())
            return;
        QNetworkRequest r = request(m_config.url, true);
        r.setRawHeader("Last-Event-ID", lastId.toUtf8());
        track(m_nam->get(r), std::move(s));
    });
}

void HttpTransport::openGetStream()
{
    Stream s;
    s.kind = Stream::Kind::Get;
    s.sessionIdSent = m_sessionId;
    QNetworkRequest r = request(m_config.url, true);
    if (!m_getLastEventId.isEmpty())
        r.setRawHeader("Last-Event-ID", m_getLastEventId.toUtf8());
    m_getState = u"connecting"_s;
    // No transfer timeout: SDK servers send the headers only with the first event.
    track(m_nam->get(r), std::move(s));
}

void HttpTransport::startLegacy(const QString &reason)
{
    m_mode = Mode::Legacy;
    m_routeReason = reason;
    Q_EMIT lifecycleEvent(u"legacy-sse"_s, {{"reason"_L1, reason}});
    Stream s;
    s.kind = Stream::Kind::LegacyGet;
    track(m_nam->get(request(m_config.url, true)), std::move(s));
}

void HttpTransport::legacyPost(const QByteArray &frame)
{
    Stream s;
    s.kind = Stream::Kind::LegacyPost;
    QString method;
    classify(frame, &s.requestId, &method);
    s.frame = frame;
    QNetworkRequest r(m_legacyEndpoint);
    r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    for (const auto &[name, value] : m_config.headers)
        r.setRawHeader(name, value);
    r.setAttribute(QNetworkRequest::ConnectionCacheExpiryTimeoutSecondsAttribute,
                   PooledConnectionIdleSeconds);
    r.setTransferTimeout(30'000);
    track(postOnce(m_nam, r, frame), std::move(s));
}

void HttpTransport::abandon(const QJsonValue &id)
{
    for (auto it = m_streams.begin(); it != m_streams.end(); ++it) {
        if ((it->kind == Stream::Kind::Post || it->kind == Stream::Kind::Resume) &&
            it->requestId == id) {
            it->abandoned = true;
            it.key()->abort();
            return;
        }
    }
}

Error HttpTransport::injectFault(const Fault &fault)
{
    switch (fault.kind) {
    case Fault::Kind::ExpireSession: {
        if (m_mode != Mode::Streamable || m_sessionId.isEmpty())
            return Error::protocol(u"expire-session needs a Streamable HTTP session with an id"_s);
        Stream s;
        s.kind = Stream::Kind::ExpireDelete;
        s.sessionIdSent = m_sessionId;
        m_expireInFlight = true;
        track(m_nam->deleteResource(request(m_config.url, false)), std::move(s));
        return {};
    }
    case Fault::Kind::CorruptSessionId:
        if (m_mode != Mode::Streamable || m_sessionId.isEmpty())
            return Error::protocol(
                u"corrupt-session-id needs a Streamable HTTP session with an id"_s);
        m_sessionId = QUuid::createUuid().toString(QUuid::WithoutBraces);
        Q_EMIT lifecycleEvent(u"fault-corrupt-session-id"_s, {});
        return {};
    case Fault::Kind::DropConnection: {
        const QList<QNetworkReply *> replies = m_streams.keys();
        Q_EMIT lifecycleEvent(u"fault-drop-connection"_s,
                              {{"open_streams"_L1, int(replies.size())}});
        for (QNetworkReply *r : replies)
            if (m_streams.contains(r))
                r->abort();
        return {};
    }
    case Fault::Kind::HttpStatus:
        if (fault.status < 100 || fault.status > 599)
            return Error::protocol(u"http-status wants a status between 100 and 599"_s);
        m_injectStatus = fault.status;
        return {};
    case Fault::Kind::Clear:
        m_injectStatus = 0;
        return {};
    default:
        return Transport::injectFault(fault);
    }
}

void HttpTransport::close()
{
    if (m_finished)
        return;
    if (m_closing)
        return;
    m_closing = true;
    // Notifications and answers on their way (notifications/cancelled for the calls a
    // shutdown abandons) are let through: aborted, they would tell the server nothing. The
    // DELETE waits for them (at most 500 ms), or the server could read the cancel after
    // the session is gone.
    QList<QNetworkReply *> notifying;
    const QList<QNetworkReply *> replies = m_streams.keys();
    for (QNetworkReply *r : replies) {
        const auto it = m_streams.find(r);
        if (it == m_streams.end())
            continue;
        if (it->kind == Stream::Kind::Post && it->requestId.isUndefined() && !it->abandoned) {
            notifying.append(r);
            continue;
        }
        it->abandoned = true;
        r->abort();
    }
    auto proceed = [this, done = std::make_shared<bool>(false)] {
        if (std::exchange(*done, true) || m_finished)
            return;
        if (m_mode == Mode::Streamable && !m_sessionId.isEmpty() && m_nam) {
            Stream s;
            s.kind = Stream::Kind::Delete;
            QNetworkRequest r = request(m_config.url, false);
            QNetworkReply *reply = track(m_nam->deleteResource(r), std::move(s));
            // A server that never answers the DELETE must not hold the shutdown.
            m_deleteTimer = new QTimer(this);
            m_deleteTimer->setSingleShot(true);
            connect(m_deleteTimer, &QTimer::timeout, reply, &QNetworkReply::abort);
            m_deleteTimer->start(2000);
            return;
        }
        finish(Error());
    };
    if (notifying.isEmpty()) {
        proceed();
        return;
    }
    auto remaining = std::make_shared<qsizetype>(notifying.size());
    for (QNetworkReply *r : notifying)
        connect(r, &QNetworkReply::finished, this, [remaining, proceed] {
            if (--*remaining == 0)
                proceed();
        });
    QTimer::singleShot(500, this, proceed);
}

bool HttpTransport::canDrain() const
{
    return m_mode == Mode::Streamable && !m_finished && !m_closing;
}

void HttpTransport::drain()
{
    if (!canDrain()) {
        abort();
        return;
    }
    m_draining = true;
    m_closing = true; // no new frames; and the GET stream is not reopened
    const QList<QNetworkReply *> replies = m_streams.keys();
    for (QNetworkReply *r : replies) {
        auto it = m_streams.find(r);
        if (it == m_streams.end() || it->kind == Stream::Kind::Post ||
            it->kind == Stream::Kind::Resume)
            continue;
        it->abandoned = true;
        r->abort();
    }
    Q_EMIT lifecycleEvent(u"draining"_s,
                          {{"requests_in_flight"_L1, int(m_streams.size())},
                           {"delete"_L1, u"not sent: the session is being replaced"_s}});
    // A server that never answers must not keep this transport forever; the requests' own
    // timeouts fail them in the session long before.
    QTimer::singleShot(m_config.maxRequestTotalMs, this, [this] {
        if (!m_finished)
            abort();
    });
    finishDrainIfDone();
}

void HttpTransport::finishDrainIfDone()
{
    if (!m_draining || m_finished)
        return;
    for (const Stream &s : std::as_const(m_streams))
        if (!s.abandoned && (s.kind == Stream::Kind::Post || s.kind == Stream::Kind::Resume))
            return;
    finish(Error());
}

void HttpTransport::abort()
{
    if (m_finished)
        return;
    m_closing = true;
    const QList<QNetworkReply *> replies = m_streams.keys();
    for (QNetworkReply *r : replies) {
        m_streams[r].abandoned = true;
        r->abort();
    }
    Q_EMIT lifecycleEvent(u"torn-down"_s,
                          {{"delete"_L1, u"not sent: the session is being replaced"_s}});
    finish(Error());
}

void HttpTransport::finish(const Error &reason)
{
    if (m_finished)
        return;
    m_finished = true;
    m_open = false;
    Q_EMIT closed(reason);
}

QJsonObject HttpTransport::details() const
{
    QJsonObject d{{"route"_L1, m_mode == Mode::Legacy ? u"sse"_s : u"streamable-http"_s},
                  {"route_reason"_L1, m_routeReason},
                  {"url"_L1, m_config.url.toString()}};
    if (!m_sessionId.isEmpty())
        d.insert("session_id"_L1, m_sessionId);
    if (m_mode == Mode::Streamable)
        d.insert("get_stream"_L1, m_getState);
    else
        d.insert("endpoint"_L1, m_legacyEndpoint.toString());
    if (!m_deleteOutcome.isEmpty())
        d.insert("delete"_L1, m_deleteOutcome);
    return d;
}

} // namespace Sonde
