// SPDX-License-Identifier: MIT
// The parts of MCP Apps under the window (docs/apps.md): what a Chromium console line says the
// App's policy refused, `sonde app-snapshot`'s options, the per-server switch that keeps a
// server from hearing about Apps (in the capabilities, in a config file, in the saved
// workspace), the transcript's mark on an App's own calls, and the tool list's filter for
// tools only an App calls.
#include "application/apps/appsession.h"
#include "application/apps/appsnapshotoptions.h"
#include "application/tools/toolfiltermodel.h"
#include "application/tools/toollistmodel.h"
#include "application/transcript/transcriptstore.h"
#include "config/serverconfig.h"
#include "config/workspace.h"
#include "protocol/mcpapps.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestAppParts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aConsoleLineNamesWhatThePolicyRefused_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("refusal");
        QTest::newRow("a connection, with its directive")
            << u"Refused to connect to 'http://127.0.0.1:4242/x' because it violates the "
               u"following Content Security Policy directive: \"connect-src 'none'\"."_s
            << u"connect-src http://127.0.0.1:4242/x"_s;
        QTest::newRow("an image, with its directive")
            << u"Refused to load the image 'https://cdn.example/a.png' because it violates the "
               u"following Content Security Policy directive: \"img-src data:\"."_s
            << u"img-src https://cdn.example/a.png"_s;
        QTest::newRow("the second line Chromium writes, without the directive")
            << u"Refused to connect to 'http://127.0.0.1:4242/x' because it violates the "
               u"document's Content Security Policy."_s
            << u"http://127.0.0.1:4242/x"_s;
        QTest::newRow("any other console line") << u"Refused to listen to you"_s << QString();
        QTest::newRow("an App's own words that only start alike")
            << u"Refused to connect: the user said no"_s << QString();
    }
    void aConsoleLineNamesWhatThePolicyRefused()
    {
        QFETCH(QString, line);
        QFETCH(QString, refusal);
        QCOMPARE(AppSession::policyRefusal(line).value_or(QString()), refusal);
    }

    void snapshotOptionsAreReadOrRefusedInOneLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("error");
        const QStringList base{u"--command"_s, u"srv"_s,   u"--tool"_s,
                               u"t"_s,         u"--out"_s, u"a.png"_s};
        QTest::newRow("a stdio server and a tool") << base << QString();
        QTest::newRow("no --out") << QStringList{u"--command"_s, u"srv"_s, u"--tool"_s, u"t"_s}
                                  << u"--tool and --out are needed"_s;
        QTest::newRow("two servers") << base + QStringList{u"--url"_s, u"http://127.0.0.1:1/mcp"_s}
                                     << u"use only one of --command, --url and --config"_s;
        QTest::newRow("a URL that is not http")
            << QStringList{u"--url"_s, u"file:///etc/passwd"_s, u"--tool"_s, u"t"_s, u"--out"_s,
                           u"a.png"_s}
            << u"--url must be an http or https URL"_s;
        QTest::newRow("a zero timeout")
            << base + QStringList{u"--timeout"_s, u"0"_s}
            << u"--timeout wants seconds, more than 0 and at most 3600"_s;
        QTest::newRow("a size too large") << base + QStringList{u"--size"_s, u"9000x10"_s}
                                          << u"--size wants WIDTHxHEIGHT, each 10 to 8192 pixels"_s;
        QTest::newRow("an unknown era") << base + QStringList{u"--era"_s, u"2024"_s}
                                        << u"--era wants auto, initialize or 2026-07-28"_s;
        QTest::newRow("an option it does not know")
            << base + QStringList{u"--verbose"_s}
            << u"unknown option --verbose (sonde app-snapshot --help)"_s;
        QTest::newRow("a value missing at the end")
            << base + QStringList{u"--args"_s} << u"--args wants a value"_s;
    }
    void snapshotOptionsAreReadOrRefusedInOneLine()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, error);
        QString why;
        const std::optional<AppSnapshotOptions> o = AppSnapshotOptions::parse(args, &why);
        QCOMPARE(why, error);
        QCOMPARE(o.has_value(), error.isEmpty());
    }

    void snapshotOptionsKeepTheConnectionAndTheCall()
    {
        QString why;
        const std::optional<AppSnapshotOptions> o = AppSnapshotOptions::parse(
            {u"--command"_s, u"/usr/bin/srv"_s, u"--arg"_s, u"--stdio"_s, u"--env"_s, u"K=V=W"_s,
             u"--tool"_s, u"t"_s, u"--args"_s, u"{\"n\":2}"_s, u"--out"_s, u"a.png"_s, u"--size"_s,
             u"320x200"_s, u"--timeout"_s, u"2.5"_s, u"--era"_s, u"2026-07-28"_s},
            &why);
        QVERIFY2(o, qPrintable(why));
        QCOMPARE(o->server.program, u"/usr/bin/srv"_s);
        QCOMPARE(o->server.name, u"srv"_s);
        QCOMPARE(o->server.arguments, QStringList{u"--stdio"_s});
        QCOMPARE(o->server.environment.value(u"K"_s), u"V=W"_s);
        QCOMPARE(o->server.era, ServerConfig::Era::Rev20260728);
        QCOMPARE(o->arguments, (QJsonObject{{"n"_L1, 2}}));
        QCOMPARE(o->size, QSize(320, 200));
        QCOMPARE(o->timeoutMs, 2500);
    }

    void turningAppsOffRemovesOnlyTheExtension()
    {
        const QJsonObject base{{"roots"_L1, QJsonObject{}},
                               {"extensions"_L1, QJsonObject{{"other/ext"_L1, QJsonObject{}}}}};
        const QJsonObject on = McpApps::withExtension(base);
        QVERIFY(on.value("extensions"_L1).toObject().contains(u"io.modelcontextprotocol/ui"_s));
        QCOMPARE(McpApps::withoutExtension(on), base);
        QCOMPARE(McpApps::withoutExtension(McpApps::withExtension({{"roots"_L1, QJsonObject{}}})),
                 (QJsonObject{{"roots"_L1, QJsonObject{}}}));
    }

    void aConfigFileCanTurnAppsOff_data()
    {
        QTest::addColumn<QByteArray>("entry");
        QTest::addColumn<bool>("apps");
        QTest::addColumn<QString>("error");
        QTest::newRow("absent: on") << QByteArray(R"({"command":"srv"})") << true << QString();
        QTest::newRow("false: off")
            << QByteArray(R"({"command":"srv","mcpApps":false})") << false << QString();
        QTest::newRow("not a boolean") << QByteArray(R"({"command":"srv","mcpApps":"no"})") << true
                                       << u"mcp.json: server \"s\": mcpApps wants true or false"_s;
    }
    void aConfigFileCanTurnAppsOff()
    {
        QFETCH(QByteArray, entry);
        QFETCH(bool, apps);
        QFETCH(QString, error);
        const ServerConfigFile::Result r =
            ServerConfigFile::parse(R"({"mcpServers":{"s":)" + entry + "}}", u"mcp.json"_s);
        QCOMPARE(r.error.message(), error);
        if (error.isEmpty())
            QCOMPARE(r.servers.value(u"s"_s).mcpApps, apps);
    }

    void theWorkspaceKeepsTheSwitch()
    {
        Workspace w;
        Workspace::Server on;
        on.config.name = u"on"_s;
        on.config.program = u"srv"_s;
        Workspace::Server off = on;
        off.config.name = u"off"_s;
        off.config.mcpApps = false;
        w.servers = {on, off};
        const Workspace back = Workspace::fromValues(w.toValues());
        QCOMPARE(back.servers.size(), 2);
        QVERIFY(back.servers.at(0).config.mcpApps);
        QVERIFY(!back.servers.at(1).config.mcpApps);
    }

    void theTranscriptMarksAnAppsCallsOnly()
    {
        TranscriptStore store;
        QSignalSpy marked(&store, &TranscriptStore::appCallsMarked);
        auto frame = [](TranscriptEvent::Direction d, const QByteArray &raw) {
            TranscriptEvent e;
            e.server = u"s"_s;
            e.direction = d;
            e.raw = raw;
            return e;
        };
        using D = TranscriptEvent::Direction;
        store.append({frame(D::Outgoing, R"({"jsonrpc":"2.0","id":7,"method":"tools/call"})"),
                      frame(D::Incoming, R"({"jsonrpc":"2.0","id":7,"result":{}})"),
                      frame(D::Outgoing, R"({"jsonrpc":"2.0","id":8,"method":"tools/call"})")});
        store.markAppCall(u"s"_s, u"7"_s);
        store.markAppCall(u"s"_s, u"7"_s); // once is enough
        QCOMPARE(marked.size(), 1);
        QVERIFY(store.isAppCall(u"s"_s, store.entry(0)));
        QVERIFY(store.isAppCall(u"s"_s, store.entry(1)));
        QVERIFY(!store.isAppCall(u"s"_s, store.entry(2)));
        QVERIFY(!store.isAppCall(u"other"_s, store.entry(0)));
    }

    void toolsOnlyAnAppCallsAreFilteredOutUntilShown()
    {
        ToolListModel tools;
        auto tool = [](const QString &name, const QJsonArray &visibility) {
            QJsonObject t{{"name"_L1, name}};
            if (!visibility.isEmpty())
                t.insert("_meta"_L1,
                         QJsonObject{{"ui"_L1, QJsonObject{{"visibility"_L1, visibility}}}});
            return t;
        };
        tools.setTools({tool(u"plain"_s, {}), tool(u"both"_s, {u"model"_s, u"app"_s}),
                        tool(u"app-only"_s, {u"app"_s}), tool(u"model-only"_s, {u"model"_s})});
        QCOMPARE(tools.appOnlyCount(), 1);
        ToolFilterModel filter;
        filter.setSourceModel(&tools);
        auto names = [&filter] {
            QStringList n;
            for (int i = 0; i < filter.rowCount(); ++i)
                n << filter.index(i, 0).data(ToolListModel::NameRole).toString();
            return n;
        };
        QCOMPARE(names(), (QStringList{u"plain"_s, u"both"_s, u"model-only"_s}));
        filter.setAppOnlyShown(true);
        QCOMPARE(names().size(), 4);
        filter.setFilterFixedString(u"only"_s);
        QCOMPARE(names(), (QStringList{u"app-only"_s, u"model-only"_s}));
    }
};

QTEST_GUILESS_MAIN(TestAppParts)
#include "tst_appparts.moc"
