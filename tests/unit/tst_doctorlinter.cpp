// SPDX-License-Identifier: MIT
// The doctor's passive lints (MessageLinter): each rule found when a session breaks it, and
// not reported when it does not.
#include "doctor/messagelinter.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace Sonde;

namespace {

// A session as lines: "> {...}" the client sent, "< {...}" the server sent.
QList<DoctorFinding> lint(const QStringList &lines, bool stdio = false)
{
    MessageLinter linter(stdio);
    QList<DoctorFinding> found;
    int index = 0;
    for (const QString &line : lines) {
        TranscriptEvent e;
        e.server = u"s"_s;
        e.direction = line.startsWith(u'>') ? TranscriptEvent::Direction::Outgoing
                                            : TranscriptEvent::Direction::Incoming;
        e.raw = line.mid(2).toUtf8();
        found += linter.feed(e, index++);
    }
    return found;
}

QStringList ids(const QList<DoctorFinding> &findings)
{
    QStringList out;
    for (const DoctorFinding &f : findings)
        out << f.checkId;
    return out;
}

const QString Init =
    uR"(> {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"t","version":"1"}}})"_s;
QString initResult(const QString &caps)
{
    return uR"(< {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":%1,"serverInfo":{"name":"s","version":"1"}}})"_s
        .arg(caps);
}
const QString Initialized = uR"(> {"jsonrpc":"2.0","method":"notifications/initialized"})"_s;
const QString ToolsList = uR"(> {"jsonrpc":"2.0","id":1,"method":"tools/list"})"_s;
QString tools(const QString &list, int id = 1, const QString &next = {})
{
    return uR"(< {"jsonrpc":"2.0","id":%1,"result":{"tools":%2%3}})"_s.arg(id).arg(list).arg(
        next.isEmpty() ? QString() : u",\"nextCursor\":\"%1\""_s.arg(next));
}
const QString Weather =
    uR"({"name":"w","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"t":{"type":"number"}},"required":["t"]}})"_s;
const QString CallWeather =
    uR"(> {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"w","arguments":{},"_meta":{"progressToken":"p1"}}})"_s;
const QString Meta26 =
    uR"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}})"_s;

} // namespace

class TestDoctorLinter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void findsWhatASessionBreaks_data();
    void findsWhatASessionBreaks();
    void eachRuleIsSaidOncePerSubject();
    void evidencePointsAtTheTranscriptRow();
    void aNewHandshakeForgetsWhatTheLastOneDeclared();
    void rememberedRequestsAreBounded();
};

void TestDoctorLinter::findsWhatASessionBreaks_data()
{
    QTest::addColumn<QStringList>("lines");
    QTest::addColumn<bool>("stdio");
    QTest::addColumn<QStringList>("expected");

    const QString caps = u"{\"tools\":{}}"_s;
    QTest::newRow("a correct handshake and list give no finding")
        << QStringList{Init, initResult(caps), Initialized, ToolsList,
                       tools(uR"([{"name":"a","inputSchema":{"type":"object"}}])"_s)}
        << false << QStringList{};
    QTest::newRow("a response without jsonrpc is an invalid envelope")
        << QStringList{Init, initResult(caps), ToolsList, uR"(< {"id":1,"result":{"tools":[]}})"_s}
        << false << QStringList{u"jsonrpc.envelope-invalid"_s};
    QTest::newRow("a response with both result and error is an invalid envelope")
        << QStringList{ToolsList,
                       uR"(< {"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}})"_s}
        << false << QStringList{u"jsonrpc.envelope-invalid"_s};
    QTest::newRow("an error whose code is not an integer is an invalid envelope")
        << QStringList{ToolsList,
                       uR"(< {"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}})"_s}
        << false << QStringList{u"jsonrpc.envelope-invalid"_s};
    QTest::newRow("a numeric id answered as a string is an id mismatch")
        << QStringList{ToolsList, uR"(< {"jsonrpc":"2.0","id":"1","result":{"tools":[]}})"_s}
        << false << QStringList{u"jsonrpc.response-id-mismatch"_s};
    QTest::newRow("an answer to an id never sent is an id mismatch")
        << QStringList{ToolsList, uR"(< {"jsonrpc":"2.0","id":7,"result":{}})"_s} << false
        << QStringList{u"jsonrpc.response-id-mismatch"_s};
    QTest::newRow("a late answer to a cancelled request is fine")
        << QStringList{ToolsList,
                       uR"(> {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})"_s,
                       tools(u"[]"_s), tools(u"[]"_s)}
        << false << QStringList{};
    QTest::newRow("a stdout line that is not JSON on stdio breaks the stdout rule")
        << QStringList{u"< server ready"_s} << true << QStringList{u"stdio.non-jsonrpc-stdout"_s};
    QTest::newRow("a body that is not JSON over HTTP is an invalid envelope")
        << QStringList{u"< <html>oops</html>"_s} << false
        << QStringList{u"jsonrpc.envelope-invalid"_s};
    QTest::newRow("an initialize result without serverInfo is invalid")
        << QStringList{Init,
                       uR"(< {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{}}})"_s}
        << false << QStringList{u"lifecycle.initialize-result-invalid"_s};
    QTest::newRow("an initialize answered with an unpublished version breaks negotiation")
        << QStringList{Init,
                       uR"(< {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"1999-01-01","capabilities":{},"serverInfo":{"name":"s","version":"1"}}})"_s}
        << false << QStringList{u"lifecycle.version-negotiation"_s};
    QTest::newRow("roots/list before notifications/initialized is too early")
        << QStringList{Init, initResult(caps),
                       uR"(< {"jsonrpc":"2.0","id":"s1","method":"roots/list"})"_s}
        << false << QStringList{u"lifecycle.request-before-initialized"_s};
    QTest::newRow("ping before notifications/initialized is allowed")
        << QStringList{Init, initResult(caps),
                       uR"(< {"jsonrpc":"2.0","id":"s1","method":"ping"})"_s}
        << false << QStringList{};
    QTest::newRow("roots/list after notifications/initialized is fine when roots are declared")
        << QStringList{Init, initResult(caps), Initialized,
                       uR"(< {"jsonrpc":"2.0","id":"s1","method":"roots/list"})"_s}
        << false << QStringList{};
    QTest::newRow("sampling asked of a client that did not declare it is undeclared")
        << QStringList{Init, initResult(caps), Initialized,
                       uR"(< {"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{}})"_s}
        << false << QStringList{u"capabilities.undeclared-request"_s};
    QTest::newRow("list_changed without listChanged is an undeclared notification")
        << QStringList{Init, initResult(caps), Initialized,
                       uR"(< {"jsonrpc":"2.0","method":"notifications/tools/list_changed"})"_s}
        << false << QStringList{u"capabilities.undeclared-notification"_s};
    QTest::newRow("list_changed with listChanged is fine")
        << QStringList{Init, initResult(u"{\"tools\":{\"listChanged\":true}}"_s), Initialized,
                       uR"(< {"jsonrpc":"2.0","method":"notifications/tools/list_changed"})"_s}
        << false << QStringList{};
    QTest::newRow("list_changed before the capabilities are known is tolerated")
        << QStringList{Init,
                       uR"(< {"jsonrpc":"2.0","method":"notifications/tools/list_changed"})"_s}
        << false << QStringList{};
    QTest::newRow("a log message without the logging capability is undeclared")
        << QStringList{Init, initResult(caps), Initialized,
                       uR"(< {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}})"_s}
        << false << QStringList{u"capabilities.undeclared-notification"_s};
    QTest::newRow("progress that goes down is not increasing")
        << QStringList{CallWeather,
                       uR"(< {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1}})"_s,
                       uR"(< {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":3}})"_s,
                       uR"(< {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":2}})"_s}
        << false << QStringList{u"progress.not-increasing"_s};
    QTest::newRow("progress that rises is fine")
        << QStringList{CallWeather,
                       uR"(< {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1}})"_s,
                       uR"(< {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":2}})"_s}
        << false << QStringList{};
    QTest::newRow("progress for a token no request carried is unknown")
        << QStringList{uR"(< {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"zz","progress":1}})"_s}
        << false << QStringList{u"progress.unknown-token"_s};
    QTest::newRow("a tool listed twice in one walk is a duplicate")
        << QStringList{ToolsList,
                       tools(
                           uR"([{"name":"a","inputSchema":{"type":"object"}},{"name":"a","inputSchema":{"type":"object"}}])"_s)}
        << false << QStringList{u"tools.duplicate-name"_s};
    QTest::newRow("two interleaved walks of the list are not duplicates")
        << QStringList{ToolsList, uR"(> {"jsonrpc":"2.0","id":9,"method":"tools/list"})"_s,
                       tools(uR"([{"name":"a","inputSchema":{"type":"object"}}])"_s),
                       tools(uR"([{"name":"a","inputSchema":{"type":"object"}}])"_s, 9)}
        << false << QStringList{};
    QTest::newRow("a tool named on two pages of one walk is a duplicate")
        << QStringList{ToolsList,
                       tools(uR"([{"name":"a","inputSchema":{"type":"object"}}])"_s, 1, u"c1"_s),
                       uR"(> {"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"c1"}})"_s,
                       tools(uR"([{"name":"a","inputSchema":{"type":"object"}}])"_s, 3)}
        << false << QStringList{u"tools.duplicate-name"_s};
    QTest::newRow("a cursor that comes back never ends the list")
        << QStringList{ToolsList, tools(u"[]"_s, 1, u"c1"_s),
                       uR"(> {"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"c1"}})"_s,
                       tools(u"[]"_s, 3, u"c1"_s)}
        << false << QStringList{u"pagination.cursor-repeats"_s};
    QTest::newRow("an inputSchema of type string is invalid")
        << QStringList{ToolsList, tools(uR"([{"name":"a","inputSchema":{"type":"string"}}])"_s)}
        << false << QStringList{u"tools.input-schema-invalid"_s};
    QTest::newRow("a tool without inputSchema is invalid")
        << QStringList{ToolsList, tools(uR"([{"name":"a"}])"_s)} << false
        << QStringList{u"tools.input-schema-invalid"_s};
    QTest::newRow("a tool name with a space is advised against")
        << QStringList{ToolsList, tools(uR"([{"name":"a b","inputSchema":{"type":"object"}}])"_s)}
        << false << QStringList{u"tools.name-invalid"_s};
    QTest::newRow("an outputSchema that is an array is invalid")
        << QStringList{ToolsList,
                       tools(
                           uR"([{"name":"a","inputSchema":{"type":"object"},"outputSchema":{"type":"array"}}])"_s)}
        << false << QStringList{u"tools.output-schema-invalid"_s};
    QTest::newRow("structuredContent that breaks the outputSchema is a violation")
        << QStringList{ToolsList, tools(u"["_s + Weather + u"]"_s), CallWeather,
                       uR"(< {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\"t\":\"warm\"}"}],"structuredContent":{"t":"warm"}}})"_s}
        << false << QStringList{u"tools.output-schema-violation"_s};
    QTest::newRow("no structuredContent from a tool with an outputSchema is missing")
        << QStringList{ToolsList, tools(u"["_s + Weather + u"]"_s), CallWeather,
                       uR"(< {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"21"}]}})"_s}
        << false << QStringList{u"tools.structured-content-missing"_s};
    QTest::newRow("an isError result needs no structuredContent")
        << QStringList{ToolsList, tools(u"["_s + Weather + u"]"_s), CallWeather,
                       uR"(< {"jsonrpc":"2.0","id":2,"result":{"isError":true,"content":[{"type":"text","text":"no"}]}})"_s}
        << false << QStringList{};
    QTest::newRow("structuredContent without its JSON as text is advised against")
        << QStringList{ToolsList, tools(u"["_s + Weather + u"]"_s), CallWeather,
                       uR"(< {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"21 degrees"}],"structuredContent":{"t":21}}})"_s}
        << false << QStringList{u"tools.structured-content-text"_s};
    QTest::newRow("structuredContent that conforms and is also text is fine")
        << QStringList{ToolsList, tools(u"["_s + Weather + u"]"_s), CallWeather,
                       uR"(< {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\"t\": 21}"}],"structuredContent":{"t":21}}})"_s}
        << false << QStringList{};
    QTest::newRow("a 2026-07-28 result without resultType breaks the revision")
        << QStringList{u"> {\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",%1}}"_s
                           .arg(Meta26),
                       uR"(< {"jsonrpc":"2.0","id":4,"result":{"content":[]}})"_s}
        << false << QStringList{u"rev20260728.result-type-missing"_s};
    QTest::newRow("a 2026-07-28 result of an unknown type is invalid")
        << QStringList{u"> {\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",%1}}"_s
                           .arg(Meta26),
                       uR"(< {"jsonrpc":"2.0","id":4,"result":{"resultType":"partial","content":[]}})"_s}
        << false << QStringList{u"rev20260728.result-type-unknown"_s};
    QTest::newRow("a 2026-07-28 list without cache hints breaks caching")
        << QStringList{u"> {\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"prompts/list\",\"params\":{%1}}"_s
                           .arg(Meta26),
                       uR"(< {"jsonrpc":"2.0","id":4,"result":{"resultType":"complete","prompts":[]}})"_s}
        << false << QStringList{u"cache.hints-missing"_s};
    QTest::newRow("a 2026-07-28 list with a negative ttlMs is invalid")
        << QStringList{u"> {\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"prompts/list\",\"params\":{%1}}"_s
                           .arg(Meta26),
                       uR"(< {"jsonrpc":"2.0","id":4,"result":{"resultType":"complete","prompts":[],"ttlMs":-1,"cacheScope":"public"}})"_s}
        << false << QStringList{u"cache.hint-invalid"_s};
    QTest::newRow("a 2026-07-28 list with its hints is fine")
        << QStringList{u"> {\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"prompts/list\",\"params\":{%1}}"_s
                           .arg(Meta26),
                       uR"(< {"jsonrpc":"2.0","id":4,"result":{"resultType":"complete","prompts":[],"ttlMs":0,"cacheScope":"private"}})"_s}
        << false << QStringList{};
    QTest::newRow("a server/discover result without supportedVersions is invalid")
        << QStringList{u"> {\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"server/discover\",\"params\":{%1}}"_s
                           .arg(Meta26),
                       uR"(< {"jsonrpc":"2.0","id":4,"result":{"resultType":"complete","capabilities":{},"ttlMs":0,"cacheScope":"public"}})"_s}
        << false << QStringList{u"discover.result-invalid"_s};
    QTest::newRow("a 2026-07-28 server that sends a request breaks the revision")
        << QStringList{u"> {\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\",\"params\":{%1}}"_s
                           .arg(Meta26),
                       uR"(< {"jsonrpc":"2.0","id":"s1","method":"roots/list"})"_s}
        << false << QStringList{u"rev20260728.server-request"_s};
    const QString listen =
        u"> {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"subscriptions/listen\",\"params\":{%1,\"notifications\":{\"toolsListChanged\":true}}}"_s
            .arg(Meta26);
    const QString ack =
        uR"(< {"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7},"notifications":{"toolsListChanged":true}}})"_s;
    auto onStream = [](const char *method) {
        return u"< {\"jsonrpc\":\"2.0\",\"method\":\"%1\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":7}}}"_s
            .arg(QLatin1String(method));
    };
    QTest::newRow("a listen stream acknowledged first, then what it asked for, is fine")
        << QStringList{listen, ack, onStream("notifications/tools/list_changed")} << false
        << QStringList{};
    QTest::newRow("a notification on a listen stream before its acknowledgment is too early")
        << QStringList{listen, onStream("notifications/tools/list_changed"), ack} << false
        << QStringList{u"listen.not-acknowledged-first"_s};
    QTest::newRow("a type the listen filter did not ask for is unrequested")
        << QStringList{listen, ack, onStream("notifications/prompts/list_changed")} << false
        << QStringList{u"listen.unrequested-notification"_s};
    QTest::newRow("an initialize after a refused discover probe is judged as the handshake era")
        << QStringList{u"> {\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"server/discover\",\"params\":{%1}}"_s
                           .arg(Meta26),
                       uR"(< {"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"no"}})"_s,
                       Init,
                       initResult(caps),
                       Initialized,
                       ToolsList,
                       tools(uR"([{"name":"a","inputSchema":{"type":"object"}}])"_s)}
        << false << QStringList{};
}

void TestDoctorLinter::findsWhatASessionBreaks()
{
    QFETCH(QStringList, lines);
    QFETCH(bool, stdio);
    QFETCH(QStringList, expected);
    const QList<DoctorFinding> found = lint(lines, stdio);
    QCOMPARE(ids(found), expected);
    for (const DoctorFinding &f : found) {
        QVERIFY2(DoctorCatalog::find(f.checkId), qPrintable(f.checkId));
        QCOMPARE(f.severity, DoctorCatalog::find(f.checkId)->severity);
        QVERIFY(!f.message.isEmpty());
    }
}

void TestDoctorLinter::eachRuleIsSaidOncePerSubject()
{
    QStringList lines;
    for (int i = 0; i < 50; ++i)
        lines << u"> {\"jsonrpc\":\"2.0\",\"id\":%1,\"method\":\"ping\"}"_s.arg(i)
              << u"< {\"id\":%1,\"result\":{}}"_s.arg(i);
    QCOMPARE(ids(lint(lines)), QStringList{u"jsonrpc.envelope-invalid"_s});
}

void TestDoctorLinter::evidencePointsAtTheTranscriptRow()
{
    const QList<DoctorFinding> found =
        lint({ToolsList, uR"(< {"jsonrpc":"2.0","id":"1","result":{"tools":[]}})"_s});
    QCOMPARE(found.size(), 1);
    QCOMPARE(found[0].evidence.transcriptIndex, 1);
    QCOMPARE(found[0].evidence.request, ToolsList.mid(2).toUtf8());
    QCOMPARE(found[0].evidence.response,
             QByteArray(R"({"jsonrpc":"2.0","id":"1","result":{"tools":[]}})"));
}

void TestDoctorLinter::aNewHandshakeForgetsWhatTheLastOneDeclared()
{
    // The first session declared listChanged, the one after the reconnect does not.
    const QList<DoctorFinding> found =
        lint({Init, initResult(u"{\"tools\":{\"listChanged\":true}}"_s), Initialized,
              uR"(< {"jsonrpc":"2.0","method":"notifications/tools/list_changed"})"_s, Init,
              initResult(u"{\"tools\":{}}"_s), Initialized,
              uR"(< {"jsonrpc":"2.0","method":"notifications/tools/list_changed"})"_s});
    QCOMPARE(ids(found), QStringList{u"capabilities.undeclared-notification"_s});
    QCOMPARE(found[0].evidence.transcriptIndex, 7);
}

void TestDoctorLinter::rememberedRequestsAreBounded()
{
    // A server that never answers: the linter forgets the oldest, and an answer to one of
    // them is then said to answer nothing (memory stays bounded).
    QStringList lines;
    for (int i = 0; i <= MessageLinter::MaxPending; ++i)
        lines << u"> {\"jsonrpc\":\"2.0\",\"id\":%1,\"method\":\"ping\"}"_s.arg(i);
    lines << uR"(< {"jsonrpc":"2.0","id":0,"result":{}})"_s
          << u"< {\"jsonrpc\":\"2.0\",\"id\":%1,\"result\":{}}"_s.arg(MessageLinter::MaxPending);
    QCOMPARE(ids(lint(lines)), QStringList{u"jsonrpc.response-id-mismatch"_s});
}

QTEST_GUILESS_MAIN(TestDoctorLinter)
#include "tst_doctorlinter.moc"
