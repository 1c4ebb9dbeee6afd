// SPDX-License-Identifier: MIT
// sonde-cli proxy -- COMMAND (issue 31, the stdio relay): a client running the proxy in place
// of its server reads exactly what the server wrote, a line that is not JSON included, and 20
// MiB arrive whole and in order; the server's stderr passes through; the proxy exits as its
// server did; a command line without a server is refused in one line.
#include "clifixtures.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace SondeTest;

namespace {

QString cli()
{
    return QString::fromUtf8(SONDE_CLI_PATH);
}

} // namespace

class TestProxyStdio : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theClientReadsWhatTheServerWroteByteForByte()
    {
        const QByteArray input =
            R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"
            "\n"
            R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
            "\n"
            "not json at all\n"
            R"({"jsonrpc":"2.0","id":"two","method":"tools/list"})"
            "\n"
            R"({"jsonrpc":"2.0","id":3,"method":"ping"})"
            "\n";
        const QString server = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
        const Run direct = runProgram(server, {}, input);
        const Run proxied = runProgram(cli(), {u"proxy"_s, u"--"_s, server}, input);
        QCOMPARE(direct.exitCode, 0);
        QVERIFY2(direct.out.count('\n') == 4, direct.out.constData()); // 3 answers, 1 parse error
        QCOMPARE(proxied.exitCode, direct.exitCode);
        QCOMPARE(proxied.out, direct.out);
        // The server's own stderr, passed through.
        QVERIFY2(proxied.err.contains("sonde-demo-server ready on stdio"), proxied.err.constData());
    }

    // More than the proxy holds for a server that has not read yet (StdioRelay::
    // MaxPendingBytes): the client's input waits instead, and nothing is lost or reordered.
    void aServerThatEchoesTwentyMebibytesGetsBackEveryByteInOrder()
    {
        QByteArray input;
        for (int i = 0; input.size() < 20 * 1024 * 1024; ++i)
            input += R"({"jsonrpc":"2.0","method":"notifications/message","params":{"n":)" +
                     QByteArray::number(i) + "}}\n";
        const Run r = runProgram(cli(), {u"proxy"_s, u"--"_s, u"/bin/cat"_s}, input);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.size(), input.size());
        QVERIFY(r.out == input);
    }

    void theProxyExitsAsItsServerDid_data()
    {
        QTest::addColumn<QStringList>("server");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("said");
        QTest::newRow("a server that exits with 3 after a line makes the proxy exit with 3")
            << QStringList{u"/bin/sh"_s, u"-c"_s, u"echo last words; exit 3"_s} << 3
            << QByteArray();
        QTest::newRow("a server killed by SIGKILL makes the proxy exit with 137")
            << QStringList{u"/bin/sh"_s, u"-c"_s, u"echo last words; kill -9 $$"_s} << 137
            << QByteArray("sonde-cli proxy: the server was killed by signal 9");
        QTest::newRow("a program that cannot start makes the proxy exit with 127")
            << QStringList{u"/nonexistent/mcp-server"_s} << 127
            << QByteArray("sonde-cli proxy: could not start /nonexistent/mcp-server");
    }
    void theProxyExitsAsItsServerDid()
    {
        QFETCH(QStringList, server);
        QFETCH(int, status);
        QFETCH(QByteArray, said);
        const Run r = runProgram(cli(), QStringList{u"proxy"_s, u"--"_s} + server);
        QCOMPARE(r.exitCode, status);
        if (status != 127)
            QCOMPARE(r.out, QByteArray("last words\n"));
        if (said.isEmpty())
            QCOMPARE(r.err, QByteArray());
        else
            QVERIFY2(r.err.startsWith(said) && r.err.count('\n') == 1, r.err.constData());
    }

    void aCommandLineWithoutAServerIsRefusedInOneLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("said");
        QTest::newRow("no -- at all")
            << QStringList{u"proxy"_s, u"my-server"_s}
            << QByteArray("sonde-cli: proxy: the server's command goes after --");
        QTest::newRow("nothing after --")
            << QStringList{u"proxy"_s, u"--"_s}
            << QByteArray("sonde-cli: proxy: no server command after --");
        QTest::newRow("an option the proxy does not know")
            << QStringList{u"proxy"_s, u"--bogus"_s, u"--"_s, u"x"_s}
            << QByteArray("sonde-cli: proxy: unknown option --bogus");
    }
    void aCommandLineWithoutAServerIsRefusedInOneLine()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, said);
        const Run r = runProgram(cli(), args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith(said) && r.err.count('\n') == 1, r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestProxyStdio)
#include "tst_proxy_stdio.moc"
