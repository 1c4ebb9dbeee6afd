// SPDX-License-Identifier: MIT
// ProtectedResourceMetadata and AuthorizationServerMetadata: what is refused before use.
#include "auth/authorizationservermetadata.h"
#include "auth/protectedresourcemetadata.h"

#include <QJsonArray>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Sonde;

class TestAuthMetadata : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theResourceMustBeTheServerBeingAccessed_data()
    {
        QTest::addColumn<QString>("resource");
        QTest::addColumn<QString>("server");
        QTest::addColumn<bool>("matches");
        QTest::newRow("the same URL matches")
            << u"http://127.0.0.1:3000/mcp"_s << u"http://127.0.0.1:3000/mcp"_s << true;
        QTest::newRow("the origin as resource covers every path under it")
            << u"http://127.0.0.1:3000"_s << u"http://127.0.0.1:3000/mcp"_s << true;
        QTest::newRow("a parent path covers the server")
            << u"https://mcp.example/api"_s << u"https://mcp.example/api/mcp"_s << true;
        QTest::newRow("another origin does not (resource-mismatch)")
            << u"https://evil.example.com/mcp"_s << u"http://127.0.0.1:3000/mcp"_s << false;
        QTest::newRow("another port does not")
            << u"http://127.0.0.1:3001/mcp"_s << u"http://127.0.0.1:3000/mcp"_s << false;
        QTest::newRow("a sibling path does not")
            << u"https://mcp.example/other"_s << u"https://mcp.example/mcp"_s << false;
        QTest::newRow("a path prefix that is not a whole segment does not")
            << u"https://mcp.example/mc"_s << u"https://mcp.example/mcp"_s << false;
        QTest::newRow("the host's case does not matter")
            << u"https://MCP.example/mcp"_s << u"https://mcp.example/mcp"_s << true;
    }
    void theResourceMustBeTheServerBeingAccessed()
    {
        QFETCH(QString, resource);
        QFETCH(QString, server);
        QFETCH(bool, matches);
        QCOMPARE(ProtectedResourceMetadata::resourceMismatch(resource, QUrl(server)).isEmpty(),
                 matches);
    }

    void aResourceDocumentNeedsAResourceAndAServer()
    {
        QString error;
        ProtectedResourceMetadata::fromJson({{"resource"_L1, u"https://x/mcp"_s}}, &error);
        QVERIFY(error.contains("authorization_servers"_L1));
        ProtectedResourceMetadata::fromJson(
            {{"authorization_servers"_L1, QJsonArray{u"https://as"_s}}}, &error);
        QVERIFY(error.contains("resource"_L1));
        const auto m = ProtectedResourceMetadata::fromJson(
            {{"resource"_L1, u"https://x/mcp"_s},
             {"authorization_servers"_L1, QJsonArray{u"https://as1"_s, u"https://as2"_s}},
             {"scopes_supported"_L1, QJsonArray{u"a"_s, 3, u"b"_s}}},
            &error);
        QVERIFY(error.isEmpty());
        QCOMPARE(m.authorizationServers, (QStringList{u"https://as1"_s, u"https://as2"_s}));
        QCOMPARE(m.scopesSupported, (QStringList{u"a"_s, u"b"_s}));
    }

    void serverMetadataIsRefusedWhenItCannotBeTrusted_data()
    {
        QTest::addColumn<QJsonObject>("change");
        QTest::addColumn<QString>("problem"); // a part of it; empty: usable
        QTest::newRow("a complete document with S256 is usable") << QJsonObject{} << QString();
        QTest::newRow(
            "another issuer than the one fetched for is refused (metadata-issuer-mismatch)")
            << QJsonObject{{"issuer"_L1, u"https://as.example/"_s}}
            << u"auth/metadata-issuer-mismatch"_s;
        QTest::newRow("no code_challenge_methods_supported means no PKCE: refused")
            << QJsonObject{{"code_challenge_methods_supported"_L1, QJsonValue()}}
            << u"does not advertise PKCE"_s;
        QTest::newRow("PKCE without S256 is refused")
            << QJsonObject{{"code_challenge_methods_supported"_L1, QJsonArray{u"plain"_s}}}
            << u"does not support PKCE S256"_s;
        QTest::newRow("no token endpoint is refused")
            << QJsonObject{{"token_endpoint"_L1, QJsonValue()}} << u"token_endpoint"_s;
    }
    void serverMetadataIsRefusedWhenItCannotBeTrusted()
    {
        QFETCH(QJsonObject, change);
        QFETCH(QString, problem);
        QJsonObject doc{{"issuer"_L1, u"https://as.example"_s},
                        {"authorization_endpoint"_L1, u"https://as.example/authorize"_s},
                        {"token_endpoint"_L1, u"https://as.example/token"_s},
                        {"code_challenge_methods_supported"_L1, QJsonArray{u"S256"_s}}};
        for (auto it = change.begin(); it != change.end(); ++it) {
            if (it.value().isNull())
                doc.remove(it.key());
            else
                doc.insert(it.key(), it.value());
        }
        const QString got =
            AuthorizationServerMetadata::fromJson(doc).problem(u"https://as.example"_s);
        if (problem.isEmpty())
            QVERIFY2(got.isEmpty(), qPrintable(got));
        else
            QVERIFY2(got.contains(problem), qPrintable(got));
    }

    void theAdvertisedFlagsAreRead()
    {
        const auto m = AuthorizationServerMetadata::fromJson(
            {{"client_id_metadata_document_supported"_L1, true},
             {"authorization_response_iss_parameter_supported"_L1, true},
             {"token_endpoint_auth_methods_supported"_L1, QJsonArray{u"none"_s}}});
        QVERIFY(m.clientIdMetadataDocumentSupported);
        QVERIFY(m.issParameterSupported);
        QCOMPARE(m.tokenEndpointAuthMethods, QStringList{u"none"_s});
        const auto bare = AuthorizationServerMetadata::fromJson({});
        QVERIFY(!bare.clientIdMetadataDocumentSupported);
        QVERIFY(!bare.issParameterSupported);
    }
};

QTEST_GUILESS_MAIN(TestAuthMetadata)
#include "tst_authmetadata.moc"
