// SPDX-License-Identifier: MIT
// The Tools tab as a user meets it: the list (a count, the title with the name under it, the
// description on hover, a search over all three, no name cut off), the form's values of every
// kind kept per server and per tool, the tab order, the answer opening on a tab that has
// something in it, and the banner of an open breaker in the real window.
#include "application/servers/serverstore.h"
#include "application/servers/serverviewstore.h"
#include "application/tools/toollistmodel.h"
#include "demowindow.h"
#include "jsontestdata.h"
#include "servers/breakerbanner.h"
#include "servers/healthpanel.h"
#include "showntoolspanel.h"
#include "tools/schemaformwidget.h"
#include "tools/toolspanel.h"

#include <QAbstractItemDelegate>
#include <QCheckBox>
#include <QComboBox>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;
using JsonTestData::array;
using JsonTestData::compact;

namespace {

const QByteArray threeTools = JSON_TEXT([
    {"name" : "get-weather", "title" : "Weather now", "description" : "Temperature and wind"},
    {"name" : "echo", "annotations" : {"title" : "Echo a message"}, "description" : "Says it back"},
    {"name" : "add", "description" : "Adds two numbers"}
]);

// One property of every kind the form has, nested object included.
const QByteArray everyKindTool = JSON_TEXT({
    "name" : "every-kind",
    "inputSchema" : {
        "type" : "object",
        "properties" : {
            "text" : {"type" : "string"},
            "count" : {"type" : "integer"},
            "amount" : {"type" : "number"},
            "flag" : {"type" : "boolean"},
            "maybe" : {"type" : [ "boolean", "null" ]},
            "mode" : {"type" : "string", "enum" : [ "fast", "slow" ]},
            "tags" : {"type" : "array", "items" : {"type" : "string"}},
            "points" : {"type" : "array", "items" : {"type" : "integer"}},
            "free" : {"type" : "object"},
            "address" : {
                "type" : "object",
                "properties" : {
                    "city" : {"type" : "string"},
                    "geo" : {"type" : "object", "properties" : {"lat" : {"type" : "number"}}}
                }
            }
        }
    }
});

// Two arguments mirrored into headers (one nested under "properties"), one not.
const QByteArray headerTool = JSON_TEXT({
    "name" : "execute-sql",
    "inputSchema" : {
        "type" : "object",
        "properties" : {
            "region" : {"type" : "string", "x-mcp-header" : "Region"},
            "query" : {"type" : "string"},
            "options" : {
                "type" : "object",
                "properties" : {"tenant" : {"type" : "string", "x-mcp-header" : "Tenant"}}
            }
        },
        "required" : [ "region", "query" ]
    }
});

SessionSnapshot snapshotOf(const QString &server, const QString &era, const QString &route)
{
    SessionSnapshot s;
    s.server = server;
    s.state = SessionSnapshot::State::Ready;
    s.era = ServerConfig::eraFromName(era);
    s.route = *ServerConfig::routeFromName(route);
    // What the core publishes for each era.
    s.sessionless = era == "2026-07-28"_L1;
    s.toolHeaders = s.sessionless && route != "stdio"_L1;
    return s;
}

} // namespace

class TestToolsPanel : public QObject
{
    Q_OBJECT

    using Shown = ShownToolsPanel;

private Q_SLOTS:
    void theListCountsItsToolsAndTheMatches_data()
    {
        QTest::addColumn<QString>("search");
        QTest::addColumn<QString>("count");
        QTest::addColumn<QStringList>("names");
        QTest::newRow("without a search it counts every tool")
            << QString() << u"3 tools"_s << QStringList{u"get-weather"_s, u"echo"_s, u"add"_s};
        QTest::newRow("a search by name counts the matches of all")
            << u"ECHO"_s << u"1 of 3"_s << QStringList{u"echo"_s};
        QTest::newRow("a search finds a tool by its title")
            << u"weather now"_s << u"1 of 3"_s << QStringList{u"get-weather"_s};
        QTest::newRow("a search finds a tool by its annotations title")
            << u"a message"_s << u"1 of 3"_s << QStringList{u"echo"_s};
        QTest::newRow("a search finds tools by their descriptions")
            << u"wind"_s << u"1 of 3"_s << QStringList{u"get-weather"_s};
        QTest::newRow("a search matching nothing counts none")
            << u"zebra"_s << u"0 of 3"_s << QStringList{};
    }

    void theListCountsItsToolsAndTheMatches()
    {
        QFETCH(QString, search);
        QFETCH(QString, count);
        QFETCH(QStringList, names);
        Shown s(array(threeTools));
        QVERIFY(s.count());
        QTest::keyClicks(s.search(), search);
        QCOMPARE(s.count()->text(), count);
        QStringList shown;
        for (int i = 0; i < s.list()->model()->rowCount(); ++i)
            shown << s.list()->model()->index(i, 0).data(ToolListModel::NameRole).toString();
        QCOMPARE(shown, names);
    }

    void aModernHttpServerShowsWhichFieldsGoAsHeaders_data()
    {
        QTest::addColumn<QString>("era");
        QTest::addColumn<QString>("route");
        QTest::addColumn<bool>("hints");
        QTest::newRow("modern over HTTP names the headers")
            << u"2026-07-28"_s << u"streamable-http"_s << true;
        QTest::newRow("modern over stdio has no headers") << u"2026-07-28"_s << u"stdio"_s << false;
        QTest::newRow("legacy over HTTP sends no such headers")
            << u"initialize"_s << u"streamable-http"_s << false;
        QTest::newRow("an undecided era shows none") << QString() << u"streamable-http"_s << false;
    }
    void aModernHttpServerShowsWhichFieldsGoAsHeaders()
    {
        QFETCH(QString, era);
        QFETCH(QString, route);
        QFETCH(bool, hints);
        ServerStore servers;
        ServerConfig c;
        c.name = u"a"_s;
        servers.addServer(c);
        servers.updateSnapshot(snapshotOf(u"a"_s, era, route));
        Shown s(QJsonArray{QJsonDocument::fromJson(headerTool).object()});
        s.panel.watchServers(&servers);
        s.panel.showServer(u"a"_s);
        QCOMPARE(s.panel.currentToolName(), u"execute-sql"_s);
        auto *region = s.panel.findChild<QLabel *>(u"header:region"_s);
        auto *tenant = s.panel.findChild<QLabel *>(u"header:options/tenant"_s);
        QCOMPARE(bool(region), hints);
        QCOMPARE(bool(tenant), hints);
        QVERIFY(!s.panel.findChild<QLabel *>(u"header:query"_s));
        if (hints) {
            QCOMPARE(region->text(), u"→ Mcp-Param-Region"_s);
            QCOMPARE(tenant->text(), u"→ Mcp-Param-Tenant"_s);
            QVERIFY(region->toolTip().contains(u"Mcp-Param-Region"_s));
            QVERIFY(s.field<QLineEdit>(u"region"_s)
                        ->accessibleDescription()
                        .contains(u"Mcp-Param-Region"_s));
            // For looking at: SONDE_SCREENSHOT_DIR=dir saves the panel as dir/tools-headers.png.
            if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty())
                s.panel.grab().save(dir + u"/tools-headers.png"_s);
        }
    }

    // The era is decided after the form is shown: the hints come, and what was typed stays.
    void theHeaderHintsFollowTheEraAndKeepWhatWasTyped()
    {
        ServerStore servers;
        ServerConfig c;
        c.name = u"a"_s;
        servers.addServer(c);
        Shown s(QJsonArray{QJsonDocument::fromJson(headerTool).object()});
        s.panel.watchServers(&servers);
        QTest::keyClicks(s.field<QLineEdit>(u"region"_s), u"eu-west1"_s);
        QVERIFY(!s.panel.findChild<QLabel *>(u"header:region"_s));
        servers.updateSnapshot(snapshotOf(u"a"_s, u"2026-07-28"_s, u"streamable-http"_s));
        QVERIFY(s.panel.findChild<QLabel *>(u"header:region"_s));
        QCOMPARE(s.field<QLineEdit>(u"region"_s)->text(), u"eu-west1"_s);
        QCOMPARE(s.store.formValues(u"a"_s, u"execute-sql"_s)->value("region"_L1).toString(),
                 u"eu-west1"_s);
        servers.updateSnapshot(snapshotOf(u"a"_s, u"initialize"_s, u"streamable-http"_s));
        QTRY_VERIFY(!s.panel.findChild<QLabel *>(u"header:region"_s));
        QCOMPARE(s.field<QLineEdit>(u"region"_s)->text(), u"eu-west1"_s);
    }

    // A server that lists no tools (yet: an idle one) shows no form, no replay choice and no
    // usable Call, rather than an empty schema's "describes no properties" under nothing.
    // In a 1024x700 window the Tools tab is about 740x560, and a tool's description, badges
    // and the replay choice take their share: a form of three described fields still shows
    // every field without a scroll bar.
    void aFormOfAFewFieldsNeedsNoScrollBar()
    {
        const auto field = [](const char *type, const char *description) {
            return QJsonObject{{"type"_L1, QLatin1StringView(type)},
                               {"description"_L1, QLatin1StringView(description)}};
        };
        const QJsonObject slow{
            {"name"_L1, "slow-task"_L1},
            {"description"_L1, QStringLiteral("Takes duration_ms, reports progress in steps and "
                                              "can be cancelled while it runs; a description "
                                              "this long wraps over two lines or more here")},
            {"inputSchema"_L1,
             QJsonObject{{"type"_L1, "object"_L1},
                         {"properties"_L1,
                          QJsonObject{{"duration_ms"_L1, field("integer", "How long, in ms")},
                                      {"steps"_L1, field("integer", "How many steps")},
                                      {"label"_L1, field("string", "Shown in the progress")}}}}}};
        const QJsonArray tools{QJsonObject{{"name"_L1, "first"_L1}}, slow};
        Shown s(tools);
        s.panel.resize(740, 560);
        QVERIFY(QTest::qWaitForWindowExposed(&s.panel));
        QVERIFY(s.panel.selectTool(u"slow-task"_s));
        auto *scroll =
            s.panel.findChild<SchemaFormWidget *>(u"argumentsForm"_s)->findChild<QScrollArea *>();
        QVERIFY(scroll);
        QTRY_COMPARE(scroll->verticalScrollBar()->maximum(), 0);
        for (const QString &name : {u"duration_ms"_s, u"steps"_s, u"label"_s}) {
            QWidget *input = s.field<QWidget>(name);
            QVERIFY(input && input->isVisible());
            const auto shown = [&] {
                return scroll->viewport()->rect().contains(
                    QRect(input->mapTo(scroll->viewport(), QPoint()), input->size()));
            };
            QTRY_VERIFY2(shown(), qPrintable(name));
        }
        // The hints and the replay rule above the form wrap rather than run off the edge.
        auto *badges = s.panel.findChild<QLabel *>(u"toolBadges"_s);
        QVERIFY(badges->fontMetrics().horizontalAdvance(badges->text()) > badges->width());
        QTRY_VERIFY2(badges->height() >= 2 * badges->fontMetrics().lineSpacing(),
                     qPrintable(u"%1 px tall"_s.arg(badges->height())));
        if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty())
            s.panel.grab().save(dir + u"/tools-form-room.png"_s);
    }

    void aServerWithoutToolsShowsNoFormAndNoCall()
    {
        Shown s(array(threeTools), {u"a"_s, u"b"_s});
        s.store.setTools(u"b"_s, {});
        auto *call = s.panel.findChild<QPushButton *>(u"callButton"_s);
        QVERIFY(call);
        QVERIFY(call->isEnabled());
        QVERIFY(s.panel.form()->isVisible());
        s.panel.showServer(u"b"_s);
        QVERIFY(!s.panel.form()->isVisible());
        QVERIFY(!call->isEnabled());
        // A call ending (on another server) does not enable Call for no tool.
        s.panel.callStarted();
        s.panel.callEnded();
        QVERIFY(!call->isEnabled());
        s.panel.showServer(u"a"_s);
        QVERIFY(s.panel.form()->isVisible());
        QVERIFY(call->isEnabled());
    }

    void theSearchBoxIsAboveTheList()
    {
        Shown s(array(threeTools));
        const QPoint search = s.search()->mapTo(&s.panel, QPoint(0, 0));
        const QPoint list = s.list()->mapTo(&s.panel, QPoint(0, 0));
        QVERIFY(search.y() + s.search()->height() <= list.y());
    }

    void aRowShowsTheTitleWithTheNameUnderIt_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<QString>("title");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("description");
        QTest::newRow("the title field comes first")
            << 0 << u"Weather now"_s << u"get-weather"_s << u"Temperature and wind"_s;
        QTest::newRow("without one, the annotations title")
            << 1 << u"Echo a message"_s << u"echo"_s << u"Says it back"_s;
        QTest::newRow("without either, the name")
            << 2 << u"add"_s << u"add"_s << u"Adds two numbers"_s;
    }

    void aRowShowsTheTitleWithTheNameUnderIt()
    {
        QFETCH(int, row);
        QFETCH(QString, title);
        QFETCH(QString, name);
        QFETCH(QString, description);
        Shown s(array(threeTools));
        const QModelIndex idx = s.list()->model()->index(row, 0);
        QCOMPARE(idx.data(Qt::DisplayRole).toString(), title);
        QCOMPARE(idx.data(ToolListModel::NameRole).toString(), name);
        const QString tip = idx.data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(name) && tip.contains(title) && tip.contains(description),
                 qPrintable(tip));
        // Two lines: the title, and the name under it.
        QStyleOptionViewItem option;
        option.initFrom(s.list());
        const QSize hint = s.list()->itemDelegate()->sizeHint(option, idx);
        QVERIFY2(hint.height() >= 2 * s.list()->fontMetrics().height(),
                 qPrintable(u"row height %1"_s.arg(hint.height())));
    }

    void noNameIsCutOff()
    {
        const QString longName = u"get-the-weather-forecast-for-a-city-by-its-coordinates"_s;
        Shown s(QJsonArray{QJsonObject{{"name"_L1, longName}, {"title"_L1, "Forecast"_L1}},
                           QJsonObject{{"name"_L1, "echo"_L1}}});
        QVERIFY(QTest::qWaitForWindowExposed(&s.panel));
        QStyleOptionViewItem option;
        option.initFrom(s.list());
        for (int i = 0; i < s.list()->model()->rowCount(); ++i) {
            const QModelIndex idx = s.list()->model()->index(i, 0);
            const int needed = s.list()->itemDelegate()->sizeHint(option, idx).width();
            QVERIFY2(needed >= s.list()->fontMetrics().horizontalAdvance(
                                   idx.data(ToolListModel::NameRole).toString()),
                     "the row's width holds its name");
            QVERIFY2(s.list()->viewport()->width() >= needed,
                     qPrintable(u"%1 needs %2 px, the list shows %3"_s
                                    .arg(idx.data(ToolListModel::NameRole).toString())
                                    .arg(needed)
                                    .arg(s.list()->viewport()->width())));
        }
    }

    void theSameToolsAgainRebuildNothing()
    {
        Shown s(array(threeTools));
        QSignalSpy reset(s.list()->model(), &QAbstractItemModel::modelReset);
        s.store.setTools(u"a"_s, array(threeTools));
        QCOMPARE(reset.count(), 0);
        QJsonArray fewer = array(threeTools);
        fewer.removeFirst();
        s.store.setTools(u"a"_s, fewer);
        QCOMPARE(reset.count(), 1);
        QCOMPARE(s.count()->text(), u"2 tools"_s);
    }

    void valuesOfEveryKindSurviveSwitchingToolAndServer()
    {
        QJsonArray tools = array('[' + everyKindTool + ']');
        tools.append(QJsonObject{{"name"_L1, "other"_L1}});
        Shown s(tools, {u"a"_s, u"b"_s});
        QVERIFY(s.panel.selectTool(u"every-kind"_s));
        QTest::keyClicks(s.field<QLineEdit>(u"text"_s), u"hello"_s);
        QTest::keyClicks(s.field<QLineEdit>(u"count"_s), u"7"_s);
        QTest::keyClicks(s.field<QLineEdit>(u"amount"_s), u"2.5"_s);
        s.field<QCheckBox>(u"flag"_s)->click(); // touched: true
        s.field<QCheckBox>(u"flag"_s)->click(); // and back: false, and sent as false
        s.field<QCheckBox>(u"maybe"_s)->setCheckState(Qt::Checked);
        s.field<QComboBox>(u"mode"_s)->setCurrentIndex(2);
        QTest::keyClicks(s.field<QLineEdit>(u"tags"_s), u"x, y"_s);
        QTest::keyClicks(s.field<QLineEdit>(u"points"_s), u"[1, 2]"_s);
        QTest::keyClicks(s.field<QLineEdit>(u"free"_s), u"{\"k\": true}"_s);
        QTest::keyClicks(s.field<QLineEdit>(u"address/city"_s), u"Oslo"_s);
        QTest::keyClicks(s.field<QLineEdit>(u"address/geo/lat"_s), u"59.9"_s);
        const QByteArray typed = compact(s.panel.form()->value());
        QCOMPARE(typed, QByteArray(JSON_TEXT({
                            "address" : {"city" : "Oslo", "geo" : {"lat" : 59.9}},
                            "amount" : 2.5,
                            "count" : 7,
                            "flag" : false,
                            "free" : {"k" : true},
                            "maybe" : true,
                            "mode" : "slow",
                            "points" : [ 1, 2 ],
                            "tags" : [ "x", "y" ],
                            "text" : "hello"
                        }))
                            .replace(' ', ""));

        QVERIFY(s.panel.selectTool(u"other"_s));
        QVERIFY(s.panel.selectTool(u"every-kind"_s));
        QCOMPARE(compact(s.panel.form()->value()), typed);

        s.panel.showServer(u"b"_s);
        QVERIFY(s.panel.selectTool(u"every-kind"_s));
        QCOMPARE(compact(s.panel.form()->value()), QByteArray("{}"));
        QCOMPARE(s.field<QLineEdit>(u"text"_s)->text(), QString());

        s.panel.showServer(u"a"_s);
        QCOMPARE(s.panel.currentToolName(), u"every-kind"_s);
        QCOMPARE(compact(s.panel.form()->value()), typed);
        QCOMPARE(s.field<QLineEdit>(u"text"_s)->text(), u"hello"_s);
        QCOMPARE(s.field<QLineEdit>(u"count"_s)->text(), u"7"_s);
        QCOMPARE(s.field<QLineEdit>(u"amount"_s)->text(), u"2.5"_s);
        QCOMPARE(s.field<QCheckBox>(u"flag"_s)->checkState(), Qt::Unchecked);
        QCOMPARE(s.field<QCheckBox>(u"maybe"_s)->checkState(), Qt::Checked);
        QCOMPARE(s.field<QComboBox>(u"mode"_s)->currentText(), u"slow"_s);
        QCOMPARE(s.field<QLineEdit>(u"tags"_s)->text(), u"x, y"_s);
        QCOMPARE(s.field<QLineEdit>(u"points"_s)->text(), u"[1,2]"_s);
        QCOMPARE(s.field<QLineEdit>(u"address/city"_s)->text(), u"Oslo"_s);
        QCOMPARE(s.field<QLineEdit>(u"address/geo/lat"_s)->text(), u"59.9"_s);
    }

    void tabGoesFromTheSearchThroughTheListAndTheFormToCallAndTheAnswer()
    {
        const QByteArray tool = JSON_TEXT({
            "name" : "form",
            "inputSchema" : {
                "type" : "object",
                "required" : ["first"],
                "properties" : {
                    "first" : {"type" : "string"},
                    "second" : {"type" : "integer"},
                    "third" : {"type" : "boolean"}
                }
            }
        });
        Shown s(array('[' + tool + ']'));
        s.panel.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&s.panel));
        // Built after the panel: a rebuilt form must still sit between the list and Call.
        QVERIFY(s.panel.selectTool(u"form"_s));
        s.search()->setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), s.search());
        QStringList order{s.search()->objectName()};
        for (int i = 0; i < 12; ++i) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            QWidget *w = QApplication::focusWidget();
            if (!w || w == s.search())
                break;
            order << w->objectName();
        }
        const QStringList expected{u"toolSearch"_s,  u"toolList"_s,    u"toolOverride"_s,
                                   u"modeTabs"_s,    u"field:first"_s, u"field:second"_s,
                                   u"field:third"_s, u"callButton"_s};
        QCOMPARE(order.mid(0, expected.size()), expected);
        QVERIFY2(order.size() > expected.size() &&
                     order.at(expected.size()).startsWith(u"answer"_s),
                 qPrintable(order.join(u", "_s)));
    }

    void theAnswerOpensOnATabThatHasSomethingInIt_data()
    {
        QTest::addColumn<QString>("chosen");
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("shown");
        QTest::newRow("Structured chosen, an answer without structuredContent opens on Text")
            << u"Structured"_s << u"echo"_s << u"Text"_s;
        QTest::newRow("Structured chosen, an answer with structuredContent stays there")
            << u"Structured"_s << u"weather"_s << u"Structured"_s;
        QTest::newRow("Structured chosen, an outputSchema answered without it stays to say so")
            << u"Structured"_s << u"weather-without"_s << u"Structured"_s;
        QTest::newRow("Content chosen, an answer without blocks or text opens on JSON")
            << u"Content"_s << u"nothing"_s << u"JSON"_s;
        QTest::newRow("JSON chosen stays on JSON") << u"JSON"_s << u"echo"_s << u"JSON"_s;
    }

    void theAnswerOpensOnATabThatHasSomethingInIt()
    {
        QFETCH(QString, chosen);
        QFETCH(QString, tool);
        QFETCH(QString, shown);
        const QJsonObject outputSchema{{"type"_L1, "object"_L1}};
        const QJsonArray tools{
            QJsonObject{{"name"_L1, "echo"_L1}},
            QJsonObject{{"name"_L1, "weather"_L1}, {"outputSchema"_L1, outputSchema}},
            QJsonObject{{"name"_L1, "weather-without"_L1}, {"outputSchema"_L1, outputSchema}},
            QJsonObject{{"name"_L1, "nothing"_L1}}};
        Shown s(tools);
        const auto answer = [&](const QString &name, const QJsonObject &result) {
            CallOutcome o;
            o.method = u"tools/call"_s;
            o.result = result;
            s.store.setToolAnswer(u"a"_s, name, o);
        };
        const QJsonArray text{QJsonObject{{"type"_L1, "text"_L1}, {"text"_L1, "said"_L1}}};
        answer(u"echo"_s, {{"content"_L1, text}});
        answer(u"weather"_s, {{"content"_L1, text},
                              {"structuredContent"_L1, QJsonObject{{"city"_L1, "Paris"_L1}}}});
        answer(u"weather-without"_s, {{"content"_L1, text}});
        answer(u"nothing"_s, {{"content"_L1, QJsonArray()}});
        auto *tabs = s.panel.findChild<QTabWidget *>(u"answerTabs"_s);
        QVERIFY(tabs);
        const auto tabNamed = [tabs](const QString &name) {
            for (int i = 0; i < tabs->count(); ++i)
                if (tabs->tabText(i) == name)
                    return i;
            return -1;
        };
        // The user chooses the tab on an answer that has everything.
        QVERIFY(s.panel.selectTool(u"weather"_s));
        QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {},
                          tabs->tabBar()->tabRect(tabNamed(chosen)).center());
        QCOMPARE(tabs->tabText(tabs->currentIndex()), chosen);

        QVERIFY(s.panel.selectTool(tool));
        QCOMPARE(tabs->tabText(tabs->currentIndex()), shown);
        if (chosen == u"Structured"_s && tool == u"echo"_s)
            if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty())
                s.panel.grab().save(dir + u"/tools-answer-without-structured.png"_s);
        // The choice was the user's: an answer that has it opens on it again.
        QVERIFY(s.panel.selectTool(u"weather"_s));
        QCOMPARE(tabs->tabText(tabs->currentIndex()), chosen);
    }

    void theBannerNamesTheBreakersCause_data()
    {
        QTest::addColumn<int>("phase");
        QTest::addColumn<QString>("trippedBy");
        QTest::addColumn<QString>("says");
        QTest::newRow("open after failures names how many")
            << int(BreakerPhase::Open) << QString()
            << u"Circuit breaker open, after 3 consecutive failures: calls are not sent. It "
               "lets a probe call in 20 s"_s;
        QTest::newRow("tripped by hand names who tripped it")
            << int(BreakerPhase::Open) << u"user"_s << u"open, tripped by hand (user)"_s;
        QTest::newRow("half-open says the next call is the probe")
            << int(BreakerPhase::HalfOpen) << QString() << u"the next call is sent as the probe"_s;
        QTest::newRow("closed says nothing") << int(BreakerPhase::Closed) << QString() << QString();
    }

    void theBannerNamesTheBreakersCause()
    {
        QFETCH(int, phase);
        QFETCH(QString, trippedBy);
        QFETCH(QString, says);
        BreakerState state;
        state.phase = BreakerPhase(phase);
        state.strikes = 3;
        state.threshold = 3;
        state.retryInS = 20;
        if (!trippedBy.isEmpty())
            state.trippedBy = trippedBy;
        BreakerBanner banner;
        banner.setState(state);
        QVERIFY2(says.isEmpty() ? banner.text().isEmpty() : banner.text().contains(says),
                 qPrintable(banner.text()));
        QCOMPARE(banner.isHidden(), says.isEmpty());
    }

    void anOpenBreakerShowsAboveTheFormWithItsCause()
    {
        DemoWindow demo;
        MainWindow &window = demo.window;
        window.tabs()->setCurrentWidget(window.toolsPanel());
        ToolsPanel *tools = window.toolsPanel();
        QTRY_VERIFY_WITH_TIMEOUT(demo.toolRows() >= 19, 10000);
        auto *banner = tools->findChild<QLabel *>(u"breakerBanner"_s);
        QVERIFY(banner);
        QVERIFY(!banner->isVisible());

        QPushButton *trip = window.findChild<QPushButton *>(u"breakerTrip"_s);
        QTest::mouseClick(trip, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 5000);
        QVERIFY2(banner->text().contains(u"tripped by hand (user)"_s), qPrintable(banner->text()));
        QVERIFY2(banner->text().contains(QRegularExpression(u"probe call in \\d+ s"_s)),
                 qPrintable(banner->text()));
        const QPoint bannerAt = banner->mapTo(tools, QPoint(0, 0));
        QVERIFY(bannerAt.y() < tools->form()->mapTo(tools, QPoint(0, 0)).y());

        QTest::mouseClick(window.findChild<QPushButton *>(u"breakerReset"_s), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!banner->isVisible(), 5000);
    }
};

QTEST_MAIN(TestToolsPanel)
#include "tst_toolspanel.moc"
