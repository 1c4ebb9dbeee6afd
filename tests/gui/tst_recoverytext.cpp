// SPDX-License-Identifier: MIT
// What the window says about recovery (RecoveryText), without a window: the banner over an
// answer in words a user reads (never a raw rule name in the text; the rule in the tooltip),
// why a write sent again was safe, a cancellation said once, and the reconnect that happened
// before a call told from the server's history.
#include "application/tools/recoverytext.h"
#include "recovery/recoveryerrors.h"

#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

CallOutcome answered(int generation = 1)
{
    CallOutcome o;
    o.method = u"tools/call"_s;
    o.generation = generation;
    o.startedMs = 10'000;
    o.finishedMs = 10'010;
    o.result = QJsonObject{};
    return o;
}

} // namespace

class TestRecoveryText : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theBannerSaysWhatHappenedInWords_data()
    {
        QTest::addColumn<CallOutcome>("outcome");
        QTest::addColumn<QString>("starts");
        QTest::addColumn<QString>("contains");
        QTest::addColumn<QString>("notInText");

        CallOutcome replayed = answered(2);
        replayed.recovery = CallRecovery{};
        replayed.recovery->replayed = true;
        replayed.recovery->rule = ExpiryRule::Http404WithSession;
        replayed.recovery->verdict =
            ReplayVerdict{true, ReplaySource::Transport,
                          u"the server refused the session before running the request"_s};
        QTest::newRow("a write sent again says why that was safe for any tool")
            << replayed << u"Sent again on generation 2, and answered"_s
            << u"Safe for any tool: the first call never ran"_s << u"http-404-with-session"_s;

        CallOutcome read = replayed;
        read.recovery->rule = ExpiryRule::TextMarker;
        read.recovery->verdict =
            ReplayVerdict{true, ReplaySource::ServerHint, u"the server says readOnlyHint: true"_s};
        QTest::newRow("a read sent again names the hint that allowed it")
            << read << u"Sent again"_s << u"Safe: the server says readOnlyHint: true"_s
            << u"text-marker"_s;

        CallOutcome uncertain = answered();
        uncertain.result = QJsonValue();
        uncertain.error = RecoveryErrors::outcomeUncertain(
            u"increment-counter"_s, u"demo-http"_s, ExpiryRule::TextMarker, ReconnectOutcome::Ok, 2,
            Error::transport(u"session not found"_s), true);
        uncertain.recovery = CallRecovery{};
        uncertain.recovery->rule = ExpiryRule::TextMarker;
        uncertain.recovery->outcomeUncertain = true;
        QTest::newRow("an uncertain write says why in words, the rule only in the tooltip")
            << uncertain << u"Outcome uncertain — The call to tool"_s
            << u"before its session failed (the server's answer said the session was gone)"_s
            << u"text-marker"_s;

        CallOutcome cancelled = answered();
        cancelled.error = Error::cancelled(u"cancelled by the user"_s);
        QTest::newRow("a cancellation by the user is said once")
            << cancelled << u"Cancelled by you"_s << QString() << u"cancelled error"_s;

        CallOutcome refused = answered();
        refused.error = Error(Error::Kind::Refused, u"demo's circuit breaker is open"_s);
        QTest::newRow("a breaker refusal is not sent")
            << refused << u"Not sent — demo's circuit breaker is open"_s << QString() << QString();

        CallOutcome timedOut = answered();
        timedOut.error = Error::timeout(u"tools/call timed out after 1000 ms"_s);
        timedOut.recovery = CallRecovery{};
        timedOut.recovery->rule = ExpiryRule::NoSignal;
        QTest::newRow("an error names its kind in words, the rule only in the tooltip")
            << timedOut << u"Timed out — tools/call timed out"_s << QString() << u"no-signal"_s;
    }
    void theBannerSaysWhatHappenedInWords()
    {
        QFETCH(CallOutcome, outcome);
        QFETCH(QString, starts);
        QFETCH(QString, contains);
        QFETCH(QString, notInText);
        const RecoveryText::Banner b = RecoveryText::forAnswer(outcome);
        QVERIFY2(b.text.startsWith(starts), qPrintable(b.text));
        if (!contains.isEmpty())
            QVERIFY2(b.text.contains(contains), qPrintable(b.text));
        if (!notInText.isEmpty())
            QVERIFY2(!b.text.contains(notInText), qPrintable(b.text));
    }

    void everyRuleHasWords_data()
    {
        QTest::addColumn<QString>("rule");
        for (const char *rule : {"http-404-with-session", "http-400-invalid-session",
                                 "connection-refused", "transport-closed", "stream-broken",
                                 "text-marker", "timeout", "no-signal", "cancelled-by-user"})
            QTest::newRow(rule) << QString::fromLatin1(rule);
    }
    void everyRuleHasWords()
    {
        QFETCH(QString, rule);
        const QString words = RecoveryText::ruleInWords(rule);
        QVERIFY(!words.isEmpty());
        QVERIFY2(!words.contains(rule), qPrintable(words));
    }

    void aReconnectBeforeTheCallIsToldFromTheHistory()
    {
        SessionSnapshot s;
        s.recovery = RecoveryState{};
        const HistoryEvent fault{9'000, HistoryEvent::Fault{.description = u"expire-session"_s}};
        const HistoryEvent c{
            9'100, HistoryEvent::Classification{.rule = u"http-404-with-session"_s,
                                                .detail = u"HTTP 404"_s,
                                                .expired = true,
                                                .source = u"by the session's event stream (GET), "
                                                          u"outside any call"_s}};
        const HistoryEvent r{
            9'200, HistoryEvent::Reconnect{.trigger = u"connection lost (http-404-with-session)"_s,
                                           .fromGeneration = 1,
                                           .toGeneration = 2}};
        s.recovery->history = {fault, c, r};
        const QString note = RecoveryText::reconnectBefore(s, answered(2));
        QVERIFY2(note.startsWith(u"Answered on generation 2. Sonde had reconnected before this "
                                 u"call"_s),
                 qPrintable(note));
        QVERIFY2(note.contains(u"HTTP 404 for the session"_s), qPrintable(note));
        QVERIFY2(note.contains(u"event stream"_s), qPrintable(note));
        QVERIFY2(note.contains(u"expire-session"_s), qPrintable(note));
        QVERIFY2(!note.contains(u"http-404-with-session"_s), qPrintable(note));
        // Nothing to tell on the first generation, or for a call that began before it.
        QVERIFY(RecoveryText::reconnectBefore(s, answered(1)).isEmpty());
        CallOutcome early = answered(2);
        early.startedMs = 9'150;
        QVERIFY(RecoveryText::reconnectBefore(s, early).isEmpty());
        // The banner says it when nothing else does.
        QCOMPARE(RecoveryText::forAnswer(answered(2), note).text, note);
    }
};

QTEST_GUILESS_MAIN(TestRecoveryText)
#include "tst_recoverytext.moc"
