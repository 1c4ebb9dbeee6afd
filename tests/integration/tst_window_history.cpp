// SPDX-License-Identifier: MIT
// The window records: started on the built-in demo server, every session of the run lands in
// the SQLite history it was given, a second run adds its own sessions beside the first, and
// --no-history writes nothing. (--exit-when-ready waits for the tool list: the Tools tab.) Then
// the History tab of a third run shows them (for looking at: SONDE_SCREENSHOT_DIR=dir saves it
// as dir/window-history.png). And --server opens the window on the server it names.
#include "clifixtures.h"
#include "historystore.h"

#include <QDir>
#include <QDirIterator>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace SondeTest;

namespace {

QProcessEnvironment offscreen(const QTemporaryDir &home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    // Its own settings and data folders: nothing of the user's is read or written.
    env.insert(u"XDG_CONFIG_HOME"_s, home.filePath(u"config"_s));
    env.insert(u"XDG_DATA_HOME"_s, home.filePath(u"data"_s));
    return env;
}

} // namespace

class TestWindowHistory : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyRunOfTheWindowIsRecorded()
    {
        QTemporaryDir home;
        const QString db = home.filePath(u"history.sqlite"_s);
        const QStringList args{u"--no-saved-workspace"_s, u"--history"_s, db, u"--tab"_s, u"1"_s,
                               u"--exit-when-ready"_s};
        for (int run = 1; run <= 2; ++run) {
            const Run r =
                runProgram(QString::fromUtf8(SONDE_GUI_PATH), args, {}, offscreen(home), 60000);
            QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        }
        Sonde::HistoryStore store;
        QString error;
        QVERIFY2(store.open(db, &error), qPrintable(error));
        const QStringList servers = store.servers();
        QVERIFY2(!servers.isEmpty(), "no server's events were recorded");
        const QList<Sonde::HistoryStore::Session> sessions = store.sessions(servers.first());
        QVERIFY2(sessions.size() >= 2, qPrintable(QString::number(sessions.size())));
        Sonde::HistoryFilter f;
        f.method = u"tools/list"_s;
        f.direction = u"send"_s;
        QVERIFY(store.count(f) >= 2);
        QVERIFY2(store.lastError().isEmpty(), qPrintable(store.lastError()));

        // The History tab of a third run, on the first server.
        if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty()) {
            const Run shot = runProgram(QString::fromUtf8(SONDE_GUI_PATH),
                                        {u"--no-saved-workspace"_s, u"--history"_s, db, u"--tab"_s,
                                         u"9"_s, u"--screenshot"_s, dir + u"/window-history.png"_s,
                                         u"--screenshot-delay"_s, u"2500"_s},
                                        {}, offscreen(home), 60000);
            QCOMPARE(shot.exitCode, 0);
        }
    }

    // --exit-when-ready names the server whose tool list it saw. The first run's workspace
    // selects demo-http, so the demo row is a switch away from it.
    void theWindowOpensOnTheServerItIsAskedFor_data()
    {
        QTest::addColumn<QString>("asked");
        QTest::addColumn<QString>("shown");
        QTest::addColumn<QString>("complaint");
        QTest::newRow("the stdio demo, away from the workspace's choice")
            << u"demo"_s << u"demo"_s << QString();
        QTest::newRow("the HTTP demo, the workspace's own choice")
            << u"demo-http"_s << u"demo-http"_s << QString();
        QTest::newRow("a name the workspace lacks is said and the window opens as it would")
            << u"nope"_s << u"demo-http"_s
            << u"sonde: --server: no server named \"nope\" (the workspace has: demo, demo-http)"_s;
    }
    void theWindowOpensOnTheServerItIsAskedFor()
    {
        QFETCH(QString, asked);
        QFETCH(QString, shown);
        QFETCH(QString, complaint);
        QTemporaryDir home;
        const Run r = runProgram(QString::fromUtf8(SONDE_GUI_PATH),
                                 {u"--no-saved-workspace"_s, u"--no-history"_s, u"--server"_s,
                                  asked, u"--tab"_s, u"1"_s, u"--exit-when-ready"_s},
                                 {}, offscreen(home), 60000);
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QVERIFY2(QString::fromUtf8(r.out).trimmed().endsWith(u" tools of "_s + shown),
                 r.out.constData());
        if (complaint.isEmpty())
            QVERIFY2(!r.err.contains("--server"), r.err.constData());
        else
            QVERIFY2(QString::fromUtf8(r.err).contains(complaint), r.err.constData());
    }

    void noHistoryWritesNothing()
    {
        QTemporaryDir home;
        const Run r = runProgram(QString::fromUtf8(SONDE_GUI_PATH),
                                 {u"--no-saved-workspace"_s, u"--no-history"_s, u"--tab"_s, u"1"_s,
                                  u"--exit-when-ready"_s},
                                 {}, offscreen(home), 60000);
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QVERIFY(!QFileInfo::exists(home.filePath(u"data/sonde/history.sqlite"_s)));
        QVERIFY(QDir(home.filePath(u"data"_s))
                    .entryList(QDir::NoDotAndDotDot | QDir::AllEntries, QDir::Name)
                    .isEmpty() ||
                !QDir(home.filePath(u"data"_s)).exists());
    }

    void withoutAnOptionItRecordsInTheDataFolder()
    {
        QTemporaryDir home;
        const Run r =
            runProgram(QString::fromUtf8(SONDE_GUI_PATH),
                       {u"--no-saved-workspace"_s, u"--tab"_s, u"1"_s, u"--exit-when-ready"_s}, {},
                       offscreen(home), 60000);
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        // AppDataLocation: <data>/<organization>/<application>.
        QDirIterator it(home.filePath(u"data"_s), {u"history.sqlite"_s}, QDir::Files,
                        QDirIterator::Subdirectories);
        QVERIFY2(it.hasNext(), "no history.sqlite under XDG_DATA_HOME");
        Sonde::HistoryStore store;
        QString error;
        QVERIFY2(store.open(it.next(), &error), qPrintable(error));
        QVERIFY(store.count({}) > 0);
    }
};

QTEST_GUILESS_MAIN(TestWindowHistory)
#include "tst_window_history.moc"
