// SPDX-License-Identifier: MIT
#include "util/jsondiff.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Qt::StringLiterals;
using Sonde::JsonDiff;
using Sonde::JsonDifference;

namespace {

QJsonValue json(const char *text)
{
    // Wrapped, so that scalars parse too.
    const QByteArray doc = QByteArray("[") + text + "]";
    QJsonParseError error;
    const QJsonDocument d = QJsonDocument::fromJson(doc, &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad test JSON: %s", text);
    return d.array().at(0);
}

// "pointer kind" per difference, the form rows state them in.
QStringList listed(const JsonDiff::Result &r)
{
    QStringList out;
    for (const JsonDifference &d : r.differences)
        out.append(d.pointer + u' ' + JsonDifference::kindName(d.kind));
    return out;
}

} // namespace

class TestJsonDiff : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void differences_data()
    {
        QTest::addColumn<QByteArray>("oldJson");
        QTest::addColumn<QByteArray>("newJson");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<qsizetype>("total");

        QTest::newRow("equal objects give no difference")
            << QByteArray("{\"a\": 1, \"b\": [1, 2, {\"c\": null}], \"d\": \"x\"}")
            << QByteArray("{\"d\": \"x\", \"b\": [1, 2, {\"c\": null}], \"a\": 1}") << QStringList()
            << qsizetype(0);
        QTest::newRow("equal scalars give no difference")
            << QByteArray("\"same\"") << QByteArray("\"same\"") << QStringList() << qsizetype(0);
        QTest::newRow("1 and 1.0 are the same number")
            << QByteArray("{\"n\": 1}") << QByteArray("{\"n\": 1.0}") << QStringList()
            << qsizetype(0);
        QTest::newRow("two numbers that differ are a change")
            << QByteArray("{\"n\": 1}") << QByteArray("{\"n\": 1.5}")
            << QStringList{u"/n changed"_s} << qsizetype(1);
        QTest::newRow("a changed nested field gives its pointer")
            << QByteArray("{\"content\": [{\"type\": \"text\", \"text\": \"counter = 1\"}]}")
            << QByteArray("{\"content\": [{\"type\": \"text\", \"text\": \"counter = 2\"}]}")
            << QStringList{u"/content/0/text changed"_s} << qsizetype(1);
        QTest::newRow("a key with ~ and / is escaped as ~0 and ~1")
            << QByteArray("{\"a/b\": {\"~c\": 1}}") << QByteArray("{\"a/b\": {\"~c\": 2}}")
            << QStringList{u"/a~1b/~0c changed"_s} << qsizetype(1);
        QTest::newRow("a key only in the new value is added, one only in the old removed")
            << QByteArray("{\"gone\": 1, \"kept\": 2}") << QByteArray("{\"kept\": 2, \"new\": 3}")
            << QStringList{u"/gone removed"_s, u"/new added"_s} << qsizetype(2);
        QTest::newRow("an added array element is one addition at its new index")
            << QByteArray("{\"tags\": [\"a\", \"b\", \"c\"]}")
            << QByteArray("{\"tags\": [\"a\", \"x\", \"b\", \"c\"]}")
            << QStringList{u"/tags/1 added"_s} << qsizetype(1);
        QTest::newRow("a removed array element is named by its old index")
            << QByteArray("[1, 2, 3, 4]") << QByteArray("[1, 3, 4]") << QStringList{u"/1 removed"_s}
            << qsizetype(1);
        QTest::newRow("a replaced array element is a change")
            << QByteArray("[1, 2, 3]") << QByteArray("[1, 9, 3]") << QStringList{u"/1 changed"_s}
            << qsizetype(1);
        QTest::newRow("an element appended to an array of objects is added at its index")
            << QByteArray("[{\"a\": 1}]") << QByteArray("[{\"a\": 1}, {\"a\": 2}]")
            << QStringList{u"/1 added"_s} << qsizetype(1);
        QTest::newRow("an array of objects is compared by index")
            << QByteArray("[{\"a\": 1}, {\"a\": 2}]") << QByteArray("[{\"a\": 2}, {\"a\": 2}]")
            << QStringList{u"/0/a changed"_s} << qsizetype(1);
        QTest::newRow("an object that became a string is a type change")
            << QByteArray("{\"v\": {\"x\": 1}}") << QByteArray("{\"v\": \"x\"}")
            << QStringList{u"/v type-changed"_s} << qsizetype(1);
        QTest::newRow("null that became a number is a type change")
            << QByteArray("{\"v\": null}") << QByteArray("{\"v\": 0}")
            << QStringList{u"/v type-changed"_s} << qsizetype(1);
        QTest::newRow("two different whole values are a change at the empty pointer")
            << QByteArray("true") << QByteArray("false") << QStringList{u" changed"_s}
            << qsizetype(1);
    }
    void differences()
    {
        QFETCH(QByteArray, oldJson);
        QFETCH(QByteArray, newJson);
        QFETCH(QStringList, expected);
        QFETCH(qsizetype, total);
        const JsonDiff::Result r =
            JsonDiff::compare(json(oldJson.constData()), json(newJson.constData()));
        QCOMPARE(listed(r), expected);
        QCOMPARE(r.total, total);
        QCOMPARE(r.identical(), total == 0);
        QVERIFY(!r.depthLimited);
    }

    void differencesCarryBothValues()
    {
        const JsonDiff::Result r =
            JsonDiff::compare(json("{\"a\": \"old\", \"gone\": [1]}"),
                              json("{\"a\": \"new\", \"added\": {\"k\": 1}}"));
        QCOMPARE(r.differences.size(), 3);
        QCOMPARE(r.differences.at(0),
                 (JsonDifference{u"/a"_s, JsonDifference::Kind::Changed, u"old"_s, u"new"_s}));
        QCOMPARE(r.differences.at(1).pointer, u"/added"_s);
        QCOMPARE(r.differences.at(1).newValue, QJsonValue(QJsonObject{{"k"_L1, 1}}));
        QVERIFY(r.differences.at(1).oldValue.isNull());
        QCOMPARE(r.differences.at(2).pointer, u"/gone"_s);
        QCOMPARE(r.differences.at(2).oldValue, QJsonValue(QJsonArray{1}));
    }

    void atMostTheLimitIsListedAndTheRestCounted()
    {
        QJsonObject a, b;
        for (int i = 0; i < 50; ++i) {
            a.insert(u"k"_s + QString::number(i).rightJustified(2, u'0'), i);
            b.insert(u"k"_s + QString::number(i).rightJustified(2, u'0'), i + 1);
        }
        const JsonDiff::Result r = JsonDiff::compare(a, b, {.maxDifferences = 10, .maxDepth = 64});
        QCOMPARE(r.differences.size(), 10);
        QCOMPARE(r.total, 50);
        QCOMPARE(r.omitted(), 40);
        QCOMPARE(r.differences.first().pointer, u"/k00"_s);
        QCOMPARE(r.differences.last().pointer, u"/k09"_s);
    }

    void aSubtreeBelowTheDepthLimitIsComparedWhole()
    {
        // 10 levels of {"n": ...} with the leaf changed; a limit of 3 reports /n/n/n whole.
        QJsonValue a = 1, b = 2;
        for (int i = 0; i < 10; ++i) {
            a = QJsonObject{{"n"_L1, a}};
            b = QJsonObject{{"n"_L1, b}};
        }
        const JsonDiff::Result limited =
            JsonDiff::compare(a, b, {.maxDifferences = 5, .maxDepth = 3});
        QCOMPARE(listed(limited), QStringList{u"/n/n/n changed"_s});
        QVERIFY(limited.depthLimited);
        const JsonDiff::Result full = JsonDiff::compare(a, b);
        QCOMPARE(full.differences.first().pointer, u"/n/n/n/n/n/n/n/n/n/n"_s);
        QVERIFY(!full.depthLimited);
        // An equal deep subtree is no difference, limit or not.
        QVERIFY(JsonDiff::compare(a, a, {.maxDifferences = 5, .maxDepth = 3}).identical());
    }

    void longScalarArraysFallBackToIndexOrder()
    {
        // Past MaxAlignmentCells the arrays are compared by index: an element put in at the
        // front shifts every one after it.
        QJsonArray a, b{-1};
        for (int i = 0; i < 1200; ++i) {
            a.append(i);
            b.append(i);
        }
        const JsonDiff::Result r = JsonDiff::compare(a, b, {.maxDifferences = 3, .maxDepth = 64});
        QCOMPARE(r.total, 1201);
        QCOMPARE(r.differences.first().pointer, u"/0"_s);
        QCOMPARE(r.differences.first().kind, JsonDifference::Kind::Changed);
    }
};

QTEST_APPLESS_MAIN(TestJsonDiff)
#include "tst_jsondiff.moc"
