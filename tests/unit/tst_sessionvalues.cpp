// SPDX-License-Identifier: MIT
// The 2026-07-28 parts of the session snapshot as values: the listen stream's status and the
// caching hints are written as the snapshot has always written them (the CLI's info, the
// transcript), tell each member apart, and a hint says when its list has gone stale.
#include "values/sessionvalues.h"

#include "jsontestdata.h"
#include <QJsonArray>

#include <QJsonDocument>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(Sonde::ListenStatus)
Q_DECLARE_METATYPE(Sonde::ListenStatus::State)
Q_DECLARE_METATYPE(Sonde::CacheHint)

namespace {

using JsonTestData::compact;
using JsonTestData::object;
using JsonTestData::text;

using State = ListenStatus::State;

} // namespace

class TestSessionValues : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aListenStatusIsWrittenAsTheSnapshotsSubscriptions_data()
    {
        QTest::addColumn<ListenStatus>("status");
        QTest::addColumn<QByteArray>("json");
        const QJsonObject asked = object(JSON_TEXT({
            "promptsListChanged" : true,
            "resourceSubscriptions" : [ "demo://a", "demo://b" ],
            "toolsListChanged" : true
        }));
        QTest::newRow("a stream with nothing to hear is written as its state alone")
            << ListenStatus{} << text(JSON_TEXT({"state" : "none"}));
        QTest::newRow("an open stream is written with its id and what it asked for")
            << ListenStatus{.state = State::Open, .id = 7, .requested = asked} << text(JSON_TEXT({
                   "id" : 7,
                   "requested" : {
                       "promptsListChanged" : true,
                       "resourceSubscriptions" : [ "demo://a", "demo://b" ],
                       "toolsListChanged" : true
                   },
                   "state" : "open"
               }));
        QTest::newRow("an acknowledged stream names what was asked for and not granted")
            << ListenStatus{.state = State::Acknowledged,
                            .id = u"listen-1"_s,
                            .requested = asked,
                            .granted = object(JSON_TEXT({
                                "resourceSubscriptions" : ["demo://a"],
                                "toolsListChanged" : true
                            }))}
            << text(JSON_TEXT({
                   "granted" : {"resourceSubscriptions" : ["demo://a"], "toolsListChanged" : true},
                   "id" : "listen-1",
                   "not_granted" : [ "promptsListChanged", "demo://b" ],
                   "requested" : {
                       "promptsListChanged" : true,
                       "resourceSubscriptions" : [ "demo://a", "demo://b" ],
                       "toolsListChanged" : true
                   },
                   "state" : "acknowledged"
               }));
        QTest::newRow("a stream granted all it asked for names nothing not granted")
            << ListenStatus{.state = State::Acknowledged,
                            .id = 7,
                            .requested = asked,
                            .granted = asked}
            << text(JSON_TEXT({
                   "granted" : {
                       "promptsListChanged" : true,
                       "resourceSubscriptions" : [ "demo://a", "demo://b" ],
                       "toolsListChanged" : true
                   },
                   "id" : 7,
                   "requested" : {
                       "promptsListChanged" : true,
                       "resourceSubscriptions" : [ "demo://a", "demo://b" ],
                       "toolsListChanged" : true
                   },
                   "state" : "acknowledged"
               }));
        QTest::newRow("a dropped stream says why and no longer shows an earlier grant")
            << ListenStatus{.state = State::Dropped,
                            .requested = object(JSON_TEXT({"toolsListChanged" : true})),
                            .granted = object(JSON_TEXT({"toolsListChanged" : true})),
                            .reason = u"stream reset"_s}
            << text(JSON_TEXT({
                   "reason" : "stream reset",
                   "requested" : {"toolsListChanged" : true},
                   "state" : "dropped"
               }));
        QTest::newRow("a stream the server ended is written as ended")
            << ListenStatus{.state = State::Ended, .reason = u"the server ended it"_s}
            << text(JSON_TEXT({"reason" : "the server ended it", "state" : "ended"}));
        QTest::newRow("a refused stream is written as refused, with the error")
            << ListenStatus{.state = State::Refused, .reason = u"Method not found"_s}
            << text(JSON_TEXT({"reason" : "Method not found", "state" : "refused"}));
    }
    void aListenStatusIsWrittenAsTheSnapshotsSubscriptions()
    {
        QFETCH(ListenStatus, status);
        QFETCH(QByteArray, json);
        QCOMPARE(compact(status.toJson()), json);
    }

    void twoListenStatusesAreEqualOnlyWhenEveryMemberIs_data()
    {
        QTest::addColumn<ListenStatus>("other");
        const ListenStatus base{.state = State::Acknowledged,
                                .id = 7,
                                .requested = object(JSON_TEXT({"toolsListChanged" : true})),
                                .granted = object(JSON_TEXT({"toolsListChanged" : true})),
                                .reason = u"why"_s};
        ListenStatus s = base;
        s.state = State::Open;
        QTest::newRow("another state is another status") << s;
        s = base;
        s.id = 8;
        QTest::newRow("another id is another status") << s;
        s = base;
        s.id = u"7"_s;
        QTest::newRow("the same id as a string is another status") << s;
        s = base;
        s.id = QJsonValue(QJsonValue::Undefined);
        QTest::newRow("no open stream is another status") << s;
        s = base;
        s.requested = {};
        QTest::newRow("another request is another status") << s;
        s = base;
        s.granted = {};
        QTest::newRow("another grant is another status") << s;
        s = base;
        s.reason.clear();
        QTest::newRow("another reason is another status") << s;
    }
    void twoListenStatusesAreEqualOnlyWhenEveryMemberIs()
    {
        QFETCH(ListenStatus, other);
        const ListenStatus base{.state = State::Acknowledged,
                                .id = 7,
                                .requested = object(JSON_TEXT({"toolsListChanged" : true})),
                                .granted = object(JSON_TEXT({"toolsListChanged" : true})),
                                .reason = u"why"_s};
        QVERIFY(base == ListenStatus(base));
        QVERIFY(!(base == other));
    }

    void everyListenStateHasItsName_data()
    {
        QTest::addColumn<ListenStatus::State>("state");
        QTest::addColumn<QString>("name");
        QTest::newRow("nothing to hear is none") << State::None << u"none"_s;
        QTest::newRow("sent and not acknowledged is open") << State::Open << u"open"_s;
        QTest::newRow("acknowledged is acknowledged") << State::Acknowledged << u"acknowledged"_s;
        QTest::newRow("closed by the server is ended") << State::Ended << u"ended"_s;
        QTest::newRow("broken without an answer is dropped") << State::Dropped << u"dropped"_s;
        QTest::newRow("refused by the server is refused") << State::Refused << u"refused"_s;
    }
    void everyListenStateHasItsName()
    {
        QFETCH(ListenStatus::State, state);
        QFETCH(QString, name);
        QCOMPARE(ListenStatus::stateName(state), name);
    }

    void aCacheHintIsWrittenAsTheSnapshotsCacheHints_data()
    {
        QTest::addColumn<CacheHint>("hint");
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("a hint with a time to live and a scope has both")
            << CacheHint{.fetchedMs = 1000, .ttlMs = 60000, .cacheScope = u"private"_s}
            << text(JSON_TEXT({"cache_scope" : "private", "fetched_ms" : 1000, "ttl_ms" : 60000}));
        QTest::newRow("a time to live of zero is written as zero")
            << CacheHint{.fetchedMs = 1000, .ttlMs = 0}
            << text(JSON_TEXT({"fetched_ms" : 1000, "ttl_ms" : 0}));
        QTest::newRow("a hint with a scope alone has no ttl_ms")
            << CacheHint{.fetchedMs = 1000, .cacheScope = u"public"_s}
            << text(JSON_TEXT({"cache_scope" : "public", "fetched_ms" : 1000}));
    }
    void aCacheHintIsWrittenAsTheSnapshotsCacheHints()
    {
        QFETCH(CacheHint, hint);
        QFETCH(QByteArray, json);
        QCOMPARE(compact(hint.toJson()), json);
        QVERIFY(hint == CacheHint(hint));
    }

    void theHintsAreWrittenByMethod()
    {
        const CacheHints hints{
            {u"tools/list"_s, CacheHint{.fetchedMs = 5, .ttlMs = 10}},
            {u"server/discover"_s, CacheHint{.fetchedMs = 6, .cacheScope = u"public"_s}}};
        QCOMPARE(compact(cacheHintsToJson(hints)), text(JSON_TEXT({
                     "server/discover" : {"cache_scope" : "public", "fetched_ms" : 6},
                     "tools/list" : {"fetched_ms" : 5, "ttl_ms" : 10}
                 })));
        QVERIFY(cacheHintsToJson({}).isEmpty());
    }

    void aHintSaysWhenItsListHasGoneStale_data()
    {
        QTest::addColumn<CacheHint>("hint");
        QTest::addColumn<qint64>("now");
        QTest::addColumn<bool>("stale");
        const CacheHint minute{.fetchedMs = 1000, .ttlMs = 60000};
        QTest::newRow("a list within its time to live is fresh")
            << minute << qint64(61000) << false;
        QTest::newRow("a list past its time to live is stale") << minute << qint64(61001) << true;
        QTest::newRow("a time to live of zero is stale a moment later")
            << CacheHint{.fetchedMs = 1000, .ttlMs = 0} << qint64(1001) << true;
        QTest::newRow("a hint without a time to live never goes stale")
            << CacheHint{.fetchedMs = 1000, .cacheScope = u"private"_s} << qint64(1'000'000'000)
            << false;
    }
    void aHintSaysWhenItsListHasGoneStale()
    {
        QFETCH(CacheHint, hint);
        QFETCH(qint64, now);
        QFETCH(bool, stale);
        QCOMPARE(hint.isStaleAt(now), stale);
    }

    void twoHintsAreEqualOnlyWhenEveryMemberIs()
    {
        const CacheHint base{.fetchedMs = 1, .ttlMs = 2, .cacheScope = u"private"_s};
        CacheHint other = base;
        other.fetchedMs = 9;
        QVERIFY(!(base == other));
        other = base;
        other.ttlMs.reset();
        QVERIFY(!(base == other));
        other = base;
        other.cacheScope = u"public"_s;
        QVERIFY(!(base == other));
        QVERIFY(base == CacheHint(base));
    }
};

QTEST_GUILESS_MAIN(TestSessionValues)
#include "tst_sessionvalues.moc"
