// SPDX-License-Identifier: MIT
// The automatic era choice against what is in the field (docs/protocol.md, "Choosing the
// era"): it never breaks a server that works with --era initialize, and costs at most the
// handshake's round trip on one that ignores the probe. supergateway's stdio bridge to a
// Streamable HTTP server (it starts its own upstream session on any first request but
// initialize, and then refuses ours), a server that never answers unknown methods, and
// programs that are not MCP servers at all; each timed beside --era initialize in the same run.
#include "clifixtures.h"

#include <QElapsedTimer>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace SondeTest;

namespace {

struct Timed
{
    Run run;
    qint64 ms = 0;
};

Timed timedCli(const QStringList &args)
{
    QElapsedTimer t;
    t.start();
    Timed r{cli(args), 0};
    r.ms = t.elapsed();
    return r;
}

QJsonObject sessionOf(const Run &r)
{
    return QJsonDocument::fromJson(r.out).object().value("session"_L1).toObject();
}

} // namespace

class TestEraProbeField : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void autoWorksWhereverLegacyWorksAndCostsNoMore_data()
    {
        QTest::addColumn<QString>("server");
        QTest::newRow("supergateway's stdio bridge to a Streamable HTTP server")
            << u"supergateway"_s;
        QTest::newRow("a server that never answers a method it does not know") << u"ignores"_s;
    }
    void autoWorksWhereverLegacyWorksAndCostsNoMore()
    {
        QFETCH(QString, server);
        EverythingServer upstream(u"streamableHttp"_s);
        QStringList connection;
        if (server == "supergateway"_L1) {
            QVERIFY(upstream.start());
            connection = {u"--command"_s, QString::fromUtf8(SONDE_NODE22_PATH),
                          u"--arg"_s,     QString::fromUtf8(SONDE_SUPERGATEWAY_PATH),
                          u"--arg"_s,     u"--streamableHttp"_s,
                          u"--arg"_s,     upstream.url(u"/mcp"_s)};
        } else {
            connection = {u"--command"_s, u"node"_s, u"--arg"_s,
                          QString::fromUtf8(SONDE_IGNORING_SERVER_PATH)};
        }
        const Timed legacy =
            timedCli(connection + QStringList{u"--era"_s, u"initialize"_s, u"tools"_s, u"list"_s});
        QVERIFY2(legacy.run.exitCode == 0, legacy.run.err.constData());
        const Timed automatic =
            timedCli(connection + QStringList{u"--era"_s, u"auto"_s, u"tools"_s, u"list"_s});
        QVERIFY2(automatic.run.exitCode == 0, automatic.run.err.constData());
        QCOMPARE(QJsonDocument::fromJson(automatic.run.out).object().value("tools"_L1),
                 QJsonDocument::fromJson(legacy.run.out).object().value("tools"_L1));
        qInfo("%s: --era initialize %lld ms, auto %lld ms", qPrintable(server), legacy.ms,
              automatic.ms);
        // The same handshake: within noise of legacy (a probe cost a 5 s timeout, or broke
        // the bridge).
        QVERIFY2(automatic.ms < legacy.ms + 1500,
                 qPrintable(u"auto %1 ms, legacy %2 ms"_s.arg(automatic.ms).arg(legacy.ms)));
        const Run info = cli(connection + QStringList{u"--era"_s, u"auto"_s, u"info"_s});
        QVERIFY2(info.exitCode == 0, info.err.constData());
        QCOMPARE(sessionOf(info).value("era"_L1).toString(), u"initialize"_s);
        QVERIFY2(sessionOf(info).value("era_reason"_L1).toString().contains("auto over stdio"_L1),
                 info.out.constData());
    }

    void aProgramThatIsNotAServerFailsAsSoonAsWithLegacy_data()
    {
        QTest::addColumn<QStringList>("program");
        QTest::newRow("it exits at once") << QStringList{u"true"_s};
        QTest::newRow("it prints a line that is not JSON-RPC and waits")
            << QStringList{u"sh"_s, u"-c"_s, u"echo serving on port 8000; exec sleep 60"_s};
        QTest::newRow("it says nothing") << QStringList{u"sleep"_s, u"60"_s};
    }
    void aProgramThatIsNotAServerFailsAsSoonAsWithLegacy()
    {
        QFETCH(QStringList, program);
        QStringList connection{u"--command"_s, program.first()};
        for (const QString &a : program.mid(1))
            connection << u"--arg"_s << a;
        connection << u"--timeout"_s << u"2"_s << u"--quiet"_s;
        const Timed legacy =
            timedCli(connection + QStringList{u"--era"_s, u"initialize"_s, u"tools"_s, u"list"_s});
        const Timed automatic =
            timedCli(connection + QStringList{u"--era"_s, u"auto"_s, u"tools"_s, u"list"_s});
        qInfo("%s: --era initialize %lld ms, auto %lld ms", qPrintable(program.join(u' ')),
              legacy.ms, automatic.ms);
        QCOMPARE(legacy.run.exitCode, 2);
        QCOMPARE(automatic.run.exitCode, 2);
        QVERIFY2(automatic.ms < legacy.ms + 1000,
                 qPrintable(u"auto %1 ms, legacy %2 ms"_s.arg(automatic.ms).arg(legacy.ms)));
        // One line that says what went wrong.
        QCOMPARE(automatic.run.err.trimmed().count('\n'), 0);
        QVERIFY2(!automatic.run.err.trimmed().isEmpty(), "an error line");
        // What it printed is the likeliest clue: said in that line.
        if (program.first() == "sh"_L1)
            QVERIFY2(automatic.run.err.contains("is it an MCP server?"),
                     automatic.run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestEraProbeField)
#include "tst_eraprobe_field.moc"
