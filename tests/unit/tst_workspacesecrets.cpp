// SPDX-License-Identifier: MIT
// WorkspaceSecrets: which headers and environment values are secret, the settings file
// holding only references, values coming back through the store, plaintext values of an
// older Sonde migrated out of the INI file, a missing secret said in words, and a removed
// server's secret removed.
#include "application/workspace/workspacesecrets.h"
#include "application/workspace/workspacesettings.h"
#include "secrets/memorysecretstore.h"
#include "secretstorewait.h"

#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

ServerConfig remote(const QList<QPair<QByteArray, QByteArray>> &headers)
{
    ServerConfig c;
    c.name = u"remote"_s;
    c.route = ServerConfig::Route::StreamableHttp;
    c.url = QUrl(u"http://127.0.0.1:9/mcp"_s);
    c.headers = headers;
    return c;
}

ServerConfig stdioServer(const QMap<QString, QString> &environment)
{
    ServerConfig c;
    c.name = u"github"_s;
    c.program = u"/usr/bin/env"_s;
    c.environment = environment;
    return c;
}

QByteArray fileContents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

std::optional<QByteArray> readNow(SecretStore &store, const QString &key)
{
    return SecretStoreWait::readNow(store, key).first;
}

WorkspaceSecrets::Loaded resolveNow(WorkspaceSecrets &secrets, const Workspace &w)
{
    WorkspaceSecrets::Loaded loaded;
    bool done = false;
    secrets.resolve(w, [&](const WorkspaceSecrets::Loaded &l) {
        loaded = l;
        done = true;
    });
    if (!QTest::qWaitFor([&] { return done; }, 5000))
        loaded.errors.append(u"resolve never finished"_s);
    return loaded;
}

} // namespace

class TestWorkspaceSecrets : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void whichHeadersAreSecret_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QList<QByteArray>>("marked");
        QTest::addColumn<bool>("secret");
        QTest::newRow("Authorization is always secret")
            << QByteArray("authorization") << QList<QByteArray>{} << true;
        QTest::newRow("an API key header is secret")
            << QByteArray("X-API-Key") << QList<QByteArray>{} << true;
        QTest::newRow("a token header is secret")
            << QByteArray("X-Auth-Token") << QList<QByteArray>{} << true;
        QTest::newRow("a cookie is secret") << QByteArray("Cookie") << QList<QByteArray>{} << true;
        QTest::newRow("a client secret header is secret")
            << QByteArray("X-Client-Secret") << QList<QByteArray>{} << true;
        QTest::newRow("a header the user marked is secret")
            << QByteArray("X-Tenant") << QList<QByteArray>{"x-tenant"} << true;
        QTest::newRow("an unmarked tenant header is not")
            << QByteArray("X-Tenant") << QList<QByteArray>{} << false;
        QTest::newRow("Accept-Language is not")
            << QByteArray("Accept-Language") << QList<QByteArray>{} << false;
    }
    void whichHeadersAreSecret()
    {
        QFETCH(QByteArray, name);
        QFETCH(QList<QByteArray>, marked);
        QFETCH(bool, secret);
        ServerConfig c = remote({});
        c.secretHeaders = marked;
        QCOMPARE(WorkspaceSecrets::isSecretHeader(c, name), secret);
    }

    void theSettingsFileHoldsAReferenceAndTheStoreTheValue()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath(u"sonde.ini"_s);
        MemorySecretStore store;
        WorkspaceSecrets secrets(&store);
        Workspace w;
        ServerConfig c = remote({{"Authorization", "Bearer tok-123456"},
                                 {"X-Tenant", "acme-tenant"},
                                 {"Accept-Language", "de"}});
        c.secretHeaders = {"X-Tenant"};
        w.servers.append({c, {}, false});
        secrets.keep(w);
        {
            QSettings settings(ini, QSettings::IniFormat);
            QVERIFY(WorkspaceSettings::saveNow(settings, w));
        }
        const QByteArray file = fileContents(ini);
        QVERIFY(!file.contains("tok-123456"));
        QVERIFY(!file.contains("acme-tenant"));
        QVERIFY(file.contains("sonde-secret:header/remote/Authorization"));
        QVERIFY(file.contains("Accept-Language"));
        QCOMPARE(readNow(store, u"header/remote/Authorization"_s),
                 std::optional<QByteArray>("Bearer tok-123456"));

        // A restart: a new WorkspaceSecrets over the same (persistent) store.
        WorkspaceSecrets after(&store);
        QSettings settings(ini, QSettings::IniFormat);
        const WorkspaceSecrets::Loaded loaded =
            resolveNow(after, WorkspaceSettings::load(settings));
        QVERIFY2(loaded.errors.isEmpty(), qPrintable(loaded.errors.join(u'\n')));
        QVERIFY(!loaded.migrated);
        const ServerConfig &r = loaded.workspace.servers.at(0).config;
        auto sorted = [](QList<QPair<QByteArray, QByteArray>> h) {
            std::sort(h.begin(), h.end());
            return h;
        };
        QCOMPARE(sorted(r.headers), sorted(c.headers)); // a JSON object: sorted by name
        QVERIFY(r.secretHeaders.contains("X-Tenant"));  // the mark survives
    }

    void plaintextSecretsOfAnOlderSondeMoveIntoTheStore()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath(u"sonde.ini"_s);
        {
            // Written the old way: the header's value in the INI file.
            QSettings settings(ini, QSettings::IniFormat);
            settings.setValue(
                u"workspace/servers"_s,
                QByteArray("{\"mcpServers\":{\"remote\":{\"headers\":{"
                           "\"Authorization\":\"Bearer old-plain-987\"},"
                           "\"type\":\"http\",\"url\":\"http://127.0.0.1:9/mcp\"}}}"));
        }
        QVERIFY(fileContents(ini).contains("old-plain-987"));
        MemorySecretStore store;
        WorkspaceSecrets secrets(&store);
        QSettings settings(ini, QSettings::IniFormat);
        const WorkspaceSecrets::Loaded loaded =
            resolveNow(secrets, WorkspaceSettings::load(settings));
        QVERIFY2(loaded.errors.isEmpty(), qPrintable(loaded.errors.join(u'\n')));
        QVERIFY(loaded.migrated);
        QCOMPARE(loaded.workspace.servers.at(0).config.headers.value(0).second,
                 QByteArray("Bearer old-plain-987"));
        QCOMPARE(readNow(store, u"header/remote/Authorization"_s),
                 std::optional<QByteArray>("Bearer old-plain-987"));
        // What the window does on `migrated`: save, and the value is gone from the file.
        QVERIFY(WorkspaceSettings::saveNow(settings, loaded.workspace));
        QVERIFY(!fileContents(ini).contains("old-plain-987"));
        WorkspaceSecrets again(&store);
        const WorkspaceSecrets::Loaded reloaded =
            resolveNow(again, WorkspaceSettings::load(settings));
        QVERIFY(!reloaded.migrated);
        QCOMPARE(reloaded.workspace.servers.at(0).config.headers.value(0).second,
                 QByteArray("Bearer old-plain-987"));
    }

    void aSecretTheStoreDoesNotHaveIsSaidInWordsAndItsReferenceKept()
    {
        MemorySecretStore empty; // a memory store after a restart holds nothing
        WorkspaceSecrets secrets(&empty);
        Workspace w;
        w.servers.append({remote({{"Authorization",
                                   WorkspaceSecrets::referenceFor(u"remote"_s, "Authorization")}}),
                          {},
                          false});
        const WorkspaceSecrets::Loaded loaded = resolveNow(secrets, w);
        QCOMPARE(loaded.unresolved, QStringList{u"remote"_s});
        QCOMPARE(loaded.errors.size(), 1);
        QVERIFY2(loaded.errors.at(0).contains(u"remote"_s) &&
                     loaded.errors.at(0).contains(u"Authorization"_s) &&
                     loaded.errors.at(0).contains(u"memory"_s),
                 qPrintable(loaded.errors.at(0)));
        // Kept, so a keyring that answers next time still finds it; never written as a value.
        QCOMPARE(loaded.workspace.servers.at(0).config.headers.value(0).second,
                 WorkspaceSecrets::referenceFor(u"remote"_s, "Authorization"));
        secrets.keep(loaded.workspace);
        QTest::qWait(10);
        QVERIFY(!readNow(empty, u"header/remote/Authorization"_s));
    }

    void aWorkspaceWithoutSecretsResolvesInsideTheCall()
    {
        MemorySecretStore store;
        WorkspaceSecrets secrets(&store);
        Workspace w;
        w.servers.append({remote({{"Accept", "application/json"}}), {}, false});
        bool done = false;
        secrets.resolve(w, [&](const WorkspaceSecrets::Loaded &l) {
            done = true;
            QVERIFY(!l.migrated);
        });
        QVERIFY(done);
    }

    void aRemovedServerTakesItsSecretsWithIt()
    {
        MemorySecretStore store;
        WorkspaceSecrets secrets(&store);
        Workspace w;
        w.servers.append({remote({{"X-API-Key", "k-abcdef"}}), {}, false});
        secrets.keep(w);
        QCOMPARE(readNow(store, u"header/remote/X-API-Key"_s),
                 std::optional<QByteArray>("k-abcdef"));
        secrets.keep(Workspace());
        QTRY_VERIFY(!readNow(store, u"header/remote/X-API-Key"_s));
    }

    void onlyAChangedValueIsWrittenAgain()
    {
        MemorySecretStore store;
        WorkspaceSecrets secrets(&store);
        Workspace w;
        w.servers.append({remote({{"Authorization", "Bearer a1b2c3"}}), {}, false});
        secrets.keep(w);
        // Changed behind its back: an unchanged workspace is not written over it.
        bool written = false;
        store.write(u"header/remote/Authorization"_s, "changed elsewhere",
                    [&](QString) { written = true; });
        QTRY_VERIFY(written);
        secrets.keep(w);
        QCOMPARE(readNow(store, u"header/remote/Authorization"_s),
                 std::optional<QByteArray>("changed elsewhere"));
        w.servers[0].config.headers[0].second = "Bearer d4e5f6";
        secrets.keep(w);
        QCOMPARE(readNow(store, u"header/remote/Authorization"_s),
                 std::optional<QByteArray>("Bearer d4e5f6"));
    }

    void whichEnvironmentValuesAreSecret_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("plain");
        QTest::addColumn<bool>("secret");
        QTest::newRow("a token variable is secret") << u"GITHUB_TOKEN"_s << QStringList{} << true;
        QTest::newRow("a variable whose name says nothing is secret too")
            << u"DATABASE_URL"_s << QStringList{} << true;
        QTest::newRow("a variable the user marked plain is not")
            << u"LOG_LEVEL"_s << QStringList{u"LOG_LEVEL"_s} << false;
        QTest::newRow("the mark is for that name only")
            << u"GITHUB_TOKEN"_s << QStringList{u"LOG_LEVEL"_s} << true;
    }
    void whichEnvironmentValuesAreSecret()
    {
        QFETCH(QString, name);
        QFETCH(QStringList, plain);
        QFETCH(bool, secret);
        ServerConfig c = stdioServer({{name, u"v"_s}});
        c.plainEnvironment = plain;
        QCOMPARE(WorkspaceSecrets::isSecretEnvironment(c, name), secret);
    }

    // The GITHUB_TOKEN of a stdio server was written to Sonde.conf as it was.
    void anEnvironmentValueIsKeptInTheStoreUnlessMarkedPlain()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath(u"sonde.ini"_s);
        MemorySecretStore store;
        WorkspaceSecrets secrets(&store);
        Workspace w;
        ServerConfig c = stdioServer(
            {{u"GITHUB_TOKEN"_s, u"ghp_env0123456789"_s}, {u"LOG_LEVEL"_s, u"debug-level-7"_s}});
        c.plainEnvironment = {u"LOG_LEVEL"_s};
        w.servers.append({c, {}, false});
        secrets.keep(w);
        {
            QSettings settings(ini, QSettings::IniFormat);
            QVERIFY(WorkspaceSettings::saveNow(settings, w));
        }
        const QByteArray file = fileContents(ini);
        QVERIFY(!file.contains("ghp_env0123456789"));
        QVERIFY(file.contains("sonde-secret:env/github/GITHUB_TOKEN"));
        QVERIFY(file.contains("debug-level-7")); // marked plain: in the settings as it is
        QCOMPARE(readNow(store, u"env/github/GITHUB_TOKEN"_s),
                 std::optional<QByteArray>("ghp_env0123456789"));
        QVERIFY(!readNow(store, u"env/github/LOG_LEVEL"_s));

        WorkspaceSecrets after(&store);
        QSettings settings(ini, QSettings::IniFormat);
        const WorkspaceSecrets::Loaded loaded =
            resolveNow(after, WorkspaceSettings::load(settings));
        QVERIFY2(loaded.errors.isEmpty(), qPrintable(loaded.errors.join(u'\n')));
        QVERIFY(!loaded.migrated);
        const ServerConfig &r = loaded.workspace.servers.at(0).config;
        QCOMPARE(r.environment, c.environment);
        QCOMPARE(r.plainEnvironment, c.plainEnvironment);
        QVERIFY(WorkspaceSecrets::missing(r).isEmpty());
    }

    void plaintextEnvironmentOfAnOlderSondeMovesIntoTheStore()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath(u"sonde.ini"_s);
        {
            QSettings settings(ini, QSettings::IniFormat);
            settings.setValue(u"workspace/servers"_s,
                              QByteArray("{\"mcpServers\":{\"github\":{\"command\":\"gh-mcp\","
                                         "\"env\":{\"GITHUB_TOKEN\":\"ghp_old0123456789\"}}}}"));
        }
        MemorySecretStore store;
        WorkspaceSecrets secrets(&store);
        QSettings settings(ini, QSettings::IniFormat);
        const WorkspaceSecrets::Loaded loaded =
            resolveNow(secrets, WorkspaceSettings::load(settings));
        QVERIFY(loaded.migrated);
        QCOMPARE(loaded.workspace.servers.at(0).config.environment.value(u"GITHUB_TOKEN"_s),
                 u"ghp_old0123456789"_s);
        QVERIFY(WorkspaceSettings::saveNow(settings, loaded.workspace));
        QVERIFY(!fileContents(ini).contains("ghp_old0123456789"));
        QCOMPARE(readNow(store, u"env/github/GITHUB_TOKEN"_s),
                 std::optional<QByteArray>("ghp_old0123456789"));
    }

    void whatTheStoreDidNotHaveIsNamed()
    {
        MemorySecretStore empty;
        WorkspaceSecrets secrets(&empty);
        Workspace w;
        ServerConfig c = stdioServer({{u"GITHUB_TOKEN"_s, WorkspaceSecrets::environmentReferenceFor(
                                                              u"github"_s, u"GITHUB_TOKEN"_s)}});
        w.servers.append({c, {}, false});
        const WorkspaceSecrets::Loaded loaded = resolveNow(secrets, w);
        QCOMPARE(loaded.unresolved, QStringList{u"github"_s});
        QVERIFY2(loaded.errors.value(0).contains(u"variable GITHUB_TOKEN"_s),
                 qPrintable(loaded.errors.value(0)));
        QCOMPARE(WorkspaceSecrets::missing(loaded.workspace.servers.at(0).config),
                 QStringList{u"variable GITHUB_TOKEN"_s});
        ServerConfig typed = loaded.workspace.servers.at(0).config;
        typed.environment.insert(u"GITHUB_TOKEN"_s, u"ghp_new"_s);
        QVERIFY(WorkspaceSecrets::missing(typed).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestWorkspaceSecrets)
#include "tst_workspacesecrets.moc"
