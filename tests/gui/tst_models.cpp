// SPDX-License-Identifier: MIT
// The window's list models, each under QAbstractItemModelTester while it changes.
#include "application/history/historymodel.h"
#include "application/servers/serverlistmodel.h"
#include "application/tools/jsonlistmodel.h"
#include "application/tools/toollistmodel.h"

#include <QAbstractItemModelTester>
#include <QJsonDocument>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

#define JSON_TEXT(...) #__VA_ARGS__

static QJsonArray array(const char *json)
{
    return QJsonDocument::fromJson(json).array();
}

// The history as the snapshot carries it: typed, read from the transcript's JSON form.
static QList<Sonde::HistoryEvent> historyOf(const QJsonArray &events)
{
    QList<Sonde::HistoryEvent> out;
    for (const QJsonValue &e : events)
        out.append(Sonde::HistoryEvent::fromJson(e.toObject()));
    return out;
}

class TestModels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // A modern connection says so in the list, its tooltip (with why) and the status line;
    // a legacy one keeps its words.
    void theServerListSaysWhichEraAServerSpeaks()
    {
        ServerStore store;
        ServerListModel model(&store);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        ServerConfig c;
        c.name = u"v2"_s;
        c.route = ServerConfig::Route::StreamableHttp;
        c.url = QUrl(u"http://127.0.0.1:3001/mcp"_s);
        store.addServer(c);
        SessionSnapshot s;
        s.server = u"v2"_s;
        s.state = SessionSnapshot::State::Ready;
        s.route = ServerConfig::Route::StreamableHttp;
        s.generation = 1;
        s.era = ServerConfig::Era::Rev20260728;
        s.sessionless = true;
        s.eraReason = u"server/discover offered 2026-07-28"_s;
        s.protocolVersion = u"2026-07-28"_s;
        store.updateSnapshot(s);
        const QModelIndex i = model.index(0);
        QCOMPARE(i.data(ServerListModel::EraRole).toString(), u"2026-07-28"_s);
        QCOMPARE(i.data().toString(), u"v2\nready · streamable-http · 2026-07-28 · gen 1"_s);
        QVERIFY(i.data(Qt::ToolTipRole)
                    .toString()
                    .contains(u"Protocol era: 2026-07-28 — server/discover offered 2026-07-28"_s));
        QCOMPARE(ServerListModel::summary(s),
                 u"connected over 2026-07-28 (no session), generation 1"_s);

        s.era = ServerConfig::Era::Initialize;
        s.sessionless = false;
        s.eraReason = u"configured"_s;
        s.protocolVersion = u"2025-11-25"_s;
        store.updateSnapshot(s);
        QCOMPARE(i.data().toString(), u"v2\nready · streamable-http · gen 1"_s);
        QVERIFY(i.data(Qt::ToolTipRole)
                    .toString()
                    .contains(u"Protocol era: initialize — configured"_s));
        QCOMPARE(ServerListModel::summary(s), u"connected, generation 1"_s);
    }

    void theServerListFollowsItsStore()
    {
        ServerStore store;
        ServerListModel model(&store);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        ServerConfig a;
        a.name = u"a"_s;
        a.program = u"/bin/a"_s;
        ServerConfig b = a;
        b.name = u"b"_s;
        store.addServer(a);
        store.addServer(b);
        QCOMPARE(model.rowCount(), 2);
        SessionSnapshot s;
        s.server = u"b"_s;
        s.state = SessionSnapshot::State::Ready;
        s.route = ServerConfig::Route::Stdio;
        s.generation = 3;
        s.recovery = RecoveryState{};
        s.recovery->breaker.phase = BreakerPhase::Open;
        store.updateSnapshot(s);
        const QModelIndex ib = model.index(1);
        QCOMPARE(ib.data(ServerListModel::GenerationRole).toInt(), 3);
        QCOMPARE(ib.data(ServerListModel::BreakerRole).toString(), u"open"_s);
        QVERIFY(ib.data().toString().contains(u"breaker open"_s));
        // Ready but refusing every call: not the healthy green dot.
        QCOMPARE(ib.data(Qt::DecorationRole).value<QColor>(), ServerListModel::breakerColor());
        QCOMPARE(ServerListModel::summary(s), u"connected, generation 3, breaker open"_s);
        // The built-in HTTP demo's mark stays with its server while its config is replaced.
        store.setBuiltInHttpDemo(u"b"_s, true);
        store.addServer(b);
        QVERIFY(store.isBuiltInHttpDemo(1));
        QCOMPARE(store.builtInHttpDemos(), QStringList{u"b"_s});
        // Reordered by the user: the rows move, and the store keeps the order.
        QVERIFY(store.moveServer(1, 0));
        QCOMPARE(store.names(), (QStringList{u"b"_s, u"a"_s}));
        QCOMPARE(model.index(0).data(ServerListModel::NameRole).toString(), u"b"_s);
        QVERIFY(store.moveServer(0, 1));
        // A drag in the list: Qt's destination is the row it goes before.
        QVERIFY(model.flags(model.index(0)) & Qt::ItemIsDragEnabled);
        QVERIFY(model.moveRow({}, 0, {}, 2));
        QCOMPARE(store.names(), (QStringList{u"b"_s, u"a"_s}));
        QVERIFY(model.moveRow({}, 1, {}, 0));
        QCOMPARE(store.names(), (QStringList{u"a"_s, u"b"_s}));
        QVERIFY(!model.moveRow({}, 0, {}, 1)); // before itself: no move
        QVERIFY(!store.moveServer(1, 2));
        QVERIFY(!store.moveServer(0, 0));
        QCOMPARE(store.names(), (QStringList{u"a"_s, u"b"_s}));
        store.removeServer(u"a"_s);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0).data(ServerListModel::NameRole).toString(), u"b"_s);
        QCOMPARE(store.builtInHttpDemos(), QStringList{u"b"_s});
        store.removeServer(u"b"_s);
        QVERIFY(store.builtInHttpDemos().isEmpty());
        store.addServer(b);
        QVERIFY(!store.isBuiltInHttpDemo(0)); // a new server under the name is not the demo
    }

    void anOpenBreakersRowNamesItsCause()
    {
        ServerStore store;
        ServerListModel model(&store);
        ServerConfig a;
        a.name = u"a"_s;
        a.program = u"/bin/a"_s;
        store.addServer(a);
        SessionSnapshot s;
        s.server = u"a"_s;
        s.state = SessionSnapshot::State::Ready;
        s.generation = 1;
        s.recovery = RecoveryState{};
        s.recovery->breaker.phase = BreakerPhase::Open;
        s.recovery->breaker.retryInS = 30;
        s.recovery->breaker.strikes = 3;
        // The history keeps only its newest entries: the cause must not depend on the
        // breaker's transition still being among them (here it is not there at all).
        s.recovery->history = {};
        store.updateSnapshot(s);
        QString tip = model.index(0).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(u"after 3 consecutive failures"_s), qPrintable(tip));
        s.recovery->breaker.trippedBy = u"user"_s;
        store.updateSnapshot(s);
        tip = model.index(0).data(Qt::ToolTipRole).toString();
        // The row's words first (a narrow list cuts them), then the command.
        QVERIFY2(tip.startsWith(model.index(0).data().toString() + u"\n/bin/a"_s), qPrintable(tip));
        QVERIFY2(tip.contains(u"tripped by hand (user)"_s), qPrintable(tip));
        QVERIFY2(tip.contains(u"retry in 30 s"_s), qPrintable(tip));
        QCOMPARE(model.index(0).data(ServerListModel::BreakerCauseRole).toString(),
                 u"tripped by hand (user)"_s);
        s.recovery->breaker.phase = BreakerPhase::Closed;
        store.updateSnapshot(s);
        QVERIFY(!model.index(0).data(Qt::ToolTipRole).toString().contains(u"breaker"_s));
        QCOMPARE(model.index(0).data(Qt::DecorationRole).value<QColor>(),
                 ServerListModel::stateColor(SessionSnapshot::State::Ready));
    }

    void theServerStateShowsReconnectingAndParked_data()
    {
        QTest::addColumn<QJsonObject>("reconnect");
        QTest::addColumn<QString>("state");
        QTest::newRow("a reconnect in progress")
            << QJsonObject{{"in_progress"_L1, true}} << u"reconnecting"_s;
        QTest::newRow("parked after five failures")
            << QJsonObject{{"parked"_L1, true}} << u"parked"_s;
        QTest::newRow("neither: the session state") << QJsonObject{} << u"failed"_s;
    }
    void theServerStateShowsReconnectingAndParked()
    {
        QFETCH(QJsonObject, reconnect);
        QFETCH(QString, state);
        ServerStore store;
        ServerListModel model(&store);
        ServerConfig a;
        a.name = u"a"_s;
        store.addServer(a);
        SessionSnapshot s;
        s.server = u"a"_s;
        s.state = SessionSnapshot::State::Failed;
        s.recovery = RecoveryState{};
        s.recovery->reconnect = ReconnectState::fromJson(reconnect);
        store.updateSnapshot(s);
        QCOMPARE(model.index(0).data(ServerListModel::StateRole).toString(), state);
        // The window's title and toolbar say the same.
        QCOMPARE(ServerListModel::summary(s), state);
    }

    void historyRowsAreAppendedOrReset()
    {
        HistoryModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QJsonArray first = array(JSON_TEXT([
            {"type" : "session-start", "t_ms" : 1000, "generation" : 1}, {
                "type" : "reconnect",
                "t_ms" : 2000,
                "trigger" : "session expired (http-404-with-session)",
                "from_generation" : 1,
                "to_generation" : 2,
                "duration_ms" : 12,
                "outcome" : "ok"
            }
        ]));
        model.setHistory(historyOf(first));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(1, HistoryModel::Generation).data().toString(), u"1 → 2"_s);
        QCOMPARE(model.index(1, HistoryModel::Duration).data().toString(), u"12 ms"_s);
        QVERIFY(model.index(1, HistoryModel::What)
                    .data()
                    .toString()
                    .contains(u"http-404-with-session"_s));
        QJsonArray more = first;
        more.append(QJsonObject{{"type"_L1, "breaker"_L1},
                                {"t_ms"_L1, 3000},
                                {"from"_L1, "closed"_L1},
                                {"to"_L1, "open"_L1},
                                {"strikes"_L1, 3},
                                {"threshold"_L1, 3}});
        model.setHistory(historyOf(more));
        QCOMPARE(model.rowCount(), 3);
        QVERIFY(model.index(2, HistoryModel::What)
                    .data()
                    .toString()
                    .startsWith(u"closed → open (3/3)"_s));
        QVERIFY(model.index(2, HistoryModel::Event).data(Qt::ForegroundRole).isValid());
        model.setHistory(historyOf(
            array(JSON_TEXT([ {"type" : "session-start", "t_ms" : 9000, "generation" : 7} ]))));
        QCOMPARE(model.rowCount(), 1);
    }

    void toolsShowBadgesAndTheReplayVerdictWithItsSource_data()
    {
        QTest::addColumn<QJsonObject>("annotations");
        QTest::addColumn<QStringList>("badges");
        QTest::addColumn<bool>("replay");
        QTest::addColumn<QString>("source");
        QTest::newRow("a read-only tool")
            << QJsonObject{{"readOnlyHint"_L1, true}, {"openWorldHint"_L1, false}}
            << QStringList{u"read-only"_s} << true << u"server hint"_s;
        QTest::newRow("a destructive idempotent tool")
            << QJsonObject{{"readOnlyHint"_L1, false}, {"idempotentHint"_L1, true}}
            << QStringList{u"destructive"_s, u"idempotent"_s, u"open-world"_s} << false
            << u"server hint"_s;
        QTest::newRow("a non-destructive write")
            << QJsonObject{{"readOnlyHint"_L1, false},
                           {"destructiveHint"_L1, false},
                           {"openWorldHint"_L1, false}}
            << QStringList{u"write"_s} << false << u"server hint"_s;
        QTest::newRow("an unannotated tool takes the spec's defaults")
            << QJsonObject{} << QStringList{u"destructive"_s, u"open-world"_s} << false
            << u"default"_s;
    }
    void toolsShowBadgesAndTheReplayVerdictWithItsSource()
    {
        QFETCH(QJsonObject, annotations);
        QFETCH(QStringList, badges);
        QFETCH(bool, replay);
        QFETCH(QString, source);
        ToolListModel model;
        QJsonObject tool{{"name"_L1, "t"_L1}};
        if (!annotations.isEmpty())
            tool.insert("annotations"_L1, annotations);
        model.setTools(QJsonArray{tool});
        const QModelIndex i = model.index(0);
        QCOMPARE(i.data(ToolListModel::BadgesRole).toStringList(), badges);
        QCOMPARE(i.data(ToolListModel::VerdictRole).toBool(), replay);
        QCOMPARE(i.data(ToolListModel::VerdictSourceRole).toString(), source);
    }

    void aUserOverrideChangesTheVerdictAndItsSource()
    {
        ToolListModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTools(array(JSON_TEXT(
            [ {"name" : "write"}, {"name" : "read", "annotations" : {"readOnlyHint" : true}} ])));
        model.setOverride(u"write"_s, true);
        QVERIFY(model.index(0).data(ToolListModel::VerdictRole).toBool());
        QCOMPARE(model.index(0).data(ToolListModel::VerdictSourceRole).toString(),
                 u"user override"_s);
        model.setOverride(u"write"_s, std::nullopt);
        QVERIFY(!model.index(0).data(ToolListModel::VerdictRole).toBool());
    }

    void jsonListsShowTheirKeyAndKeepTheObject()
    {
        JsonListModel model(u"uri"_s);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setItems(array(JSON_TEXT([
            {"uri" : "demo://a"}, {"uri" : "demo://b", "name" : "bee", "description" : "the b"}
        ])));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0).data().toString(), u"demo://a"_s);
        QCOMPARE(model.index(1).data().toString(), u"bee — demo://b"_s);
        QCOMPARE(model.index(1).data(Qt::ToolTipRole).toString(), u"the b"_s);
        QCOMPARE(model.index(1)
                     .data(JsonListModel::ObjectRole)
                     .toJsonObject()
                     .value("uri"_L1)
                     .toString(),
                 u"demo://b"_s);
        model.setItems({});
        QCOMPARE(model.rowCount(), 0);
    }

    void theToolSearchFiltersByName()
    {
        ToolListModel model;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTools(array(JSON_TEXT(
            [ {"name" : "get-counter"}, {"name" : "increment-counter"}, {"name" : "echo"} ])));
        proxy.setFilterFixedString(u"COUNTER"_s);
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setFilterFixedString(u"ech"_s);
        QCOMPARE(proxy.rowCount(), 1);
        QCOMPARE(proxy.index(0, 0).data(ToolListModel::NameRole).toString(), u"echo"_s);
    }
};

QTEST_GUILESS_MAIN(TestModels)
#include "tst_models.moc"
