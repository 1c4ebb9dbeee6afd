// SPDX-License-Identifier: MIT
#include "protocol/jsonrpcmessage.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

// JSON test data without raw strings (moc cannot read raw string literals).
#define JSON_TEXT(...) #__VA_ARGS__

class TestJsonRpcMessage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parses_data()
    {
        QTest::addColumn<QByteArray>("frame");
        QTest::addColumn<int>("type");
        QTest::addColumn<bool>("isError");
        using T = JsonRpcMessage::Type;
        QTest::newRow("a request with a numeric id") << QByteArray(JSON_TEXT({"jsonrpc":"2.0","id":7,"method":"ping"})) << int(T::Request) << false;
        QTest::newRow("a request with a string id") << QByteArray(JSON_TEXT({"jsonrpc":"2.0","id":"a","method":"roots/list","params":{}})) << int(T::Request) << false;
        QTest::newRow("a notification has no id") << QByteArray(JSON_TEXT({"method":"notifications/tools/list_changed","jsonrpc":"2.0"})) << int(T::Notification) << false;
        QTest::newRow("a response with a result") << QByteArray(JSON_TEXT({"jsonrpc":"2.0","id":1,"result":{}})) << int(T::Response) << false;
        QTest::newRow("an error response") << QByteArray(JSON_TEXT({"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"nope"}})) << int(T::ErrorResponse) << false;
        QTest::newRow("text that is not JSON is a protocol error") << QByteArray("hello world") << int(T::Invalid) << true;
        QTest::newRow("a missing jsonrpc version is a protocol error") << QByteArray(JSON_TEXT({"id":1,"result":{}})) << int(T::Invalid) << true;
        QTest::newRow("a response with result and error is a protocol error") << QByteArray(JSON_TEXT({"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1}})) << int(T::Invalid) << true;
        QTest::newRow("params that are not an object are a protocol error") << QByteArray(JSON_TEXT({"jsonrpc":"2.0","id":1,"method":"x","params":[1]})) << int(T::Invalid) << true;
        QTest::newRow("a fractional id is a protocol error") << QByteArray(JSON_TEXT({"jsonrpc":"2.0","id":1.5,"method":"x"})) << int(T::Invalid) << true;
        QTest::newRow("a JSON array that is not a batch of objects is a protocol error") << QByteArray("[1,2]") << int(T::Invalid) << true;
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
        const auto p = JsonRpcMessage::parse(JSON_TEXT([{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","method":"n"}]));
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

    void theEnvelopeIsReadWithoutParsing_data()
    {
        QTest::addColumn<QByteArray>("frame");
        QTest::addColumn<bool>("readable");
        QTest::addColumn<bool>("hasMethod");
        QTest::addColumn<QString>("method");
        QTest::addColumn<QJsonValue>("id");
        const QJsonValue none(QJsonValue::Undefined);
        QTest::newRow("a response with a numeric id")
            << QByteArray(JSON_TEXT({"jsonrpc":"2.0","id":7,"result":{"id":99,"method":"x"}})) << true << false << QString() << QJsonValue(7);
        QTest::newRow("a request with a string id, the id after nested objects")
            << QByteArray(JSON_TEXT({"params":{"a":[1,{"id":3}]},"method":"tools/call","jsonrpc":"2.0","id":"r-1"}))
            << true << true << u"tools/call"_s << QJsonValue(u"r-1"_s);
        QTest::newRow("a notification has a method and no id")
            << QByteArray(JSON_TEXT({"jsonrpc":"2.0","method":"notifications/initialized"})) << true << true
            << u"notifications/initialized"_s << none;
        QTest::newRow("strings holding braces, quotes and escapes are skipped whole")
            << QByteArray("{\"result\":{\"text\":\"} ] { \\\" \\\\\"},\"id\":2}") << true << false << QString() << QJsonValue(2);
        QTest::newRow("whitespace and line ends around every token")
            << QByteArray(" {\r\n \"id\" :\t12 ,\n \"error\" : { \"code\" : -32000 } }\n") << true << false << QString() << QJsonValue(12);
        QTest::newRow("an escaped method name is decoded") << QByteArray("{\"method\":\"a\\u002fb\",\"id\":null}")
                                                           << true << true << u"a/b"_s << QJsonValue(QJsonValue::Null);
        QTest::newRow("an empty object has neither") << QByteArray("{}") << true << false << QString() << none;
        QTest::newRow("a batch is left to the parser") << QByteArray(JSON_TEXT([{"jsonrpc":"2.0","id":1,"result":1}]))
                                                       << false << false << QString() << none;
        QTest::newRow("a cut-off object is left to the parser") << QByteArray("{\"id\":1,\"result\":{\"a\":") << false
                                                                << false << QString() << none;
        QTest::newRow("an unterminated string is left to the parser") << QByteArray("{\"id\":\"abc}") << false << false
                                                                      << QString() << none;
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
