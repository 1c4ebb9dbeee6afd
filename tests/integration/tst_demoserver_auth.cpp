// SPDX-License-Identifier: MIT
// sonde-demo-server --auth driven over HTTP with QNetworkAccessManager, as an OAuth client
// would: the 401 challenge, the protected resource and authorization server metadata,
// dynamic client registration, the authorize redirect, the token exchange with PKCE and each
// client authentication method, refresh token rotation, expiry on the server's clock,
// step-up for the write tool and revocation. Most rows run a DemoHttpServer in this process
// with a ManualClock, so expiry needs no waiting; the last ones run the executable, to show
// the options reach it and that without --auth nothing changed.
#include "demohttpserver.h"
#include "demostate.h"
#include "testpaths.h"
#include "util/clock.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>
#include <QUrlQuery>

#include <memory>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

using Fields = QList<QPair<QString, QString>>;

struct Answer
{
    int status = -1; // -1: no answer in time
    QByteArray body;
    QHash<QByteArray, QByteArray> headers; // lower-case names
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
    QByteArray header(const QByteArray &name) const { return headers.value(name.toLower()); }
    // The query of the Location a redirect points to.
    QUrlQuery redirectQuery() const { return QUrlQuery(QUrl::fromEncoded(header("location"))); }
};

// The auth-params of a Bearer challenge (RFC 6750 §3): name -> unquoted value.
QHash<QString, QString> challengeParams(const QByteArray &header)
{
    QHash<QString, QString> params;
    if (!header.startsWith("Bearer "))
        return params;
    static const QRegularExpression param(u"(\\w+)=\"([^\"]*)\""_s);
    for (const QRegularExpressionMatch &m : param.globalMatch(QString::fromUtf8(header.mid(7))))
        params.insert(m.captured(1), m.captured(2));
    return params;
}

QByteArray formBody(const Fields &fields)
{
    QByteArray body;
    for (const auto &[k, v] : fields)
        body += (body.isEmpty() ? "" : "&") + QUrl::toPercentEncoding(k) + '=' +
                QUrl::toPercentEncoding(v);
    return body;
}

QString challengeFor(const QString &verifier)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(verifier.toLatin1(), QCryptographicHash::Sha256)
            .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

const QString Verifier = u"a-code-verifier-of-sixty-four-characters-0123456789-abcdefghijkl"_s;
const QString Redirect = u"http://127.0.0.1:5001/callback"_s;

QByteArray initializeFrame()
{
    return QJsonDocument(
               QJsonObject{{"jsonrpc"_L1, "2.0"_L1},
                           {"id"_L1, 1},
                           {"method"_L1, "initialize"_L1},
                           {"params"_L1,
                            QJsonObject{{"protocolVersion"_L1, "2025-11-25"_L1},
                                        {"capabilities"_L1, QJsonObject()},
                                        {"clientInfo"_L1, QJsonObject{{"name"_L1, "tst"_L1},
                                                                      {"version"_L1, "1"_L1}}}}}})
        .toJson(QJsonDocument::Compact);
}

QByteArray callFrame(const QString &tool)
{
    return QJsonDocument(QJsonObject{{"jsonrpc"_L1, "2.0"_L1},
                                     {"id"_L1, 2},
                                     {"method"_L1, "tools/call"_L1},
                                     {"params"_L1, QJsonObject{{"name"_L1, tool},
                                                               {"arguments"_L1, QJsonObject()}}}})
        .toJson(QJsonDocument::Compact);
}

// A client of the demo's authorization server, on whatever origin it serves.
class Client
{
public:
    QUrl endpoint; // http://127.0.0.1:PORT/mcp

    QString origin() const { return endpoint.toString(QUrl::RemovePath); }

    Answer send(const QByteArray &method, const QString &pathOrUrl,
                const QList<QPair<QByteArray, QByteArray>> &headers = {},
                const QByteArray &body = {})
    {
        QNetworkRequest request(
            QUrl(pathOrUrl.startsWith(u'/') ? origin() + pathOrUrl : pathOrUrl));
        // The authorize redirect points at a listener no one runs: read it, do not follow.
        request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                             QNetworkRequest::ManualRedirectPolicy);
        for (const auto &[k, v] : headers)
            request.setRawHeader(k, v);
        std::unique_ptr<QNetworkReply> reply(m_nam.sendCustomRequest(request, method, body));
        Answer a;
        if (!QTest::qWaitFor([&reply] { return reply->isFinished(); }, 10'000))
            return a;
        a.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        a.body = reply->readAll();
        for (const auto &[k, v] : reply->rawHeaderPairs())
            a.headers.insert(k.toLower(), v);
        return a;
    }
    Answer mcp(const QByteArray &token, const QByteArray &frame, const QByteArray &session = {})
    {
        QList<QPair<QByteArray, QByteArray>> h{{"Content-Type", "application/json"},
                                               {"Accept", "application/json, text/event-stream"}};
        if (!token.isEmpty())
            h.append({"Authorization", "Bearer " + token});
        if (!session.isEmpty())
            h.append({"Mcp-Session-Id", session});
        return send("POST", endpoint.toString(), h, frame);
    }
    Answer registerClient(const QJsonObject &metadata)
    {
        return send("POST", u"/register"_s, {{"Content-Type", "application/json"}},
                    QJsonDocument(metadata).toJson(QJsonDocument::Compact));
    }
    // A public client (token_endpoint_auth_method none) for the redirect URI above.
    QString registerPublic()
    {
        return registerClient({{"redirect_uris"_L1, QJsonArray{Redirect}},
                               {"token_endpoint_auth_method"_L1, "none"_L1},
                               {"application_type"_L1, "native"_L1}})
            .json()
            .value("client_id"_L1)
            .toString();
    }
    // The authorization request a conforming client makes, with `overrides` replacing (an
    // empty value: leaving out) its parameters.
    Answer authorize(const QString &clientId, const Fields &overrides = {})
    {
        QHash<QString, QString> p{{u"response_type"_s, u"code"_s},
                                  {u"client_id"_s, clientId},
                                  // Another port than registered: loopback may use any.
                                  {u"redirect_uri"_s, u"http://127.0.0.1:5002/callback"_s},
                                  {u"code_challenge"_s, challengeFor(Verifier)},
                                  {u"code_challenge_method"_s, u"S256"_s},
                                  {u"state"_s, u"state-42"_s},
                                  {u"resource"_s, endpoint.toString()},
                                  {u"scope"_s, u"mcp:read"_s}};
        for (const auto &[k, v] : overrides)
            p.insert(k, v);
        Fields fields;
        for (auto it = p.cbegin(); it != p.cend(); ++it)
            if (!it.value().isEmpty())
                fields.append({it.key(), it.value()});
        return send("GET", u"/authorize?"_s + QString::fromLatin1(formBody(fields)));
    }
    Answer token(const Fields &fields, const QByteArray &basic = {})
    {
        QList<QPair<QByteArray, QByteArray>> h{
            {"Content-Type", "application/x-www-form-urlencoded"}};
        if (!basic.isEmpty())
            h.append({"Authorization", "Basic " + basic.toBase64()});
        return send("POST", u"/token"_s, h, formBody(fields));
    }
    Fields codeGrant(const QString &clientId, const QString &code)
    {
        return {{u"grant_type"_s, u"authorization_code"_s},
                {u"code"_s, code},
                {u"code_verifier"_s, Verifier},
                {u"redirect_uri"_s, u"http://127.0.0.1:5002/callback"_s},
                {u"client_id"_s, clientId},
                {u"resource"_s, endpoint.toString()}};
    }
    // A whole flow for a public client: the token answer.
    QJsonObject login(const QString &scope = u"mcp:read"_s)
    {
        const QString id = registerPublic();
        const QString code =
            authorize(id, {{u"scope"_s, scope}}).redirectQuery().queryItemValue(u"code"_s);
        QJsonObject grant = token(codeGrant(id, code)).json();
        grant.insert("client_id"_L1, id);
        return grant;
    }
    Answer refresh(const QJsonObject &grant)
    {
        return token({{u"grant_type"_s, u"refresh_token"_s},
                      {u"refresh_token"_s, grant.value("refresh_token"_L1).toString()},
                      {u"client_id"_s, grant.value("client_id"_L1).toString()},
                      {u"resource"_s, endpoint.toString()}});
    }
    QJsonObject stats() { return send("GET", u"/admin/stats"_s).json(); }

private:
    QNetworkAccessManager m_nam;
};

QByteArray accessToken(const QJsonObject &grant)
{
    return grant.value("access_token"_L1).toString().toLatin1();
}

} // namespace

class TestDemoServerAuth : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Discovery: the door and the metadata behind it.
    void everyMcpRequestWithoutAValidTokenIsChallenged_data();
    void everyMcpRequestWithoutAValidTokenIsChallenged();
    void theMetadataNamesTheResourceAndItsAuthorizationServer();
    // The flow: registration, the authorize redirect, the token exchange.
    void registrationAcceptsLoopbackRedirectsOnly_data();
    void registrationAcceptsLoopbackRedirectsOnly();
    void authorizeRedirectsAtOnceWithCodeStateAndIss();
    void authorizeRefusesABadRequest_data();
    void authorizeRefusesABadRequest();
    // Tokens: exchanged, authenticated for, refreshed, expired, too narrow, revoked.
    void theCodeIsExchangedOnceWithTheRightVerifier_data();
    void theCodeIsExchangedOnceWithTheRightVerifier();
    void theClientAuthenticatesAsItRegistered_data();
    void theClientAuthenticatesAsItRegistered();
    void refreshTokensRotate();
    // On the server's clock: no waiting.
    void anExpiredTokenIsRefusedUntilRefreshed();
    void theWriteToolNeedsMcpWriteAndIsRefusedAtTheDoor();
    void revocationEndsTokensAndRefreshTokens();
    void theStatsCountEachRequestOnce();
    // The executable and its options.
    void theExecutableServesAuthorizationWithItsOptions();
    void withoutAuthTheEndpointIsOpenAsBefore();
    void authWithoutHttpIsRefused();

    // Each test gets a new server, and so a new authorization server, on a port of its own.
    void init()
    {
        m_state = std::make_shared<DemoState>();
        m_server = std::make_unique<DemoHttpServer>(m_state);
        m_server->enableAuthorization(3'600'000, &m_clock);
        QString error;
        QVERIFY2(m_server->listen(QHostAddress::LocalHost, 0, &error), qPrintable(error));
        m_client.endpoint = QUrl(m_server->endpointUrl());
    }
    void cleanup() { m_server.reset(); }

private:
    ManualClock m_clock;
    std::shared_ptr<DemoState> m_state;
    std::unique_ptr<DemoHttpServer> m_server;
    Client m_client;
};

void TestDemoServerAuth::everyMcpRequestWithoutAValidTokenIsChallenged_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QByteArray>("authorization");
    QTest::addColumn<QByteArray>("protocolVersion");
    QTest::addColumn<QString>("error"); // the challenge's error parameter, empty: none
    QTest::newRow("a legacy POST without a token is told where the metadata is")
        << QByteArray("POST") << QByteArray() << QByteArray() << QString();
    QTest::newRow("a 2026-07-28 POST without a token is challenged the same way")
        << QByteArray("POST") << QByteArray() << QByteArray("2026-07-28") << QString();
    QTest::newRow("a GET stream without a token is challenged")
        << QByteArray("GET") << QByteArray() << QByteArray() << QString();
    QTest::newRow("a DELETE without a token is challenged")
        << QByteArray("DELETE") << QByteArray() << QByteArray() << QString();
    QTest::newRow("a Basic credential is no bearer token")
        << QByteArray("POST") << QByteArray("Basic dXNlcjpwYXNz") << QByteArray() << QString();
    QTest::newRow("a bearer token this server never issued is an invalid token")
        << QByteArray("POST") << QByteArray("Bearer made-up") << QByteArray() << u"invalid_token"_s;
}

void TestDemoServerAuth::everyMcpRequestWithoutAValidTokenIsChallenged()
{
    QFETCH(QByteArray, method);
    QFETCH(QByteArray, authorization);
    QFETCH(QByteArray, protocolVersion);
    QFETCH(QString, error);
    QList<QPair<QByteArray, QByteArray>> h{{"Content-Type", "application/json"},
                                           {"Accept", "application/json, text/event-stream"},
                                           {"Mcp-Session-Id", "some-session"}};
    if (!authorization.isEmpty())
        h.append({"Authorization", authorization});
    if (!protocolVersion.isEmpty())
        h.append({"MCP-Protocol-Version", protocolVersion});
    QSignalSpy log(m_server.get(), &DemoHttpServer::logLine);
    const Answer a = m_client.send(method, m_client.endpoint.toString(), h,
                                   method == "POST" ? initializeFrame() : QByteArray());
    QCOMPARE(a.status, 401);
    const QHash<QString, QString> params = challengeParams(a.header("WWW-Authenticate"));
    QCOMPARE(params.value(u"resource_metadata"_s),
             m_client.origin() + "/.well-known/oauth-protected-resource/mcp"_L1);
    QCOMPARE(params.value(u"scope"_s), u"mcp:read"_s);
    QCOMPARE(params.value(u"error"_s), error);
    QVERIFY(a.json().contains("error"_L1));
    // Refused at the door: no session was started, nothing was served.
    QCOMPARE(log.count(), 0);
}

void TestDemoServerAuth::theMetadataNamesTheResourceAndItsAuthorizationServer()
{
    const Answer prm = m_client.send("GET", u"/.well-known/oauth-protected-resource/mcp"_s);
    QCOMPARE(prm.status, 200);
    QCOMPARE(prm.json().value("resource"_L1).toString(), m_client.endpoint.toString());
    const QJsonArray servers = prm.json().value("authorization_servers"_L1).toArray();
    QCOMPARE(servers.size(), 1);
    const QString issuer = servers.first().toString();
    QCOMPARE(issuer, m_client.origin());
    QCOMPARE(prm.json().value("scopes_supported"_L1).toArray(),
             (QJsonArray{"mcp:read"_L1, "mcp:write"_L1}));

    // RFC 8414 §3.1: an issuer without a path has its metadata at the well-known path.
    const Answer as = m_client.send("GET", issuer + "/.well-known/oauth-authorization-server"_L1);
    QCOMPARE(as.status, 200);
    const QJsonObject m = as.json();
    QCOMPARE(m.value("issuer"_L1).toString(), issuer);
    QCOMPARE(m.value("authorization_endpoint"_L1).toString(), issuer + "/authorize"_L1);
    QCOMPARE(m.value("token_endpoint"_L1).toString(), issuer + "/token"_L1);
    QCOMPARE(m.value("registration_endpoint"_L1).toString(), issuer + "/register"_L1);
    QCOMPARE(m.value("code_challenge_methods_supported"_L1).toArray(), QJsonArray{"S256"_L1});
    QCOMPARE(m.value("token_endpoint_auth_methods_supported"_L1).toArray(),
             (QJsonArray{"client_secret_basic"_L1, "client_secret_post"_L1, "none"_L1}));
    QCOMPARE(m.value("scopes_supported"_L1).toArray(),
             (QJsonArray{"mcp:read"_L1, "mcp:write"_L1, "offline_access"_L1}));
    QCOMPARE(m.value("grant_types_supported"_L1).toArray(),
             (QJsonArray{"authorization_code"_L1, "refresh_token"_L1}));
    QCOMPARE(m.value("authorization_response_iss_parameter_supported"_L1), QJsonValue(true));
    QCOMPARE(m.value("client_id_metadata_document_supported"_L1), QJsonValue(false));
    // The other discovery paths are not served: a client must try them in order and move on.
    QCOMPARE(m_client.send("GET", u"/.well-known/openid-configuration"_s).status, 404);
}

void TestDemoServerAuth::registrationAcceptsLoopbackRedirectsOnly_data()
{
    QTest::addColumn<QJsonObject>("metadata");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("error");
    QTest::addColumn<bool>("secret");
    auto with = [](const QJsonValue &redirects, const QJsonValue &method) {
        QJsonObject o{{"redirect_uris"_L1, redirects}, {"client_name"_L1, "tst"_L1}};
        if (!method.isUndefined())
            o.insert("token_endpoint_auth_method"_L1, method);
        return o;
    };
    QTest::newRow("a public client on 127.0.0.1 gets an id and no secret")
        << with(QJsonArray{Redirect}, "none"_L1) << 201 << QString() << false;
    QTest::newRow("localhost and [::1] are loopback too")
        << with(QJsonArray{"http://localhost:1/cb"_L1, "http://[::1]:1/cb"_L1}, "none"_L1) << 201
        << QString() << false;
    QTest::newRow("client_secret_post gets a secret")
        << with(QJsonArray{Redirect}, "client_secret_post"_L1) << 201 << QString() << true;
    QTest::newRow("no method means client_secret_basic, with a secret (RFC 7591)")
        << with(QJsonArray{Redirect}, QJsonValue::Undefined) << 201 << QString() << true;
    QTest::newRow("a redirect to another host is refused")
        << with(QJsonArray{Redirect, "https://example.com/cb"_L1}, "none"_L1) << 400
        << u"invalid_redirect_uri"_s << false;
    QTest::newRow("a redirect with a fragment is refused")
        << with(QJsonArray{"http://127.0.0.1:1/cb#x"_L1}, "none"_L1) << 400
        << u"invalid_redirect_uri"_s << false;
    QTest::newRow("no redirect URIs are refused")
        << with(QJsonArray{}, "none"_L1) << 400 << u"invalid_redirect_uri"_s << false;
    QTest::newRow("an unknown authentication method is refused")
        << with(QJsonArray{Redirect}, "private_key_jwt"_L1) << 400 << u"invalid_client_metadata"_s
        << false;
    QJsonObject desktop = with(QJsonArray{Redirect}, "none"_L1);
    desktop.insert("application_type"_L1, "desktop"_L1);
    QTest::newRow("an application_type other than native or web is refused")
        << desktop << 400 << u"invalid_client_metadata"_s << false;
}

void TestDemoServerAuth::registrationAcceptsLoopbackRedirectsOnly()
{
    QFETCH(QJsonObject, metadata);
    QFETCH(int, status);
    QFETCH(QString, error);
    QFETCH(bool, secret);
    const Answer a = m_client.registerClient(metadata);
    QCOMPARE(a.status, status);
    QCOMPARE(a.json().value("error"_L1).toString(), error);
    if (status != 201)
        return;
    QVERIFY(a.json().value("client_id"_L1).toString().startsWith("demo-client-"_L1));
    QCOMPARE(a.json().value("client_secret"_L1).toString().isEmpty(), !secret);
    QCOMPARE(a.json().value("redirect_uris"_L1), metadata.value("redirect_uris"_L1));
    QCOMPARE(a.json().value("token_endpoint_auth_method"_L1).toString(),
             metadata.value("token_endpoint_auth_method"_L1).toString(u"client_secret_basic"_s));
}

void TestDemoServerAuth::authorizeRedirectsAtOnceWithCodeStateAndIss()
{
    const Answer a = m_client.authorize(m_client.registerPublic());
    QCOMPARE(a.status, 302);
    const QUrl location = QUrl::fromEncoded(a.header("location"));
    QCOMPARE(location.toString(QUrl::RemoveQuery), u"http://127.0.0.1:5002/callback"_s);
    const QUrlQuery q(location);
    QVERIFY(q.queryItemValue(u"code"_s).size() >= 32);
    QCOMPARE(q.queryItemValue(u"state"_s), u"state-42"_s);
    QCOMPARE(q.queryItemValue(u"iss"_s, QUrl::FullyDecoded), m_client.origin());
    QVERIFY(!q.hasQueryItem(u"error"_s));

    // The scheme compares without case (RFC 8707 §2; the spec's SHOULD): the same resource.
    const QString shouted = m_client.endpoint.toString().replace(0, 4, u"HTTP"_s);
    const Answer upper = m_client.authorize(m_client.registerPublic(), {{u"resource"_s, shouted}});
    QVERIFY(upper.redirectQuery().hasQueryItem(u"code"_s));
}

void TestDemoServerAuth::authorizeRefusesABadRequest_data()
{
    QTest::addColumn<QString>("clientId"); // empty: a registered one
    QTest::addColumn<Fields>("overrides");
    QTest::addColumn<QString>("error"); // empty: a 400 page, no redirect
    QTest::newRow("an unknown client gets a page, not a redirect")
        << u"nobody"_s << Fields{} << QString();
    QTest::newRow("a redirect URI the client did not register gets a page")
        << QString() << Fields{{u"redirect_uri"_s, u"http://127.0.0.1:5002/elsewhere"_s}}
        << QString();
    QTest::newRow("no PKCE challenge goes back as invalid_request")
        << QString() << Fields{{u"code_challenge"_s, QString()}} << u"invalid_request"_s;
    QTest::newRow("a plain PKCE challenge goes back as invalid_request")
        << QString() << Fields{{u"code_challenge_method"_s, u"plain"_s}} << u"invalid_request"_s;
    QTest::newRow("no state goes back as invalid_request")
        << QString() << Fields{{u"state"_s, QString()}} << u"invalid_request"_s;
    QTest::newRow("no resource goes back as invalid_target")
        << QString() << Fields{{u"resource"_s, QString()}} << u"invalid_target"_s;
    QTest::newRow("another resource goes back as invalid_target")
        << QString() << Fields{{u"resource"_s, u"http://127.0.0.1:1/mcp"_s}} << u"invalid_target"_s;
    QTest::newRow("an unknown scope goes back as invalid_scope")
        << QString() << Fields{{u"scope"_s, u"mcp:read admin"_s}} << u"invalid_scope"_s;
    QTest::newRow("the implicit flow goes back as unsupported_response_type")
        << QString() << Fields{{u"response_type"_s, u"token"_s}} << u"unsupported_response_type"_s;
}

void TestDemoServerAuth::authorizeRefusesABadRequest()
{
    QFETCH(QString, clientId);
    QFETCH(Fields, overrides);
    QFETCH(QString, error);
    const QString id = clientId.isEmpty() ? m_client.registerPublic() : clientId;
    const Answer a = m_client.authorize(id, overrides);
    if (error.isEmpty()) {
        QCOMPARE(a.status, 400);
        QVERIFY(a.header("location").isEmpty());
        return;
    }
    QCOMPARE(a.status, 302);
    const QUrlQuery q = a.redirectQuery();
    QCOMPARE(q.queryItemValue(u"error"_s), error);
    QVERIFY(!q.hasQueryItem(u"code"_s));
    QCOMPARE(q.hasQueryItem(u"state"_s),
             !overrides.contains(QPair<QString, QString>(u"state"_s, QString())));
    QCOMPARE(q.queryItemValue(u"iss"_s, QUrl::FullyDecoded), m_client.origin());
}

void TestDemoServerAuth::theCodeIsExchangedOnceWithTheRightVerifier_data()
{
    QTest::addColumn<QString>("field"); // of the token request, to replace
    QTest::addColumn<QString>("value");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("error");
    QTest::addColumn<bool>("consumed"); // the code was presented, so it is used up
    QTest::newRow("the right verifier gets tokens")
        << QString() << QString() << 200 << QString() << true;
    QTest::newRow("a wrong verifier is an invalid grant")
        << u"code_verifier"_s << QString(Verifier).replace(u'a', u'b') << 400 << u"invalid_grant"_s
        << true;
    QTest::newRow("another redirect URI is an invalid grant")
        << u"redirect_uri"_s << Redirect << 400 << u"invalid_grant"_s << true;
    QTest::newRow("no resource is an invalid target")
        << u"resource"_s << QString() << 400 << u"invalid_target"_s << true;
    QTest::newRow("another resource is an invalid target")
        << u"resource"_s << u"http://127.0.0.1:1/mcp"_s << 400 << u"invalid_target"_s << true;
    QTest::newRow("an unknown code is an invalid grant and leaves the real one usable")
        << u"code"_s << u"guessed"_s << 400 << u"invalid_grant"_s << false;
}

void TestDemoServerAuth::theCodeIsExchangedOnceWithTheRightVerifier()
{
    QFETCH(QString, field);
    QFETCH(QString, value);
    QFETCH(int, status);
    QFETCH(QString, error);
    QFETCH(bool, consumed);
    const QString id = m_client.registerPublic();
    const QString code = m_client.authorize(id).redirectQuery().queryItemValue(u"code"_s);
    Fields fields;
    for (const auto &[k, v] : m_client.codeGrant(id, code))
        if (k != field || !value.isEmpty())
            fields.append({k, k == field ? value : v});
    const Answer a = m_client.token(fields);
    QCOMPARE(a.status, status);
    QCOMPARE(a.json().value("error"_L1).toString(), error);
    if (status == 200) {
        const QJsonObject grant = a.json();
        QCOMPARE(grant.value("token_type"_L1).toString(), u"Bearer"_s);
        QCOMPARE(grant.value("expires_in"_L1).toInt(), 3600);
        QCOMPARE(grant.value("scope"_L1).toString(), u"mcp:read"_s);
        QVERIFY(!grant.value("refresh_token"_L1).toString().isEmpty());
        QCOMPARE(a.header("cache-control"), QByteArray("no-store"));
        QCOMPARE(m_client.mcp(accessToken(grant), initializeFrame()).status, 200);
    }
    // Presented once, right or wrong, it is used up: a verifier cannot be guessed at.
    const Answer again = m_client.token(m_client.codeGrant(id, code));
    QCOMPARE(again.status, consumed ? 400 : 200);
    if (consumed)
        QCOMPARE(again.json().value("error"_L1).toString(), u"invalid_grant"_s);
}

void TestDemoServerAuth::theClientAuthenticatesAsItRegistered_data()
{
    QTest::addColumn<QString>("registered");
    QTest::addColumn<QString>("sent"); // how the request authenticates: basic, post, none
    QTest::addColumn<bool>("rightSecret");
    QTest::addColumn<int>("status");
    QTest::newRow("client_secret_basic with the right secret")
        << u"client_secret_basic"_s << u"basic"_s << true << 200;
    QTest::newRow("client_secret_basic with a wrong secret")
        << u"client_secret_basic"_s << u"basic"_s << false << 401;
    QTest::newRow("client_secret_basic sending its secret in the body")
        << u"client_secret_basic"_s << u"post"_s << true << 401;
    QTest::newRow("client_secret_post with the right secret")
        << u"client_secret_post"_s << u"post"_s << true << 200;
    QTest::newRow("client_secret_post with a wrong secret")
        << u"client_secret_post"_s << u"post"_s << false << 401;
    QTest::newRow("client_secret_post sending no secret")
        << u"client_secret_post"_s << u"none"_s << true << 401;
    QTest::newRow("a public client sending only its id") << u"none"_s << u"none"_s << true << 200;
}

void TestDemoServerAuth::theClientAuthenticatesAsItRegistered()
{
    QFETCH(QString, registered);
    QFETCH(QString, sent);
    QFETCH(bool, rightSecret);
    QFETCH(int, status);
    const QJsonObject reg = m_client
                                .registerClient({{"redirect_uris"_L1, QJsonArray{Redirect}},
                                                 {"token_endpoint_auth_method"_L1, registered}})
                                .json();
    const QString id = reg.value("client_id"_L1).toString();
    const QString secret =
        reg.value("client_secret"_L1).toString() + (rightSecret ? ""_L1 : "-wrong"_L1);
    const QString code = m_client.authorize(id).redirectQuery().queryItemValue(u"code"_s);
    Fields fields = m_client.codeGrant(id, code);
    QByteArray basic;
    if (sent == "basic"_L1) {
        fields.removeIf([](const auto &f) { return f.first == "client_id"_L1; });
        basic = QUrl::toPercentEncoding(id) + ':' + QUrl::toPercentEncoding(secret);
    } else if (sent == "post"_L1) {
        fields.append({u"client_secret"_s, secret});
    }
    const Answer a = m_client.token(fields, basic);
    QCOMPARE(a.status, status);
    if (status == 401)
        QCOMPARE(a.json().value("error"_L1).toString(), u"invalid_client"_s);
    else
        QVERIFY(!a.json().value("access_token"_L1).toString().isEmpty());
}

void TestDemoServerAuth::refreshTokensRotate()
{
    const QJsonObject first = m_client.login();
    const Answer a = m_client.refresh(first);
    QCOMPARE(a.status, 200);
    QJsonObject second = a.json();
    second.insert("client_id"_L1, first.value("client_id"_L1));
    QVERIFY(second.value("refresh_token"_L1) != first.value("refresh_token"_L1));
    QVERIFY(second.value("access_token"_L1) != first.value("access_token"_L1));
    QCOMPARE(second.value("scope"_L1).toString(), u"mcp:read"_s);
    QCOMPARE(m_client.mcp(accessToken(second), initializeFrame()).status, 200);

    // The used one is refused; the new one works, once.
    const Answer reused = m_client.refresh(first);
    QCOMPARE(reused.status, 400);
    QCOMPARE(reused.json().value("error"_L1).toString(), u"invalid_grant"_s);
    QCOMPARE(m_client.refresh(second).status, 200);
    QCOMPARE(m_client.refresh(second).status, 400);
}

void TestDemoServerAuth::anExpiredTokenIsRefusedUntilRefreshed()
{
    const QJsonObject grant = m_client.login();
    m_clock.advance(3'600'000 - 1);
    QCOMPARE(m_client.mcp(accessToken(grant), initializeFrame()).status, 200);
    m_clock.advance(1);
    const Answer a = m_client.mcp(accessToken(grant), initializeFrame());
    QCOMPARE(a.status, 401);
    const QHash<QString, QString> params = challengeParams(a.header("WWW-Authenticate"));
    QCOMPARE(params.value(u"error"_s), u"invalid_token"_s);
    QVERIFY2(params.value(u"error_description"_s).contains("expired"_L1),
             qPrintable(params.value(u"error_description"_s)));
    const QJsonObject renewed = m_client.refresh(grant).json();
    QCOMPARE(m_client.mcp(accessToken(renewed), initializeFrame()).status, 200);
}

void TestDemoServerAuth::theWriteToolNeedsMcpWriteAndIsRefusedAtTheDoor()
{
    const QByteArray reader = accessToken(m_client.login(u"mcp:read"_s));
    const Answer init = m_client.mcp(reader, initializeFrame());
    QCOMPARE(init.status, 200);
    const QByteArray session = init.header("mcp-session-id");
    QCOMPARE(m_client.mcp(reader, callFrame(u"get-counter"_s), session).status, 200);

    const Answer refused = m_client.mcp(reader, callFrame(u"increment-counter"_s), session);
    QCOMPARE(refused.status, 403);
    const QHash<QString, QString> params = challengeParams(refused.header("WWW-Authenticate"));
    QCOMPARE(params.value(u"error"_s), u"insufficient_scope"_s);
    QCOMPARE(params.value(u"scope"_s), u"mcp:read mcp:write"_s);
    QCOMPARE(params.value(u"resource_metadata"_s),
             m_client.origin() + "/.well-known/oauth-protected-resource/mcp"_L1);
    QCOMPARE(m_state->counter(), 0); // the tool did not run

    // Stepped up, the same call on the same session runs.
    const QByteArray writer = accessToken(m_client.login(u"mcp:read mcp:write"_s));
    QCOMPARE(m_client.mcp(writer, callFrame(u"increment-counter"_s), session).status, 200);
    QCOMPARE(m_state->counter(), 1);
}

void TestDemoServerAuth::revocationEndsTokensAndRefreshTokens()
{
    const QJsonObject grant = m_client.login();
    QCOMPARE(m_client.mcp(accessToken(grant), initializeFrame()).status, 200);
    const Answer revoked = m_client.send("POST", u"/admin/revoke"_s);
    QCOMPARE(revoked.status, 200);
    QCOMPARE(revoked.json().value("revoked_access_tokens"_L1).toInt(), 1);

    const Answer a = m_client.mcp(accessToken(grant), initializeFrame());
    QCOMPARE(a.status, 401);
    const QHash<QString, QString> params = challengeParams(a.header("WWW-Authenticate"));
    QCOMPARE(params.value(u"error"_s), u"invalid_token"_s);
    QVERIFY(params.value(u"error_description"_s).contains("revoked"_L1));
    const Answer refresh = m_client.refresh(grant);
    QCOMPARE(refresh.status, 400);
    QCOMPARE(refresh.json().value("error"_L1).toString(), u"invalid_grant"_s);
    // A new flow still works: the client stays registered.
    QCOMPARE(m_client.mcp(accessToken(m_client.login()), initializeFrame()).status, 200);
}

void TestDemoServerAuth::theStatsCountEachRequestOnce()
{
    QCOMPARE(m_client.mcp({}, initializeFrame()).status, 401);
    const QJsonObject grant = m_client.login();
    QCOMPARE(m_client.refresh(grant).status, 200);
    const QJsonObject stats = m_client.stats();
    QCOMPARE(stats.value("registration_requests"_L1).toInt(), 1);
    QCOMPARE(stats.value("authorization_requests"_L1).toInt(), 1);
    QCOMPARE(stats.value("token_requests"_L1).toInt(), 2);
    QCOMPARE(stats.value("refused_401"_L1).toInt(), 1);
    QCOMPARE(stats.value("refused_403"_L1).toInt(), 0);
}

namespace {

// The executable with `args`; its endpoint URL, empty when it did not come up.
QString startDemo(QProcess &process, const QStringList &args)
{
    process.start(QString::fromUtf8(SONDE_DEMO_SERVER_PATH),
                  QStringList{u"--http"_s, u"127.0.0.1:0"_s} + args);
    if (!process.waitForStarted(5000) || !process.waitForReadyRead(5000))
        return {};
    return QString::fromUtf8(process.readLine().trimmed());
}

void stopDemo(QProcess &process)
{
    process.terminate();
    if (!process.waitForFinished(3000))
        process.kill();
}

} // namespace

void TestDemoServerAuth::theExecutableServesAuthorizationWithItsOptions()
{
    QProcess process;
    const QString url = startDemo(process, {u"--auth"_s, u"--auth-token-ttl"_s, u"7"_s});
    QVERIFY2(!url.isEmpty(), process.readAllStandardError().constData());
    Client client;
    client.endpoint = QUrl(url);
    QCOMPARE(client.mcp({}, initializeFrame()).status, 401);
    const QJsonObject grant = client.login();
    QCOMPARE(grant.value("expires_in"_L1).toInt(), 7);
    QCOMPARE(client.mcp(accessToken(grant), initializeFrame()).status, 200);
    stopDemo(process);
}

void TestDemoServerAuth::withoutAuthTheEndpointIsOpenAsBefore()
{
    QProcess process;
    const QString url = startDemo(process, {});
    QVERIFY2(!url.isEmpty(), process.readAllStandardError().constData());
    Client client;
    client.endpoint = QUrl(url);
    QCOMPARE(client.mcp({}, initializeFrame()).status, 200);
    QCOMPARE(client.send("GET", u"/.well-known/oauth-protected-resource/mcp"_s).status, 404);
    QCOMPARE(client.send("GET", u"/.well-known/oauth-authorization-server"_s).status, 404);
    stopDemo(process);
}

void TestDemoServerAuth::authWithoutHttpIsRefused()
{
    QProcess process;
    process.start(QString::fromUtf8(SONDE_DEMO_SERVER_PATH), {u"--auth"_s});
    QVERIFY(process.waitForFinished(5000));
    QCOMPARE(process.exitCode(), 2);
    QVERIFY(process.readAllStandardError().contains("--auth needs --http"));
}

QTEST_GUILESS_MAIN(TestDemoServerAuth)
#include "tst_demoserver_auth.moc"
