// SPDX-License-Identifier: MIT
// HttpFallbackTransport against a ScriptedHttpServer, in this process: which route a URL
// gets, why, and what the fallback sends where.
#include "scriptedhttpserver.h"
#include "transport/httpfallbacktransport.h"

#include <QSignalSpy>
#include <QTest>

#include <algorithm>

using namespace Qt::StringLiterals;
using namespace Sonde;
using namespace SondeTest;

namespace {

const QByteArray Initialize =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}";

} // namespace

class TestHttpFallbackTransport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theRouteAndWhyFollowTheInitializeAnswer_data()
    {
        QTest::addColumn<bool>("configuredSse");
        QTest::addColumn<int>("status"); // what POSTing initialize to the URL is answered
        QTest::addColumn<QString>("route");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<int>("initializePosts");
        QTest::addColumn<int>("failedStatus"); // 0: initialize did not fail
        const QString tried =
            u"POST initialize answered HTTP %1, so the legacy HTTP+SSE transport was tried"_s;
        QTest::newRow("an answer keeps Streamable HTTP")
            << false << 200 << u"streamable-http"_s
            << u"configured with a URL; Streamable HTTP tried first"_s << 1 << 0;
        QTest::newRow("404 to initialize tries legacy SSE, and says why")
            << false << 404 << u"sse"_s << tried.arg(404) << 2 << 0;
        QTest::newRow("405 to initialize tries legacy SSE")
            << false << 405 << u"sse"_s << tried.arg(405) << 2 << 0;
        QTest::newRow("400 to initialize tries legacy SSE")
            << false << 400 << u"sse"_s << tried.arg(400) << 2 << 0;
        QTest::newRow("401 to initialize is a failure, not another protocol")
            << false << 401 << u"streamable-http"_s
            << u"configured with a URL; Streamable HTTP tried first"_s << 1 << 401;
        QTest::newRow("a configuration that says sse goes to legacy SSE at once")
            << true << 0 << u"sse"_s << u"the configuration asks for the legacy SSE transport"_s
            << 1 << 0;
    }
    void theRouteAndWhyFollowTheInitializeAnswer()
    {
        QFETCH(bool, configuredSse);
        QFETCH(int, status);
        QFETCH(QString, route);
        QFETCH(QString, reason);
        QFETCH(int, initializePosts);
        QFETCH(int, failedStatus);
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        int initializes = 0;
        server.on(u"initialize"_s, [&](const ScriptedHttpServer::Request &r) -> QByteArray {
            if (++initializes > 1 || configuredSse) // the legacy endpoint: the answer would
                return ScriptedHttpServer::response(202, {}, {}); // come on the stream
            if (status == 200)
                return ScriptedHttpServer::jsonResult(r.id, {}, "Mcp-Session-Id: s-9\r\n");
            return ScriptedHttpServer::response(status, "text/plain", "no");
        });
        server.on(u"GET"_s, [](const ScriptedHttpServer::Request &) -> QByteArray {
            return "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"
                   "event: endpoint\ndata: /mcp?legacy=1\n\n";
        });
        ServerConfig config;
        config.route =
            configuredSse ? ServerConfig::Route::LegacySse : ServerConfig::Route::StreamableHttp;
        config.url = QUrl(server.url());
        HttpFallbackTransport t(config);
        QSignalSpy opened(&t, &Transport::opened);
        QSignalSpy received(&t, &Transport::frameReceived);
        QSignalSpy failed(&t, &Transport::requestFailed);
        QSignalSpy events(&t, &Transport::lifecycleEvent);
        t.open();
        t.send(Initialize);
        QTRY_COMPARE(server.posts(u"initialize"_s), initializePosts);
        if (route == "sse"_L1)
            QTRY_VERIFY(std::any_of(events.cbegin(), events.cend(), [](const QList<QVariant> &e) {
                // Not necessarily the last: each HTTP exchange that ends has its own event.
                return e.at(0).value<LifecycleDetails>().kind() == EventKind::LegacyEndpoint;
            }));
        else
            QTRY_COMPARE(received.size() + failed.size(), 1);

        QCOMPARE(opened.size(), 1);
        const TransportDetails d = t.details();
        QCOMPARE(d.route, ServerConfig::routeFromName(route));
        QCOMPARE(d.routeReason.value_or(QString()), reason);
        QCOMPARE(d.url.value_or(QString()), server.url());
        QCOMPARE(failed.size(), failedStatus ? 1 : 0);
        if (failedStatus)
            QCOMPARE(failed.first().at(1).value<Error>().httpStatus().value_or(0), failedStatus);
        if (status == 200)
            QCOMPARE(d.sessionId.value_or(QString()), u"s-9"_s);
        QCOMPARE(t.canDrain(), route == "streamable-http"_L1);
        t.abort();
        QVERIFY(!t.isOpen());
    }
};

QTEST_GUILESS_MAIN(TestHttpFallbackTransport)
#include "tst_httpfallbacktransport.moc"
