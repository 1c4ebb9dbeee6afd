// SPDX-License-Identifier: MIT
// The classifier cases of the reference suite (hermes-session-reconnect-tests), in Sonde's
// terms, plus the structured signals and the non-markers docs/recovery.md §1 adds.
#include "protocol/error.h"
#include "recovery/sessionexpiryclassifier.h"

#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestSessionExpiryClassifier : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void classifiesMessages_data()
    {
        QTest::addColumn<QString>("message");
        QTest::addColumn<bool>("expired");
        QTest::newRow("the reporter's exact 'Invalid or expired session'")
            << u"Invalid params: Invalid or expired session"_s << true;
        QTest::newRow("'Session expired'") << u"Session expired"_s << true;
        QTest::newRow("'expired session: abc'") << u"expired session: abc"_s << true;
        QTest::newRow("'session not found'") << u"session not found"_s << true;
        QTest::newRow("'Unknown session: abc123'") << u"Unknown session: abc123"_s << true;
        QTest::newRow("'session terminated'") << u"session terminated"_s << true;
        QTest::newRow("a ClosedResourceError") << u"ClosedResourceError"_s << true;
        QTest::newRow("'transport is closed'") << u"the transport is closed"_s << true;
        QTest::newRow("'Broken pipe'") << u"write failed: Broken pipe"_s << true;
        QTest::newRow("'unexpected end of file'") << u"unexpected end of file"_s << true;
        QTest::newRow("a tool that failed is not a session problem")
            << u"Tool failed to execute"_s << false;
        QTest::newRow("a missing parameter is not a session problem")
            << u"Missing parameter"_s << false;
        QTest::newRow("a refused connection is not an expired session")
            << u"Connection refused"_s << false;
        QTest::newRow("401 Unauthorized is not an expired session")
            << u"401 Unauthorized"_s << false;
        QTest::newRow("an empty message is not an expired session") << QString() << false;
    }
    void classifiesMessages()
    {
        QFETCH(QString, message);
        QFETCH(bool, expired);
        const auto r = SessionExpiryClassifier::classify(Error(Error::Kind::Remote, message));
        QCOMPARE(r.expired, expired);
        if (expired) {
            QCOMPARE(ExpiryRules::name(r.rule), u"text-marker"_s);
            QVERIFY(r.detail.startsWith(u"matched by text marker '"_s));
        }
    }

    void structuredSignalsComeFirstAndNameTheirRule_data()
    {
        QTest::addColumn<Error>("error");
        QTest::addColumn<bool>("expired");
        QTest::addColumn<QString>("rule");
        Error e404 = Error::transport(u"POST /mcp answered HTTP 404"_s);
        e404.setHttpStatus(404).setSessionId(u"s-1"_s);
        QTest::newRow("HTTP 404 for a request that carried a session id")
            << e404 << true << u"http-404-with-session"_s;
        Error plain404 = Error::transport(u"POST /wrong answered HTTP 404"_s);
        plain404.setHttpStatus(404);
        QTest::newRow("HTTP 404 without a session id is a wrong URL, not an expiry")
            << plain404 << false << u"no-signal"_s;
        Error e400 = Error::transport(
            u"POST /mcp answered HTTP 400: Bad Request: No valid session ID provided"_s);
        e400.setHttpStatus(400).setSessionId(u"s-1"_s).setJsonRpcCode(-32000);
        QTest::newRow("HTTP 400 'No valid session ID provided' from the SDK servers")
            << e400 << true << u"http-400-invalid-session"_s;
        Error other400 =
            Error::transport(u"POST /mcp answered HTTP 400: Bad Request: malformed JSON"_s);
        other400.setHttpStatus(400).setSessionId(u"s-1"_s);
        QTest::newRow("another HTTP 400 is not an expiry") << other400 << false << u"no-signal"_s;
        QTest::newRow("the transport closing under the request")
            << Error::transport(u"server process 7 was killed by signal 9"_s,
                                Error::Condition::Closed)
            << true << u"transport-closed"_s;
        QTest::newRow("a server that refuses the connection (restarting) under a request")
            << Error::transport(u"POST /mcp failed: Connection refused"_s,
                                Error::Condition::Refused)
            << true << u"connection-refused"_s;
        Error e413 = Error::transport(u"POST /mcp answered HTTP 413: Payload Too Large"_s);
        e413.setHttpStatus(413).setSessionId(u"s-1"_s);
        QTest::newRow("HTTP 413 refuses one request, not the session")
            << e413 << false << u"no-signal"_s;
        Error wild = Error::remote(-32602, u"Invalid params: Invalid or expired session"_s);
        QTest::newRow("HTTP 200 with a JSON-RPC 'Invalid or expired session' falls back to text")
            << wild << true << u"text-marker"_s;
    }
    void structuredSignalsComeFirstAndNameTheirRule()
    {
        QFETCH(Error, error);
        QFETCH(bool, expired);
        QFETCH(QString, rule);
        const auto r = SessionExpiryClassifier::classify(error);
        QCOMPARE(r.expired, expired);
        QCOMPARE(ExpiryRules::name(r.rule), rule);
    }

    void aMarkerDeepInTheCauseChainIsFound()
    {
        Error e = Error::remote(-32603, u"session not found"_s);
        for (int i = 0; i < 50; ++i) {
            Error outer = Error::protocol(u"wrapper %1"_s.arg(i));
            outer.setCause(e);
            e = outer;
        }
        QVERIFY(SessionExpiryClassifier::classify(e).expired);
    }

    void aTwentyThousandDeepChainTerminatesWithinTheBudgetAndClassifiesFalse()
    {
        Error e = Error::transport(u"leaf"_s);
        for (int i = 0; i < 2 * SessionExpiryClassifier::DefaultNodeBudget; ++i) {
            Error wrapper = Error::protocol(u"layer %1"_s.arg(i));
            wrapper.setCause(e);
            e = std::move(wrapper);
        }
        const auto r = SessionExpiryClassifier::classify(e);
        QVERIFY(!r.expired);
        QVERIFY(r.budgetExhausted);
        QCOMPARE(r.nodesVisited, SessionExpiryClassifier::DefaultNodeBudget);
    }

    void aGroupsOwnCauseIsInspectedLikeAnyNode()
    {
        Error group(Error::Kind::Transport, u"task group"_s);
        group.addChild(Error::protocol(u"unrelated"_s));
        group.setCause(Error::remote(0, u"session terminated"_s));
        QVERIFY(SessionExpiryClassifier::classify(group).expired);
    }

    void aCancellationOnTheGroupsCauseVetoesAMarkerInsideTheGroup()
    {
        Error group(Error::Kind::Transport, u"task group"_s);
        group.addChild(Error::remote(0, u"session terminated"_s));
        group.setCause(Error::cancelled(u"cancelled by the user"_s));
        const auto r = SessionExpiryClassifier::classify(group);
        QVERIFY(!r.expired);
        QCOMPARE(ExpiryRules::name(r.rule), u"cancelled-by-user"_s);
    }

    void aRequestsOwnReachDecidesOverAnotherExchangesFailure_data()
    {
        QTest::addColumn<Error>("error");
        QTest::addColumn<bool>("modern");
        QTest::addColumn<QString>("rule");
        // The case: the POST's SSE answer had begun (event ids), the server went down,
        // and the GET that resumes the stream was refused.
        Error refusedResume = Error::transport(u"GET /mcp (resume) failed: Connection refused"_s,
                                               Error::Condition::Refused);
        refusedResume.setReach(Error::Reach::NotWritten);
        Error afterRefused =
            Error::transport(u"resuming the answer failed"_s, Error::Condition::Closed);
        afterRefused.setCause(refusedResume).setReach(Error::Reach::ResponseStarted);
        QTest::newRow("a resumption refused at connect is not the request's refusal")
            << afterRefused << false << u"transport-closed"_s;
        QTest::newRow("in the sessionless era too the request may have run")
            << afterRefused << true << u"stream-broken"_s;
        Error lost404 = Error::transport(u"GET /mcp (resume) answered HTTP 404"_s);
        lost404.setHttpStatus(404).setSessionId(u"s-1"_s);
        Error after404 =
            Error::transport(u"resuming the answer failed"_s, Error::Condition::Closed);
        after404.setCause(lost404).setReach(Error::Reach::ResponseStarted);
        QTest::newRow("a resumption answered 404 for the session is not an expiry of the request")
            << after404 << false << u"transport-closed"_s;
        Error bareRefusal = Error::transport(u"resumption refused"_s, Error::Condition::Refused);
        bareRefusal.setReach(Error::Reach::ResponseStarted);
        QTest::newRow("even a refusal on the top node is no refusal once the answer had begun")
            << bareRefusal << false << u"transport-closed"_s;
        Error refresh = Error::remote(0, u"needs_reauth: refresh: Connection closed"_s);
        refresh.setHttpStatus(401).setReach(Error::Reach::Written);
        QTest::newRow("a failed token refresh's words are no text marker for the request")
            << refresh << false << u"no-signal"_s;
        Error written404 = Error::transport(u"POST /mcp answered HTTP 404"_s);
        written404.setHttpStatus(404).setSessionId(u"s-1"_s).setReach(Error::Reach::Written);
        QTest::newRow("a 404 to the request's own POST is still the spec's expiry")
            << written404 << false << u"http-404-with-session"_s;
        Error writtenRefusedCause =
            Error::transport(u"the connection closed after the request was sent"_s);
        writtenRefusedCause.setCause(
            Error::transport(u"connection refused"_s, Error::Condition::Refused));
        writtenRefusedCause.setReach(Error::Reach::Written);
        QTest::newRow("a written request is never 'connection-refused' from its cause chain")
            << writtenRefusedCause << false << u"no-signal"_s;
        Error notWritten =
            Error::transport(u"POST /mcp failed: Connection refused"_s, Error::Condition::Refused);
        notWritten.setReach(Error::Reach::NotWritten);
        QTest::newRow("a POST refused at connect was never sent")
            << notWritten << false << u"connection-refused"_s;
        Error oversized = Error::protocol(u"an SSE event is over the 1 MiB frame limit"_s);
        oversized.setReach(Error::Reach::ResponseStarted);
        QTest::newRow("an answer over the limit fails its request without recovery")
            << oversized << false << u"no-signal"_s;
    }
    void aRequestsOwnReachDecidesOverAnotherExchangesFailure()
    {
        QFETCH(Error, error);
        QFETCH(bool, modern);
        QFETCH(QString, rule);
        const auto r =
            SessionExpiryClassifier::classify(error, SessionExpiryClassifier::DefaultNodeBudget,
                                              modern ? SessionExpiryClassifier::Era::Rev20260728
                                                     : SessionExpiryClassifier::Era::Initialize);
        QCOMPARE(ExpiryRules::name(r.rule), rule);
        QCOMPARE(r.expired, rule != "no-signal"_L1);
    }

    void aCancellationVetoesEvenAStructuredSignal()
    {
        Error closed = Error::transport(u"closed"_s, Error::Condition::Closed);
        closed.setCause(Error::cancelled(u"user pressed Cancel"_s));
        QVERIFY(!SessionExpiryClassifier::classify(closed).expired);
    }
};

QTEST_APPLESS_MAIN(TestSessionExpiryClassifier)
#include "tst_sessionexpiryclassifier.moc"
