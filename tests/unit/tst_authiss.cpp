// SPDX-License-Identifier: MIT
// IssuerCheck: RFC 9207 as MCP 2026-07-28 applies it (the conformance suite's six iss cases).
#include "auth/issuercheck.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace Sonde;

class TestAuthIss : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theAuthorizationResponseIsUsedOnlyFromTheRecordedIssuer_data()
    {
        QTest::addColumn<bool>("advertised");
        QTest::addColumn<bool>("present");
        QTest::addColumn<QString>("iss");
        QTest::addColumn<bool>("accepted");
        const QString issuer = u"http://127.0.0.1:4000"_s;
        QTest::newRow("advertised and matching is accepted (iss-supported)")
            << true << true << issuer << true;
        QTest::newRow("neither advertised nor sent is accepted (iss-not-advertised)")
            << false << false << QString() << true;
        QTest::newRow("advertised but missing is refused (iss-supported-missing)")
            << true << false << QString() << false;
        QTest::newRow("advertised and from another issuer is refused (iss-wrong-issuer)")
            << true << true << u"https://evil.example.com"_s << false;
        QTest::newRow("not advertised but sent wrong is refused (iss-unexpected)")
            << false << true << u"https://evil.example.com"_s << false;
        QTest::newRow("not advertised but sent right is accepted")
            << false << true << issuer << true;
        QTest::newRow("a trailing slash is not normalised away (iss-normalized)")
            << true << true << issuer + u'/' << false;
        QTest::newRow("the host's case is not folded")
            << true << true << u"http://127.0.0.1:4000"_s.toUpper() << false;
        QTest::newRow("a default port is not elided")
            << true << true << u"http://127.0.0.1:4000:80"_s << false;
        QTest::newRow("an empty iss that is present is a mismatch")
            << false << true << QString() << false;
    }
    void theAuthorizationResponseIsUsedOnlyFromTheRecordedIssuer()
    {
        QFETCH(bool, advertised);
        QFETCH(bool, present);
        QFETCH(QString, iss);
        QFETCH(bool, accepted);
        const QString problem =
            IssuerCheck::problem(advertised, present, iss, u"http://127.0.0.1:4000"_s);
        QCOMPARE(problem.isEmpty(), accepted);
    }
};

QTEST_GUILESS_MAIN(TestAuthIss)
#include "tst_authiss.moc"
