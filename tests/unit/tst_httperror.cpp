// SPDX-License-Identifier: MIT
// How HTTP failures become Error values: the recovery layer tells expired sessions, auth
// failures and server errors apart from exactly these fields.
#include "transport/httpexchange.h"

#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

#define JSON_TEXT(...) #__VA_ARGS__

class TestHttpError : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void keepsStatusBodyAndSession_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("sessionId");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("inMessage");
        QTest::newRow("404 with a session id: the spec's expired session")
            << 404 << QByteArray() << u"s-1"_s << 0 << u"HTTP 404"_s;
        QTest::newRow("400 no valid session: what server-everything answers")
            << 400 << QByteArray(JSON_TEXT({
                   "jsonrpc" : "2.0",
                   "error" :
                       {"code" : -32000, "message" : "Bad Request: No valid session ID provided"},
                   "id" : null
               }))
            << u"s-1"_s << -32000 << u"No valid session ID provided"_s;
        QTest::newRow("401 unauthorized")
            << 401 << QByteArray("Unauthorized") << QString() << 0 << u"HTTP 401: Unauthorized"_s;
        QTest::newRow("403 forbidden") << 403 << QByteArray() << QString() << 0 << u"HTTP 403"_s;
        QTest::newRow("406 without both Accept types") << 406 << QByteArray(JSON_TEXT({
            "jsonrpc" : "2.0",
            "error" : {"code" : -32000, "message" : "Not Acceptable"},
            "id" : null
        })) << QString() << -32000 << u"Not Acceptable"_s;
        QTest::newRow("415 wrong content type")
            << 415 << QByteArray() << QString() << 0 << u"HTTP 415"_s;
        QTest::newRow("500 server error with an HTML body: its type and size, not the page")
            << 500 << QByteArray("<html>oops</html>") << u"s-2"_s << 0
            << u"HTTP 500: HTML, 17 bytes (an error page)"_s;
        QTest::newRow("404 with an HTML page: not an MCP endpoint")
            << 404 << QByteArray("<!DOCTYPE html><pre>Cannot POST /mcp</pre>") << QString() << 0
            << u"HTTP 404: HTML, 42 bytes: not an MCP endpoint?"_s;
        QTest::newRow("a plain text body: its first line")
            << 500 << QByteArray("database is down\nat line 2\n") << QString() << 0
            << u"HTTP 500: database is down…"_s;
        QTest::newRow("503 unavailable") << 503 << QByteArray() << QString() << 0 << u"HTTP 503"_s;
    }
    void keepsStatusBodyAndSession()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(QString, sessionId);
        QFETCH(int, code);
        QFETCH(QString, inMessage);
        const Error e =
            HttpExchange::httpError(u"POST http://127.0.0.1/mcp"_s, status, body, sessionId);
        QCOMPARE(e.kind(), Error::Kind::Transport);
        QCOMPARE(e.httpStatus().value_or(0), status);
        QCOMPARE(e.sessionId(), sessionId);
        QCOMPARE(e.jsonRpcCode().value_or(0), code);
        QVERIFY2(e.message().contains(inMessage), qPrintable(e.message()));
        if (code)
            QVERIFY(e.data().isObject());
    }
};

QTEST_APPLESS_MAIN(TestHttpError)
#include "tst_httperror.moc"
