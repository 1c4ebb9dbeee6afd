// SPDX-License-Identifier: MIT
// The least an MCP client over Streamable HTTP can be, for the benchmarks' floors: one
// blocking keep-alive socket on the caller's thread, requests written by hand (pipelined
// when asked), answers framed by Content-Length or chunked encoding and scanned for the
// response's id. No JSON parsing, no threads, no event loop: what it measures is the
// server's own time plus the loopback, which no client can go below on the same machine.
#pragma once

#include "benchsupport.h"
#include "wireframe.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QUrl>

namespace SondeBench {

class RawHttpClient
{
public:
    struct Response
    {
        int status = 0;
        QByteArray body; // de-chunked
        QByteArray sessionId;
        qint64 answeredNs = -1; // on clockNs(): when the marked answer was complete
    };

    explicit RawHttpClient(const QString &endpoint) : m_url(endpoint)
    {
        m_clock.start();
        connectToServer();
    }

    qint64 clockNs() const { return m_clock.nsecsElapsed(); }
    // 2026-07-28: no session; each request carries its version and the mirrored headers.
    void setModern(bool modern) { m_modern = modern; }
    // 2026-07-28: echo() sends the engine's own frame (under its own id) with the engine's
    // headers, and the ones Qt adds to every request, instead of its minimal one.
    void setFrame(const WireFrame &frame)
    {
        m_frame = frame;
        m_headers.clear();
        for (const auto &[name, value] : frame.headers())
            m_headers += name + ": " + value + "\r\n";
        m_headers += QtDefaultHeaders;
    }
    QByteArray sessionId() const { return m_sessionId; }
    void setSessionId(const QByteArray &id) { m_sessionId = id; }

    // Writes one POST (with the session headers once there is a session); several sends
    // before a receive are pipelined on the connection.
    void send(const QByteArray &json)
    {
        // The server closes a keep-alive connection idle for 5 s (Node), which a turn of the
        // other columns can take when the machine is slow (or under callgrind).
        if (m_socket.state() != QAbstractSocket::ConnectedState && m_buf.isEmpty())
            connectToServer();
        QByteArray req =
            "POST " + m_url.path().toUtf8() + " HTTP/1.1\r\nHost: " + m_url.authority().toUtf8() +
            "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n";
        if (!m_sessionId.isEmpty())
            req += "Mcp-Session-Id: " + m_sessionId + "\r\nMCP-Protocol-Version: 2025-11-25\r\n";
        if (!m_headers.isEmpty())
            req += m_headers;
        else if (m_modern)
            req +=
                "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: echo\r\n";
        req += "Content-Length: " + QByteArray::number(json.size()) + "\r\n\r\n" + json;
        m_socket.write(req);
    }

    // Reads the next whole response on the connection. With a marker (such as "\"id\":3"),
    // answeredNs is when the body held it and, for SSE, the event around it had ended.
    Response receive(const char *answerMarker = nullptr)
    {
        Response r;
        qsizetype headerEnd;
        while ((headerEnd = m_buf.indexOf("\r\n\r\n")) < 0)
            more();
        qint64 length = 0;
        bool chunked = false;
        const QList<QByteArray> lines = m_buf.left(headerEnd).split('\n');
        r.status = lines.value(0).split(' ').value(1).toInt();
        for (const QByteArray &line : lines) {
            const QByteArray l = line.trimmed().toLower();
            if (l.startsWith("content-length:"))
                length = l.mid(15).trimmed().toLongLong();
            else if (l.startsWith("transfer-encoding:") && l.contains("chunked"))
                chunked = true;
            else if (l.startsWith("mcp-session-id:"))
                r.sessionId = line.trimmed().mid(15).trimmed();
        }
        m_buf.remove(0, headerEnd + 4);
        auto check = [&](bool complete) {
            if (!answerMarker || r.answeredNs >= 0)
                return;
            const qsizetype at = r.body.indexOf(answerMarker);
            if (at >= 0 && (complete || r.body.indexOf("\n\n", at) >= 0))
                r.answeredNs = clockNs();
        };
        if (!chunked) {
            while (m_buf.size() < length)
                more();
            r.body = m_buf.left(length);
            m_buf.remove(0, length);
            check(true);
            return r;
        }
        for (;;) {
            qsizetype lineEnd;
            while ((lineEnd = m_buf.indexOf("\r\n")) < 0)
                more();
            const qint64 size = m_buf.left(lineEnd).trimmed().toLongLong(nullptr, 16);
            while (m_buf.size() < lineEnd + 2 + size + 2)
                more();
            r.body += m_buf.mid(lineEnd + 2, size);
            m_buf.remove(0, lineEnd + 2 + size + 2);
            check(size == 0);
            if (size == 0)
                return r;
        }
    }

    Response exchange(const QByteArray &json, const char *answerMarker = nullptr)
    {
        send(json);
        return receive(answerMarker);
    }

    // initialize and notifications/initialized: a session, ready for calls.
    void initialize()
    {
        const Response r = exchange(initializeBody(0), "\"id\":0");
        if (r.sessionId.isEmpty() || !r.body.contains("\"result\""))
            fail(1, u"raw client: initialize gave no session: "_s +
                        QString::fromUtf8(r.body.left(300)));
        m_sessionId = r.sessionId;
        exchange(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    }

    // One tools/call echo; microseconds from the write to the answer.
    double echo(int id)
    {
        const QByteArray body = m_frame.isEmpty() ? echoBody(id, m_modern) : m_frame.withId(id);
        const QByteArray marker = "\"id\":" + QByteArray::number(id);
        reconnectIfClosed();
        const qint64 start = clockNs();
        const Response r = exchange(body, marker.constData());
        if (!r.body.contains("Echo: hi"))
            fail(1,
                 u"raw client: unexpected echo answer: "_s + QString::fromUtf8(r.body.left(300)));
        return double(r.answeredNs - start) / 1e3;
    }

    // DELETE of the session, keeping the connection; returns the status.
    int deleteSession()
    {
        m_socket.write(
            "DELETE " + m_url.path().toUtf8() + " HTTP/1.1\r\nHost: " + m_url.authority().toUtf8() +
            "\r\nMcp-Session-Id: " + m_sessionId + "\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n");
        m_sessionId.clear();
        return receive().status;
    }

    // tools/call echo; in 2026-07-28 with the _meta every request must carry.
    static QByteArray echoBody(int id, bool modern)
    {
        const QByteArray meta =
            modern ? R"(,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                     R"("io.modelcontextprotocol/clientCapabilities":{},)"
                     R"("io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}})"
                   : QByteArray();
        return R"({"jsonrpc":"2.0","id":)" + QByteArray::number(id) +
               R"(,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"})" +
               meta + "}}";
    }

    static QByteArray initializeBody(int id, const QJsonObject &capabilities = {})
    {
        return QJsonDocument(
                   QJsonObject{{"jsonrpc"_L1, "2.0"_L1},
                               {"id"_L1, id},
                               {"method"_L1, "initialize"_L1},
                               {"params"_L1, QJsonObject{{"protocolVersion"_L1, "2025-11-25"_L1},
                                                         {"capabilities"_L1, capabilities},
                                                         {"clientInfo"_L1,
                                                          QJsonObject{{"name"_L1, "raw"_L1},
                                                                      {"version"_L1, "1"_L1}}}}}})
            .toJson(QJsonDocument::Compact);
    }

private:
    // Untimed, before a call: a close the server sent while the connection sat idle is only
    // seen on a read, which would otherwise be the call's own.
    void reconnectIfClosed()
    {
        if (!m_buf.isEmpty() || m_socket.bytesAvailable() > 0)
            return;
        m_socket.waitForReadyRead(0);
        if (m_socket.state() != QAbstractSocket::ConnectedState)
            connectToServer();
    }

    void connectToServer()
    {
        m_socket.abort();
        m_socket.connectToHost(m_url.host(), quint16(m_url.port(80)));
        if (!m_socket.waitForConnected(IoTimeoutMs))
            fail(1, u"raw client: cannot connect: "_s + m_socket.errorString());
        m_socket.setSocketOption(QAbstractSocket::LowDelayOption, 1);
    }

    void more()
    {
        if (!m_socket.waitForReadyRead(IoTimeoutMs))
            fail(1, u"raw client: the server went quiet: "_s + m_socket.errorString());
        m_buf += m_socket.readAll();
    }

    QUrl m_url;
    QElapsedTimer m_clock;
    QTcpSocket m_socket;
    QByteArray m_buf;
    // What QNetworkAccessManager adds to each of the engine's requests (this Qt, as strace
    // shows them), so that the server parses the same header block.
    static constexpr const char *QtDefaultHeaders =
        "Connection: Keep-Alive\r\nAccept-Encoding: zstd, br, gzip, deflate\r\n"
        "Accept-Language: en,*\r\nUser-Agent: Mozilla/5.0\r\n";

    QByteArray m_sessionId;
    bool m_modern = false;
    WireFrame m_frame;
    QByteArray m_headers;
};

} // namespace SondeBench
