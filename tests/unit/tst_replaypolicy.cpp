// SPDX-License-Identifier: MIT
// What may be sent again after a session died: the reference suite's read-only vs
// write-capable cases, its "unannotated tool fails safe" case, and the user override.
#include "recovery/reconnectpolicy.h"
#include "recovery/replaypolicy.h"

#include <QJsonDocument>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

#define JSON_TEXT(...) #__VA_ARGS__

static QJsonObject tool(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

class TestReplayPolicy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void decidesToolCalls_data()
    {
        QTest::addColumn<QJsonObject>("tool");
        QTest::addColumn<bool>("replay");
        QTest::addColumn<QString>("source");
        QTest::newRow("readOnlyHint true is replayed")
            << tool(JSON_TEXT({"name" : "t", "annotations" : {"readOnlyHint" : true}})) << true
            << u"server hint"_s;
        QTest::newRow("readOnlyHint false is not")
            << tool(JSON_TEXT({"name" : "t", "annotations" : {"readOnlyHint" : false}})) << false
            << u"server hint"_s;
        QTest::newRow("an unannotated tool fails safe")
            << tool(JSON_TEXT({"name" : "t"})) << false << u"default"_s;
        QTest::newRow("annotations without readOnlyHint fail safe")
            << tool(JSON_TEXT({"name" : "t", "annotations" : {"idempotentHint" : true}})) << false
            << u"default"_s;
        QTest::newRow("the string \"true\" is not the boolean true")
            << tool(JSON_TEXT({"name" : "t", "annotations" : {"readOnlyHint" : "true"}})) << false
            << u"default"_s;
        QTest::newRow("null is not true")
            << tool(JSON_TEXT({"name" : "t", "annotations" : {"readOnlyHint" : null}})) << false
            << u"default"_s;
        QTest::newRow("1 is not true")
            << tool(JSON_TEXT({"name" : "t", "annotations" : {"readOnlyHint" : 1}})) << false
            << u"default"_s;
        QTest::newRow("a tool missing from the list fails safe")
            << QJsonObject() << false << u"default"_s;
    }
    void decidesToolCalls()
    {
        QFETCH(QJsonObject, tool);
        QFETCH(bool, replay);
        QFETCH(QString, source);
        const auto v = ReplayPolicy().verdict(u"tools/call"_s, u"t"_s, tool);
        QCOMPARE(v.replay, replay);
        QCOMPARE(ReplayPolicy::sourceName(v.source), source);
        QVERIFY(!v.reason.isEmpty());
    }

    void theUsersOverrideWinsEitherWay()
    {
        ReplayPolicy p;
        p.setOverride(u"t"_s, false);
        auto v = p.verdict(u"tools/call"_s, u"t"_s,
                           tool(JSON_TEXT({"annotations" : {"readOnlyHint" : true}})));
        QVERIFY(!v.replay);
        QCOMPARE(v.source, ReplayPolicy::Source::UserOverride);
        p.setOverride(u"t"_s, true);
        v = p.verdict(u"tools/call"_s, u"t"_s, tool(JSON_TEXT({"name" : "t"})));
        QVERIFY(v.replay);
        QCOMPARE(v.source, ReplayPolicy::Source::UserOverride);
        p.clearOverride(u"t"_s);
        QVERIFY(!p.verdict(u"tools/call"_s, u"t"_s, tool(JSON_TEXT({"name" : "t"}))).replay);
    }

    void everyReadMethodIsReplayedOnce_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<bool>("replay");
        for (const char *m :
             {"resources/list", "resources/read", "prompts/list", "prompts/get", "tools/list",
              "resources/templates/list", "completion/complete", "ping"})
            QTest::newRow(qPrintable(QString::fromLatin1(m) + u" only reads"_s))
                << QString::fromLatin1(m) << true;
        QTest::newRow("resources/subscribe is not replayed") << u"resources/subscribe"_s << false;
        QTest::newRow("logging/setLevel is not replayed") << u"logging/setLevel"_s << false;
    }
    void everyReadMethodIsReplayedOnce()
    {
        QFETCH(QString, method);
        QFETCH(bool, replay);
        QCOMPARE(ReplayPolicy().verdict(method, {}, {}).replay, replay);
    }

    void backoffDoublesFromOneSecondToSixtyWithJitter_data()
    {
        QTest::addColumn<double>("random");
        QTest::addColumn<QList<qint64>>("delays");
        QTest::newRow("no jitter (random 0.5)")
            << 0.5 << QList<qint64>{1000, 2000, 4000, 8000, 16000};
        QTest::newRow("lowest jitter is -20 %")
            << 0.0 << QList<qint64>{800, 1600, 3200, 6400, 12800};
        QTest::newRow("highest jitter approaches +20 %")
            << 0.999999 << QList<qint64>{1200, 2400, 4800, 9600, 19200};
    }
    void backoffDoublesFromOneSecondToSixtyWithJitter()
    {
        QFETCH(double, random);
        QFETCH(QList<qint64>, delays);
        ReconnectPolicy p({}, [random] { return random; });
        for (qint64 expected : delays) {
            QCOMPARE(p.nextDelayMs(), expected);
            p.recordFailure();
        }
        QVERIFY(p.parked());
        QCOMPARE(p.nextDelayMs(), 300'000); // parked: probe every 300 s
        p.recordSuccess();
        QVERIFY(!p.parked());
        QCOMPARE(p.nextDelayMs(), delays.first());
    }

    void theDelayIsCappedAtSixtySeconds()
    {
        ReconnectPolicy p({1000, 60'000, 0.2, 100, 300'000}, [] { return 0.5; });
        for (int i = 0; i < 40; ++i)
            p.recordFailure();
        QCOMPARE(p.nextDelayMs(), 60'000);
    }
};

QTEST_APPLESS_MAIN(TestReplayPolicy)
#include "tst_replaypolicy.moc"
