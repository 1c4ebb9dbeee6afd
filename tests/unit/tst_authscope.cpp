// SPDX-License-Identifier: MIT
// ScopeSelection: where the scope comes from, step-up's union and offline_access.
#include "auth/scopeselection.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace Sonde;

class TestAuthScope : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theInitialScopeComesFromTheFirstSourceThatNamesOne_data()
    {
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("challenge");
        QTest::addColumn<QStringList>("resource");
        QTest::addColumn<QStringList>("server");
        QTest::addColumn<QString>("scope");
        QTest::addColumn<QString>("why");
        QTest::newRow("the challenge's scope before scopes_supported")
            << QString() << u"mcp:read mcp:write"_s << QStringList{u"other"_s} << QStringList{}
            << u"mcp:read mcp:write"_s << u"scope from WWW-Authenticate"_s;
        QTest::newRow("scopes_supported of the resource without a challenge scope")
            << QString() << QString() << QStringList{u"a"_s, u"b"_s} << QStringList{u"c"_s}
            << u"a b"_s << u"scope from scopes_supported of the protected resource"_s;
        QTest::newRow("omitted when nothing names one")
            << QString() << QString() << QStringList{} << QStringList{u"c"_s} << QString()
            << u"scope omitted: neither WWW-Authenticate nor scopes_supported names one"_s;
        QTest::newRow("the user's scope overrides everything")
            << u"mine"_s << u"theirs"_s << QStringList{u"a"_s} << QStringList{} << u"mine"_s
            << u"scope from the configuration"_s;
        QTest::newRow("offline_access is added when the authorization server lists it")
            << QString() << u"mcp:read"_s << QStringList{}
            << QStringList{u"mcp:read"_s, u"offline_access"_s} << u"mcp:read offline_access"_s
            << u"scope from WWW-Authenticate; offline_access because the authorization server "
               u"lists it"_s;
        QTest::newRow("offline_access is not asked for when the server does not list it")
            << QString() << u"mcp:read"_s << QStringList{} << QStringList{u"mcp:read"_s}
            << u"mcp:read"_s << u"scope from WWW-Authenticate"_s;
        QTest::newRow("repeated and extra spaces in a challenge scope are dropped")
            << QString() << u"  a  b a "_s << QStringList{} << QStringList{} << u"a b"_s
            << u"scope from WWW-Authenticate"_s;
    }
    void theInitialScopeComesFromTheFirstSourceThatNamesOne()
    {
        QFETCH(QString, user);
        QFETCH(QString, challenge);
        QFETCH(QStringList, resource);
        QFETCH(QStringList, server);
        QFETCH(QString, scope);
        QFETCH(QString, why);
        const ScopeSelection::Choice c = ScopeSelection::initial(user, challenge, resource, server);
        QCOMPARE(c.text(), scope);
        QCOMPARE(c.why, why);
    }

    void stepUpAsksForTheUnion_data()
    {
        QTest::addColumn<QStringList>("granted");
        QTest::addColumn<QString>("required");
        QTest::addColumn<QString>("scope");
        QTest::newRow("the new scope is added to the ones held")
            << QStringList{u"mcp:read"_s} << u"mcp:write"_s << u"mcp:read mcp:write"_s;
        QTest::newRow("a scope held and required is asked for once")
            << QStringList{u"a"_s, u"b"_s} << u"b c"_s << u"a b c"_s;
        QTest::newRow("nothing held: just what is required") << QStringList{} << u"x"_s << u"x"_s;
    }
    void stepUpAsksForTheUnion()
    {
        QFETCH(QStringList, granted);
        QFETCH(QString, required);
        QFETCH(QString, scope);
        QCOMPARE(ScopeSelection::stepUp(granted, required, {}).text(), scope);
    }
};

QTEST_GUILESS_MAIN(TestAuthScope)
#include "tst_authscope.moc"
