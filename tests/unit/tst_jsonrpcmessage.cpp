// SPDX-License-Identifier: MIT
#include "protocol/jsonrpcmessage.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QTest>

Q_DECLARE_METATYPE(Sonde::JsonRpcMessage)

using namespace Sonde;
using namespace Qt::StringLiterals;

// JSON test data without raw strings (moc cannot read raw string literals).
#define JSON_TEXT(...) #__VA_ARGS__

class TestJsonRpcMessage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void leadingIdNamesTheRequestOfACutAnswer_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<QJsonValue>("id"); // Undefined: none
        QTest::newRow("an SDK answer cut inside its result")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":42,\"result\":{\"content\":[{\"type\":"
                          "\"text\",\"text\":\"xxxx")
            << QJsonValue(42);
        QTest::newRow("a string id")
            << QByteArray("{\"id\":\"abc\",\"jsonrpc\":\"2.0\",\"error\":{\"code\":1")
            << QJsonValue(u"abc"_s);
        QTest::newRow("a negative id with spaces")
            << QByteArray(" { \"jsonrpc\" : \"2.0\" , \"id\" : -7 , \"result\" : [")
            << QJsonValue(-7);
        QTest::newRow("an id written after the result is not found")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"result\":{\"a\":1},\"id\":3")
            << QJsonValue(QJsonValue::Undefined);
        QTest::newRow("a server request is not an answer")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"sampling/"
                          "createMessage\",\"params\":{")
            << QJsonValue(QJsonValue::Undefined);
        QTest::newRow("a nested id is not the id")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"meta\":{\"id\":9},\"result\":{")
            << QJsonValue(QJsonValue::Undefined);
        QTest::newRow("cut before the result starts")
            << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":5") << QJsonValue(QJsonValue::Undefined);
        QTest::newRow("not an object") << QByteArray("[1,2,3") << QJsonValue(QJsonValue::Undefined);
    }
    void leadingIdNamesTheRequestOfACutAnswer()
    {
        QFETCH(QByteArray, head);
        QFETCH(QJsonValue, id);
        const std::optional<QJsonValue> got = JsonRpcMessage::leadingId(head);
        QCOMPARE(got.has_value(), !id.isUndefined());
        if (got)
            QCOMPARE(*got, id);
    }

    void parses_data()
    {
        QTest::addColumn<QByteArray>("frame");
        QTest::addColumn<int>("type");
        QTest::addColumn<bool>("isError");
        using T = JsonRpcMessage::Type;
        QTest::newRow("a request with a numeric id")
            << QByteArray(JSON_TEXT({"jsonrpc" : "2.0", "id" : 7, "method" : "ping"}))
            << int(T::Request) << false;
        QTest::newRow("a request with a string id")
            << QByteArray(JSON_TEXT(
                   {"jsonrpc" : "2.0", "id" : "a", "method" : "roots/list", "params" : {}}))
            << int(T::Request) << false;
        QTest::newRow("a notification has no id")
            << QByteArray(
                   JSON_TEXT({"method" : "notifications/tools/list_changed", "jsonrpc" : "2.0"}))
            << int(T::Notification) << false;
        QTest::newRow("a response with a result")
            << QByteArray(JSON_TEXT({"jsonrpc" : "2.0", "id" : 1, "result" : {}}))
            << int(T::Response) << false;
        QTest::newRow("an error response")
            << QByteArray(JSON_TEXT(
                   {"jsonrpc" : "2.0", "id" : 1, "error" : {"code" : -32601, "message" : "nope"}}))
            << int(T::ErrorResponse) << false;
        QTest::newRow("text that is not JSON is a protocol error")
            << QByteArray("hello world") << int(T::Invalid) << true;
        QTest::newRow("a missing jsonrpc version is a protocol error")
            << QByteArray(JSON_TEXT({"id" : 1, "result" : {}})) << int(T::Invalid) << true;
        QTest::newRow("a response with result and error is a protocol error")
            << QByteArray(
                   JSON_TEXT({"jsonrpc" : "2.0", "id" : 1, "result" : {}, "error" : {"code" : 1}}))
            << int(T::Invalid) << true;
        QTest::newRow("params that are not an object are a protocol error")
            << QByteArray(JSON_TEXT({"jsonrpc" : "2.0", "id" : 1, "method" : "x", "params" : [1]}))
            << int(T::Invalid) << true;
        QTest::newRow("a fractional id is a protocol error")
            << QByteArray(JSON_TEXT({"jsonrpc" : "2.0", "id" : 1.5, "method" : "x"}))
            << int(T::Invalid) << true;
        QTest::newRow("an id too large for a 64-bit integer is a protocol error")
            << QByteArray(JSON_TEXT({"jsonrpc" : "2.0", "id" : 1e300, "method" : "x"}))
            << int(T::Invalid) << true;
        QTest::newRow("a JSON array that is not a batch of objects is a protocol error")
            << QByteArray("[1,2]") << int(T::Invalid) << true;
    }
    void parses()
    {
        QFETCH(QByteArray, frame);
        QFETCH(int, type);
        QFETCH(bool, isError);
        const JsonRpcMessage::Parsed p = JsonRpcMessage::parse(frame);
        QCOMPARE(p.error.isError(), isError);
        if (isError) {
            QCOMPARE(p.error.kind(), Error::Kind::Protocol);
            QVERIFY(!p.error.message().isEmpty());
        } else {
            QCOMPARE(p.messages.size(), 1);
            QCOMPARE(int(p.messages[0].type()), type);
        }
    }

    void aBatchYieldsEveryMessage()
    {
        const auto p = JsonRpcMessage::parse(JSON_TEXT(
            [ {"jsonrpc" : "2.0", "id" : 1, "result" : {}}, {"jsonrpc" : "2.0", "method" : "n"} ]));
        QVERIFY(!p.error.isError());
        QCOMPARE(p.messages.size(), 2);
        QVERIFY(p.messages[0].isResponse());
        QVERIFY(p.messages[1].isNotification());
    }

    void roundTripsThroughCompactJson()
    {
        const auto req = JsonRpcMessage::request(5, u"tools/call"_s, {{"name"_L1, "echo"_L1}});
        const auto back = JsonRpcMessage::parse(req.toCompactJson());
        QCOMPARE(back.messages.size(), 1);
        QCOMPARE(back.messages[0].method(), u"tools/call"_s);
        QCOMPARE(back.messages[0].id().toInteger(), 5);
        QVERIFY(!req.toCompactJson().contains('\n'));
        const auto err = JsonRpcMessage::errorResponse(3, -32602, u"bad"_s);
        const Error e = JsonRpcMessage::parse(err.toCompactJson()).messages.value(0).toError();
        QCOMPARE(e.kind(), Error::Kind::Remote);
        QCOMPARE(e.jsonRpcCode().value_or(0), -32602);
    }

    // The envelope is written by hand for speed; every kind of message and value must come
    // out byte for byte as QJsonDocument writes the same message built as an object.
    void theHandWrittenFrameIsWhatQtWrites_data()
    {
        QTest::addColumn<JsonRpcMessage>("message");
        const QJsonObject params{{"name"_L1, "echo"_L1},
                                 {"arguments"_L1, QJsonObject{{"message"_L1, "hi"_L1}}},
                                 {"_meta"_L1, QJsonObject{{"progressToken"_L1, "t-1"_L1}}}};
        QTest::newRow("a request with an integer id and params")
            << JsonRpcMessage::request(7, u"tools/call"_s, params);
        QTest::newRow("a request with a large integer id")
            << JsonRpcMessage::request(qint64(1) << 60, u"ping"_s);
        QTest::newRow("a request with a fractional id") << JsonRpcMessage::request(2.5, u"ping"_s);
        QTest::newRow("a request with a whole id stored as a double")
            << JsonRpcMessage::request(1e15, u"ping"_s);
        QTest::newRow("a request with a negative id") << JsonRpcMessage::request(-3, u"ping"_s);
        QTest::newRow("a request with a string id that needs escaping")
            << JsonRpcMessage::request(u"a\"b\\c\n\u00e9\U0001F600"_s, u"ping"_s);
        QTest::newRow("a request with a null id")
            << JsonRpcMessage::request(QJsonValue(QJsonValue::Null), u"ping"_s);
        QTest::newRow("a request with no id at all")
            << JsonRpcMessage::request(QJsonValue(QJsonValue::Undefined), u"ping"_s);
        QTest::newRow("a method with control characters, a quote and DEL")
            << JsonRpcMessage::request(1, u"a\u0001b\u001f\"\u007f"_s);
        QTest::newRow("a method with a lone surrogate")
            << JsonRpcMessage::request(1, QString(QChar(0xd800)) + u"x"_s);
        QTest::newRow("a notification without params")
            << JsonRpcMessage::notification(u"notifications/initialized"_s);
        QTest::newRow("a notification with params") << JsonRpcMessage::notification(
            u"notifications/cancelled"_s, {{"requestId"_L1, 4}, {"reason"_L1, "gone"_L1}});
        QTest::newRow("a response with an object")
            << JsonRpcMessage::response(u"s-1"_s, QJsonObject{{"roots"_L1, QJsonArray{}}});
        QTest::newRow("a response with no result")
            << JsonRpcMessage::response(2, QJsonValue(QJsonValue::Undefined));
        QTest::newRow("a response with a null result")
            << JsonRpcMessage::response(2, QJsonValue(QJsonValue::Null));
        QTest::newRow("a response with an array")
            << JsonRpcMessage::response(2, QJsonArray{1, "x"_L1});
        QTest::newRow("a response with a string") << JsonRpcMessage::response(2, u"tab\there"_s);
        QTest::newRow("a response with true") << JsonRpcMessage::response(2, true);
        QTest::newRow("a response with a double") << JsonRpcMessage::response(2, 0.1);
        QTest::newRow("an error without data")
            << JsonRpcMessage::errorResponse(3, JsonRpcCode::InvalidParams, u"bad \"x\""_s);
        QTest::newRow("an error with data") << JsonRpcMessage::errorResponse(
            3, -32042, u"needs"_s, QJsonObject{{"elicitations"_L1, QJsonArray{}}});
        QTest::newRow("an error with a null id") << JsonRpcMessage::errorResponse(
            QJsonValue(QJsonValue::Null), JsonRpcCode::ParseError, u"parse error"_s);
        QTest::newRow("an error with no id") << JsonRpcMessage::errorResponse(
            QJsonValue(QJsonValue::Undefined), JsonRpcCode::ParseError, u"parse error"_s);
        QTest::newRow("an invalid message") << JsonRpcMessage();
    }

    void theHandWrittenFrameIsWhatQtWrites()
    {
        QFETCH(JsonRpcMessage, message);
        QCOMPARE(message.toCompactJson(),
                 QJsonDocument(message.toJson()).toJson(QJsonDocument::Compact));
    }

    void theEnvelopeIsReadWithoutParsing_data()
    {
        QTest::addColumn<QByteArray>("frame");
        QTest::addColumn<bool>("readable");
        QTest::addColumn<bool>("hasMethod");
        QTest::addColumn<QString>("method");
        QTest::addColumn<QJsonValue>("id");
        const QJsonValue none(QJsonValue::Undefined);
        QTest::newRow("a response with a numeric id")
            << QByteArray(
                   JSON_TEXT({"jsonrpc" : "2.0", "id" : 7, "result" : {"id" : 99, "method" : "x"}}))
            << true << false << QString() << QJsonValue(7);
        QTest::newRow("a request with a string id, the id after nested objects")
            << QByteArray(JSON_TEXT({
                   "params" : {"a" : [ 1, {"id" : 3} ]},
                   "method" : "tools/call",
                   "jsonrpc" : "2.0",
                   "id" : "r-1"
               }))
            << true << true << u"tools/call"_s << QJsonValue(u"r-1"_s);
        QTest::newRow("a notification has a method and no id")
            << QByteArray(JSON_TEXT({"jsonrpc" : "2.0", "method" : "notifications/initialized"}))
            << true << true << u"notifications/initialized"_s << none;
        QTest::newRow("strings holding braces, quotes and escapes are skipped whole")
            << QByteArray("{\"result\":{\"text\":\"} ] { \\\" \\\\\"},\"id\":2}") << true << false
            << QString() << QJsonValue(2);
        QTest::newRow("whitespace and line ends around every token")
            << QByteArray(" {\r\n \"id\" :\t12 ,\n \"error\" : { \"code\" : -32000 } }\n") << true
            << false << QString() << QJsonValue(12);
        QTest::newRow("an escaped method name is decoded")
            << QByteArray("{\"method\":\"a\\u002fb\",\"id\":null}") << true << true << u"a/b"_s
            << QJsonValue(QJsonValue::Null);
        QTest::newRow("an empty object has neither")
            << QByteArray("{}") << true << false << QString() << none;
        QTest::newRow("an id of 18 digits")
            << QByteArray("{\"id\":-123456789012345678,\"method\":\"m\"}") << true << true << u"m"_s
            << QJsonValue(Q_INT64_C(-123456789012345678));
        QTest::newRow("an id of 19 digits")
            << QByteArray("{\"id\":1234567890123456789,\"method\":\"m\"}") << true << true << u"m"_s
            << QJsonValue(Q_INT64_C(1234567890123456789));
        QTest::newRow("an id of 20 digits, past qint64")
            << QByteArray("{\"id\":12345678901234567890,\"method\":\"m\"}") << true << true
            << u"m"_s << QJsonValue(12345678901234567890.0);
        QTest::newRow("an id of minus zero")
            << QByteArray("{\"id\":-0}") << true << false << QString() << QJsonValue(0);
        QTest::newRow("a fractional id and an exponent one")
            << QByteArray("{\"id\":2.5,\"method\":\"m\",\"id\":1e3}") << true << true << u"m"_s
            << QJsonValue(1000.0);
        QTest::newRow("a method in UTF-8 beyond ASCII")
            << QByteArray("{\"method\":\"caf\xc3\xa9\",\"id\":\"\xe2\x82\xac\"}") << true << true
            << u"caf\u00e9"_s << QJsonValue(u"\u20ac"_s);
        QTest::newRow("a batch is left to the parser")
            << QByteArray(JSON_TEXT([ {"jsonrpc" : "2.0", "id" : 1, "result" : 1} ])) << false
            << false << QString() << none;
        QTest::newRow("a cut-off object is left to the parser")
            << QByteArray("{\"id\":1,\"result\":{\"a\":") << false << false << QString() << none;
        QTest::newRow("an unterminated string is left to the parser")
            << QByteArray("{\"id\":\"abc}") << false << false << QString() << none;
    }
    void theEnvelopeIsReadWithoutParsing()
    {
        QFETCH(QByteArray, frame);
        QFETCH(bool, readable);
        QFETCH(bool, hasMethod);
        QFETCH(QString, method);
        QFETCH(QJsonValue, id);
        const auto e = JsonRpcMessage::peekEnvelope(frame);
        QCOMPARE(e.has_value(), readable);
        if (!e)
            return;
        QCOMPARE(e->hasMethod, hasMethod);
        QCOMPARE(e->method, method);
        QCOMPARE(e->id, id);
        // It agrees with the real parser.
        const QJsonObject o = QJsonDocument::fromJson(frame).object();
        QCOMPARE(o.contains("method"_L1), hasMethod);
        QCOMPARE(o.value("id"_L1), id);
        // Held as the parser holds it (an integer or a double), so it is written back alike.
        QCOMPARE(QJsonDocument(QJsonArray{e->id}).toJson(),
                 QJsonDocument(QJsonArray{o.value("id"_L1)}).toJson());
    }

    void theEnvelopeAgreesWithTheParserOnTrickyKeys_data()
    {
        QTest::addColumn<QByteArray>("frame");
        QTest::addColumn<QJsonValue>("id");
        QTest::newRow("an escaped key is the key it spells")
            << QByteArray("{\"\\u0069d\":5,\"result\":0}") << QJsonValue(5);
        QTest::newRow("of repeated ids the last one wins")
            << QByteArray(JSON_TEXT({"id" : 1, "result" : 0, "id" : 2})) << QJsonValue(2);
        QTest::newRow("an object nested exactly as deep as the limit is read")
            << QByteArray("{\"id\":3,\"result\":" + QByteArray(511, '[') + QByteArray(511, ']') +
                          "}")
            << QJsonValue(3);
        QTest::newRow("a byte order mark before the object is skipped as the parser skips it")
            << QByteArray("\xEF\xBB\xBF{\"id\":4}") << QJsonValue(4);
    }
    void theEnvelopeAgreesWithTheParserOnTrickyKeys()
    {
        QFETCH(QByteArray, frame);
        QFETCH(QJsonValue, id);
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(frame, &pe);
        QCOMPARE(pe.error, QJsonParseError::NoError);
        QCOMPARE(doc.object().value("id"_L1), id);
        const auto e = JsonRpcMessage::peekEnvelope(frame);
        QVERIFY(e.has_value());
        QCOMPARE(e->id, id);
    }

    // Whatever QJsonDocument refuses, the envelope scanner must refuse too: otherwise a
    // transport routes (and marks answered) a frame the session then throws away.
    void theEnvelopeScannerRefusesWhatTheParserRefuses_data()
    {
        QTest::addColumn<QByteArray>("frame");
        QTest::newRow("an object closed by a bracket") << QByteArray(JSON_TEXT({"result":{"x":1],"id":2}));
        QTest::newRow("an array closed by a brace") << QByteArray(JSON_TEXT({"result":[1,2},"id":2
        }));
        QTest::newRow("the top-level object closed by a bracket") << QByteArray(JSON_TEXT({"id":2]));
            QTest::newRow("bytes after the object") << QByteArray(JSON_TEXT({"id" : 1} x));
            QTest::newRow("a second object after the first")
                << QByteArray(JSON_TEXT({"id" : 1} {"id" : 2}));
            QTest::newRow("a trailing comma in the object") << QByteArray(JSON_TEXT({
                "id" : 1,
            }));
            QTest::newRow("a trailing comma in a nested array") << QByteArray(JSON_TEXT({
                "result" : [
                    1,
                ],
                "id" : 1
            }));
            QTest::newRow("a missing comma in a nested array")
                << QByteArray(JSON_TEXT({"result" : [1 2], "id" : 1}));
            QTest::newRow("a nested key without its colon")
                << QByteArray(JSON_TEXT({"result" : {"a" 1}, "id" : 1}));
            QTest::newRow("a nested key that is not a string")
                << QByteArray(JSON_TEXT({"result" : {a : 1}, "id" : 1}));
            QTest::newRow("a misspelt literal in a nested value")
                << QByteArray(JSON_TEXT({"result" : {"a" : tru}, "id" : 1}));
            QTest::newRow("a number with two decimal points")
                << QByteArray(JSON_TEXT({"result" : [1.2.3], "id" : 1}));
            QTest::newRow("a minus sign alone") << QByteArray(JSON_TEXT({"result" : -, "id" : 1}));
            QTest::newRow("a unicode escape with a non-hex digit")
                << QByteArray("{\"result\":\"\\u12G4\",\"id\":1}");
            QTest::newRow("a unicode escape cut short by the quote")
                << QByteArray("{\"result\":\"\\u12\",\"id\":1}");
            QTest::newRow("invalid UTF-8 in a nested string")
                << QByteArray("{\"result\":\"\xC3\x28\",\"id\":1}");
            QTest::newRow("an overlong UTF-8 slash in a string")
                << QByteArray("{\"result\":\"\xC0\xAF\",\"id\":1}");
            QTest::newRow("a UTF-8 encoded surrogate in a string")
                << QByteArray("{\"result\":\"\xED\xA0\x80\",\"id\":1}");
            QTest::newRow("a value missing after the colon") << QByteArray(JSON_TEXT({"id" : }));
    }
    void theEnvelopeScannerRefusesWhatTheParserRefuses()
    {
            QFETCH(QByteArray, frame);
            QJsonParseError pe;
            QJsonDocument::fromJson(frame, &pe);
            QVERIFY2(pe.error != QJsonParseError::NoError, "the row must be JSON that Qt refuses");
            QVERIFY(!JsonRpcMessage::peekEnvelope(frame).has_value());
    }

    void nestingIsCheckedBeforeParsing_data()
    {
            QTest::addColumn<QByteArray>("frame");
            QTest::addColumn<bool>("refused");
            auto response = [](int depth) -> QByteArray { // the top-level object is the first level
                return QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":") +
                       QByteArray(depth - 1, '[') + QByteArray(depth - 1, ']') + "}";
            };
            QTest::newRow("a response nested as deep as the limit is parsed")
                << response(512) << false;
            QTest::newRow("a response nested one level over the limit is refused")
                << response(513) << true;
            QTest::newRow("brackets inside strings do not count")
                << QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"" + QByteArray(600, '[') +
                              "\\\"\"}")
                << false;
            QTest::newRow("a million open brackets are refused without recursing")
                << QByteArray(1000000, '[') << true;
    }
    void nestingIsCheckedBeforeParsing()
    {
            QFETCH(QByteArray, frame);
            QFETCH(bool, refused);
            const JsonRpcMessage::Parsed p = JsonRpcMessage::parse(frame);
            if (!refused) {
                QVERIFY2(!p.error.isError(), qPrintable(p.error.message()));
                QCOMPARE(p.messages.size(), 1);
                return;
            }
            QCOMPARE(p.error.kind(), Error::Kind::Protocol);
            QVERIFY2(p.error.message().contains("512-level depth limit"_L1),
                     qPrintable(p.error.message()));
            QVERIFY(!JsonRpcMessage::peekEnvelope(frame).has_value());
    }

    void numericAndStringIdsAreDifferentKeys()
    {
            QCOMPARE(JsonRpcMessage::idKey(5), u"n:5"_s);
            QCOMPARE(JsonRpcMessage::idKey(u"5"_s), u"s:5"_s);
            QVERIFY(JsonRpcMessage::idKey(5) != JsonRpcMessage::idKey(u"5"_s));
            QCOMPARE(JsonRpcMessage::idKey(5.0), JsonRpcMessage::idKey(5));
    }
    };

    QTEST_APPLESS_MAIN(TestJsonRpcMessage)
#include "tst_jsonrpcmessage.moc"
