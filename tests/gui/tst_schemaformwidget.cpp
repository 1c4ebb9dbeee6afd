// SPDX-License-Identifier: MIT
#include "jsontestdata.h"
#include "tools/schemaformwidget.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTabBar>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;
using JsonTestData::compact;
using JsonTestData::object;

namespace {

// A schema used by the round-trip tests: one property of each kind the form has.
const QByteArray everyKind = JSON_TEXT({
    "type" : "object",
    "required" : ["message"],
    "properties" : {
        "message" : {"type" : "string", "description" : "What to echo"},
        "count" : {"type" : "integer"},
        "amount" : {"type" : "number"},
        "flag" : {"type" : "boolean"},
        "mode" : {"type" : "string", "enum" : [ "fast", "slow" ]},
        "tags" : {"type" : "array", "items" : {"type" : "string"}},
        "address" : {
            "type" : "object",
            "properties" : {"city" : {"type" : "string"}, "zip" : {"type" : "string"}}
        }
    }
});

// An object whose "tags" pick from 25 options ("a" to "y"): too many for check boxes, so the
// form takes them as a typed list.
QByteArray longChoices()
{
    QJsonArray letters;
    for (char c = 'a'; c < 'a' + 25; ++c)
        letters.append(QString(QLatin1Char(c)));
    const QJsonObject tags{{"type"_L1, "array"_L1},
                           {"items"_L1, QJsonObject{{"enum"_L1, letters}}}};
    return QJsonDocument(QJsonObject{{"properties"_L1, QJsonObject{{"tags"_L1, tags}}}})
        .toJson(QJsonDocument::Compact);
}

struct Shown
{
    SchemaFormWidget widget;
    explicit Shown(const QByteArray &schema)
    {
        widget.setSchema(object(schema));
        widget.resize(500, 600);
        widget.show();
    }
    template <typename T> T *find(const QString &name) const { return widget.findChild<T *>(name); }
    QPlainTextEdit *raw() const { return find<QPlainTextEdit>(u"rawEditor"_s); }
    QLabel *rawError() const { return find<QLabel>(u"rawError"_s); }
};

} // namespace

class TestSchemaFormWidget : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void typedInputBecomesTheValue_data()
    {
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("a typed string is sent as a string")
            << QByteArray(JSON_TEXT({"properties" : {"message" : {"type" : "string"}}}))
            << u"field:message"_s << u"hello world"_s
            << QByteArray(JSON_TEXT({"message" : "hello world"}));
        QTest::newRow("a typed number is sent as a number")
            << QByteArray(JSON_TEXT({"properties" : {"amount" : {"type" : "number"}}}))
            << u"field:amount"_s << u"2.5"_s << QByteArray(JSON_TEXT({"amount" : 2.5}));
        QTest::newRow("a number in exponent notation is a number")
            << QByteArray(JSON_TEXT({"properties" : {"amount" : {"type" : "number"}}}))
            << u"field:amount"_s << u"1e3"_s << QByteArray(JSON_TEXT({"amount" : 1000}));
        QTest::newRow("letters typed into a number field are refused")
            << QByteArray(JSON_TEXT({"properties" : {"amount" : {"type" : "number"}}}))
            << u"field:amount"_s << u"abc"_s << QByteArray(JSON_TEXT({}));
        QTest::newRow("a typed integer is sent as an integer")
            << QByteArray(JSON_TEXT({"properties" : {"count" : {"type" : "integer"}}}))
            << u"field:count"_s << u"-42"_s << QByteArray(JSON_TEXT({"count" : -42}));
        QTest::newRow("letters typed into an integer field are refused")
            << QByteArray(JSON_TEXT({"properties" : {"count" : {"type" : "integer"}}}))
            << u"field:count"_s << u"4x2.5"_s << QByteArray(JSON_TEXT({"count" : 425}));
        QTest::newRow("an integer beyond 32 bits stays exact")
            << QByteArray(JSON_TEXT({"properties" : {"count" : {"type" : "integer"}}}))
            << u"field:count"_s << u"8589934592"_s << QByteArray(JSON_TEXT({"count" : 8589934592}));
        QTest::newRow("a comma-separated line is sent as an array of strings")
            << QByteArray(JSON_TEXT(
                   {"properties" : {"tags" : {"type" : "array", "items" : {"type" : "string"}}}}))
            << u"field:tags"_s << u"red, green ,blue,"_s
            << QByteArray(JSON_TEXT({"tags" : [ "red", "green", "blue" ]}));
        QTest::newRow("a bracketed line keeps commas inside strings")
            << QByteArray(JSON_TEXT(
                   {"properties" : {"tags" : {"type" : "array", "items" : {"type" : "string"}}}}))
            << u"field:tags"_s << u"[\"a,b\", \"c\"]"_s
            << QByteArray(JSON_TEXT({"tags" : [ "a,b", "c" ]}));
        QTest::newRow("an array of a long enum is a comma-separated line too")
            << longChoices() << u"field:tags"_s << u"y, x"_s
            << QByteArray(JSON_TEXT({"tags" : [ "y", "x" ]}));
        QTest::newRow("an array of numbers is a JSON array line")
            << QByteArray(JSON_TEXT(
                   {"properties" : {"nums" : {"type" : "array", "items" : {"type" : "number"}}}}))
            << u"field:nums"_s << u"[1, 2.5]"_s << QByteArray(JSON_TEXT({"nums" : [ 1, 2.5 ]}));
        QTest::newRow("a field inside a nested object builds the nested object")
            << QByteArray(JSON_TEXT({
                   "properties" : {
                       "address" : {
                           "type" : "object",
                           "properties" :
                               {"city" : {"type" : "string"}, "zip" : {"type" : "string"}}
                       }
                   }
               }))
            << u"field:address/city"_s << u"Paris"_s
            << QByteArray(JSON_TEXT({"address" : {"city" : "Paris"}}));
        QTest::newRow("an unknown type takes any JSON value")
            << QByteArray(JSON_TEXT({"properties" : {"x" : {"type" : "wat"}}})) << u"field:x"_s
            << u"{\"a\": [1]}"_s << QByteArray(JSON_TEXT({"x" : {"a" : [1]}}));
        QTest::newRow("a property without a type takes any JSON value")
            << QByteArray(JSON_TEXT({"properties" : {"x" : {}}})) << u"field:x"_s << u"true"_s
            << QByteArray(JSON_TEXT({"x" : true}));
        QTest::newRow("an object without properties takes a JSON object") << QByteArray(JSON_TEXT({
            "properties" :
                {"env" : {"type" : "object", "additionalProperties" : {"type" : "string"}}}
        })) << u"field:env"_s << u"{\"A\": \"1\"}"_s << QByteArray(JSON_TEXT({
            "env" : {"A" : "1"}
        }));
        QTest::newRow("an optional nullable string from pydantic is a string")
            << QByteArray(JSON_TEXT({
                   "properties" : {
                       "s" :
                           {"anyOf" : [ {"type" : "string"}, {"type" : "null"} ], "default" : null}
                   }
               }))
            << u"field:s"_s << u"hi"_s << QByteArray(JSON_TEXT({"s" : "hi"}));
        QTest::newRow("a type list with null is the other type")
            << QByteArray(JSON_TEXT({"properties" : {"n" : {"type" : [ "integer", "null" ]}}}))
            << u"field:n"_s << u"7x"_s << QByteArray(JSON_TEXT({"n" : 7}));
        QTest::newRow("untouched optional fields of every kind are omitted")
            << everyKind << u"field:message"_s << u"only this"_s
            << QByteArray(JSON_TEXT({"message" : "only this"}));
        QTest::newRow("a slash in a property name is escaped in the object name")
            << QByteArray(JSON_TEXT({"properties" : {"a/b~c" : {"type" : "string"}}}))
            << u"field:a~1b~0c"_s << u"v"_s << QByteArray(JSON_TEXT({"a/b~c" : "v"}));
    }
    void typedInputBecomesTheValue()
    {
        QFETCH(QByteArray, schema);
        QFETCH(QString, field);
        QFETCH(QString, typed);
        QFETCH(QByteArray, expected);
        Shown s(schema);
        QCOMPARE(compact(s.widget.value()), QByteArray("{}"));
        auto *edit = s.find<QLineEdit>(field);
        QVERIFY2(edit, qPrintable(field));
        QSignalSpy changed(&s.widget, &SchemaFormWidget::valueChanged);
        QTest::keyClicks(edit, typed);
        QCOMPARE(compact(s.widget.value()), compact(object(expected)));
        // Refused keystrokes change nothing, so they must not announce a change either.
        QCOMPARE(changed.isEmpty(), object(expected).isEmpty());
    }

    void aBooleanIsTwoStateUnlessItAllowsNull_data()
    {
        const QByteArray plain = JSON_TEXT({"properties" : {"flag" : {"type" : "boolean"}}});
        const QByteArray required =
            JSON_TEXT({"required" : ["flag"], "properties" : {"flag" : {"type" : "boolean"}}});
        const QByteArray nullable =
            JSON_TEXT({"properties" : {"flag" : {"type" : [ "boolean", "null" ]}}});
        const QByteArray nullableAnyOf = JSON_TEXT(
            {"properties" : {"flag" : {"anyOf" : [ {"type" : "boolean"}, {"type" : "null"} ]}}});
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<bool>("tristate");
        QTest::addColumn<int>("presses");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("an untouched optional boolean is not sent")
            << plain << false << 0 << QByteArray("{}");
        QTest::newRow("one press makes it true")
            << plain << false << 1 << QByteArray(JSON_TEXT({"flag" : true}));
        QTest::newRow("two presses make it false, and false is sent")
            << plain << false << 2 << QByteArray(JSON_TEXT({"flag" : false}));
        QTest::newRow("an untouched required boolean is sent as the false it shows")
            << required << false << 0 << QByteArray(JSON_TEXT({"flag" : false}));
        QTest::newRow("a boolean that allows null starts at not set")
            << nullable << true << 0 << QByteArray("{}");
        QTest::newRow("a nullable boolean is true after one press")
            << nullable << true << 1 << QByteArray(JSON_TEXT({"flag" : true}));
        QTest::newRow("a nullable boolean is false after two presses")
            << nullable << true << 2 << QByteArray(JSON_TEXT({"flag" : false}));
        QTest::newRow("a nullable boolean is absent again after three presses")
            << nullable << true << 3 << QByteArray("{}");
        QTest::newRow("a nullable anyOf boolean has the third state too")
            << nullableAnyOf << true << 3 << QByteArray("{}");
    }
    void aBooleanIsTwoStateUnlessItAllowsNull()
    {
        QFETCH(QByteArray, schema);
        QFETCH(bool, tristate);
        QFETCH(int, presses);
        QFETCH(QByteArray, expected);
        Shown s(schema);
        auto *box = s.find<QCheckBox>(u"field:flag"_s);
        QVERIFY(box);
        QCOMPARE(box->isTristate(), tristate);
        QCOMPARE(box->checkState(), tristate ? Qt::PartiallyChecked : Qt::Unchecked);
        for (int i = 0; i < presses; ++i)
            QTest::keyClick(box, Qt::Key_Space);
        QCOMPARE(compact(s.widget.value()), compact(object(expected)));
        // The box says when its value is not sent.
        QCOMPARE(box->text() == u"not set"_s, expected == "{}");
    }

    void eachFieldShowsItsDescriptionAndDefault_data()
    {
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<QString>("help");
        QTest::newRow("a description is shown under its field")
            << QByteArray(JSON_TEXT(
                   {"properties" : {"f" : {"type" : "string", "description" : "Who to greet"}}}))
            << u"Who to greet"_s;
        QTest::newRow("an optional default is shown and said not to be sent")
            << QByteArray(JSON_TEXT({"properties" : {"f" : {"type" : "integer", "default" : 3}}}))
            << u"Default: 3 (not sent unless set)."_s;
        QTest::newRow("a title other than the key comes first") << QByteArray(JSON_TEXT({
            "required" : ["f"],
            "properties" : {
                "f" : {
                    "type" : "boolean",
                    "title" : "Loud",
                    "description" : "Shout",
                    "default" : true
                }
            }
        })) << u"Loud · Shout · Default: true."_s;
    }
    void eachFieldShowsItsDescriptionAndDefault()
    {
        QFETCH(QByteArray, schema);
        QFETCH(QString, help);
        Shown s(schema);
        auto *line = s.find<QLabel>(u"help:f"_s);
        QVERIFY(line);
        QCOMPARE(line->text(), help);
        QVERIFY(line->isVisible());
    }

    void optionalDefaultsAreShownButNotSent()
    {
        Shown s(JSON_TEXT({
            "properties" : {
                "s" : {"type" : "string", "default" : "hi"},
                "b" : {"type" : "boolean", "default" : true},
                "e" : {"type" : "string", "enum" : [ "x", "y" ], "default" : "y"}
            }
        }));
        QCOMPARE(compact(s.widget.value()), QByteArray("{}"));
        QCOMPARE(s.find<QLineEdit>(u"field:s"_s)->text(), QString());
        QCOMPARE(s.find<QLineEdit>(u"field:s"_s)->placeholderText(), u"default: hi"_s);
        QCOMPARE(s.find<QCheckBox>(u"field:b"_s)->checkState(), Qt::Checked);
        QCOMPARE(s.find<QCheckBox>(u"field:b"_s)->text(), u"not set"_s);
        QCOMPARE(s.find<QComboBox>(u"field:e"_s)->currentText(), u"(not set · default: y)"_s);
        // Touched, the shown default is sent.
        QTest::keyClick(s.find<QCheckBox>(u"field:b"_s), Qt::Key_Space);
        QTest::keyClick(s.find<QCheckBox>(u"field:b"_s), Qt::Key_Space);
        QCOMPARE(compact(s.widget.value()), compact(object(JSON_TEXT({"b" : true}))));
    }

    void enumIsAComboBox_data()
    {
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<int>("downPresses");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("the first entry means absent")
            << QByteArray(JSON_TEXT(
                   {"properties" : {"e" : {"type" : "string", "enum" : [ "fast", "slow" ]}}}))
            << 0 << QByteArray("{}");
        QTest::newRow("a chosen string is sent as that string")
            << QByteArray(JSON_TEXT(
                   {"properties" : {"e" : {"type" : "string", "enum" : [ "fast", "slow" ]}}}))
            << 2 << QByteArray(JSON_TEXT({"e" : "slow"}));
        QTest::newRow("a chosen integer is sent as a number")
            << QByteArray(
                   JSON_TEXT({"properties" : {"e" : {"type" : "integer", "enum" : [ 1, 2, 3 ]}}}))
            << 2 << QByteArray(JSON_TEXT({"e" : 2}));
        QTest::newRow("display names from enumNames still send the value") << QByteArray(JSON_TEXT({
            "properties" : {
                "e" : {"type" : "string", "enum" : [ "a", "b" ], "enumNames" : [ "Alpha",
                                                                                 "Beta" ]}
            }
        })) << 1 << QByteArray(JSON_TEXT({"e" : "a"}));
    }
    void enumIsAComboBox()
    {
        QFETCH(QByteArray, schema);
        QFETCH(int, downPresses);
        QFETCH(QByteArray, expected);
        Shown s(schema);
        auto *combo = s.find<QComboBox>(u"field:e"_s);
        QVERIFY(combo);
        QCOMPARE(combo->currentIndex(), 0);
        for (int i = 0; i < downPresses; ++i)
            QTest::keyClick(combo, Qt::Key_Down);
        QCOMPARE(combo->currentIndex(), downPresses);
        QCOMPARE(compact(s.widget.value()), compact(object(expected)));
    }

    // A multi-select enum (elicitation's "array of enum") is a column of check boxes, not a
    // text field the user must type a list into.
    void aMultiSelectIsACheckBoxPerOption()
    {
        Shown s(JSON_TEXT({
            "properties" : {
                "colors" : {
                    "type" : "array",
                    "items" : {
                        "anyOf" : [
                            {"const" : "#f00", "title" : "Red"},
                            {"const" : "#0f0", "title" : "Green"},
                            {"const" : "#00f", "title" : "Blue"}
                        ]
                    }
                }
            }
        }));
        QVERIFY(!s.find<QLineEdit>(u"field:colors"_s));
        auto *red = s.find<QCheckBox>(u"choice:colors:0"_s);
        auto *blue = s.find<QCheckBox>(u"choice:colors:2"_s);
        QVERIFY(red && blue);
        QCOMPARE(red->text(), u"Red"_s);
        QVERIFY(red->isVisible());
        QCOMPARE(compact(s.widget.value()), QByteArray("{}"));
        QSignalSpy changed(&s.widget, &SchemaFormWidget::valueChanged);
        QTest::mouseClick(blue, Qt::LeftButton, {}, QPoint(4, blue->height() / 2));
        QTest::mouseClick(red, Qt::LeftButton, {}, QPoint(4, red->height() / 2));
        QVERIFY(changed.count() >= 2);
        QCOMPARE(compact(s.widget.value()),
                 compact(object(JSON_TEXT({"colors" : [ "#f00", "#00f" ]}))));

        s.widget.setValue(object(JSON_TEXT({"colors" : ["#0f0"]})));
        QVERIFY(!red->isChecked());
        QVERIFY(s.find<QCheckBox>(u"choice:colors:1"_s)->isChecked());
        QCOMPARE(compact(s.widget.value()), compact(object(JSON_TEXT({"colors" : ["#0f0"]}))));
    }

    void requiredDefaultsPrefillTheForm()
    {
        Shown s(JSON_TEXT({
            "required" : [ "s", "n", "i", "b", "e", "t", "o" ],
            "properties" : {
                "s" : {"type" : "string", "default" : "hi"},
                "n" : {"type" : "number", "default" : 1.5},
                "i" : {"type" : "integer", "default" : 3},
                "b" : {"type" : "boolean", "default" : false},
                "e" : {"type" : "string", "enum" : [ "x", "y" ], "default" : "y"},
                "t" : {"type" : "array", "items" : {"type" : "string"}, "default" : [ "a", "b" ]},
                "o" : {
                    "type" : "object",
                    "required" : ["k"],
                    "properties" : {"k" : {"type" : "integer", "default" : 7}}
                },
                "plain" : {"type" : "string"}
            }
        }));
        QCOMPARE(compact(s.widget.value()), compact(object(JSON_TEXT({
                     "s" : "hi",
                     "n" : 1.5,
                     "i" : 3,
                     "b" : false,
                     "e" : "y",
                     "t" : [ "a", "b" ],
                     "o" : {"k" : 7}
                 }))));
        QCOMPARE(s.find<QLineEdit>(u"field:s"_s)->text(), u"hi"_s);
        QCOMPARE(s.find<QLineEdit>(u"field:n"_s)->text(), u"1.5"_s);
        QCOMPARE(s.find<QLineEdit>(u"field:i"_s)->text(), u"3"_s);
        QCOMPARE(s.find<QCheckBox>(u"field:b"_s)->checkState(), Qt::Unchecked);
        QCOMPARE(s.find<QComboBox>(u"field:e"_s)->currentText(), u"y"_s);
        QCOMPARE(s.find<QLineEdit>(u"field:t"_s)->text(), u"a, b"_s);
        QCOMPARE(s.find<QLineEdit>(u"field:o/k"_s)->text(), u"7"_s);
        QCOMPARE(s.find<QLineEdit>(u"field:plain"_s)->text(), QString());
    }

    void validityNamesTheField_data()
    {
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("reason"); // empty: valid
        const QByteArray requiredMessage =
            JSON_TEXT({"required" : ["message"], "properties" : {"message" : {"type" : "string"}}});
        const QByteArray address = JSON_TEXT({
            "properties" : {
                "address" : {
                    "type" : "object",
                    "required" : ["city"],
                    "properties" : {"city" : {"type" : "string"}, "zip" : {"type" : "string"}}
                }
            }
        });
        QTest::newRow("a required string left empty is invalid and named")
            << requiredMessage << QString() << QString() << u"\"message\" is required"_s;
        QTest::newRow("a required string filled in is valid")
            << requiredMessage << u"field:message"_s << u"hi"_s << QString();
        QTest::newRow("a required boolean that allows null left unset is invalid")
            << QByteArray(JSON_TEXT({
                   "required" : ["flag"],
                   "properties" : {"flag" : {"type" : [ "boolean", "null" ]}}
               }))
            << QString() << QString() << u"\"flag\" is required"_s;
        QTest::newRow("a required boolean with a default is valid") << QByteArray(JSON_TEXT({
            "required" : ["flag"],
            "properties" : {"flag" : {"type" : "boolean", "default" : true}}
        })) << QString() << QString() << QString();
        QTest::newRow("a required enum left at not set is invalid")
            << QByteArray(JSON_TEXT(
                   {"required" : ["mode"], "properties" : {"mode" : {"enum" : [ "a", "b" ]}}}))
            << QString() << QString() << u"\"mode\" is required"_s;
        QTest::newRow("a required field of a started nested object is named by its path")
            << address << u"field:address/zip"_s << u"75001"_s << u"\"address/city\" is required"_s;
        QTest::newRow("a required field of an absent optional object is not asked for")
            << address << QString() << QString() << QString();
        QTest::newRow("a number that does not parse is invalid")
            << QByteArray(JSON_TEXT({"properties" : {"amount" : {"type" : "number"}}}))
            << u"field:amount"_s << u"1e"_s << u"\"amount\""_s;
        QTest::newRow("a lone minus sign is not an integer")
            << QByteArray(JSON_TEXT({"properties" : {"count" : {"type" : "integer"}}}))
            << u"field:count"_s << u"-"_s << u"\"count\""_s;
        QTest::newRow("an integer below its minimum is invalid")
            << QByteArray(
                   JSON_TEXT({"properties" : {"count" : {"type" : "integer", "minimum" : 1}}}))
            << u"field:count"_s << u"0"_s << u"\"count\" must be at least 1"_s;
        QTest::newRow("a JSON array line that does not parse is invalid")
            << QByteArray(JSON_TEXT(
                   {"properties" : {"nums" : {"type" : "array", "items" : {"type" : "number"}}}}))
            << u"field:nums"_s << u"[1, "_s << u"\"nums\""_s;
        QTest::newRow("a JSON array line with a wrong item type is invalid")
            << QByteArray(JSON_TEXT(
                   {"properties" : {"nums" : {"type" : "array", "items" : {"type" : "number"}}}}))
            << u"field:nums"_s << u"[1, \"x\"]"_s << u"\"nums/1\" must be a number"_s;
        QTest::newRow("a listed string outside its enum is invalid")
            << longChoices() << u"field:tags"_s << u"a, z"_s << u"\"tags/1\" must be one of"_s;
        QTest::newRow("a required property the form cannot show still counts")
            << QByteArray(JSON_TEXT({"required" : ["x"]})) << QString() << QString()
            << u"\"x\" is required"_s;
    }
    void validityNamesTheField()
    {
        QFETCH(QByteArray, schema);
        QFETCH(QString, field);
        QFETCH(QString, typed);
        QFETCH(QString, reason);
        Shown s(schema);
        if (!field.isEmpty()) {
            auto *edit = s.find<QLineEdit>(field);
            QVERIFY2(edit, qPrintable(field));
            QTest::keyClicks(edit, typed);
        }
        QString why = u"untouched"_s;
        const bool valid = s.widget.isValid(&why);
        QVERIFY2(valid == reason.isEmpty(), qPrintable(why));
        if (reason.isEmpty())
            QCOMPARE(why, QString());
        else
            QVERIFY2(why.contains(reason), qPrintable(why));
        QVERIFY(s.widget.isValid() == reason.isEmpty());
    }

    void switchingViewsKeepsInput()
    {
        Shown s(everyKind);
        QTest::keyClicks(s.find<QLineEdit>(u"field:message"_s), u"hello"_s);
        QTest::keyClicks(s.find<QLineEdit>(u"field:count"_s), u"7"_s);
        QTest::keyClick(s.find<QCheckBox>(u"field:flag"_s), Qt::Key_Space);
        QTest::keyClicks(s.find<QLineEdit>(u"field:tags"_s), u"a, b"_s);
        QTest::keyClicks(s.find<QLineEdit>(u"field:address/city"_s), u"Oslo"_s);
        const QByteArray expected = JSON_TEXT({
            "message" : "hello",
            "count" : 7,
            "flag" : true,
            "tags" : [ "a", "b" ],
            "address" : {"city" : "Oslo"}
        });
        QCOMPARE(compact(s.widget.value()), compact(object(expected)));

        // The tab bar switches too.
        QSignalSpy modes(&s.widget, &SchemaFormWidget::modeChanged);
        s.find<QTabBar>(u"modeTabs"_s)->setCurrentIndex(1);
        QCOMPARE(s.widget.mode(), SchemaFormWidget::Mode::Raw);
        QCOMPARE(modes.count(), 1);
        QVERIFY(s.raw()->isVisible());
        QVERIFY(!s.raw()->isReadOnly());
        QCOMPARE(s.raw()->font().family(),
                 QFontDatabase::systemFont(QFontDatabase::FixedFont).family());
        const QString text = s.raw()->toPlainText();
        QVERIFY2(text.contains(u"\n    \"count\": 7"_s), qPrintable(text)); // indented
        QCOMPARE(compact(QJsonDocument::fromJson(text.toUtf8()).object()),
                 compact(object(expected)));
        QCOMPARE(compact(s.widget.value()), compact(object(expected)));
        QVERIFY(s.widget.isValid());

        s.widget.setMode(SchemaFormWidget::Mode::Form);
        QCOMPARE(s.widget.mode(), SchemaFormWidget::Mode::Form);
        QCOMPARE(s.find<QTabBar>(u"modeTabs"_s)->currentIndex(), 0);
        QCOMPARE(s.find<QLineEdit>(u"field:message"_s)->text(), u"hello"_s);
        QCOMPARE(s.find<QLineEdit>(u"field:tags"_s)->text(), u"a, b"_s);
        QCOMPARE(s.find<QCheckBox>(u"field:flag"_s)->checkState(), Qt::Checked);
        QCOMPARE(compact(s.widget.value()), compact(object(expected)));
    }

    void textThatDoesNotParseYetSurvivesARoundTrip()
    {
        Shown s(everyKind);
        QTest::keyClicks(s.find<QLineEdit>(u"field:amount"_s), u"1e"_s);
        s.widget.setMode(SchemaFormWidget::Mode::Raw);
        s.widget.setMode(SchemaFormWidget::Mode::Form);
        QCOMPARE(s.find<QLineEdit>(u"field:amount"_s)->text(), u"1e"_s);
    }

    void rawEditsReachTheForm()
    {
        Shown s(everyKind);
        s.widget.setMode(SchemaFormWidget::Mode::Raw);
        QSignalSpy changed(&s.widget, &SchemaFormWidget::valueChanged);
        s.raw()->selectAll();
        QTest::keyClicks(s.raw(), QString::fromUtf8(JSON_TEXT(
                                      {"message" : "from raw", "count" : 5, "extra" : 1})));
        QVERIFY(!changed.isEmpty());
        const QByteArray expected = JSON_TEXT({"message" : "from raw", "count" : 5, "extra" : 1});
        QCOMPARE(compact(s.widget.value()), compact(object(expected)));

        s.widget.setMode(SchemaFormWidget::Mode::Form);
        QCOMPARE(s.widget.mode(), SchemaFormWidget::Mode::Form);
        QCOMPARE(s.find<QLineEdit>(u"field:message"_s)->text(), u"from raw"_s);
        QCOMPARE(s.find<QLineEdit>(u"field:count"_s)->text(), u"5"_s);
        // A key the schema does not describe is kept, and the form says so.
        QCOMPARE(compact(s.widget.value()), compact(object(expected)));
        QVERIFY(s.find<QLabel>(u"extraKeys"_s)->isVisible());
        QVERIFY(s.find<QLabel>(u"extraKeys"_s)->text().contains(u"extra"_s));
    }

    void rawTextTheFormCannotTakeKeepsRawMode_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("reason");
        QTest::newRow("a syntax error names line and column")
            << u"{\n  \"message\": }"_s << u"Line 2, column"_s;
        QTest::newRow("an array is not an object") << u"[1]"_s << u"JSON object"_s;
        QTest::newRow("a string where an integer is wanted")
            << QString::fromUtf8(JSON_TEXT({"message" : "m", "count" : "seven"})) << u"\"count\""_s;
        QTest::newRow("a value outside an enum")
            << QString::fromUtf8(JSON_TEXT({"message" : "m", "mode" : "medium"})) << u"\"mode\""_s;
    }
    void rawTextTheFormCannotTakeKeepsRawMode()
    {
        QFETCH(QString, text);
        QFETCH(QString, reason);
        Shown s(everyKind);
        s.widget.setMode(SchemaFormWidget::Mode::Raw);
        s.raw()->setPlainText(text);
        QString why;
        QVERIFY(!s.widget.isValid(&why));
        QVERIFY2(why.contains(reason), qPrintable(why));

        s.widget.setMode(SchemaFormWidget::Mode::Form);
        QCOMPARE(s.widget.mode(), SchemaFormWidget::Mode::Raw);
        QCOMPARE(s.find<QTabBar>(u"modeTabs"_s)->currentIndex(), 1);
        QCOMPARE(s.raw()->toPlainText(), text);
        QVERIFY(s.rawError()->isVisible());
        QVERIFY2(s.rawError()->text().contains(reason), qPrintable(s.rawError()->text()));
        QVERIFY(!s.widget.isValid());

        // Fixed text goes through, and the error goes away.
        s.raw()->setPlainText(QString::fromUtf8(JSON_TEXT({"message" : "m"})));
        s.widget.setMode(SchemaFormWidget::Mode::Form);
        QCOMPARE(s.widget.mode(), SchemaFormWidget::Mode::Form);
        QCOMPARE(s.find<QLineEdit>(u"field:message"_s)->text(), u"m"_s);
        QVERIFY(s.widget.isValid());
    }

    void setValueFillsTheForm()
    {
        Shown s(everyKind);
        QSignalSpy changed(&s.widget, &SchemaFormWidget::valueChanged);
        const QByteArray given = JSON_TEXT({
            "message" : "hi",
            "count" : 3,
            "amount" : 0.1,
            "flag" : false,
            "mode" : "slow",
            "tags" : [ "x", "y,z" ],
            "address" : {"city" : "Rome"}
        });
        s.widget.setValue(object(given));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(s.widget.mode(), SchemaFormWidget::Mode::Form);
        QCOMPARE(s.find<QLineEdit>(u"field:message"_s)->text(), u"hi"_s);
        QCOMPARE(s.find<QLineEdit>(u"field:count"_s)->text(), u"3"_s);
        QCOMPARE(s.find<QLineEdit>(u"field:amount"_s)->text(), u"0.1"_s);
        QCOMPARE(s.find<QCheckBox>(u"field:flag"_s)->checkState(), Qt::Unchecked);
        QCOMPARE(s.find<QComboBox>(u"field:mode"_s)->currentText(), u"slow"_s);
        QCOMPARE(s.find<QLineEdit>(u"field:tags"_s)->text(), u"[\"x\",\"y,z\"]"_s);
        QCOMPARE(s.find<QLineEdit>(u"field:address/city"_s)->text(), u"Rome"_s);
        QCOMPARE(compact(s.widget.value()), compact(object(given)));

        // Keys left out of the new value clear their fields.
        s.widget.setValue(object(JSON_TEXT({"message" : "again"})));
        QCOMPARE(s.find<QLineEdit>(u"field:count"_s)->text(), QString());
        QCOMPARE(s.find<QCheckBox>(u"field:flag"_s)->checkState(), Qt::Unchecked);
        QCOMPARE(s.find<QCheckBox>(u"field:flag"_s)->text(), u"not set"_s);
        QCOMPARE(compact(s.widget.value()), compact(object(JSON_TEXT({"message" : "again"}))));
    }

    void setValueInRawModeRewritesTheText()
    {
        Shown s(everyKind);
        s.widget.setMode(SchemaFormWidget::Mode::Raw);
        s.widget.setValue(object(JSON_TEXT({"message" : "raw"})));
        QCOMPARE(compact(QJsonDocument::fromJson(s.raw()->toPlainText().toUtf8()).object()),
                 compact(object(JSON_TEXT({"message" : "raw"}))));
        s.widget.setMode(SchemaFormWidget::Mode::Form);
        QCOMPARE(s.find<QLineEdit>(u"field:message"_s)->text(), u"raw"_s);
    }

    void setValueTheFormCannotShowOpensTheRawView()
    {
        Shown s(everyKind);
        const QByteArray given = JSON_TEXT({"message" : "m", "count" : 2.5});
        s.widget.setValue(object(given));
        QCOMPARE(s.widget.mode(), SchemaFormWidget::Mode::Raw);
        QCOMPARE(compact(s.widget.value()), compact(object(given)));
        QVERIFY(s.rawError()->text().contains(u"\"count\""_s));
        s.widget.setMode(SchemaFormWidget::Mode::Form);
        QCOMPARE(s.widget.mode(), SchemaFormWidget::Mode::Raw);
    }

    void labelsMarkRequiredAndCarryTheDescription()
    {
        Shown s(JSON_TEXT({
            "required" : ["message"],
            "properties" : {
                "message" : {"type" : "string", "description" : "What to echo"},
                "mail" : {"type" : "string", "format" : "email"},
                "site" : {"type" : "string", "format" : "uri"}
            }
        }));
        QVERIFY(s.find<QLabel>(u"label:message"_s)->text().contains(u'*'));
        QVERIFY(!s.find<QLabel>(u"label:mail"_s)->text().contains(u'*'));
        QCOMPARE(s.find<QLabel>(u"label:message"_s)->toolTip(), u"What to echo"_s);
        QCOMPARE(s.find<QLineEdit>(u"field:message"_s)->toolTip(), u"What to echo"_s);
        QCOMPARE(s.find<QLineEdit>(u"field:mail"_s)->placeholderText(), u"name@example.com"_s);
        QVERIFY(s.find<QLineEdit>(u"field:site"_s)->placeholderText().startsWith(u"https://"_s));
    }

    void badSchemasStillGiveAForm_data()
    {
        QTest::addColumn<QByteArray>("schema");
        QTest::addColumn<QString>("lineEdit"); // a field expected to be a raw JSON line, or empty
        QTest::newRow("an empty schema") << QByteArray("{}") << QString();
        QTest::newRow("properties that are not an object")
            << QByteArray(JSON_TEXT({"type" : "object", "properties" : 5})) << QString();
        QTest::newRow("a property schema that is not an object")
            << QByteArray(JSON_TEXT({"properties" : {"a" : "string"}})) << u"field:a"_s;
        QTest::newRow("required that is not a list")
            << QByteArray(JSON_TEXT({"required" : "a", "properties" : {"a" : {"type" : "string"}}}))
            << u"field:a"_s;
        QTest::newRow("a reference the form does not follow")
            << QByteArray(JSON_TEXT({"properties" : {"a" : {"$ref" : "#/$defs/A"}}}))
            << u"field:a"_s;
        QTest::newRow("an empty enum")
            << QByteArray(JSON_TEXT({"properties" : {"a" : {"type" : "string", "enum" : []}}}))
            << u"field:a"_s;
        QTest::newRow("an array without items")
            << QByteArray(JSON_TEXT({"properties" : {"a" : {"type" : "array"}}})) << u"field:a"_s;
    }
    void badSchemasStillGiveAForm()
    {
        QFETCH(QByteArray, schema);
        QFETCH(QString, lineEdit);
        Shown s(schema);
        QCOMPARE(compact(s.widget.value()), QByteArray("{}"));
        QVERIFY(s.widget.isValid());
        if (!lineEdit.isEmpty())
            QVERIFY(s.find<QLineEdit>(lineEdit));
        else
            QVERIFY(s.find<QLabel>(u"noProperties"_s));
        s.widget.setMode(SchemaFormWidget::Mode::Raw);
        s.widget.setMode(SchemaFormWidget::Mode::Form);
        QCOMPARE(s.widget.mode(), SchemaFormWidget::Mode::Form);
    }

    void aNewSchemaReplacesTheForm()
    {
        Shown s(everyKind);
        QTest::keyClicks(s.find<QLineEdit>(u"field:message"_s), u"x"_s);
        QSignalSpy changed(&s.widget, &SchemaFormWidget::valueChanged);
        s.widget.setSchema(object(JSON_TEXT({
            "required" : ["other"],
            "properties" : {"other" : {"type" : "string", "default" : "d"}}
        })));
        QCOMPARE(changed.count(), 1);
        QVERIFY(!s.find<QLineEdit>(u"field:message"_s));
        QVERIFY(s.find<QLineEdit>(u"field:other"_s));
        QCOMPARE(compact(s.widget.value()), compact(object(JSON_TEXT({"other" : "d"}))));
    }
};

QTEST_MAIN(TestSchemaFormWidget)
#include "tst_schemaformwidget.moc"
