// SPDX-License-Identifier: MIT
#include "session/listfetcher.h"

#include <QJsonArray>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

using Step = ListFetcher::Step;

namespace {

// A page of `count` tools named from `first`, pointing at `next` (none when empty).
QJsonObject page(int first, int count, const QString &next = {})
{
    QJsonArray tools;
    for (int i = first; i < first + count; ++i)
        tools.append(QJsonObject{{"name"_L1, u"t%1"_s.arg(i)}});
    QJsonObject p{{"tools"_L1, tools}};
    if (!next.isEmpty())
        p.insert("nextCursor"_L1, next);
    return p;
}

} // namespace

class TestListFetcher : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void followsCursorsToTheLastPage()
    {
        ListFetcher f(u"tools/list"_s, u"tools/list"_s, {{"x"_L1, 1}}, true, {});
        QCOMPARE(f.pageParams(), (QJsonObject{{"x"_L1, 1}}));
        QCOMPARE(f.addPage(page(0, 2, u"c1"_s)), Step::NextPage);
        QCOMPARE(f.pageParams(), (QJsonObject{{"x"_L1, 1}, {"cursor"_L1, "c1"_L1}}));
        QCOMPARE(f.addPage(page(2, 2, u"c2"_s)), Step::NextPage);
        QCOMPARE(f.pageParams().value("cursor"_L1).toString(), u"c2"_s);
        QCOMPARE(f.addPage(page(4, 1)), Step::Done);
        QCOMPARE(f.items().size(), 5);
        QCOMPARE(f.items().at(4).toObject().value("name"_L1).toString(), u"t4"_s);
        QCOMPARE(f.pages(), 3);
        const QJsonObject r = f.result();
        QCOMPARE(r.value("tools"_L1).toArray().size(), 5);
        QCOMPARE(r.value("pages"_L1).toInt(), 3);
        QVERIFY(!r.contains("nextCursor"_L1));
        QVERIFY(!f.error().isError());
    }

    void onePageAskedForHandsBackItsCursor()
    {
        ListFetcher f(u"tools/list"_s, u"tools/list"_s, {}, false, {});
        QCOMPARE(f.addPage(page(0, 2, u"c1"_s)), Step::Done);
        QCOMPARE(f.result().value("nextCursor"_L1).toString(), u"c1"_s);
        QCOMPARE(f.result().value("pages"_L1).toInt(), 1);
    }

    void theListKeyFollowsTheMethod()
    {
        ListFetcher f(u"resources/templates/list"_s, u"x"_s, {}, true, {});
        QCOMPARE(f.addPage({{"resourceTemplates"_L1, QJsonArray{1, 2}}}), Step::Done);
        QCOMPARE(f.items().size(), 2);
        QVERIFY(f.result().contains("resourceTemplates"_L1));
    }

    void aMisbehavingServerIsStopped_data()
    {
        QTest::addColumn<QList<QJsonObject>>("pages");
        QTest::addColumn<int>("maxPages");
        QTest::addColumn<int>("maxItems");
        QTest::addColumn<int>("kept");
        QTest::addColumn<QString>("error");
        QTest::newRow("a server that repeats the cursor it was given")
            << QList<QJsonObject>{page(0, 1, u"same"_s), page(1, 1, u"same"_s)} << 10'000 << -1 << 2
            << u"tools/list refresh: the server repeated cursor \"same\" (or sent over 10000 "
               u"pages); stopped following it"_s;
        QTest::newRow("a server that goes back to an earlier cursor")
            << QList<QJsonObject>{page(0, 1, u"a"_s), page(1, 1, u"b"_s), page(2, 1, u"a"_s)}
            << 10'000 << -1 << 3 << u"the server repeated cursor \"a\""_s;
        QTest::newRow("a server with more pages than the limit")
            << QList<QJsonObject>{page(0, 1, u"a"_s), page(1, 1, u"b"_s), page(2, 1, u"c"_s)} << 3
            << -1 << 3 << u"or sent over 3 pages"_s;
        QTest::newRow("a server with more items than the limit")
            << QList<QJsonObject>{page(0, 3, u"a"_s), page(3, 3, u"b"_s)} << 10'000 << 5 << 6
            << u"tools/list refresh: the server sent over 5 items; stopped following nextCursor"_s;
        QTest::newRow("a page whose list is not an array")
            << QList<QJsonObject>{page(0, 1, u"a"_s), QJsonObject{{"tools"_L1, "no"_L1}}} << 10'000
            << -1 << 1 << u"tools/list refresh answer: \"tools\" is not an array"_s;
    }
    void aMisbehavingServerIsStopped()
    {
        QFETCH(QList<QJsonObject>, pages);
        QFETCH(int, maxPages);
        QFETCH(int, maxItems);
        QFETCH(int, kept);
        QFETCH(QString, error);
        ListFetcher f(u"tools/list"_s, u"tools/list refresh"_s, {}, true, {maxPages, maxItems});
        Step step = Step::NextPage;
        for (const QJsonObject &p : std::as_const(pages)) {
            QCOMPARE(step, Step::NextPage);
            step = f.addPage(p);
        }
        QCOMPARE(step, Step::Stopped);
        QCOMPARE(f.error().kind(), Error::Kind::Protocol);
        QVERIFY2(f.error().message().contains(error), qPrintable(f.error().message()));
        QCOMPARE(f.items().size(), kept);
    }

    void aServerThatNeverEndsIsStoppedAtThePageLimit()
    {
        ListFetcher f(u"prompts/list"_s, u"prompts/list"_s, {}, true, {});
        int sent = 1;
        Step step = f.addPage({{"prompts"_L1, QJsonArray{}}, {"nextCursor"_L1, "c1"_L1}});
        while (step == Step::NextPage && sent < 20'000)
            step =
                f.addPage({{"prompts"_L1, QJsonArray{}}, {"nextCursor"_L1, u"c%1"_s.arg(++sent)}});
        QCOMPARE(step, Step::Stopped);
        QCOMPARE(sent, 10'000);
    }
};

QTEST_APPLESS_MAIN(TestListFetcher)
#include "tst_listfetcher.moc"
