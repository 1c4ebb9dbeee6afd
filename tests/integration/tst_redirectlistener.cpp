// SPDX-License-Identifier: MIT
// The loopback redirect listener answers every request with a whole HTTP response (status,
// headers, a page): the browser tab the authorization server sent back says "Signed in to
// SERVER" or names the server's error (escaped), a request with another state or for another
// path gets an honest 400 or 404 and the flow goes on waiting, and the page is finished even
// when the flow lets the listener go the moment it has its answer (it used to be an empty
// reply). Read with a raw socket and with QNetworkAccessManager, as a browser would.
#include "auth/loopbackuseragent.h"
#include "util/clock.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>
#include <QUrlQuery>

#include <optional>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

struct HttpAnswer
{
    int status = 0;
    QHash<QByteArray, QByteArray> headers; // names lower-cased
    QByteArray body;
    bool whole = false; // Content-Length bytes of body, then the connection closed
};

// One request written by hand, the answer read until the listener closes the connection
// (with the event loop running: the listener is on this thread).
HttpAnswer rawRequest(quint16 port, const QByteArray &request)
{
    HttpAnswer a;
    QTcpSocket socket;
    QByteArray bytes;
    QObject::connect(&socket, &QTcpSocket::readyRead, [&] { bytes += socket.readAll(); });
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!QTest::qWaitFor([&] { return socket.state() == QAbstractSocket::ConnectedState; }, 3000))
        return a;
    socket.write(request);
    if (!QTest::qWaitFor([&] { return socket.state() == QAbstractSocket::UnconnectedState; }, 5000))
        return a;
    bytes += socket.readAll();
    const qsizetype end = bytes.indexOf("\r\n\r\n");
    if (end < 0)
        return a;
    const QList<QByteArray> lines = bytes.left(end).split('\n');
    const QList<QByteArray> statusLine = lines.value(0).trimmed().split(' ');
    if (statusLine.value(0) != "HTTP/1.1")
        return a;
    a.status = statusLine.value(1).toInt();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines.at(i).indexOf(':');
        a.headers.insert(lines.at(i).left(colon).trimmed().toLower(),
                         lines.at(i).mid(colon + 1).trimmed());
    }
    a.body = bytes.mid(end + 4);
    a.whole = a.headers.value("content-length").toLongLong() == a.body.size() &&
              socket.state() != QAbstractSocket::ConnectedState;
    return a;
}

QByteArray get(const QByteArray &target, quint16 port)
{
    return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(port) +
           "\r\nAccept: text/html\r\n\r\n";
}

QUrl authorizeUrl(const QString &state)
{
    QUrl url(u"https://as.example/authorize"_s);
    QUrlQuery q;
    q.addQueryItem(u"response_type"_s, u"code"_s);
    q.addQueryItem(u"state"_s, state);
    url.setQuery(q);
    return url;
}

} // namespace

class TestRedirectListener : public QObject
{
    Q_OBJECT

    ManualClock m_clock;

private Q_SLOTS:
    void everyRequestGetsAWholeAnswer_data()
    {
        QTest::addColumn<QByteArray>("request"); // %PORT% is the listener's
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("saying");
        QTest::addColumn<bool>("ends"); // the flow has its answer
        QTest::newRow("the redirect with a code says it is signed in to the server")
            << QByteArray("GET /?code=c1&state=s-1&iss=x HTTP/1.1") << 200
            << u"Signed in to demo-http"_s << true;
        QTest::newRow("a redirect with an error names it and its description")
            << QByteArray("GET /?error=access_denied&error_description=the+user+said+no"
                          "&state=s-1 HTTP/1.1")
            << 200 << u"access_denied: the user said no"_s << true;
        QTest::newRow("a redirect with another state is not the answer and says so")
            << QByteArray("GET /?code=c1&state=other HTTP/1.1") << 400
            << u"does not match the sign-in to demo-http"_s << false;
        QTest::newRow("a redirect without a state is not the answer either")
            << QByteArray("GET /?code=c1 HTTP/1.1") << 400
            << u"Not the sign-in Sonde is waiting for"_s << false;
        QTest::newRow("another path is not found")
            << QByteArray("GET /favicon.ico HTTP/1.1") << 404 << u"Not found"_s << false;
        QTest::newRow("a POST is not allowed")
            << QByteArray("POST /?code=c1&state=s-1 HTTP/1.1") << 405 << u"Only GET"_s << false;
        QTest::newRow("a request for another host name is refused (DNS rebinding)")
            << QByteArray("GET /?code=c1&state=s-1 HTTP/1.1\r\nHost: evil.example:%PORT%") << 400
            << u"answers requests for 127.0.0.1:"_s << false;
        QTest::newRow("something that is not HTTP gets a bad request")
            << QByteArray("HELLO") << 400 << u"not an HTTP request"_s << false;
    }
    void everyRequestGetsAWholeAnswer()
    {
        QFETCH(QByteArray, request);
        QFETCH(int, status);
        QFETCH(QString, saying);
        QFETCH(bool, ends);
        LoopbackUserAgent agent({}, m_clock, 60'000, u"browser"_s, u"demo-http"_s);
        QUrl redirect;
        agent.prepare([&redirect](const QUrl &uri, const QString &) { redirect = uri; });
        const quint16 port = agent.listeningPort();
        QVERIFY(port != 0);
        QCOMPARE(redirect, QUrl(u"http://127.0.0.1:%1/"_s.arg(port)));
        std::optional<AuthorizationUserAgent::Response> response;
        agent.authorize(authorizeUrl(u"s-1"_s),
                        [&](const AuthorizationUserAgent::Response &r) { response = r; });
        request.replace("%PORT%", QByteArray::number(port));
        if (!request.contains("Host:") && request.startsWith("GET /"))
            request += "\r\nHost: 127.0.0.1:" + QByteArray::number(port);
        const HttpAnswer a = rawRequest(port, request + "\r\n\r\n");
        QCOMPARE(a.status, status);
        QVERIFY2(a.whole, a.body.constData());
        QCOMPARE(a.headers.value("content-type"), QByteArray("text/html; charset=utf-8"));
        QCOMPARE(a.headers.value("cache-control"), QByteArray("no-store"));
        QVERIFY2(QString::fromUtf8(a.body).contains(saying), a.body.constData());
        QTRY_COMPARE(response.has_value(), ends);
        // Not the answer: the flow goes on waiting, and the right redirect still ends it.
        if (!ends) {
            QVERIFY(agent.listeningPort() != 0);
            const HttpAnswer right = rawRequest(port, get("/?code=c2&state=s-1", port));
            QCOMPARE(right.status, 200);
            QTRY_VERIFY(response.has_value());
            QCOMPARE(response->code, u"c2"_s);
        }
        QCOMPARE(agent.listeningPort(), 0);
    }

    // What came from the request is text on the page, never markup.
    void theServersErrorIsEscaped()
    {
        LoopbackUserAgent agent({}, m_clock, 60'000, u"a<b>"_s, u"srv<i>"_s);
        agent.prepare([](const QUrl &, const QString &) {});
        std::optional<AuthorizationUserAgent::Response> response;
        agent.authorize(authorizeUrl(u"s"_s),
                        [&](const AuthorizationUserAgent::Response &r) { response = r; });
        const quint16 port = agent.listeningPort();
        const HttpAnswer a =
            rawRequest(port, get("/?state=s&error=%3Cscript%3Ealert(1)%3C%2Fscript%3E"
                                 "&error_description=%22quoted%22+%26+%3Cb%3Ebold%3C%2Fb%3E",
                                 port));
        QCOMPARE(a.status, 200);
        QVERIFY(a.whole);
        QVERIFY2(!a.body.contains("<script>") && !a.body.contains("<b>") &&
                     !a.body.contains("srv<i>"),
                 a.body.constData());
        QVERIFY2(a.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;: &quot;quoted&quot; "
                                 "&amp; &lt;b&gt;bold&lt;/b&gt;"),
                 a.body.constData());
        QVERIFY(a.body.contains("srv&lt;i&gt;"));
        QTRY_VERIFY(response.has_value());
        QCOMPARE(response->error, u"<script>alert(1)</script>"_s);
        QCOMPARE(response->errorDescription, u"\"quoted\" & <b>bold</b>"_s);
    }

    // The flow lets the agent go the moment it has the answer (as AuthorizationFlow does,
    // inside the callback): the browser still gets the whole page. This was the empty reply.
    void thePageIsFinishedWhenTheFlowLetsGoAtOnce()
    {
        auto agent = std::make_unique<LoopbackUserAgent>(std::function<void(QUrl)>(), m_clock,
                                                         60'000, u"browser"_s, u"demo-http"_s);
        QUrl redirect;
        agent->prepare([&redirect](const QUrl &uri, const QString &) { redirect = uri; });
        bool answered = false;
        agent->authorize(authorizeUrl(u"st+1/="_s), [&](const AuthorizationUserAgent::Response &r) {
            answered = r.code == "c+1"_L1 && r.state == "st+1/="_L1;
            agent.reset(); // finish() and the destructor, from inside the answer
        });
        QNetworkAccessManager nam;
        QUrl back = redirect;
        back.setQuery(u"code=c%2B1&state=st%2B1%2F%3D"_s, QUrl::StrictMode);
        QNetworkReply *reply = nam.get(QNetworkRequest(back));
        QSignalSpy finished(reply, &QNetworkReply::finished);
        QVERIFY(finished.wait(5000));
        QVERIFY(answered);
        QVERIFY(!agent);
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        const QByteArray body = reply->readAll();
        QVERIFY2(body.contains("<h1>Signed in to demo-http</h1>"), body.constData());
        QVERIFY(body.contains("You can close this tab."));
        QCOMPARE(reply->header(QNetworkRequest::ContentLengthHeader).toLongLong(), body.size());
        reply->deleteLater();
    }

    // A browser opens connections ahead of time and may never use them; a second tab may ask
    // for the favicon while the redirect is read. Each is answered or let go on its own.
    void anIdleConnectionDoesNotHoldTheRedirectUp()
    {
        LoopbackUserAgent agent({}, m_clock, 60'000, u"browser"_s, u"demo-http"_s);
        agent.prepare([](const QUrl &, const QString &) {});
        std::optional<AuthorizationUserAgent::Response> response;
        agent.authorize(authorizeUrl(u"s"_s),
                        [&](const AuthorizationUserAgent::Response &r) { response = r; });
        const quint16 port = agent.listeningPort();
        QTcpSocket idle;
        idle.connectToHost(QHostAddress::LocalHost, port);
        QVERIFY(idle.waitForConnected(3000));
        idle.write("GET /?code=half"); // never finished
        QVERIFY(idle.waitForBytesWritten(3000));
        const HttpAnswer favicon = rawRequest(port, get("/favicon.ico", port));
        QCOMPARE(favicon.status, 404);
        const HttpAnswer a = rawRequest(port, get("/?code=c&state=s", port));
        QCOMPARE(a.status, 200);
        QTRY_VERIFY(response.has_value());
        QCOMPARE(response->code, u"c"_s);
        // The half request is dropped when the answer is in: nothing more is read.
        QTRY_COMPARE(idle.state(), QAbstractSocket::UnconnectedState);
    }
};

QTEST_GUILESS_MAIN(TestRedirectListener)
#include "tst_redirectlistener.moc"
