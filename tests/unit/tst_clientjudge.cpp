// SPDX-License-Identifier: MIT
#include "proxy/clientjudge.h"
#include "util/clock.h"

#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

// The verdicts on a client's recovery (docs/proxy.md, "Verdicts"), each from a scripted
// reaction on a manual clock: what the client does after the fault, and when.
class TestClientJudge : public QObject
{
    Q_OBJECT
private:
    static ObservedRequest call(const QString &tool, const QString &id, const QString &sid = {})
    {
        ObservedRequest r;
        r.method = u"tools/call"_s;
        r.tool = tool;
        r.argsKey = "{\"n\":1}";
        r.idKey = id;
        r.sessionId = sid;
        return r;
    }
    static ObservedRequest request(const QString &method, const QString &id,
                                   const QString &sid = {})
    {
        ObservedRequest r;
        r.method = method;
        r.idKey = id;
        r.sessionId = sid;
        return r;
    }
    enum Reaction
    {
        Nothing,
        SameCallAgain,
        Initialize,
        DeadSessionCallsThenNothing,
        DeadSessionCallThenInitialize,
        Resume,
        Cancel,
        OtherRequest,
        ListTools,
    };

private Q_SLOTS:
    void judgesTheClientsReaction_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("tool"); // "echo" is read-only, "write" is not
        QTest::addColumn<int>("reaction");
        QTest::addColumn<int>("retryAfterS");
        QTest::addColumn<QString>("state");
        QTest::addColumn<QString>("words");
        using K = ProxyFault::Kind;
        QTest::newRow("a client that initializes again after the 404 passes")
            << int(K::ExpireSession) << u""_s << int(DeadSessionCallThenInitialize) << -1
            << u"pass"_s << u"after 1 request(s) on the dead session"_s;
        QTest::newRow("a client that keeps using the dead session fails")
            << int(K::ExpireSession) << u""_s << int(DeadSessionCallsThenNothing) << -1 << u"fail"_s
            << u"never initialized again: 3 request(s)"_s;
        QTest::newRow("a client that sends nothing after an expiry is not graded")
            << int(K::ExpireSession) << u""_s << int(Nothing) << -1 << u"note"_s
            << u"nothing to grade"_s;
        QTest::newRow("a write sent again after a dropped connection fails")
            << int(K::DropConnection) << u"write"_s << int(SameCallAgain) << -1 << u"fail"_s
            << u"may have run twice"_s;
        QTest::newRow("a write not sent again after a dropped connection passes")
            << int(K::DropConnection) << u"write"_s << int(Nothing) << -1 << u"pass"_s
            << u"did not send the write tools/call write again"_s;
        QTest::newRow("a read retried after a dropped connection passes")
            << int(K::DropConnection) << u"echo"_s << int(SameCallAgain) << -1 << u"pass"_s
            << u"retried the read"_s;
        QTest::newRow("a cut stream resumed with Last-Event-ID passes")
            << int(K::CutStream) << u"write"_s << int(Resume) << -1 << u"pass"_s
            << u"resumed the stream"_s;
        QTest::newRow("a cut stream never resumed fails")
            << int(K::CutStream) << u"write"_s << int(Nothing) << -1 << u"fail"_s
            << u"did not resume"_s;
        QTest::newRow("a cut write answered by sending it again fails")
            << int(K::CutStream) << u"write"_s << int(SameCallAgain) << -1 << u"fail"_s
            << u"may have run twice"_s;
        QTest::newRow("a retry after a 503 the server never saw passes")
            << int(K::Status) << u"write"_s << int(SameCallAgain) << -1 << u"pass"_s
            << u"safe: the server never received it"_s;
        QTest::newRow("a retry before Retry-After fails")
            << int(K::Status) << u"write"_s << int(SameCallAgain) << 5 << u"fail"_s
            << u"before the Retry-After of 5 s"_s;
        QTest::newRow("a request cancelled after its answer was dropped passes")
            << int(K::DropResponse) << u"write"_s << int(Cancel) << -1 << u"pass"_s
            << u"cancelled it"_s;
        QTest::newRow("a client still waiting at the window's end is told so")
            << int(K::DropResponse) << u"write"_s << int(Nothing) << -1 << u"note"_s
            << u"still waiting for the answer"_s;
        QTest::newRow("a client that goes on after a corrupt line passes")
            << int(K::CorruptResponse) << u"write"_s << int(OtherRequest) << -1 << u"pass"_s
            << u"kept the session"_s;
        QTest::newRow("a client that lists the tools after list_changed passes")
            << int(K::Notify) << u""_s << int(ListTools) << -1 << u"pass"_s << u"sent tools/list"_s;
        QTest::newRow("a client that ignores list_changed is told so")
            << int(K::Notify) << u""_s << int(Nothing) << -1 << u"note"_s
            << u"did not send tools/list"_s;
    }
    void judgesTheClientsReaction()
    {
        QFETCH(int, kind);
        QFETCH(QString, tool);
        QFETCH(int, reaction);
        QFETCH(int, retryAfterS);
        QFETCH(QString, state);
        QFETCH(QString, words);
        ManualClock clock;
        ClientJudge judge(clock, 10'000);
        judge.toolsListed({{u"echo"_s, true}, {u"write"_s, false}});
        QSignalSpy judged(&judge, &ClientJudge::judged);
        ProxyFault fault;
        fault.kind = ProxyFault::Kind(kind);
        fault.retryAfterS = retryAfterS;
        fault.method = u"notifications/tools/list_changed"_s;
        const int id = judge.armed(fault);
        QCOMPARE(judge.verdict(id).state, ProxyVerdict::State::Armed);

        const QString sid = u"dead"_s;
        const ObservedRequest hit =
            tool.isEmpty() ? request(QString(), QString(), sid) : call(tool, u"n:1"_s, sid);
        judge.fired(id, hit, u"ev-7"_s);
        QCOMPARE(judge.verdict(id).state, ProxyVerdict::State::Pending);
        clock.advance(1500);
        switch (Reaction(reaction)) {
        case Nothing:
            break;
        case SameCallAgain:
            judge.clientRequest(call(tool, u"n:2"_s, sid));
            break;
        case Initialize:
            judge.clientRequest(request(u"initialize"_s, u"n:9"_s));
            break;
        case DeadSessionCallsThenNothing:
            for (int i = 0; i < 3; ++i)
                judge.clientRequest(call(u"echo"_s, u"n:%1"_s.arg(10 + i), sid));
            break;
        case DeadSessionCallThenInitialize:
            judge.clientRequest(call(u"echo"_s, u"n:10"_s, sid));
            clock.advance(20);
            judge.clientRequest(request(u"initialize"_s, u"n:11"_s));
            break;
        case Resume:
            judge.clientResumed(u"ev-7"_s);
            break;
        case Cancel:
            judge.clientCancelled(u"n:1"_s);
            break;
        case OtherRequest:
            judge.clientRequest(request(u"ping"_s, u"n:3"_s));
            break;
        case ListTools:
            judge.clientRequest(request(u"tools/list"_s, u"n:4"_s));
            break;
        }
        clock.advance(10'000); // the window ends
        const ProxyVerdict v = judge.verdict(id);
        QCOMPARE(ProxyVerdict::stateName(v.state), state);
        QVERIFY2(v.summary.contains(words), qPrintable(v.summary));
        QCOMPARE(judged.size(), 1); // known once, never judged again
    }

    void theReactionTimeIsMeasuredFromTheFirstRefusal()
    {
        ManualClock clock;
        ClientJudge judge(clock, 10'000);
        ProxyFault fault;
        fault.kind = ProxyFault::Kind::ExpireSession;
        const int id = judge.armed(fault);
        judge.fired(id, request(QString(), QString(), u"s1"_s));
        clock.advance(4000); // the client was idle
        judge.clientRequest(request(u"tools/list"_s, u"n:1"_s, u"s1"_s));
        clock.advance(35);
        judge.clientRequest(request(u"initialize"_s, u"n:2"_s));
        QCOMPARE(judge.verdict(id).afterMs, 35);
    }

    void aFaultDisarmedBeforeItActedIsANote()
    {
        ManualClock clock;
        ClientJudge judge(clock, 10'000);
        ProxyFault fault;
        fault.kind = ProxyFault::Kind::DropResponse;
        const int id = judge.armed(fault);
        judge.disarmed(id);
        QCOMPARE(judge.verdict(id).state, ProxyVerdict::State::Note);
        QVERIFY(judge.verdict(id).summary.contains(u"disarmed"_s));
    }

    void anUnlistedToolIsAWrite()
    {
        // docs/recovery.md §2: only readOnlyHint: true makes a call a read.
        ManualClock clock;
        ClientJudge judge(clock, 10'000);
        ProxyFault fault;
        fault.kind = ProxyFault::Kind::DropConnection;
        const int id = judge.armed(fault);
        judge.fired(id, call(u"unknown"_s, u"n:1"_s));
        judge.clientRequest(call(u"unknown"_s, u"n:2"_s));
        QCOMPARE(judge.verdict(id).state, ProxyVerdict::State::Fail);
    }
};

QTEST_GUILESS_MAIN(TestClientJudge)
#include "tst_clientjudge.moc"
