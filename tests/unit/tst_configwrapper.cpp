// SPDX-License-Identifier: MIT
#include "config/configwrapper.h"
#include "config/serverconfig.h"
#include "testpaths.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

// Wrapping a server of a client's config in `sonde-cli proxy` and unwrapping it again, in
// the four dialects Sonde imports: only the entry's command and args (or url) change, the
// file still reads as a config with the same servers, and unwrap gives back every byte.
class TestConfigWrapper : public QObject
{
    Q_OBJECT
private:
    // One config file per dialect, as each client writes it (tests/fixtures/client-configs).
    static QByteArray fixture(const char *name)
    {
        QFile f(QString::fromUtf8(SONDE_SOURCE_DIR "/tests/fixtures/client-configs/") +
                QString::fromUtf8(name));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    static QByteArray claudeDesktop() { return fixture("claude_desktop_config.json"); }
    static QByteArray claudeCode() { return fixture("claude-code.mcp.json"); }
    static QByteArray cursor() { return fixture("cursor-mcp.json"); }
    static QByteArray vscode() { return fixture("vscode-mcp.json"); }

private Q_SLOTS:
    void wrapsOneEntryAndUnwrapsItByteForByte_data()
    {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<QString>("server");
        QTest::addColumn<QStringList>("arguments"); // the wrapped entry's, after "--"; empty: HTTP
        QTest::newRow("Claude Desktop's stdio entry with env")
            << claudeDesktop() << u"filesystem"_s
            << QStringList{u"npx"_s, u"-y"_s, u"@modelcontextprotocol/server-filesystem"_s,
                           u"/Users/me/Desktop"_s};
        QTest::newRow("Claude Code's stdio entry with escapes in its args")
            << claudeCode() << u"local"_s
            << QStringList{u"node"_s, u"server.js"_s, u"--name=\"quoted\" é"_s};
        QTest::newRow("Claude Code's HTTP entry with a placeholder in its headers")
            << claudeCode() << u"api"_s << QStringList{};
        QTest::newRow("Cursor's entry without args, on one line")
            << cursor() << u"bare"_s << QStringList{u"/opt/mcp/server"_s};
        QTest::newRow("Cursor's SSE entry") << cursor() << u"web"_s << QStringList{};
        QTest::newRow("VS Code's JSONC entry with comments and trailing commas")
            << vscode() << u"everything"_s
            << QStringList{u"npx"_s, u"-y"_s, u"@modelcontextprotocol/server-everything"_s,
                           u"${workspaceFolder}"_s};
    }
    void wrapsOneEntryAndUnwrapsItByteForByte()
    {
        QFETCH(QByteArray, file);
        QFETCH(QString, server);
        QFETCH(QStringList, arguments);
        ConfigWrapper::Options options;
        options.sondeCli = u"/usr/bin/sonde-cli"_s;
        options.proxyArgs = {u"--control"_s, u"/run/user/1000/sonde.sock"_s};
        options.httpPort = 8931;
        const ConfigWrapper::Edit wrapped = ConfigWrapper::wrap(file, server, options);
        QVERIFY2(wrapped.error.isEmpty(), qPrintable(wrapped.error));
        // Everything outside the entry is as it was.
        const qsizetype at = file.indexOf(wrapped.original);
        QVERIFY(at > 0);
        QCOMPARE(wrapped.file.left(at), file.left(at));
        QCOMPARE(wrapped.file.mid(at + wrapped.replaced.size()),
                 file.mid(at + wrapped.original.size()));
        // Sonde's own import reads the result: the same servers, this one through the proxy.
        ServerConfigFile::Options read;
        read.resolvePlaceholders = false;
        const auto before = ServerConfigFile::parse(file, u"before"_s, read);
        const auto after = ServerConfigFile::parse(wrapped.file, u"after"_s, read);
        QVERIFY2(after.error.message().isEmpty(), qPrintable(after.error.message()));
        QCOMPARE(after.servers.keys(), before.servers.keys());
        const ServerConfig c = after.servers.value(server);
        if (arguments.isEmpty()) {
            QCOMPARE(c.url.host(), u"127.0.0.1"_s);
            QCOMPARE(c.url.port(), 8931);
            QCOMPARE(c.url.path(), before.servers.value(server).url.path());
            QCOMPARE(wrapped.target, before.servers.value(server).url.toString());
        } else {
            QCOMPARE(c.program, u"/usr/bin/sonde-cli"_s);
            QCOMPARE(c.arguments, QStringList({u"proxy"_s, u"--control"_s,
                                               u"/run/user/1000/sonde.sock"_s, u"--"_s}) +
                                      arguments);
            QCOMPARE(c.environment, before.servers.value(server).environment);
        }
        QString error;
        const auto entries = ConfigWrapper::entries(wrapped.file, &error);
        QVERIFY(entries);
        for (const ConfigWrapper::Entry &e : *entries)
            QCOMPARE(e.wrapped, e.name == server && !arguments.isEmpty()); // HTTP: by the sidecar
        const ConfigWrapper::Edit back =
            ConfigWrapper::unwrap(wrapped.file, server, wrapped.original, wrapped.replaced);
        QVERIFY2(back.error.isEmpty(), qPrintable(back.error));
        QCOMPARE(back.file, file);
    }

    void refusesWhatItCannotDoInOneLine_data()
    {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<QString>("server");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("error");
        QTest::newRow("a server the file does not have")
            << claudeDesktop() << u"nope"_s << 0
            << u"no server named \"nope\" (the file has: filesystem, other)"_s;
        QTest::newRow("an HTTP entry without the proxy's port")
            << cursor() << u"web"_s << 0 << u"the proxy's port is needed (--port)"_s;
        QTest::newRow("a file that is not a client config")
            << QByteArray("{\"name\": 1}") << u"x"_s << 0 << u"no \"mcpServers\" or \"servers\""_s;
        QTest::newRow("an HTTP entry whose url the client resolves")
            << QByteArray("{\"mcpServers\":{\"api\":{\"type\":\"http\",\"url\":\"${BASE:-https://"
                          "x.example}/mcp\"}}}")
            << u"api"_s << 8931 << u"its url holds a placeholder the client resolves"_s;
        QTest::newRow("a file that is not JSON")
            << QByteArray("<html>") << u"x"_s << 0 << u"not a JSON object"_s;
    }
    void refusesWhatItCannotDoInOneLine()
    {
        QFETCH(QByteArray, file);
        QFETCH(QString, server);
        QFETCH(int, port);
        QFETCH(QString, error);
        ConfigWrapper::Options options;
        options.sondeCli = u"/usr/bin/sonde-cli"_s;
        options.httpPort = quint16(port);
        const ConfigWrapper::Edit e = ConfigWrapper::wrap(file, server, options);
        QVERIFY2(e.error.contains(error), qPrintable(e.error));
        QVERIFY(e.file.isEmpty());
    }

    void aFileIsWrappedOnceWithABackupAndUnwrappedToItsBytes()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"mcp.json"_s);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(vscode());
        f.close();
        ConfigWrapper::Options options;
        options.sondeCli = u"/usr/bin/sonde-cli"_s;
        QCOMPARE(ConfigWrapper::wrapFile(path, u"everything"_s, options), QString());
        QFile backup(ConfigWrapper::backupPath(path));
        QVERIFY(backup.open(QIODevice::ReadOnly));
        QCOMPARE(backup.readAll(), vscode());
        QVERIFY(ConfigWrapper::wrapFile(path, u"everything"_s, options)
                    .contains(u"already runs through sonde-cli proxy"_s));
        QCOMPARE(ConfigWrapper::unwrapFile(path, u"everything"_s), QString());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), vscode());
        f.close();
        QVERIFY(!QFile::exists(ConfigWrapper::sidecarPath(path)));
        QVERIFY(ConfigWrapper::unwrapFile(path, u"everything"_s)
                    .contains(u"nothing was wrapped here"_s));
    }

    void anEntryEditedSinceItWasWrappedIsNotUnwrapped()
    {
        ConfigWrapper::Options options;
        options.sondeCli = u"/usr/bin/sonde-cli"_s;
        const ConfigWrapper::Edit wrapped =
            ConfigWrapper::wrap(claudeDesktop(), u"other"_s, options);
        QByteArray edited = wrapped.file;
        edited.replace("mcp-server-git", "mcp-server-git2");
        const ConfigWrapper::Edit back =
            ConfigWrapper::unwrap(edited, u"other"_s, wrapped.original, wrapped.replaced);
        QVERIFY(back.error.contains(u"was changed since it was wrapped"_s));
    }
};

QTEST_GUILESS_MAIN(TestConfigWrapper)
#include "tst_configwrapper.moc"
