// SPDX-License-Identifier: MIT
// The server dialog: its protocol era choice (auto, legacy, modern) is named for a screen
// reader, explained in a tooltip and round-trips the ServerConfig; an edited server keeps
// what the dialog does not show. Its "Record payloads in the history" switch is saved with
// the workspace and, off, keeps the server's payloads out of the recorded history.
#include "historyrecorder.h"
#include "historystore.h"
#include "recordingwiring.h"
#include "serverdialog.h"
#include "serverstore.h"
#include "workspacesettings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(Sonde::ServerConfig::Era)

class TestServerDialog : public QObject
{
    Q_OBJECT

    static ServerConfig stdioServer(ServerConfig::Era era)
    {
        ServerConfig c;
        c.name = u"everything"_s;
        c.program = u"/usr/bin/env"_s;
        c.arguments = {u"node"_s, u"server.mjs"_s};
        c.era = era;
        return c;
    }

private Q_SLOTS:
    void theEraComboIsNamedAndExplained()
    {
        ServerDialog dialog;
        auto *era = dialog.findChild<QComboBox *>(u"serverEra"_s);
        QVERIFY(era);
        QCOMPARE(era->accessibleName(), u"Protocol era"_s);
        QVERIFY(era->toolTip().contains(u"server/discover"_s));
        QCOMPARE(era->count(), 3);
        QVERIFY(era->itemText(0).startsWith(u"Auto"_s));
        QVERIFY(era->itemText(1).contains(u"2025-11-25"_s));
        QVERIFY(era->itemText(2).contains(u"2026-07-28"_s));
        // A new server detects its era.
        QCOMPARE(dialog.config().era, ServerConfig::Era::Auto);
    }

    void eachEraRoundTrips_data()
    {
        QTest::addColumn<ServerConfig::Era>("era");
        QTest::addColumn<QString>("shown");
        QTest::newRow("an auto server shows Auto and stays auto")
            << ServerConfig::Era::Auto << u"Auto"_s;
        QTest::newRow("a legacy server shows Legacy and stays legacy")
            << ServerConfig::Era::Legacy << u"Legacy"_s;
        QTest::newRow("a modern server shows Modern and stays modern")
            << ServerConfig::Era::Modern << u"Modern"_s;
    }
    void eachEraRoundTrips()
    {
        QFETCH(ServerConfig::Era, era);
        QFETCH(QString, shown);
        ServerDialog dialog;
        dialog.setConfig(stdioServer(era), {});
        auto *combo = dialog.findChild<QComboBox *>(u"serverEra"_s);
        QVERIFY(combo->currentText().startsWith(shown));
        QCOMPARE(dialog.config().era, era);
        // Renamed, the era stays.
        dialog.findChild<QLineEdit *>(u"serverName"_s)->setText(u"renamed"_s);
        QCOMPARE(dialog.config().era, era);
        QCOMPARE(dialog.config().name, u"renamed"_s);
    }

    void choosingAnEraChangesIt()
    {
        ServerDialog dialog;
        dialog.setConfig(stdioServer(ServerConfig::Era::Auto), {});
        auto *combo = dialog.findChild<QComboBox *>(u"serverEra"_s);
        combo->setCurrentIndex(combo->findData(int(ServerConfig::Era::Modern)));
        QCOMPARE(dialog.config().era, ServerConfig::Era::Modern);
        // For looking at: SONDE_SCREENSHOT_DIR=dir saves the dialog as dir/server-dialog.png.
        if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty()) {
            dialog.show();
            dialog.grab().save(dir + u"/server-dialog.png"_s);
        }
        combo->setCurrentIndex(combo->findData(int(ServerConfig::Era::Legacy)));
        QCOMPARE(dialog.config().era, ServerConfig::Era::Legacy);
    }

    void anEditedServerKeepsWhatTheDialogDoesNotShow()
    {
        ServerConfig c = stdioServer(ServerConfig::Era::Modern);
        c.toolReadOnlyOverrides.insert(u"delete-file"_s, false);
        c.initializeTimeoutMs = 7'000;
        c.discoverTimeoutMs = 1'500;
        c.environment.insert(u"TOKEN"_s, u"x"_s);
        ServerDialog dialog;
        dialog.setConfig(c, {});
        // The fields it shows still win: a variable removed in the dialog is gone.
        dialog.findChild<QWidget *>(u"serverEnv"_s)->setProperty("plainText", u"A=1"_s);
        const ServerConfig out = dialog.config();
        QCOMPARE(out.toolReadOnlyOverrides, c.toolReadOnlyOverrides);
        QCOMPARE(out.initializeTimeoutMs, 7'000);
        QCOMPARE(out.discoverTimeoutMs, 1'500);
        QCOMPARE(out.environment, (QMap<QString, QString>{{u"A"_s, u"1"_s}}));
        QCOMPARE(out.arguments, c.arguments);
    }

    void payloadsAreRecordedUnlessTheSwitchIsOff_data()
    {
        QTest::addColumn<bool>("recorded");
        QTest::newRow("a new server records its payloads") << true;
        QTest::newRow("a server with the switch off records none") << false;
    }
    void payloadsAreRecordedUnlessTheSwitchIsOff()
    {
        QFETCH(bool, recorded);
        ServerDialog dialog;
        dialog.setConfig(stdioServer(ServerConfig::Era::Auto), {});
        auto *box = dialog.findChild<QCheckBox *>(u"serverRecordPayloads"_s);
        QVERIFY(box);
        QVERIFY(box->isChecked());
        QCOMPARE(box->accessibleName(), u"Record payloads in the history"_s);
        box->setChecked(recorded);
        const ServerConfig chosen = dialog.config();
        QCOMPARE(chosen.recordPayloads, recorded);

        // Saved with the workspace and read back, as the window does at its next start.
        QTemporaryDir dir;
        Workspace saved;
        saved.servers.append({chosen, {}, false});
        {
            QSettings settings(dir.filePath(u"sonde.ini"_s), QSettings::IniFormat);
            QVERIFY(WorkspaceSettings::saveNow(settings, saved));
        }
        QSettings settings(dir.filePath(u"sonde.ini"_s), QSettings::IniFormat);
        const Workspace loaded = WorkspaceSettings::load(settings);
        QCOMPARE(loaded.servers.size(), 1);
        QCOMPARE(loaded.servers.first().config.recordPayloads, recorded);
        // And shown again by the dialog that edits it.
        ServerDialog again;
        again.setConfig(loaded.servers.first().config, {});
        QCOMPARE(again.findChild<QCheckBox *>(u"serverRecordPayloads"_s)->isChecked(), recorded);

        // The window tells the recorder what the server's settings say, when the server is
        // added (RecordingWiring, as app/sonde/main.cpp connects it).
        const QString db = dir.filePath(u"h.sqlite"_s);
        {
            HistoryRecorder recorder;
            QSignalSpy opened(&recorder, &HistoryRecorder::opened);
            recorder.start(db, u"test"_s);
            ServerStore servers;
            RecordingWiring::connectServers(&servers, &recorder);
            servers.addServer(chosen);
            TranscriptEvent call;
            call.timeMs = 1'796'119'200'000;
            call.server = chosen.name;
            call.generation = 1;
            call.direction = TranscriptEvent::Direction::Outgoing;
            call.raw = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                       "{\"name\":\"echo\",\"arguments\":{\"message\":\"payload-4471\"}}}";
            recorder.record({call});
            recorder.stop();
            QCOMPARE(opened.size(), 1);
            QCOMPARE(recorder.eventsRecorded(), 1);
        }
        HistoryStore store;
        QString error;
        QVERIFY2(store.open(db, &error), qPrintable(error));
        const QList<QJsonObject> records = store.records({}, 0, 10);
        QCOMPARE(records.size(), 1);
        const QJsonObject msg = records.first().value("msg"_L1).toObject();
        QCOMPARE(msg.value("method"_L1).toString(), u"tools/call"_s); // the envelope stays
        QCOMPARE(msg.contains("params"_L1), recorded);
        QCOMPARE(records.first().value("payload_omitted"_L1).toBool(), !recorded);
        HistoryFilter needle;
        needle.text = u"payload-4471"_s;
        QCOMPARE(store.count(needle), recorded ? 1 : 0);
    }

    // A server's configured values are masked before the disk, from when it is added, and a
    // value an edit gives it from the edit on (RecordingWiring, as the window connects it).
    // The values look like no secret: only the configuration says they are one.
    void aServersConfiguredValuesNeverReachTheHistory()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(u"h.sqlite"_s);
        const QByteArray first = "plainvalue-7Q2x9zz", second = "othervalue-K4m8ww";
        const auto echoing = [](const QByteArray &value, int id) {
            TranscriptEvent e;
            e.timeMs = 1'796'119'200'000 + id;
            e.server = u"demo"_s;
            e.generation = 1;
            e.direction = TranscriptEvent::Direction::Incoming;
            e.raw = "{\"jsonrpc\":\"2.0\",\"id\":" + QByteArray::number(id) +
                    ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Echo: " + value +
                    "\"}]}}";
            return TranscriptBatch{e};
        };
        {
            HistoryRecorder recorder;
            recorder.start(db, u"test"_s);
            ServerStore servers;
            RecordingWiring::connectServers(&servers, &recorder);
            ServerConfig c = stdioServer(ServerConfig::Era::Auto);
            c.name = u"demo"_s;
            c.environment.insert(u"DEMO_API_KEY"_s, QString::fromLatin1(first));
            servers.addServer(c);
            recorder.record(echoing(first, 1));
            c.environment.insert(u"DEMO_API_KEY"_s, QString::fromLatin1(second)); // edited
            servers.addServer(c);
            recorder.record(echoing(second, 2));
            recorder.stop();
            QVERIFY2(recorder.firstError().isEmpty(), qPrintable(recorder.firstError()));
            QCOMPARE(recorder.eventsRecorded(), 2);
        }
        QByteArray bytes;
        for (const QString &p : QStringList{db, db + u"-wal"_s}) {
            QFile f(p);
            if (f.open(QIODevice::ReadOnly))
                bytes += f.readAll();
        }
        QVERIFY(!bytes.isEmpty());
        QVERIFY(!bytes.contains(first));
        QVERIFY(!bytes.contains(second));
        HistoryStore store;
        QString error;
        QVERIFY2(store.open(db, &error), qPrintable(error));
        HistoryFilter echoes;
        echoes.text = u"Echo"_s;
        QCOMPARE(store.count(echoes), 2); // recorded, masked
    }
};

QTEST_MAIN(TestServerDialog)
#include "tst_serverdialog.moc"
