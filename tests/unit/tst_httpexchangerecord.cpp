// SPDX-License-Identifier: MIT
// Which request and response headers an http-exchange record masks before it exists.
#include "transport/httpexchangerecord.h"

#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestHttpExchangeRecord : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void credentialHeadersAreMaskedAndTheRestKept_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<bool>("credential");
        QTest::newRow("Authorization is a credential") << QByteArray("Authorization") << true;
        QTest::newRow("a lower-case authorization is too") << QByteArray("authorization") << true;
        QTest::newRow("Proxy-Authorization is") << QByteArray("Proxy-Authorization") << true;
        QTest::newRow("a cookie is") << QByteArray("Cookie") << true;
        QTest::newRow("Set-Cookie is") << QByteArray("Set-Cookie") << true;
        QTest::newRow("a header named for an API key is") << QByteArray("X-Api-Key") << true;
        QTest::newRow("a header named for a token is") << QByteArray("X-Auth-Token") << true;
        QTest::newRow("Content-Type is kept") << QByteArray("Content-Type") << false;
        QTest::newRow("an upper-case ACCEPT is kept") << QByteArray("ACCEPT") << false;
        QTest::newRow("Mcp-Method is kept") << QByteArray("Mcp-Method") << false;
        QTest::newRow("MCP-Protocol-Version is kept")
            << QByteArray("MCP-Protocol-Version") << false;
        QTest::newRow("the session id is left to the exports")
            << QByteArray("Mcp-Session-Id") << false;
        QTest::newRow("an unknown plain header is kept") << QByteArray("X-Request-Start") << false;
    }
    void credentialHeadersAreMaskedAndTheRestKept()
    {
        QFETCH(QByteArray, name);
        QFETCH(bool, credential);
        QCOMPARE(HttpExchangeRecord::isCredentialHeader(name), credential);
    }
};

QTEST_GUILESS_MAIN(TestHttpExchangeRecord)
#include "tst_httpexchangerecord.moc"
