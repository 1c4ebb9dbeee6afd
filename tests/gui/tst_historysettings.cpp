// SPDX-License-Identifier: MIT
// History settings: the retention chosen in the dialog is stored in the workspace settings
// and read back (what cannot be read keeps everything, and says so), becomes the recorder's
// policy, and applied to a running recorder deletes what it no longer keeps.
#include "application/workspace/workspacesettings.h"
#include "history/historysettingsdialog.h"
#include "historyrecorder.h"
#include "historystore.h"
#include "window/recordingwiring.h"

#include <QDateTime>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

Q_DECLARE_METATYPE(Sonde::HistoryRetention::Mode)

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 Day = 24 * 60 * 60 * 1000;

TranscriptEvent sent(qint64 timeMs, int id)
{
    TranscriptEvent e;
    e.timeMs = timeMs;
    e.server = u"demo"_s;
    e.generation = 1;
    e.direction = TranscriptEvent::Direction::Outgoing;
    e.raw = "{\"jsonrpc\":\"2.0\",\"id\":" + QByteArray::number(id) + ",\"method\":\"ping\"}";
    return e;
}

void choose(HistorySettingsDialog &d, HistoryRetention::Mode mode, int value)
{
    using M = HistoryRetention::Mode;
    d.findChild<QRadioButton *>(mode == M::Days   ? u"historyKeepDays"_s
                                : mode == M::Size ? u"historyKeepSize"_s
                                                  : u"historyKeepForever"_s)
        ->setChecked(true);
    if (mode == M::Days)
        d.findChild<QSpinBox *>(u"historyDays"_s)->setValue(value);
    else if (mode == M::Size)
        d.findChild<QSpinBox *>(u"historyMiB"_s)->setValue(value);
}

} // namespace

class TestHistorySettings : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theChosenRetentionIsStoredAndReadBack_data()
    {
        QTest::addColumn<HistoryRetention::Mode>("mode");
        using M = HistoryRetention::Mode;
        QTest::addColumn<int>("value");
        QTest::addColumn<qint64>("maxAgeMs");
        QTest::addColumn<qint64>("maxBytes");
        QTest::newRow("forever deletes nothing") << M::Forever << 0 << qint64(0) << qint64(0);
        QTest::newRow("seven days keeps a week") << M::Days << 7 << 7 * Day << qint64(0);
        QTest::newRow("100 MiB keeps the newest 100 MiB")
            << M::Size << 100 << qint64(0) << qint64(100) * 1024 * 1024;
    }
    void theChosenRetentionIsStoredAndReadBack()
    {
        QFETCH(HistoryRetention::Mode, mode);
        QFETCH(int, value);
        QFETCH(qint64, maxAgeMs);
        QFETCH(qint64, maxBytes);
        HistorySettingsDialog d(HistoryRetention(), true);
        QVERIFY(d.findChild<QRadioButton *>(u"historyKeepForever"_s)->isChecked());
        choose(d, mode, value);
        QSignalSpy chosen(&d, &HistorySettingsDialog::retentionChosen);
        d.open();
        d.accept();
        QCOMPARE(chosen.size(), 1);
        const HistoryRetention r = chosen.first().first().value<HistoryRetention>();
        QCOMPARE(r.mode, mode);
        QCOMPARE(r.policy().maxAgeMs, maxAgeMs);
        QCOMPARE(r.policy().maxBytes, maxBytes);

        QTemporaryDir dir;
        const QString file = dir.filePath(u"sonde.ini"_s);
        {
            QSettings settings(file, QSettings::IniFormat);
            QVERIFY(WorkspaceSettings::saveRetention(settings, r));
        }
        QSettings settings(file, QSettings::IniFormat);
        QString problem;
        const HistoryRetention back = WorkspaceSettings::loadRetention(settings, &problem);
        QVERIFY(problem.isEmpty());
        QVERIFY(back == r);
        // And the dialog opened on it shows it.
        HistorySettingsDialog again(back, true);
        QCOMPARE(again.retention(), r);
    }

    void aStoredRetentionThatCannotBeReadKeepsEverything_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("days");
        QTest::addColumn<QString>("said");
        QTest::newRow("a mode this build does not know")
            << u"weekly"_s << u"7"_s << u"\"weekly\" is not forever, days or size"_s;
        QTest::newRow("days that are not a number")
            << u"days"_s << u"seven"_s << u"history/retentionDays is not a number"_s;
        QTest::newRow("zero days")
            << u"days"_s << u"0"_s << u"history/retentionDays is not a number from 1"_s;
    }
    void aStoredRetentionThatCannotBeReadKeepsEverything()
    {
        QFETCH(QString, mode);
        QFETCH(QString, days);
        QFETCH(QString, said);
        QTemporaryDir dir;
        QSettings settings(dir.filePath(u"sonde.ini"_s), QSettings::IniFormat);
        settings.setValue(u"history/retention"_s, mode);
        settings.setValue(u"history/retentionDays"_s, days);
        QString problem;
        const HistoryRetention r = WorkspaceSettings::loadRetention(settings, &problem);
        QCOMPARE(r.mode, HistoryRetention::Mode::Forever);
        QCOMPARE(r.policy().maxAgeMs, 0);
        QVERIFY2(problem.contains(said), qPrintable(problem));
        QVERIFY(problem.endsWith(u"everything is kept"_s));
    }

    void sevenDaysChosenDeletesOlderEventsFromARunningRecorder()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(u"h.sqlite"_s);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        HistoryRecorder recorder;
        QSignalSpy opened(&recorder, &HistoryRecorder::opened);
        recorder.start(db, u"test"_s); // forever, as a first start
        recorder.record({sent(now - 30 * Day, 1), sent(now - 10 * Day, 2)});
        recorder.record({sent(now - 1 * Day, 3), sent(now - 60'000, 4)});

        // What the window does with the dialog's choice (RecordingWiring, as app/sonde/main.cpp
        // connects it): stored, and applied by the recorder at once.
        HistorySettingsDialog d(HistoryRetention(), true);
        QSettings settings(dir.filePath(u"sonde.ini"_s), QSettings::IniFormat);
        QStringList notices;
        RecordingWiring::connectRetention(&d, &settings, &recorder,
                                          [&notices](const QString &n) { notices << n; });
        choose(d, HistoryRetention::Mode::Days, 7);
        QVERIFY(d.findChild<QLabel *>(u"historyRetentionEffect"_s)
                    ->text()
                    .contains(u"older than 7 days are deleted"_s));
        d.open();
        d.accept();
        recorder.stop(); // after every call queued before it
        QCOMPARE(opened.size(), 1);
        QVERIFY(notices.isEmpty());
        QCOMPARE(WorkspaceSettings::loadRetention(settings).policy().maxAgeMs, 7 * Day);

        HistoryStore store;
        QString error;
        QVERIFY2(store.open(db, &error), qPrintable(error));
        QCOMPARE(store.count({}), 2);
        HistoryFilter old;
        old.toMs = now - 7 * Day;
        QCOMPARE(store.count(old), 0);
    }

    void clearAsksTheHistoryTabAndIsOffWithoutAHistory()
    {
        HistorySettingsDialog recorded(HistoryRetention(), true);
        QSignalSpy asked(&recorded, &HistorySettingsDialog::clearRequested);
        auto *clear = recorded.findChild<QPushButton *>(u"historySettingsClear"_s);
        QVERIFY(clear->isEnabled());
        clear->click();
        QCOMPARE(asked.size(), 1);
        HistorySettingsDialog none(HistoryRetention(), false);
        QVERIFY(!none.findChild<QPushButton *>(u"historySettingsClear"_s)->isEnabled());
        QVERIFY(none.findChild<QLabel *>(u"historySettingsStatus"_s)
                    ->text()
                    .contains(u"not recorded"_s));
        if (const QString shots = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !shots.isEmpty()) {
            choose(recorded, HistoryRetention::Mode::Days, 7);
            recorded.show();
            recorded.grab().save(shots + u"/history-settings.png"_s);
        }
    }
};

QTEST_MAIN(TestHistorySettings)
#include "tst_historysettings.moc"
