// SPDX-License-Identifier: MIT
// The HTTP route's door to a server's credentials (AuthorizationGate), against a
// ScriptedHttpServer that counts every POST on its side: a request refused at the door is
// sent once more after the credentials are fixed, the same frame, and never more than that.
#include "recovery/sessionexpiryclassifier.h"
#include "scriptedhttpserver.h"
#include "transport/authorizationgate.h"
#include "transport/httpfallbacktransport.h"

#include <QSignalSpy>
#include <QTest>
#include <QTimer>

using namespace Qt::StringLiterals;
using namespace Sonde;
using namespace SondeTest;

namespace {

QByteArray call(int id)
{
    return "{\"jsonrpc\":\"2.0\",\"id\":" + QByteArray::number(id) +
           ",\"method\":\"tools/call\",\"params\":{\"name\":\"write\",\"arguments\":{}}}";
}

// Credentials that change when asked: each challenge is answered (later, as a real flow
// would) with a new token, or with a refusal.
class FakeAuthorization final : public HttpAuthorization
{
public:
    QByteArray header() const override
    {
        return m_token.isEmpty() ? QByteArray() : "Bearer " + m_token;
    }
    void challenged(const Challenge &challenge, std::function<void(Verdict)> done) override
    {
        challenges.append(challenge);
        if (hold) {
            m_held = std::move(done);
            return;
        }
        QTimer::singleShot(20, [this, done] {
            Verdict v;
            if (refuse) {
                v.error = refusal.isError()
                              ? refusal
                              : Error::transport(u"needs_reauth: the refresh token was revoked"_s);
            } else {
                m_token = "t" + QByteArray::number(challenges.size());
                v.retry = true;
            }
            ++answered;
            done(v);
        });
    }
    // The held challenge is answered now (a token, as the timer would give).
    void release()
    {
        m_token = "t" + QByteArray::number(challenges.size());
        ++answered;
        Verdict v;
        v.retry = true;
        std::exchange(m_held, {})(v);
    }
    QList<Challenge> challenges;
    int answered = 0;
    bool refuse = false;
    Error refusal;     // what a refused challenge says (a default text when unset)
    bool hold = false; // challenges wait for release(), so a test can act while one runs

private:
    QByteArray m_token;
    std::function<void(Verdict)> m_held;
};

ServerConfig configFor(const ScriptedHttpServer &server)
{
    ServerConfig config;
    config.route = ServerConfig::Route::StreamableHttp;
    config.url = QUrl(server.url());
    return config;
}

// A server that refuses at the door until the request carries `token`, then answers `text`.
void acceptOnly(ScriptedHttpServer &server, const QByteArray &token, const QString &text)
{
    server.on(u"tools/call"_s, [token, text](const ScriptedHttpServer::Request &r) -> QByteArray {
        if (!r.headers.contains(QByteArray("authorization: ").append(token)))
            return ScriptedHttpServer::response(401, "application/json", "{}",
                                                "WWW-Authenticate: Bearer\r\n");
        return ScriptedHttpServer::jsonResult(r.id, ScriptedHttpServer::textResult(text));
    });
}

QByteArray refusal(int status, const QByteArray &challenge)
{
    return ScriptedHttpServer::response(status, "application/json", "{\"error\":\"invalid_token\"}",
                                        "WWW-Authenticate: " + challenge + "\r\n");
}

} // namespace

class TestAuthorizationGate : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aRefusalAtTheDoorIsSentOnceMoreWithTheNewCredentials_data()
    {
        QTest::addColumn<QByteArray>("acceptedToken"); // the token the server takes
        QTest::addColumn<int>("status");               // what it answers without it
        QTest::addColumn<QByteArray>("challenge");
        QTest::addColumn<int>("expectedPosts");
        QTest::addColumn<int>("expectedChallenges");
        QTest::addColumn<int>("failedStatus"); // 0: answered
        QTest::newRow("a 401 is one flow and one more POST of the same frame")
            << QByteArray("bearer t1") << 401
            << QByteArray(
                   "Bearer resource_metadata=\"http://x/.well-known/oauth-protected-resource\"")
            << 2 << 1 << 0;
        QTest::newRow("a 403 insufficient_scope is a step-up and one more POST")
            << QByteArray("bearer t1") << 403
            << QByteArray("Bearer error=\"insufficient_scope\", scope=\"mcp:write\"") << 2 << 1
            << 0;
        QTest::newRow("any other 403 is the server's final word, asked nothing")
            << QByteArray("bearer t1") << 403 << QByteArray("Bearer realm=\"x\"") << 1 << 0 << 403;
        QTest::newRow("a 404 for a lost session is recovery's, never a reason to authorize")
            << QByteArray("bearer t1") << 404 << QByteArray("Bearer") << 1 << 0 << 404;
        QTest::newRow("a server that refuses every token gets three more POSTs, no loop")
            << QByteArray("bearer never") << 401 << QByteArray("Bearer error=\"invalid_token\"")
            << 1 + AuthorizationGate::MaxRetries << AuthorizationGate::MaxRetries << 401;
    }
    void aRefusalAtTheDoorIsSentOnceMoreWithTheNewCredentials()
    {
        QFETCH(QByteArray, acceptedToken);
        QFETCH(int, status);
        QFETCH(QByteArray, challenge);
        QFETCH(int, expectedPosts);
        QFETCH(int, expectedChallenges);
        QFETCH(int, failedStatus);
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        QList<QJsonValue> ids;
        server.on(u"tools/call"_s, [&](const ScriptedHttpServer::Request &r) -> QByteArray {
            ids.append(r.id);
            if (!r.headers.contains(QByteArray("authorization: ").append(acceptedToken)))
                return refusal(status, challenge);
            return ScriptedHttpServer::jsonResult(r.id, ScriptedHttpServer::textResult(u"done"_s));
        });
        FakeAuthorization auth;
        HttpFallbackTransport t(configFor(server));
        t.setAuthorization(&auth);
        QSignalSpy received(&t, &Transport::frameReceived);
        QSignalSpy failed(&t, &Transport::requestFailed);
        t.open();
        t.send(call(7));
        QTRY_COMPARE(received.size() + failed.size(), 1);
        QCOMPARE(server.posts(u"tools/call"_s), expectedPosts);
        QCOMPARE(auth.challenges.size(), expectedChallenges);
        for (const QJsonValue &id : ids)
            QCOMPARE(id.toInt(), 7); // the same frame: the refused one never ran
        if (expectedChallenges > 0) {
            QCOMPARE(auth.challenges.first().status, status);
            QCOMPARE(auth.challenges.first().hadCredentials, false);
            QVERIFY(auth.challenges.first().wwwAuthenticate.join().contains(challenge));
        }
        if (failedStatus) {
            const Error e = failed.first().at(1).value<Error>();
            QCOMPARE(e.httpStatus().value_or(0), failedStatus);
        } else {
            QVERIFY(received.first().at(0).toByteArray().contains("done"));
        }
        t.abort();
    }

    void requestsRefusedDuringOneFlowWaitForItsAnswer()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        acceptOnly(server, "bearer t1", u"ok"_s);
        FakeAuthorization auth;
        HttpFallbackTransport t(configFor(server));
        t.setAuthorization(&auth);
        QSignalSpy received(&t, &Transport::frameReceived);
        t.open();
        for (int id = 1; id <= 3; ++id)
            t.send(call(id));
        QTRY_COMPARE(received.size(), 3);
        QCOMPARE(auth.challenges.size(), 1); // one flow for all three
        QCOMPARE(server.posts(u"tools/call"_s), 6);
        t.abort();
    }

    void noCredentialsFailTheRequestWithItsStatusAndTheReason()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        server.on(u"tools/call"_s, [&](const ScriptedHttpServer::Request &) -> QByteArray {
            return refusal(401, "Bearer error=\"invalid_token\"");
        });
        FakeAuthorization auth;
        auth.refuse = true;
        HttpFallbackTransport t(configFor(server));
        t.setAuthorization(&auth);
        QSignalSpy failed(&t, &Transport::requestFailed);
        t.open();
        t.send(call(3));
        QTRY_COMPARE(failed.size(), 1);
        const Error e = failed.first().at(1).value<Error>();
        QCOMPARE(e.httpStatus().value_or(0), 401);
        QVERIFY2(e.message().startsWith("needs_reauth:"_L1), qPrintable(e.message()));
        QCOMPARE(server.posts(u"tools/call"_s), 1);
        t.abort();
    }

    // A refresh of the token is another exchange: its failure is the reason the request
    // failed, not a sign that the request was never sent or that the session expired.
    void aFailedRefreshIsNoSessionSignalForTheRequest_data()
    {
        QTest::addColumn<Error>("refreshFailure");
        QTest::newRow("the authorization server refused the connection")
            << Error::transport(u"refresh: Connection refused"_s, Error::Condition::Refused);
        QTest::newRow("the authorization server closed the connection")
            << Error::transport(u"refresh: Connection closed"_s, Error::Condition::Closed);
        QTest::newRow("the refresh's words carry a session text marker")
            << Error(Error::Kind::Remote, u"needs_reauth: refresh: session expired"_s);
    }
    void aFailedRefreshIsNoSessionSignalForTheRequest()
    {
        QFETCH(Error, refreshFailure);
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        server.on(u"tools/call"_s, [&](const ScriptedHttpServer::Request &) -> QByteArray {
            return refusal(401, "Bearer error=\"invalid_token\"");
        });
        FakeAuthorization auth;
        auth.refuse = true;
        auth.refusal = refreshFailure;
        HttpFallbackTransport t(configFor(server));
        t.setAuthorization(&auth);
        QSignalSpy failed(&t, &Transport::requestFailed);
        t.open();
        t.send(call(4));
        QTRY_COMPARE(failed.size(), 1);
        const Error e = failed.first().at(1).value<Error>();
        QCOMPARE(e.reach(), Error::Reach::Written);
        const auto c = SessionExpiryClassifier::classify(e);
        QCOMPARE(ExpiryRules::name(c.rule), u"no-signal"_s);
        QVERIFY(!c.expired);
        QCOMPARE(server.posts(u"tools/call"_s), 1);
        t.abort();
    }

    void aRequestAbandonedWhileHeldIsNotSentAgain()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        acceptOnly(server, "bearer t1", u"ok"_s);
        FakeAuthorization auth;
        auth.hold = true; // the flow runs until the test has abandoned the request
        HttpFallbackTransport t(configFor(server));
        t.setAuthorization(&auth);
        t.open();
        t.send(call(5));
        QTRY_COMPARE(auth.challenges.size(), 1);
        t.abandon(QJsonValue(5)); // cancelled while the flow runs
        auth.release();
        QCOMPARE(auth.answered, 1);
        // A resend would reach the server within a loopback round trip: wait for one, bounded
        // (what must not happen has no signal to wait for).
        QTest::qWait(100);
        QCOMPARE(server.posts(u"tools/call"_s), 1);
        t.abort();
    }
};

QTEST_GUILESS_MAIN(TestAuthorizationGate)
#include "tst_authorizationgate.moc"
