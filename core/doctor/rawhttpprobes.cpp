// SPDX-License-Identifier: MIT
#include "rawhttpprobes.h"

#include "protocol/rev20260728.h"
#include "protocol/sseparser.h"
#include "util/version.h"

#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

// A probe's body is a handful of bytes; an answer bigger than this is cut, as evidence.
constexpr qsizetype ProbeBodyLimit = 1024 * 1024;

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// The JSON-RPC message of a body: the object itself, or the first SSE event that holds one.
QJsonObject messageOf(const QByteArray &contentType, const QByteArray &body)
{
    if (contentType.startsWith("text/event-stream")) {
        SseParser parser(ProbeBodyLimit);
        for (const SseEvent &e : parser.feed(body + "\n\n")) {
            const QJsonDocument d = QJsonDocument::fromJson(e.data);
            if (d.isObject())
                return d.object();
        }
        return {};
    }
    return QJsonDocument::fromJson(body).object();
}

int errorCode(const QJsonObject &message)
{
    return message.value("error"_L1).toObject().value("code"_L1).toInt(0);
}

QString statusText(int status)
{
    return status == 0 ? u"no answer"_s : u"HTTP %1"_s.arg(status);
}

} // namespace

RawHttpProbes::RawHttpProbes(Options options, QObject *parent)
    : QObject(parent), m_options(std::move(options))
{
    // Each probe is its own exchange: a keep-alive connection the server closed must never
    // carry one again behind our back (Qt re-sends a POST on such a connection).
    m_nam.setAutoDeleteReplies(false);
}

RawHttpProbes::~RawHttpProbes()
{
    for (const QPointer<QNetworkReply> &r : std::as_const(m_replies))
        if (r) {
            r->disconnect(this);
            r->abort();
            delete r;
        }
}

bool RawHttpProbes::wanted(const QString &checkId) const
{
    return m_options.only.isEmpty() || m_options.only.contains(checkId);
}

void RawHttpProbes::skip(const QString &checkId, const QString &why)
{
    if (wanted(checkId) && !m_ran.contains(checkId))
        m_skipped.insert(checkId, why);
}

void RawHttpProbes::fail(const QString &checkId, const QString &message, const Answer &answer)
{
    note(checkId);
    const DoctorCheck *check = DoctorCatalog::find(checkId);
    DoctorFinding f;
    f.checkId = checkId;
    f.severity = check ? check->severity : DoctorSeverity::Error;
    f.message = message;
    f.evidence.request = answer.requestText;
    f.evidence.response = answer.responseText;
    Q_EMIT found(f);
}

bool RawHttpProbes::isLoopback() const
{
    const QString host = m_options.server.url.host();
    if (host == "localhost"_L1)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

QJsonObject RawHttpProbes::request(const QString &method, const QJsonObject &params) const
{
    QJsonObject o{{"jsonrpc"_L1, "2.0"_L1}, {"method"_L1, method}};
    o.insert("id"_L1, u"sonde-doctor-%1"_s.arg(m_nextId++));
    if (!params.isEmpty())
        o.insert("params"_L1, params);
    return o;
}

QJsonObject RawHttpProbes::initializeRequest(const QString &version) const
{
    return request(u"initialize"_s,
                   {{"protocolVersion"_L1, version},
                    {"capabilities"_L1, QJsonObject{}},
                    {"clientInfo"_L1, QJsonObject{{"name"_L1, "sonde-doctor"_L1},
                                                  {"version"_L1, QStringLiteral(SONDE_VERSION)}}}});
}

QJsonObject RawHttpProbes::modernParams(const QString &version) const
{
    Rev20260728::RequestContext context;
    context.protocolVersion = version;
    context.clientInfo = {{"name"_L1, "sonde-doctor"_L1},
                          {"version"_L1, QStringLiteral(SONDE_VERSION)}};
    return Rev20260728::withRequestMeta({}, context);
}

RawHttpProbes::Headers RawHttpProbes::modernHeaders(const QString &method,
                                                    const QString &version) const
{
    return {{"MCP-Protocol-Version", version.toUtf8()}, {"Mcp-Method", method.toUtf8()}};
}

void RawHttpProbes::send(const QByteArray &verb, const QJsonObject &body, const Headers &headers,
                         Then then, bool headersOnly)
{
    QNetworkRequest req(m_options.server.url);
    req.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                     QNetworkRequest::ManualRedirectPolicy);
    req.setRawHeader("Accept",
                     verb == "GET" ? "text/event-stream" : "application/json, text/event-stream");
    QByteArray text =
        verb + ' ' + m_options.server.url.path(QUrl::FullyEncoded).toUtf8() + " HTTP/1.1\r\n";
    // The configured headers first (an API key), then the probe's own, which win.
    for (const auto &[name, value] : m_options.server.headers)
        req.setRawHeader(name, value);
    const QByteArray payload = body.isEmpty() ? QByteArray() : compact(body);
    if (!payload.isEmpty())
        req.setHeader(QNetworkRequest::ContentTypeHeader, "application/json"_ba);
    for (const auto &[name, value] : headers)
        req.setRawHeader(name, value);
    for (const QByteArray &name : req.rawHeaderList())
        text += name + ": " + req.rawHeader(name) + "\r\n";
    text += "\r\n" + payload;

    QNetworkReply *reply = verb == "POST"  ? m_nam.post(req, payload)
                           : verb == "GET" ? m_nam.get(req)
                                           : m_nam.sendCustomRequest(req, verb);
    m_replies.append(reply);
    // The probe's own bound (Qt's transfer timeout warns on stderr when it fires).
    auto timedOut = std::make_shared<bool>(false);
    QTimer::singleShot(m_options.timeoutMs, reply, [reply, timedOut] {
        *timedOut = true;
        reply->abort();
    });
    auto answered = std::make_shared<bool>(false);
    auto finish = [this, reply, then, text, answered, timedOut] {
        if (std::exchange(*answered, true))
            return;
        Answer a;
        a.requestText = text;
        a.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        a.contentType = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
        a.sessionId = reply->rawHeader("Mcp-Session-Id");
        if (reply->isOpen())
            a.body = reply->read(ProbeBodyLimit);
        if (a.status == 0)
            a.error = *timedOut ? u"no answer within %1 ms"_s.arg(m_options.timeoutMs)
                                : reply->errorString();
        a.message = messageOf(a.contentType, a.body);
        QByteArray response = "HTTP/1.1 " + QByteArray::number(a.status) + "\r\n";
        for (const auto &[name, value] : reply->rawHeaderPairs())
            response += name + ": " + value + "\r\n";
        a.responseText = a.status == 0 ? a.error.toUtf8() : response + "\r\n" + a.body;
        reply->disconnect(this);
        // A GET stream whose headers were its answer is closed by deleting it: abort() inside
        // its own metaDataChanged makes Qt 6.4 report the error twice.
        reply->deleteLater();
        then(a);
    };
    if (headersOnly) {
        // A GET stream stays open: its headers are the answer. Some servers send them only
        // with the first event: after getStreamWaitMs there is simply no answer.
        connect(reply, &QNetworkReply::metaDataChanged, this, finish);
        QTimer::singleShot(m_options.getStreamWaitMs, reply, finish);
    }
    connect(reply, &QNetworkReply::finished, this, finish);
}

void RawHttpProbes::start()
{
    if (m_options.rev20260728) {
        m_version = QString::fromLatin1(Rev20260728::ProtocolVersion);
        discover2026();
    } else {
        m_version = u"2025-11-25"_s;
        openSession();
    }
}

bool RawHttpProbes::refusedForAuthorization(const Answer &a)
{
    if (a.status != 401 && a.status != 403)
        return false;
    // The probes carry the configured headers only, not the engine's OAuth tokens.
    for (const DoctorCheck &c : DoctorCatalog::all())
        if (c.kind == DoctorCheck::Kind::Active && c.transport == DoctorCheck::Transport::Http)
            skip(c.id, u"the server asks for authorization (%1), which the raw HTTP probes do "
                       u"not carry"_s.arg(statusText(a.status)));
    done();
    return true;
}

// --- The initialize era: a session of the probes' own -------------------------------------

void RawHttpProbes::openSession()
{
    send("POST", initializeRequest(m_version), {}, [this](const Answer &a) {
        if (refusedForAuthorization(a))
            return;
        checkContentType(a, u"initialize"_s);
        if (a.sessionId.isEmpty()) {
            const QString why = a.status >= 200 && a.status < 300
                                    ? u"the server gives no Mcp-Session-Id (sessionless)"_s
                                    : u"initialize failed (%1)"_s.arg(statusText(a.status));
            for (const char *id :
                 {"http.session-id-charset", "http.notification-not-202",
                  "http.protocol-version-not-validated", "http.unknown-session-status",
                  "http.get-stream-invalid", "http.delete-not-ended"})
                skip(QString::fromLatin1(id), why);
            foreignOrigin();
            return;
        }
        m_session = a.sessionId;
        m_sessionIds << QString::fromLatin1(a.sessionId);
        if (wanted(u"http.session-id-charset"_s)) {
            note(u"http.session-id-charset"_s);
            const auto bad = std::find_if(a.sessionId.cbegin(), a.sessionId.cend(), [](char c) {
                return uchar(c) < 0x21 || uchar(c) > 0x7e;
            });
            if (bad != a.sessionId.cend())
                fail(u"http.session-id-charset"_s,
                     u"The session id holds the byte 0x%1 at offset %2"_s
                         .arg(uint(uchar(*bad)), 2, 16, QChar(u'0'))
                         .arg(qlonglong(bad - a.sessionId.cbegin())),
                     a);
        }
        notificationStatus();
    });
}

void RawHttpProbes::notificationStatus()
{
    const QJsonObject note{{"jsonrpc"_L1, "2.0"_L1}, {"method"_L1, "notifications/initialized"_L1}};
    send("POST", note,
         {{"Mcp-Session-Id", m_session}, {"MCP-Protocol-Version", m_version.toUtf8()}},
         [this](const Answer &a) {
             if (wanted(u"http.notification-not-202"_s)) {
                 this->note(u"http.notification-not-202"_s);
                 if (a.status != 202 || !a.body.isEmpty())
                     fail(u"http.notification-not-202"_s,
                          a.status == 202
                              ? u"notifications/initialized got 202 with a %1-byte body"_s.arg(
                                    a.body.size())
                              : u"notifications/initialized got %1, not 202"_s.arg(
                                    statusText(a.status)),
                          a);
             }
             protocolVersionHeader();
         });
}

void RawHttpProbes::expectStatus(const QString &checkId, const Headers &headers, int status,
                                 const QString &what, void (RawHttpProbes::*then)())
{
    if (!wanted(checkId)) {
        (this->*then)();
        return;
    }
    send("POST", request(u"ping"_s), headers, [this, checkId, status, what, then](const Answer &a) {
        note(checkId);
        if (a.status != status)
            fail(checkId, what.arg(statusText(a.status)), a);
        (this->*then)();
    });
}

void RawHttpProbes::protocolVersionHeader()
{
    expectStatus(u"http.protocol-version-not-validated"_s,
                 {{"Mcp-Session-Id", m_session}, {"MCP-Protocol-Version", "1999-01-01"}}, 400,
                 u"A ping with MCP-Protocol-Version: 1999-01-01 got %1, not 400"_s,
                 &RawHttpProbes::unknownSession);
}

void RawHttpProbes::unknownSession()
{
    const QByteArray unknown =
        "sonde-doctor-unknown-" + QByteArray::number(QRandomGenerator::global()->generate64(), 16);
    expectStatus(u"http.unknown-session-status"_s,
                 {{"Mcp-Session-Id", unknown}, {"MCP-Protocol-Version", m_version.toUtf8()}}, 404,
                 u"A request with a session id the server never issued got %1, not 404: a client "
                 u"whose session expired is never told to start a new one"_s,
                 &RawHttpProbes::getStream);
}

void RawHttpProbes::getStream()
{
    if (!wanted(u"http.get-stream-invalid"_s)) {
        deleteSession();
        return;
    }
    send(
        "GET", {}, {{"Mcp-Session-Id", m_session}, {"MCP-Protocol-Version", m_version.toUtf8()}},
        [this](const Answer &a) {
            if (a.status == 0) {
                // Headers that wait for the first event (the SDK servers): nothing to judge.
                skip(u"http.get-stream-invalid"_s,
                     u"GET gave no headers within %1 ms (a server may send them with its first "
                     u"event)"_s.arg(m_options.getStreamWaitMs));
                deleteSession();
                return;
            }
            note(u"http.get-stream-invalid"_s);
            const bool stream =
                a.status >= 200 && a.status < 300 && a.contentType.startsWith("text/event-stream");
            if (!stream && a.status != 405)
                fail(u"http.get-stream-invalid"_s,
                     u"GET got %1 with Content-Type \"%2\", neither an SSE stream nor 405"_s.arg(
                         statusText(a.status), QString::fromUtf8(a.contentType)),
                     a);
            deleteSession();
        },
        true);
}

void RawHttpProbes::deleteSession()
{
    send("DELETE", {},
         {{"Mcp-Session-Id", m_session}, {"MCP-Protocol-Version", m_version.toUtf8()}},
         [this](const Answer &deleted) {
             if (!wanted(u"http.delete-not-ended"_s)) {
                 foreignOrigin();
                 return;
             }
             if (deleted.status < 200 || deleted.status >= 300) {
                 // 405: the server keeps its sessions, as the spec allows.
                 skip(u"http.delete-not-ended"_s,
                      u"DELETE got %1: the server does not end sessions on request"_s.arg(
                          statusText(deleted.status)));
                 foreignOrigin();
                 return;
             }
             send("POST", request(u"ping"_s),
                  {{"Mcp-Session-Id", m_session}, {"MCP-Protocol-Version", m_version.toUtf8()}},
                  [this](const Answer &a) {
                      note(u"http.delete-not-ended"_s);
                      // Only a session that still works is this check's: any other refusal
                      // than 404 is already http.unknown-session-status.
                      if (a.status >= 200 && a.status < 300)
                          fail(u"http.delete-not-ended"_s,
                               u"After DELETE was accepted, a ping with the same session id got "
                               u"%1: the session still works"_s.arg(statusText(a.status)),
                               a);
                      foreignOrigin();
                  });
         });
}

void RawHttpProbes::foreignOrigin()
{
    if (!wanted(u"http.origin-not-validated"_s)) {
        m_options.rev20260728 ? done() : versionNegotiation();
        return;
    }
    if (!isLoopback()) {
        // A remote server may serve browsers on purpose; DNS rebinding targets local ones.
        skip(u"http.origin-not-validated"_s,
             u"probed on loopback servers only (%1 is remote)"_s.arg(m_options.server.url.host()));
        m_options.rev20260728 ? done() : versionNegotiation();
        return;
    }
    const QString method = m_options.rev20260728 ? u"server/discover"_s : u"initialize"_s;
    const QJsonObject body = m_options.rev20260728 ? request(method, modernParams(m_version))
                                                   : initializeRequest(m_version);
    Headers headers{{"Origin", "http://sonde-doctor.invalid"}};
    if (m_options.rev20260728)
        headers += modernHeaders(method, m_version);
    send("POST", body, headers, [this](const Answer &a) {
        note(u"http.origin-not-validated"_s);
        if (a.status != 403)
            fail(u"http.origin-not-validated"_s,
                 u"A request with Origin: http://sonde-doctor.invalid got %1, not 403"_s.arg(
                     statusText(a.status)),
                 a);
        // The session it may have opened is closed again.
        if (!a.sessionId.isEmpty()) {
            m_sessionIds << QString::fromLatin1(a.sessionId);
            send("DELETE", {}, {{"Mcp-Session-Id", a.sessionId}}, [](const Answer &) {});
        }
        m_options.rev20260728 ? done() : versionNegotiation();
    });
}

void RawHttpProbes::versionNegotiation()
{
    if (!wanted(u"lifecycle.version-negotiation"_s)) {
        done();
        return;
    }
    send("POST", initializeRequest(u"1999-01-01"_s), {}, [this](const Answer &a) {
        if (!a.sessionId.isEmpty()) {
            m_sessionIds << QString::fromLatin1(a.sessionId);
            send("DELETE", {}, {{"Mcp-Session-Id", a.sessionId}}, [](const Answer &) {});
        }
        note(u"lifecycle.version-negotiation"_s);
        const QString offered =
            a.message.value("result"_L1).toObject().value("protocolVersion"_L1).toString();
        if (offered == "1999-01-01"_L1)
            fail(u"lifecycle.version-negotiation"_s,
                 u"initialize asking for protocol version \"1999-01-01\" was answered with that "
                 u"same version, which no server speaks"_s,
                 a);
        done();
    });
}

// --- 2026-07-28: no sessions; the version and the headers are checked on each request ----

void RawHttpProbes::discover2026()
{
    const QString method = u"server/discover"_s;
    send("POST", request(method, modernParams(m_version)), modernHeaders(method, m_version),
         [this](const Answer &a) {
             if (refusedForAuthorization(a))
                 return;
             checkContentType(a, u"server/discover"_s);
             const QJsonArray versions =
                 a.message.value("result"_L1).toObject().value("supportedVersions"_L1).toArray();
             m_only2026 = versions.size() == 1 &&
                          Rev20260728::isProtocolVersion(versions.first().toString());
             unsupportedVersion2026();
         });
}

void RawHttpProbes::checkContentType(const Answer &a, const QString &what)
{
    if (!wanted(u"http.response-content-type"_s) || a.status < 200 || a.status >= 300)
        return;
    note(u"http.response-content-type"_s);
    if (!a.contentType.startsWith("application/json") &&
        !a.contentType.startsWith("text/event-stream"))
        fail(u"http.response-content-type"_s,
             u"%1 was answered with Content-Type \"%2\""_s.arg(what,
                                                               QString::fromUtf8(a.contentType)),
             a);
}

void RawHttpProbes::unsupportedVersion2026()
{
    if (!wanted(u"versioning.unsupported-version-error"_s)) {
        headerMismatch2026();
        return;
    }
    const QString method = u"server/discover"_s;
    send("POST", request(method, modernParams(u"1999-01-01"_s)),
         modernHeaders(method, u"1999-01-01"_s), [this](const Answer &a) {
             note(u"versioning.unsupported-version-error"_s);
             const QJsonArray supported = a.message.value("error"_L1)
                                              .toObject()
                                              .value("data"_L1)
                                              .toObject()
                                              .value("supported"_L1)
                                              .toArray();
             if (errorCode(a.message) != Rev20260728::UnsupportedProtocolVersion || a.status != 400)
                 fail(u"versioning.unsupported-version-error"_s,
                      u"server/discover for protocol version \"1999-01-01\" got %1%2, not 400 "
                      u"with -32022"_s.arg(statusText(a.status),
                                           errorCode(a.message)
                                               ? u" with error %1"_s.arg(errorCode(a.message))
                                               : QString()),
                      a);
             else if (supported.isEmpty())
                 fail(u"versioning.unsupported-version-error"_s,
                      u"The -32022 error lists no supported versions (data.supported)"_s, a);
             headerMismatch2026();
         });
}

void RawHttpProbes::headerMismatch2026()
{
    auto next = [this] {
        if (!wanted(u"http.unknown-method-status"_s)) {
            get2026();
            return;
        }
        const QString method = u"sonde/doctor-unknown-method"_s;
        send("POST", request(method, modernParams(m_version)), modernHeaders(method, m_version),
             [this](const Answer &a) {
                 note(u"http.unknown-method-status"_s);
                 if (a.status != 404 || errorCode(a.message) != -32601)
                     fail(u"http.unknown-method-status"_s,
                          u"An unknown method got %1 with error %2, not 404 with -32601"_s
                              .arg(statusText(a.status))
                              .arg(errorCode(a.message)),
                          a);
                 // The required _meta, left out.
                 if (!wanted(u"rev20260728.missing-meta-accepted"_s)) {
                     get2026();
                     return;
                 }
                 send("POST", request(u"tools/list"_s), modernHeaders(u"tools/list"_s, m_version),
                      [this](const Answer &b) {
                          note(u"rev20260728.missing-meta-accepted"_s);
                          if (b.status != 400 || errorCode(b.message) != -32602)
                              fail(u"rev20260728.missing-meta-accepted"_s,
                                   u"tools/list without _meta got %1 with error %2, not 400 "
                                   u"with -32602"_s.arg(statusText(b.status))
                                       .arg(errorCode(b.message)),
                                   b);
                          get2026();
                      });
             });
    };
    if (!wanted(u"http.header-mismatch-not-rejected"_s)) {
        next();
        return;
    }
    send("POST", request(u"tools/list"_s, modernParams(m_version)),
         modernHeaders(u"prompts/list"_s, m_version), [this, next](const Answer &a) {
             note(u"http.header-mismatch-not-rejected"_s);
             const bool methodRefused =
                 a.status == 400 && errorCode(a.message) == Rev20260728::HeaderMismatch;
             if (!methodRefused)
                 fail(u"http.header-mismatch-not-rejected"_s,
                      u"tools/list sent with Mcp-Method: prompts/list got %1%2, not 400 with "
                      u"-32020"_s.arg(statusText(a.status),
                                      errorCode(a.message)
                                          ? u" with error %1"_s.arg(errorCode(a.message))
                                          : QString()),
                      a);
             if (m_options.resourceUri.isEmpty() || !methodRefused) {
                 next();
                 return;
             }
             // Mcp-Name too, on a read (never a call: a server that does not check would run it).
             Headers headers = modernHeaders(u"resources/read"_s, m_version);
             headers.append(
                 qMakePair(QByteArray("Mcp-Name"), QByteArray("sonde-doctor://another-resource")));
             QJsonObject params = modernParams(m_version);
             params.insert("uri"_L1, m_options.resourceUri);
             send("POST", request(u"resources/read"_s, params), headers,
                  [this, next](const Answer &b) {
                      if (b.status != 400 || errorCode(b.message) != Rev20260728::HeaderMismatch)
                          fail(u"http.header-mismatch-not-rejected"_s,
                               u"resources/read with an Mcp-Name naming another resource got "
                               u"%1, not 400 with -32020"_s.arg(statusText(b.status)),
                               b);
                      next();
                  });
         });
}

void RawHttpProbes::get2026()
{
    if (!wanted(u"http.get-not-405"_s)) {
        foreignOrigin();
        return;
    }
    if (!m_only2026) {
        // A dual-era server serves GET and DELETE to its 2025-11-25 clients.
        skip(u"http.get-not-405"_s, u"the server also speaks earlier revisions"_s);
        foreignOrigin();
        return;
    }
    send(
        "GET", {}, {{"MCP-Protocol-Version", m_version.toUtf8()}},
        [this](const Answer &get) {
            send("DELETE", {}, {{"MCP-Protocol-Version", m_version.toUtf8()}},
                 [this, get](const Answer &del) {
                     note(u"http.get-not-405"_s);
                     if (get.status != 0 && get.status != 405)
                         fail(u"http.get-not-405"_s,
                              u"GET got %1, not 405"_s.arg(statusText(get.status)), get);
                     else if (del.status != 405)
                         fail(u"http.get-not-405"_s,
                              u"DELETE got %1, not 405"_s.arg(statusText(del.status)), del);
                     foreignOrigin();
                 });
        },
        true);
}

void RawHttpProbes::done()
{
    if (std::exchange(m_finished, true))
        return;
    QTimer::singleShot(0, this, &RawHttpProbes::finished);
}

} // namespace Sonde
