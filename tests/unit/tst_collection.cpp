// SPDX-License-Identifier: MIT
#include "callexpectation.h"
#include "collection.h"
#include "junitreport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace Sonde;
using namespace Qt::StringLiterals;

// JSON test data without raw strings (moc cannot read raw string literals).
#define JSON_TEXT(...) #__VA_ARGS__

namespace {

QJsonValue value(const QByteArray &json)
{
    return QJsonDocument::fromJson('[' + json + ']').array().first();
}

const QByteArray kServer = JSON_TEXT("server" : {"command" : "sonde-demo-server"});

} // namespace

class TestCollection : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void refusesABadCollectionNamingTheCallAndTheField_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error");
        auto row = [](const char *name, const QByteArray &calls, const char *error) {
            QTest::newRow(name) << QByteArray("{" + kServer + ", \"calls\": [" + calls + "]}")
                                << QString::fromUtf8(error);
        };
        row("a call with both tool and method is refused",
            JSON_TEXT({"name" : "x", "tool" : "echo", "method" : "ping"}),
            "c.json: call 1 (\"x\"): needs \"tool\" (with \"args\") or \"method\"");
        row("a call with neither tool nor method is refused",
            JSON_TEXT({"tool" : "echo"}, {"name" : "second"}),
            "call 2 (\"second\"): needs \"tool\"");
        row("args on a method call are refused", JSON_TEXT({"method" : "ping", "args" : {}}),
            "call 1 (\"call 1\"): \"args\" goes with \"tool\"");
        row("args that are not an object are refused", JSON_TEXT({"tool" : "echo", "args" : [1]}),
            "\"args\" must be an object");
        row("an unknown call field is named", JSON_TEXT({"tool" : "echo", "expects" : {}}),
            "unknown field \"expects\"");
        row("an unknown expect field is named",
            JSON_TEXT({"tool" : "echo", "expect" : {"text_contain" : "hi"}}),
            "\"expect\" has an unknown field \"text_contain\"");
        row("is_error that is not true or false is refused",
            JSON_TEXT({"tool" : "echo", "expect" : {"is_error" : "yes"}}),
            "\"expect.is_error\" must be true or false");
        row("a pointer without equals is refused",
            JSON_TEXT({"tool" : "echo", "expect" : {"pointer" : "/a"}}),
            "\"expect.equals\" must be given with the other");
        row("a pointer that does not start with a slash is refused",
            JSON_TEXT({"tool" : "echo", "expect" : {"pointer" : "a", "equals" : 1}}),
            "\"expect.pointer\" must be a JSON pointer");
        row("matches_output_schema on a method call is refused",
            JSON_TEXT({"method" : "tools/list", "expect" : {"matches_output_schema" : true}}),
            "\"expect.matches_output_schema\" must be used with a \"tool\" call");
        row("a max_ms of zero is refused", JSON_TEXT({"tool" : "echo", "expect" : {"max_ms" : 0}}),
            "\"expect.max_ms\" must be a whole number of milliseconds > 0");
        QTest::newRow("a server entry with a misspelt key names it")
            << QByteArray(JSON_TEXT({"server" : {"comand" : "x"}, "calls" : [ {"tool" : "echo"} ]}))
            << u"unknown key \"comand\""_s;
        QTest::newRow("a server with both command and url is refused") << QByteArray(JSON_TEXT({
            "server" : {"command" : "x", "url" : "http://h/mcp"},
            "calls" : [ {"tool" : "echo"} ]
        })) << u"has both \"command\" and \"url\""_s;
        QTest::newRow("a collection without calls is refused")
            << QByteArray("{" + kServer + ", \"calls\": []}")
            << u"c.json: \"calls\" must be a non-empty array"_s;
        QTest::newRow("a file that is not JSON is refused with the offset")
            << QByteArray("{\"calls\": ") << u"c.json: not JSON:"_s;
        QTest::newRow("an unknown top-level field is named")
            << QByteArray("{" + kServer + ", \"call\": []}") << u"unknown field \"call\""_s;
    }
    void refusesABadCollectionNamingTheCallAndTheField()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        QString why;
        QVERIFY(!Collection::parse(json, u"c.json"_s, u"/tmp"_s, &why));
        QVERIFY2(why.contains(error), qPrintable(why));
    }

    void readsTheIssuesExample()
    {
        QString why;
        const auto c = Collection::load(QFINDTESTDATA("../fixtures/collection-smoke.json"), &why);
        QVERIFY2(c, qPrintable(why));
        QCOMPARE(c->name, u"smoke"_s);
        QCOMPARE(c->server.program, u"sonde-demo-server"_s);
        QCOMPARE(c->server.route, ServerConfig::Route::Stdio);
        QCOMPARE(c->calls.size(), 3);
        QCOMPARE(c->calls[0].method, u"tools/call"_s);
        QCOMPARE(c->calls[0].params,
                 value(JSON_TEXT({"name" : "echo", "arguments" : {"message" : "hi"}})).toObject());
        QCOMPARE(c->calls[2].method, u"resources/read"_s);
        QCOMPARE(c->calls[2].params, value(JSON_TEXT({"uri" : "demo://notes/1"})).toObject());
    }

    void readsAnHttpEntryWithItsEra()
    {
        QString why;
        const auto c = Collection::parse(JSON_TEXT({
                                             "server" : {
                                                 "url" : "http://127.0.0.1:9/mcp",
                                                 "era" : "modern",
                                                 "headers" : {"X-Key" : "k"}
                                             },
                                             "calls" : [ {"method" : "ping"} ]
                                         }),
                                         u"c.json"_s, u"/tmp"_s, &why);
        QVERIFY2(c, qPrintable(why));
        QCOMPARE(c->server.route, ServerConfig::Route::StreamableHttp);
        QCOMPARE(c->server.era, ServerConfig::Era::Rev20260728);
        QCOMPARE(c->server.url, QUrl(u"http://127.0.0.1:9/mcp"_s));
        QCOMPARE(c->calls[0].name, u"call 1"_s);
    }

    void readsTheServerFromAConfigFileBesideIt()
    {
        QTemporaryDir dir;
        QFile config(dir.filePath(u"mcp.json"_s));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(JSON_TEXT({
            "mcpServers" :
                {"a" : {"command" : "prog-a"}, "b" : {"command" : "prog-b", "args" : ["-x"]}}
        }));
        config.close();
        QFile file(dir.filePath(u"c.json"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(JSON_TEXT(
            {"server" : {"config" : "mcp.json", "server" : "b"}, "calls" : [ {"tool" : "echo"} ]}));
        file.close();
        QString why;
        const auto c = Collection::load(file.fileName(), &why);
        QVERIFY2(c, qPrintable(why));
        QCOMPARE(c->server.program, u"prog-b"_s);
        QCOMPARE(c->server.arguments, QStringList{u"-x"_s});

        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(JSON_TEXT(
            {"server" : {"config" : "mcp.json", "server" : "c"}, "calls" : [ {"tool" : "echo"} ]}));
        file.close();
        QVERIFY(!Collection::load(file.fileName(), &why));
        QVERIFY2(why.contains("no server named \"c\" (has: a, b)"_L1), qPrintable(why));
    }

    void checksEachExpectationKind_data()
    {
        QTest::addColumn<QByteArray>("expect");
        QTest::addColumn<bool>("toolCall");
        QTest::addColumn<QByteArray>("result");
        QTest::addColumn<QString>("rpcError"); // non-empty: a JSON-RPC error with this message
        QTest::addColumn<qint64>("elapsedMs");
        QTest::addColumn<QByteArray>("outputSchema"); // empty: the tool declares none
        QTest::addColumn<QString>("reason");          // empty: it holds
        const QByteArray hi = JSON_TEXT({"content" : [ {"type" : "text", "text" : "Echo: hi"} ]});
        const QByteArray isError =
            JSON_TEXT({"isError" : true, "content" : [ {"type" : "text", "text" : "boom"} ]});
        const QByteArray read = JSON_TEXT({"contents" : [ {"uri" : "demo://notes/2", "n" : 3} ]});
        const QByteArray schema = JSON_TEXT({
            "type" : "object",
            "required" : ["city"],
            "properties" : {"city" : {"type" : "string"}}
        });
        QTest::newRow("text_contains holds on a tool's text")
            << QByteArray(JSON_TEXT({"text_contains" : "hi"})) << true << hi << QString() << 5ll
            << QByteArray() << QString();
        QTest::newRow("text_contains fails and quotes the text it saw")
            << QByteArray(JSON_TEXT({"text_contains" : "bye"})) << true << hi << QString() << 5ll
            << QByteArray() << u"does not contain \"bye\" (it is \"Echo: hi\")"_s;
        QTest::newRow("is_error holds on an isError result")
            << QByteArray(JSON_TEXT({"is_error" : true})) << true << isError << QString() << 5ll
            << QByteArray() << QString();
        QTest::newRow("is_error holds on a JSON-RPC error")
            << QByteArray(JSON_TEXT({"is_error" : true})) << false << QByteArray() << u"nope"_s
            << 5ll << QByteArray() << QString();
        QTest::newRow("is_error fails on a result")
            << QByteArray(JSON_TEXT({"is_error" : true})) << true << hi << QString() << 5ll
            << QByteArray() << u"expected an error, got a result"_s;
        QTest::newRow("is_error false fails on an isError result")
            << QByteArray(JSON_TEXT({"is_error" : false})) << true << isError << QString() << 5ll
            << QByteArray() << u"expected no error, got: \"boom\""_s;
        QTest::newRow("an error answer fails a call that does not expect one")
            << QByteArray("{}") << false << QByteArray() << u"Method not found"_s << 5ll
            << QByteArray() << u"the server answered with an error: \"Method not found\""_s;
        QTest::newRow("pointer and equals hold")
            << QByteArray(JSON_TEXT({"pointer" : "/contents/0/uri", "equals" : "demo://notes/2"}))
            << false << read << QString() << 5ll << QByteArray() << QString();
        QTest::newRow("pointer and equals compare numbers as JSON")
            << QByteArray(JSON_TEXT({"pointer" : "/contents/0/n", "equals" : 3})) << false << read
            << QString() << 5ll << QByteArray() << QString();
        QTest::newRow("pointer and equals fail with both values")
            << QByteArray(JSON_TEXT({"pointer" : "/contents/0/uri", "equals" : "demo://notes/1"}))
            << false << read << QString() << 5ll << QByteArray()
            << u"/contents/0/uri is \"demo://notes/2\", expected \"demo://notes/1\""_s;
        QTest::newRow("a pointer to nothing fails")
            << QByteArray(JSON_TEXT({"pointer" : "/contents/5", "equals" : 1})) << false << read
            << QString() << 5ll << QByteArray() << u"nothing at /contents/5 in the result"_s;
        QTest::newRow("structuredContent that matches the outputSchema holds")
            << QByteArray(JSON_TEXT({"matches_output_schema" : true})) << true
            << QByteArray(JSON_TEXT({"content" : [], "structuredContent" : {"city" : "Paris"}}))
            << QString() << 5ll << schema << QString();
        QTest::newRow("structuredContent that breaks the outputSchema fails naming the field")
            << QByteArray(JSON_TEXT({"matches_output_schema" : true})) << true
            << QByteArray(JSON_TEXT({"content" : [], "structuredContent" : {"city" : 7}}))
            << QString() << 5ll << schema
            << u"structuredContent does not match the outputSchema: \"city\""_s;
        QTest::newRow("a result without structuredContent fails matches_output_schema")
            << QByteArray(JSON_TEXT({"matches_output_schema" : true})) << true << hi << QString()
            << 5ll << schema << u"the result has no structuredContent"_s;
        QTest::newRow("a tool without an outputSchema fails matches_output_schema")
            << QByteArray(JSON_TEXT({"matches_output_schema" : true})) << true << hi << QString()
            << 5ll << QByteArray() << u"the tool declares no outputSchema"_s;
        QTest::newRow("max_ms holds at the limit")
            << QByteArray(JSON_TEXT({"max_ms" : 50})) << true << hi << QString() << 50ll
            << QByteArray() << QString();
        QTest::newRow("max_ms fails over the limit")
            << QByteArray(JSON_TEXT({"max_ms" : 50})) << true << hi << QString() << 51ll
            << QByteArray() << u"took 51 ms, more than max_ms 50"_s;
    }
    void checksEachExpectationKind()
    {
        QFETCH(QByteArray, expect);
        QFETCH(bool, toolCall);
        QFETCH(QByteArray, result);
        QFETCH(QString, rpcError);
        QFETCH(qint64, elapsedMs);
        QFETCH(QByteArray, outputSchema);
        QFETCH(QString, reason);
        QString why;
        const auto e = CallExpectation::fromJson(value(expect), toolCall, &why);
        QVERIFY2(e, qPrintable(why));
        CallExpectation::Answer a;
        a.toolCall = toolCall;
        a.result = value(result);
        a.rpcError = !rpcError.isEmpty();
        a.errorMessage = rpcError;
        a.elapsedMs = elapsedMs;
        if (!outputSchema.isEmpty())
            a.outputSchema = value(outputSchema).toObject();
        const QStringList reasons = e->check(a);
        if (reason.isEmpty()) {
            QVERIFY2(reasons.isEmpty(), qPrintable(reasons.join(u"; "_s)));
        } else {
            QCOMPARE(reasons.size(), 1);
            QVERIFY2(reasons[0].contains(reason), qPrintable(reasons[0]));
        }
    }

    void resolvesJsonPointers_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QByteArray>("expected"); // empty: nothing there
        QTest::newRow("the empty pointer is the whole value") << u""_s << QByteArray("DOC");
        QTest::newRow("~1 is a slash in a key") << u"/a~1b"_s << QByteArray("1");
        QTest::newRow("~0 is a tilde in a key") << u"/m~0n"_s << QByteArray("2");
        QTest::newRow("an index reaches into an array") << u"/list/1"_s << QByteArray("\"y\"");
        QTest::newRow("an index with a leading zero names nothing")
            << u"/list/01"_s << QByteArray();
        QTest::newRow("an index past the end names nothing") << u"/list/2"_s << QByteArray();
        QTest::newRow("a key under a scalar names nothing") << u"/a~1b/c"_s << QByteArray();
    }
    void resolvesJsonPointers()
    {
        QFETCH(QString, pointer);
        QFETCH(QByteArray, expected);
        const QJsonValue doc = value(JSON_TEXT({"a/b" : 1, "m~n" : 2, "list" : [ "x", "y" ]}));
        const auto got = CallExpectation::resolvePointer(doc, pointer);
        if (expected.isEmpty()) {
            QVERIFY(!got);
            return;
        }
        QVERIFY(got);
        QCOMPARE(*got, expected == "DOC" ? doc : value(expected));
    }

    void writesOneTestsuiteWithATestcasePerCall()
    {
        const QList<CollectionRun::Result> results = {
            {u"echo works"_s, u"tools/call"_s, true, {}, 12},
            {u"a read"_s,
             u"resources/read"_s,
             false,
             {u"/a is 1, expected 2"_s, u"took 9"_s},
             1500},
            {u"ping"_s, u"ping"_s, true, {}, 0}};
        const QByteArray xml =
            JUnitReport::toXml(u"smoke"_s, results, {}, QDateTime::currentDateTimeUtc(), 1600);
        QXmlStreamReader r(xml);
        int suites = 0, cases = 0, failures = 0;
        QString failureMessage, failureText, suiteTests, suiteFailures, readTime;
        while (!r.atEnd()) {
            if (r.readNext() != QXmlStreamReader::StartElement)
                continue;
            if (r.name() == "testsuite"_L1) {
                ++suites;
                suiteTests = r.attributes().value("tests"_L1).toString();
                suiteFailures = r.attributes().value("failures"_L1).toString();
            } else if (r.name() == "testcase"_L1) {
                ++cases;
                if (r.attributes().value("name"_L1) == "a read"_L1)
                    readTime = r.attributes().value("time"_L1).toString();
            } else if (r.name() == "failure"_L1) {
                ++failures;
                failureMessage = r.attributes().value("message"_L1).toString();
                failureText = r.readElementText();
            }
        }
        QVERIFY2(!r.hasError(), qPrintable(r.errorString()));
        QCOMPARE(suites, 1);
        QCOMPARE(cases, 3);
        QCOMPARE(failures, 1);
        QCOMPARE(suiteTests, u"3"_s);
        QCOMPARE(suiteFailures, u"1"_s);
        QCOMPARE(readTime, u"1.500"_s);
        QCOMPARE(failureMessage, u"/a is 1, expected 2"_s);
        QCOMPARE(failureText, u"/a is 1, expected 2\ntook 9"_s);
    }

    void writesAnUnreachableServerAsAnError()
    {
        const QByteArray xml = JUnitReport::toXml(u"smoke"_s, {}, u"cannot start \"x\""_s,
                                                  QDateTime::currentDateTimeUtc(), 3);
        QVERIFY(xml.contains("errors=\"1\""));
        QVERIFY(xml.contains("<error message=\"cannot start &quot;x&quot;\""));
    }
};

QTEST_GUILESS_MAIN(TestCollection)
#include "tst_collection.moc"
