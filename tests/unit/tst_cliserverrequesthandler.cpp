// SPDX-License-Identifier: MIT
#include "cliserverrequesthandler.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

// JSON test data without raw strings (moc cannot read raw string literals).
#define JSON_TEXT(...) #__VA_ARGS__

class TestCliServerRequestHandler : public QObject
{
    Q_OBJECT

    static ServerRequest request(const QString &method, const char *params)
    {
        return {u"s"_s, 1, 7, method, QJsonDocument::fromJson(params).object()};
    }

private Q_SLOTS:
    void formElicitationAcceptedWithAnEmptyFormReturnsTheSchemaDefaults()
    {
        CliServerRequestHandler::Policy p;
        p.elicitationAction = u"accept"_s;
        const ServerReply r = CliServerRequestHandler::answerFor(
            request(u"elicitation/create"_s, JSON_TEXT({
                        "mode" : "form",
                        "message" : "m",
                        "requestedSchema" : {
                            "type" : "object",
                            "properties" : {
                                "name" : {"type" : "string", "default" : "Ada"},
                                "age" : {"type" : "integer", "default" : 36}
                            }
                        }
                    })),
            p);
        QVERIFY(!r.error.isError());
        QCOMPARE(r.result.value("action"_L1).toString(), u"accept"_s);
        QCOMPARE(r.result.value("content"_L1).toObject(),
                 (QJsonObject{{"name"_L1, "Ada"_L1}, {"age"_L1, 36}}));
        QCOMPARE(r.id.toInt(), 7);
    }

    void elicitationIsDeclinedByDefault()
    {
        const ServerReply r = CliServerRequestHandler::answerFor(
            request(u"elicitation/create"_s, JSON_TEXT({"message" : "m", "requestedSchema" : {}})),
            {});
        QCOMPARE(r.result.value("action"_L1).toString(), u"decline"_s);
        QVERIFY(!r.result.contains("content"_L1));
    }

    void urlElicitationHasItsOwnAnswer()
    {
        CliServerRequestHandler::Policy p;
        p.elicitationAction = u"accept"_s;
        const ServerReply r =
            CliServerRequestHandler::answerFor(request(u"elicitation/create"_s, JSON_TEXT({
                                                           "mode" : "url",
                                                           "url" : "https://example.com/x",
                                                           "message" : "m",
                                                           "elicitationId" : "e"
                                                       })),
                                               p);
        QCOMPARE(r.result.value("action"_L1).toString(), u"decline"_s);
    }

    void samplingWithoutATextIsRefusedAndWithOneIsAnswered()
    {
        CliServerRequestHandler::Policy p;
        QVERIFY(CliServerRequestHandler::answerFor(request(u"sampling/createMessage"_s, "{}"), p)
                    .error.isError());
        p.samplingText = u"42"_s;
        const ServerReply r =
            CliServerRequestHandler::answerFor(request(u"sampling/createMessage"_s, "{}"), p);
        QCOMPARE(r.result.value("content"_L1).toObject().value("text"_L1).toString(), u"42"_s);
        QCOMPARE(r.result.value("role"_L1).toString(), u"assistant"_s);
    }

    void rootsComeFromTheFlagsAsFileUris()
    {
        CliServerRequestHandler::Policy p;
        p.roots = {u"/tmp/project"_s, u"file:///srv/data"_s};
        const QJsonArray roots =
            CliServerRequestHandler::answerFor(request(u"roots/list"_s, "{}"), p)
                .result.value("roots"_L1)
                .toArray();
        QCOMPARE(roots.size(), 2);
        QCOMPARE(roots[0].toObject().value("uri"_L1).toString(), u"file:///tmp/project"_s);
        QCOMPARE(roots[1].toObject().value("uri"_L1).toString(), u"file:///srv/data"_s);
    }

    void unknownMethodsGetMethodNotFound()
    {
        const ServerReply r =
            CliServerRequestHandler::answerFor(request(u"tasks/list"_s, "{}"), {});
        QCOMPARE(r.error.jsonRpcCode().value_or(0), -32601);
    }
};

QTEST_APPLESS_MAIN(TestCliServerRequestHandler)
#include "tst_cliserverrequesthandler.moc"
