// SPDX-License-Identifier: MIT
// ServerSession in the 2026-07-28 era, against a transport the test plays by hand: the
// discover probe and its fallback, _meta on every request, multi round-trip requests and
// the subscriptions/listen stream.
#include "faketransport.h"
#include "session/serversession.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QPointer>
#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

#define JSON_TEXT(...) #__VA_ARGS__

namespace {

QJsonObject obj(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

QJsonObject metaOf(const QJsonObject &request)
{
    return request.value("params"_L1).toObject().value("_meta"_L1).toObject();
}

struct Fixture
{
    ManualClock clock;
    QPointer<FakeTransport> transport;
    std::unique_ptr<ServerSession> session;
    QList<TranscriptEvent> events;

    // Modern over stdio by default: the probe goes first, as it does for auto over HTTP
    // (auto over stdio asks with the handshake first: its own tests say so).
    explicit Fixture(ServerConfig::Era era = ServerConfig::Era::Rev20260728,
                     ServerConfig::Route route = ServerConfig::Route::Stdio)
    {
        ServerConfig c;
        c.name = u"fake"_s;
        c.era = era;
        c.route = route;
        c.requestTimeoutMs = 1000;
        session = std::make_unique<ServerSession>(c, clock,
                                                  QJsonObject{{"elicitation"_L1, QJsonObject{}}},
                                                  [this](const ServerConfig &, const Clock &) {
                                                      auto t = std::make_unique<FakeTransport>();
                                                      transport = t.get();
                                                      return t;
                                                  });
        QObject::connect(session.get(), &ServerSession::transcriptEvent, session.get(),
                         [this](const TranscriptEvent &e) { events.append(e); });
    }
    QStringList lifecycle() const
    {
        QStringList names;
        for (const TranscriptEvent &e : events)
            if (e.direction == TranscriptEvent::Direction::Lifecycle)
                names.append(e.event);
        return names;
    }
    TranscriptEvent event(const QString &name) const
    {
        for (const TranscriptEvent &e : events)
            if (e.event == name)
                return e;
        return {};
    }
    void startModern(const QJsonObject &capabilities = obj(JSON_TEXT({"tools" : {}})))
    {
        session->start();
        transport->answer(
            transport->sent.at(0),
            {{"resultType"_L1, "complete"_L1},
             {"supportedVersions"_L1, QJsonArray{u"2026-07-28"_s}},
             {"capabilities"_L1, capabilities},
             {"_meta"_L1,
              obj(JSON_TEXT(
                  {"io.modelcontextprotocol/serverInfo" : {"name" : "fake", "version" : "2"}}))}});
    }
    void call(const QString &method, const QJsonObject &params = {}, quint64 ticket = 1)
    {
        CallRequest r;
        r.ticket = ticket;
        r.server = u"fake"_s;
        r.method = method;
        r.params = params;
        session->call(r);
    }
};

} // namespace

class TestRev20260728Session : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void autoOverHttpAsksServerDiscoverFirstAndGoesModern()
    {
        Fixture f(ServerConfig::Era::Auto, ServerConfig::Route::StreamableHttp);
        f.startModern();
        const QJsonObject probe = f.transport->sent.at(0);
        QCOMPARE(probe.value("method"_L1).toString(), u"server/discover"_s);
        QCOMPARE(metaOf(probe).value("io.modelcontextprotocol/protocolVersion"_L1).toString(),
                 u"2026-07-28"_s);
        const SessionSnapshot s = f.session->snapshot();
        QCOMPARE(s.state, SessionSnapshot::State::Ready);
        QCOMPARE(s.era, ServerConfig::Era::Rev20260728);
        QVERIFY2(s.eraReason.contains("offered 2026-07-28"_L1), qPrintable(s.eraReason));
        QCOMPARE(s.protocolVersion, u"2026-07-28"_s);
        QCOMPARE(s.serverInfo.value("name"_L1).toString(), u"fake"_s);
        QCOMPARE(s.generation, 1);
        QVERIFY(s.sessionId.isEmpty());
        // No handshake of any kind follows.
        QCOMPARE(f.transport->sent.size(), 1);
        QCOMPARE(f.lifecycle().mid(0, 4),
                 (QStringList{u"starting"_s, u"transport-open"_s, u"era-chosen"_s, u"ready"_s}));
    }

    void everyModernRequestCarriesTheMetaAndALogLevelOnceSet()
    {
        Fixture f;
        f.startModern();
        QSignalSpy done(f.session.get(), &ServerSession::callFinished);
        f.call(u"logging/setLevel"_s, {{"level"_L1, "debug"_L1}}, 1);
        QCOMPARE(done.size(), 1); // answered here: the revision has no setLevel
        QCOMPARE(f.transport->sent.size(), 1);
        f.call(u"tools/call"_s, obj(JSON_TEXT({"name" : "echo", "arguments" : {}})), 2);
        const QJsonObject meta = metaOf(f.transport->last());
        QCOMPARE(meta.value("io.modelcontextprotocol/protocolVersion"_L1).toString(),
                 u"2026-07-28"_s);
        QVERIFY(meta.value("io.modelcontextprotocol/clientCapabilities"_L1)
                    .toObject()
                    .contains("elicitation"_L1));
        QCOMPARE(meta.value("io.modelcontextprotocol/clientInfo"_L1)
                     .toObject()
                     .value("name"_L1)
                     .toString(),
                 u"sonde"_s);
        QCOMPARE(meta.value("io.modelcontextprotocol/logLevel"_L1).toString(), u"debug"_s);
        f.transport->answer(f.transport->last(),
                            obj(JSON_TEXT({"content" : [ {"type" : "text", "text" : "hi"} ]})));
        QCOMPARE(done.size(), 2);
        QVERIFY(!done.at(1).at(0).value<CallOutcome>().error.isError()); // no resultType: complete
    }

    void aLegacyServerGetsTheHandshakeAfterTheProbe_data()
    {
        QTest::addColumn<bool>("timesOut");
        QTest::newRow("the probe is refused with method not found") << false;
        QTest::newRow("the probe is never answered") << true;
    }
    void aLegacyServerGetsTheHandshakeAfterTheProbe()
    {
        QFETCH(bool, timesOut);
        Fixture f(ServerConfig::Era::Auto, ServerConfig::Route::StreamableHttp);
        f.session->start();
        if (timesOut) {
            f.clock.advance(5'001);
            f.session->checkTimeouts();
        } else {
            f.transport->answerError(f.transport->sent.at(0), -32601, u"Method not found"_s);
        }
        const QJsonObject init = f.transport->last();
        QCOMPARE(init.value("method"_L1).toString(), u"initialize"_s);
        QVERIFY(!init.value("params"_L1).toObject().contains("_meta"_L1));
        f.transport->answer(init, obj(JSON_TEXT({
                                "protocolVersion" : "2025-11-25",
                                "capabilities" : {},
                                "serverInfo" : {"name" : "old"}
                            })));
        const SessionSnapshot s = f.session->snapshot();
        QCOMPARE(s.state, SessionSnapshot::State::Ready);
        QCOMPARE(s.era, ServerConfig::Era::Initialize);
        QVERIFY2(s.eraReason.contains(timesOut ? "no answer in time"_L1 : "-32601"_L1),
                 qPrintable(s.eraReason));
        // A timed-out probe is not cancelled: a legacy server has not been initialized.
        for (const QJsonObject &sent : std::as_const(f.transport->sent))
            QVERIFY(sent.value("method"_L1).toString() != "notifications/cancelled"_L1);
    }

    // Over stdio, auto asks with the handshake first: a probe before initialize breaks
    // bridges that start their own upstream session on any other first request, and costs
    // its whole timeout on a server that ignores unknown methods. server/discover is asked
    // only when the handshake is refused; no refusal, and it is never sent.
    void autoOverStdioAsksWithTheHandshakeFirst_data()
    {
        QTest::addColumn<QString>("initializeAnswer"); // "result" or a JSON-RPC error code
        QTest::addColumn<QString>("discoverAnswer");   // "result", an error code, or none
        QTest::addColumn<QString>("era");              // or "failed"
        QTest::newRow("a legacy server answers the handshake: one round trip, no probe")
            << u"result"_s << QString() << u"initialize"_s;
        QTest::newRow("a modern-only server names 2026-07-28 in its refusal: discover confirms")
            << u"-32022"_s << u"result"_s << u"2026-07-28"_s;
        QTest::newRow("a modern server refusing the handshake another way: discover decides")
            << u"-32601"_s << u"result"_s << u"2026-07-28"_s;
        QTest::newRow("refused both ways: the session fails, naming both answers")
            << u"-32600"_s << u"-32601"_s << u"failed"_s;
    }
    void autoOverStdioAsksWithTheHandshakeFirst()
    {
        QFETCH(QString, initializeAnswer);
        QFETCH(QString, discoverAnswer);
        QFETCH(QString, era);
        Fixture f(ServerConfig::Era::Auto, ServerConfig::Route::Stdio);
        f.session->start();
        const QJsonObject init = f.transport->sent.at(0);
        QCOMPARE(init.value("method"_L1).toString(), u"initialize"_s);
        QVERIFY(!init.value("params"_L1).toObject().contains("_meta"_L1));
        if (initializeAnswer == "result"_L1) {
            f.transport->answer(init, obj(JSON_TEXT({
                                    "protocolVersion" : "2025-11-25",
                                    "capabilities" : {},
                                    "serverInfo" : {"name" : "old"}
                                })));
        } else if (initializeAnswer == "-32022"_L1) {
            QJsonObject refusal = obj(JSON_TEXT({
                "jsonrpc" : "2.0",
                "error" : {
                    "code" : -32022,
                    "message" : "Unsupported protocol version: 2025-11-25",
                    "data" : {"supported" : ["2026-07-28"], "requested" : "2025-11-25"}
                }
            }));
            refusal.insert("id"_L1, init.value("id"_L1));
            f.transport->deliver(refusal);
        } else {
            f.transport->answerError(init, initializeAnswer.toInt(), u"no handshake here"_s);
        }
        if (!discoverAnswer.isEmpty()) {
            const QJsonObject probe = f.transport->last();
            QCOMPARE(probe.value("method"_L1).toString(), u"server/discover"_s);
            if (discoverAnswer == "result"_L1)
                f.transport->answer(
                    probe,
                    obj(JSON_TEXT(
                        {"supportedVersions" : ["2026-07-28"], "capabilities" : {"tools" : {}}})));
            else
                f.transport->answerError(probe, discoverAnswer.toInt(), u"Method not found"_s);
        }
        QStringList methods;
        for (const QJsonObject &sent : std::as_const(f.transport->sent))
            methods.append(sent.value("method"_L1).toString());
        QCOMPARE(methods.count(u"server/discover"_s), discoverAnswer.isEmpty() ? 0 : 1);
        QCOMPARE(methods.count(u"initialize"_s), 1);
        const SessionSnapshot s = f.session->snapshot();
        if (era == "failed"_L1) {
            QCOMPARE(s.state, SessionSnapshot::State::Failed);
            QVERIFY2(s.lastError.message().contains("no handshake here"_L1) &&
                         s.lastError.message().contains("-32601"_L1),
                     qPrintable(s.lastError.message()));
            return;
        }
        QCOMPARE(s.state, SessionSnapshot::State::Ready);
        QCOMPARE(s.era, ServerConfig::eraFromName(era));
        QVERIFY2(s.eraReason.contains("auto over stdio"_L1), qPrintable(s.eraReason));
        if (era == "initialize"_L1)
            QCOMPARE(methods.last(), u"notifications/initialized"_s);
        else
            QCOMPARE(s.protocolVersion, u"2026-07-28"_s);
    }

    void modernModeNeverFallsBackAndSaysWhatTheServerOffers()
    {
        Fixture f(ServerConfig::Era::Rev20260728);
        QSignalSpy stopped(f.session.get(), &ServerSession::stopped);
        f.call(u"tools/list"_s);
        f.session->start();
        f.transport->deliver(obj(JSON_TEXT({
            "jsonrpc" : "2.0",
            "id" : 1,
            "error" : {
                "code" : -32022,
                "message" : "Unsupported protocol version",
                "data" : {"supported" : ["2025-11-25"], "requested" : "2026-07-28"}
            }
        })));
        const SessionSnapshot s = f.session->snapshot();
        QCOMPARE(s.state, SessionSnapshot::State::Failed);
        QVERIFY2(s.lastError.message().contains("offers 2025-11-25"_L1) &&
                     s.lastError.message().contains("Sonde speaks 2026-07-28"_L1),
                 qPrintable(s.lastError.message()));
        for (const QJsonObject &sent : std::as_const(f.transport->sent))
            QVERIFY(sent.value("method"_L1).toString() != "initialize"_L1);
    }

    void modernOverHttpSendsACallAtOnceAndDiscoversBesideIt()
    {
        Fixture f(ServerConfig::Era::Rev20260728, ServerConfig::Route::StreamableHttp);
        f.session->start();
        QCOMPARE(f.session->snapshot().state, SessionSnapshot::State::Ready);
        f.call(u"tools/call"_s, obj(JSON_TEXT({"name" : "echo"})));
        QStringList methods;
        for (const QJsonObject &sent : std::as_const(f.transport->sent))
            methods.append(sent.value("method"_L1).toString());
        // No handshake in front of the call: the probe goes beside it, for the capabilities.
        QCOMPARE(methods, (QStringList{u"server/discover"_s, u"tools/call"_s}));
        f.transport->answer(f.transport->sent.at(0), obj(JSON_TEXT({
                                "supportedVersions" : ["2026-07-28"],
                                "capabilities" : {"tools" : {"listChanged" : true}}
                            })));
        QCOMPARE(f.transport->last().value("method"_L1).toString(), u"subscriptions/listen"_s);
        QVERIFY(f.session->snapshot().serverCapabilities.contains("tools"_L1));
    }

    void anInputRequiredCallIsAnsweredAndRetriedWithANewIdAndTheSameState()
    {
        Fixture f;
        f.startModern();
        QSignalSpy asked(f.session.get(), &ServerSession::serverRequestReceived);
        QSignalSpy done(f.session.get(), &ServerSession::callFinished);
        f.call(u"tools/call"_s, obj(JSON_TEXT({"name" : "ask-name", "arguments" : {"x" : 1}})));
        const QJsonObject first = f.transport->last();
        f.transport->answer(first, obj(JSON_TEXT({
                                "resultType" : "input_required",
                                "inputRequests" : {
                                    "who" : {
                                        "method" : "elicitation/create",
                                        "params" : {"mode" : "form", "message" : "Your name?"}
                                    }
                                },
                                "requestState" : "s1-opaque"
                            })));
        QCOMPARE(done.size(), 0);
        QCOMPARE(asked.size(), 1);
        const ServerRequest q = asked.at(0).at(0).value<ServerRequest>();
        QCOMPARE(q.method, u"elicitation/create"_s);
        QCOMPARE(q.params.value("message"_L1).toString(), u"Your name?"_s);
        const qsizetype before = f.transport->sent.size();
        f.session->reply(
            ServerReply{u"fake"_s,
                        q.generation,
                        q.id,
                        obj(JSON_TEXT({"action" : "accept", "content" : {"name" : "Ada"}})),
                        {}});
        QCOMPARE(f.transport->sent.size(), before + 1);
        const QJsonObject retry = f.transport->last();
        QVERIFY(retry.value("id"_L1) != first.value("id"_L1));
        const QJsonObject p = retry.value("params"_L1).toObject();
        QCOMPARE(p.value("requestState"_L1).toString(), u"s1-opaque"_s);
        QCOMPARE(p.value("name"_L1).toString(), u"ask-name"_s);
        QCOMPARE(p.value("arguments"_L1).toObject().value("x"_L1).toInt(), 1);
        QCOMPARE(p.value("inputResponses"_L1)
                     .toObject()
                     .value("who"_L1)
                     .toObject()
                     .value("content"_L1)
                     .toObject()
                     .value("name"_L1)
                     .toString(),
                 u"Ada"_s);
        const TranscriptEvent leg = f.event(u"input-required"_s);
        const auto *input = leg.detailsAs<LifecycleDetails::InputRequired>();
        QVERIFY(input);
        QCOMPARE(input->id, first.value("id"_L1));
        QCOMPARE(input->nextId, retry.value("id"_L1));
        QCOMPARE(input->round, 1);
        f.transport->answer(retry, obj(JSON_TEXT({
                                "resultType" : "complete",
                                "content" : [ {"type" : "text", "text" : "hello Ada"} ]
                            })));
        QCOMPARE(done.size(), 1);
        const CallOutcome o = done.at(0).at(0).value<CallOutcome>();
        QVERIFY(!o.error.isError());
        QCOMPARE(o.requestId, retry.value("id"_L1));
    }

    void aStateOnlyRoundIsRetriedAtOnceAndARefusedInputEndsTheCall()
    {
        Fixture f;
        f.startModern();
        QSignalSpy asked(f.session.get(), &ServerSession::serverRequestReceived);
        QSignalSpy done(f.session.get(), &ServerSession::callFinished);
        f.call(u"tools/call"_s, obj(JSON_TEXT({"name" : "t"})));
        f.transport->answer(
            f.transport->last(),
            obj(JSON_TEXT({"resultType" : "input_required", "requestState" : "a"})));
        QCOMPARE(asked.size(), 0);
        QCOMPARE(f.transport->last().value("params"_L1).toObject().value("requestState"_L1),
                 QJsonValue(u"a"_s));
        f.transport->answer(f.transport->last(), obj(JSON_TEXT({
                                "resultType" : "input_required",
                                "inputRequests" : {"r" : {"method" : "roots/list"}}
                            })));
        QCOMPARE(asked.size(), 1);
        const qsizetype before = f.transport->sent.size();
        const ServerRequest q = asked.at(0).at(0).value<ServerRequest>();
        f.session->reply(ServerReply{
            u"fake"_s, q.generation, q.id, {}, Error::cancelled(u"the user declined"_s)});
        QCOMPARE(f.transport->sent.size(), before); // nothing sent behind the user's back
        QCOMPARE(done.size(), 1);
        QVERIFY(done.at(0).at(0).value<CallOutcome>().error.message().contains("declined"_L1));
    }

    void aTaskIsPolledAnsweredAndFinishedWithItsResult()
    {
        Fixture f;
        f.startModern();
        QSignalSpy asked(f.session.get(), &ServerSession::serverRequestReceived);
        QSignalSpy done(f.session.get(), &ServerSession::callFinished);
        f.call(u"tools/call"_s, obj(JSON_TEXT({"name" : "long-job"})));
        // Sonde says it follows tasks, on every request.
        QVERIFY(metaOf(f.transport->last())
                    .value("io.modelcontextprotocol/clientCapabilities"_L1)
                    .toObject()
                    .value("extensions"_L1)
                    .toObject()
                    .contains("io.modelcontextprotocol/tasks"_L1));
        f.transport->answer(f.transport->last(), obj(JSON_TEXT({
                                "resultType" : "task",
                                "taskId" : "t1",
                                "status" : "working",
                                "pollIntervalMs" : 500,
                                "ttlMs" : null
                            })));
        const qsizetype before = f.transport->sent.size();
        f.clock.advance(499);
        QCOMPARE(f.transport->sent.size(), before); // pollIntervalMs is honoured
        f.clock.advance(1);
        QCOMPARE(f.transport->last().value("method"_L1).toString(), u"tasks/get"_s);
        QCOMPARE(f.transport->last().value("params"_L1).toObject().value("taskId"_L1).toString(),
                 u"t1"_s);
        f.transport->answer(
            f.transport->last(), obj(JSON_TEXT({
                "resultType" : "complete",
                "taskId" : "t1",
                "status" : "input_required",
                "inputRequests" :
                    {"ok" :
                         {"method" : "elicitation/create", "params" : {"message" : "Go on?"}}}
            })));
        QCOMPARE(asked.size(), 1);
        const ServerRequest q = asked.at(0).at(0).value<ServerRequest>();
        f.session->reply(
            ServerReply{u"fake"_s, q.generation, q.id, obj(JSON_TEXT({"action" : "accept"})), {}});
        const QJsonObject update = f.transport->last();
        QCOMPARE(update.value("method"_L1).toString(), u"tasks/update"_s);
        QCOMPARE(update.value("params"_L1)
                     .toObject()
                     .value("inputResponses"_L1)
                     .toObject()
                     .value("ok"_L1)
                     .toObject()
                     .value("action"_L1)
                     .toString(),
                 u"accept"_s);
        f.transport->answer(update, obj(JSON_TEXT({"resultType" : "complete"})));
        f.clock.advance(500);
        QCOMPARE(f.transport->last().value("method"_L1).toString(), u"tasks/get"_s);
        QCOMPARE(done.size(), 0);
        f.transport->answer(f.transport->last(), obj(JSON_TEXT({
                                "resultType" : "complete",
                                "taskId" : "t1",
                                "status" : "completed",
                                "result" : {"content" : [ {"type" : "text", "text" : "done"} ]}
                            })));
        QCOMPARE(done.size(), 1);
        const CallOutcome o = done.at(0).at(0).value<CallOutcome>();
        QVERIFY(!o.error.isError());
        QCOMPARE(
            o.result.toObject().value("content"_L1).toArray().at(0).toObject().value("text"_L1),
            QJsonValue(u"done"_s));
        QVERIFY(f.lifecycle().contains(u"task-status"_s));
    }

    void cancellingATaskSendsTasksCancelAndAFailedTaskIsItsError()
    {
        Fixture f;
        f.startModern();
        QSignalSpy done(f.session.get(), &ServerSession::callFinished);
        f.call(u"tools/call"_s, obj(JSON_TEXT({"name" : "long-job"})), 1);
        f.transport->answer(
            f.transport->last(),
            obj(JSON_TEXT({"resultType" : "task", "taskId" : "t1", "status" : "working"})));
        f.session->cancel(1, u"the user cancelled"_s);
        QCOMPARE(f.transport->last().value("method"_L1).toString(), u"tasks/cancel"_s);
        QCOMPARE(done.size(), 1);
        f.clock.advance(5'000);
        for (const QJsonObject &sent : std::as_const(f.transport->sent))
            QVERIFY(sent.value("method"_L1).toString() != "tasks/get"_L1); // no poll after it
        f.call(u"tools/call"_s, obj(JSON_TEXT({"name" : "long-job"})), 2);
        f.transport->answer(
            f.transport->last(),
            obj(JSON_TEXT({"resultType" : "task", "taskId" : "t2", "status" : "working"})));
        f.clock.advance(1'000);
        f.transport->answer(f.transport->last(), obj(JSON_TEXT({
                                "taskId" : "t2",
                                "status" : "failed",
                                "error" : {"code" : -32603, "message" : "disk full"}
                            })));
        QCOMPARE(done.size(), 2);
        QVERIFY(done.at(1).at(0).value<CallOutcome>().error.message().contains("disk full"_L1));
    }

    void aListPastItsTtlIsStaleButAnswersTheQuestionItWasReadFor()
    {
        Fixture f;
        f.startModern();
        CallRequest r;
        r.ticket = 1;
        r.server = u"fake"_s;
        r.method = u"tools/list"_s;
        r.followPages = true;
        f.session->call(r);
        f.transport->answer(f.transport->last(), obj(JSON_TEXT({
                                "tools" : [ {"name" : "echo", "inputSchema" : {}} ],
                                "ttlMs" : 0,
                                "cacheScope" : "private"
                            })));
        QCOMPARE(f.session->snapshot().cacheHints.value(u"tools/list"_s).ttlMs, 0);
        f.clock.advance(1);
        QVERIFY(f.session->cachedList(u"tools/list"_s).isEmpty()); // read again next time
        // ...but the recovery unit, which read it to decide a replay, gets what it read.
        QCOMPARE(f.session->cachedList(u"tools/list"_s, true).size(), 1);
    }

    void aResourceSubscriptionOpensTheListenStreamAgainWithTheUri()
    {
        Fixture f;
        f.startModern(obj(JSON_TEXT({"resources" : {"subscribe" : true}})));
        // Nothing to hear yet: no listen stream.
        QCOMPARE(f.transport->sent.size(), 1);
        QSignalSpy done(f.session.get(), &ServerSession::callFinished);
        f.call(u"resources/subscribe"_s, {{"uri"_L1, "demo://counter"_L1}});
        QCOMPARE(done.size(), 1); // answered here: 2026-07-28 has no resources/subscribe
        const QJsonObject listen = f.transport->last();
        QCOMPARE(listen.value("method"_L1).toString(), u"subscriptions/listen"_s);
        QCOMPARE(listen.value("params"_L1)
                     .toObject()
                     .value("notifications"_L1)
                     .toObject()
                     .value("resourceSubscriptions"_L1)
                     .toArray(),
                 QJsonArray{u"demo://counter"_s});
        // Unsubscribing ends that stream (stdio: notifications/cancelled for its id).
        f.call(u"resources/unsubscribe"_s, {{"uri"_L1, "demo://counter"_L1}}, 2);
        QCOMPARE(f.transport->last().value("method"_L1).toString(), u"notifications/cancelled"_s);
        QCOMPARE(f.transport->last().value("params"_L1).toObject().value("requestId"_L1),
                 listen.value("id"_L1));
    }

    void anUnknownResultTypeIsAProtocolError()
    {
        Fixture f;
        f.startModern();
        QSignalSpy done(f.session.get(), &ServerSession::callFinished);
        f.call(u"tools/call"_s, obj(JSON_TEXT({"name" : "t"})));
        f.transport->answer(f.transport->last(), obj(JSON_TEXT({"resultType" : "weird"})));
        QCOMPARE(done.size(), 1);
        QVERIFY(done.at(0).at(0).value<CallOutcome>().error.message().contains("\"weird\""_L1));
    }

    void theListenStreamIsOpenedAcknowledgedRoutedAndOpenedAgainAfterADrop()
    {
        Fixture f(ServerConfig::Era::Auto, ServerConfig::Route::StreamableHttp);
        f.startModern(obj(JSON_TEXT({"tools" : {"listChanged" : true}, "prompts" : {}})));
        const QJsonObject listen = f.transport->last();
        QCOMPARE(listen.value("method"_L1).toString(), u"subscriptions/listen"_s);
        QCOMPARE(listen.value("params"_L1).toObject().value("notifications"_L1).toObject(),
                 obj(JSON_TEXT({"toolsListChanged" : true})));
        const QJsonValue id = listen.value("id"_L1);
        QVERIFY(f.session->snapshot().subscriptions);
        QCOMPARE(f.session->snapshot().subscriptions->state, ListenStatus::State::Open);
        // Something for another subscription is not this one's.
        f.transport->deliver(obj(JSON_TEXT({
            "jsonrpc" : "2.0",
            "method" : "notifications/tools/list_changed",
            "params" : {"_meta" : {"io.modelcontextprotocol/subscriptionId" : 999}}
        })));
        bool violation = false;
        for (const TranscriptEvent &e : std::as_const(f.events))
            violation |=
                e.direction == TranscriptEvent::Direction::Violation && e.event.contains("999"_L1);
        QVERIFY(violation);
        QJsonObject ack = obj(JSON_TEXT({
            "jsonrpc" : "2.0",
            "method" : "notifications/subscriptions/acknowledged",
            "params" : {"notifications" : {"toolsListChanged" : true}}
        }));
        QJsonObject params = ack.value("params"_L1).toObject();
        params.insert("_meta"_L1, QJsonObject{{"io.modelcontextprotocol/subscriptionId"_L1, id}});
        ack.insert("params"_L1, params);
        f.transport->deliver(ack);
        SessionSnapshot s = f.session->snapshot();
        QCOMPARE(s.subscriptions->state, ListenStatus::State::Acknowledged);
        QCOMPARE(s.subscriptions->granted, obj(JSON_TEXT({"toolsListChanged" : true})));
        QCOMPARE(s.generation, 1);
        // A bare drop: opened again after 1 s, and the new stream is a new generation.
        Q_EMIT f.transport->requestFailed(
            id, Error::transport(u"stream reset"_s, Error::Condition::Closed));
        QCOMPARE(f.session->snapshot().subscriptions->state, ListenStatus::State::Dropped);
        const qsizetype before = f.transport->sent.size();
        f.clock.advance(999);
        QCOMPARE(f.transport->sent.size(), before);
        f.clock.advance(2);
        QCOMPARE(f.transport->sent.size(), before + 1);
        const QJsonObject again = f.transport->last();
        QCOMPARE(again.value("method"_L1).toString(), u"subscriptions/listen"_s);
        params.insert("_meta"_L1, QJsonObject{{"io.modelcontextprotocol/subscriptionId"_L1,
                                               again.value("id"_L1)}});
        ack.insert("params"_L1, params);
        f.transport->deliver(ack);
        QCOMPARE(f.session->snapshot().generation, 2);
        // A complete result is a graceful end: nothing is opened again.
        f.transport->answer(again, obj(JSON_TEXT({"resultType" : "complete"})));
        QCOMPARE(f.session->snapshot().subscriptions->state, ListenStatus::State::Ended);
        f.clock.advance(60'000);
        QCOMPARE(f.transport->last().value("id"_L1), again.value("id"_L1));
        QVERIFY(f.lifecycle().contains(u"listen-dropped"_s));
        QVERIFY(f.lifecycle().contains(u"listen-ended"_s));
    }

    void cancellingOnHttpClosesTheStreamAndOnStdioSendsANotification_data()
    {
        QTest::addColumn<int>("route");
        QTest::addColumn<bool>("notifies");
        QTest::newRow("over stdio a notification is sent")
            << int(ServerConfig::Route::Stdio) << true;
        QTest::newRow("over HTTP closing the stream is the cancellation")
            << int(ServerConfig::Route::StreamableHttp) << false;
    }
    void cancellingOnHttpClosesTheStreamAndOnStdioSendsANotification()
    {
        QFETCH(int, route);
        QFETCH(bool, notifies);
        Fixture f(ServerConfig::Era::Rev20260728, ServerConfig::Route(route));
        f.startModern();
        f.call(u"tools/call"_s, obj(JSON_TEXT({"name" : "slow"})));
        const qsizetype before = f.transport->sent.size();
        f.session->cancel(1, u"the user cancelled"_s);
        QCOMPARE(f.transport->sent.size(), before + (notifies ? 1 : 0));
        if (notifies)
            QCOMPARE(f.transport->last().value("method"_L1).toString(),
                     u"notifications/cancelled"_s);
    }
};

QTEST_GUILESS_MAIN(TestRev20260728Session)
#include "tst_rev20260728session.moc"
