// SPDX-License-Identifier: MIT
#pragma once
// A Streamable HTTP endpoint that misbehaves on cue, for what no well-behaved server does:
// drop the connection after running a call, answer HTML or invalid UTF-8, refuse one request
// with 413, restart under a call. It speaks just enough MCP (initialize with a session id,
// notifications, tools/list with one read-only and one write tool) and counts every POST
// per method on its own side of the wire, which is what the tests check.
// Thread: the test's; it runs on the test's event loop (sonde-cli runs as a child process).

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>

#include <functional>

namespace SondeTest {

using namespace Qt::StringLiterals;

class ScriptedHttpServer : public QObject
{
public:
    struct Request
    {
        QByteArray method;  // GET, POST, DELETE
        QByteArray headers; // raw, lower-cased names and values
        QJsonObject body;
        QString rpcMethod;
        QJsonValue id;
        QString tool; // tools/call: params.name
    };
    // What to do with one request: the raw bytes to write (a complete response, or a part of
    // one); an empty array closes the connection without a byte; Hang answers nothing and
    // keeps the connection open.
    using Handler = std::function<QByteArray(const Request &)>;
    static QByteArray hang() { return QByteArrayLiteral("\0hang"); }
    // Writes `bytes` and then closes the connection (an SSE stream the server ends).
    static QByteArray thenClose(const QByteArray &bytes) { return bytes + closeMarker(); }
    static QByteArray closeMarker() { return QByteArrayLiteral("\0close"); }

    ScriptedHttpServer()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                s->setParent(this);
                connect(s, &QTcpSocket::readyRead, this, [this, s] { onReadyRead(s); });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    bool listen(quint16 port = 0) { return m_server.listen(QHostAddress::LocalHost, port); }
    void close()
    {
        m_server.close();
        // What was written goes out first (a process exiting flushes its sockets).
        for (QTcpSocket *s : findChildren<QTcpSocket *>())
            s->disconnectFromHost();
    }
    quint16 port() const { return m_server.serverPort(); }
    QString url() const { return u"http://127.0.0.1:%1/mcp"_s.arg(port()); }
    // A request whose body is over `bytes` is answered with `response` and its connection
    // closed: after reading the body (`readBodyFirst`, as Node servers do) or as soon as its
    // headers are in, the body unread (the kernel then resets the connection).
    void rejectBodiesOver(qsizetype bytes, QByteArray response, bool readBodyFirst)
    {
        m_rejectOver = bytes;
        m_rejectResponse = std::move(response);
        m_rejectReadFirst = readBodyFirst;
    }
    int earlyRejections() const { return m_earlyRejections; }
    // Replaces the default answer to this JSON-RPC method ("GET" for the GET stream,
    // "DELETE" for the end of a session).
    void on(const QString &rpcMethod, Handler handler)
    {
        m_handlers.insert(rpcMethod, std::move(handler));
    }
    // Every POST of this JSON-RPC method that reached the server, per tool for tools/call.
    int posts(const QString &rpcMethod, const QString &tool = {}) const
    {
        return m_posts.value(tool.isEmpty() ? rpcMethod : rpcMethod + u'/' + tool);
    }
    int deletes() const { return m_deletes; }
    // The connection of the request being handled, for a handler that answers later (write
    // to it from a timer) or cuts it alone.
    QTcpSocket *currentSocket() const { return m_current; }
    // Ends every GET stream left open (its response was written in part), as a server does
    // when it drops a session.
    void endGetStreams()
    {
        for (const QPointer<QTcpSocket> &s : std::as_const(m_getSockets))
            if (s)
                s->disconnectFromHost();
        m_getSockets.clear();
    }
    int sessions() const { return m_sessionCounter; }

    static QByteArray response(int status, const QByteArray &contentType, const QByteArray &body,
                               const QByteArray &extraHeaders = {})
    {
        QByteArray r = "HTTP/1.1 " + QByteArray::number(status) + " X\r\n";
        if (!contentType.isEmpty())
            r += "Content-Type: " + contentType + "\r\n";
        r += extraHeaders;
        r += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
        return r;
    }
    static QByteArray jsonResult(const QJsonValue &id, const QJsonObject &result,
                                 const QByteArray &extraHeaders = {})
    {
        const QJsonObject o{{"jsonrpc"_L1, u"2.0"_s}, {"id"_L1, id}, {"result"_L1, result}};
        return response(200, "application/json", QJsonDocument(o).toJson(QJsonDocument::Compact),
                        extraHeaders);
    }
    static QJsonObject textResult(const QString &text)
    {
        return {{"content"_L1, QJsonArray{QJsonObject{{"type"_L1, u"text"_s}, {"text"_L1, text}}}}};
    }

private:
    void onReadyRead(QTcpSocket *s)
    {
        QByteArray &buf = m_buffers[s];
        buf += s->readAll();
        for (;;) {
            const qsizetype end = buf.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            const QByteArray head = buf.left(end);
            qsizetype length = 0;
            for (const QByteArray &line : head.split('\n'))
                if (line.toLower().startsWith("content-length:"))
                    length = line.mid(15).trimmed().toLongLong();
            if (m_rejectOver >= 0 && length > m_rejectOver &&
                (!m_rejectReadFirst || buf.size() >= end + 4 + length)) {
                ++m_earlyRejections;
                m_buffers.remove(s);
                s->write(m_rejectResponse);
                s->disconnectFromHost();
                return;
            }
            if (buf.size() < end + 4 + length)
                return;
            Request r;
            r.method = head.left(head.indexOf(' '));
            r.headers = head.toLower();
            r.body = QJsonDocument::fromJson(buf.mid(end + 4, length)).object();
            buf.remove(0, end + 4 + length);
            r.rpcMethod = r.body.value("method"_L1).toString();
            r.id = r.body.value("id"_L1);
            r.tool = r.body.value("params"_L1).toObject().value("name"_L1).toString();
            m_current = s;
            const QByteArray answer = handle(r);
            if (r.method == "GET")
                m_getSockets.append(s);
            if (answer == hang())
                continue;
            if (answer.isEmpty()) {
                m_buffers.remove(s);
                s->abort(); // no response byte at all
                return;
            }
            if (answer.endsWith(closeMarker())) {
                m_buffers.remove(s);
                s->write(answer.chopped(closeMarker().size()));
                s->disconnectFromHost();
                return;
            }
            s->write(answer);
        }
    }
    QByteArray handle(const Request &r)
    {
        if (r.method == "GET")
            return m_handlers.contains(u"GET"_s) ? m_handlers[u"GET"_s](r) : response(405, {}, {});
        if (r.method == "DELETE") {
            ++m_deletes;
            return m_handlers.contains(u"DELETE"_s) ? m_handlers[u"DELETE"_s](r)
                                                    : response(200, {}, {});
        }
        ++m_posts[r.rpcMethod];
        if (!r.tool.isEmpty())
            ++m_posts[r.rpcMethod + u'/' + r.tool];
        if (const auto h = m_handlers.constFind(r.rpcMethod); h != m_handlers.constEnd())
            return (*h)(r);
        if (r.rpcMethod == "initialize"_L1) {
            const QByteArray sid = "scripted-session-" + QByteArray::number(++m_sessionCounter);
            return jsonResult(r.id,
                              {{"protocolVersion"_L1, u"2025-11-25"_s},
                               {"capabilities"_L1, QJsonObject{{"tools"_L1, QJsonObject{}}}},
                               {"serverInfo"_L1,
                                QJsonObject{{"name"_L1, u"scripted"_s}, {"version"_L1, u"1"_s}}}},
                              "Mcp-Session-Id: " + sid + "\r\n");
        }
        if (r.id.isUndefined())
            return response(202, {}, {});
        if (r.rpcMethod == "tools/list"_L1) {
            const QJsonObject schema{{"type"_L1, u"object"_s}};
            const QJsonArray tools{
                QJsonObject{{"name"_L1, u"read-thing"_s},
                            {"inputSchema"_L1, schema},
                            {"annotations"_L1, QJsonObject{{"readOnlyHint"_L1, true}}}},
                QJsonObject{{"name"_L1, u"write-thing"_s}, {"inputSchema"_L1, schema}}};
            return jsonResult(r.id, {{"tools"_L1, tools}});
        }
        if (r.rpcMethod == "ping"_L1)
            return jsonResult(r.id, {});
        return jsonResult(r.id, textResult(u"ok"_s));
    }

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    QHash<QString, int> m_posts;
    QHash<QString, Handler> m_handlers;
    QList<QPointer<QTcpSocket>> m_getSockets;
    QPointer<QTcpSocket> m_current;
    int m_deletes = 0;
    qsizetype m_rejectOver = -1;
    QByteArray m_rejectResponse;
    bool m_rejectReadFirst = false;
    int m_earlyRejections = 0;
    int m_sessionCounter = 0;
};

} // namespace SondeTest
