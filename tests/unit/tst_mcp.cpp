// SPDX-License-Identifier: MIT
#include "protocol/mcp.h"
#include "transcript/redactor.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

// JSON test data without raw strings (moc cannot read raw string literals).
#define JSON_TEXT(...) #__VA_ARGS__

static QJsonObject obj(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

class TestMcp : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shapesToolAnswers_data()
    {
        QTest::addColumn<QJsonObject>("result");
        QTest::addColumn<QJsonObject>("answer");
        QTest::newRow("text blocks are joined with newlines") << obj(JSON_TEXT({
            "content" : [ {"type" : "text", "text" : "a"}, {"type" : "text", "text" : "b"} ]
        })) << obj(JSON_TEXT({"result" : "a\nb"}));
        QTest::newRow("isError becomes an error answer")
            << obj(JSON_TEXT(
                   {"isError" : true, "content" : [ {"type" : "text", "text" : "boom"} ]}))
            << obj(JSON_TEXT({"error" : "boom"}));
        QTest::newRow("isError without text gets the generic message")
            << obj(JSON_TEXT({"isError" : true, "content" : []}))
            << obj(JSON_TEXT({"error" : "MCP tool returned an error"}));
        QTest::newRow("structuredContent that copies a text block is left out") << obj(JSON_TEXT({
            "content" : [ {"type" : "text", "text" : "{\"a\": 1}"} ],
            "structuredContent" : {"a" : 1}
        })) << obj(JSON_TEXT({"result" : "{\"a\": 1}"}));
        QTest::newRow("structuredContent that differs from the text is kept") << obj(JSON_TEXT({
            "content" : [ {"type" : "text", "text" : "21 degrees"} ],
            "structuredContent" : {"t" : 21}
        })) << obj(JSON_TEXT({"result" : "21 degrees", "structuredContent" : {"t" : 21}}));
        QTest::newRow("_meta and non-text content are kept") << obj(JSON_TEXT({
            "content" : [ {"type" : "image", "data" : "AA==", "mimeType" : "image/png"} ],
            "_meta" : {"k" : 1}
        })) << obj(JSON_TEXT({
            "result" : "",
            "content" : [ {"type" : "image", "data" : "AA==", "mimeType" : "image/png"} ],
            "_meta" : {"k" : 1}
        }));
    }
    void shapesToolAnswers()
    {
        QFETCH(QJsonObject, result);
        QFETCH(QJsonObject, answer);
        QCOMPARE(Mcp::toolAnswer(result), answer);
    }

    void elicitationDefaultsAreFilledAndOverridden()
    {
        const QJsonObject schema = obj(JSON_TEXT({
            "type" : "object",
            "properties" : {
                "name" : {"type" : "string", "default" : "Ada"},
                "n" : {"type" : "integer", "default" : 3},
                "free" : {"type" : "string"}
            }
        }));
        QCOMPARE(Mcp::elicitationDefaults(schema, {}), obj(JSON_TEXT({"name" : "Ada", "n" : 3})));
        QCOMPARE(Mcp::elicitationDefaults(schema, obj(JSON_TEXT({"name" : "Grace", "free" : "x"}))),
                 obj(JSON_TEXT({"name" : "Grace", "n" : 3, "free" : "x"})));
    }

    void acceptsExactlyTheKnownProtocolVersions_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<bool>("supported");
        QTest::newRow("the latest one") << u"2025-11-25"_s << true;
        QTest::newRow("2025-06-18") << u"2025-06-18"_s << true;
        QTest::newRow("2025-03-26") << u"2025-03-26"_s << true;
        QTest::newRow("the first one") << u"2024-11-05"_s << true;
        QTest::newRow("a made-up one") << u"2099-01-01"_s << false;
        QTest::newRow("an empty one") << QString() << false;
    }
    void acceptsExactlyTheKnownProtocolVersions()
    {
        QFETCH(QString, version);
        QFETCH(bool, supported);
        QCOMPARE(Mcp::isSupportedProtocolVersion(version), supported);
    }

    void redactsSecrets_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("a bearer token")
            << u"Authorization: Bearer abc.def-123"_s << u"Authorization: Bearer [REDACTED]"_s;
        QTest::newRow("an sk- key") << u"key sk-abcdefghijkl used"_s << u"key [REDACTED] used"_s;
        QTest::newRow("token= in a URL")
            << u"http://x/?token=s3cr3t&a=1"_s << u"http://x/?token=[REDACTED]&a=1"_s;
        QTest::newRow("a password assignment")
            << u"password: hunter2"_s << u"password: [REDACTED]"_s;
        QTest::newRow("plain text is untouched")
            << u"Tool failed to execute"_s << u"Tool failed to execute"_s;
    }
    void redactsSecrets()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QCOMPARE(Redactor::redact(text), expected);
    }

    void validatesStructuredContentAgainstTheOutputSchema_data()
    {
        QTest::addColumn<QJsonObject>("value");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("why");
        QTest::newRow("a matching object is valid")
            << obj(JSON_TEXT({"city" : "Oslo", "temperature" : 3.5, "n" : 2})) << true << QString();
        QTest::newRow("a missing required property is named")
            << obj(JSON_TEXT({"temperature" : 3.5})) << false << u"\"city\" is required"_s;
        QTest::newRow("a wrong type names its path")
            << obj(JSON_TEXT({"city" : 7, "temperature" : 1})) << false
            << u"\"city\" must be a string"_s;
        QTest::newRow("an integer must be whole")
            << obj(JSON_TEXT({"city" : "a", "temperature" : 1, "n" : 1.5})) << false
            << u"\"n\" must be an integer"_s;
    }
    void validatesStructuredContentAgainstTheOutputSchema()
    {
        QFETCH(QJsonObject, value);
        QFETCH(bool, valid);
        QFETCH(QString, why);
        const QJsonObject schema = obj(JSON_TEXT({
            "type" : "object",
            "required" : [ "city", "temperature" ],
            "properties" : {
                "city" : {"type" : "string"},
                "temperature" : {"type" : "number"},
                "n" : {"type" : "integer"}
            }
        }));
        QString reason;
        QCOMPARE(Mcp::validateAgainstSchema(value, schema, &reason), valid);
        QCOMPARE(reason, why);
    }

    void redactsKnownSessionIds()
    {
        QCOMPARE(Redactor::redact(u"session 6f1c-99ab seen"_s, {u"6f1c-99ab"_s}),
                 u"session [REDACTED] seen"_s);
    }
};

QTEST_APPLESS_MAIN(TestMcp)
#include "tst_mcp.moc"
