// SPDX-License-Identifier: MIT
// The session snapshot's JSON, what the CLI prints (info, exec) and the transcript keeps:
// every key and the shape of its value, so that a change in how a member is held cannot
// change what is written.
#include "session/sessionsnapshot.h"

#include "jsontestdata.h"

#include <QJsonDocument>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

using JsonTestData::compact;
using JsonTestData::text;

SessionSnapshot stdioReady()
{
    SessionSnapshot s;
    s.server = u"demo"_s;
    s.state = SessionSnapshot::State::Ready;
    s.generation = 1;
    s.route = ServerConfig::Route::Stdio;
    s.routeReason = u"configured with a command"_s;
    s.protocolVersion = u"2025-11-25"_s;
    s.era = ServerConfig::Era::Initialize;
    s.eraReason = u"configured"_s;
    s.transport.program = u"node"_s;
    s.transport.pid = 42;
    s.transport.uptimeMs = 1000;
    return s;
}

SessionSnapshot modernReady()
{
    SessionSnapshot s;
    s.server = u"v2"_s;
    s.state = SessionSnapshot::State::Ready;
    s.generation = 2;
    s.route = ServerConfig::Route::StreamableHttp;
    s.routeReason = u"configured with a URL"_s;
    s.protocolVersion = u"2026-07-28"_s;
    s.era = ServerConfig::Era::Rev20260728;
    s.eraReason = u"server/discover offered 2026-07-28"_s;
    s.sessionless = true;
    s.toolHeaders = true;
    s.subscriptions = ListenStatus{.state = ListenStatus::State::Open,
                                   .id = 3,
                                   .requested = QJsonObject{{"toolsListChanged"_L1, true}}};
    s.cacheHints = {
        {u"tools/list"_s, CacheHint{.fetchedMs = 5, .ttlMs = 60000, .cacheScope = u"private"_s}}};
    s.transport.url = u"http://127.0.0.1:3001/mcp"_s;
    s.transport.getStream = u"none"_s;
    s.restartCount = 1;
    return s;
}

} // namespace

class TestSessionSnapshot : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theSnapshotIsWrittenAsBefore_data()
    {
        QTest::addColumn<SessionSnapshot>("snapshot");
        QTest::addColumn<QByteArray>("json");

        SessionSnapshot idle;
        idle.server = u"demo"_s;
        QTest::newRow("an idle session has no era, stream, hints or route details")
            << idle << text(JSON_TEXT({
                   "generation" : 0,
                   "protocol_version" : "",
                   "restart_count" : 0,
                   "server" : "demo",
                   "session_id" : null,
                   "state" : "idle",
                   "transport" : "stdio",
                   "transport_reason" : ""
               }));

        QTest::newRow("a stdio session puts its process beside its era")
            << stdioReady() << text(JSON_TEXT({
                   "era" : "initialize",
                   "era_reason" : "configured",
                   "generation" : 1,
                   "pid" : 42,
                   "program" : "node",
                   "protocol_version" : "2025-11-25",
                   "restart_count" : 0,
                   "server" : "demo",
                   "session_id" : null,
                   "sessionless" : false,
                   "state" : "ready",
                   "transport" : "stdio",
                   "transport_reason" : "configured with a command",
                   "uptime_ms" : 1000
               }));

        QTest::newRow("a 2026-07-28 session has its listen stream and cache hints")
            << modernReady() << text(JSON_TEXT({
                   "cache_hints" : {
                       "tools/list" :
                           {"cache_scope" : "private", "fetched_ms" : 5, "ttl_ms" : 60000}
                   },
                   "era" : "2026-07-28",
                   "era_reason" : "server/discover offered 2026-07-28",
                   "generation" : 2,
                   "get_stream" : "none",
                   "protocol_version" : "2026-07-28",
                   "restart_count" : 1,
                   "server" : "v2",
                   "session_id" : null,
                   "sessionless" : true,
                   "state" : "ready",
                   "subscriptions" :
                       {"id" : 3, "requested" : {"toolsListChanged" : true}, "state" : "open"},
                   "transport" : "streamable-http",
                   "transport_reason" : "configured with a URL",
                   "url" : "http://127.0.0.1:3001/mcp"
               }));

        SessionSnapshot exited = stdioReady();
        exited.state = SessionSnapshot::State::Closed;
        exited.era.reset();
        exited.transport.exitCode = 0;
        QTest::newRow("a session whose era is not decided has no era keys")
            << exited << text(JSON_TEXT({
                   "exit_code" : 0,
                   "generation" : 1,
                   "pid" : 42,
                   "program" : "node",
                   "protocol_version" : "2025-11-25",
                   "restart_count" : 0,
                   "server" : "demo",
                   "session_id" : null,
                   "state" : "closed",
                   "transport" : "stdio",
                   "transport_reason" : "configured with a command",
                   "uptime_ms" : 1000
               }));
    }
    void theSnapshotIsWrittenAsBefore()
    {
        QFETCH(SessionSnapshot, snapshot);
        QFETCH(QByteArray, json);
        QCOMPARE(compact(snapshot.toJson()), json);
    }

    void everyKeyASnapshotCanHaveIsTheOneItHad()
    {
        SessionSnapshot s = modernReady();
        s.sessionId = u"3f1c"_s;
        s.transport.program = u"node"_s;
        s.transport.pid = 42;
        s.transport.uptimeMs = 1000;
        s.transport.exitCode = 1;
        s.transport.exitSignal = 9;
        s.transport.endpoint = u"/message"_s;
        s.transport.deleteOutcome = u"200"_s;
        s.lastError = Error::protocol(u"broken"_s);
        s.armedFaults = QStringList{u"kill-during-next-call"_s};
        s.droppedFaults = QStringList{u"drop-next"_s};
        s.recovery = RecoveryState();
        const QStringList keys = s.toJson().keys();
        QCOMPARE(keys, (QStringList{u"armed_faults"_s,
                                    u"breaker"_s,
                                    u"cache_hints"_s,
                                    u"delete"_s,
                                    u"dropped_faults"_s,
                                    u"endpoint"_s,
                                    u"era"_s,
                                    u"era_reason"_s,
                                    u"exit_code"_s,
                                    u"exit_signal"_s,
                                    u"generation"_s,
                                    u"get_stream"_s,
                                    u"history"_s,
                                    u"last_error"_s,
                                    u"pid"_s,
                                    u"program"_s,
                                    u"protocol_version"_s,
                                    u"reconnect"_s,
                                    u"restart_count"_s,
                                    u"server"_s,
                                    u"session_id"_s,
                                    u"sessionless"_s,
                                    u"state"_s,
                                    u"subscriptions"_s,
                                    u"transport"_s,
                                    u"transport_reason"_s,
                                    u"uptime_ms"_s,
                                    u"url"_s}));
    }

    void theEraIsNamedByTheOneTable_data()
    {
        QTest::addColumn<SessionSnapshot>("snapshot");
        QTest::addColumn<QString>("name");
        QTest::newRow("an undecided era has no name") << SessionSnapshot() << QString();
        QTest::newRow("the handshake's era is initialize") << stdioReady() << u"initialize"_s;
        QTest::newRow("the sessionless era is 2026-07-28") << modernReady() << u"2026-07-28"_s;
    }
    void theEraIsNamedByTheOneTable()
    {
        QFETCH(SessionSnapshot, snapshot);
        QFETCH(QString, name);
        QCOMPARE(snapshot.eraName(), name);
        QCOMPARE(snapshot.toJson().value("era"_L1).toString(), name);
    }
};

QTEST_GUILESS_MAIN(TestSessionSnapshot)
#include "tst_sessionsnapshot.moc"
