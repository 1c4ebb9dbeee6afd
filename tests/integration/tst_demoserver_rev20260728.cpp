// SPDX-License-Identifier: MIT
// sonde-demo-server as a dual-era server (2026-07-28 beside 2025-11-25), driven with raw
// frames over stdio (JSON lines) and over --http 127.0.0.1:0 (raw HTTP/1.1 on a socket, so
// every header and every byte of a stream is ours to check): discovery, _meta validation,
// result decoration and cache hints, the mirrored-header checks, JSON or SSE answers,
// cancellation by closing a stream, subscriptions/listen, MRTR, per-request logging, and
// --era initialize|2026-07-28.
#include "testpaths.h"
#include "util/version.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTest>

#include <functional>
#include <optional>

using namespace Qt::StringLiterals;

#define JSON_TEXT(...) #__VA_ARGS__

namespace {

enum class Transport
{
    Stdio,
    Http
};

QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(text).object();
}

// The per-request _meta of a 2026-07-28 request; `drop` leaves one required key out.
QJsonObject modernMeta(const QJsonObject &capabilities = {}, const QString &drop = {})
{
    QJsonObject meta{
        {"io.modelcontextprotocol/protocolVersion"_L1, "2026-07-28"_L1},
        {"io.modelcontextprotocol/clientCapabilities"_L1, capabilities},
        {"io.modelcontextprotocol/clientInfo"_L1,
         QJsonObject{{"name"_L1, "tst_demoserver_rev20260728"_L1}, {"version"_L1, "1"_L1}}}};
    if (!drop.isEmpty())
        meta.remove(drop);
    return meta;
}

QJsonObject request(const QJsonValue &id, const QString &method, QJsonObject params = {},
                    const QJsonObject &meta = modernMeta())
{
    QJsonObject m = params.value("_meta"_L1).toObject();
    for (auto it = meta.begin(); it != meta.end(); ++it)
        m.insert(it.key(), it.value());
    if (!m.isEmpty())
        params.insert("_meta"_L1, m);
    return {{"jsonrpc"_L1, "2.0"_L1}, {"id"_L1, id}, {"method"_L1, method}, {"params"_L1, params}};
}

QJsonObject legacyRequest(const QJsonValue &id, const QString &method,
                          const QJsonObject &params = {})
{
    return request(id, method, params, {});
}

QJsonObject callTool(const QJsonValue &id, const QString &name, const QJsonObject &args = {},
                     const QJsonObject &meta = modernMeta())
{
    return request(id, u"tools/call"_s, {{"name"_L1, name}, {"arguments"_L1, args}}, meta);
}

QString toolText(const QJsonObject &response)
{
    return response.value("result"_L1)
        .toObject()
        .value("content"_L1)
        .toArray()
        .at(0)
        .toObject()
        .value("text"_L1)
        .toString();
}

// The header form of a value (streamable-http.mdx, "Value Encoding").
QByteArray headerValue(const QString &text)
{
    const QByteArray utf8 = text.toUtf8();
    bool plain = !text.startsWith("=?base64?"_L1) && text.trimmed() == text;
    for (const char c : utf8)
        plain &= uchar(c) >= 0x20 && uchar(c) <= 0x7e;
    return plain ? utf8 : "=?base64?" + utf8.toBase64() + "?=";
}

using Headers = QList<QPair<QByteArray, QByteArray>>;

// One HTTP exchange on its own connection, read as it arrives.
class RawHttp
{
public:
    explicit RawHttp(quint16 port) { m_socket.connectToHost(QHostAddress::LocalHost, port); }

    bool send(const QByteArray &method, const Headers &headers, const QByteArray &body)
    {
        if (!m_socket.waitForConnected(3000))
            return false;
        QByteArray head = method + " /mcp HTTP/1.1\r\n";
        for (const auto &[k, v] : headers)
            head += k + ": " + v + "\r\n";
        head += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n";
        m_socket.write(head + body);
        return m_socket.waitForBytesWritten(3000);
    }
    // Reads until `done` holds, the server closes, or `ms` pass; whether `done` held.
    bool readUntil(const std::function<bool()> &done, int ms = 10000)
    {
        QElapsedTimer t;
        t.start();
        while (!done()) {
            if (t.elapsed() > ms)
                return false;
            if (m_socket.state() != QAbstractSocket::ConnectedState && !m_socket.bytesAvailable())
                return done();
            m_socket.waitForReadyRead(50);
            m_data += m_socket.readAll();
        }
        return true;
    }
    bool readToEnd(int ms = 10000)
    {
        return readUntil([this] { return closed(); }, ms);
    }
    bool closed() const { return m_socket.state() == QAbstractSocket::UnconnectedState; }
    int status() const { return m_data.mid(9, 3).toInt(); }
    QByteArray header(const QByteArray &name) const
    {
        for (const QByteArray &line : m_data.left(m_data.indexOf("\r\n\r\n")).split('\n'))
            if (line.toLower().startsWith(QByteArray(name.toLower() + ':')))
                return line.mid(name.size() + 1).trimmed();
        return {};
    }
    bool isStream() const { return header("content-type").startsWith("text/event-stream"); }
    QByteArray body() const
    {
        const qsizetype end = m_data.indexOf("\r\n\r\n");
        return end < 0 ? QByteArray() : m_data.mid(end + 4);
    }
    // The JSON-RPC messages of the answer: the JSON body, or each SSE event's data.
    QList<QJsonObject> messages() const
    {
        if (!m_data.contains("\r\n\r\n"))
            return {};
        if (!isStream()) {
            const QJsonDocument doc = QJsonDocument::fromJson(body());
            return doc.isObject() ? QList<QJsonObject>{doc.object()} : QList<QJsonObject>{};
        }
        // Complete events only: the last one may still be arriving.
        QList<QJsonObject> out;
        const QByteArray b = body();
        for (qsizetype at = 0, end; (end = b.indexOf("\n\n", at)) >= 0; at = end + 2) {
            for (const QByteArray &line : b.mid(at, end - at).split('\n'))
                if (line.startsWith("data: "))
                    out.append(QJsonDocument::fromJson(line.mid(6)).object());
        }
        return out;
    }
    void close() { m_socket.abort(); }

private:
    QTcpSocket m_socket;
    QByteArray m_data;
};

QJsonValue subscriptionOf(const QJsonObject &message)
{
    const QJsonObject holder = message.contains("method"_L1)
                                   ? message.value("params"_L1).toObject()
                                   : message.value("result"_L1).toObject();
    return holder.value("_meta"_L1).toObject().value("io.modelcontextprotocol/subscriptionId"_L1);
}

// What a request got: the HTTP status (0 on stdio), the answer, what came before it on its
// stream, and whether that was SSE.
struct Answer
{
    int status = 0;
    QJsonObject response;
    QList<QJsonObject> before;
    bool stream = false;
    QByteArray sessionHeader;
};

// The demo server as a process, on either transport.
class Peer
{
public:
    explicit Peer(Transport t) : m_transport(t) {}
    ~Peer()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(3000))
            m_process.kill();
    }
    bool start(const QStringList &args = {})
    {
        QStringList all = args;
        if (m_transport == Transport::Http)
            all << u"--http"_s << u"127.0.0.1:0"_s;
        m_process.start(QString::fromUtf8(SONDE_DEMO_SERVER_PATH), all);
        if (!m_process.waitForStarted(5000))
            return false;
        if (m_transport == Transport::Stdio)
            return true;
        if (!m_process.waitForReadyRead(5000))
            return false;
        const QString url = QString::fromUtf8(m_process.readLine().trimmed());
        m_port = quint16(url.section(u':', 2).section(u'/', 0, 0).toUInt());
        return m_port != 0;
    }
    quint16 port() const { return m_port; }
    QProcess &process() { return m_process; }
    QByteArray log()
    {
        m_log += m_process.readAllStandardError();
        return m_log;
    }

    // The headers a conforming modern client sends for `message`, with `overrides` applied
    // (an empty value leaves that header out).
    Headers headersFor(const QJsonObject &message, const Headers &overrides = {}) const
    {
        Headers h{{"Host", "127.0.0.1:" + QByteArray::number(m_port)},
                  {"Content-Type", "application/json"},
                  {"Accept", "application/json, text/event-stream"},
                  {"Connection", "close"}};
        const QJsonObject params = message.value("params"_L1).toObject();
        const QJsonValue version =
            params.value("_meta"_L1).toObject().value("io.modelcontextprotocol/protocolVersion"_L1);
        if (version.isString())
            h.append({"MCP-Protocol-Version", version.toString().toUtf8()});
        const QString method = message.value("method"_L1).toString();
        if (params.value("_meta"_L1)
                .toObject()
                .contains("io.modelcontextprotocol/protocolVersion"_L1))
            h.append({"Mcp-Method", method.toUtf8()});
        if (method == "tools/call"_L1 || method == "prompts/get"_L1)
            h.append({"Mcp-Name", headerValue(params.value("name"_L1).toString())});
        if (method == "resources/read"_L1)
            h.append({"Mcp-Name", headerValue(params.value("uri"_L1).toString())});
        const QJsonValue city = params.value("arguments"_L1).toObject().value("city"_L1);
        if (city.isString())
            h.append({"Mcp-Param-City", headerValue(city.toString())});
        for (const auto &[name, value] : overrides) {
            h.removeIf([&](const auto &p) { return p.first.toLower() == name.toLower(); });
            if (!value.isEmpty())
                h.append({name, value});
        }
        return h;
    }

    Answer call(const QJsonObject &message, const Headers &overrides = {})
    {
        Answer a;
        const QJsonValue id = message.value("id"_L1);
        if (m_transport == Transport::Stdio) {
            write(message);
            while (true) {
                const std::optional<QJsonObject> m = next();
                if (!m)
                    return a;
                if (!m->contains("method"_L1) && m->value("id"_L1) == id) {
                    a.response = *m;
                    return a;
                }
                // A subscription's message is the Listener's, not this request's.
                if (subscriptionOf(*m).isUndefined())
                    a.before.append(*m);
                else
                    pending.append(*m);
            }
        }
        RawHttp http(m_port);
        http.send("POST", headersFor(message, overrides),
                  QJsonDocument(message).toJson(QJsonDocument::Compact));
        http.readToEnd();
        a.status = http.status();
        a.stream = http.isStream();
        a.sessionHeader = http.header("mcp-session-id");
        QList<QJsonObject> all = http.messages();
        if (!all.isEmpty())
            a.response = all.takeLast();
        a.before = all;
        return a;
    }

    QList<QJsonObject> pending; // stdio: subscription messages read while waiting for others

    // stdio: raw writes and the messages read so far.
    void write(const QJsonObject &message)
    {
        m_process.write(QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n');
    }
    std::optional<QJsonObject> next(int ms = 10000)
    {
        QElapsedTimer t;
        t.start();
        while (!m_lines.contains('\n')) {
            if (t.elapsed() > ms)
                return std::nullopt;
            if (!m_process.waitForReadyRead(50) && m_process.state() == QProcess::NotRunning &&
                !m_process.bytesAvailable())
                return std::nullopt;
            m_lines += m_process.readAllStandardOutput();
        }
        const qsizetype nl = m_lines.indexOf('\n');
        const QByteArray line = m_lines.left(nl);
        m_lines.remove(0, nl + 1);
        const QJsonDocument doc = QJsonDocument::fromJson(line);
        return doc.isObject() ? doc.object() : next(ms);
    }
    // Every message until the process exits.
    QList<QJsonObject> rest()
    {
        QList<QJsonObject> all;
        while (const std::optional<QJsonObject> m = next(5000))
            all.append(*m);
        return all;
    }

private:
    Transport m_transport;
    QProcess m_process;
    quint16 m_port = 0;
    QByteArray m_lines;
    QByteArray m_log;
};

// A subscriptions/listen kept open: over HTTP its own stream, over stdio the shared stdout.
class Listener
{
public:
    Listener(Peer &peer, Transport t, const QJsonValue &id, const QJsonObject &filter)
        : m_peer(peer), m_transport(t), m_id(id)
    {
        const QJsonObject listen =
            request(id, u"subscriptions/listen"_s, {{"notifications"_L1, filter}});
        if (t == Transport::Stdio) {
            peer.write(listen);
        } else {
            m_http.emplace(peer.port());
            m_http->send("POST", peer.headersFor(listen),
                         QJsonDocument(listen).toJson(QJsonDocument::Compact));
        }
    }
    // The next message of this subscription (stdio: others are kept for later).
    std::optional<QJsonObject> next(int ms = 10000)
    {
        if (m_transport == Transport::Http) {
            const qsizetype seen = m_seen;
            if (!m_http->readUntil([&] { return m_http->messages().size() > seen; }, ms))
                return std::nullopt;
            return m_http->messages().at(m_seen++);
        }
        for (qsizetype i = 0; i < m_peer.pending.size(); ++i)
            if (subscriptionOf(m_peer.pending.at(i)) == m_id)
                return m_peer.pending.takeAt(i);
        while (const std::optional<QJsonObject> m = m_peer.next(ms)) {
            if (subscriptionOf(*m) == m_id)
                return m;
            m_peer.pending.append(*m);
        }
        return std::nullopt;
    }
    RawHttp &http() { return *m_http; }

private:
    Peer &m_peer;
    Transport m_transport;
    QJsonValue m_id;
    std::optional<RawHttp> m_http;
    qsizetype m_seen = 0;
};

const QJsonObject AllInputs = json(JSON_TEXT({"elicitation" : {}, "sampling" : {}, "roots" : {}}));

} // namespace

Q_DECLARE_METATYPE(Transport)

class TestDemoServerRev20260728 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void discoveryListsTheVersionsOfTheEra_data();
    void discoveryListsTheVersionsOfTheEra();
    void badMetaIsRefused_data();
    void badMetaIsRefused();
    void modernResultsAreDecorated_data();
    void modernResultsAreDecorated();
    void listsStayPaginated_data();
    void listsStayPaginated();
    void methodsRemovedIn2026AreUnknown_data();
    void methodsRemovedIn2026AreUnknown();
    void resourceNotFoundIsInvalidParams_data();
    void resourceNotFoundIsInvalidParams();
    void headersMustMirrorTheBody_data();
    void headersMustMirrorTheBody();
    void logMessagesFollowTheRequestsLogLevel_data();
    void logMessagesFollowTheRequestsLogLevel();
    void progressComesOnTheRequestsOwnStream_data();
    void progressComesOnTheRequestsOwnStream();
    void closingTheStreamCancelsTheRequest();
    void listenAcknowledgesThenDeliversWhatWasAsked_data();
    void listenAcknowledgesThenDeliversWhatWasAsked();
    void cancellingAListenEndsIt_data();
    void cancellingAListenEndsIt();
    void aListenStreamGetsKeepAliveComments();
    void clientsMayReuseEachOthersIds();
    void aDroppedConnectionAnswersNothing();
    void shutdownEndsSubscriptionsGracefully_data();
    void shutdownEndsSubscriptionsGracefully();
    void inputRequiredRoundsCompleteTheCall_data();
    void inputRequiredRoundsCompleteTheCall();
    void inputIsAskedOnlyWhenDeclared_data();
    void inputIsAskedOnlyWhenDeclared();
    void aForeignOrChangedRequestStateIsRefused_data();
    void aForeignOrChangedRequestStateIsRefused();
    void legacyEraAnswersAsA2025Server_data();
    void legacyEraAnswersAsA2025Server();
    void modernEraRefusesInitialize_data();
    void modernEraRefusesInitialize();
    void modernEraHasNoGetOrDelete();
    void aLegacySessionStillWorksBesideModernRequests_data();
    void aLegacySessionStillWorksBesideModernRequests();
};

static void addTransports()
{
    QTest::addColumn<Transport>("transport");
}

static void bothTransports(const char *sentence)
{
    QTest::addRow("%s over stdio", sentence) << Transport::Stdio;
    QTest::addRow("%s over HTTP", sentence) << Transport::Http;
}

void TestDemoServerRev20260728::discoveryListsTheVersionsOfTheEra_data()
{
    QTest::addColumn<Transport>("transport");
    QTest::addColumn<QString>("era");
    QTest::addColumn<QStringList>("versions");
    const QStringList both{u"2026-07-28"_s, u"2025-11-25"_s};
    QTest::newRow("a dual-era server lists both over stdio")
        << Transport::Stdio << u"both"_s << both;
    QTest::newRow("a dual-era server lists both over HTTP") << Transport::Http << u"both"_s << both;
    QTest::newRow("a modern-only server lists 2026-07-28 alone over stdio")
        << Transport::Stdio << u"2026-07-28"_s << QStringList{u"2026-07-28"_s};
    QTest::newRow("a modern-only server lists 2026-07-28 alone over HTTP")
        << Transport::Http << u"2026-07-28"_s << QStringList{u"2026-07-28"_s};
}

void TestDemoServerRev20260728::discoveryListsTheVersionsOfTheEra()
{
    QFETCH(Transport, transport);
    QFETCH(QString, era);
    QFETCH(QStringList, versions);
    Peer peer(transport);
    QVERIFY(peer.start({u"--era"_s, era}));
    const Answer a = peer.call(request(1, u"server/discover"_s));
    QCOMPARE(a.status, transport == Transport::Http ? 200 : 0);
    const QJsonObject r = a.response.value("result"_L1).toObject();
    QCOMPARE(r.value("resultType"_L1).toString(), u"complete"_s);
    QCOMPARE(r.value("supportedVersions"_L1).toVariant().toStringList(), versions);
    const QJsonObject caps = r.value("capabilities"_L1).toObject();
    QVERIFY(caps.value("tools"_L1).toObject().value("listChanged"_L1).toBool());
    QVERIFY(caps.value("resources"_L1).toObject().value("subscribe"_L1).toBool());
    QVERIFY(caps.value("resources"_L1).toObject().value("listChanged"_L1).toBool());
    QVERIFY(caps.value("prompts"_L1).toObject().value("listChanged"_L1).toBool());
    QVERIFY(caps.value("logging"_L1).isObject());
    QVERIFY(caps.value("completions"_L1).isObject());
    QCOMPARE(r.value("_meta"_L1)
                 .toObject()
                 .value("io.modelcontextprotocol/serverInfo"_L1)
                 .toObject()
                 .value("name"_L1)
                 .toString(),
             u"sonde-demo-server"_s);
    QVERIFY(!r.value("instructions"_L1).toString().isEmpty());
    QVERIFY(r.value("ttlMs"_L1).toInteger(-1) >= 0);
    QVERIFY(r.value("cacheScope"_L1) == "public"_L1 || r.value("cacheScope"_L1) == "private"_L1);
}

void TestDemoServerRev20260728::badMetaIsRefused_data()
{
    QTest::addColumn<Transport>("transport");
    QTest::addColumn<QJsonObject>("meta");
    QTest::addColumn<int>("code");
    QJsonObject unknown = modernMeta();
    unknown.insert("io.modelcontextprotocol/protocolVersion"_L1, "1900-01-01"_L1);
    QJsonObject badLevel = modernMeta();
    badLevel.insert("io.modelcontextprotocol/logLevel"_L1, "loud"_L1);
    for (const Transport t : {Transport::Stdio, Transport::Http}) {
        const char *over = t == Transport::Stdio ? "stdio" : "HTTP";
        QTest::addRow("a request without protocolVersion is invalid params over %s", over)
            << t << modernMeta({}, u"io.modelcontextprotocol/protocolVersion"_s) << -32602;
        QTest::addRow("a request without clientCapabilities is invalid params over %s", over)
            << t << modernMeta({}, u"io.modelcontextprotocol/clientCapabilities"_s) << -32602;
        QTest::addRow("an unknown version is unsupported and names ours over %s", over)
            << t << unknown << -32022;
        QTest::addRow("an unknown log level is invalid params over %s", over)
            << t << badLevel << -32602;
    }
}

void TestDemoServerRev20260728::badMetaIsRefused()
{
    QFETCH(Transport, transport);
    QFETCH(QJsonObject, meta);
    QFETCH(int, code);
    Peer peer(transport);
    QVERIFY(peer.start());
    // A listen: a modern-only method, so even without its version it is a modern request.
    const Answer a = peer.call(
        request(7, u"subscriptions/listen"_s, {{"notifications"_L1, QJsonObject{}}}, meta));
    QCOMPARE(a.status, transport == Transport::Http ? 400 : 0);
    const QJsonObject error = a.response.value("error"_L1).toObject();
    QCOMPARE(error.value("code"_L1).toInt(), code);
    QCOMPARE(a.response.value("id"_L1).toInt(), 7);
    if (code == -32022) {
        const QJsonObject data = error.value("data"_L1).toObject();
        QCOMPARE(data.value("supported"_L1).toVariant().toStringList(),
                 (QStringList{u"2026-07-28"_s, u"2025-11-25"_s}));
        QCOMPARE(data.value("requested"_L1).toString(), u"1900-01-01"_s);
    }
}

void TestDemoServerRev20260728::modernResultsAreDecorated_data()
{
    QTest::addColumn<Transport>("transport");
    QTest::addColumn<QJsonObject>("message");
    QTest::addColumn<bool>("cacheable");
    for (const Transport t : {Transport::Stdio, Transport::Http}) {
        const char *over = t == Transport::Stdio ? "stdio" : "HTTP";
        QTest::addRow("tools/list carries cache hints over %s", over)
            << t << request(2, u"tools/list"_s) << true;
        QTest::addRow("prompts/list carries cache hints over %s", over)
            << t << request(2, u"prompts/list"_s) << true;
        QTest::addRow("resources/list carries cache hints over %s", over)
            << t << request(2, u"resources/list"_s) << true;
        QTest::addRow("resources/templates/list carries cache hints over %s", over)
            << t << request(2, u"resources/templates/list"_s) << true;
        QTest::addRow("resources/read carries cache hints over %s", over)
            << t << request(2, u"resources/read"_s, {{"uri"_L1, "demo://readme"_L1}}) << true;
        QTest::addRow("a tool call is complete but not cacheable over %s", over)
            << t << callTool(2, u"echo"_s, {{"message"_L1, "hi"_L1}}) << false;
        QTest::addRow("prompts/get is complete but not cacheable over %s", over)
            << t << request(2, u"prompts/get"_s, {{"name"_L1, "summarize-notes"_L1}}) << false;
    }
}

void TestDemoServerRev20260728::modernResultsAreDecorated()
{
    QFETCH(Transport, transport);
    QFETCH(QJsonObject, message);
    QFETCH(bool, cacheable);
    Peer peer(transport);
    QVERIFY(peer.start());
    const Answer a = peer.call(message);
    QCOMPARE(a.status, transport == Transport::Http ? 200 : 0);
    QVERIFY2(!a.stream, "an answer with nothing before it is plain JSON");
    const QJsonObject r = a.response.value("result"_L1).toObject();
    QCOMPARE(r.value("resultType"_L1).toString(), u"complete"_s);
    QCOMPARE(r.value("_meta"_L1)
                 .toObject()
                 .value("io.modelcontextprotocol/serverInfo"_L1)
                 .toObject()
                 .value("version"_L1)
                 .toString(),
             QStringLiteral(SONDE_VERSION));
    QCOMPARE(r.contains("ttlMs"_L1), cacheable);
    QCOMPARE(r.contains("cacheScope"_L1), cacheable);
    if (cacheable) {
        QVERIFY(r.value("ttlMs"_L1).toInteger(-1) >= 0);
        QVERIFY(r.value("cacheScope"_L1) == "public"_L1 ||
                r.value("cacheScope"_L1) == "private"_L1);
    }
}

void TestDemoServerRev20260728::listsStayPaginated_data()
{
    addTransports();
    bothTransports("every tool is reached through nextCursor");
}

void TestDemoServerRev20260728::listsStayPaginated()
{
    QFETCH(Transport, transport);
    Peer peer(transport);
    QVERIFY(peer.start());
    QStringList names;
    QJsonValue cursor(QJsonValue::Undefined);
    int pages = 0;
    do {
        QJsonObject params;
        if (!cursor.isUndefined())
            params.insert("cursor"_L1, cursor);
        const QJsonObject r = peer.call(request(100 + pages, u"tools/list"_s, params))
                                  .response.value("result"_L1)
                                  .toObject();
        QCOMPARE(r.value("resultType"_L1).toString(), u"complete"_s);
        QVERIFY(r.value("tools"_L1).toArray().size() <= 5);
        for (const QJsonValue &t : r.value("tools"_L1).toArray())
            names.append(t.toObject().value("name"_L1).toString());
        cursor = r.value("nextCursor"_L1);
        ++pages;
    } while (!cursor.isUndefined() && pages < 20);
    QVERIFY(pages > 1);
    QVERIFY(names.contains(u"confirm-twice"_s));
    QVERIFY(names.contains(u"get-weather"_s));
    QVERIFY(!names.contains(u"extra-tool"_s));
}

void TestDemoServerRev20260728::methodsRemovedIn2026AreUnknown_data()
{
    QTest::addColumn<Transport>("transport");
    QTest::addColumn<QJsonObject>("message");
    for (const Transport t : {Transport::Stdio, Transport::Http}) {
        const char *over = t == Transport::Stdio ? "stdio" : "HTTP";
        QTest::addRow("ping is unknown over %s", over) << t << request(3, u"ping"_s);
        QTest::addRow("logging/setLevel is unknown over %s", over)
            << t << request(3, u"logging/setLevel"_s, {{"level"_L1, "debug"_L1}});
        QTest::addRow("resources/subscribe is unknown over %s", over)
            << t << request(3, u"resources/subscribe"_s, {{"uri"_L1, "demo://counter"_L1}});
    }
}

void TestDemoServerRev20260728::methodsRemovedIn2026AreUnknown()
{
    QFETCH(Transport, transport);
    QFETCH(QJsonObject, message);
    Peer peer(transport);
    QVERIFY(peer.start());
    const Answer a = peer.call(message);
    QCOMPARE(a.status, transport == Transport::Http ? 404 : 0);
    QCOMPARE(a.response.value("error"_L1).toObject().value("code"_L1).toInt(), -32601);
}

void TestDemoServerRev20260728::resourceNotFoundIsInvalidParams_data()
{
    QTest::addColumn<Transport>("transport");
    QTest::addColumn<bool>("modern");
    QTest::addColumn<int>("code");
    QTest::newRow("a modern read of no resource is -32602 over stdio")
        << Transport::Stdio << true << -32602;
    QTest::newRow("a modern read of no resource is -32602 over HTTP")
        << Transport::Http << true << -32602;
    QTest::newRow("a legacy read of no resource stays -32002")
        << Transport::Stdio << false << -32002;
}

void TestDemoServerRev20260728::resourceNotFoundIsInvalidParams()
{
    QFETCH(Transport, transport);
    QFETCH(bool, modern);
    QFETCH(int, code);
    Peer peer(transport);
    QVERIFY(peer.start());
    const QJsonObject params{{"uri"_L1, "demo://nothing"_L1}};
    const Answer a = peer.call(modern ? request(4, u"resources/read"_s, params)
                                      : legacyRequest(4, u"resources/read"_s, params));
    QCOMPARE(a.response.value("error"_L1).toObject().value("code"_L1).toInt(), code);
}

void TestDemoServerRev20260728::headersMustMirrorTheBody_data()
{
    QTest::addColumn<QJsonObject>("message");
    QTest::addColumn<Headers>("overrides");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("named"); // the header the refusal names; empty: accepted
    const QJsonObject weather = callTool(5, u"get-weather"_s, {{"city"_L1, "Oslo"_L1}});
    const QJsonObject echo = callTool(5, u"echo"_s, {{"message"_L1, "hi"_L1}});
    QTest::newRow("a conforming request is accepted") << weather << Headers{} << 200 << QString();
    QTest::newRow("a missing MCP-Protocol-Version is a mismatch")
        << echo << Headers{{"MCP-Protocol-Version", {}}} << 400 << u"MCP-Protocol-Version"_s;
    QTest::newRow("an MCP-Protocol-Version other than _meta's is a mismatch")
        << echo << Headers{{"MCP-Protocol-Version", "2025-11-25"}} << 400
        << u"MCP-Protocol-Version"_s;
    QTest::newRow("a missing Mcp-Method is a mismatch")
        << echo << Headers{{"Mcp-Method", {}}} << 400 << u"Mcp-Method"_s;
    QTest::newRow("an Mcp-Method other than the body's is a mismatch")
        << echo << Headers{{"Mcp-Method", "tools/list"}} << 400 << u"Mcp-Method"_s;
    QTest::newRow("a tools/call without Mcp-Name is a mismatch")
        << echo << Headers{{"Mcp-Name", {}}} << 400 << u"Mcp-Name"_s;
    QTest::newRow("an Mcp-Name other than the tool is a mismatch")
        << echo << Headers{{"Mcp-Name", "fail"}} << 400 << u"Mcp-Name"_s;
    QTest::newRow("a base64 Mcp-Name is decoded before it is compared")
        << echo << Headers{{"Mcp-Name", "=?base64?" + QByteArray("echo").toBase64() + "?="}} << 200
        << QString();
    QTest::newRow("a resources/read without Mcp-Name is a mismatch")
        << request(5, u"resources/read"_s, {{"uri"_L1, "demo://readme"_L1}})
        << Headers{{"Mcp-Name", {}}} << 400 << u"Mcp-Name"_s;
    QTest::newRow("a prompts/get with another Mcp-Name is a mismatch")
        << request(5, u"prompts/get"_s, {{"name"_L1, "summarize-notes"_L1}})
        << Headers{{"Mcp-Name", "greeting"}} << 400 << u"Mcp-Name"_s;
    QTest::newRow("an annotated argument without its Mcp-Param header is a mismatch")
        << weather << Headers{{"Mcp-Param-City", {}}} << 400 << u"Mcp-Param-City"_s;
    QTest::newRow("an Mcp-Param header other than the argument is a mismatch")
        << weather << Headers{{"Mcp-Param-City", "Rome"}} << 400 << u"Mcp-Param-City"_s;
    QTest::newRow("an Mcp-Param header name is matched without regard to case")
        << weather << Headers{{"Mcp-Param-City", {}}, {"mcp-param-city", "Oslo"}} << 200
        << QString();
    QTest::newRow("a non-ASCII argument travels as base64 and matches")
        << callTool(5, u"get-weather"_s, {{"city"_L1, u"Zürich"_s}}) << Headers{} << 200
        << QString();
    QTest::newRow("a raw non-ASCII header value is refused")
        << callTool(5, u"get-weather"_s, {{"city"_L1, u"Zürich"_s}})
        << Headers{{"Mcp-Param-City", u"Zürich"_s.toUtf8()}} << 400 << u"Mcp-Param-City"_s;
    QTest::newRow("no argument, no Mcp-Param header expected")
        << callTool(5, u"get-weather"_s) << Headers{} << 200 << QString();
    QTest::newRow("an Mcp-Session-Id is ignored and none is minted")
        << echo << Headers{{"Mcp-Session-Id", "not-a-session"}} << 200 << QString();
}

void TestDemoServerRev20260728::headersMustMirrorTheBody()
{
    QFETCH(QJsonObject, message);
    QFETCH(Headers, overrides);
    QFETCH(int, status);
    QFETCH(QString, named);
    Peer peer(Transport::Http);
    QVERIFY(peer.start());
    const Answer a = peer.call(message, overrides);
    QCOMPARE(a.status, status);
    QVERIFY2(a.sessionHeader.isEmpty(), "a modern answer mints no session");
    if (named.isEmpty()) {
        QCOMPARE(a.response.value("result"_L1).toObject().value("resultType"_L1).toString(),
                 u"complete"_s);
        return;
    }
    const QJsonObject error = a.response.value("error"_L1).toObject();
    QCOMPARE(error.value("code"_L1).toInt(), -32020);
    QVERIFY2(error.value("message"_L1).toString().contains(named),
             qPrintable(error.value("message"_L1).toString()));
}

void TestDemoServerRev20260728::logMessagesFollowTheRequestsLogLevel_data()
{
    QTest::addColumn<Transport>("transport");
    QTest::addColumn<QString>("level"); // empty: no logLevel in _meta
    QTest::addColumn<int>("messages");
    for (const Transport t : {Transport::Stdio, Transport::Http}) {
        const char *over = t == Transport::Stdio ? "stdio" : "HTTP";
        QTest::addRow("a request without logLevel gets no log message over %s", over)
            << t << QString() << 0;
        QTest::addRow("a request at info gets the info message over %s", over)
            << t << u"info"_s << 1;
        QTest::addRow("a request at error does not get the info message over %s", over)
            << t << u"error"_s << 0;
    }
}

void TestDemoServerRev20260728::logMessagesFollowTheRequestsLogLevel()
{
    QFETCH(Transport, transport);
    QFETCH(QString, level);
    QFETCH(int, messages);
    Peer peer(transport);
    QVERIFY(peer.start());
    QJsonObject meta = modernMeta();
    if (!level.isEmpty())
        meta.insert("io.modelcontextprotocol/logLevel"_L1, level);
    const Answer a = peer.call(callTool(6, u"increment-counter"_s, {}, meta));
    QCOMPARE(toolText(a.response), u"counter = 1"_s);
    int logs = 0;
    for (const QJsonObject &m : a.before)
        logs += m.value("method"_L1) == "notifications/message"_L1;
    QCOMPARE(logs, messages);
    QCOMPARE(a.before.size(), messages);
    // Over HTTP the message makes the answer a stream; without it, plain JSON.
    if (transport == Transport::Http)
        QCOMPARE(a.stream, messages > 0);
}

void TestDemoServerRev20260728::progressComesOnTheRequestsOwnStream_data()
{
    addTransports();
    bothTransports("a slow task reports each step before its answer");
}

void TestDemoServerRev20260728::progressComesOnTheRequestsOwnStream()
{
    QFETCH(Transport, transport);
    Peer peer(transport);
    QVERIFY(peer.start());
    QJsonObject call = callTool(8, u"slow-task"_s, {{"duration_ms"_L1, 150}, {"steps"_L1, 3}});
    QJsonObject params = call.value("params"_L1).toObject();
    QJsonObject meta = params.value("_meta"_L1).toObject();
    meta.insert("progressToken"_L1, "p-8"_L1);
    params.insert("_meta"_L1, meta);
    call.insert("params"_L1, params);
    const Answer a = peer.call(call);
    QCOMPARE(a.before.size(), 3);
    for (const QJsonObject &m : a.before) {
        QCOMPARE(m.value("method"_L1).toString(), u"notifications/progress"_s);
        QCOMPARE(m.value("params"_L1).toObject().value("progressToken"_L1).toString(), u"p-8"_s);
    }
    QVERIFY(toolText(a.response).startsWith("slow task finished"_L1));
    QCOMPARE(a.response.value("result"_L1).toObject().value("resultType"_L1).toString(),
             u"complete"_s);
    if (transport == Transport::Http)
        QVERIFY(a.stream);
}

void TestDemoServerRev20260728::closingTheStreamCancelsTheRequest()
{
    Peer peer(Transport::Http);
    QVERIFY(peer.start());
    QJsonObject call = callTool(9, u"slow-task"_s, {{"duration_ms"_L1, 5000}, {"steps"_L1, 50}});
    QJsonObject params = call.value("params"_L1).toObject();
    QJsonObject meta = params.value("_meta"_L1).toObject();
    meta.insert("progressToken"_L1, 9);
    params.insert("_meta"_L1, meta);
    call.insert("params"_L1, params);
    RawHttp http(peer.port());
    QVERIFY(http.send("POST", peer.headersFor(call),
                      QJsonDocument(call).toJson(QJsonDocument::Compact)));
    QVERIFY(http.readUntil([&] { return http.isStream() && !http.messages().isEmpty(); }));
    QVERIFY(http.isStream());
    http.close();
    // The endpoint serves each POST under an id of its own: its log says which.
    QTRY_VERIFY_WITH_TIMEOUT(peer.log().contains("closed the stream of request n:9"), 5000);
    static const QRegularExpression cancelled(u"demo: request s:http-\\d+ cancelled"_s);
    QTRY_VERIFY_WITH_TIMEOUT(cancelled.match(QString::fromUtf8(peer.log())).hasMatch(), 5000);
}

void TestDemoServerRev20260728::listenAcknowledgesThenDeliversWhatWasAsked_data()
{
    addTransports();
    bothTransports("list changes and counter updates reach the listener that asked");
}

void TestDemoServerRev20260728::listenAcknowledgesThenDeliversWhatWasAsked()
{
    QFETCH(Transport, transport);
    Peer peer(transport);
    QVERIFY(peer.start());
    Listener tools(peer, transport, u"listen-a"_s, json(JSON_TEXT({
                       "toolsListChanged" : true,
                       "resourceSubscriptions" : [ "demo://counter", "demo://none" ]
                   })));
    const std::optional<QJsonObject> ack = tools.next();
    QVERIFY(ack);
    QCOMPARE(ack->value("method"_L1).toString(), u"notifications/subscriptions/acknowledged"_s);
    QCOMPARE(subscriptionOf(*ack).toString(), u"listen-a"_s);
    QCOMPARE(
        ack->value("params"_L1).toObject().value("notifications"_L1).toObject(),
        json(JSON_TEXT({"toolsListChanged" : true, "resourceSubscriptions" : ["demo://counter"]})));
    // A second listener asks only for prompt changes: it must hear nothing of the above.
    Listener prompts(peer, transport, 77, json(JSON_TEXT({"promptsListChanged" : true})));
    const std::optional<QJsonObject> promptsAck = prompts.next();
    QVERIFY(promptsAck);
    QCOMPARE(subscriptionOf(*promptsAck).toInt(), 77);

    const Answer toggled = peer.call(callTool(10, u"toggle-extra-tool"_s));
    QCOMPARE(toolText(toggled.response), u"extra-tool added"_s);
    QVERIFY2(toggled.before.isEmpty(), "the change goes to the listeners, not the caller");
    const std::optional<QJsonObject> changed = tools.next();
    QVERIFY(changed);
    QCOMPARE(changed->value("method"_L1).toString(), u"notifications/tools/list_changed"_s);
    QCOMPARE(subscriptionOf(*changed).toString(), u"listen-a"_s);

    QCOMPARE(toolText(peer.call(callTool(11, u"increment-counter"_s)).response), u"counter = 1"_s);
    const std::optional<QJsonObject> updated = tools.next();
    QVERIFY(updated);
    QCOMPARE(updated->value("method"_L1).toString(), u"notifications/resources/updated"_s);
    QCOMPARE(updated->value("params"_L1).toObject().value("uri"_L1).toString(),
             u"demo://counter"_s);
    QCOMPARE(subscriptionOf(*updated).toString(), u"listen-a"_s);

    // Stopping the server ends both: the prompts listener's next message is its end.
    if (transport == Transport::Stdio)
        peer.process().closeWriteChannel();
    else
        peer.process().terminate();
    const std::optional<QJsonObject> promptsEnd = prompts.next();
    QVERIFY(promptsEnd);
    QVERIFY2(!promptsEnd->contains("method"_L1),
             "a listener that asked for prompts only heard of something else");
    QCOMPARE(promptsEnd->value("id"_L1).toInt(), 77);
}

void TestDemoServerRev20260728::cancellingAListenEndsIt_data()
{
    addTransports();
    bothTransports("a cancelled subscription hears no more changes");
}

void TestDemoServerRev20260728::cancellingAListenEndsIt()
{
    QFETCH(Transport, transport);
    Peer peer(transport);
    QVERIFY(peer.start());
    std::optional<Listener> listener;
    listener.emplace(peer, transport, 20, json(JSON_TEXT({"toolsListChanged" : true})));
    QVERIFY(listener->next());
    if (transport == Transport::Stdio)
        peer.write(json(JSON_TEXT({
            "jsonrpc" : "2.0",
            "method" : "notifications/cancelled",
            "params" : {"requestId" : 20}
        })));
    else
        listener->http().close();
    if (transport == Transport::Http)
        QTRY_VERIFY_WITH_TIMEOUT(peer.log().contains("closed the stream of request n:20"), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(peer.log().contains(transport == Transport::Stdio
                                                     ? "subscription n:20 ended by the client"
                                                     : "ended by the client"),
                             5000);
    QCOMPARE(toolText(peer.call(callTool(21, u"toggle-extra-tool"_s)).response),
             u"extra-tool added"_s);
    if (transport == Transport::Stdio) {
        peer.process().closeWriteChannel();
        const QList<QJsonObject> rest = peer.rest();
        for (const QJsonObject &m : rest)
            QVERIFY2(subscriptionOf(m).isUndefined(), "an ended subscription got a message");
    }
}

void TestDemoServerRev20260728::aListenStreamGetsKeepAliveComments()
{
    Peer peer(Transport::Http);
    QVERIFY(peer.start({u"--listen-keepalive"_s, u"100"_s}));
    Listener listener(peer, Transport::Http, 30, json(JSON_TEXT({"toolsListChanged" : true})));
    QVERIFY(listener.next());
    QVERIFY(
        listener.http().readUntil([&] { return listener.http().body().contains("\n:\n"); }, 5000));
}

void TestDemoServerRev20260728::clientsMayReuseEachOthersIds()
{
    // Two clients of one stateless endpoint each number their own requests from 1.
    Peer peer(Transport::Http);
    QVERIFY(peer.start());
    Listener first(peer, Transport::Http, 1, json(JSON_TEXT({"toolsListChanged" : true})));
    QVERIFY(first.next());
    Listener second(peer, Transport::Http, 1, json(JSON_TEXT({"toolsListChanged" : true})));
    const std::optional<QJsonObject> ack = second.next();
    QVERIFY(ack);
    QCOMPARE(subscriptionOf(*ack).toInt(), 1);
    const Answer toggled = peer.call(callTool(1, u"toggle-extra-tool"_s));
    QCOMPARE(toggled.response.value("id"_L1).toInt(), 1);
    for (Listener *l : {&first, &second}) {
        const std::optional<QJsonObject> changed = l->next();
        QVERIFY(changed);
        QCOMPARE(changed->value("method"_L1).toString(), u"notifications/tools/list_changed"_s);
        QCOMPARE(subscriptionOf(*changed).toInt(), 1);
    }
}

void TestDemoServerRev20260728::aDroppedConnectionAnswersNothing()
{
    Peer peer(Transport::Http);
    QVERIFY(peer.start());
    const QJsonObject call = callTool(12, u"increment-then-drop"_s);
    RawHttp http(peer.port());
    QVERIFY(http.send("POST", peer.headersFor(call),
                      QJsonDocument(call).toJson(QJsonDocument::Compact)));
    QVERIFY(http.readToEnd());
    QVERIFY2(http.body().isEmpty() && http.status() == 0, "not a byte of response");
    // The write happened all the same: what a client must call uncertain.
    QCOMPARE(toolText(peer.call(callTool(13, u"get-counter"_s)).response), u"counter = 1"_s);
}

void TestDemoServerRev20260728::shutdownEndsSubscriptionsGracefully_data()
{
    QTest::addColumn<Transport>("transport");
    QTest::addColumn<bool>("bySignal");
    QTest::newRow("stdin closing ends a stdio subscription with its result")
        << Transport::Stdio << false;
    QTest::newRow("SIGTERM ends a stdio subscription with its result") << Transport::Stdio << true;
    QTest::newRow("SIGTERM ends an HTTP subscription with its result") << Transport::Http << true;
}

void TestDemoServerRev20260728::shutdownEndsSubscriptionsGracefully()
{
    QFETCH(Transport, transport);
    QFETCH(bool, bySignal);
    Peer peer(transport);
    QVERIFY(peer.start());
    Listener listener(peer, transport, u"bye"_s, json(JSON_TEXT({"toolsListChanged" : true})));
    QVERIFY(listener.next());
    if (bySignal)
        peer.process().terminate();
    else
        peer.process().closeWriteChannel();
    const std::optional<QJsonObject> end = listener.next();
    QVERIFY(end);
    QCOMPARE(end->value("id"_L1).toString(), u"bye"_s);
    const QJsonObject result = end->value("result"_L1).toObject();
    QCOMPARE(result.value("resultType"_L1).toString(), u"complete"_s);
    QCOMPARE(subscriptionOf(*end).toString(), u"bye"_s);
    if (transport == Transport::Http)
        QVERIFY(listener.http().readToEnd(5000));
    QVERIFY(peer.process().waitForFinished(5000));
}

void TestDemoServerRev20260728::inputRequiredRoundsCompleteTheCall_data()
{
    QTest::addColumn<Transport>("transport");
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QStringList>("keys"); // one input key per round
    QTest::addColumn<QStringList>("methods");
    QTest::addColumn<QJsonArray>("responses");
    QTest::addColumn<QString>("text");
    const QJsonObject accepted =
        json(JSON_TEXT({"action" : "accept", "content" : {"name" : "Grace"}}));
    for (const Transport t : {Transport::Stdio, Transport::Http}) {
        const char *over = t == Transport::Stdio ? "stdio" : "HTTP";
        QTest::addRow("ask-user gets its name from one elicitation round over %s", over)
            << t << u"ask-user"_s << QStringList{u"who"_s} << QStringList{u"elicitation/create"_s}
            << QJsonArray{accepted} << u"action=accept content={\"name\":\"Grace\"}"_s;
        QTest::addRow("ask-model gets its answer from one sampling round over %s", over)
            << t << u"ask-model"_s << QStringList{u"answer"_s}
            << QStringList{u"sampling/createMessage"_s} << QJsonArray{json(JSON_TEXT({
                   "role" : "assistant",
                   "model" : "m1",
                   "content" : {"type" : "text", "text" : "hi"}
               }))}
            << u"model m1 said: hi"_s;
        QTest::addRow("list-roots gets the roots from one round over %s", over)
            << t << u"list-roots"_s << QStringList{u"roots"_s} << QStringList{u"roots/list"_s}
            << QJsonArray{json(JSON_TEXT({"roots" : [ {"uri" : "file:///work"} ]}))}
            << u"roots: file:///work"_s;
        QTest::addRow("confirm-twice needs two rounds over %s", over)
            << t << u"confirm-twice"_s << QStringList{u"first"_s, u"second"_s}
            << QStringList{u"elicitation/create"_s, u"elicitation/create"_s}
            << QJsonArray{json(JSON_TEXT({"action" : "accept", "content" : {"confirm" : true}})),
                          json(JSON_TEXT({"action" : "decline"}))}
            << u"confirmed twice: first=accept second=decline"_s;
    }
}

void TestDemoServerRev20260728::inputRequiredRoundsCompleteTheCall()
{
    QFETCH(Transport, transport);
    QFETCH(QString, tool);
    QFETCH(QStringList, keys);
    QFETCH(QStringList, methods);
    QFETCH(QJsonArray, responses);
    QFETCH(QString, text);
    Peer peer(transport);
    QVERIFY(peer.start());
    const QJsonObject meta = modernMeta(AllInputs);
    QJsonObject retry; // what the next leg adds to the call
    for (qsizetype round = 0; round <= keys.size(); ++round) {
        QJsonObject call = callTool(40 + int(round), tool, {}, meta);
        QJsonObject params = call.value("params"_L1).toObject();
        for (auto it = retry.begin(); it != retry.end(); ++it)
            params.insert(it.key(), it.value());
        call.insert("params"_L1, params);
        const Answer a = peer.call(call);
        QCOMPARE(a.status, transport == Transport::Http ? 200 : 0);
        QVERIFY2(a.before.isEmpty(), "MRTR asks in the result, never with a request of its own");
        const QJsonObject r = a.response.value("result"_L1).toObject();
        if (round == keys.size()) {
            QCOMPARE(r.value("resultType"_L1).toString(), u"complete"_s);
            QCOMPARE(toolText(a.response), text);
            break;
        }
        QCOMPARE(r.value("resultType"_L1).toString(), u"input_required"_s);
        const QJsonObject inputs = r.value("inputRequests"_L1).toObject();
        QCOMPARE(inputs.keys(), QStringList{keys.at(round)});
        QCOMPARE(inputs.value(keys.at(round)).toObject().value("method"_L1).toString(),
                 methods.at(round));
        QVERIFY(r.value("requestState"_L1).isString());
        QVERIFY2(!r.contains("ttlMs"_L1), "an interim result is not cacheable");
        retry = {{"requestState"_L1, r.value("requestState"_L1)},
                 {"inputResponses"_L1, QJsonObject{{keys.at(round), responses.at(round)}}}};
    }
}

void TestDemoServerRev20260728::inputIsAskedOnlyWhenDeclared_data()
{
    QTest::addColumn<Transport>("transport");
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QString>("capability");
    QTest::newRow("ask-user without elicitation is refused over stdio")
        << Transport::Stdio << u"ask-user"_s << u"elicitation"_s;
    QTest::newRow("ask-user without elicitation is refused over HTTP")
        << Transport::Http << u"ask-user"_s << u"elicitation"_s;
    QTest::newRow("ask-model without sampling is refused over stdio")
        << Transport::Stdio << u"ask-model"_s << u"sampling"_s;
    QTest::newRow("list-roots without roots is refused over HTTP")
        << Transport::Http << u"list-roots"_s << u"roots"_s;
}

void TestDemoServerRev20260728::inputIsAskedOnlyWhenDeclared()
{
    QFETCH(Transport, transport);
    QFETCH(QString, tool);
    QFETCH(QString, capability);
    Peer peer(transport);
    QVERIFY(peer.start());
    QJsonObject others = AllInputs;
    others.remove(capability);
    const Answer a = peer.call(callTool(50, tool, {}, modernMeta(others)));
    QCOMPARE(a.status, transport == Transport::Http ? 400 : 0);
    const QJsonObject error = a.response.value("error"_L1).toObject();
    QCOMPARE(error.value("code"_L1).toInt(), -32021);
    QCOMPARE(error.value("data"_L1).toObject().value("requiredCapabilities"_L1).toObject().keys(),
             QStringList{capability});
}

void TestDemoServerRev20260728::aForeignOrChangedRequestStateIsRefused_data()
{
    QTest::addColumn<Transport>("transport");
    QTest::addColumn<QString>("how");
    for (const Transport t : {Transport::Stdio, Transport::Http}) {
        const char *over = t == Transport::Stdio ? "stdio" : "HTTP";
        QTest::addRow("a changed state is refused over %s", over) << t << u"changed"_s;
        QTest::addRow("a state for another tool is refused over %s", over) << t << u"other tool"_s;
        QTest::addRow("a state from another server process is refused over %s", over)
            << t << u"other process"_s;
        QTest::addRow("a state for other arguments is refused over %s", over)
            << t << u"other arguments"_s;
    }
}

void TestDemoServerRev20260728::aForeignOrChangedRequestStateIsRefused()
{
    QFETCH(Transport, transport);
    QFETCH(QString, how);
    Peer peer(transport);
    QVERIFY(peer.start());
    const QJsonObject meta = modernMeta(AllInputs);
    Peer other(transport);
    Peer &issuer = how == "other process"_L1 ? other : peer;
    if (&issuer == &other)
        QVERIFY(other.start());
    const QJsonObject first = issuer.call(callTool(60, u"confirm-twice"_s, {}, meta))
                                  .response.value("result"_L1)
                                  .toObject();
    QString state = first.value("requestState"_L1).toString();
    QVERIFY(!state.isEmpty());
    QString tool = u"confirm-twice"_s;
    if (how == "changed"_L1) {
        // Every byte of the payload counts: one character of it changed.
        state[2] = state[2] == u'A' ? u'B' : u'A';
    } else if (how == "other tool"_L1) {
        tool = u"ask-user"_s;
    }
    QJsonObject call = callTool(
        61, tool, how == "other arguments"_L1 ? QJsonObject{{"again"_L1, true}} : QJsonObject(),
        meta);
    QJsonObject params = call.value("params"_L1).toObject();
    params.insert("requestState"_L1, state);
    params.insert(
        "inputResponses"_L1,
        json(JSON_TEXT({"first" : {"action" : "accept"}, "who" : {"action" : "accept"}})));
    call.insert("params"_L1, params);
    const Answer a = peer.call(call);
    QCOMPARE(a.response.value("error"_L1).toObject().value("code"_L1).toInt(), -32602);
}

void TestDemoServerRev20260728::legacyEraAnswersAsA2025Server_data()
{
    QTest::addColumn<Transport>("transport");
    QTest::addColumn<QJsonObject>("message");
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("code"); // 0: an answer without modern decoration
    QTest::newRow("server/discover is unknown over stdio")
        << Transport::Stdio << request(70, u"server/discover"_s) << 0 << -32601;
    QTest::newRow("a modern tools/list is served as a legacy one over stdio")
        << Transport::Stdio << request(70, u"tools/list"_s) << 0 << 0;
    QTest::newRow("server/discover without a session is a bad request over HTTP")
        << Transport::Http << request(70, u"server/discover"_s) << 400 << -32000;
    QTest::newRow("a modern tools/call without a session is a bad request over HTTP")
        << Transport::Http << callTool(70, u"echo"_s, {{"message"_L1, "x"_L1}}) << 400 << -32000;
}

void TestDemoServerRev20260728::legacyEraAnswersAsA2025Server()
{
    QFETCH(Transport, transport);
    QFETCH(QJsonObject, message);
    QFETCH(int, status);
    QFETCH(int, code);
    Peer peer(transport);
    QVERIFY(peer.start({u"--era"_s, u"initialize"_s}));
    const Answer a = peer.call(message);
    QCOMPARE(a.status, status);
    if (code) {
        QCOMPARE(a.response.value("error"_L1).toObject().value("code"_L1).toInt(), code);
        return;
    }
    const QJsonObject r = a.response.value("result"_L1).toObject();
    QVERIFY(r.value("tools"_L1).isArray());
    QVERIFY(!r.contains("resultType"_L1));
    QVERIFY(!r.contains("ttlMs"_L1));
}

void TestDemoServerRev20260728::modernEraRefusesInitialize_data()
{
    addTransports();
    bothTransports("initialize is refused naming the versions spoken");
}

void TestDemoServerRev20260728::modernEraRefusesInitialize()
{
    QFETCH(Transport, transport);
    Peer peer(transport);
    QVERIFY(peer.start({u"--era"_s, u"2026-07-28"_s}));
    const Answer a = peer.call(legacyRequest(1, u"initialize"_s, json(JSON_TEXT({
                                                 "protocolVersion" : "2025-11-25",
                                                 "capabilities" : {},
                                                 "clientInfo" : {"name" : "old", "version" : "1"}
                                             }))));
    QCOMPARE(a.status, transport == Transport::Http ? 400 : 0);
    const QString message = a.response.value("error"_L1).toObject().value("message"_L1).toString();
    QVERIFY2(message.contains("this server speaks only 2026-07-28"_L1), qPrintable(message));
    // A legacy request other than initialize lacks the _meta every request needs.
    const Answer list = peer.call(legacyRequest(2, u"tools/list"_s));
    QCOMPARE(list.response.value("error"_L1).toObject().value("code"_L1).toInt(), -32602);
}

void TestDemoServerRev20260728::modernEraHasNoGetOrDelete()
{
    Peer peer(Transport::Http);
    QVERIFY(peer.start({u"--era"_s, u"2026-07-28"_s}));
    for (const char *method : {"GET", "DELETE"}) {
        RawHttp http(peer.port());
        QVERIFY(http.send(method,
                          {{"Host", "127.0.0.1"},
                           {"Accept", "text/event-stream"},
                           {"Connection", "close"},
                           {"Mcp-Session-Id", "whatever"}},
                          {}));
        QVERIFY(http.readToEnd());
        QCOMPARE(http.status(), 405);
    }
}

void TestDemoServerRev20260728::aLegacySessionStillWorksBesideModernRequests_data()
{
    addTransports();
    bothTransports("initialize, a question to the client and a modern call side by side");
}

void TestDemoServerRev20260728::aLegacySessionStillWorksBesideModernRequests()
{
    QFETCH(Transport, transport);
    Peer peer(transport);
    QVERIFY(peer.start());
    const QJsonObject init = legacyRequest(1, u"initialize"_s, json(JSON_TEXT({
                                               "protocolVersion" : "2025-11-25",
                                               "capabilities" : {"elicitation" : {}},
                                               "clientInfo" : {"name" : "old", "version" : "1"}
                                           })));
    if (transport == Transport::Stdio) {
        const Answer a = peer.call(init);
        QCOMPARE(a.response.value("result"_L1).toObject().value("protocolVersion"_L1).toString(),
                 u"2025-11-25"_s);
        peer.write(json(JSON_TEXT({"jsonrpc" : "2.0", "method" : "notifications/initialized"})));
        // The legacy ask-user asks the client with a request of its own.
        peer.write(legacyRequest(2, u"tools/call"_s, {{"name"_L1, "ask-user"_L1}}));
        const std::optional<QJsonObject> ask = peer.next();
        QVERIFY(ask);
        QCOMPARE(ask->value("method"_L1).toString(), u"elicitation/create"_s);
        peer.write(
            {{"jsonrpc"_L1, "2.0"_L1},
             {"id"_L1, ask->value("id"_L1)},
             {"result"_L1, json(JSON_TEXT({"action" : "accept", "content" : {"name" : "Ada"}}))}});
        const std::optional<QJsonObject> done = peer.next();
        QVERIFY(done);
        QCOMPARE(toolText(*done), u"action=accept content={\"name\":\"Ada\"}"_s);
        QVERIFY(!done->value("result"_L1).toObject().contains("resultType"_L1));
    } else {
        RawHttp http(peer.port());
        QVERIFY(http.send("POST",
                          {{"Host", "127.0.0.1"},
                           {"Content-Type", "application/json"},
                           {"Accept", "application/json, text/event-stream"},
                           {"Connection", "close"}},
                          QJsonDocument(init).toJson(QJsonDocument::Compact)));
        QVERIFY(http.readToEnd());
        QCOMPARE(http.status(), 200);
        const QByteArray session = http.header("mcp-session-id");
        QVERIFY(!session.isEmpty());
        RawHttp list(peer.port());
        QVERIFY(list.send(
            "POST",
            {{"Host", "127.0.0.1"},
             {"Content-Type", "application/json"},
             {"Accept", "application/json, text/event-stream"},
             {"Connection", "close"},
             {"MCP-Protocol-Version", "2025-11-25"},
             {"Mcp-Session-Id", session}},
            QJsonDocument(legacyRequest(2, u"tools/list"_s)).toJson(QJsonDocument::Compact)));
        QVERIFY(list.readToEnd());
        QCOMPARE(list.status(), 200);
        const QJsonObject r = list.messages().value(0).value("result"_L1).toObject();
        QVERIFY(r.value("tools"_L1).isArray());
        QVERIFY(!r.contains("resultType"_L1));
    }
    // A modern request beside it is served statelessly.
    const Answer modern = peer.call(request(3, u"server/discover"_s));
    QCOMPARE(modern.response.value("result"_L1).toObject().value("resultType"_L1).toString(),
             u"complete"_s);
}

QTEST_GUILESS_MAIN(TestDemoServerRev20260728)
#include "tst_demoserver_rev20260728.moc"
