// SPDX-License-Identifier: MIT
// The Authorizer with the HeadlessUserAgent against a small authorization server and
// protected resource in this process (one origin on 127.0.0.1: protected resource metadata,
// authorization server metadata, registration, authorize, token), and the LoopbackUserAgent's
// listener. Requests are counted on the server's side of the wire.
#include "auth/authhttpclient.h"
#include "auth/authorizer.h"
#include "auth/headlessuseragent.h"
#include "auth/loopbackuseragent.h"
#include "auth/pkce.h"
#include "secrets/secretstore.h"
#include "util/clock.h"

#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkInterface>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QUrlQuery>

#include <functional>
#include <optional>

using namespace Qt::StringLiterals;
using namespace Sonde;

namespace {

struct HttpRequest
{
    QByteArray method;
    QString path;
    QUrlQuery query;
    QMap<QByteArray, QByteArray> headers; // names lower-case
    QByteArray body;
    QUrlQuery form() const
    {
        QByteArray b = body;
        return QUrlQuery(QString::fromUtf8(b.replace('+', "%20")));
    }
    QString formValue(const QString &key) const
    {
        return form().queryItemValue(key, QUrl::FullyDecoded);
    }
};

QByteArray httpResponse(int status, const QByteArray &contentType, const QByteArray &body,
                        const QByteArray &extra = {})
{
    QByteArray r = "HTTP/1.1 " + QByteArray::number(status) + " X\r\n";
    if (!contentType.isEmpty())
        r += "Content-Type: " + contentType + "\r\n";
    return r + extra + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

QByteArray jsonResponse(int status, const QJsonObject &o)
{
    return httpResponse(status, "application/json",
                        QJsonDocument(o).toJson(QJsonDocument::Compact));
}

// A tiny HTTP/1.1 responder: one route per "METHOD /path", everything else 404; every request
// is kept, so tests count what reached the server.
class MiniHttpServer : public QObject
{
public:
    using Route = std::function<QByteArray(const HttpRequest &)>;
    MiniHttpServer()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                s->setParent(this);
                connect(s, &QTcpSocket::readyRead, this, [this, s] { read(s); });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    QString origin() const { return u"http://127.0.0.1:%1"_s.arg(m_server.serverPort()); }
    QUrl url(const QString &path) const { return QUrl(origin() + path); }
    void on(const QByteArray &method, const QString &path, Route route)
    {
        m_routes.insert(method + ' ' + path.toUtf8(), std::move(route));
    }
    void off(const QByteArray &method, const QString &path)
    {
        m_routes.remove(method + ' ' + path.toUtf8());
    }
    int count(const QByteArray &method, const QString &path) const
    {
        return int(std::count_if(requests.cbegin(), requests.cend(), [&](const HttpRequest &r) {
            return r.method == method && r.path == path;
        }));
    }
    QList<HttpRequest> requests;

private:
    void read(QTcpSocket *s)
    {
        QByteArray &buf = m_buffers[s];
        buf += s->readAll();
        for (;;) {
            const qsizetype end = buf.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            HttpRequest r;
            const QList<QByteArray> lines = buf.left(end).split('\n');
            const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
            r.method = first.value(0);
            const QUrl target = QUrl::fromEncoded(first.value(1));
            r.path = target.path();
            r.query = QUrlQuery(target.query(QUrl::FullyEncoded));
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const qsizetype colon = lines[i].indexOf(':');
                if (colon > 0)
                    r.headers.insert(lines[i].left(colon).trimmed().toLower(),
                                     lines[i].mid(colon + 1).trimmed());
            }
            const qsizetype length = r.headers.value("content-length").toLongLong();
            if (buf.size() < end + 4 + length)
                return;
            r.body = buf.mid(end + 4, length);
            buf.remove(0, end + 4 + length);
            requests.append(r);
            const auto route = m_routes.constFind(r.method + ' ' + r.path.toUtf8());
            const QByteArray answer = route == m_routes.constEnd()
                                          ? httpResponse(404, "text/plain", "not found")
                                          : (*route)(r);
            if (answer == "hang")
                continue;           // never answered
            if (answer.isEmpty()) { // the connection closes without a response byte
                m_buffers.remove(s);
                s->abort();
                return;
            }
            s->write(answer);
        }
    }

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    QHash<QByteArray, Route> m_routes;
};

// An authorization server and protected resource on one MiniHttpServer, configurable the ways
// the conformance scenarios vary them.
struct AuthServer
{
    MiniHttpServer http;
    QString prmPath = u"/.well-known/oauth-protected-resource/mcp"_s;
    QString issuerPath; // "" : the origin is the issuer
    QJsonObject asExtra;
    QStringList authMethods{u"client_secret_basic"_s, u"client_secret_post"_s};
    QString issMode = u"omit"_s; // omit, correct, wrong, normalized
    bool issAdvertised = false;
    bool registerWithSecret = true;
    std::optional<QByteArray> tokenAnswer; // replaces the token endpoint's answer
    bool refuseRefresh = false;
    int tokenLifetime = 3600;
    int issued = 0;
    QString prmResource; // default: the MCP URL
    QString prmIssuer;   // default: this server's issuer (another one: a migration)
    bool servePrm = true;
    bool serveAsMetadata = true;

    QString issuer() const { return QString(http.origin() + issuerPath); }
    QUrl mcpUrl() const { return http.url(u"/mcp"_s); }
    bool start()
    {
        if (!http.listen())
            return false;
        routes();
        return true;
    }
    void routes()
    {
        http.on("GET", prmPath, [this](const HttpRequest &) {
            if (!servePrm)
                return httpResponse(404, "text/plain", "no");
            return jsonResponse(
                200, {{"resource"_L1, prmResource.isEmpty() ? mcpUrl().toString() : prmResource},
                      {"authorization_servers"_L1,
                       QJsonArray{prmIssuer.isEmpty() ? issuer() : prmIssuer}},
                      {"scopes_supported"_L1, QJsonArray{u"mcp:read"_s}}});
        });
        const QString asPath = issuerPath.isEmpty()
                                   ? u"/.well-known/oauth-authorization-server"_s
                                   : u"/.well-known/oauth-authorization-server"_s + issuerPath;
        http.on("GET", asPath, [this](const HttpRequest &) {
            if (!serveAsMetadata)
                return httpResponse(404, "text/plain", "no");
            QJsonObject o{{"issuer"_L1, issuer()},
                          {"authorization_endpoint"_L1, QString(http.origin() + u"/authorize"_s)},
                          {"token_endpoint"_L1, QString(http.origin() + u"/token"_s)},
                          {"registration_endpoint"_L1, QString(http.origin() + u"/register"_s)},
                          {"code_challenge_methods_supported"_L1, QJsonArray{u"S256"_s}},
                          {"token_endpoint_auth_methods_supported"_L1,
                           QJsonArray::fromStringList(authMethods)}};
            if (issAdvertised)
                o.insert("authorization_response_iss_parameter_supported"_L1, true);
            for (auto it = asExtra.begin(); it != asExtra.end(); ++it)
                o.insert(it.key(), it.value());
            return jsonResponse(200, o);
        });
        http.on("POST", u"/register"_s, [this](const HttpRequest &r) {
            const QJsonObject req = QJsonDocument::fromJson(r.body).object();
            QJsonObject o{{"client_id"_L1, u"registered-client"_s},
                          {"redirect_uris"_L1, req.value("redirect_uris"_L1)}};
            if (registerWithSecret) {
                o.insert("client_secret"_L1, u"registered-secret"_s);
                o.insert("token_endpoint_auth_method"_L1,
                         req.value("token_endpoint_auth_method"_L1));
            }
            return jsonResponse(201, o);
        });
        http.on("GET", u"/authorize"_s, [this](const HttpRequest &r) {
            QUrl to(r.query.queryItemValue(u"redirect_uri"_s, QUrl::FullyDecoded));
            QUrlQuery q;
            q.addQueryItem(u"code"_s, u"the-code"_s);
            q.addQueryItem(u"state"_s, r.query.queryItemValue(u"state"_s, QUrl::FullyDecoded));
            const QString iss = issMode == "correct"_L1      ? issuer()
                                : issMode == "wrong"_L1      ? u"https://evil.example.com"_s
                                : issMode == "normalized"_L1 ? issuer() + u'/'
                                                             : QString();
            if (!iss.isEmpty())
                q.addQueryItem(u"iss"_s, QString::fromLatin1(QUrl::toPercentEncoding(iss)));
            to.setQuery(q);
            return httpResponse(302, {}, {}, "Location: " + to.toEncoded() + "\r\n");
        });
        http.on("POST", u"/token"_s, [this](const HttpRequest &r) {
            if (tokenAnswer)
                return *tokenAnswer;
            if (r.formValue(u"grant_type"_s) == "refresh_token"_L1 && refuseRefresh)
                return jsonResponse(400, {{"error"_L1, u"invalid_grant"_s}});
            ++issued;
            QJsonObject o{{"access_token"_L1, u"access-%1"_s.arg(issued)},
                          {"token_type"_L1, u"Bearer"_s},
                          {"expires_in"_L1, tokenLifetime},
                          {"refresh_token"_L1, u"refresh-%1"_s.arg(issued)}};
            if (const QString scope = r.formValue(u"scope"_s); !scope.isEmpty())
                o.insert("scope"_L1, scope);
            return jsonResponse(200, o);
        });
    }
    QList<HttpRequest> requestsTo(const QByteArray &method, const QString &path) const
    {
        QList<HttpRequest> out;
        for (const HttpRequest &r : http.requests)
            if (r.method == method && r.path == path)
                out.append(r);
        return out;
    }
};

class MemoryStore final : public SecretStore
{
public:
    void read(const QString &key,
              std::function<void(std::optional<QByteArray>, QString)> done) override
    {
        done(values.contains(key) ? std::optional(values.value(key)) : std::nullopt, {});
    }
    void write(const QString &key, const QByteArray &value,
               std::function<void(QString)> done) override
    {
        values.insert(key, value);
        done({});
    }
    void remove(const QString &key, std::function<void(QString)> done) override
    {
        values.remove(key);
        done({});
    }
    QString kind() const override { return u"memory"_s; }
    QHash<QString, QByteArray> values;
};

HttpAuthorization::Challenge challenge401(const AuthServer &s, bool hadCredentials = false,
                                          const QByteArray &scope = {})
{
    HttpAuthorization::Challenge c;
    c.status = 401;
    QByteArray h = "Bearer resource_metadata=\"" + s.http.url(s.prmPath).toEncoded() + '"';
    if (!scope.isEmpty())
        h += ", scope=\"" + scope + '"';
    c.wwwAuthenticate = {h};
    c.hadCredentials = hadCredentials;
    return c;
}

HttpAuthorization::Challenge insufficientScope(const QByteArray &scope)
{
    HttpAuthorization::Challenge c;
    c.status = 403;
    c.wwwAuthenticate = {"Bearer error=\"insufficient_scope\", scope=\"" + scope + '"'};
    c.hadCredentials = true;
    return c;
}

} // namespace

class TestAuthFlow : public QObject
{
    Q_OBJECT

    struct Run
    {
        std::optional<HttpAuthorization::Verdict> verdict;
    };

    ServerConfig configFor(const AuthServer &s) const
    {
        ServerConfig c;
        c.name = u"auth-test"_s;
        c.url = s.mcpUrl();
        c.auth.agent = ServerConfig::Auth::Agent::Headless;
        return c;
    }
    std::unique_ptr<Authorizer> makeAuthorizer(const ServerConfig &config,
                                               SecretStore *store = nullptr)
    {
        return std::make_unique<Authorizer>(
            config, &m_nam, std::make_unique<HeadlessUserAgent>(&m_nam), store, m_clock);
    }
    static HttpAuthorization::Verdict challenge(Authorizer &a,
                                                const HttpAuthorization::Challenge &c)
    {
        std::optional<HttpAuthorization::Verdict> v;
        a.challenged(c, [&v](HttpAuthorization::Verdict got) { v = got; });
        if (!QTest::qWaitFor([&v] { return v.has_value(); }, 10'000))
            return {false, Error(Error::Kind::Timeout, u"test: no verdict"_s)};
        return *v;
    }

    QNetworkAccessManager m_nam;
    ManualClock m_clock;

private Q_SLOTS:
    void aFirst401RunsTheWholeFlowAndRetries()
    {
        AuthServer server;
        QVERIFY(server.start());
        MemoryStore store;
        auto authorizer = makeAuthorizer(configFor(server), &store);
        QSignalSpy steps(authorizer.get(), &Authorizer::stepRecorded);
        QVERIFY(authorizer->header().isEmpty());

        const auto verdict = challenge(*authorizer, challenge401(server, false, "mcp:read"));
        QVERIFY2(verdict.retry, qPrintable(verdict.error.message()));
        QCOMPARE(authorizer->header(), "Bearer access-1"_ba);

        QCOMPARE(server.http.count("GET", server.prmPath), 1);
        QCOMPARE(server.http.count("GET", u"/.well-known/oauth-authorization-server"_s), 1);
        QCOMPARE(server.http.count("POST", u"/register"_s), 1);
        QCOMPARE(server.http.count("GET", u"/authorize"_s), 1);
        QCOMPARE(server.http.count("POST", u"/token"_s), 1);

        const QJsonObject registration =
            QJsonDocument::fromJson(server.requestsTo("POST", u"/register"_s).value(0).body)
                .object();
        QCOMPARE(registration.value("application_type"_L1).toString(), u"native"_s);
        QCOMPARE(registration.value("redirect_uris"_L1).toArray().size(), 1);

        const HttpRequest authorize = server.requestsTo("GET", u"/authorize"_s).value(0);
        const auto param = [&authorize](const QString &k) {
            return authorize.query.queryItemValue(k, QUrl::FullyDecoded);
        };
        QCOMPARE(param(u"response_type"_s), u"code"_s);
        QCOMPARE(param(u"client_id"_s), u"registered-client"_s);
        QCOMPARE(param(u"code_challenge_method"_s), u"S256"_s);
        QCOMPARE(param(u"resource"_s), server.mcpUrl().toString());
        QCOMPARE(param(u"scope"_s), u"mcp:read"_s);
        QVERIFY(!param(u"state"_s).isEmpty());

        const HttpRequest token = server.requestsTo("POST", u"/token"_s).value(0);
        QCOMPARE(token.formValue(u"grant_type"_s), u"authorization_code"_s);
        QCOMPARE(token.formValue(u"code"_s), u"the-code"_s);
        QCOMPARE(token.formValue(u"resource"_s), server.mcpUrl().toString());
        QCOMPARE(token.formValue(u"redirect_uri"_s), param(u"redirect_uri"_s));
        QCOMPARE(
            QString::fromLatin1(Pkce::challenge(token.formValue(u"code_verifier"_s).toLatin1())),
            param(u"code_challenge"_s));
        // The AS takes no public clients: the registered secret goes in HTTP Basic.
        QCOMPARE(token.headers.value("authorization"),
                 "Basic " + "registered-client:registered-secret"_ba.toBase64());

        const AuthState state = authorizer->state();
        QCOMPARE(state.status, AuthState::Status::Authorized);
        QCOMPARE(state.issuer, server.issuer());
        QCOMPARE(state.clientIdSource, u"dynamic-registration"_s);
        QCOMPARE(state.scopes, QStringList{u"mcp:read"_s});
        QVERIFY(state.hasRefreshToken);
        QStringList names;
        for (const AuthStep &s : state.steps)
            names.append(s.name);
        QCOMPARE(names, (QStringList{u"protected-resource-metadata"_s, u"authorization-server"_s,
                                     u"authorization-server-metadata"_s, u"client-identity"_s,
                                     u"client-registration"_s, u"authorization"_s, u"token"_s}));
        QCOMPARE(steps.count(), names.size());
        // Nothing secret in any step, nor in the state.
        const QByteArray shown = QJsonDocument(state.toJson()).toJson();
        for (const QByteArray &secret :
             {"access-1"_ba, "refresh-1"_ba, "the-code"_ba, "registered-secret"_ba,
              token.formValue(u"code_verifier"_s).toLatin1()})
            QVERIFY2(!shown.contains(secret), secret.constData());

        // The tokens are in the store, under the server's name.
        QVERIFY(store.values.contains(u"oauth/auth-test"_s));
        QVERIFY(store.values.value(u"oauth/auth-test"_s).contains("access-1"));
        auto again = makeAuthorizer(configFor(server), &store);
        bool loaded = false;
        again->loadStored([&loaded] { loaded = true; });
        QTRY_VERIFY(loaded);
        QCOMPARE(again->header(), "Bearer access-1"_ba);
        QCOMPARE(again->state().status, AuthState::Status::Authorized);
    }

    void aStored401WithARefreshTokenRefreshesWithoutANewFlow()
    {
        AuthServer server;
        QVERIFY(server.start());
        auto authorizer = makeAuthorizer(configFor(server));
        QVERIFY(challenge(*authorizer, challenge401(server)).retry);
        QCOMPARE(authorizer->header(), "Bearer access-1"_ba);

        const auto verdict = challenge(*authorizer, challenge401(server, true));
        QVERIFY2(verdict.retry, qPrintable(verdict.error.message()));
        QCOMPARE(authorizer->header(), "Bearer access-2"_ba);
        QCOMPARE(server.http.count("GET", u"/authorize"_s), 1); // no second authorization
        const QList<HttpRequest> tokens = server.requestsTo("POST", u"/token"_s);
        QCOMPARE(tokens.size(), 2); // one per grant
        QCOMPARE(tokens.at(1).formValue(u"grant_type"_s), u"refresh_token"_s);
        QCOMPARE(tokens.at(1).formValue(u"refresh_token"_s), u"refresh-1"_s);
        QCOMPARE(tokens.at(1).formValue(u"resource"_s), server.mcpUrl().toString());
        QCOMPARE(authorizer->state().steps.constLast().name, u"refresh"_s);

        // The refreshed token refused too: the grant is no good, a whole flow follows.
        const auto again = challenge(*authorizer, challenge401(server, true));
        QVERIFY2(again.retry, qPrintable(again.error.message()));
        QCOMPARE(server.http.count("GET", u"/authorize"_s), 2);
        QCOMPARE(server.http.count("POST", u"/register"_s), 1); // the registration is reused
    }

    void aRefusedRefreshNeedsReauthorization()
    {
        AuthServer server;
        QVERIFY(server.start());
        auto authorizer = makeAuthorizer(configFor(server));
        QVERIFY(challenge(*authorizer, challenge401(server)).retry);
        server.refuseRefresh = true;
        const auto verdict = challenge(*authorizer, challenge401(server, true));
        QVERIFY(!verdict.retry);
        QVERIFY2(verdict.error.message().startsWith("needs_reauth: "_L1),
                 qPrintable(verdict.error.message()));
        QVERIFY(verdict.error.message().contains("invalid_grant"_L1));
        QCOMPARE(authorizer->state().status, AuthState::Status::NeedsReauth);
        QVERIFY(!authorizer->state().hasRefreshToken);
        QCOMPARE(server.http.count("GET", u"/authorize"_s), 1); // no browser opened unasked
    }

    void theTokenIsRefreshedBeforeItExpires()
    {
        AuthServer server;
        server.tokenLifetime = 100; // refreshed after 80 s
        QVERIFY(server.start());
        auto authorizer = makeAuthorizer(configFor(server));
        QVERIFY(challenge(*authorizer, challenge401(server)).retry);
        QCOMPARE(authorizer->state().expiresAtMs, m_clock.nowMs() + 100'000);
        QCOMPARE(m_clock.nextDeadlineMs(), m_clock.nowMs() + 80'000);
        m_clock.advance(79'999);
        QCOMPARE(authorizer->state().steps.constLast().name, u"token"_s); // no refresh yet
        m_clock.advance(1);
        QTRY_COMPARE(authorizer->header(), "Bearer access-2"_ba);
        QCOMPARE(server.http.count("POST", u"/token"_s), 2);
    }

    void stepUpAsksForTheUnionUpToTheLimit()
    {
        AuthServer server;
        QVERIFY(server.start());
        auto config = configFor(server);
        config.auth.stepUpLimit = 2;
        auto authorizer = makeAuthorizer(config);
        QVERIFY(challenge(*authorizer, challenge401(server, false, "mcp:read")).retry);

        const auto up = challenge(*authorizer, insufficientScope("mcp:write"));
        QVERIFY2(up.retry, qPrintable(up.error.message()));
        QCOMPARE(server.requestsTo("GET", u"/authorize"_s)
                     .value(1)
                     .query.queryItemValue(u"scope"_s, QUrl::FullyDecoded),
                 u"mcp:read mcp:write"_s);
        QCOMPARE(authorizer->state().scopes, (QStringList{u"mcp:read"_s, u"mcp:write"_s}));

        QVERIFY(challenge(*authorizer, insufficientScope("mcp:write")).retry);
        const auto limit = challenge(*authorizer, insufficientScope("mcp:write"));
        QVERIFY(!limit.retry);
        QVERIFY2(limit.error.message().startsWith("needs_reauth: step-up"_L1),
                 qPrintable(limit.error.message()));
        QCOMPARE(server.http.count("GET", u"/authorize"_s), 3); // 1 + the limit of 2
    }

    void aForbiddenRequestWithoutInsufficientScopeIsNotAFlow()
    {
        AuthServer server;
        QVERIFY(server.start());
        auto authorizer = makeAuthorizer(configFor(server));
        HttpAuthorization::Challenge c;
        c.status = 403;
        c.wwwAuthenticate = {"Bearer error=\"invalid_token\""};
        const auto verdict = challenge(*authorizer, c);
        QVERIFY(!verdict.retry);
        QCOMPARE(verdict.error.httpStatus(), 403);
        QVERIFY(server.http.requests.isEmpty());
    }

    void theIssParameterIsChecked_data()
    {
        QTest::addColumn<bool>("advertised");
        QTest::addColumn<QString>("mode");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("advertised and correct is used") << true << u"correct"_s << true;
        QTest::newRow("not advertised and absent is used") << false << u"omit"_s << true;
        QTest::newRow("advertised and absent is refused") << true << u"omit"_s << false;
        QTest::newRow("advertised and wrong is refused") << true << u"wrong"_s << false;
        QTest::newRow("not advertised and wrong is refused") << false << u"wrong"_s << false;
        QTest::newRow("a trailing slash added is refused") << true << u"normalized"_s << false;
    }
    void theIssParameterIsChecked()
    {
        QFETCH(bool, advertised);
        QFETCH(QString, mode);
        QFETCH(bool, accepted);
        AuthServer server;
        server.issAdvertised = advertised;
        server.issMode = mode;
        QVERIFY(server.start());
        auto authorizer = makeAuthorizer(configFor(server));
        const auto verdict = challenge(*authorizer, challenge401(server));
        QCOMPARE(verdict.retry, accepted);
        // A refused response's code never reaches the token endpoint.
        QCOMPARE(server.http.count("POST", u"/token"_s), accepted ? 1 : 0);
        if (!accepted) {
            QVERIFY2(verdict.error.message().startsWith("needs_reauth: authorization: "_L1),
                     qPrintable(verdict.error.message()));
            QVERIFY(verdict.error.message().contains("RFC 9207"_L1));
        }
    }

    void aTokenEndpointThatAnswersHtmlIsAClearError()
    {
        AuthServer server;
        server.tokenAnswer =
            httpResponse(200, "text/html; charset=utf-8", "<!doctype html><title>Login</title>");
        QVERIFY(server.start());
        auto authorizer = makeAuthorizer(configFor(server));
        const auto verdict = challenge(*authorizer, challenge401(server));
        QVERIFY(!verdict.retry);
        QVERIFY2(verdict.error.message().startsWith(
                     "needs_reauth: token: the token endpoint answered HTTP 200 with text/html"_L1),
                 qPrintable(verdict.error.message()));
        QVERIFY(verdict.error.message().contains("<!doctype html>"_L1));
        QCOMPARE(server.http.count("POST", u"/token"_s), 1);
        QCOMPARE(authorizer->state().status, AuthState::Status::Failed);
        QVERIFY(!authorizer->state().steps.constLast().ok);
    }

    void aTokenEndpointThatDropsTheConnectionGetsOnePost()
    {
        AuthServer server;
        QVERIFY(server.start());
        // The connection closes without a byte: Qt would re-send a rewindable POST by itself,
        // and a code is single-use (a rotating refresh token would be spent too).
        server.http.on("POST", u"/token"_s, [](const HttpRequest &) { return QByteArray(); });
        auto authorizer = makeAuthorizer(configFor(server));
        const auto verdict = challenge(*authorizer, challenge401(server));
        QVERIFY(!verdict.retry);
        QCOMPARE(server.http.count("POST", u"/token"_s), 1);
    }

    void aLoginWithoutAChallengeStartsFromTheWellKnownMetadata()
    {
        AuthServer server;
        QVERIFY(server.start());
        auto authorizer = makeAuthorizer(configFor(server));
        std::optional<HttpAuthorization::Verdict> verdict;
        authorizer->login([&verdict](auto v) { verdict = v; });
        QTRY_VERIFY(verdict.has_value());
        QVERIFY2(verdict->retry, qPrintable(verdict->error.message()));
        QCOMPARE(server.http.requests.value(0).path, server.prmPath);
        // No challenge scope: the protected resource's scopes_supported.
        QCOMPARE(server.requestsTo("GET", u"/authorize"_s)
                     .value(0)
                     .query.queryItemValue(u"scope"_s, QUrl::FullyDecoded),
                 u"mcp:read"_s);
    }

    void everyRequestHasABodyLimitAndATimeout()
    {
        MiniHttpServer http;
        QVERIFY(http.listen());
        http.on("GET", u"/big"_s, [](const HttpRequest &) {
            return httpResponse(200, "application/json", QByteArray(5000, ' ') + "{}");
        });
        http.on("GET", u"/silent"_s, [](const HttpRequest &) { return "hang"_ba; });
        AuthHttpClient client(&m_nam, m_clock, 300, 1000);
        QObject context;
        std::optional<AuthHttpClient::Answer> big, silent;
        client.get(http.url(u"/big"_s), &context, [&big](auto a) { big = a; });
        client.get(http.url(u"/silent"_s), &context, [&silent](auto a) { silent = a; });
        QTRY_VERIFY(big.has_value());
        QCOMPARE(big->status, 0);
        QCOMPARE(big->error, u"the answer is over 1000 bytes"_s);
        QTRY_VERIFY(silent.has_value());
        QCOMPARE(silent->status, 0);
        QCOMPARE(silent->error, u"no answer within the request timeout"_s);
    }

    void withoutMetadataThe20250326DefaultsAreUsed()
    {
        AuthServer server;
        server.servePrm = false;
        server.serveAsMetadata = false;
        QVERIFY(server.start());
        auto authorizer = makeAuthorizer(configFor(server));
        HttpAuthorization::Challenge c;
        c.status = 401;
        c.wwwAuthenticate = {"Bearer"};
        const auto verdict = challenge(*authorizer, c);
        QVERIFY2(verdict.retry, qPrintable(verdict.error.message()));
        QCOMPARE(server.http.count("GET", u"/.well-known/oauth-protected-resource/mcp"_s), 1);
        QCOMPARE(server.http.count("GET", u"/.well-known/oauth-protected-resource"_s), 1);
        QCOMPARE(server.http.count("GET", u"/.well-known/oauth-authorization-server"_s), 1);
        QCOMPARE(server.http.count("GET", u"/.well-known/openid-configuration"_s), 1);
        QCOMPARE(server.http.count("POST", u"/register"_s), 1);
        QCOMPARE(authorizer->state().issuer, server.http.origin());
        // The resource indicator is the server's URL when no metadata names one.
        QCOMPARE(server.requestsTo("POST", u"/token"_s).value(0).formValue(u"resource"_s),
                 server.mcpUrl().toString());
    }

    void metadataThatDoesNotFitStopsTheFlowBeforeAuthorization_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("error");
        QTest::newRow("a resource for another server (resource-mismatch)")
            << u"resource"_s << u"auth/resource-mismatch"_s;
        QTest::newRow("metadata naming another issuer (metadata-issuer-mismatch)")
            << u"issuer"_s << u"auth/metadata-issuer-mismatch"_s;
        QTest::newRow("an authorization server without PKCE") << u"pkce"_s << u"PKCE"_s;
    }
    void metadataThatDoesNotFitStopsTheFlowBeforeAuthorization()
    {
        QFETCH(QString, what);
        QFETCH(QString, error);
        AuthServer server;
        if (what == "resource"_L1)
            server.prmResource = u"https://evil.example.com/mcp"_s;
        else if (what == "issuer"_L1)
            server.asExtra.insert("issuer"_L1, u"https://evil.example.com"_s);
        else
            server.asExtra.insert("code_challenge_methods_supported"_L1, QJsonArray{u"plain"_s});
        QVERIFY(server.start());
        auto authorizer = makeAuthorizer(configFor(server));
        const auto verdict = challenge(*authorizer, challenge401(server));
        QVERIFY(!verdict.retry);
        QVERIFY2(verdict.error.message().contains(error), qPrintable(verdict.error.message()));
        QCOMPARE(server.http.count("POST", u"/register"_s), 0);
        QCOMPARE(server.http.count("GET", u"/authorize"_s), 0);
    }

    void thePathVariantsOfServerMetadataAreTriedInOrder()
    {
        AuthServer server;
        server.issuerPath = u"/tenant1"_s;
        QVERIFY(server.start());
        // Served only at the third place: OIDC with the path appended.
        server.http.off("GET", u"/.well-known/oauth-authorization-server/tenant1"_s);
        const QJsonObject doc{
            {"issuer"_L1, server.issuer()},
            {"authorization_endpoint"_L1, QString(server.http.origin() + u"/authorize"_s)},
            {"token_endpoint"_L1, QString(server.http.origin() + u"/token"_s)},
            {"registration_endpoint"_L1, QString(server.http.origin() + u"/register"_s)},
            {"code_challenge_methods_supported"_L1, QJsonArray{u"S256"_s}}};
        server.http.on("GET", u"/tenant1/.well-known/openid-configuration"_s,
                       [doc](const HttpRequest &) { return jsonResponse(200, doc); });
        auto authorizer = makeAuthorizer(configFor(server));
        const auto verdict = challenge(*authorizer, challenge401(server));
        QVERIFY2(verdict.retry, qPrintable(verdict.error.message()));
        QStringList asked;
        for (const HttpRequest &r : std::as_const(server.http.requests))
            if (r.path.contains(".well-known/o"_L1))
                asked.append(r.path);
        QCOMPARE(asked, (QStringList{u"/.well-known/oauth-protected-resource/mcp"_s,
                                     u"/.well-known/oauth-authorization-server/tenant1"_s,
                                     u"/.well-known/openid-configuration/tenant1"_s,
                                     u"/tenant1/.well-known/openid-configuration"_s}));
    }

    void aPreRegisteredClientAuthenticatesAsAdvertised_data()
    {
        QTest::addColumn<QStringList>("offered");
        QTest::addColumn<QString>("secret");
        QTest::addColumn<QString>("method");
        QTest::newRow("client_secret_basic when the AS offers only that")
            << QStringList{u"client_secret_basic"_s} << u"pre-secret"_s << u"client_secret_basic"_s;
        QTest::newRow("client_secret_post when the AS offers only that")
            << QStringList{u"client_secret_post"_s} << u"pre-secret"_s << u"client_secret_post"_s;
        QTest::newRow("none for a public pre-registered client")
            << QStringList{u"none"_s} << QString() << u"none"_s;
    }
    void aPreRegisteredClientAuthenticatesAsAdvertised()
    {
        QFETCH(QStringList, offered);
        QFETCH(QString, secret);
        QFETCH(QString, method);
        AuthServer server;
        server.authMethods = offered;
        QVERIFY(server.start());
        auto config = configFor(server);
        config.auth.clientId = u"pre-client"_s;
        config.auth.clientSecret = secret;
        auto authorizer = makeAuthorizer(config);
        const auto verdict = challenge(*authorizer, challenge401(server));
        QVERIFY2(verdict.retry, qPrintable(verdict.error.message()));
        QCOMPARE(server.http.count("POST", u"/register"_s), 0);
        const HttpRequest token = server.requestsTo("POST", u"/token"_s).value(0);
        const bool basic = token.headers.value("authorization").startsWith("Basic ");
        QCOMPARE(basic, method == "client_secret_basic"_L1);
        QCOMPARE(token.formValue(u"client_secret"_s),
                 method == "client_secret_post"_L1 ? secret : QString());
        QCOMPARE(token.formValue(u"client_id"_s), basic ? QString() : u"pre-client"_s);
        QCOMPARE(authorizer->state().clientIdSource, u"pre-registered"_s);
    }

    void aClientIdMetadataDocumentIsUsedWhenAdvertised()
    {
        AuthServer server;
        server.asExtra.insert("client_id_metadata_document_supported"_L1, true);
        QVERIFY(server.start());
        auto config = configFor(server);
        config.auth.clientMetadataUrl = QUrl(u"https://sonde.example/oauth/client.json"_s);
        auto authorizer = makeAuthorizer(config);
        const auto verdict = challenge(*authorizer, challenge401(server));
        QVERIFY2(verdict.retry, qPrintable(verdict.error.message()));
        QCOMPARE(server.http.count("POST", u"/register"_s), 0);
        QCOMPARE(server.requestsTo("GET", u"/authorize"_s)
                     .value(0)
                     .query.queryItemValue(u"client_id"_s, QUrl::FullyDecoded),
                 u"https://sonde.example/oauth/client.json"_s);
        QCOMPARE(authorizer->state().clientIdSource, u"cimd"_s);
    }

    void aNewAuthorizationServerGetsANewRegistration()
    {
        AuthServer server;
        AuthServer second;
        QVERIFY(server.start());
        QVERIFY(second.start());
        second.http.on("POST", u"/register"_s, [](const HttpRequest &) {
            return jsonResponse(201, {{"client_id"_L1, u"second-client"_s}});
        });
        auto authorizer = makeAuthorizer(configFor(server));
        QVERIFY(challenge(*authorizer, challenge401(server)).retry);
        server.prmIssuer = second.issuer();

        // As auth/authorization-server-migration does it: the old server still refreshes, but
        // its token is refused; that 401 after a refresh runs the flow, which finds the new
        // server and registers there.
        const auto refreshed = challenge(*authorizer, challenge401(server, true));
        QVERIFY(refreshed.retry);
        QCOMPARE(authorizer->state().steps.constLast().name, u"refresh"_s);
        QCOMPARE(second.http.requests.size(), 0);
        const auto verdict = challenge(*authorizer, challenge401(server, true));
        QVERIFY2(verdict.retry, qPrintable(verdict.error.message()));
        QCOMPARE(second.http.count("POST", u"/register"_s), 1);
        const HttpRequest authorize = second.requestsTo("GET", u"/authorize"_s).value(0);
        QCOMPARE(authorize.query.queryItemValue(u"client_id"_s), u"second-client"_s);
        QCOMPARE(authorizer->state().issuer, second.issuer());
    }

    void aRequestSentWithoutTheCredentialsNowHeldIsJustSentAgain()
    {
        AuthServer server;
        QVERIFY(server.start());
        auto authorizer = makeAuthorizer(configFor(server));
        QVERIFY(challenge(*authorizer, challenge401(server)).retry);
        const int before = server.http.requests.size();
        QVERIFY(challenge(*authorizer, challenge401(server, false)).retry);
        QCOMPARE(server.http.requests.size(), before);
        QCOMPARE(authorizer->header(), "Bearer access-1"_ba);
    }

    void challengesDuringAFlowJoinIt()
    {
        AuthServer server;
        QVERIFY(server.start());
        auto authorizer = makeAuthorizer(configFor(server));
        std::optional<HttpAuthorization::Verdict> a, b;
        authorizer->challenged(challenge401(server), [&a](auto v) { a = v; });
        authorizer->challenged(challenge401(server), [&b](auto v) { b = v; });
        QTRY_VERIFY(a && b);
        QVERIFY(a->retry && b->retry);
        QCOMPARE(server.http.count("GET", u"/authorize"_s), 1);
    }

    void signingOutForgetsTheTokensHereAndInTheStore()
    {
        AuthServer server;
        QVERIFY(server.start());
        MemoryStore store;
        auto authorizer = makeAuthorizer(configFor(server), &store);
        QVERIFY(challenge(*authorizer, challenge401(server)).retry);
        QVERIFY(store.values.contains(u"oauth/auth-test"_s));
        bool out = false;
        authorizer->signOut([&out] { out = true; });
        QTRY_VERIFY(out);
        QVERIFY(authorizer->header().isEmpty());
        QVERIFY(!store.values.contains(u"oauth/auth-test"_s));
        QCOMPARE(authorizer->state().status, AuthState::Status::SignedOut);
    }

    void aFlowThatDoesNotCompleteEndsAtItsTimeout()
    {
        AuthServer server;
        QVERIFY(server.start());
        server.http.on("GET", u"/authorize"_s, [](const HttpRequest &) { return "hang"_ba; });
        auto config = configFor(server);
        config.auth.flowTimeoutMs = 120'000;
        auto authorizer = makeAuthorizer(config);
        std::optional<HttpAuthorization::Verdict> verdict;
        authorizer->challenged(challenge401(server), [&verdict](auto v) { verdict = v; });
        QTRY_COMPARE(server.http.count("GET", u"/authorize"_s), 1);
        m_clock.advance(119'999);
        QVERIFY(!verdict);
        m_clock.advance(1);
        QVERIFY(verdict.has_value());
        QVERIFY(!verdict->retry);
        QCOMPARE(verdict->error.message(),
                 u"needs_reauth: the flow did not complete within 120 s"_s);
        QCOMPARE(authorizer->state().status, AuthState::Status::Failed);
        // A new challenge starts a new flow: nothing of the old one is left running.
        server.routes();
        QVERIFY(challenge(*authorizer, challenge401(server)).retry);
    }

    void offlineAccessIsAskedForWhereTheServerListsIt_data()
    {
        QTest::addColumn<bool>("listed");
        QTest::addColumn<QString>("scope");
        QTest::newRow("listed in the AS's scopes_supported: added")
            << true << u"mcp:read offline_access"_s;
        QTest::newRow("not listed: not asked for") << false << u"mcp:read"_s;
    }
    void offlineAccessIsAskedForWhereTheServerListsIt()
    {
        QFETCH(bool, listed);
        QFETCH(QString, scope);
        AuthServer server;
        server.asExtra.insert("scopes_supported"_L1,
                              listed ? QJsonArray{u"mcp:read"_s, u"offline_access"_s}
                                     : QJsonArray{u"mcp:read"_s});
        QVERIFY(server.start());
        auto authorizer = makeAuthorizer(configFor(server));
        QVERIFY(challenge(*authorizer, challenge401(server, false, "mcp:read")).retry);
        QCOMPARE(server.requestsTo("GET", u"/authorize"_s)
                     .value(0)
                     .query.queryItemValue(u"scope"_s, QUrl::FullyDecoded),
                 scope);
    }

    void withAuthorizationOffAChallengeIsJustAnError()
    {
        AuthServer server;
        QVERIFY(server.start());
        auto config = configFor(server);
        config.auth.enabled = false;
        auto authorizer = makeAuthorizer(config);
        const auto verdict = challenge(*authorizer, challenge401(server));
        QVERIFY(!verdict.retry);
        QCOMPARE(verdict.error.httpStatus(), 401);
        QVERIFY(server.http.requests.isEmpty());
    }

    void theLoopbackListenerExistsOnlyDuringTheFlow()
    {
        QUrl opened;
        LoopbackUserAgent agent([&opened](const QUrl &url) { opened = url; }, m_clock, 60'000);
        QCOMPARE(agent.listeningPort(), 0);
        QUrl redirect;
        agent.prepare([&redirect](const QUrl &uri, const QString &) { redirect = uri; });
        QCOMPARE(redirect.host(), u"127.0.0.1"_s);
        const quint16 port = agent.listeningPort();
        QVERIFY(port != 0);
        QCOMPARE(redirect.port(), int(port));
        // Not reachable on any other address of this machine.
        for (const QHostAddress &address : QNetworkInterface::allAddresses()) {
            if (address.isLoopback() || address.protocol() != QAbstractSocket::IPv4Protocol)
                continue;
            QTcpSocket probe;
            probe.connectToHost(address, port);
            QVERIFY2(!probe.waitForConnected(1000), qPrintable(address.toString()));
        }

        std::optional<AuthorizationUserAgent::Response> response;
        // The listener takes the redirect whose state is the authorize URL's.
        const QUrl authorize(u"https://as.example/authorize?state=s%201"_s);
        agent.authorize(authorize,
                        [&response](const AuthorizationUserAgent::Response &r) { response = r; });
        QCOMPARE(opened, authorize);
        QUrl back = redirect;
        back.setQuery(u"code=c%2B1&state=s+1&iss=http%3A%2F%2F127.0.0.1%3A9"_s);
        QNetworkReply *reply = m_nam.get(QNetworkRequest(back));
        QTRY_VERIFY(response.has_value());
        QCOMPARE(response->code, u"c+1"_s);
        QCOMPARE(response->state, u"s 1"_s);
        QVERIFY(response->issPresent);
        QCOMPARE(response->iss, u"http://127.0.0.1:9"_s);
        QTRY_VERIFY(reply->isFinished());
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        reply->deleteLater();
        // One answer: the port is closed at once.
        QCOMPARE(agent.listeningPort(), 0);
        QTcpSocket late;
        late.connectToHost(QHostAddress::LocalHost, port);
        QVERIFY(!late.waitForConnected(1000));
        agent.finish();
    }

    void theLoopbackListenerClosesAfterItsTimeout()
    {
        LoopbackUserAgent agent({}, m_clock, 5'000);
        agent.prepare([](const QUrl &, const QString &) {});
        QVERIFY(agent.listeningPort() != 0);
        std::optional<AuthorizationUserAgent::Response> response;
        agent.authorize(QUrl(u"https://as.example/authorize"_s),
                        [&response](const AuthorizationUserAgent::Response &r) { response = r; });
        m_clock.advance(4'999);
        QVERIFY(!response);
        QVERIFY(agent.listeningPort() != 0);
        m_clock.advance(1);
        QVERIFY(response.has_value());
        QCOMPARE(response->error, u"agent_error"_s);
        QVERIFY(response->errorDescription.contains("5 s"_L1));
        QCOMPARE(agent.listeningPort(), 0);
    }
};

QTEST_GUILESS_MAIN(TestAuthFlow)
#include "tst_authflow.moc"
