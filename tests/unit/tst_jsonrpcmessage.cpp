// SPDX-License-Identifier: MIT
#include "protocol/jsonrpcmessage.h"

#include <QJsonDocument>
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
