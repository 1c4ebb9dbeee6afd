// SPDX-License-Identifier: MIT
// A history writer killed with SIGKILL mid-flood: the file it leaves passes SQLite's integrity
// check, opens again, and holds every batch it said was committed, and at most one batch more
// (the one it was writing when it died, if its commit reached the WAL).
#include "historystore.h"
#include "testpaths.h"

#include <QProcess>

#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>

using namespace Qt::StringLiterals;

class TestHistoryKill : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aKilledWriterLeavesAWholeFileLosingAtMostOneBatch_data()
    {
        QTest::addColumn<int>("batchSize");
        QTest::addColumn<int>("killAfterBatches");
        QTest::newRow("batches of 500, killed after 20") << 500 << 20;
        QTest::newRow("batches of 50, killed after 100") << 50 << 100;
    }
    void aKilledWriterLeavesAWholeFileLosingAtMostOneBatch()
    {
        QFETCH(int, batchSize);
        QFETCH(int, killAfterBatches);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"h.db"_s);
        QProcess writer;
        writer.start(QString::fromUtf8(SONDE_HISTORY_FLOOD_WRITER_PATH),
                     {path, QString::number(batchSize)});
        QVERIFY(writer.waitForStarted(5000));
        qint64 committed = 0;
        int batches = 0;
        QByteArray pending;
        while (batches < killAfterBatches) {
            QVERIFY2(writer.waitForReadyRead(10000), writer.readAllStandardError().constData());
            pending += writer.readAllStandardOutput();
            qsizetype nl;
            while ((nl = pending.indexOf('\n')) >= 0) {
                committed = pending.left(nl).toLongLong();
                pending.remove(0, nl + 1);
                ++batches;
            }
        }
        ::kill(pid_t(writer.processId()), SIGKILL);
        QVERIFY(writer.waitForFinished(5000));
        // What it printed after the last read is committed too.
        pending += writer.readAllStandardOutput();
        for (const QByteArray &line : pending.split('\n'))
            if (!line.isEmpty())
                committed = line.toLongLong();
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"check"_s);
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(u"PRAGMA integrity_check"_s) && q.next());
            QCOMPARE(q.value(0).toString(), u"ok"_s);
            db.close();
        }
        QSqlDatabase::removeDatabase(u"check"_s);
        Sonde::HistoryStore store;
        QString error;
        QVERIFY2(store.open(path, &error, u"after"_s), qPrintable(error));
        const qint64 kept = store.count({});
        QVERIFY2(kept >= committed && kept <= committed + batchSize,
                 qPrintable(u"committed %1, kept %2"_s.arg(committed).arg(kept)));
        QCOMPARE(kept % batchSize, 0); // whole batches only
    }
};

QTEST_GUILESS_MAIN(TestHistoryKill)
#include "tst_history_kill.moc"
