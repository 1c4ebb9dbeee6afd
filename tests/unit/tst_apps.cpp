// SPDX-License-Identifier: MIT
// MCP Apps, host side without a view (issue 33): which tool has an App and who may call it,
// the ui:// resource and what it declares, the policy built from it, and the host's half of
// the App's JSON-RPC.
#include "apps/appbridge.h"
#include "apps/appcsp.h"
#include "apps/appresource.h"
#include "protocol/mcpapps.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Sonde;

namespace {

QJsonObject obj(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

using Kind = AppBridge::Action::Kind;

QList<Kind> kinds(const AppBridge::Actions &actions)
{
    QList<Kind> out;
    for (const AppBridge::Action &a : actions)
        out << a.kind;
    return out;
}

QStringList postedMethods(const AppBridge::Actions &actions)
{
    QStringList out;
    for (const AppBridge::Action &a : actions)
        if (a.kind == Kind::Post)
            out << a.message.value("method"_L1).toString();
    return out;
}

AppBridge bridge()
{
    AppBridge::Options o;
    o.hostInfo = obj(R"({"name":"sonde","version":"0.1.0"})");
    o.hostContext = obj(R"({"theme":"dark","platform":"desktop","locale":"en-US"})");
    o.tool = obj(R"({"name":"get-time"})");
    o.appMayCall = [](const QString &tool) { return tool == "get-time"_L1; };
    return AppBridge(o);
}

const QJsonObject Initialize = obj(
    R"({"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"protocolVersion":"2026-01-26","appInfo":{"name":"clock","version":"2"},"appCapabilities":{"availableDisplayModes":["inline","fullscreen"]}}})");
const QJsonObject Initialized = obj(R"({"jsonrpc":"2.0","method":"ui/notifications/initialized"})");

} // namespace

class TestApps : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aToolNamesItsApp_data();
    void aToolNamesItsApp();
    void visibilityDefaultsToBoth();
    void aFrameGoesOnlyWhereTheAppDeclared_data();
    void aFrameGoesOnlyWhereTheAppDeclared();
    void theExtensionIsDeclaredBesideOthers();
    void theResourceIsReadAsTheSpecSays_data();
    void theResourceIsReadAsTheSpecSays();
    void thePolicyOpensOnlyWhatWasDeclared_data();
    void thePolicyOpensOnlyWhatWasDeclared();
    void initializeIsAnsweredWithTheHostContext();
    void notificationsWaitForInitialized();
    void toolCallsReachTheServerOnlyForAppTools();
    void requestsBeforeInitializeAreRefused();
    void linksAreOpenedOnlyAfterTheUserSaysSo();
    void messagesAndContextGoToTheLog();
    void displayModesAreThoseBothSidesList();
    void sizeChangesResizeTheView();
    void teardownWaitsForTheAppsAnswer();
    void malformedMessagesAreRefused();
};

void TestApps::aToolNamesItsApp_data()
{
    QTest::addColumn<QJsonObject>("tool");
    QTest::addColumn<QString>("uri");
    QTest::addColumn<bool>("refused");
    QTest::newRow("the nested _meta.ui.resourceUri")
        << obj(R"({"_meta":{"ui":{"resourceUri":"ui:\/\/a/app.html"}}})") << u"ui://a/app.html"_s
        << false;
    QTest::newRow("the deprecated flat ui/resourceUri")
        << obj(R"({"_meta":{"ui/resourceUri":"ui:\/\/b/app.html"}})") << u"ui://b/app.html"_s
        << false;
    QTest::newRow("the nested name wins over the flat one")
        << obj(R"({"_meta":{"ui":{"resourceUri":"ui:\/\/new"},"ui/resourceUri":"ui:\/\/old"}})")
        << u"ui://new"_s << false;
    QTest::newRow("a tool without an App has none") << obj(R"({"name":"x"})") << QString() << false;
    QTest::newRow("an https page is refused as an App")
        << obj(R"({"_meta":{"ui":{"resourceUri":"https:\/\/example.com/app"}}})") << QString()
        << true;
}

void TestApps::aToolNamesItsApp()
{
    QFETCH(QJsonObject, tool);
    QFETCH(QString, uri);
    QFETCH(bool, refused);
    QString why;
    QCOMPARE(McpApps::resourceUri(tool, &why).value_or(QString()), uri);
    QCOMPARE(!why.isEmpty(), refused);
}

void TestApps::aFrameGoesOnlyWhereTheAppDeclared_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QStringList>("frameDomains");
    QTest::addColumn<bool>("allowed");
    const QStringList maps{u"https://maps.example.com"_s};
    QTest::newRow("a declared origin") << u"https://maps.example.com/embed?q=1"_s << maps << true;
    QTest::newRow("nothing declared") << u"https://maps.example.com/"_s << QStringList() << false;
    QTest::newRow("another host") << u"https://evil.example.com/"_s << maps << false;
    QTest::newRow("the declared host over http") << u"http://maps.example.com/"_s << maps << false;
    QTest::newRow("another port") << u"https://maps.example.com:8443/"_s << maps << false;
    QTest::newRow("a declared port") << u"https://maps.example.com:8443/"_s
                                     << QStringList{u"https://maps.example.com:8443"_s} << true;
    QTest::newRow("a subdomain of a *. domain")
        << u"https://a.cdn.example.com/x"_s << QStringList{u"https://*.cdn.example.com"_s} << true;
    QTest::newRow("the bare domain of a *. domain")
        << u"https://cdn.example.com/x"_s << QStringList{u"https://*.cdn.example.com"_s} << false;
    QTest::newRow("a host without a scheme is https")
        << u"https://maps.example.com/"_s << QStringList{u"maps.example.com"_s} << true;
    QTest::newRow("a data: page") << u"data:text/html,hi"_s << maps << false;
    QTest::newRow("\"*\" opens nothing")
        << u"https://any.example/"_s << QStringList{u"*"_s} << false;
    QTest::newRow("a suffix that is not a subdomain")
        << u"https://evilcdn.example.com/"_s << QStringList{u"https://*.cdn.example.com"_s}
        << false;
}

void TestApps::aFrameGoesOnlyWhereTheAppDeclared()
{
    QFETCH(QString, url);
    QFETCH(QStringList, frameDomains);
    QFETCH(bool, allowed);
    QCOMPARE(AppCsp::frameAllowed(QUrl(url), frameDomains), allowed);
}

void TestApps::visibilityDefaultsToBoth()
{
    const McpApps::Visibility absent = McpApps::visibility(obj(R"({"name":"a"})"));
    QVERIFY(absent.model && absent.app);
    const McpApps::Visibility appOnly =
        McpApps::visibility(obj(R"({"_meta":{"ui":{"visibility":["app"]}}})"));
    QVERIFY(!appOnly.model && appOnly.app);
    const McpApps::Visibility modelOnly =
        McpApps::visibility(obj(R"({"_meta":{"ui":{"visibility":["model"]}}})"));
    QVERIFY(modelOnly.model && !modelOnly.app);
}

void TestApps::theExtensionIsDeclaredBesideOthers()
{
    const QJsonObject caps = McpApps::withExtension(
        obj(R"({"roots":{},"extensions":{"io.modelcontextprotocol/tasks":{}}})"));
    QCOMPARE(caps.value("roots"_L1).toObject(), QJsonObject{});
    const QJsonObject extensions = caps.value("extensions"_L1).toObject();
    QVERIFY(extensions.contains("io.modelcontextprotocol/tasks"_L1));
    QCOMPARE(extensions.value("io.modelcontextprotocol/ui"_L1).toObject(),
             obj(R"({"mimeTypes":["text/html;profile=mcp-app"]})"));
}

void TestApps::theResourceIsReadAsTheSpecSays_data()
{
    QTest::addColumn<QJsonObject>("read");
    QTest::addColumn<QJsonObject>("listing");
    QTest::addColumn<QByteArray>("html");
    QTest::addColumn<QStringList>("connect");
    QTest::addColumn<QString>("refusal"); // a word the refusal must hold, or empty
    QTest::newRow("html as text")
        << obj(R"({"contents":[{"uri":"ui:\/\/a","mimeType":"text/html;profile=mcp-app","text":"<p>hi</p>"}]})")
        << QJsonObject{} << QByteArray("<p>hi</p>") << QStringList{} << QString();
    QTest::newRow("html as a base64 blob")
        << obj(R"({"contents":[{"uri":"ui:\/\/a","mimeType":"text/html;profile=mcp-app","blob":"PHA+aGk8L3A+"}]})")
        << QJsonObject{} << QByteArray("<p>hi</p>") << QStringList{} << QString();
    QTest::newRow("the content item's csp is read")
        << obj(R"({"contents":[{"uri":"ui:\/\/a","mimeType":"text/html;profile=mcp-app","text":"x","_meta":{"ui":{"csp":{"connectDomains":["https:\/\/api.example.com"]}}}}]})")
        << obj(R"({"csp":{"connectDomains":["https:\/\/listing.example.com"]}})") << QByteArray("x")
        << QStringList{u"https://api.example.com"_s} << QString();
    QTest::newRow("the listing's csp stands in for a content item that has none")
        << obj(R"({"contents":[{"uri":"ui:\/\/a","mimeType":"text/html;profile=mcp-app","text":"x"}]})")
        << obj(R"({"csp":{"connectDomains":["https:\/\/listing.example.com"]}})") << QByteArray("x")
        << QStringList{u"https://listing.example.com"_s} << QString();
    QTest::newRow("plain text/html is not an App")
        << obj(R"({"contents":[{"uri":"ui:\/\/a","mimeType":"text/html","text":"x"}]})")
        << QJsonObject{} << QByteArray() << QStringList{} << u"not an MCP App"_s;
    QTest::newRow("a blob that is not base64 is refused")
        << obj(R"({"contents":[{"uri":"ui:\/\/a","mimeType":"text/html;profile=mcp-app","blob":"@@@"}]})")
        << QJsonObject{} << QByteArray() << QStringList{} << u"base64"_s;
    QTest::newRow("no content at all is refused")
        << obj(R"({"contents":[]})") << QJsonObject{} << QByteArray() << QStringList{}
        << u"no content"_s;
}

void TestApps::theResourceIsReadAsTheSpecSays()
{
    QFETCH(QJsonObject, read);
    QFETCH(QJsonObject, listing);
    QFETCH(QByteArray, html);
    QFETCH(QStringList, connect);
    QFETCH(QString, refusal);
    QString why;
    const std::optional<AppResource> r = AppResource::fromRead(u"ui://a"_s, read, listing, &why);
    if (!refusal.isEmpty()) {
        QVERIFY(!r);
        QVERIFY2(why.contains(refusal), qPrintable(why));
        return;
    }
    QVERIFY2(r, qPrintable(why));
    QCOMPARE(r->html, html);
    QCOMPARE(r->csp.connectDomains, connect);
}

void TestApps::thePolicyOpensOnlyWhatWasDeclared_data()
{
    QTest::addColumn<QJsonObject>("csp");
    QTest::addColumn<QStringList>("contains");
    QTest::addColumn<QStringList>("lacks");
    QTest::addColumn<int>("refused");
    QTest::newRow("nothing declared is no network at all")
        << QJsonObject{}
        << QStringList{u"default-src 'none'"_s, u"connect-src 'none'"_s, u"frame-src 'none'"_s,
                       u"object-src 'none'"_s}
        << QStringList{u"http"_s, u"unsafe-eval"_s} << 0;
    QTest::newRow("a connect domain opens connections to it alone")
        << obj(R"({"connectDomains":["https:\/\/api.example.com"]})")
        << QStringList{u"connect-src https://api.example.com"_s, u"img-src data:;"_s}
        << QStringList{u"script-src 'unsafe-inline' https"_s} << 0;
    QTest::newRow("a resource domain serves scripts, styles, images, fonts and media")
        << obj(R"({"resourceDomains":["https:\/\/*.cdn.example"]})")
        << QStringList{u"script-src 'unsafe-inline' https://*.cdn.example"_s,
                       u"style-src 'unsafe-inline' https://*.cdn.example"_s,
                       u"font-src data: https://*.cdn.example"_s, u"connect-src 'none'"_s}
        << QStringList{} << 0;
    QTest::newRow("a star, a bare scheme and an injected directive are left out")
        << obj(R"({"connectDomains":["*","https:","https:\/\/a.example; script-src *","'unsafe-eval'"]})")
        << QStringList{u"connect-src 'none'"_s} << QStringList{u"a.example"_s, u"unsafe-eval"_s}
        << 4;
}

void TestApps::thePolicyOpensOnlyWhatWasDeclared()
{
    QFETCH(QJsonObject, csp);
    QFETCH(QStringList, contains);
    QFETCH(QStringList, lacks);
    QFETCH(int, refused);
    const QJsonObject read{
        {"contents"_L1, QJsonArray{QJsonObject{
                            {"uri"_L1, "ui://a"_L1},
                            {"mimeType"_L1, "text/html;profile=mcp-app"_L1},
                            {"text"_L1, "x"_L1},
                            {"_meta"_L1, QJsonObject{{"ui"_L1, QJsonObject{{"csp"_L1, csp}}}}}}}}};
    const std::optional<AppResource> r = AppResource::fromRead(u"ui://a"_s, read, {}, nullptr);
    QVERIFY(r);
    const AppCsp::Built b = AppCsp::build(r->csp);
    for (const QString &c : contains)
        QVERIFY2(b.policy.contains(c), qPrintable(b.policy));
    for (const QString &l : lacks)
        QVERIFY2(!b.policy.contains(l), qPrintable(b.policy));
    QCOMPARE(b.refused.size(), refused);
}

void TestApps::initializeIsAnsweredWithTheHostContext()
{
    AppBridge b = bridge();
    const AppBridge::Actions out = b.fromApp(Initialize);
    QCOMPARE(kinds(out), (QList<Kind>{Kind::Log, Kind::Post}));
    const QJsonObject result = out[1].message.value("result"_L1).toObject();
    QCOMPARE(out[1].message.value("id"_L1).toInt(), 1);
    QCOMPARE(result.value("protocolVersion"_L1).toString(), u"2026-01-26"_s);
    QCOMPARE(result.value("hostInfo"_L1).toObject().value("name"_L1).toString(), u"sonde"_s);
    const QJsonObject context = result.value("hostContext"_L1).toObject();
    QCOMPARE(context.value("theme"_L1).toString(), u"dark"_s);
    QCOMPARE(context.value("platform"_L1).toString(), u"desktop"_s);
    QCOMPARE(context.value("displayMode"_L1).toString(), u"inline"_s);
    QCOMPARE(context.value("toolInfo"_L1).toObject().value("tool"_L1).toObject().value("name"_L1),
             u"get-time"_s);
    QVERIFY(result.value("hostCapabilities"_L1).toObject().contains("openLinks"_L1));
    QCOMPARE(b.appInfo().value("name"_L1).toString(), u"clock"_s);
}

void TestApps::notificationsWaitForInitialized()
{
    AppBridge b = bridge();
    QCOMPARE(b.toolInput(obj(R"({"tz":"UTC"})")).size(), 0);
    QCOMPARE(b.toolResult(obj(R"({"content":[{"type":"text","text":"12:00"}]})")).size(), 0);
    b.fromApp(Initialize);
    const AppBridge::Actions flushed = b.fromApp(Initialized);
    QCOMPARE(postedMethods(flushed),
             (QStringList{u"ui/notifications/tool-input"_s, u"ui/notifications/tool-result"_s}));
    QCOMPARE(flushed[0].message.value("params"_L1).toObject().value("arguments"_L1).toObject(),
             obj(R"({"tz":"UTC"})"));
    // Once initialized, at once.
    QCOMPARE(postedMethods(b.hostContextChanged(obj(R"({"theme":"light"})"))),
             QStringList{u"ui/notifications/host-context-changed"_s});
}

void TestApps::toolCallsReachTheServerOnlyForAppTools()
{
    AppBridge b = bridge();
    b.fromApp(Initialize);
    b.fromApp(Initialized);
    const AppBridge::Actions allowed = b.fromApp(obj(
        R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get-time","arguments":{}}})"));
    QCOMPARE(kinds(allowed), QList<Kind>{Kind::CallServer});
    QCOMPARE(allowed[0].method, u"tools/call"_s);
    QCOMPARE(allowed[0].appId.toInt(), 7);
    const AppBridge::Actions answered =
        b.serverAnswered(7, obj(R"({"content":[{"type":"text","text":"12:00"}]})"), {});
    QCOMPARE(answered[0].message.value("id"_L1).toInt(), 7);
    QVERIFY(answered[0].message.contains("result"_L1));

    const AppBridge::Actions refused = b.fromApp(obj(
        R"({"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"delete-everything"}})"));
    QVERIFY(!kinds(refused).contains(Kind::CallServer));
    QCOMPARE(refused[0].message.value("error"_L1).toObject().value("code"_L1).toInt(), -32602);
    QVERIFY(refused[0]
                .message.value("error"_L1)
                .toObject()
                .value("message"_L1)
                .toString()
                .contains(u"\"app\""_s));
    // resources/read goes through as it is.
    QCOMPARE(
        kinds(b.fromApp(obj(
            R"({"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"uri":"ui:\/\/x"}})"))),
        QList<Kind>{Kind::CallServer});
}

void TestApps::requestsBeforeInitializeAreRefused()
{
    AppBridge b = bridge();
    const AppBridge::Actions out = b.fromApp(
        obj(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get-time"}})"));
    QVERIFY(!kinds(out).contains(Kind::CallServer));
    QVERIFY(out[0].message.contains("error"_L1));
}

void TestApps::linksAreOpenedOnlyAfterTheUserSaysSo()
{
    AppBridge b = bridge();
    b.fromApp(Initialize);
    const AppBridge::Actions ask = b.fromApp(obj(
        R"({"jsonrpc":"2.0","id":3,"method":"ui/open-link","params":{"url":"https:\/\/modelcontextprotocol.io/"}})"));
    QCOMPARE(kinds(ask), QList<Kind>{Kind::OpenLink});
    QCOMPARE(ask[0].text, u"https://modelcontextprotocol.io/"_s);
    QVERIFY(b.linkAnswered(3, true)[0].message.contains("result"_L1));
    QVERIFY(b.linkAnswered(3, false)[0].message.contains("error"_L1));
    const AppBridge::Actions script = b.fromApp(obj(
        R"({"jsonrpc":"2.0","id":4,"method":"ui/open-link","params":{"url":"javascript:void 0"}})"));
    QVERIFY(!kinds(script).contains(Kind::OpenLink));
    QVERIFY(script[0].message.contains("error"_L1));
}

void TestApps::messagesAndContextGoToTheLog()
{
    AppBridge b = bridge();
    b.fromApp(Initialize);
    const AppBridge::Actions message = b.fromApp(obj(
        R"({"jsonrpc":"2.0","id":5,"method":"ui/message","params":{"role":"user","content":[{"type":"text","text":"What time is it?"}]}})"));
    QCOMPARE(kinds(message), (QList<Kind>{Kind::Log, Kind::Post}));
    QVERIFY(message[0].text.contains(u"What time is it?"_s));
    QCOMPARE(message[1].message.value("result"_L1).toObject(), QJsonObject{});
    const AppBridge::Actions context = b.fromApp(obj(
        R"({"jsonrpc":"2.0","id":6,"method":"ui/update-model-context","params":{"structuredContent":{"time":"12:00"}}})"));
    QVERIFY(context[0].text.contains(u"12:00"_s));
    const AppBridge::Actions logged = b.fromApp(obj(
        R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"clicked"}})"));
    QCOMPARE(logged[0].level, u"info"_s);
    QCOMPARE(logged[0].text, u"clicked"_s);
}

void TestApps::displayModesAreThoseBothSidesList()
{
    AppBridge b = bridge();
    b.fromApp(Initialize);
    const AppBridge::Actions full = b.fromApp(obj(
        R"({"jsonrpc":"2.0","id":10,"method":"ui/request-display-mode","params":{"mode":"fullscreen"}})"));
    QCOMPARE(kinds(full), (QList<Kind>{Kind::DisplayMode, Kind::Post}));
    QCOMPARE(full[1].message.value("result"_L1).toObject().value("mode"_L1).toString(),
             u"fullscreen"_s);
    const AppBridge::Actions pip = b.fromApp(obj(
        R"({"jsonrpc":"2.0","id":11,"method":"ui/request-display-mode","params":{"mode":"pip"}})"));
    QCOMPARE(kinds(pip), QList<Kind>{Kind::Post});
    QCOMPARE(pip[0].message.value("result"_L1).toObject().value("mode"_L1).toString(),
             u"fullscreen"_s);
    // The host brought it back inline (the user pressed Escape): asking again goes through.
    b.hostContextChanged(obj(R"({"displayMode":"inline"})"));
    const AppBridge::Actions again = b.fromApp(obj(
        R"({"jsonrpc":"2.0","id":12,"method":"ui/request-display-mode","params":{"mode":"fullscreen"}})"));
    QCOMPARE(kinds(again), (QList<Kind>{Kind::DisplayMode, Kind::Post}));
}

void TestApps::sizeChangesResizeTheView()
{
    AppBridge b = bridge();
    const AppBridge::Actions out = b.fromApp(obj(
        R"({"jsonrpc":"2.0","method":"ui/notifications/size-changed","params":{"width":320,"height":180}})"));
    QCOMPARE(kinds(out), QList<Kind>{Kind::Resize});
    QCOMPARE(out[0].width, 320);
    QCOMPARE(out[0].height, 180);
}

void TestApps::teardownWaitsForTheAppsAnswer()
{
    AppBridge b = bridge();
    // An App that never initialized has nothing to save: it goes at once.
    QCOMPARE(kinds(b.teardown(u"closed"_s)), QList<Kind>{Kind::TornDown});
    b.fromApp(Initialize);
    b.fromApp(Initialized);
    const AppBridge::Actions asked = b.teardown(u"the answer was closed"_s);
    QCOMPARE(postedMethods(asked), QStringList{u"ui/resource-teardown"_s});
    const QJsonValue id = asked[0].message.value("id"_L1);
    QCOMPARE(
        kinds(b.fromApp({{"jsonrpc"_L1, "2.0"_L1}, {"id"_L1, id}, {"result"_L1, QJsonObject{}}})),
        QList<Kind>{Kind::TornDown});
}

void TestApps::malformedMessagesAreRefused()
{
    AppBridge b = bridge();
    QCOMPARE(kinds(b.fromApp(obj(R"({"method":"ui/initialize","id":1})"))), QList<Kind>{Kind::Log});
    QVERIFY(!b.initialized());
    b.fromApp(Initialize);
    const AppBridge::Actions unknown =
        b.fromApp(obj(R"({"jsonrpc":"2.0","id":12,"method":"ui/download-everything"})"));
    QCOMPARE(unknown[0].message.value("error"_L1).toObject().value("code"_L1).toInt(), -32601);
}

QTEST_GUILESS_MAIN(TestApps)
#include "tst_apps.moc"
