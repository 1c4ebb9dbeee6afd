// SPDX-License-Identifier: MIT
#include "protocol/jsonspan.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

// The one string of a shortened `["..."]`, or a null string when it does not parse.
QString onlyString(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !doc.isArray())
        return {};
    return doc.array().at(0).toString();
}

} // namespace

class TestJsonSpan : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void findsAStringByItsPath_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QByteArray>("found"); // the bytes between the quotes; null: none
        const QByteArray answer =
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[{\"type\":\"image\"},"
            "{\"type\":\"text\",\"text\":\"a \\\"quoted\\\" \\u00e9\"}]}}";
        QTest::newRow("a tool's second content block's text, escapes as written")
            << answer << QByteArray("a \\\"quoted\\\" \\u00e9");
        QTest::newRow("the last of a repeated key, as Qt's parser takes it")
            << QByteArray("{\"result\":{\"content\":[0,{\"text\":\"first\",\"text\":\"last\"}]}}")
            << QByteArray("last");
        QTest::newRow("nothing when the value there is not a string")
            << QByteArray("{\"result\":{\"content\":[0,{\"text\":42}]}}") << QByteArray();
        QTest::newRow("nothing when the array is too short")
            << QByteArray("{\"result\":{\"content\":[0]}}") << QByteArray();
        QTest::newRow("nothing when the key is written with escapes")
            << QByteArray("{\"res\\u0075lt\":{\"content\":[0,{\"text\":\"x\"}]}}") << QByteArray();
        QTest::newRow("nothing when the text is not JSON")
            << QByteArray("{\"result\":{\"content\":[0,{\"text\":\"x\"}]}") << QByteArray();
    }
    void findsAStringByItsPath()
    {
        QFETCH(QByteArray, json);
        QFETCH(QByteArray, found);
        const auto span = JsonSpan::stringAt(json, {"result"_L1, "content"_L1, 1, "text"_L1});
        QCOMPARE(span.has_value(), !found.isNull());
        if (span)
            QCOMPARE(json.mid(span->from, span->size), found);
    }

    void aShortenedStringIsAPrefixOfTheOriginalAtEveryCut_data()
    {
        QTest::addColumn<QByteArray>("unit"); // repeated to make the string, as written
        QTest::newRow("plain ASCII") << QByteArray("abcdefg");
        QTest::newRow("two-byte UTF-8 (é)") << QByteArray("\xc3\xa9");
        QTest::newRow("three-byte UTF-8 (✓)") << QByteArray("\xe2\x9c\x93");
        QTest::newRow("four-byte UTF-8 (𝄞)") << QByteArray("\xf0\x9d\x84\x9e");
        QTest::newRow("escaped newlines and tabs") << QByteArray("\\n\\t");
        QTest::newRow("escaped quotes and backslashes") << QByteArray("\\\"\\\\");
        QTest::newRow("a backslash before a u, not an escape") << QByteArray("\\\\u0041");
        QTest::newRow("\\u escapes") << QByteArray("\\u00e9\\u0001");
        QTest::newRow("surrogate pairs written as escapes") << QByteArray("\\ud834\\udd1e");
        QTest::newRow("all of them mixed") << QByteArray("x\xc3\xa9"
                                                         "\\\"\\\\\\ud834\\udd1e\\u0001"
                                                         "\xe2\x9c\x93\n");
    }
    void aShortenedStringIsAPrefixOfTheOriginalAtEveryCut()
    {
        QFETCH(QByteArray, unit);
        QByteArray text;
        while (text.size() < 300)
            text += unit;
        const QByteArray json = "[\"" + text.replace("\n", "\\n") + "\"]";
        const QString whole = onlyString(json);
        QVERIFY(!whole.isEmpty());
        for (int max = 8; max < 64; ++max) {
            qsizetype cut = -1;
            const auto shorter = JsonSpan::shortened(json, max, &cut);
            QVERIFY2(shorter, qPrintable(u"max %1"_s.arg(max)));
            const QString got = onlyString(*shorter);
            QVERIFY2(!got.isNull(),
                     qPrintable(u"max %1: %2"_s.arg(max).arg(QString::fromUtf8(*shorter))));
            QVERIFY2(got.endsWith(u'…'), qPrintable(u"max %1"_s.arg(max)));
            QVERIFY2(whole.startsWith(got.chopped(1)), qPrintable(u"max %1"_s.arg(max)));
            // Whole characters only: not half of a surrogate pair.
            QVERIFY2(got.size() < 2 || !got.at(got.size() - 2).isHighSurrogate(),
                     qPrintable(u"max %1"_s.arg(max)));
            // At most `max` bytes of the string are kept, the mark included.
            QVERIFY2(shorter->size() - 4 <= max, qPrintable(u"max %1"_s.arg(max)));
            QCOMPARE(cut, json.size() - 4 - (shorter->size() - 4 - 6));
        }
    }

    void onlyLongStringsAreCutAndTheStructureStays()
    {
        const QByteArray big(5000, 'x');
        const QByteArray json =
            "{\"id\":7,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"" + big +
            "\"}],\"isError\":false,\"n\":[1,2.5e3,null,true]}}";
        qsizetype cut = 0;
        const auto shorter = JsonSpan::shortened(json, 100, &cut);
        QVERIFY(shorter);
        QVERIFY(shorter->size() < 300);
        QCOMPARE(cut, 5000 - 94);
        const QJsonObject o = QJsonDocument::fromJson(*shorter).object();
        QCOMPARE(o.value("id"_L1).toInt(), 7);
        const QJsonObject result = o.value("result"_L1).toObject();
        QCOMPARE(result.value("content"_L1)[0]["type"_L1].toString(), u"text"_s);
        QCOMPARE(result.value("content"_L1)[0]["text"_L1].toString(), QString(94, u'x') + u'…');
        QCOMPARE(result.value("isError"_L1), QJsonValue(false));
        QCOMPARE(result.value("n"_L1).toArray(), (QJsonArray{1, 2500.0, QJsonValue::Null, true}));
    }

    void textWithNothingToCutIsSharedNotCopied()
    {
        const QByteArray json = "{\"a\":\"short\",\"b\":[\"x\",\"y\"]}";
        qsizetype cut = -1;
        const auto same = JsonSpan::shortened(json, 100, &cut);
        QVERIFY(same);
        QCOMPARE(*same, json);
        QCOMPARE(same->constData(), json.constData());
        QCOMPARE(cut, 0);
    }

    void invalidTextInALongStringIsRefusedNotHidden_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("invalid UTF-8 past the cut")
            << QByteArray("[\"" + QByteArray(500, 'a') + "\xff\"]");
        QTest::newRow("a string that never closes") << QByteArray("[\"" + QByteArray(500, 'a'));
        QTest::newRow("a broken \\u escape past the cut")
            << QByteArray("[\"" + QByteArray(500, 'a') + "\\u12\"]");
    }
    void invalidTextInALongStringIsRefusedNotHidden()
    {
        QFETCH(QByteArray, json);
        QVERIFY(!JsonSpan::shortened(json, 100));
    }
};

QTEST_GUILESS_MAIN(TestJsonSpan)
#include "tst_jsonspan.moc"
