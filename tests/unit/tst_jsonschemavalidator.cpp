// SPDX-License-Identifier: MIT
#include "protocol/jsonschemavalidator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

// JSON test data without raw strings (moc cannot read raw string literals).
#define JSON_TEXT(...) #__VA_ARGS__

namespace {

// Any JSON value, scalars included (QJsonDocument holds only arrays and objects).
QJsonValue value(const QByteArray &json)
{
    return QJsonDocument::fromJson('[' + json + ']').array().first();
}

// "path: message" per violation, so a row checks both.
QStringList described(const QList<JsonSchemaValidator::Violation> &violations)
{
    QStringList out;
    for (const auto &v : violations)
        out << v.path + u": "_s + v.message;
    return out;
}

} // namespace

class TestJsonSchemaValidator : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void reportsEachViolationWithItsPointer_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<QStringList>("violations");

        // type
        QTest::newRow("a string is a string")
            << QByteArray("\"a\"") << QByteArray(JSON_TEXT({"type" : "string"})) << QStringList();
        QTest::newRow("a number is not a string")
            << QByteArray("1") << QByteArray(JSON_TEXT({"type" : "string"}))
            << QStringList{u": must be a string"_s};
        QTest::newRow("a whole number is an integer")
            << QByteArray("3") << QByteArray(JSON_TEXT({"type" : "integer"})) << QStringList();
        QTest::newRow("3.0 is an integer, as JSON Schema says")
            << QByteArray("3.0") << QByteArray(JSON_TEXT({"type" : "integer"})) << QStringList();
        QTest::newRow("a fraction is a number but not an integer")
            << QByteArray("1.5") << QByteArray(JSON_TEXT({"type" : "integer"}))
            << QStringList{u": must be an integer"_s};
        QTest::newRow("a huge whole number is an integer without overflowing")
            << QByteArray("1e300") << QByteArray(JSON_TEXT({"type" : "integer"})) << QStringList();
        QTest::newRow("an integer is a number")
            << QByteArray("2") << QByteArray(JSON_TEXT({"type" : "number"})) << QStringList();
        QTest::newRow("a list of types takes any of them")
            << QByteArray("null") << QByteArray(JSON_TEXT({"type" : [ "string", "null" ]}))
            << QStringList();
        QTest::newRow("a list of types names all of them when none fits")
            << QByteArray("true") << QByteArray(JSON_TEXT({"type" : [ "string", "null" ]}))
            << QStringList{u": must be a string or null"_s};
        QTest::newRow("booleans, objects and arrays are told apart")
            << QByteArray("[]") << QByteArray(JSON_TEXT({"type" : [ "boolean", "object" ]}))
            << QStringList{u": must be true or false or an object"_s};
        QTest::newRow("an unknown type name is the server's business")
            << QByteArray("1") << QByteArray(JSON_TEXT({"type" : "decimal"})) << QStringList();

        // enum
        QTest::newRow("a value in its enum is valid")
            << QByteArray("\"b\"") << QByteArray(JSON_TEXT({"enum" : [ "a", "b" ]}))
            << QStringList();
        QTest::newRow("a value outside its enum lists the allowed values")
            << QByteArray("\"z\"") << QByteArray(JSON_TEXT({"enum" : [ "a", 2, null ]}))
            << QStringList{u": must be one of \"a\", 2, null"_s};

        // numeric bounds
        QTest::newRow("a number at its minimum is valid")
            << QByteArray("1") << QByteArray(JSON_TEXT({"minimum" : 1})) << QStringList();
        QTest::newRow("a number below its minimum is invalid")
            << QByteArray("0") << QByteArray(JSON_TEXT({"minimum" : 1}))
            << QStringList{u": must be at least 1"_s};
        QTest::newRow("a number above its maximum is invalid")
            << QByteArray("5.5") << QByteArray(JSON_TEXT({"maximum" : 5}))
            << QStringList{u": must be at most 5"_s};
        QTest::newRow("a number at its exclusive minimum is invalid")
            << QByteArray("0") << QByteArray(JSON_TEXT({"exclusiveMinimum" : 0}))
            << QStringList{u": must be more than 0"_s};
        QTest::newRow("a number at its exclusive maximum is invalid")
            << QByteArray("10") << QByteArray(JSON_TEXT({"exclusiveMaximum" : 10}))
            << QStringList{u": must be less than 10"_s};
        QTest::newRow("a number inside exclusive bounds is valid")
            << QByteArray("5")
            << QByteArray(JSON_TEXT({"exclusiveMinimum" : 0, "exclusiveMaximum" : 10}))
            << QStringList();
        QTest::newRow("draft-4 boolean exclusive bounds are not numbers and are ignored")
            << QByteArray("1") << QByteArray(JSON_TEXT({"minimum" : 1, "exclusiveMinimum" : true}))
            << QStringList();
        QTest::newRow("bounds do not apply to a string")
            << QByteArray("\"0\"") << QByteArray(JSON_TEXT({"minimum" : 1})) << QStringList();

        // required and nested objects
        QTest::newRow("a missing required property is named by its own pointer")
            << QByteArray(JSON_TEXT({"b" : 1})) << QByteArray(JSON_TEXT({"required" : ["a"]}))
            << QStringList{u"/a: is required"_s};
        QTest::newRow("every missing required property is reported")
            << QByteArray("{}") << QByteArray(JSON_TEXT({"required" : [ "a", "b" ]}))
            << QStringList{u"/a: is required"_s, u"/b: is required"_s};
        QTest::newRow("a nested property's violation has the nested pointer")
            << QByteArray(JSON_TEXT({"address" : {"city" : 7}}))
            << QByteArray(JSON_TEXT(
                   {"properties" : {"address" : {"properties" : {"city" : {"type" : "string"}}}}}))
            << QStringList{u"/address/city: must be a string"_s};
        QTest::newRow("a nested required property has the nested pointer")
            << QByteArray(JSON_TEXT({"address" : {}}))
            << QByteArray(JSON_TEXT({"properties" : {"address" : {"required" : ["city"]}}}))
            << QStringList{u"/address/city: is required"_s};
        QTest::newRow("a key with a slash or a tilde is escaped in the pointer")
            << QByteArray(JSON_TEXT({"a/b" : 1, "c~d" : 2}))
            << QByteArray(JSON_TEXT(
                   {"properties" : {"a/b" : {"type" : "string"}, "c~d" : {"type" : "string"}}}))
            << QStringList{u"/a~1b: must be a string"_s, u"/c~0d: must be a string"_s};
        QTest::newRow("a property the schema does not describe is not checked")
            << QByteArray(JSON_TEXT({"x" : 1}))
            << QByteArray(JSON_TEXT({"properties" : {"y" : {"type" : "string"}}})) << QStringList();

        // arrays
        QTest::newRow("each item is checked with its index in the pointer")
            << QByteArray(JSON_TEXT([ 1, "x", 3, "y" ]))
            << QByteArray(JSON_TEXT({"type" : "array", "items" : {"type" : "number"}}))
            << QStringList{u"/1: must be a number"_s, u"/3: must be a number"_s};
        QTest::newRow("items inside an object property")
            << QByteArray(JSON_TEXT({"tags" : [ "a", "z" ]}))
            << QByteArray(
                   JSON_TEXT({"properties" : {"tags" : {"items" : {"enum" : [ "a", "b" ]}}}}))
            << QStringList{u"/tags/1: must be one of \"a\", \"b\""_s};

        // anyOf, oneOf, allOf
        QTest::newRow("anyOf passes when one alternative does")
            << QByteArray("null")
            << QByteArray(JSON_TEXT({"anyOf" : [ {"type" : "string"}, {"type" : "null"} ]}))
            << QStringList();
        QTest::newRow("anyOf that fails reports its first alternative")
            << QByteArray("1")
            << QByteArray(JSON_TEXT({"anyOf" : [ {"type" : "string"}, {"type" : "null"} ]}))
            << QStringList{u": must be a string"_s};
        QTest::newRow("oneOf passes when any alternative does, even two")
            << QByteArray("1")
            << QByteArray(JSON_TEXT({"oneOf" : [ {"type" : "number"}, {"type" : "integer"} ]}))
            << QStringList();
        QTest::newRow("oneOf that fails reports its first alternative")
            << QByteArray("true")
            << QByteArray(JSON_TEXT({"oneOf" : [ {"type" : "number"}, {"type" : "string"} ]}))
            << QStringList{u": must be a number"_s};
        QTest::newRow("allOf needs every part")
            << QByteArray("12")
            << QByteArray(JSON_TEXT({"allOf" : [ {"type" : "integer"}, {"maximum" : 10} ]}))
            << QStringList{u": must be at most 10"_s};

        // order and everything else
        QTest::newRow("violations come in keyword order: enum before type")
            << QByteArray("1") << QByteArray(JSON_TEXT({"type" : "string", "enum" : ["a"]}))
            << QStringList{u": must be one of \"a\""_s, u": must be a string"_s};
        QTest::newRow("an empty schema takes anything")
            << QByteArray(JSON_TEXT({"a" : [ 1, {"b" : null} ]})) << QByteArray("{}")
            << QStringList();
        QTest::newRow("keywords outside the subset are accepted")
            << QByteArray("\"abc\"")
            << QByteArray(JSON_TEXT({"maxLength" : 1, "pattern" : "^x$", "$ref" : "#/nowhere"}))
            << QStringList();
    }
    void reportsEachViolationWithItsPointer()
    {
        QFETCH(QByteArray, value);
        QFETCH(QByteArray, schema);
        QFETCH(QStringList, violations);
        const QJsonObject s = QJsonDocument::fromJson(schema).object();
        QCOMPARE(described(JsonSchemaValidator::validate(::value(value), s)), violations);
    }

    void aViolationReadsAsASentence_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("text");
        QTest::newRow("the value itself") << QString() << u"The value must be a string"_s;
        QTest::newRow("a property") << u"/city"_s << u"\"city\" must be a string"_s;
        QTest::newRow("a nested property")
            << u"/address/city"_s << u"\"address/city\" must be a string"_s;
    }
    void aViolationReadsAsASentence()
    {
        QFETCH(QString, path);
        QFETCH(QString, text);
        QCOMPARE((JsonSchemaValidator::Violation{path, u"must be a string"_s}.text()), text);
    }
};

QTEST_APPLESS_MAIN(TestJsonSchemaValidator)
#include "tst_jsonschemavalidator.moc"
