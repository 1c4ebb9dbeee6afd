// SPDX-License-Identifier: MIT
#include "proxy/httpwire.h"

#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

// The proxy's HTTP reader: every framing, split at any byte, and each refusal with its one
// line.
class TestHttpWire : public QObject
{
    Q_OBJECT
private:
    struct Read
    {
        QList<HttpHead> heads;
        QList<QByteArray> payloads; // one per message
        QByteArray rest;
        QString error;
    };
    // Feeds `bytes` in reads of `chunk` bytes, messages one after another, as a connection
    // would; `atClose`: the connection closes after the last byte.
    static Read readAll(HttpMessageReader::Kind kind, const QByteArray &bytes, int chunk,
                        bool atClose = false)
    {
        Read r;
        HttpMessageReader reader(kind);
        QByteArray buffer;
        QByteArray payload;
        auto drain = [&] {
            while (!buffer.isEmpty()) {
                const HttpMessageReader::Step s = reader.feed(buffer);
                if (reader.failed()) {
                    r.error = reader.error();
                    return false;
                }
                payload += s.payload;
                if (s.messageDone) {
                    r.heads.append(reader.head());
                    r.payloads.append(std::exchange(payload, {}));
                    reader.next();
                } else if (!buffer.isEmpty()) {
                    return false; // cannot happen: a reader takes all it can
                }
            }
            return true;
        };
        for (qsizetype i = 0; i < bytes.size(); i += chunk) {
            buffer += bytes.mid(i, chunk);
            if (!drain())
                return r;
        }
        if (atClose && reader.finishAtClose()) {
            r.heads.append(reader.head());
            r.payloads.append(payload);
        }
        return r;
    }

private Q_SLOTS:
    void readsEveryFraming_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("atClose");
        QTest::addColumn<QList<QByteArray>>("payloads");
        using L = QList<QByteArray>;
        const int request = int(HttpMessageReader::Kind::Request);
        const int response = int(HttpMessageReader::Kind::Response);
        QTest::newRow("a POST with Content-Length")
            << request << QByteArray("POST /mcp HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello")
            << false << L{"hello"};
        QTest::newRow("a GET has no body and two follow each other")
            << request << QByteArray("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\n\r\n")
            << false << L{"", ""};
        QTest::newRow("a chunked request with an extension and a trailer")
            << request
            << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                          "3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nX-Trailer: 1\r\n\r\n")
            << false << L{"abcde"};
        QTest::newRow("a chunked SSE response")
            << response
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                          "Transfer-Encoding: chunked\r\n\r\n"
                          "f\r\nid: 1\ndata: x\n\n\r\n0\r\n\r\n")
            << false << L{"id: 1\ndata: x\n\n"};
        QTest::newRow("a 202 with Content-Length 0 then a 200")
            << response
            << QByteArray("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n"
                          "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
            << false << L{"", "{}"};
        QTest::newRow("a 204 has no body whatever it says")
            << response << QByteArray("HTTP/1.1 204 No Content\r\nContent-Length: 9\r\n\r\n")
            << false << L{""};
        QTest::newRow("a response without length runs to the close")
            << response << QByteArray("HTTP/1.0 200 OK\r\n\r\nevery byte\r\n\r\nto the end") << true
            << L{"every byte\r\n\r\nto the end"};
    }
    void readsEveryFraming()
    {
        QFETCH(int, kind);
        QFETCH(QByteArray, bytes);
        QFETCH(bool, atClose);
        QFETCH(QList<QByteArray>, payloads);
        for (int chunk : {1, 3, 7, int(bytes.size())}) {
            const Read r = readAll(HttpMessageReader::Kind(kind), bytes, chunk, atClose);
            QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
            QCOMPARE(r.payloads, payloads);
        }
    }

    void keepsTheHeadAsItCame()
    {
        const Read r =
            readAll(HttpMessageReader::Kind::Request,
                    "POST /mcp?x=1 HTTP/1.1\r\nMcp-Session-Id: abc\r\nX-Two:  spaced  \r\n"
                    "Content-Length: 0\r\n\r\n",
                    4);
        QCOMPARE(r.heads.size(), 1);
        const HttpHead &h = r.heads.first();
        QCOMPARE(h.method, QByteArray("POST"));
        QCOMPARE(h.target, QByteArray("/mcp?x=1"));
        QCOMPARE(h.value("mcp-session-id"), QByteArray("abc"));
        QCOMPARE(h.fields.at(0).first, QByteArray("Mcp-Session-Id"));
        QCOMPARE(h.value("x-two"), QByteArray("spaced"));
        QVERIFY(h.value("absent").isNull());
    }

    void refusesWhatIsNotHttp_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("error");
        const int request = int(HttpMessageReader::Kind::Request);
        const int response = int(HttpMessageReader::Kind::Response);
        QTest::newRow("an HTML page where a status line belongs")
            << response << QByteArray("<html><body>hi</body></html>\r\n\r\n")
            << u"not an HTTP/1.1 status line"_s;
        QTest::newRow("a chunk size that is not hexadecimal")
            << response << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
            << u"chunk size is not hexadecimal"_s;
        QTest::newRow("a chunk without its CRLF")
            << response
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\naXY\r\n")
            << u"does not end with CRLF"_s;
        QTest::newRow("a Content-Length that is not a number")
            << request << QByteArray("POST / HTTP/1.1\r\nContent-Length: ten\r\n\r\n")
            << u"Content-Length is not a number"_s;
        QTest::newRow("a header line folded the obsolete way")
            << request << QByteArray("GET / HTTP/1.1\r\nA: b\r\n c\r\n\r\n")
            << u"malformed HTTP header line"_s;
        QTest::newRow("a head over 64 KiB")
            << request << (QByteArray("GET / HTTP/1.1\r\nX: ") + QByteArray(70 * 1024, 'a'))
            << u"over the 64 KiB limit"_s;
    }
    void refusesWhatIsNotHttp()
    {
        QFETCH(int, kind);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, error);
        const Read r = readAll(HttpMessageReader::Kind(kind), bytes, 5);
        QVERIFY2(r.error.contains(error), qPrintable(r.error));
    }

    void aLargeBodyIsNeverHeld()
    {
        HttpMessageReader reader(HttpMessageReader::Kind::Response);
        QByteArray head("HTTP/1.1 200 OK\r\nContent-Length: 52428800\r\n\r\n");
        reader.feed(head);
        const QByteArray block(64 * 1024, 'x');
        qint64 seen = 0;
        for (int i = 0; i < 800; ++i) {
            QByteArray b = block;
            seen += reader.feed(b).payload.size();
            QVERIFY(b.isEmpty());
        }
        QCOMPARE(seen, qint64(52428800));
        QVERIFY(reader.done());
    }

    void removesHopByHopFieldsAndKeepsTheFraming()
    {
        HttpHead h;
        h.method = "POST";
        h.target = "/";
        h.fields = {{"Connection", "keep-alive, X-Private, Content-Length"},
                    {"Keep-Alive", "timeout=5"},
                    {"X-Private", "1"},
                    {"Proxy-Authorization", "Basic x"},
                    {"Authorization", "Bearer t"},
                    {"Mcp-Session-Id", "s"},
                    {"Content-Length", "2"},
                    {"TE", "trailers"}};
        h.removeHopByHop();
        QCOMPARE(h.fields.size(), 3);
        QCOMPARE(h.value("authorization"), QByteArray("Bearer t"));
        QCOMPARE(h.value("mcp-session-id"), QByteArray("s"));
        QCOMPARE(h.value("content-length"), QByteArray("2"));
    }
};

QTEST_GUILESS_MAIN(TestHttpWire)
#include "tst_httpwire.moc"
