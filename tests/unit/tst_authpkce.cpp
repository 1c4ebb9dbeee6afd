// SPDX-License-Identifier: MIT
// Pkce: RFC 7636 S256 and the verifier's shape.
#include "auth/pkce.h"

#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Sonde;

class TestAuthPkce : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theChallengeIsRfc7636sExample()
    {
        // RFC 7636 Appendix B.
        QCOMPARE(Pkce::challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
                 "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"_ba);
    }
    void theVerifierHasTheAllowedLengthAndAlphabet_data()
    {
        QTest::addColumn<int>("asked");
        QTest::addColumn<int>("length");
        QTest::newRow("the default is 64 characters") << 64 << 64;
        QTest::newRow("shorter than 43 is raised to 43") << 10 << 43;
        QTest::newRow("longer than 128 is cut to 128") << 500 << 128;
    }
    void theVerifierHasTheAllowedLengthAndAlphabet()
    {
        QFETCH(int, asked);
        QFETCH(int, length);
        const QByteArray v = Pkce::verifier(asked);
        QCOMPARE(v.size(), length);
        for (char c : v)
            QVERIFY2(
                QByteArrayView("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
                    .contains(c),
                v.constData());
    }
    void verifiersAndStatesDoNotRepeat()
    {
        QSet<QByteArray> verifiers, states;
        for (int i = 0; i < 200; ++i) {
            verifiers.insert(Pkce::verifier());
            states.insert(Pkce::randomToken());
        }
        QCOMPARE(verifiers.size(), 200);
        QCOMPARE(states.size(), 200);
        // Every one of the 66 characters turns up in 200 verifiers of 64: none is left out.
        QSet<char> seen;
        for (const QByteArray &v : std::as_const(verifiers))
            for (char c : v)
                seen.insert(c);
        QCOMPARE(seen.size(), 66);
    }
};

QTEST_GUILESS_MAIN(TestAuthPkce)
#include "tst_authpkce.moc"
