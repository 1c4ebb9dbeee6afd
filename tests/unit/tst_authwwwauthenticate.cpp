// SPDX-License-Identifier: MIT
// WwwAuthenticate: RFC 9110 §11.6.1 challenges as servers send them.
#include "auth/wwwauthenticate.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace Sonde;

class TestAuthWwwAuthenticate : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theBearerChallengeIsFound_data()
    {
        QTest::addColumn<QList<QByteArray>>("headers");
        QTest::addColumn<bool>("present");
        QTest::addColumn<QString>("resourceMetadata");
        QTest::addColumn<QString>("scope");
        QTest::addColumn<QString>("error");
        QTest::addColumn<QString>("description");
        using L = QList<QByteArray>;
        QTest::newRow("a plain Bearer challenge with resource_metadata")
            << L{"Bearer "
                 "resource_metadata=\"https://mcp.example/.well-known/oauth-protected-resource\""}
            << true << u"https://mcp.example/.well-known/oauth-protected-resource"_s << QString()
            << QString() << QString();
        QTest::newRow("a quoted comma stays inside the scope")
            << L{"Bearer scope=\"a,b c\", error=\"insufficient_scope\""} << true << QString()
            << u"a,b c"_s << u"insufficient_scope"_s << QString();
        QTest::newRow("an escaped quote is part of the value")
            << L{"Bearer error_description=\"say \\\"hi\\\", then go\", error=invalid_token"}
            << true << QString() << QString() << u"invalid_token"_s << u"say \"hi\", then go"_s;
        QTest::newRow("the scheme and parameter names are case-insensitive")
            << L{"bEaReR SCOPE=\"mcp:read\", Resource_Metadata=\"https://x/prm\""} << true
            << u"https://x/prm"_s << u"mcp:read"_s << QString() << QString();
        QTest::newRow("Bearer after a Basic challenge in the same header")
            << L{"Basic realm=\"x, y\", Bearer scope=\"s1 s2\", resource_metadata=\"https://r/m\""}
            << true << u"https://r/m"_s << u"s1 s2"_s << QString() << QString();
        QTest::newRow("Bearer after a token68 challenge in the same header")
            << L{"Negotiate YWJjZA==, Bearer scope=tok"} << true << QString() << u"tok"_s
            << QString() << QString();
        QTest::newRow("Bearer in the second of several headers")
            << L{"Basic realm=\"a\"", "DPoP algs=\"ES256\"", "Bearer scope=\"x\""} << true
            << QString() << u"x"_s << QString() << QString();
        QTest::newRow("the first Bearer challenge wins")
            << L{"Bearer scope=\"first\"", "Bearer scope=\"second\""} << true << QString()
            << u"first"_s << QString() << QString();
        QTest::newRow("a Bearer challenge without parameters is still one")
            << L{"Bearer"} << true << QString() << QString() << QString() << QString();
        QTest::newRow("space around the equals sign is allowed")
            << L{"Bearer scope = \"a b\" ,error = invalid_token"} << true << QString() << u"a b"_s
            << u"invalid_token"_s << QString();
        QTest::newRow("no Bearer challenge at all")
            << L{"Basic realm=\"Bearer scope=x\""} << false << QString() << QString() << QString()
            << QString();
        QTest::newRow("no header")
            << L{} << false << QString() << QString() << QString() << QString();
    }
    void theBearerChallengeIsFound()
    {
        QFETCH(QList<QByteArray>, headers);
        QFETCH(bool, present);
        QFETCH(QString, resourceMetadata);
        QFETCH(QString, scope);
        QFETCH(QString, error);
        QFETCH(QString, description);
        const WwwAuthenticate::Bearer b = WwwAuthenticate::bearer(headers);
        QCOMPARE(b.present, present);
        QCOMPARE(b.resourceMetadata, resourceMetadata);
        QCOMPARE(b.scope, scope);
        QCOMPARE(b.error, error);
        QCOMPARE(b.errorDescription, description);
    }

    void everyChallengeIsListed_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<QStringList>("schemes");
        QTest::addColumn<QStringList>("token68s");
        QTest::newRow("token68 with padding, then parameters")
            << "Basic dXNlcjpwYXNz==, Bearer realm=\"r\""_ba << QStringList{u"basic"_s, u"bearer"_s}
            << QStringList{u"dXNlcjpwYXNz=="_s, QString()};
        QTest::newRow("three challenges, one without parameters")
            << "Bearer, Basic realm=\"a,b\", DPoP algs=\"ES256 PS256\""_ba
            << QStringList{u"bearer"_s, u"basic"_s, u"dpop"_s}
            << QStringList{QString(), QString(), QString()};
    }
    void everyChallengeIsListed()
    {
        QFETCH(QByteArray, header);
        QFETCH(QStringList, schemes);
        QFETCH(QStringList, token68s);
        const QList<WwwAuthenticate::Challenge> got = WwwAuthenticate::parse({header});
        QStringList gotSchemes, gotTokens;
        for (const auto &c : got) {
            gotSchemes.append(c.scheme);
            gotTokens.append(c.token68);
        }
        QCOMPARE(gotSchemes, schemes);
        QCOMPARE(gotTokens, token68s);
    }
};

QTEST_GUILESS_MAIN(TestAuthWwwAuthenticate)
#include "tst_authwwwauthenticate.moc"
