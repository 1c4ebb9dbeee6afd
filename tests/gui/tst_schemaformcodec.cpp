// SPDX-License-Identifier: MIT
#include "application/tools/schemaformcodec.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

// JSON test data without raw strings (moc cannot read raw string literals).
#define JSON_TEXT(...) #__VA_ARGS__

using Kind = SchemaFormCodec::Kind;

namespace {

// A multi-select of 25 options ("a" to "y"): one more than the form shows as check boxes.
QByteArray manyChoices()
{
    QJsonArray letters;
    for (char c = 'a'; c < 'a' + 25; ++c)
        letters.append(QString(QLatin1Char(c)));
    return QJsonDocument(QJsonObject{{"type"_L1, "array"_L1},
                                     {"items"_L1, QJsonObject{{"enum"_L1, letters}}}})
        .toJson(QJsonDocument::Compact);
}

QJsonObject object(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object();
}

// Any JSON value; an empty text is "absent" (undefined).
QJsonValue value(const QByteArray &json)
{
    if (json.isEmpty())
        return QJsonValue(QJsonValue::Undefined);
    return QJsonDocument::fromJson('[' + json + ']').array().first();
}

} // namespace

class TestSchemaFormCodec : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aSchemaGetsItsEditorKind_data()
    {
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<Kind>("kind");
        QTest::newRow("a string") << QByteArray(JSON_TEXT({"type" : "string"})) << Kind::String;
        QTest::newRow("a number") << QByteArray(JSON_TEXT({"type" : "number"})) << Kind::Number;
        QTest::newRow("an integer") << QByteArray(JSON_TEXT({"type" : "integer"})) << Kind::Integer;
        QTest::newRow("a boolean") << QByteArray(JSON_TEXT({"type" : "boolean"})) << Kind::Boolean;
        QTest::newRow("an enum, whatever its type")
            << QByteArray(JSON_TEXT({"type" : "integer", "enum" : [ 1, 2 ]})) << Kind::Enum;
        QTest::newRow("an array of strings")
            << QByteArray(JSON_TEXT({"type" : "array", "items" : {"type" : "string"}}))
            << Kind::StringList;
        QTest::newRow("a titled single-select is an enum") << QByteArray(JSON_TEXT({
            "type" : "string",
            "oneOf" : [ {"const" : "r", "title" : "Red"}, {"const" : "g", "title" : "Green"} ]
        })) << Kind::Enum;
        QTest::newRow("an array of a string enum is a multi-select")
            << QByteArray(JSON_TEXT({"type" : "array", "items" : {"enum" : [ "a", "b" ]}}))
            << Kind::Choices;
        QTest::newRow("a titled multi-select is a multi-select") << QByteArray(JSON_TEXT({
            "type" : "array",
            "items" : {"anyOf" : [ {"const" : "r", "title" : "Red"}, {"const" : "g"} ]}
        })) << Kind::Choices;
        QTest::newRow("a multi-select of 25 options is typed as a list")
            << manyChoices() << Kind::StringList;
        QTest::newRow("an array of numbers")
            << QByteArray(JSON_TEXT({"type" : "array", "items" : {"type" : "number"}}))
            << Kind::JsonArray;
        QTest::newRow("an object with properties")
            << QByteArray(JSON_TEXT({"type" : "object", "properties" : {}})) << Kind::Object;
        QTest::newRow("a free-form object")
            << QByteArray(JSON_TEXT({"type" : "object"})) << Kind::Json;
        QTest::newRow("no type at all") << QByteArray("{}") << Kind::Json;
        QTest::newRow("an optional integer written as anyOf with null")
            << QByteArray(JSON_TEXT({"anyOf" : [ {"type" : "integer"}, {"type" : "null"} ]}))
            << Kind::Integer;
        QTest::newRow("an optional string written as a type list with null")
            << QByteArray(JSON_TEXT({"type" : [ "string", "null" ]})) << Kind::String;
        QTest::newRow("a real union stays free JSON")
            << QByteArray(JSON_TEXT({"anyOf" : [ {"type" : "integer"}, {"type" : "string"} ]}))
            << Kind::Json;
    }
    void aSchemaGetsItsEditorKind()
    {
        QFETCH(QByteArray, schema);
        QFETCH(Kind, kind);
        QCOMPARE(SchemaFormCodec(object(schema)).kind(), kind);
    }

    void textReadsBackAsTheValue_data()
    {
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QByteArray>("value"); // empty: absent
        QTest::addColumn<QString>("problem");
        const QByteArray string = JSON_TEXT({"type" : "string"});
        const QByteArray number = JSON_TEXT({"type" : "number"});
        const QByteArray integer = JSON_TEXT({"type" : "integer"});
        const QByteArray strings = JSON_TEXT({"type" : "array", "items" : {"type" : "string"}});
        const QByteArray numbers = JSON_TEXT({"type" : "array", "items" : {"type" : "number"}});
        QTest::newRow("an empty string field is absent")
            << string << QString() << QByteArray() << QString();
        QTest::newRow("a string keeps its spaces")
            << string << u" a b "_s << QByteArray("\" a b \"") << QString();
        QTest::newRow("a number with an exponent")
            << number << u" 1.5e3 "_s << QByteArray("1500") << QString();
        QTest::newRow("a number that does not parse is absent, and says why")
            << number << u"1e"_s << QByteArray() << u"\"1e\" is not a number"_s;
        QTest::newRow("an integer beyond 32 bits")
            << integer << u"-9000000000"_s << QByteArray("-9000000000") << QString();
        QTest::newRow("a lone minus sign is not an integer")
            << integer << u"-"_s << QByteArray() << u"\"-\" is not an integer"_s;
        QTest::newRow("a comma-separated list of strings")
            << strings << u"a, b ,c,"_s << QByteArray(JSON_TEXT([ "a", "b", "c" ])) << QString();
        QTest::newRow("a list written as JSON keeps its commas")
            << strings << u"[\"a,b\", \"c\"]"_s << QByteArray(JSON_TEXT([ "a,b", "c" ]))
            << QString();
        QTest::newRow("a list starting with a bracket that does not parse")
            << strings << u"[a"_s << QByteArray() << u"\"[a\" is not a JSON array"_s;
        QTest::newRow("a JSON array") << numbers << u"[1, 2]"_s << QByteArray("[1,2]") << QString();
        QTest::newRow("a JSON array field refuses an object")
            << numbers << u"{}"_s << QByteArray() << u"\"{}\" is not a JSON array"_s;
        QTest::newRow("a free field takes any JSON value")
            << QByteArray("{}") << u"{\"a\": [true]}"_s << QByteArray(JSON_TEXT({"a" : [true]}))
            << QString();
        QTest::newRow("a free field refuses what is not JSON")
            << QByteArray("{}") << u"{a}"_s << QByteArray() << u"\"{a}\" is not valid JSON"_s;
    }
    void textReadsBackAsTheValue()
    {
        QFETCH(QByteArray, schema);
        QFETCH(QString, text);
        QFETCH(QByteArray, value);
        QFETCH(QString, problem);
        const SchemaFormCodec::Reading r = SchemaFormCodec(object(schema)).fromText(text);
        QCOMPARE(r.value, ::value(value));
        QCOMPARE(r.problem, problem);
    }

    void aValueIsShownAsText_data()
    {
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("text");
        const QByteArray strings = JSON_TEXT({"type" : "array", "items" : {"type" : "string"}});
        QTest::newRow("absent is an empty field")
            << QByteArray(JSON_TEXT({"type" : "string"})) << QByteArray() << QString();
        QTest::newRow("a string as itself")
            << QByteArray(JSON_TEXT({"type" : "string"})) << QByteArray("\"a\\\"b\"") << u"a\"b"_s;
        QTest::newRow("a whole number in an integer field has no fraction")
            << QByteArray(JSON_TEXT({"type" : "integer"})) << QByteArray("3.0") << u"3"_s;
        QTest::newRow("a number as JSON writes it")
            << QByteArray(JSON_TEXT({"type" : "number"})) << QByteArray("0.1") << u"0.1"_s;
        QTest::newRow("plain strings as a comma-separated list")
            << strings << QByteArray(JSON_TEXT([ "a", "b" ])) << u"a, b"_s;
        QTest::newRow("a string with a comma forces JSON")
            << strings << QByteArray(JSON_TEXT([ "a,b", "c" ])) << u"[\"a,b\",\"c\"]"_s;
        QTest::newRow("a string with outer spaces forces JSON")
            << strings << QByteArray(JSON_TEXT([" a"])) << u"[\" a\"]"_s;
        QTest::newRow("a first string starting with a bracket forces JSON")
            << strings << QByteArray(JSON_TEXT(["[x"])) << u"[\"[x\"]"_s;
        QTest::newRow("a free field shows compact JSON")
            << QByteArray("{}") << QByteArray(JSON_TEXT({"a" : 1})) << u"{\"a\":1}"_s;
    }
    void aValueIsShownAsText()
    {
        QFETCH(QByteArray, schema);
        QFETCH(QByteArray, value);
        QFETCH(QString, text);
        const SchemaFormCodec codec(object(schema));
        QCOMPARE(codec.toText(::value(value)), text);
        // What is shown reads back as the same value.
        if (!value.isEmpty())
            QCOMPARE(codec.fromText(text).value, ::value(value));
    }

    void checkBoxesAndComboBoxesMapToValues()
    {
        QCOMPARE(SchemaFormCodec::fromCheckState(Qt::Checked), QJsonValue(true));
        QCOMPARE(SchemaFormCodec::fromCheckState(Qt::Unchecked), QJsonValue(false));
        QVERIFY(SchemaFormCodec::fromCheckState(Qt::PartiallyChecked).isUndefined());
        QCOMPARE(SchemaFormCodec::toCheckState(QJsonValue(false)), Qt::Unchecked);
        QCOMPARE(SchemaFormCodec::toCheckState(QJsonValue(QJsonValue::Undefined)),
                 Qt::PartiallyChecked);

        const SchemaFormCodec e(object(JSON_TEXT({
            "enum" : [ "a", 2 ],
            "enumNames" : [ "Alpha", "Two" ],
            "type" : [ "string", "null" ]
        })));
        QCOMPARE(e.kind(), Kind::Enum);
        QCOMPARE(e.optionTexts(), (QStringList{u"Alpha"_s, u"Two"_s}));
        QCOMPARE(e.toIndex(QJsonValue(2)), 2);
        QCOMPARE(e.toIndex(QJsonValue(u"z"_s)), 0);
        QCOMPARE(e.fromIndex(1), QJsonValue(u"a"_s));
        QVERIFY(e.fromIndex(0).isUndefined());
        const SchemaFormCodec plain(object(JSON_TEXT({"enum" : [ "a", 2 ]})));
        QCOMPARE(plain.optionTexts(), (QStringList{u"a"_s, u"2"_s}));
    }

    void aMultiSelectTicksItsOptionsAndSendsThemInOrder()
    {
        const SchemaFormCodec c(object(JSON_TEXT({
            "type" : "array",
            "items" :
                {"anyOf" : [ {"const" : "r", "title" : "Red"}, {"const" : "g"}, {"const" : "b"} ]},
            "default" : [ "b", "r" ]
        })));
        QCOMPARE(c.kind(), Kind::Choices);
        QCOMPARE(c.optionTexts(), (QStringList{u"Red"_s, u"g"_s, u"b"_s}));
        QCOMPARE(c.toChecks(QJsonArray{u"b"_s, u"r"_s}), (QList<bool>{true, false, true}));
        QCOMPARE(c.fromChecks({true, false, true}, false), QJsonValue(QJsonArray{u"r"_s, u"b"_s}));
        QVERIFY(c.fromChecks({false, false, false}, false).isUndefined());
        QCOMPARE(c.fromChecks({false, false, false}, true), QJsonValue(QJsonArray()));
        QCOMPARE(c.defaultText(), u"Red, b"_s);
        QVERIFY(c.misfit(QJsonArray{u"g"_s}).isEmpty());
        QVERIFY(!c.misfit(QJsonArray{u"purple"_s}).isEmpty());
        QVERIFY(!c.misfit(u"r"_s).isEmpty());
    }

    void aValueTheEditorCannotShowIsNamed_data()
    {
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("misfit");
        QTest::newRow("absent always fits")
            << QByteArray(JSON_TEXT({"type" : "integer"})) << QByteArray() << QString();
        QTest::newRow("a string in an integer field")
            << QByteArray(JSON_TEXT({"type" : "integer"})) << QByteArray("\"seven\"")
            << u"expects an integer, not \"seven\""_s;
        QTest::newRow("a fraction in an integer field")
            << QByteArray(JSON_TEXT({"type" : "integer"})) << QByteArray("1.5")
            << u"expects an integer, not 1.5"_s;
        QTest::newRow("a value outside the enum")
            << QByteArray(JSON_TEXT({"enum" : [ "fast", "slow" ]})) << QByteArray("\"medium\"")
            << u"expects one of \"fast\", \"slow\", not \"medium\""_s;
        QTest::newRow("numbers in a list of strings")
            << QByteArray(JSON_TEXT({"type" : "array", "items" : {"type" : "string"}}))
            << QByteArray("[1]") << u"expects an array of strings, not [1]"_s;
        QTest::newRow("a string in an object group")
            << QByteArray(JSON_TEXT({"type" : "object", "properties" : {}})) << QByteArray("\"x\"")
            << u"expects an object, not \"x\""_s;
        QTest::newRow("anything in a free field")
            << QByteArray("{}") << QByteArray("[1, {}]") << QString();
    }
    void aValueTheEditorCannotShowIsNamed()
    {
        QFETCH(QByteArray, schema);
        QFETCH(QByteArray, value);
        QFETCH(QString, misfit);
        QCOMPARE(SchemaFormCodec(object(schema)).misfit(::value(value)), misfit);
    }

    void placeholdersHintAtTheFormat_data()
    {
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<QString>("placeholder");
        QTest::newRow("an email") << QByteArray(JSON_TEXT({"type" : "string", "format" : "email"}))
                                  << u"name@example.com"_s;
        QTest::newRow("a date-time")
            << QByteArray(JSON_TEXT({"type" : "string", "format" : "date-time"}))
            << u"YYYY-MM-DDThh:mm:ssZ"_s;
        QTest::newRow("an unknown format is shown by name")
            << QByteArray(JSON_TEXT({"type" : "string", "format" : "ipv4"})) << u"ipv4"_s;
        // Up to 24 options are check boxes; more are typed, and the placeholder names them.
        QTest::newRow("a list from a long enum lists the choices")
            << manyChoices()
            << u"comma-separated, from: \"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\", \"h\", \"i\", \"j\", \"k\", \"l\", \"m\", \"n\", \"o\", \"p\", \"q\", \"r\", \"s\", \"t\", \"u\", \"v\", \"w\", \"x\", \"y\""_s;
    }
    void placeholdersHintAtTheFormat()
    {
        QFETCH(QByteArray, schema);
        QFETCH(QString, placeholder);
        QCOMPARE(SchemaFormCodec(object(schema)).placeholder(), placeholder);
    }
};

QTEST_APPLESS_MAIN(TestSchemaFormCodec)
#include "tst_schemaformcodec.moc"
