// SPDX-License-Identifier: MIT
// What each route says of itself: written under the keys the snapshot and the transcript's
// transport-open and closed events have always had, read back from them the same, and a
// member present but empty kept apart from one the route does not have.
#include "values/transportdetails.h"

#include "jsontestdata.h"

#include <QJsonDocument>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(Sonde::TransportDetails)

namespace {

using JsonTestData::compact;
using JsonTestData::text;

} // namespace

class TestTransportDetails : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void eachRoutesDetailsKeepTheirKeys_data()
    {
        QTest::addColumn<TransportDetails>("details");
        QTest::addColumn<QByteArray>("json");

        TransportDetails starting;
        starting.program = u"node"_s;
        QTest::newRow("a process not started yet names its program alone")
            << starting << text(JSON_TEXT({"program" : "node"}));

        TransportDetails running = starting;
        running.pid = 4242;
        running.uptimeMs = 1500;
        QTest::newRow("a running process has its pid and uptime")
            << running << text(JSON_TEXT({"pid" : 4242, "program" : "node", "uptime_ms" : 1500}));

        TransportDetails exited = running;
        exited.exitCode = 0;
        QTest::newRow("a process that exited has its exit code, zero too")
            << exited
            << text(JSON_TEXT(
                   {"exit_code" : 0, "pid" : 4242, "program" : "node", "uptime_ms" : 1500}));

        TransportDetails killed = running;
        killed.exitSignal = 9;
        QTest::newRow("a process killed by a signal has the signal")
            << killed
            << text(JSON_TEXT(
                   {"exit_signal" : 9, "pid" : 4242, "program" : "node", "uptime_ms" : 1500}));

        TransportDetails streamable;
        streamable.route = ServerConfig::Route::StreamableHttp;
        streamable.url = u"http://127.0.0.1:3001/mcp"_s;
        streamable.getStream = u"open"_s;
        streamable.sessionId = u"3f1c"_s;
        streamable.deleteOutcome = u"200"_s;
        QTest::newRow("a Streamable HTTP route has its GET stream, session id and DELETE")
            << streamable << text(JSON_TEXT({
                   "delete" : "200",
                   "get_stream" : "open",
                   "route" : "streamable-http",
                   "session_id" : "3f1c",
                   "url" : "http://127.0.0.1:3001/mcp"
               }));

        TransportDetails legacy;
        legacy.route = ServerConfig::Route::LegacySse;
        legacy.url = u"http://127.0.0.1:3001/sse"_s;
        legacy.endpoint = QString();
        QTest::newRow("a legacy route before its endpoint event has an empty endpoint")
            << legacy
            << text(JSON_TEXT(
                   {"endpoint" : "", "route" : "sse", "url" : "http://127.0.0.1:3001/sse"}));

        TransportDetails fellBack = legacy;
        fellBack.endpoint = u"/message?sessionId=1"_s;
        fellBack.routeReason = u"initialize was answered 405"_s;
        QTest::newRow("a route the fallback took says why") << fellBack << text(JSON_TEXT({
            "endpoint" : "/message?sessionId=1",
            "route" : "sse",
            "route_reason" : "initialize was answered 405",
            "url" : "http://127.0.0.1:3001/sse"
        }));

        QTest::newRow("a route with nothing to say is written as an empty object")
            << TransportDetails() << QByteArray("{}");
    }
    void eachRoutesDetailsKeepTheirKeys()
    {
        QFETCH(TransportDetails, details);
        QFETCH(QByteArray, json);
        QCOMPARE(compact(details.toJson()), json);
        QVERIFY(TransportDetails::fromJson(details.toJson()) == details);
    }

    void whatThisBuildCannotReadIsLeftOut_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("a key no route writes") << text(JSON_TEXT({"fake" : true}));
        QTest::newRow("a pid that is not a number") << text(JSON_TEXT({"pid" : "4242"}));
        QTest::newRow("a route this build does not know")
            << text(JSON_TEXT({"route" : "websocket"}));
        QTest::newRow("a session id that is not a string")
            << text(JSON_TEXT({"session_id" : null}));
    }
    void whatThisBuildCannotReadIsLeftOut()
    {
        QFETCH(QByteArray, json);
        QVERIFY(TransportDetails::fromJson(QJsonDocument::fromJson(json).object()) ==
                TransportDetails());
    }

    void twoDetailsDifferWhenOneMemberIsPresentOnlyInOne()
    {
        TransportDetails empty;
        TransportDetails endpoint;
        endpoint.endpoint = QString();
        QVERIFY(!(empty == endpoint));
        TransportDetails code;
        code.exitCode = 0;
        TransportDetails signal;
        signal.exitSignal = 0;
        QVERIFY(!(code == signal));
    }
};

QTEST_GUILESS_MAIN(TestTransportDetails)
#include "tst_transportdetails.moc"
