// SPDX-License-Identifier: MIT
// The 2026-07-28 request headers and the era probe's reading of answers, as pure functions.
#include "protocol/jsonrpcmessage.h"
#include "protocol/mcpheaders.h"
#include "protocol/rev20260728.h"
#include "session/eraprobe.h"
#include "session/inputround.h"
#include "session/listensubscription.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Sonde;

#define JSON_TEXT(...) #__VA_ARGS__
using namespace Qt::StringLiterals;

static QJsonObject obj(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

static QByteArray header(const McpHeaders::List &list, const QByteArray &name)
{
    for (const auto &[k, v] : list)
        if (k.compare(name, Qt::CaseInsensitive) == 0)
            return v;
    return "(absent)";
}

class TestMcpHeaders : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void valuesAreEncodedAsTheSpecTableSays_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QByteArray>("encoded");
        // streamable-http.mdx, "Value Encoding", the examples table.
        QTest::newRow("plain ASCII goes as is") << u"us-west1"_s << QByteArray("us-west1");
        QTest::newRow("non-ASCII is base64")
            << u"Hello, 世界"_s << QByteArray("=?base64?SGVsbG8sIOS4lueVjA==?=");
        QTest::newRow("leading and trailing spaces are base64")
            << u" padded "_s << QByteArray("=?base64?IHBhZGRlZCA=?=");
        QTest::newRow("a newline is base64")
            << u"line1\nline2"_s << QByteArray("=?base64?bGluZTEKbGluZTI=?=");
        QTest::newRow("a value that looks encoded is encoded")
            << u"=?base64?literal?="_s << QByteArray("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
    }
    void valuesAreEncodedAsTheSpecTableSays()
    {
        QFETCH(QString, value);
        QFETCH(QByteArray, encoded);
        QCOMPARE(McpHeaders::encodeValue(value), encoded);
    }

    void annotationsAreReadOrTheToolIsRejected_data()
    {
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QStringList>("headers");
        QTest::newRow("a string property is mirrored") << QByteArray(JSON_TEXT({
            "type" : "object",
            "properties" : {
                "region" : {"type" : "string", "x-mcp-header" : "Region"},
                "q" : {"type" : "string"}
            }
        })) << true << QStringList{u"Mcp-Param-Region"_s};
        QTest::newRow("a nested property through properties only is mirrored")
            << QByteArray(JSON_TEXT({
                   "type" : "object",
                   "properties" : {
                       "a" : {
                           "type" : "object",
                           "properties" : {"n" : {"type" : "integer", "x-mcp-header" : "N"}}
                       }
                   }
               }))
            << true << QStringList{u"Mcp-Param-N"_s};
        QTest::newRow("a number is not allowed") << QByteArray(JSON_TEXT({
            "type" : "object",
            "properties" : {"x" : {"type" : "number", "x-mcp-header" : "X"}}
        })) << false << QStringList{};
        QTest::newRow("under items it is not reachable") << QByteArray(JSON_TEXT({
            "type" : "object",
            "properties" :
                {"l" : {"type" : "array", "items" : {"type" : "string", "x-mcp-header" : "L"}}}
        })) << false << QStringList{};
        QTest::newRow("under anyOf it is not reachable") << QByteArray(JSON_TEXT({
            "type" : "object",
            "anyOf" : [ {"properties" : {"s" : {"type" : "string", "x-mcp-header" : "S"}}} ]
        })) << false << QStringList{};
        QTest::newRow("a name that is not a token is rejected") << QByteArray(JSON_TEXT({
            "type" : "object",
            "properties" : {"s" : {"type" : "string", "x-mcp-header" : "A B"}}
        })) << false << QStringList{};
        QTest::newRow("an empty name is rejected") << QByteArray(JSON_TEXT({
            "type" : "object",
            "properties" : {"s" : {"type" : "string", "x-mcp-header" : ""}}
        })) << false << QStringList{};
        QTest::newRow("the same name twice, in any case, is rejected") << QByteArray(JSON_TEXT({
            "type" : "object",
            "properties" : {
                "a" : {"type" : "string", "x-mcp-header" : "Id"},
                "b" : {"type" : "string", "x-mcp-header" : "ID"}
            }
        })) << false << QStringList{};
    }
    void annotationsAreReadOrTheToolIsRejected()
    {
        QFETCH(QByteArray, schema);
        QFETCH(bool, valid);
        QFETCH(QStringList, headers);
        QString why;
        const auto params = McpHeaders::paramsOf(QJsonDocument::fromJson(schema).object(), &why);
        QCOMPARE(params.has_value(), valid);
        if (!valid) {
            QVERIFY(!why.isEmpty());
            return;
        }
        QStringList names;
        for (const McpHeaders::Param &p : *params)
            names.append(QString::fromLatin1(p.header));
        QCOMPARE(names, headers);
    }

    void aToolCallCarriesTheStandardAndTheParameterHeaders()
    {
        const QJsonObject schema = obj(JSON_TEXT({
            "type" : "object",
            "properties" : {
                "region" : {"type" : "string", "x-mcp-header" : "Region"},
                "n" : {"type" : "integer", "x-mcp-header" : "N"},
                "flag" : {"type" : "boolean", "x-mcp-header" : "Flag"},
                "absent" : {"type" : "string", "x-mcp-header" : "Absent"}
            }
        }));
        McpHeaders::ToolParams tools;
        tools.insert(u"execute_sql"_s, *McpHeaders::paramsOf(schema, nullptr));
        const QJsonObject params = obj(JSON_TEXT({
            "name" : "execute_sql",
            "arguments" : {"region" : "us-west1", "n" : 42, "flag" : false, "absent" : null}
        }));
        const McpHeaders::List h =
            McpHeaders::forRequest(u"2026-07-28"_s, u"tools/call"_s, params, tools);
        QCOMPARE(header(h, "MCP-Protocol-Version"), QByteArray("2026-07-28"));
        QCOMPARE(header(h, "Mcp-Method"), QByteArray("tools/call"));
        QCOMPARE(header(h, "Mcp-Name"), QByteArray("execute_sql"));
        QCOMPARE(header(h, "Mcp-Param-Region"), QByteArray("us-west1"));
        QCOMPARE(header(h, "Mcp-Param-N"), QByteArray("42"));
        QCOMPARE(header(h, "Mcp-Param-Flag"), QByteArray("false"));
        QCOMPARE(header(h, "Mcp-Param-Absent"), QByteArray("(absent)")); // null: omitted
    }

    void aReadIsNamedByItsUriAndAListByNothing()
    {
        const McpHeaders::List read =
            McpHeaders::forRequest(u"2026-07-28"_s, u"resources/read"_s,
                                   obj(JSON_TEXT({"uri" : "file:///a b/ü.txt"})), {});
        QCOMPARE(header(read, "Mcp-Name"),
                 "=?base64?" + QByteArray("file:///a b/ü.txt").toBase64() + "?=");
        const McpHeaders::List list =
            McpHeaders::forRequest(u"2026-07-28"_s, u"tools/list"_s, {}, {});
        QCOMPARE(header(list, "Mcp-Name"), QByteArray("(absent)"));
        QCOMPARE(header(list, "Mcp-Method"), QByteArray("tools/list"));
    }

    void everyRequestGetsTheRequiredMetaAndKeepsItsOwn()
    {
        Rev20260728::RequestContext c;
        c.clientCapabilities = obj(JSON_TEXT({"elicitation" : {}}));
        c.clientInfo = obj(JSON_TEXT({"name" : "sonde", "version" : "1"}));
        const QJsonObject p = Rev20260728::withRequestMeta(
            obj(JSON_TEXT({"name" : "x", "_meta" : {"progressToken" : "t"}})), c);
        const QJsonObject meta = p.value("_meta"_L1).toObject();
        QCOMPARE(meta.value("progressToken"_L1).toString(), u"t"_s);
        QCOMPARE(meta.value("io.modelcontextprotocol/protocolVersion"_L1).toString(),
                 u"2026-07-28"_s);
        QVERIFY(meta.value("io.modelcontextprotocol/clientCapabilities"_L1)
                    .toObject()
                    .contains("elicitation"_L1));
        QVERIFY(!meta.contains("io.modelcontextprotocol/logLevel"_L1));
        c.logLevel = u"debug"_s;
        QCOMPARE(Rev20260728::withRequestMeta({}, c)
                     .value("_meta"_L1)
                     .toObject()
                     .value("io.modelcontextprotocol/logLevel"_L1)
                     .toString(),
                 u"debug"_s);
    }

    void theProbeReadsTheAnswerAsTheVersioningPageSays_data()
    {
        QTest::addColumn<int>("setting");
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<int>("httpStatus");
        QTest::addColumn<int>("next");
        QTest::addColumn<QString>("reasonHas");
        const int autoEra = int(ServerConfig::Era::Auto),
                  modern = int(ServerConfig::Era::Rev20260728);
        const int toModern = int(EraProbe::Decision::Next::Revision);
        const int toLegacy = int(EraProbe::Decision::Next::Initialize);
        const int fail = int(EraProbe::Decision::Next::Fail);
        QTest::newRow("a discover result offering 2026-07-28 goes modern")
            << autoEra << QByteArray(JSON_TEXT({
                   "jsonrpc" : "2.0",
                   "id" : 1,
                   "result" : {
                       "resultType" : "complete",
                       "supportedVersions" : [ "2026-07-28", "2025-11-25" ],
                       "capabilities" : {}
                   }
               }))
            << 0 << toModern << u"offered 2026-07-28"_s;
        QTest::newRow("method not found falls back to initialize")
            << autoEra << QByteArray(JSON_TEXT({
                   "jsonrpc" : "2.0",
                   "id" : 1,
                   "error" : {"code" : -32601, "message" : "Method not found"}
               }))
            << 0 << toLegacy << u"-32601"_s;
        QTest::newRow("an HTTP 400 without a modern error falls back")
            << autoEra << QByteArray(JSON_TEXT({
                   "jsonrpc" : "2.0",
                   "id" : null,
                   "error" :
                       {"code" : -32000, "message" : "Bad Request: No valid session ID provided"}
               }))
            << 400 << toLegacy << u"HTTP 400"_s;
        QTest::newRow("an HTTP 404 with no body falls back")
            << autoEra << QByteArray() << 404 << toLegacy << u"HTTP 404"_s;
        QTest::newRow("-32022 offering only 2025-11-25 uses the handshake")
            << autoEra << QByteArray(JSON_TEXT({
                   "jsonrpc" : "2.0",
                   "id" : 1,
                   "error" : {
                       "code" : -32022,
                       "message" : "Unsupported protocol version",
                       "data" : {"supported" : ["2025-11-25"], "requested" : "2026-07-28"}
                   }
               }))
            << 400 << toLegacy << u"offers only 2025-11-25"_s;
        QTest::newRow("-32022 in modern mode fails naming both sides")
            << modern << QByteArray(JSON_TEXT({
                   "jsonrpc" : "2.0",
                   "id" : 1,
                   "error" : {
                       "code" : -32022,
                       "message" : "Unsupported protocol version",
                       "data" : {"supported" : ["2025-11-25"], "requested" : "2026-07-28"}
                   }
               }))
            << 400 << fail << u"no protocol version in common"_s;
        QTest::newRow("a header mismatch is a modern server's answer, not a fallback")
            << autoEra << QByteArray(JSON_TEXT({
                   "jsonrpc" : "2.0",
                   "id" : 1,
                   "error" : {"code" : -32020, "message" : "Header mismatch"}
               }))
            << 400 << fail << u"2026-07-28 error"_s;
        QTest::newRow("modern mode does not fall back on method not found")
            << modern << QByteArray(JSON_TEXT({
                   "jsonrpc" : "2.0",
                   "id" : 1,
                   "error" : {"code" : -32601, "message" : "Method not found"}
               }))
            << 0 << fail << u"-32601"_s;
    }
    void theProbeReadsTheAnswerAsTheVersioningPageSays()
    {
        QFETCH(int, setting);
        QFETCH(QByteArray, answer);
        QFETCH(int, httpStatus);
        QFETCH(int, next);
        QFETCH(QString, reasonHas);
        JsonRpcMessage response;
        Error error;
        if (httpStatus) {
            error = Error::transport(u"POST answered HTTP %1"_s.arg(httpStatus));
            error.setHttpStatus(httpStatus);
            const QJsonObject body = QJsonDocument::fromJson(answer).object();
            if (body.contains("error"_L1)) {
                error.setJsonRpcCode(body.value("error"_L1).toObject().value("code"_L1).toInt());
                error.setData(body);
            }
        } else {
            const JsonRpcMessage::Parsed parsed = JsonRpcMessage::parse(answer);
            response = parsed.messages.value(0);
            if (response.type() == JsonRpcMessage::Type::ErrorResponse)
                error = response.toError();
        }
        const EraProbe::Decision d = EraProbe::decide(ServerConfig::Era(setting), response, error);
        QCOMPARE(int(d.next), next);
        QVERIFY2(d.reason.contains(reasonHas), qPrintable(d.reason));
        if (d.next == EraProbe::Decision::Next::Fail)
            QVERIFY(d.error.isError());
        if (QByteArray(QTest::currentDataTag()).contains("naming both sides"_L1)) {
            QVERIFY2(d.error.message().contains("2025-11-25"_L1) &&
                         d.error.message().contains("2026-07-28"_L1),
                     qPrintable(d.error.message()));
        }
    }

    void anInputRoundEchoesTheStateAndCarriesTheAnswers()
    {
        QString why;
        std::optional<InputRound> r = InputRound::from(
            obj(JSON_TEXT({
                "resultType" : "input_required",
                "inputRequests" :
                    {"login" : {"method" : "elicitation/create", "params" : {"message" : "who?"}}},
                "requestState" : "opaque=="
            })),
            &why);
        QVERIFY(r);
        QCOMPARE(r->requests().size(), 1);
        QCOMPARE(r->requests().at(0).method, u"elicitation/create"_s);
        QVERIFY(!r->isAnswered());
        r->answer(u"login"_s,
                  obj(JSON_TEXT({"action" : "accept", "content" : {"name" : "octocat"}})));
        QVERIFY(r->isAnswered());
        const QJsonObject retry = r->retryParams(
            obj(JSON_TEXT({"name" : "t", "requestState" : "old", "inputResponses" : {}})));
        QCOMPARE(retry.value("requestState"_L1).toString(), u"opaque=="_s);
        QCOMPARE(retry.value("inputResponses"_L1)
                     .toObject()
                     .value("login"_L1)
                     .toObject()
                     .value("action"_L1)
                     .toString(),
                 u"accept"_s);
        // Neither field: malformed. No requestState: none is sent.
        QVERIFY(!InputRound::from(obj(JSON_TEXT({"resultType" : "input_required"})), &why));
        std::optional<InputRound> noState = InputRound::from(
            obj(JSON_TEXT({"inputRequests" : {"r" : {"method" : "roots/list"}}})), &why);
        QVERIFY(noState);
        QVERIFY(!noState->retryParams(obj(JSON_TEXT({"requestState" : "stale"})))
                     .contains("requestState"_L1));
    }

    void theListenFilterFollowsTheCapabilitiesAndSaysWhatWasNotGranted()
    {
        const QJsonObject caps = obj(JSON_TEXT({
            "tools" : {"listChanged" : true},
            "prompts" : {"listChanged" : true},
            "resources" : {"subscribe" : true}
        }));
        const QJsonObject f = ListenSubscription::filterFor(caps, {u"demo://a"_s});
        QVERIFY(f.value("toolsListChanged"_L1).toBool());
        QVERIFY(f.value("promptsListChanged"_L1).toBool());
        QVERIFY(!f.contains("resourcesListChanged"_L1));
        QCOMPARE(f.value("resourceSubscriptions"_L1).toArray().size(), 1);
        QVERIFY(ListenSubscription::filterFor(obj(JSON_TEXT({"tools" : {}})), {}).isEmpty());
        ListenSubscription l;
        l.opened(QJsonValue(7), f);
        QVERIFY(l.isCurrent(QJsonValue(7.0)));
        l.acknowledged(obj(JSON_TEXT({"toolsListChanged" : true})));
        QCOMPARE(l.status().notGranted(), (QStringList{u"promptsListChanged"_s, u"demo://a"_s}));
        QCOMPARE(l.dropped(u"x"_s), 1000);
        QCOMPARE(l.dropped(u"x"_s), 2000);
        QVERIFY(!l.isCurrent(QJsonValue(7)));
    }
};

QTEST_GUILESS_MAIN(TestMcpHeaders)
#include "tst_mcpheaders.moc"
