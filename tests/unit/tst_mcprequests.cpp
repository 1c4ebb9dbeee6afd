// SPDX-License-Identifier: MIT
#include "protocol/mcprequests.h"

#include <QJsonDocument>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

// JSON test data without raw strings (moc cannot read raw string literals).
#define JSON_TEXT(...) #__VA_ARGS__

static QJsonObject object(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

class TestMcpRequests : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void buildsTheParamsOnTheWire_data()
    {
        QTest::addColumn<QJsonObject>("params");
        QTest::addColumn<QJsonObject>("expected");
        QTest::newRow("a tool call names the tool and carries its arguments")
            << McpRequests::toolCall(u"echo"_s, object(JSON_TEXT({"message" : "hi"})))
            << object(JSON_TEXT({"name" : "echo", "arguments" : {"message" : "hi"}}));
        QTest::newRow("a tool call without arguments still sends an empty object")
            << McpRequests::toolCall(u"ping"_s, {})
            << object(JSON_TEXT({"name" : "ping", "arguments" : {}}));
        QTest::newRow("a read names the resource by its uri")
            << McpRequests::resourceUri(u"demo://notes/3"_s)
            << object(JSON_TEXT({"uri" : "demo://notes/3"}));
        QTest::newRow("a prompt get names the prompt and carries its arguments")
            << McpRequests::promptGet(u"greeting"_s, object(JSON_TEXT({"name" : "Ada"})))
            << object(JSON_TEXT({"name" : "greeting", "arguments" : {"name" : "Ada"}}));
        QTest::newRow("the log level is sent as level")
            << McpRequests::setLogLevel(u"debug"_s) << object(JSON_TEXT({"level" : "debug"}));
        QTest::newRow("a template's variable is completed against ref/resource, without context")
            << McpRequests::completeResourceArgument(u"demo://notes/{id}"_s, u"id"_s, u"1"_s, {})
            << object(JSON_TEXT({
                   "ref" : {"type" : "ref/resource", "uri" : "demo://notes/{id}"},
                   "argument" : {"name" : "id", "value" : "1"}
               }));
        QTest::newRow("a prompt's argument is completed against ref/prompt, with the others")
            << McpRequests::completePromptArgument(u"greeting"_s, u"style"_s, u"p"_s,
                                                   object(JSON_TEXT({"name" : "Ada"})))
            << object(JSON_TEXT({
                   "ref" : {"type" : "ref/prompt", "name" : "greeting"},
                   "argument" : {"name" : "style", "value" : "p"},
                   "context" : {"arguments" : {"name" : "Ada"}}
               }));
    }
    void buildsTheParamsOnTheWire()
    {
        QFETCH(QJsonObject, params);
        QFETCH(QJsonObject, expected);
        QCOMPARE(params, expected);
    }

    void theProgressTokenNamesTheTicket()
    {
        // What the session puts in _meta.progressToken (ServerSession spells it the same).
        QCOMPARE(McpRequests::progressToken(42), u"sonde-42"_s);
    }

    void subscribingAndUnsubscribingAreTwoMethods()
    {
        QCOMPARE(McpRequests::subscribeMethod(true), u"resources/subscribe"_s);
        QCOMPARE(McpRequests::subscribeMethod(false), u"resources/unsubscribe"_s);
    }

    void readsTheItemsOfEachListAnswer_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("key");
        QTest::newRow("tools/list holds tools") << u"tools/list"_s << u"tools"_s;
        QTest::newRow("resources/list holds resources") << u"resources/list"_s << u"resources"_s;
        QTest::newRow("resources/templates/list holds resourceTemplates")
            << u"resources/templates/list"_s << u"resourceTemplates"_s;
        QTest::newRow("prompts/list holds prompts") << u"prompts/list"_s << u"prompts"_s;
    }
    void readsTheItemsOfEachListAnswer()
    {
        QFETCH(QString, method);
        QFETCH(QString, key);
        const QJsonArray items{QJsonObject{{"name"_L1, "x"_L1}}};
        const QJsonObject result{{key, items}, {"nextCursor"_L1, "c"_L1}, {"other"_L1, 1}};
        QCOMPARE(McpRequests::listItems(method, result), items);
        QVERIFY(McpRequests::listItems(u"unknown/list"_s, result).isEmpty());
    }

    void namesTheListsASessionHas_data()
    {
        QTest::addColumn<QJsonObject>("capabilities");
        QTest::addColumn<QStringList>("methods");
        QTest::newRow("a server with everything has four lists, tools first")
            << object(JSON_TEXT({"tools" : {}, "resources" : {}, "prompts" : {}, "logging" : {}}))
            << QStringList{u"tools/list"_s, u"resources/list"_s, u"resources/templates/list"_s,
                           u"prompts/list"_s};
        QTest::newRow("a server with prompts only has the prompt list")
            << object(JSON_TEXT({"prompts" : {"listChanged" : true}}))
            << QStringList{u"prompts/list"_s};
        QTest::newRow("a server without capabilities has no list")
            << QJsonObject() << QStringList();
    }
    void namesTheListsASessionHas()
    {
        QFETCH(QJsonObject, capabilities);
        QFETCH(QStringList, methods);
        QCOMPARE(McpRequests::listMethods(capabilities), methods);
    }

    void readsTheCompletionValues()
    {
        QCOMPARE(McpRequests::completionValues(
                     object(JSON_TEXT({"completion" : {"values" : [ "1", "10" ], "total" : 2}}))),
                 (QStringList{u"1"_s, u"10"_s}));
        QVERIFY(McpRequests::completionValues({}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestMcpRequests)
#include "tst_mcprequests.moc"
