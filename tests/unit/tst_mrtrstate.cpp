// SPDX-License-Identifier: MIT
// MrtrState: the demo server's sealed requestState opens only unchanged, on the call it was
// made for, with this process's key, within its lifetime.
#include "mrtrstate.h"
#include "util/clock.h"

#include <QJsonObject>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Sonde;

class TestMrtrState : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aStateOpensOnlyOnTheCallItWasMadeFor_data();
    void aStateOpensOnlyOnTheCallItWasMadeFor();
    void aStateOpensUntilItsLifetimeEnds();
    void aStateFromAnotherKeyDoesNotOpen();
    void textThatIsNoStateDoesNotOpen_data();
    void textThatIsNoStateDoesNotOpen();
    void theBindingDependsOnTheArgumentsNotTheirOrder();
};

void TestMrtrState::aStateOpensOnlyOnTheCallItWasMadeFor_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("opens");
    QTest::newRow("the same method and name open it") << u"tools/call"_s << u"ask-user"_s << true;
    QTest::newRow("another name does not") << u"tools/call"_s << u"confirm-twice"_s << false;
    QTest::newRow("another method does not") << u"prompts/get"_s << u"ask-user"_s << false;
}

void TestMrtrState::aStateOpensOnlyOnTheCallItWasMadeFor()
{
    QFETCH(QString, method);
    QFETCH(QString, name);
    QFETCH(bool, opens);
    const ManualClock clock;
    const MrtrState mrtr(&clock);
    const QJsonObject payload{{"answers"_L1, QJsonObject{{"first"_L1, "yes"_L1}}}};
    const std::optional<QJsonObject> opened =
        mrtr.open(mrtr.seal(u"tools/call"_s, u"ask-user"_s, payload), method, name);
    QCOMPARE(opened.has_value(), opens);
    if (opens)
        QCOMPARE(*opened, payload);
}

void TestMrtrState::aStateOpensUntilItsLifetimeEnds()
{
    ManualClock clock;
    const MrtrState mrtr(&clock);
    const QString state = mrtr.seal(u"tools/call"_s, u"t"_s, {});
    clock.advance(MrtrState::LifetimeMs - 1);
    QVERIFY(mrtr.open(state, u"tools/call"_s, u"t"_s));
    clock.advance(1);
    QVERIFY(!mrtr.open(state, u"tools/call"_s, u"t"_s));
}

void TestMrtrState::aStateFromAnotherKeyDoesNotOpen()
{
    const ManualClock clock;
    const MrtrState ours("our key", &clock);
    const MrtrState theirs("their key", &clock);
    const QString state = theirs.seal(u"tools/call"_s, u"t"_s, {});
    QVERIFY(theirs.open(state, u"tools/call"_s, u"t"_s));
    QVERIFY(!ours.open(state, u"tools/call"_s, u"t"_s));
}

void TestMrtrState::textThatIsNoStateDoesNotOpen_data()
{
    QTest::addColumn<QString>("text");
    const ManualClock clock;
    const QString good = MrtrState("k", &clock).seal(u"tools/call"_s, u"t"_s, {{"a"_L1, 1}});
    QString changedPayload = good;
    changedPayload[3] = changedPayload[3] == u'A' ? u'B' : u'A';
    QString changedTag = good;
    changedTag[good.size() - 2] = changedTag[good.size() - 2] == u'A' ? u'B' : u'A';
    QTest::newRow("an empty string") << QString();
    QTest::newRow("no dot") << u"abc"_s;
    QTest::newRow("nothing before the dot") << u".abc"_s;
    QTest::newRow("a payload with one character changed") << changedPayload;
    QTest::newRow("a tag with one character changed") << changedTag;
    QTest::newRow("a tag cut short") << good.left(good.size() - 4);
    QTest::newRow("characters outside base64url") << u"a*b.c*d"_s;
}

void TestMrtrState::textThatIsNoStateDoesNotOpen()
{
    QFETCH(QString, text);
    const ManualClock clock;
    QVERIFY(!MrtrState("k", &clock).open(text, u"tools/call"_s, u"t"_s));
}

void TestMrtrState::theBindingDependsOnTheArgumentsNotTheirOrder()
{
    QJsonObject ab{{"a"_L1, 1}};
    ab.insert("b"_L1, 2);
    QJsonObject ba{{"b"_L1, 2}};
    ba.insert("a"_L1, 1);
    QCOMPARE(MrtrState::bindingOf(u"t"_s, ab), MrtrState::bindingOf(u"t"_s, ba));
    QVERIFY(MrtrState::bindingOf(u"t"_s, ab) != MrtrState::bindingOf(u"t"_s, {{"a"_L1, 2}}));
    QVERIFY(MrtrState::bindingOf(u"t"_s, ab) != MrtrState::bindingOf(u"u"_s, ab));
}

QTEST_GUILESS_MAIN(TestMrtrState)
#include "tst_mrtrstate.moc"
