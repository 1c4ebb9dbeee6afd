// SPDX-License-Identifier: MIT
// The workspace controller, headless, with sonde-demo-server as the servers' program: a load
// adds the servers in their order (the built-in HTTP demo as such), then says applied, then
// loaded; nothing is written server by server while it loads; with autosave every change is
// on disk at once; the window's part comes from the layout source.
#include "application/servers/builtindemos.h"
#include "application/servers/serverregistry.h"
#include "application/servers/serverstore.h"
#include "application/workspace/workspacecontroller.h"
#include "application/workspace/workspacesettings.h"
#include "engine/corehost.h"
#include "secrets/memorysecretstore.h"
#include "testpaths.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestWorkspaceController : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<CoreHost> m_host;
    std::unique_ptr<ServerRegistry> m_registry;
    std::unique_ptr<BuiltInDemos> m_demos;
    std::unique_ptr<MemorySecretStore> m_store;
    std::unique_ptr<WorkspaceSecrets> m_secrets;
    std::unique_ptr<WorkspaceController> m_controller;

    static Workspace::Server stdio(const QString &name)
    {
        ServerConfig c;
        c.name = name;
        c.program = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
        c.era = ServerConfig::Era::Initialize;
        return {c, {}, false};
    }
    std::unique_ptr<QSettings> settings(const QString &file) const
    {
        // A file of each test's own: the folder outlives the test.
        return std::make_unique<QSettings>(
            m_dir.filePath(QLatin1StringView(QTest::currentTestFunction()) + u'-' + file),
            QSettings::IniFormat);
    }
    QStringList names() const
    {
        QStringList out;
        for (int i = 0; i < m_registry->servers()->size(); ++i)
            out.append(m_registry->servers()->config(i).name);
        return out;
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_host = std::make_unique<CoreHost>();
        m_registry = std::make_unique<ServerRegistry>(*m_host);
        m_demos = std::make_unique<BuiltInDemos>(m_registry.get());
        m_demos->setProgram(QString::fromUtf8(SONDE_DEMO_SERVER_PATH));
        m_store = std::make_unique<MemorySecretStore>();
        m_secrets = std::make_unique<WorkspaceSecrets>(m_store.get());
        m_controller =
            std::make_unique<WorkspaceController>(m_registry.get(), m_demos.get(), m_secrets.get());
        // As the window does: every server added is a change to save.
        connect(m_registry.get(), &ServerRegistry::serverAdded, m_controller.get(),
                &WorkspaceController::changed);
    }

    void cleanup()
    {
        QSignalSpy down(m_host.get(), &CoreHost::shutdownFinished);
        m_host->shutdown();
        QVERIFY(down.wait(5000));
        m_controller.reset();
        m_secrets.reset();
        m_store.reset();
        m_demos.reset();
        m_registry.reset();
        m_host.reset();
    }

    void aLoadAddsTheServersInOrderThenSaysAppliedThenLoaded()
    {
        Workspace stored;
        stored.servers = {stdio(u"b"_s), stdio(u"a"_s), {{}, {}, true}};
        stored.servers.last().config.name = u"web"_s;
        stored.servers.last().config.route = ServerConfig::Route::StreamableHttp;
        stored.servers.last().config.url = QUrl(u"http://127.0.0.1:1/mcp"_s);
        stored.tab = 4;
        const auto file = settings(u"stored.ini"_s);
        WorkspaceSettings::save(*file, stored);
        QStringList order;
        connect(
            m_controller.get(), &WorkspaceController::applied, this,
            [&](const WorkspaceSecrets::Loaded &loaded, const Error &) {
                order.append(
                    u"applied: %1 servers, tab %2"_s.arg(names().size()).arg(loaded.workspace.tab));
            });
        connect(m_controller.get(), &WorkspaceController::loaded, this,
                [&] { order.append(u"loaded"_s); });
        m_controller->load(*file);
        QTRY_COMPARE(order, (QStringList{u"applied: 3 servers, tab 4"_s, u"loaded"_s}));
        QCOMPARE(names(), (QStringList{u"b"_s, u"a"_s, u"web"_s}));
        QCOMPARE(m_registry->servers()->builtInHttpDemos(), QStringList{u"web"_s});
        // The demo Sonde starts, wherever it listens this time.
        QTRY_VERIFY_WITH_TIMEOUT(m_registry->servers()->config(2).url.port() > 1, 10000);
    }

    void nothingIsWrittenServerByServerWhileLoading()
    {
        Workspace stored;
        stored.servers = {stdio(u"a"_s), stdio(u"b"_s)};
        const auto file = settings(u"stored.ini"_s);
        WorkspaceSettings::save(*file, stored);
        const auto target = settings(u"autosaved.ini"_s);
        m_controller->autosaveTo(target.get());
        QSignalSpy loaded(m_controller.get(), &WorkspaceController::loaded);
        // A write in the middle would hold only the servers added so far.
        QStringList seen;
        connect(m_registry.get(), &ServerRegistry::serverAdded, this, [&] {
            seen.append(QString::number(WorkspaceSettings::load(*target).servers.size()));
        });
        m_controller->load(*file);
        QTRY_COMPARE(loaded.size(), 1);
        QCOMPARE(seen, (QStringList{u"0"_s, u"0"_s}));
        QCOMPARE(WorkspaceSettings::load(*target).servers.size(), 0);
        m_controller->changed();
        QCOMPARE(WorkspaceSettings::load(*target).servers.size(), 2);
    }

    void everyChangeIsOnDiskAtOnceWhileAutosaving()
    {
        const auto target = settings(u"autosaved.ini"_s);
        m_registry->add(stdio(u"before"_s).config, {}, false);
        QCOMPARE(WorkspaceSettings::load(*target).servers.size(), 0); // not autosaving yet
        m_controller->autosaveTo(target.get());
        QCOMPARE(WorkspaceSettings::load(*target).servers.size(), 1);
        m_registry->add(stdio(u"after"_s).config, {}, false);
        QCOMPARE(WorkspaceSettings::load(*target).servers.size(), 2);
        m_controller->autosaveTo(nullptr);
        m_registry->add(stdio(u"stopped"_s).config, {}, false);
        QCOMPARE(WorkspaceSettings::load(*target).servers.size(), 2);
    }

    void theWindowsPartComesFromTheLayoutSource()
    {
        m_registry->add(stdio(u"a"_s).config, {}, false);
        m_registry->add(stdio(u"b"_s).config, {}, false);
        m_controller->setLayoutSource([](Workspace *w) {
            w->tab = 7;
            w->current = u"b"_s;
            w->darkMode = true;
        });
        const auto target = settings(u"saved.ini"_s);
        m_controller->save(*target);
        const Workspace saved = WorkspaceSettings::load(*target);
        QCOMPARE(saved.servers.size(), 2);
        QCOMPARE(saved.tab, 7);
        QCOMPARE(saved.current, u"b"_s);
        QVERIFY(saved.darkMode);
    }
};

QTEST_MAIN(TestWorkspaceController)
#include "tst_workspacecontroller.moc"
