// SPDX-License-Identifier: MIT
// A tool's whole definition, one click away: the Definition tab beside the form's Form and
// JSON (read-only, highlighted, with Copy), the tool list's row menu (Copy name, Copy
// definition, Call, Show in transcript), and an MCP App tool's "App" badge with the link to
// its ui:// page. In the panel, and in the real window on two demo servers, before and after
// switching between them.
#include "application/servers/serverviewstore.h"
#include "application/tools/toollistmodel.h"
#include "application/transcript/transcriptstore.h"
#include "engine/corehost.h"
#include "jsontestdata.h"
#include "showntoolspanel.h"
#include "testpaths.h"
#include "tools/resourcespanel.h"
#include "tools/schemaformwidget.h"
#include "tools/tooldefinitionview.h"
#include "tools/toollistdelegate.h"
#include "tools/toolspanel.h"
#include "transcript/transcriptpanel.h"
#include "window/jsonview.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;
using JsonTestData::array;
using JsonTestData::object;

namespace {

// Every part the spec gives a tool, an MCP App page among them.
const QByteArray chartTool = JSON_TEXT({
    "name" : "render-chart",
    "title" : "Chart",
    "description" : "Draws a chart of a series",
    "inputSchema" : {
        "type" : "object",
        "properties" : {"series" : {"type" : "array", "items" : {"type" : "number"}}},
        "required" : ["series"]
    },
    "outputSchema" : {"type" : "object", "properties" : {"points" : {"type" : "integer"}}},
    "annotations" : {"readOnlyHint" : true, "openWorldHint" : false},
    "icons" : [ {"src" : "https://example.com/chart.png", "mimeType" : "image/png"} ],
    "_meta" : {"ui" : {"resourceUri" : "ui://charts/view.html"}, "com.example/build" : 7}
});

const QByteArray bareTool = JSON_TEXT({"name" : "bare", "inputSchema" : {"type" : "object"}});

const QByteArray echoTool = JSON_TEXT({
    "name" : "echo",
    "description" : "Says it back",
    "inputSchema" : {"type" : "object", "properties" : {"message" : {"type" : "string"}}}
});

QJsonArray toolsOf(std::initializer_list<QByteArray> tools)
{
    QJsonArray out;
    for (const QByteArray &t : tools)
        out.append(object(t));
    return out;
}

void screenshot(QWidget *widget, const QString &name)
{
    // For looking at: SONDE_SCREENSHOT_DIR=dir saves the widget as dir/<name>.png.
    if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty())
        widget->grab().save(dir + u'/' + name + u".png"_s);
}

QAction *actionNamed(QMenu *menu, const QString &name)
{
    for (QAction *a : menu->actions())
        if (a->objectName() == name)
            return a;
    return nullptr;
}

QListView *toolList(const ToolsPanel *panel)
{
    return panel->findChild<QListView *>(u"toolList"_s);
}

QTabBar *modeTabs(const ToolsPanel *panel)
{
    return panel->form()->findChild<QTabBar *>(u"modeTabs"_s);
}

QString definitionText(const ToolsPanel *panel)
{
    return panel->definitionView()->findChild<JsonView *>(u"toolDefinition"_s)->toPlainText();
}

// A right click on the row of `tool`: the row menu, shown (null if it did not show).
QMenu *openToolMenu(ToolsPanel *panel, const QString &tool)
{
    QListView *list = toolList(panel);
    const QModelIndexList hits = list->model()->match(
        list->model()->index(0, 0), ToolListModel::NameRole, tool, 1, Qt::MatchExactly);
    if (hits.isEmpty())
        return nullptr;
    list->scrollTo(hits.first());
    const QPoint pos = list->visualRect(hits.first()).center();
    QContextMenuEvent click(QContextMenuEvent::Mouse, pos, list->viewport()->mapToGlobal(pos));
    QApplication::sendEvent(list->viewport(), &click);
    return panel->toolMenu()->isVisible() ? panel->toolMenu() : nullptr;
}

} // namespace

class TestToolDefinition : public QObject
{
    Q_OBJECT

    using Shown = ShownToolsPanel;

    // The real window on two demo servers over stdio, "a" selected, its tools listed.
    struct DemoPair
    {
        CoreHost host;
        MainWindow window{host};
        DemoPair()
        {
            for (const QString &name : {u"a"_s, u"b"_s}) {
                ServerConfig c;
                c.name = name;
                c.program = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
                window.addServer(c);
            }
            window.show();
            window.tabs()->setCurrentWidget(window.toolsPanel());
            select(u"b"_s);
            select(u"a"_s);
        }
        ~DemoPair()
        {
            QSignalSpy down(&host, &CoreHost::shutdownFinished);
            host.shutdown();
            down.wait(5000);
        }
        void select(const QString &server)
        {
            window.selectServer(server);
            QTRY_VERIFY_WITH_TIMEOUT(toolList(window.toolsPanel())->model()->rowCount() >= 19,
                                     10000);
        }
        // Calls `tool` with `args` on the selected server and waits for its answer.
        bool call(const QString &tool, const QJsonObject &args = {})
        {
            ToolsPanel *tools = window.toolsPanel();
            auto *button = tools->findChild<QPushButton *>(u"callButton"_s);
            if (!tools->selectTool(tool) ||
                !QTest::qWaitFor([&] { return button->isEnabled(); }, 5000))
                return false;
            tools->form()->setValue(args);
            const auto ticket = [&] {
                const auto a = window.viewStore()->toolAnswer(window.currentServer(), tool);
                return a ? a->ticket : 0;
            };
            const quint64 before = ticket();
            tools->requestCall();
            return QTest::qWaitFor([&] { return ticket() != before && button->isEnabled(); },
                                   10000);
        }
    };

private Q_SLOTS:
    void theDefinitionTabShowsTheToolAsTheServerListedIt_data()
    {
        QTest::addColumn<QByteArray>("tool");
        QTest::addColumn<QStringList>("has");
        QTest::addColumn<QString>("summary");
        QTest::newRow("a tool with every part shows each of them")
            << chartTool << QStringList{u"inputSchema"_s, u"outputSchema"_s, u"annotations"_s,
                                        u"title"_s,       u"icons"_s,        u"_meta"_s}
            << u"with inputSchema, outputSchema, annotations, title, icons, _meta"_s;
        QTest::newRow("a bare tool says what it lacks")
            << bareTool << QStringList{u"inputSchema"_s}
            << u"with inputSchema; without outputSchema, annotations, title, icons, _meta"_s;
    }

    void theDefinitionTabShowsTheToolAsTheServerListedIt()
    {
        QFETCH(QByteArray, tool);
        QFETCH(QStringList, has);
        QFETCH(QString, summary);
        const QJsonObject listed = object(tool);
        Shown s(QJsonArray{listed});
        QTabBar *tabs = modeTabs(&s.panel);
        QVERIFY(tabs);
        QCOMPARE(tabs->count(), 3);
        QCOMPARE(tabs->tabText(0), u"Form"_s);
        QCOMPARE(tabs->tabText(1), u"JSON"_s);
        QCOMPARE(tabs->tabText(2), u"Definition"_s);
        QVERIFY(!s.panel.definitionView()->isVisible());

        QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(2).center());
        QVERIFY(s.panel.definitionView()->isVisible());
        QCOMPARE(s.panel.form()->mode(), SchemaFormWidget::Mode::Form);
        const QString shown = definitionText(&s.panel);
        QCOMPARE(QJsonDocument::fromJson(shown.toUtf8()).object(), listed);
        for (const QString &key : has)
            QVERIFY2(shown.contains(u'"' + key + u"\":"_s), qPrintable(key));
        const auto *line =
            s.panel.definitionView()->findChild<QLabel *>(u"toolDefinitionSummary"_s);
        QVERIFY2(line->text().contains(summary), qPrintable(line->text()));
        auto *view = s.panel.definitionView()->findChild<JsonView *>(u"toolDefinition"_s);
        QVERIFY(view->isReadOnly());

        QGuiApplication::clipboard()->clear();
        auto *copy = s.panel.definitionView()->findChild<QPushButton *>(u"copyToolDefinition"_s);
        QVERIFY(copy->isEnabled());
        QTest::mouseClick(copy, Qt::LeftButton);
        QCOMPARE(QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8()).object(),
                 listed);
        if (listed.contains("_meta"_L1))
            screenshot(&s.panel, u"tools-definition"_s);

        // Form comes back as it was left.
        QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(0).center());
        QVERIFY(!s.panel.definitionView()->isVisible());
        QCOMPARE(s.panel.form()->mode(), SchemaFormWidget::Mode::Form);
    }

    // The tab stays on Definition while the user goes from tool to tool and server to
    // server, and always shows the selected server's selected tool.
    void theDefinitionFollowsTheToolAndTheServer()
    {
        Shown s(toolsOf({echoTool, chartTool}), {u"a"_s, u"b"_s});
        QJsonObject otherEcho = object(echoTool);
        otherEcho.insert("description"_L1, "b's own echo"_L1);
        s.store.setTools(u"b"_s, QJsonArray{otherEcho});
        QVERIFY(s.panel.selectTool(u"echo"_s));
        modeTabs(&s.panel)->setCurrentIndex(2);
        QVERIFY(definitionText(&s.panel).contains(u"Says it back"_s));

        QVERIFY(s.panel.selectTool(u"render-chart"_s));
        QVERIFY(s.panel.definitionView()->isVisible());
        QVERIFY(definitionText(&s.panel).contains(u"ui://charts/view.html"_s));

        s.panel.showServer(u"b"_s);
        QCOMPARE(s.panel.currentToolName(), u"echo"_s);
        QVERIFY2(definitionText(&s.panel).contains(u"b's own echo"_s),
                 qPrintable(definitionText(&s.panel)));
        QVERIFY(!definitionText(&s.panel).contains(u"render-chart"_s));

        s.store.setTools(u"b"_s, {});
        QCOMPARE(definitionText(&s.panel), QString());
        QVERIFY(!s.panel.definitionView()
                     ->findChild<QPushButton *>(u"copyToolDefinition"_s)
                     ->isEnabled());

        s.panel.showServer(u"a"_s);
        QCOMPARE(s.panel.currentToolName(), u"render-chart"_s);
        QVERIFY(definitionText(&s.panel).contains(u"Draws a chart"_s));
    }

    void anAppToolIsBadgedAndLinksToItsPage_data()
    {
        QTest::addColumn<QJsonObject>("meta");
        QTest::addColumn<QString>("page");
        QTest::newRow("_meta.ui.resourceUri names the page")
            << QJsonObject{{"ui"_L1, QJsonObject{{"resourceUri"_L1, "ui://charts/view.html"_L1}}}}
            << u"ui://charts/view.html"_s;
        QTest::newRow("the deprecated flat ui/resourceUri names it too")
            << QJsonObject{{"ui/resourceUri"_L1, "ui://charts/old.html"_L1}}
            << u"ui://charts/old.html"_s;
        QTest::newRow("a tool without _meta.ui is no app")
            << QJsonObject{{"com.example/build"_L1, 7}} << QString();
        QTest::newRow("a page that is not a ui:// URI is no app")
            << QJsonObject{{"ui"_L1, QJsonObject{{"resourceUri"_L1, "https://x.example/a"_L1}}}}
            << QString();
    }

    void anAppToolIsBadgedAndLinksToItsPage()
    {
        QFETCH(QJsonObject, meta);
        QFETCH(QString, page);
        QJsonObject tool = object(chartTool);
        tool.insert("_meta"_L1, meta);
        // A title wider than the name: the row's width is the title line's.
        tool.insert("title"_L1, "A chart of the series"_L1);
        Shown s(QJsonArray{object(echoTool), tool});
        QVERIFY(s.panel.selectTool(u"render-chart"_s));
        const QModelIndex row = toolList(&s.panel)->currentIndex();
        QCOMPARE(row.data(ToolListModel::AppResourceRole).toString(), page);
        QCOMPARE(row.data(ToolListModel::BadgesRole).toStringList().contains(u"App"_s),
                 !page.isEmpty());
        QVERIFY2(row.data(Qt::ToolTipRole).toString().contains(u"App"_s) == !page.isEmpty(),
                 qPrintable(row.data(Qt::ToolTipRole).toString()));
        const auto *badges = s.panel.findChild<QLabel *>(u"toolBadges"_s);
        QCOMPARE(badges->text().startsWith(u"App · "_s), !page.isEmpty());

        // The row is wider by the badge, so the badge hides no part of the title.
        QStyleOptionViewItem option;
        option.initFrom(toolList(&s.panel));
        QJsonObject plain = tool;
        plain.remove("_meta"_L1);
        ToolListModel plainModel;
        plainModel.setTools(QJsonArray{plain});
        QCOMPARE(ToolListDelegate::widthHint(option.font, row) >
                     ToolListDelegate::widthHint(option.font, plainModel.index(0)),
                 !page.isEmpty());

        auto *link = s.panel.findChild<QLabel *>(u"toolAppLink"_s);
        QVERIFY(link);
        QCOMPARE(link->isVisible(), !page.isEmpty());
        QSignalSpy asked(&s.panel, &ToolsPanel::appResourceRequested);
        if (!page.isEmpty()) {
            QVERIFY2(link->text().contains(u"href=\"%1\""_s.arg(page)), qPrintable(link->text()));
            Q_EMIT link->linkActivated(page); // what a click on the link does
            QCOMPARE(asked.size(), 1);
            QCOMPARE(asked.first().first().toString(), page);
            if (meta.contains("ui"_L1))
                screenshot(&s.panel, u"tools-app-badge"_s);
        }
        // Another tool: no link left over from this one.
        QVERIFY(s.panel.selectTool(u"echo"_s));
        QVERIFY(!link->isVisible());
        QVERIFY(!s.panel.findChild<QLabel *>(u"toolBadges"_s)->text().startsWith(u"App"_s));
    }

    void theToolMenuActsOnTheRowClicked_data()
    {
        QTest::addColumn<QString>("action");
        QTest::newRow("Copy name copies the tool's name") << u"toolCopyName"_s;
        QTest::newRow("Copy definition copies its whole definition") << u"toolCopyDefinition"_s;
        QTest::newRow("Call calls it with the form's arguments") << u"toolCall"_s;
        QTest::newRow("Show in transcript asks for its last call") << u"toolShowInTranscript"_s;
    }

    void theToolMenuActsOnTheRowClicked()
    {
        QFETCH(QString, action);
        Shown s(toolsOf({chartTool, echoTool}));
        QCOMPARE(s.panel.currentToolName(), u"render-chart"_s);
        QSignalSpy calls(&s.panel, &ToolsPanel::callRequested);
        QSignalSpy transcript(&s.panel, &ToolsPanel::transcriptRequested);
        QGuiApplication::clipboard()->clear();
        QMenu *menu = openToolMenu(&s.panel, u"echo"_s);
        QVERIFY(menu);
        // The row right-clicked is the tool the menu is about, and the one shown.
        QCOMPARE(s.panel.currentToolName(), u"echo"_s);
        QStringList names;
        for (const QAction *a : menu->actions())
            if (!a->isSeparator())
                names.append(a->text());
        QCOMPARE(names, (QStringList{u"Copy name"_s, u"Copy definition"_s, u"Call"_s,
                                     u"Show in transcript"_s}));
        QAction *chosen = actionNamed(menu, action);
        QVERIFY(chosen && chosen->isEnabled());
        menu->close();
        chosen->trigger();
        if (action == u"toolCopyName"_s) {
            QCOMPARE(QGuiApplication::clipboard()->text(), u"echo"_s);
        } else if (action == u"toolCopyDefinition"_s) {
            QCOMPARE(
                QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8()).object(),
                object(echoTool));
        } else if (action == u"toolCall"_s) {
            QCOMPARE(calls.size(), 1);
            QCOMPARE(calls.first().first().toString(), u"echo"_s);
        } else {
            QCOMPARE(transcript.size(), 1);
            QCOMPARE(transcript.first().first().toString(), u"echo"_s);
        }
        if (action != u"toolCall"_s)
            QCOMPARE(calls.size(), 0);
    }

    // The menu key opens the menu on the current tool; Call is greyed out while a call runs.
    void theMenuKeyOpensItOnTheCurrentToolAndCallWaitsForTheRunningOne()
    {
        Shown s(toolsOf({chartTool, echoTool}));
        QVERIFY(s.panel.selectTool(u"echo"_s));
        s.panel.callStarted();
        QListView *list = toolList(&s.panel);
        QContextMenuEvent key(QContextMenuEvent::Keyboard, QPoint(1, 1),
                              list->mapToGlobal(QPoint(1, 1)));
        QApplication::sendEvent(list, &key);
        QVERIFY(s.panel.toolMenu()->isVisible());
        QCOMPARE(s.panel.currentToolName(), u"echo"_s);
        QVERIFY(!actionNamed(s.panel.toolMenu(), u"toolCall"_s)->isEnabled());
        QVERIFY(actionNamed(s.panel.toolMenu(), u"toolCopyName"_s)->isEnabled());
        s.panel.toolMenu()->close();
    }

    // The demo's counter-app names its page: the link reads it on the Resources tab, where it
    // stays the selected server's.
    void theDemosAppToolLinksToItsPageOnTheResourcesTab()
    {
        DemoPair demo;
        ToolsPanel *tools = demo.window.toolsPanel();
        QVERIFY(tools->selectTool(u"counter-app"_s));
        QVERIFY(tools->findChild<QLabel *>(u"toolBadges"_s)->text().startsWith(u"App · "_s));
        auto *link = tools->findChild<QLabel *>(u"toolAppLink"_s);
        QVERIFY(link->isVisible());
        const QString page = u"ui://demo/counter-app.html"_s;
        QVERIFY2(link->text().contains(page), qPrintable(link->text()));
        modeTabs(tools)->setCurrentIndex(2);
        QVERIFY(definitionText(tools).contains(u"\"resourceUri\": \""_s + page));
        screenshot(&demo.window, u"window-tools-app"_s);
        // Room to read it, in an argument area sized for a few fields.
        auto *view = tools->definitionView()->findChild<JsonView *>(u"toolDefinition"_s);
        QTRY_VERIFY2(view->viewport()->height() >= 10 * view->fontMetrics().lineSpacing(),
                     qPrintable(u"%1 px"_s.arg(view->viewport()->height())));

        Q_EMIT link->linkActivated(page);
        ResourcesPanel *resources = demo.window.resourcesPanel();
        QCOMPARE(demo.window.tabs()->currentWidget(), resources);
        QCOMPARE(resources->uri(), page);
        QTRY_VERIFY_WITH_TIMEOUT(resources->contentText().contains(u"<h1>Counter</h1>"_s), 10000);
        // The HTML as text, line by line, not one JSON line.
        auto *text = resources->findChild<QPlainTextEdit *>(u"resourceText"_s);
        QVERIFY(text->isVisible());
        QVERIFY2(text->document()->blockCount() >= 6, qPrintable(text->toPlainText()));
        QVERIFY(text->toPlainText().startsWith(u"<!doctype html>\n"_s));
        screenshot(&demo.window, u"window-resources-app-page"_s);

        demo.window.selectServer(u"b"_s);
        QCOMPARE(resources->contentText(), QString());
        demo.window.selectServer(u"a"_s);
        QVERIFY(resources->contentText().contains(u"<h1>Counter</h1>"_s));
    }

    // Show in transcript goes to the last tools/call of that tool on the selected server, or
    // says there is none.
    void showInTranscriptJumpsToTheToolsLastCall()
    {
        DemoPair demo;
        QVERIFY(demo.call(u"echo"_s, {{"message"_L1, "first"_L1}}));
        QVERIFY(demo.call(u"echo"_s, {{"message"_L1, "second"_L1}}));
        QVERIFY(demo.call(u"get-counter"_s));
        demo.select(u"b"_s);
        QVERIFY(demo.call(u"echo"_s, {{"message"_L1, "on b"_L1}}));
        demo.select(u"a"_s);

        ToolsPanel *tools = demo.window.toolsPanel();
        QMenu *menu = openToolMenu(tools, u"echo"_s);
        QVERIFY(menu);
        menu->close();
        actionNamed(menu, u"toolShowInTranscript"_s)->trigger();
        TranscriptPanel *transcript = demo.window.transcriptPanel();
        QCOMPARE(demo.window.tabs()->currentWidget(), transcript);
        const int row = transcript->currentStoreRow();
        QVERIFY(row >= 0);
        const TranscriptEvent &event = demo.window.transcriptStore()->event(row);
        QCOMPARE(event.server, u"a"_s);
        QVERIFY2(event.raw.contains("\"tools/call\"") && event.raw.contains("\"second\""),
                 event.raw.constData());
        screenshot(&demo.window, u"window-transcript-last-call"_s);

        // A tool never called here: the tab stays, and the status bar says why.
        demo.window.tabs()->setCurrentWidget(tools);
        menu = openToolMenu(tools, u"get-weather"_s);
        QVERIFY(menu);
        menu->close();
        actionNamed(menu, u"toolShowInTranscript"_s)->trigger();
        QCOMPARE(demo.window.tabs()->currentWidget(), tools);
        QVERIFY2(
            demo.window.statusBar()->currentMessage().contains(u"No call of get-weather on a"_s),
            qPrintable(demo.window.statusBar()->currentMessage()));
    }
};

QTEST_MAIN(TestToolDefinition)
#include "tst_tooldefinition.moc"
