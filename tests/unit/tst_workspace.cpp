// SPDX-License-Identifier: MIT
#include "application/workspace/workspacesecrets.h"
#include "application/workspace/workspacesettings.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestWorkspace : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString ini(const QString &name) const { return m_dir.filePath(name + u".ini"_s); }

    static Workspace sample()
    {
        Workspace w;
        ServerConfig stdio;
        stdio.name = u"zeta"_s;
        stdio.program = u"/usr/bin/server"_s;
        stdio.arguments = {u"--flag"_s, u"two words"_s};
        stdio.environment = {{u"TOKEN"_s, u"abc"_s}, {u"MODE"_s, u"x"_s}};
        stdio.workingDirectory = u"/srv"_s;
        stdio.requestTimeoutMs = 12'000;
        stdio.breakerThreshold = 7;
        stdio.breakerCooldownMs = 9'000;
        stdio.pingIntervalMs = 15'000;
        ServerConfig http;
        http.name = u"alpha"_s;
        http.route = ServerConfig::Route::StreamableHttp;
        http.url = QUrl(u"http://127.0.0.1:9/mcp"_s);
        http.headers = {{"Authorization", "Bearer x"}};
        ServerConfig sse;
        sse.name = u"middle"_s;
        sse.route = ServerConfig::Route::LegacySse;
        sse.url = QUrl(u"http://127.0.0.1:9/sse"_s);
        // Not sorted by name: the user's order is kept.
        w.servers = {{stdio, {u"/tmp"_s, u"/home"_s}}, {http, {}, true}, {sse, {u"/x"_s}}};
        w.current = u"alpha"_s;
        w.geometry = "geometry-bytes";
        w.windowState = "state-bytes";
        w.splitter = "split-bytes";
        w.transcriptColumns = "columns-bytes";
        w.tab = 3;
        w.darkMode = true;
        return w;
    }

    static void compareServers(const Workspace::Server &a, const Workspace::Server &b)
    {
        QCOMPARE(a.config.name, b.config.name);
        QCOMPARE(a.config.route, b.config.route);
        QCOMPARE(a.config.program, b.config.program);
        QCOMPARE(a.config.arguments, b.config.arguments);
        QCOMPARE(a.config.environment, b.config.environment);
        QCOMPARE(a.config.workingDirectory, b.config.workingDirectory);
        QCOMPARE(a.config.url, b.config.url);
        QCOMPARE(a.config.headers, b.config.headers);
        QCOMPARE(a.config.requestTimeoutMs, b.config.requestTimeoutMs);
        QCOMPARE(a.config.breakerThreshold, b.config.breakerThreshold);
        QCOMPARE(a.config.breakerCooldownMs, b.config.breakerCooldownMs);
        QCOMPARE(a.config.pingIntervalMs, b.config.pingIntervalMs);
        QCOMPARE(a.roots, b.roots);
        QCOMPARE(a.builtInHttpDemo, b.builtInHttpDemo);
    }

private Q_SLOTS:
    void whatIsWrittenIsReadBackFieldByField()
    {
        const Workspace written = sample();
        {
            QSettings settings(ini(u"roundtrip"_s), QSettings::IniFormat);
            WorkspaceSettings::save(settings, written);
        }
        QSettings settings(ini(u"roundtrip"_s), QSettings::IniFormat);
        Error error;
        const Workspace read = WorkspaceSettings::load(settings, &error);
        QVERIFY2(!error.isError(), qPrintable(error.message()));
        QCOMPARE(read.servers.size(), written.servers.size());
        // Secret header values are not in the settings, only their references
        // (tst_workspacesecrets covers the values' way through the store).
        const Workspace expected = WorkspaceSecrets::withReferences(written);
        for (int i = 0; i < read.servers.size(); ++i)
            compareServers(read.servers.at(i), expected.servers.at(i));
        QCOMPARE(read.current, written.current);
        QCOMPARE(read.geometry, written.geometry);
        QCOMPARE(read.windowState, written.windowState);
        QCOMPARE(read.splitter, written.splitter);
        QCOMPARE(read.transcriptColumns, written.transcriptColumns);
        QCOMPARE(read.tab, written.tab);
        QCOMPARE(read.darkMode, written.darkMode);
    }

    void aWorkspaceWrittenBeforeTheOrderWasKeptLoadsSortedByName()
    {
        // What earlier versions wrote: the mcpServers JSON, Sonde's extras, no order.
        {
            QSettings settings(ini(u"old"_s), QSettings::IniFormat);
            settings.setValue(
                u"workspace/servers"_s,
                QByteArray("{\"mcpServers\":{\"remote\":{\"headers\":{\"Authorization\":"
                           "\"Bearer x\"},\"type\":\"http\",\"url\":\"http://127.0.0.1:9/mcp\"},"
                           "\"demo\":{\"args\":[\"-v\"],\"command\":\"/bin/demo\"}}}"));
            settings.setValue(
                u"workspace/sonde"_s,
                QByteArray("{\"demo\":{\"breakerCooldownMs\":60000,\"breakerThreshold\":3,"
                           "\"pingIntervalMs\":0,\"roots\":[],\"timeoutMs\":60000},"
                           "\"remote\":{\"breakerCooldownMs\":60000,\"breakerThreshold\":5,"
                           "\"pingIntervalMs\":15000,\"roots\":[\"/tmp\"],\"timeoutMs\":60000}}"));
            settings.setValue(u"workspace/current"_s, u"remote"_s);
            settings.setValue(u"window/tab"_s, 2);
        }
        QSettings settings(ini(u"old"_s), QSettings::IniFormat);
        const Workspace w = WorkspaceSettings::load(settings);
        QCOMPARE(w.servers.size(), 2);
        QCOMPARE(w.servers.at(0).config.name, u"demo"_s);
        QCOMPARE(w.servers.at(0).config.program, u"/bin/demo"_s);
        QCOMPARE(w.servers.at(0).config.arguments, QStringList{u"-v"_s});
        const Workspace::Server &remote = w.servers.at(1);
        QCOMPARE(remote.config.name, u"remote"_s);
        QCOMPARE(remote.config.route, ServerConfig::Route::StreamableHttp);
        QCOMPARE(remote.config.headers.value(0).second, QByteArray("Bearer x"));
        QCOMPARE(remote.config.breakerThreshold, 5);
        QCOMPARE(remote.config.pingIntervalMs, 15000);
        QCOMPARE(remote.roots, QStringList{u"/tmp"_s});
        QCOMPARE(w.current, u"remote"_s);
        QCOMPARE(w.tab, 2);
    }

    void anEmptyWorkspaceOpensOnTheToolsTab()
    {
        QSettings settings(ini(u"empty"_s), QSettings::IniFormat);
        const Workspace w = WorkspaceSettings::load(settings);
        QVERIFY(w.servers.isEmpty());
        QVERIFY(w.current.isEmpty());
        QCOMPARE(w.tab, 1);
    }
};

QTEST_GUILESS_MAIN(TestWorkspace)
#include "tst_workspace.moc"
