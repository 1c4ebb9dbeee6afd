// SPDX-License-Identifier: MIT
// DiscoveryOrder: the metadata URLs in the spec's order, and the 2025-03-26 fallbacks.
#include "auth/discoveryorder.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace Sonde;

namespace {

QStringList strings(const QList<QUrl> &urls)
{
    QStringList out;
    for (const QUrl &u : urls)
        out.append(u.toString());
    return out;
}

} // namespace

class TestAuthDiscoveryOrder : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void protectedResourceMetadataIsLookedForInOrder_data()
    {
        QTest::addColumn<QString>("server");
        QTest::addColumn<QString>("resourceMetadata");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("the challenge's resource_metadata is the only URL tried")
            << u"https://mcp.example/public/mcp"_s << u"https://other.example/prm"_s
            << QStringList{u"https://other.example/prm"_s};
        QTest::newRow("without it, the path-suffixed URL first, then the root")
            << u"https://mcp.example/public/mcp"_s << QString()
            << QStringList{u"https://mcp.example/.well-known/oauth-protected-resource/public/mcp"_s,
                           u"https://mcp.example/.well-known/oauth-protected-resource"_s};
        QTest::newRow("a server at the root has only the root URL")
            << u"http://127.0.0.1:8080/"_s << QString()
            << QStringList{u"http://127.0.0.1:8080/.well-known/oauth-protected-resource"_s};
        QTest::newRow("the port and the path's trailing slash are kept apart")
            << u"http://127.0.0.1:8080/mcp/"_s << QString()
            << QStringList{u"http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp"_s,
                           u"http://127.0.0.1:8080/.well-known/oauth-protected-resource"_s};
        QTest::newRow("the query of the server URL is not part of any")
            << u"https://mcp.example/mcp?x=1"_s << QString()
            << QStringList{u"https://mcp.example/.well-known/oauth-protected-resource/mcp"_s,
                           u"https://mcp.example/.well-known/oauth-protected-resource"_s};
    }
    void protectedResourceMetadataIsLookedForInOrder()
    {
        QFETCH(QString, server);
        QFETCH(QString, resourceMetadata);
        QFETCH(QStringList, expected);
        QCOMPARE(strings(DiscoveryOrder::protectedResource(QUrl(server), QUrl(resourceMetadata))),
                 expected);
    }

    void authorizationServerMetadataIsLookedForInOrder_data()
    {
        QTest::addColumn<QString>("issuer");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("an issuer with a path: OAuth inserted, OIDC inserted, OIDC appended")
            << u"https://auth.example.com/tenant1"_s
            << QStringList{
                   u"https://auth.example.com/.well-known/oauth-authorization-server/tenant1"_s,
                   u"https://auth.example.com/.well-known/openid-configuration/tenant1"_s,
                   u"https://auth.example.com/tenant1/.well-known/openid-configuration"_s};
        QTest::newRow("an issuer without a path: OAuth, then OIDC")
            << u"https://auth.example.com"_s
            << QStringList{u"https://auth.example.com/.well-known/oauth-authorization-server"_s,
                           u"https://auth.example.com/.well-known/openid-configuration"_s};
        QTest::newRow("a trailing slash alone is no path")
            << u"http://127.0.0.1:9000/"_s
            << QStringList{u"http://127.0.0.1:9000/.well-known/oauth-authorization-server"_s,
                           u"http://127.0.0.1:9000/.well-known/openid-configuration"_s};
        QTest::newRow("a deeper path is inserted whole")
            << u"https://auth.example.com/a/b"_s
            << QStringList{u"https://auth.example.com/.well-known/oauth-authorization-server/a/b"_s,
                           u"https://auth.example.com/.well-known/openid-configuration/a/b"_s,
                           u"https://auth.example.com/a/b/.well-known/openid-configuration"_s};
    }
    void authorizationServerMetadataIsLookedForInOrder()
    {
        QFETCH(QString, issuer);
        QFETCH(QStringList, expected);
        QCOMPARE(strings(DiscoveryOrder::authorizationServer(issuer)), expected);
    }

    void withoutMetadataTheServersOriginServes()
    {
        const QUrl server(u"http://127.0.0.1:7000/some/mcp"_s);
        const QString issuer = DiscoveryOrder::legacyIssuer(server);
        QCOMPARE(issuer, u"http://127.0.0.1:7000"_s);
        const DiscoveryOrder::Endpoints e = DiscoveryOrder::legacyEndpoints(issuer);
        QCOMPARE(e.authorization.toString(), u"http://127.0.0.1:7000/authorize"_s);
        QCOMPARE(e.token.toString(), u"http://127.0.0.1:7000/token"_s);
        QCOMPARE(e.registration.toString(), u"http://127.0.0.1:7000/register"_s);
    }
};

QTEST_GUILESS_MAIN(TestAuthDiscoveryOrder)
#include "tst_authdiscoveryorder.moc"
