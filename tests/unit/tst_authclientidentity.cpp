// SPDX-License-Identifier: MIT
// ClientIdentity and TokenRequest: which identity, which token endpoint authentication, and
// what the token endpoint is sent and how its answer is read.
#include "auth/authorizationservermetadata.h"
#include "auth/clientidentity.h"
#include "auth/headlessuseragent.h"
#include "auth/tokenrequest.h"

#include <QTest>
#include <QUrlQuery>

using namespace Qt::StringLiterals;
using namespace Sonde;

class TestAuthClientIdentity : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theIdentityFollowsTheSpecsOrder_data()
    {
        QTest::addColumn<QString>("clientId");
        QTest::addColumn<QString>("metadataUrl");
        QTest::addColumn<bool>("cimd");
        QTest::addColumn<bool>("registration");
        QTest::addColumn<QString>("source");
        QTest::newRow("a configured client id is used first")
            << u"mine"_s << u"https://sonde.example/client.json"_s << true << true
            << u"pre-registered"_s;
        QTest::newRow("CIMD when the AS advertises it and an https client id URL is set")
            << QString() << u"https://sonde.example/client.json"_s << true << true << u"cimd"_s;
        QTest::newRow("an http client id URL is no CIMD")
            << QString() << u"http://sonde.example/client.json"_s << true << true
            << u"dynamic-registration"_s;
        QTest::newRow("no CIMD when the AS does not advertise it")
            << QString() << u"https://sonde.example/client.json"_s << false << true
            << u"dynamic-registration"_s;
        QTest::newRow("nothing possible without a registration endpoint")
            << QString() << QString() << false << false << QString();
    }
    void theIdentityFollowsTheSpecsOrder()
    {
        QFETCH(QString, clientId);
        QFETCH(QString, metadataUrl);
        QFETCH(bool, cimd);
        QFETCH(bool, registration);
        QFETCH(QString, source);
        AuthorizationServerMetadata as;
        as.clientIdMetadataDocumentSupported = cimd;
        if (registration)
            as.registrationEndpoint = QUrl(u"https://as.example/register"_s);
        const ClientIdentity::Plan p = ClientIdentity::plan(clientId, QUrl(metadataUrl), as);
        QCOMPARE(ClientIdentity::sourceName(p.source), source);
        QVERIFY(!p.why.isEmpty());
    }

    void theTokenEndpointAuthIsOneTheServerOffers_data()
    {
        QTest::addColumn<QStringList>("offered");
        QTest::addColumn<bool>("secret");
        QTest::addColumn<QString>("method");
        QTest::newRow("a secret goes in HTTP Basic when offered")
            << QStringList{u"client_secret_post"_s, u"client_secret_basic"_s} << true
            << u"client_secret_basic"_s;
        QTest::newRow("a secret goes in the body when only that is offered")
            << QStringList{u"client_secret_post"_s} << true << u"client_secret_post"_s;
        QTest::newRow("nothing advertised means client_secret_basic (RFC 8414)")
            << QStringList{} << true << u"client_secret_basic"_s;
        QTest::newRow("a public client sends none when offered")
            << QStringList{u"client_secret_basic"_s, u"none"_s} << false << u"none"_s;
        QTest::newRow("a registering client asks for what is offered when none is not")
            << QStringList{u"client_secret_post"_s} << false << u"client_secret_post"_s;
    }
    void theTokenEndpointAuthIsOneTheServerOffers()
    {
        QFETCH(QStringList, offered);
        QFETCH(bool, secret);
        QFETCH(QString, method);
        AuthorizationServerMetadata as;
        as.tokenEndpointAuthMethods = offered;
        QCOMPARE(ClientIdentity::authMethodFor(as, secret), method);
    }

    void theClientAuthenticatesAsItsMethodSays_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QByteArray>("basic");
        QTest::addColumn<QString>("bodyClientId");
        QTest::addColumn<QString>("bodySecret");
        // RFC 6749 §2.3.1: the id and secret are form-encoded before Basic encoding.
        QTest::newRow("client_secret_basic: id and secret form-encoded in the header")
            << u"client_secret_basic"_s << "Basic " + "my+id:s%3Ac%26t"_ba.toBase64() << QString()
            << QString();
        QTest::newRow("client_secret_post: both in the body")
            << u"client_secret_post"_s << QByteArray() << u"my id"_s << u"s:c&t"_s;
        QTest::newRow("none: only the client id in the body")
            << u"none"_s << QByteArray() << u"my id"_s << QString();
    }
    void theClientAuthenticatesAsItsMethodSays()
    {
        QFETCH(QString, method);
        QFETCH(QByteArray, basic);
        QFETCH(QString, bodyClientId);
        QFETCH(QString, bodySecret);
        ClientIdentity id;
        id.clientId = u"my id"_s;
        id.clientSecret = u"s:c&t"_s;
        id.authMethod = method;
        const TokenRequest r =
            TokenRequest::authorizationCode(id, u"c/o+de"_s, QUrl(u"http://127.0.0.1:1/callback"_s),
                                            "verifier", u"https://mcp.example/mcp"_s);
        QCOMPARE(r.basic, basic);
        QByteArray form = r.form;
        const QUrlQuery q(QString::fromLatin1(form.replace('+', "%20")));
        const auto v = [&q](const QString &k) { return q.queryItemValue(k, QUrl::FullyDecoded); };
        QCOMPARE(v(u"client_id"_s), bodyClientId);
        QCOMPARE(v(u"client_secret"_s), bodySecret);
        QCOMPARE(v(u"grant_type"_s), u"authorization_code"_s);
        QCOMPARE(v(u"code"_s), u"c/o+de"_s);
        QCOMPARE(v(u"redirect_uri"_s), u"http://127.0.0.1:1/callback"_s);
        QCOMPARE(v(u"code_verifier"_s), u"verifier"_s);
        QCOMPARE(v(u"resource"_s), u"https://mcp.example/mcp"_s);
    }

    void theTokenAnswerIsReadOrExplained_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("type");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("error"); // a part of it; empty: a grant
        QTest::newRow("a Bearer token is a grant")
            << 200 << "application/json"_ba
            << "{\"access_token\":\"t\",\"token_type\":\"bearer\",\"expires_in\":60}"_ba
            << QString();
        QTest::newRow("an HTML page says what it is, not \"parse error\"")
            << 200 << "text/html"_ba
            << "<html><body>Sign in</body></html>"_ba
            << u"answered HTTP 200 with text/html, not a JSON token response: <html><body>Sign in"_s;
        QTest::newRow("an OAuth error names its code and description")
            << 400 << "application/json"_ba
            << "{\"error\":\"invalid_grant\",\"error_description\":\"expired\"}"_ba
            << u"refused (HTTP 400): invalid_grant (expired)"_s;
        QTest::newRow("a token that is not Bearer is refused")
            << 200 << "application/json"_ba
            << "{\"access_token\":\"t\",\"token_type\":\"DPoP\"}"_ba << u"not a Bearer token"_s;
        QTest::newRow("an answer without an access token is refused")
            << 200 << "application/json"_ba
            << "{\"token_type\":\"Bearer\"}"_ba << u"no access_token"_s;
    }
    void theTokenAnswerIsReadOrExplained()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, type);
        QFETCH(QByteArray, body);
        QFETCH(QString, error);
        const TokenRequest::Grant g = TokenRequest::readAnswer(status, type, body);
        if (error.isEmpty()) {
            QVERIFY2(g.error.isEmpty(), qPrintable(g.error));
            QCOMPARE(g.accessToken, u"t"_s);
            QCOMPARE(g.expiresInSeconds, 60);
        } else {
            QVERIFY2(g.error.contains(error), qPrintable(g.error));
            QVERIFY(g.accessToken.isEmpty());
        }
    }

    void theRedirectIsReadAsFormEncoded()
    {
        const auto r = HeadlessUserAgent::responseFrom(QUrl::fromEncoded(
            "http://127.0.0.1:1/callback?code=a%2Bb&state=s+t&iss=http%3A%2F%2F127.0.0.1%3A9"));
        QCOMPARE(r.code, u"a+b"_s);
        QCOMPARE(r.state, u"s t"_s);
        QVERIFY(r.issPresent);
        QCOMPARE(r.iss, u"http://127.0.0.1:9"_s);
        const auto bare = HeadlessUserAgent::responseFrom(
            QUrl::fromEncoded("http://127.0.0.1:1/callback?error=access_denied"));
        QVERIFY(!bare.issPresent);
        QCOMPARE(bare.error, u"access_denied"_s);
    }
};

QTEST_GUILESS_MAIN(TestAuthClientIdentity)
#include "tst_authclientidentity.moc"
