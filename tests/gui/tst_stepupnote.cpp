// SPDX-License-Identifier: MIT
// What the Tools tab says of a call held for a step-up (StepUpNote), decided from the call's
// auth-challenge event and the server's authorization, and kept by the ServerViewStore for
// the call while it waits and with its answer after.
#include "application/auth/stepupnote.h"
#include "application/servers/serverviewstore.h"

#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {
LifecycleDetails::AuthChallenge challenge(int status, const QString &wwwAuthenticate)
{
    return {.id = 7, .status = status, .wwwAuthenticate = wwwAuthenticate};
}
} // namespace

class TestStepUpNote : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aChallengeIsAStepUpOnlyWhenItAsksForScope_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("www");
        QTest::addColumn<QStringList>("granted");
        QTest::addColumn<QString>("scope"); // empty: no step-up
        const QString insufficient =
            u"Bearer error=\"insufficient_scope\", scope=\"mcp:read mcp:write\""_s;
        QTest::newRow("a 403 for more scope asks for what is not granted yet")
            << 403 << insufficient << QStringList{u"mcp:read"_s} << u"mcp:write"_s;
        QTest::newRow("with nothing granted it asks for the whole scope")
            << 403 << insufficient << QStringList{} << u"mcp:read mcp:write"_s;
        QTest::newRow("a 401 asks for a sign-in, not a step-up")
            << 401 << u"Bearer resource_metadata=\"http://x/\""_s << QStringList{} << QString();
        QTest::newRow("a 403 with another error is no step-up")
            << 403 << u"Bearer error=\"invalid_token\""_s << QStringList{} << QString();
    }
    void aChallengeIsAStepUpOnlyWhenItAsksForScope()
    {
        QFETCH(int, status);
        QFETCH(QString, www);
        QFETCH(QStringList, granted);
        QFETCH(QString, scope);
        const std::optional<StepUpNote> note =
            StepUpNote::fromChallenge(challenge(status, www), granted);
        QCOMPARE(note.has_value(), !scope.isEmpty());
        if (note)
            QCOMPARE(note->scope, scope);
    }

    void whileItWaitsItSaysWhereTheSignInStands_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QStringList>("granted");
        QTest::addColumn<QString>("saying");
        using S = AuthState::Status;
        QTest::newRow("still signed in with less scope: signing in again")
            << int(S::Authorized) << QStringList{u"mcp:read"_s} << u"signing in again"_s;
        QTest::newRow("the browser is open: waiting for the user there")
            << int(S::AwaitingUser) << QStringList{u"mcp:read"_s}
            << u"waiting for you to sign in with scope mcp:write in the browser"_s;
        QTest::newRow("signed in with the scope: the call goes again")
            << int(S::Authorized) << QStringList{u"mcp:read"_s, u"mcp:write"_s}
            << u"sending the call again"_s;
        QTest::newRow("a failed sign-in says why")
            << int(S::Failed) << QStringList{} << u"signing in again failed: access_denied"_s;
    }
    void whileItWaitsItSaysWhereTheSignInStands()
    {
        QFETCH(int, status);
        QFETCH(QStringList, granted);
        QFETCH(QString, saying);
        AuthState state;
        state.status = AuthState::Status(status);
        state.scopes = granted;
        state.error = u"access_denied"_s;
        const StepUpNote note{u"mcp:write"_s};
        QVERIFY2(note.waiting(state).contains(saying), qPrintable(note.waiting(state)));
    }

    void theAnswerSaysItNeededOne()
    {
        const StepUpNote note{u"mcp:write"_s};
        QVERIFY(note.answered(true).startsWith(u"Needed a step-up to scope mcp:write"_s));
        QVERIFY(note.answered(false).contains(u"did not complete"_s));
    }

    // Kept for the pending call's server only, then with that tool's answer.
    void theStoreKeepsItWithTheCallAndThenItsAnswer()
    {
        ServerViewStore store;
        store.addServer(u"a"_s, {});
        store.addServer(u"b"_s, {});
        store.addPending(5, {u"a"_s, PendingCommand::Kind::ToolCall, u"increment-counter"_s});
        QSignalSpy changed(&store, &ServerViewStore::stepUpChanged);
        store.setStepUp(5, StepUpNote{u"mcp:write"_s});
        QCOMPARE(changed.size(), 1);
        QCOMPARE(store.pendingStepUp(u"a"_s)->scope, u"mcp:write"_s);
        QVERIFY(!store.pendingStepUp(u"b"_s));
        store.setStepUp(6, StepUpNote{u"x"_s}); // no such call
        QVERIFY(!store.pendingStepUp(u"b"_s));
        CallOutcome o;
        o.ticket = 5;
        o.server = u"a"_s;
        o.method = u"tools/call"_s;
        store.settle(o);
        QVERIFY(!store.pendingStepUp(u"a"_s));
        QCOMPARE(store.toolAnswerStepUp(u"a"_s, u"increment-counter"_s)->scope, u"mcp:write"_s);
        // The next answer of that tool without one: the mark goes.
        store.addPending(8, {u"a"_s, PendingCommand::Kind::ToolCall, u"increment-counter"_s});
        o.ticket = 8;
        store.settle(o);
        QVERIFY(!store.toolAnswerStepUp(u"a"_s, u"increment-counter"_s));
    }
};

QTEST_GUILESS_MAIN(TestStepUpNote)
#include "tst_stepupnote.moc"
