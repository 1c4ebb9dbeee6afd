// SPDX-License-Identifier: MIT
// sonde-cli history import with a file of another tool: the official MCP Inspector's export
// reads into the history under the server its name carries, the summary says the format, and
// a file of no format Sonde reads is refused (exit 1, the reason) before the history is made.
#include "clifixtures.h"
#include "historystore.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace SondeTest;

namespace {

Run hist(const QStringList &args)
{
    return runProgram(QString::fromUtf8(SONDE_CLI_PATH), args);
}

} // namespace

class TestCliOfflineImport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theInspectorsExportIsImported()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(u"h.db"_s);
        const QString file =
            QFINDTESTDATA("../fixtures/inspector-protocol-demo-2026-08-19T15-02-09.412Z.json");
        const Run r = hist({u"history"_s, u"import"_s, file, u"--db"_s, db});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        const QJsonObject summary = jsonLines(r.out).first();
        QCOMPARE(summary.value("format"_L1).toString(), u"inspector-json"_s);
        QCOMPARE(summary.value("imported"_L1).toInteger(), 15);
        Sonde::HistoryStore store;
        QString error;
        QVERIFY2(store.open(db, &error), qPrintable(error));
        QCOMPARE(store.servers(), QStringList{u"demo"_s});
        Sonde::HistoryFilter f;
        f.method = u"tools/call"_s;
        // Two calls, each found by both legs: a response row carries its request's method.
        QCOMPARE(store.count(f), 4);
        // Found again by what the Inspector's user typed.
        const Run found =
            hist({u"history"_s, u"search"_s, u"hello from the Inspector"_s, u"--db"_s, db});
        QCOMPARE(found.exitCode, 0);
        QCOMPARE(jsonLines(found.out).size(), 2);
    }

    void aFileOfNoFormatIsRefusedBeforeTheHistoryIsMade_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("reason");
        QTest::newRow("a binary file") << QByteArray("\x7f"
                                                     "ELF\x02\x01\x01\0\0\0",
                                                     10)
                                       << u"a binary file"_s;
        QTest::newRow("an empty file") << QByteArray() << u"the file is empty"_s;
        QTest::newRow("an Inspector network export says what to export instead")
            << QByteArray("[{\"id\":\"n\",\"timestamp\":\"2026-08-19T15:02:03.120Z\",\"method\":"
                          "\"POST\",\"url\":\"http://127.0.0.1/mcp\",\"requestHeaders\":{},"
                          "\"category\":\"transport\"}]")
            << u"export the Protocol history instead"_s;
    }

    void aFileOfNoFormatIsRefusedBeforeTheHistoryIsMade()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        QFile f(dir.filePath(u"in.json"_s));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();
        const QString db = dir.filePath(u"h.db"_s);
        const Run r = hist({u"history"_s, u"import"_s, f.fileName(), u"--db"_s, db});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(reason), r.err.constData());
        if (reason.startsWith("export"_L1)) // told apart by its first bytes, refused when read
            return;
        QVERIFY(!QFile::exists(db));
    }
};

QTEST_GUILESS_MAIN(TestCliOfflineImport)
#include "tst_cli_offlineimport.moc"
