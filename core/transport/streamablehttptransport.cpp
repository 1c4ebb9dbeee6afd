// SPDX-License-Identifier: MIT
#include "transport/streamablehttptransport.h"

#include "protocol/jsonrpcmessage.h"
#include "protocol/jsonschemavalidator.h"
#include "protocol/rev20260728.h"
#include "transport/httpexchange.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QScopeGuard>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

static constexpr int MaxResumes = 5;

static QString contentType(QNetworkReply *reply)
{
    return reply->header(QNetworkRequest::ContentTypeHeader).toString();
}

StreamableHttpTransport::StreamableHttpTransport(const ServerConfig &config, QObject *parent)
    : HttpRoute(config, parent), m_get(this)
{
    connect(&m_get, &GetStream::reopenDue, this, [this] {
        if (isOpen())
            openGetStream();
    });
}

void StreamableHttpTransport::open()
{
    Q_ASSERT(m_nam);
    m_open = true;
    Q_EMIT opened();
}

void StreamableHttpTransport::setProtocolVersion(const QString &version)
{
    m_protocolVersion = version;
    m_modern = Rev20260728::isProtocolVersion(version);
}

QNetworkRequest StreamableHttpTransport::request(bool sse) const
{
    QNetworkRequest r = HttpExchange::request(
        m_config.url, sse ? HttpExchange::Shape::EventStream : HttpExchange::Shape::Post, {});
    if (!m_sessionId.isEmpty())
        r.setRawHeader("Mcp-Session-Id", m_sessionId.toUtf8());
    if (!m_protocolVersion.isEmpty())
        r.setRawHeader("MCP-Protocol-Version", m_protocolVersion.toUtf8());
    // The configured headers last: they may replace any of the above, as before.
    for (const auto &[name, value] : m_config.headers)
        r.setRawHeader(name, value);
    m_gate.apply(r);
    return r;
}

void StreamableHttpTransport::send(const QByteArray &frame)
{
    if (!isOpen())
        return;
    Stream s;
    s.kind = Stream::Kind::Post;
    post(frame, std::move(s));
}

void StreamableHttpTransport::post(const QByteArray &frame, Stream s)
{
    const Outgoing out = outgoing(frame);
    s.requestId = out.requestId;
    s.isInitialize = out.method == "initialize"_L1;
    s.sessionIdSent = m_sessionId;
    s.frame = frame;
    QNetworkRequest r = request(false);
    if (s.requestId.isUndefined())
        r.setTransferTimeout(30'000); // notifications and responses get 202 at once
    if (m_modern) {
        // The headers mirror the body. Mcp-Method comes from the envelope scan already done;
        // only the methods with an Mcp-Name (and Mcp-Param-*) need the params, so only their
        // frames are parsed again.
        const bool named = McpHeaders::needsParams(out.method);
        const QJsonObject params =
            named ? QJsonDocument::fromJson(frame).object().value("params"_L1).toObject()
                  : QJsonObject();
        const McpHeaders::List headers =
            McpHeaders::forRequest(m_protocolVersion, out.method, params, m_toolHeaders);
        for (const auto &[name, value] : headers)
            r.setRawHeader(name, value);
        for (const auto &[name, value] : m_config.headers)
            r.setRawHeader(name, value);
        m_gate.apply(r);
    }
    s.authSent = r.rawHeader("Authorization");
    const bool first = s.authRetries == 0;
    QNetworkReply *reply = track(HttpExchange::postOnce(m_nam, r, frame), std::move(s), frame);
    // How much of the body went out: a server that resets the connection before taking it
    // all (a body over its limit, refused unread) cannot have run the request.
    connect(reply, &QNetworkReply::uploadProgress, this, [this, reply](qint64 sent, qint64 total) {
        // Qt reports (0, 0) as the reply ends: the furthest point reached stays.
        if (const auto it = m_replies.find(reply); it != m_replies.end() && total > 0)
            it->uploaded = std::max(it->uploaded, sent);
    });
    // Open the standalone stream together with notifications/initialized rather than after
    // its 202: servers send requests that belong to no POST (elicitation from inside a tool,
    // say) on it and drop them while it is missing, and the first calls follow at once.
    if (first && out.method == "notifications/initialized"_L1 &&
        m_get.state() == GetStream::State::NotOpened)
        openGetStream();
}

bool StreamableHttpTransport::holdForAuthorization(const Stream &s, QNetworkReply *reply,
                                                   int status)
{
    if (s.kind != Stream::Kind::Post || !m_gate.isChallenge(status, reply) ||
        s.authRetries >= AuthorizationGate::MaxRetries)
        return false;
    // Refused at the door: the server did not process it, so the same frame (same id) may
    // go again once the credentials are fixed, even for a write (docs/recovery.md §9).
    const HttpAuthorization::Challenge c =
        AuthorizationGate::challengeOf(status, reply, s.body, !s.authSent.isEmpty());
    Q_EMIT lifecycleEvent(LifecycleDetails::AuthChallenge{
        .id = s.requestId,
        .status = status,
        .wwwAuthenticate = QString::fromUtf8(c.wwwAuthenticate.join(", ").left(500))});
    Stream again;
    again.kind = Stream::Kind::Post;
    again.authRetries = s.authRetries + 1;
    const QByteArray frame = s.frame;
    const Stream refused = s;
    m_gate.hold(
        c, s.authSent, s.requestId,
        [this, frame, again]() mutable {
            if (isOpen() || m_draining)
                post(frame, std::move(again));
        },
        [this, refused](const Error &e) {
            failRequest(refused, e);
            finishDrainIfDone();
        });
    return true;
}

void StreamableHttpTransport::onReadyRead(QNetworkReply *reply)
{
    auto it = m_replies.find(reply);
    if (it == m_replies.end())
        return;
    Stream &s = *it;
    if (!s.decided) {
        s.decided = true;
        s.exchange.answered(reply);
        const int status = HttpExchange::status(reply);
        // Take the session id with the headers: the initialize answer is delivered (and
        // notifications/initialized sent) before this reply finishes.
        if (s.isInitialize && status >= 200 && status < 300 && m_sessionId.isEmpty())
            m_sessionId = QString::fromUtf8(reply->rawHeader("Mcp-Session-Id"));
        s.isSse = HttpExchange::isEventStream(reply);
        if (s.kind == Stream::Kind::Post && status >= 200 && status < 300)
            s.reach = Error::Reach::ResponseStarted;
        if (s.kind == Stream::Kind::Get && s.isSse) {
            HttpExchange::logStream("open", m_config.url, m_get.lastEventId());
            Q_EMIT lifecycleEvent(m_get.opened());
        }
    }
    if (!s.isSse) {
        readJsonBody(s, reply);
        return;
    }
    const QByteArray bytes = reply->readAll();
    s.exchange.received(bytes.size());
    const QList<SseEvent> events = s.sse.feed(bytes);
    for (const SseEvent &e : events) {
        s.exchange.addSseEvent(e);
        s.yielded = s.yielded || (!e.data.isEmpty() && e.type == "message"_L1);
    }
    if (s.kind == Stream::Kind::Get)
        m_get.setLastEventId(s.sse.lastEventId());
    onEvents(reply, events, s.sse.takeOversizedError());
}

// A JSON body, read into one buffer and refused as soon as it would pass the frame limit:
// from its Content-Length before a byte of it is read, else as it streams.
void StreamableHttpTransport::readJsonBody(Stream &s, QNetworkReply *reply)
{
    const auto refuse = [&] {
        const Stream copy = s;
        s.abandoned = true;
        reply->abort(); // may finish (and erase) the stream at once: `copy` outlives it
        failRequest(copy, HttpExchange::oversizedBody(m_config.maxFrameBytes));
    };
    if (s.body.isEmpty()) {
        // Its room made once from the length said, not by doubling: a 50 MiB body grown that
        // way held 64 MiB and, while it grew, the 32 MiB before.
        bool known = false;
        const qint64 length =
            reply->header(QNetworkRequest::ContentLengthHeader).toLongLong(&known);
        if (known && length > m_config.maxFrameBytes)
            return refuse();
        if (known && length > 0)
            s.body.reserve(length);
    }
    const qint64 available = reply->bytesAvailable();
    if (s.body.size() + available > m_config.maxFrameBytes)
        return refuse();
    // Into the buffer itself: no copy of each read on the way.
    const qsizetype had = s.body.size();
    s.body.resize(had + available);
    const qint64 got = reply->read(s.body.data() + had, available);
    s.body.resize(had + std::max<qint64>(got, 0));
    s.exchange.received(s.body.size() - had);
}

void StreamableHttpTransport::onEvents(QNetworkReply *reply, const QList<SseEvent> &events,
                                       const QString &oversized)
{
    // Delivering a frame can make the session send (and so insert into m_replies) at once:
    // look the stream up again for every event instead of holding a reference.
    for (const SseEvent &e : events) {
        if (e.data.isEmpty() || e.type != "message"_L1)
            continue; // a priming event: its id is kept by the parser for resumption
        const auto current = m_replies.find(reply);
        if (current == m_replies.end())
            return; // abandoned or closed while delivering
        deliver(*current, e.data);
    }
    if (oversized.isEmpty())
        return;
    Q_EMIT frameDropped(oversized);
    const auto current = m_replies.find(reply);
    if (current != m_replies.end() && !current->requestId.isUndefined() && !current->answered) {
        // The event over the limit was most likely the answer (progress and questions are
        // small): fail the request now, naming the limit, rather than at its timeout.
        const Stream copy = *current;
        current->abandoned = true;
        reply->abort();
        failRequest(copy, Error::protocol(u"%1 (on the stream of this request)"_s.arg(oversized)));
    }
}

void StreamableHttpTransport::deliver(Stream &stream, const QByteArray &data)
{
    if (!stream.requestId.isUndefined() && !stream.answered)
        stream.answered = answers(data, stream.requestId);
    Q_EMIT frameReceived(data);
}

void StreamableHttpTransport::failRequest(const Stream &stream, const Error &error)
{
    if (!stream.requestId.isUndefined()) {
        // The request's own reach goes with its failure: once the server had begun answering
        // it, nothing that happens later (to its stream or a resumption) makes it unsent.
        Error e = error;
        if (stream.reach == Error::Reach::ResponseStarted)
            e.setReach(Error::Reach::ResponseStarted);
        else if (e.reach() == Error::Reach::Unknown)
            e.setReach(Error::Reach::Written);
        Q_EMIT requestFailed(stream.requestId, e);
        return;
    }
    Q_EMIT frameDropped(error.message());
}

void StreamableHttpTransport::failResumption(const Stream &s, const Error &why)
{
    // The request was sent and the server had begun its answer (an SSE stream with event
    // ids): whatever the resumption met, the request may have run.
    Error e = Error::transport(
        u"the answer to request %1 had begun when its stream broke, and resuming it with GET + Last-Event-ID %2 failed: %3"_s
            .arg(JsonSchemaValidator::jsonText(s.requestId), s.resumedFromId, why.message()),
        Error::Condition::Closed);
    e.setCause(why);
    Q_EMIT lifecycleEvent(LifecycleDetails::StreamResumeFailed{
        .id = s.requestId, .lastEventId = s.resumedFromId, .reason = why.message()});
    failRequest(s, e);
}

void StreamableHttpTransport::onFinished(QNetworkReply *reply)
{
    reply->deleteLater();
    auto it = m_replies.find(reply);
    if (it == m_replies.end())
        return;
    Stream s = *it;
    m_replies.erase(it);
    // Whichever way this stream ends, a draining transport closes after its last request.
    const auto drained = qScopeGuard([this] { finishDrainIfDone(); });
    if (!s.abandoned && (!s.decided || !s.isSse))
        s.body.append(reply->readAll());
    recordExchange(s, reply, s.isSse ? QByteArray() : s.body);
    if (s.abandoned || m_finished)
        return;
    const int status = HttpExchange::status(reply);
    HttpExchange::logAnswered(reply, s.body.size());
    if (s.kind == Stream::Kind::Delete) {
        s.deleted(status, reply->errorString());
        return;
    }
    if (m_closing && !m_draining)
        return;
    if (s.kind == Stream::Kind::Get)
        onGetFinished(s, reply, status);
    else if (reply->error() == QNetworkReply::NoError && status >= 200 && status < 300)
        onAnswerFinished(s, reply);
    else if (!holdForAuthorization(s, reply, status))
        onAnswerFailed(s, reply, status);
}

void StreamableHttpTransport::onAnswerFinished(Stream &s, QNetworkReply *reply)
{
    const int status = HttpExchange::status(reply);
    const QString what = u"POST %1"_s.arg(m_config.url.toString());
    if (s.isInitialize && m_sessionId.isEmpty())
        m_sessionId = QString::fromUtf8(reply->rawHeader("Mcp-Session-Id"));
    const QByteArray start = s.body.trimmed().left(1);
    const bool json = reply->header(QNetworkRequest::ContentTypeHeader)
                          .toString()
                          .contains("json"_L1, Qt::CaseInsensitive) ||
                      start == "{" || start == "[";
    if (s.kind == Stream::Kind::Resume && !s.isSse && (s.body.trimmed().isEmpty() || !json)) {
        failResumption(s,
                       HttpExchange::notAnAnswer(u"GET %1 (resume)"_s.arg(m_config.url.toString()),
                                                 status, reply, s.body));
    } else if (!s.isSse && !json && !s.requestId.isUndefined()) {
        // HTML where JSON belongs (a login page, a proxy, the wrong URL): one error with the
        // content type and the first bytes, not the page as a frame.
        failRequest(s, HttpExchange::notAnAnswer(what, status, reply, s.body));
    } else if (!s.isSse && !s.body.trimmed().isEmpty()) {
        deliver(s, s.body.trimmed());
        if (!s.requestId.isUndefined() && !s.answered) {
            // A complete answer that is not this request's response (an HTML login page, a
            // proxy's error text) will not become one: fail now, not at timeout.
            failRequest(s, HttpExchange::notAnAnswer(what, status, reply, s.body));
        }
    } else if (!s.isSse && !s.requestId.isUndefined()) {
        failRequest(s, HttpExchange::notAnAnswer(what, status, reply, s.body));
    } else if (s.isSse && !s.requestId.isUndefined() && !s.answered) {
        if (mayResume(s)) {
            resume(s, s.sse.retryMs().value_or(0));
        } else if (s.kind == Stream::Kind::Resume) {
            failResumption(s, HttpExchange::streamEndedUnanswered(s.requestId));
        } else {
            failRequest(s, HttpExchange::streamEndedUnanswered(s.requestId));
        }
    }
}

void StreamableHttpTransport::onAnswerFailed(const Stream &s, QNetworkReply *reply, int status)
{
    const QString where = m_config.url.toString();
    if (status == 0 || (status >= 200 && status < 300)) {
        // No HTTP answer at all (refused, reset), or a 2xx stream that broke midway.
        if (s.isSse && !s.requestId.isUndefined() && !s.answered && mayResume(s)) {
            resume(s, s.sse.retryMs().value_or(0)); // a disconnect is not a cancellation
            return;
        }
        if (s.kind == Stream::Kind::Resume) {
            // The resumption's own failure (a refused connection: the server restarting) is
            // not the request's: that one was sent.
            failResumption(s, HttpExchange::connectionFailure(u"GET %1 (resume)"_s.arg(where),
                                                              reply, s.decided, s.sessionIdSent));
            return;
        }
        // Only a partial count proves it: a body written in one go may close before Qt
        // reported any progress at all.
        if (!s.decided && s.uploaded > 0 && s.uploaded < s.frame.size()) {
            // The connection went before the whole body did: the server cannot have parsed,
            // let alone run, a request it never received in full. Most likely it refused the
            // size (a 413 the reset swallowed): that request fails, nothing is reconnected.
            Error e = Error::transport(
                u"POST %1: the server closed the connection after %2 of the request's %3 bytes, "
                u"so it did not run (most likely a body over the server's size limit, HTTP 413, "
                u"whose answer the reset lost)"_s.arg(where)
                    .arg(s.uploaded)
                    .arg(s.frame.size()));
            e.setReach(Error::Reach::NotWritten).setSessionId(s.sessionIdSent);
            failRequest(s, e);
            return;
        }
        failRequest(s, HttpExchange::connectionFailure(u"POST %1"_s.arg(where), reply, s.decided,
                                                       s.sessionIdSent));
        return;
    }
    if (s.kind == Stream::Kind::Resume) {
        // The request was sent and its stream broke; the resumption being refused (a 404 for
        // a session the restarted server does not know) says nothing about whether it ran.
        failResumption(s, HttpExchange::httpError(u"GET %1 (resume)"_s.arg(where), status, s.body,
                                                  s.sessionIdSent, {}, contentType(reply)));
        return;
    }
    // An initialize refused with 400, 404 or 405 is where HttpFallbackTransport tries the
    // legacy route: it reads the status from this error.
    failRequest(s, HttpExchange::httpError(u"POST %1"_s.arg(where), status, s.body, s.sessionIdSent,
                                           reply->rawHeader("Retry-After"), contentType(reply)));
}

void StreamableHttpTransport::onGetFinished(const Stream &s, QNetworkReply *reply, int status)
{
    LifecycleDetails details;
    const GetStream::Verdict verdict =
        m_get.finished(status, !s.sessionIdSent.isEmpty(), s.sse.retryMs().value_or(-1), &details,
                       reply->errorString());
    HttpExchange::logStream("closed", m_config.url, m_get.describe());
    if (verdict == GetStream::Verdict::SessionLost) {
        // The stream worked for this session and is now refused: the session is gone.
        Q_EMIT connectionLost(HttpExchange::httpError(u"GET %1"_s.arg(m_config.url.toString()),
                                                      status, s.body, s.sessionIdSent, {},
                                                      contentType(reply)));
        return;
    }
    Q_EMIT lifecycleEvent(details);
}

bool StreamableHttpTransport::mayResume(const Stream &s) const
{
    if (m_modern || s.resumes >= MaxResumes)
        return false; // 2026-07-28 has no resumption: a broken stream loses the request
    if (!s.sse.lastEventId().isEmpty())
        return true;
    // A resumption that ended or broke before any event of its own is tried once more from
    // the same id: server-everything's event store, for one, ends a resumed GET when another
    // GET names an id it registered, and replays to the next one what it holds.
    return s.kind == Stream::Kind::Resume && !s.yielded && s.quietRetries == 0;
}

void StreamableHttpTransport::resume(const Stream &dropped, int delayMs)
{
    Stream s;
    s.kind = Stream::Kind::Resume;
    s.requestId = dropped.requestId;
    s.resumes = dropped.resumes + 1;
    s.sessionIdSent = m_sessionId;
    s.reach = Error::Reach::ResponseStarted;
    // A resumption that broke or stayed quiet before any event of its own goes on from
    // where the one before it started.
    const QString lastId =
        !dropped.sse.lastEventId().isEmpty() ? dropped.sse.lastEventId() : dropped.resumedFromId;
    s.resumedFromId = lastId;
    s.quietRetries =
        dropped.kind == Stream::Kind::Resume && !dropped.yielded ? dropped.quietRetries + 1 : 0;
    Q_EMIT lifecycleEvent(LifecycleDetails::StreamResume{
        .id = dropped.requestId, .lastEventId = lastId, .delayMs = delayMs});
    ++m_resumesDue;
    QTimer::singleShot(delayMs, this, [this, s, lastId]() mutable {
        --m_resumesDue;
        // While draining, the request still belongs to the old session and its answer may
        // still come; once the transport is closed or closing for good it cannot, and the
        // request must fail now rather than wait for its timeout.
        if (m_finished || (m_closing && !m_draining)) {
            failRequest(
                s,
                Error::transport(
                    u"the stream of a request broke, and the transport closed before it could be resumed"_s,
                    Error::Condition::Closed));
            finishDrainIfDone();
            return;
        }
        QNetworkRequest r = request(true);
        r.setRawHeader("Last-Event-ID", lastId.toUtf8());
        HttpExchange::logStream("resume", m_config.url, lastId);
        QNetworkReply *reply = track(m_nam->get(r), std::move(s));
        // A server that kept nothing of the stream may hold the GET open and send nothing:
        // that is a failed resumption too, not a wait until the request's own timeout.
        QTimer::singleShot(m_config.resumeTimeoutMs, reply, [this, reply] {
            const auto it = m_replies.find(reply);
            if (it == m_replies.end() || it->abandoned || it->yielded)
                return;
            const Stream quiet = *it;
            it->abandoned = true;
            reply->abort();
            if (quiet.quietRetries == 0 && quiet.resumes < MaxResumes) {
                // Some servers replay only what they held when the GET came (server-
                // everything's event store): a second GET from the same event id gets what
                // was stored since. Nothing on that one either, and the resumption failed.
                resume(quiet, 0);
                return;
            }
            failResumption(quiet, Error::transport(u"nothing came on it within %1 ms, twice"_s.arg(
                                                       m_config.resumeTimeoutMs),
                                                   Error::Condition::Closed));
            finishDrainIfDone();
        });
    });
}

void StreamableHttpTransport::openGetStream()
{
    Stream s;
    s.kind = Stream::Kind::Get;
    s.sessionIdSent = m_sessionId;
    QNetworkRequest r = request(true);
    if (!m_get.lastEventId().isEmpty())
        r.setRawHeader("Last-Event-ID", m_get.lastEventId().toUtf8());
    m_get.connecting();
    HttpExchange::logStream("get", m_config.url, m_get.lastEventId());
    // No transfer timeout: SDK servers send the headers only with the first event.
    track(m_nam->get(r), std::move(s));
}

void StreamableHttpTransport::abandon(const QJsonValue &id)
{
    m_gate.forget(id);
    for (auto it = m_replies.begin(); it != m_replies.end(); ++it) {
        if ((it->kind == Stream::Kind::Post || it->kind == Stream::Kind::Resume) &&
            it->requestId == id) {
            it->abandoned = true;
            it.key()->abort();
            return;
        }
    }
}

QNetworkReply *
StreamableHttpTransport::sendDelete(std::function<void(int status, const QString &error)> done)
{
    Stream s;
    s.kind = Stream::Kind::Delete;
    s.sessionIdSent = m_sessionId;
    s.deleted = std::move(done);
    HttpExchange::logSent("DELETE", m_config.url, {});
    return track(m_nam->deleteResource(request(false)), std::move(s));
}

bool StreamableHttpTransport::endSessionOnServer(std::function<void(int status)> done)
{
    if (m_sessionId.isEmpty())
        return false;
    sendDelete([done = std::move(done)](int status, const QString &) { done(status); });
    return true;
}

void StreamableHttpTransport::close()
{
    if (m_finished || m_closing)
        return;
    m_closing = true;
    // Notifications and answers on their way (notifications/cancelled for the calls a
    // shutdown abandons) are let through: aborted, they would tell the server nothing. The
    // DELETE waits for them (at most 500 ms), or the server could read the cancel after
    // the session is gone.
    QList<QNetworkReply *> notifying;
    const QList<QNetworkReply *> replies = m_replies.keys();
    for (QNetworkReply *r : replies) {
        const auto it = m_replies.find(r);
        if (it == m_replies.end())
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
        if (m_sessionId.isEmpty() || !m_nam) {
            finish(Error());
            return;
        }
        QNetworkReply *reply = sendDelete([this](int status, const QString &error) {
            m_deleteOutcome = HttpExchange::deleteOutcome(status, error);
            Q_EMIT lifecycleEvent(
                LifecycleDetails::SessionDelete{.status = status, .outcome = m_deleteOutcome});
            finish(Error());
        });
        // A server that never answers the DELETE must not hold the shutdown.
        m_deleteTimer = new QTimer(this);
        m_deleteTimer->setSingleShot(true);
        connect(m_deleteTimer, &QTimer::timeout, reply, &QNetworkReply::abort);
        m_deleteTimer->start(2000);
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

bool StreamableHttpTransport::canDrain() const
{
    return !m_finished && !m_closing;
}

void StreamableHttpTransport::drain()
{
    if (!canDrain()) {
        abort();
        return;
    }
    m_draining = true;
    m_closing = true; // no new frames; and the GET stream is not reopened
    const QList<QNetworkReply *> replies = m_replies.keys();
    for (QNetworkReply *r : replies) {
        auto it = m_replies.find(r);
        if (it == m_replies.end() || it->kind == Stream::Kind::Post ||
            it->kind == Stream::Kind::Resume)
            continue;
        it->abandoned = true;
        r->abort();
    }
    Q_EMIT lifecycleEvent(
        LifecycleDetails::Draining{.requestsInFlight = int(m_replies.size()),
                                   .deleteNote = u"not sent: the session is being replaced"_s});
    // A server that never answers must not keep this transport forever; the requests' own
    // timeouts fail them in the session long before.
    QTimer::singleShot(m_config.maxRequestTotalMs, this, [this] {
        if (!m_finished)
            abort();
    });
    finishDrainIfDone();
}

void StreamableHttpTransport::finishDrainIfDone()
{
    if (!m_draining || m_finished || m_resumesDue > 0 || m_gate.held() > 0)
        return;
    for (const Stream &s : std::as_const(m_replies))
        if (!s.abandoned && (s.kind == Stream::Kind::Post || s.kind == Stream::Kind::Resume))
            return;
    finish(Error());
}

TransportDetails StreamableHttpTransport::details() const
{
    TransportDetails d;
    d.route = ServerConfig::Route::StreamableHttp;
    d.url = m_config.url.toString();
    d.getStream = m_get.describe();
    if (!m_sessionId.isEmpty())
        d.sessionId = m_sessionId;
    if (!m_deleteOutcome.isEmpty())
        d.deleteOutcome = m_deleteOutcome;
    return d;
}

} // namespace Sonde
