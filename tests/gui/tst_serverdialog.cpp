// SPDX-License-Identifier: MIT
// The server dialog: its protocol era choice (auto, legacy, modern) is named for a screen
// reader, explained in a tooltip and round-trips the ServerConfig; an edited server keeps
// what the dialog does not show. Its "Record payloads in the history" switch is saved with
// the workspace and, off, keeps the server's payloads out of the recorded history. Secret
// headers and environment values are shown masked in their own rows, as they were entered,
// never as the reference the settings hold; one the store did not have asks to be entered
// again; and the dialog says where secrets are kept, offering a file where they would be
// lost at quit.
#include "application/history/runrecording.h"
#include "application/servers/serverstore.h"
#include "application/workspace/workspacesecrets.h"
#include "application/workspace/workspacesettings.h"
#include "historyrecorder.h"
#include "historystore.h"
#include "servers/namevalueeditor.h"
#include "servers/serverdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
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

    static ServerConfig httpServer()
    {
        ServerConfig c;
        c.name = u"remote"_s;
        c.route = ServerConfig::Route::StreamableHttp;
        c.url = QUrl(u"http://127.0.0.1:9/mcp"_s);
        return c;
    }
    // Every text a user could read in the dialog: fields, placeholders, labels, tooltips.
    static QString everyText(QWidget *dialog)
    {
        QStringList all;
        for (auto *e : dialog->findChildren<QLineEdit *>())
            all << e->text() << e->displayText() << e->placeholderText() << e->toolTip();
        for (auto *e : dialog->findChildren<QPlainTextEdit *>())
            all << e->toPlainText();
        for (auto *l : dialog->findChildren<QLabel *>())
            all << l->text();
        return all.join(u'\n');
    }
    struct Row
    {
        QLineEdit *name = nullptr, *value = nullptr;
        QCheckBox *secret = nullptr;
    };
    static Row row(NameValueEditor *editor, const QString &name)
    {
        for (QWidget *w : editor->findChildren<QWidget *>(u"row"_s)) {
            auto *n = w->findChild<QLineEdit *>(u"name"_s);
            if (n && n->text() == name)
                return {n, w->findChild<QLineEdit *>(u"value"_s),
                        w->findChild<QCheckBox *>(u"secret"_s)};
        }
        return {};
    }
    static void grab(QWidget *dialog, const QString &name)
    {
        if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty()) {
            dialog->resize(dialog->sizeHint().expandedTo(QSize(640, 0)));
            dialog->show();
            QTest::qWait(50);
            dialog->grab().save(dir + u'/' + name + u".png"_s);
        }
    }

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
        QTest::newRow("an initialize server shows Initialize and stays so")
            << ServerConfig::Era::Initialize << u"Initialize"_s;
        QTest::newRow("a 2026-07-28 server shows its date and stays so")
            << ServerConfig::Era::Rev20260728 << u"2026-07-28"_s;
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
        combo->setCurrentIndex(combo->findData(int(ServerConfig::Era::Rev20260728)));
        QCOMPARE(dialog.config().era, ServerConfig::Era::Rev20260728);
        // For looking at: SONDE_SCREENSHOT_DIR=dir saves the dialog as dir/server-dialog.png.
        if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty()) {
            dialog.show();
            dialog.grab().save(dir + u"/server-dialog.png"_s);
        }
        combo->setCurrentIndex(combo->findData(int(ServerConfig::Era::Initialize)));
        QCOMPARE(dialog.config().era, ServerConfig::Era::Initialize);
    }

    void anEditedServerKeepsWhatTheDialogDoesNotShow()
    {
        ServerConfig c = stdioServer(ServerConfig::Era::Rev20260728);
        c.toolReadOnlyOverrides.insert(u"delete-file"_s, false);
        c.initializeTimeoutMs = 7'000;
        c.discoverTimeoutMs = 1'500;
        c.environment.insert(u"TOKEN"_s, u"x"_s);
        ServerDialog dialog;
        dialog.setConfig(c, {});
        // The fields it shows still win: a variable removed in the dialog is gone.
        dialog.findChild<NameValueEditor *>(u"serverEnv"_s)->setEntries({{u"A"_s, u"1"_s, false}});
        const ServerConfig out = dialog.config();
        QCOMPARE(out.toolReadOnlyOverrides, c.toolReadOnlyOverrides);
        QCOMPARE(out.initializeTimeoutMs, 7'000);
        QCOMPARE(out.discoverTimeoutMs, 1'500);
        QCOMPARE(out.environment, (QMap<QString, QString>{{u"A"_s, u"1"_s}}));
        QCOMPARE(out.arguments, c.arguments);
    }

    // The Edit dialog showed "sonde-secret:header/remote/Authorization" in the Headers box and
    // an empty "Secret headers" field.
    void aSecretHeaderIsShownMaskedInItsRowAsEntered_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<QList<QByteArray>>("marked");
        QTest::addColumn<bool>("locked"); // secret by its name, whatever the switch
        QTest::newRow("Authorization is masked and always secret")
            << QByteArray("Authorization") << QList<QByteArray>{} << true;
        QTest::newRow("an API key header is masked and always secret")
            << QByteArray("X-Api-Key") << QList<QByteArray>{} << true;
        QTest::newRow("a header the user marked is masked and may be unmarked")
            << QByteArray("X-Tenant") << QList<QByteArray>{"X-Tenant"} << false;
    }
    void aSecretHeaderIsShownMaskedInItsRowAsEntered()
    {
        QFETCH(QByteArray, header);
        QFETCH(QList<QByteArray>, marked);
        QFETCH(bool, locked);
        ServerConfig c = httpServer();
        c.headers = {{header, "secret-value-123"}, {"Accept-Language", "de"}};
        c.secretHeaders = marked;
        ServerDialog dialog;
        dialog.setConfig(c, {});
        auto *headers = dialog.findChild<NameValueEditor *>(u"serverHeaders"_s);
        QVERIFY(headers);
        const Row secret = row(headers, QString::fromUtf8(header));
        QVERIFY(secret.value);
        QCOMPARE(secret.value->text(), u"secret-value-123"_s);   // as entered
        QCOMPARE(secret.value->echoMode(), QLineEdit::Password); // masked
        QVERIFY(secret.secret->isChecked());
        QCOMPARE(secret.secret->isEnabled(), !locked);
        const Row plain = row(headers, u"Accept-Language"_s);
        QCOMPARE(plain.value->echoMode(), QLineEdit::Normal);
        QVERIFY(!plain.secret->isChecked());
        QVERIFY(!everyText(&dialog).contains(u"sonde-secret:"_s));
        // Saved as it came.
        const ServerConfig out = dialog.config();
        QCOMPARE(out.headers, c.headers);
        QVERIFY(WorkspaceSecrets::isSecretHeader(out, header));
        QVERIFY(!WorkspaceSecrets::isSecretHeader(out, "Accept-Language"));
    }

    // After a quit with no keyring the store has nothing: the row says so and waits for it.
    void aSecretTheStoreDidNotHaveAsksToBeEnteredAgain()
    {
        ServerConfig c = httpServer();
        const QByteArray reference = WorkspaceSecrets::referenceFor(c.name, "Authorization");
        c.headers = {{"Authorization", reference}};
        ServerDialog dialog;
        dialog.setConfig(c, {});
        auto *headers = dialog.findChild<NameValueEditor *>(u"serverHeaders"_s);
        const Row r = row(headers, u"Authorization"_s);
        QVERIFY(r.value);
        QVERIFY(r.value->text().isEmpty());
        QVERIFY2(r.value->placeholderText().contains(u"enter it again"_s),
                 qPrintable(r.value->placeholderText()));
        QVERIFY(!everyText(&dialog).contains(u"sonde-secret:"_s));
        grab(&dialog, u"server-dialog-missing-secret"_s);
        // Left empty, it stays the reference (a keyring unlocked later may still have it).
        QCOMPARE(dialog.config().headers.value(0).second, reference);
        QTest::keyClicks(r.value, u"Bearer again-77"_s);
        QCOMPARE(dialog.config().headers.value(0).second, QByteArray("Bearer again-77"));
        QVERIFY(WorkspaceSecrets::missing(dialog.config()).isEmpty());
    }

    // GITHUB_TOKEN went to Sonde.conf as it was: every variable is secret unless unmarked.
    void environmentValuesAreSecretUnlessUnmarked()
    {
        ServerConfig c = stdioServer(ServerConfig::Era::Auto);
        c.environment = {{u"GITHUB_TOKEN"_s, u"ghp_dialog0123"_s}, {u"LOG_LEVEL"_s, u"debug"_s}};
        c.plainEnvironment = {u"LOG_LEVEL"_s};
        ServerDialog dialog;
        dialog.setConfig(c, {});
        auto *env = dialog.findChild<NameValueEditor *>(u"serverEnv"_s);
        const Row token = row(env, u"GITHUB_TOKEN"_s);
        QCOMPARE(token.value->echoMode(), QLineEdit::Password);
        QVERIFY(token.secret->isChecked() && token.secret->isEnabled());
        QCOMPARE(row(env, u"LOG_LEVEL"_s).value->echoMode(), QLineEdit::Normal);
        // A new variable starts secret.
        QTest::mouseClick(env->findChild<QPushButton *>(u"add"_s), Qt::LeftButton);
        QCOMPARE(env->rowCount(), 3);
        auto rows = env->findChildren<QWidget *>(u"row"_s);
        QWidget *added = nullptr;
        for (QWidget *w : rows)
            if (w->findChild<QLineEdit *>(u"name"_s)->text().isEmpty())
                added = w;
        QVERIFY(added);
        QTest::keyClicks(added->findChild<QLineEdit *>(u"name"_s), u"API_BASE"_s);
        QTest::keyClicks(added->findChild<QLineEdit *>(u"value"_s), u"https://api.example"_s);
        QVERIFY(added->findChild<QCheckBox *>(u"secret"_s)->isChecked());
        grab(&dialog, u"server-dialog-environment"_s);
        added->findChild<QCheckBox *>(u"secret"_s)->setChecked(false); // the user unmarks it
        const ServerConfig out = dialog.config();
        QCOMPARE(out.environment.value(u"GITHUB_TOKEN"_s), u"ghp_dialog0123"_s);
        QCOMPARE(out.environment.value(u"API_BASE"_s), u"https://api.example"_s);
        QVERIFY(WorkspaceSecrets::isSecretEnvironment(out, u"GITHUB_TOKEN"_s));
        QVERIFY(!WorkspaceSecrets::isSecretEnvironment(out, u"API_BASE"_s));
        QVERIFY(!WorkspaceSecrets::isSecretEnvironment(out, u"LOG_LEVEL"_s));
    }

    void theDialogSaysWhereSecretsAreKept_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("saying");
        QTest::addColumn<bool>("offersFile");
        QTest::newRow("with a keyring it says the keyring")
            << int(SecretStorage::Kind::Keyring) << u"system keyring"_s << false;
        QTest::newRow("with an encrypted file it names the file")
            << int(SecretStorage::Kind::EncryptedFile) << u"/home/u/secrets.sonde"_s << false;
        QTest::newRow("without either it says this session only and offers a file")
            << int(SecretStorage::Kind::Session) << u"for this session only"_s << true;
    }
    void theDialogSaysWhereSecretsAreKept()
    {
        QFETCH(int, kind);
        QFETCH(QString, saying);
        QFETCH(bool, offersFile);
        ServerDialog dialog;
        ServerConfig c = httpServer();
        c.headers = {{"Authorization", "Bearer abc-9876"}, {"Accept-Language", "de"}};
        dialog.setConfig(c, {});
        SecretStorage storage;
        storage.kind = SecretStorage::Kind(kind);
        storage.file = u"/home/u/secrets.sonde"_s;
        storage.why = u"No keyring: there is no D-Bus session bus"_s;
        dialog.setSecretStorage(storage);
        dialog.show();
        auto *said = dialog.findChild<QLabel *>(u"serverSecretStorage"_s);
        QVERIFY(said && said->isVisible());
        QVERIFY(said->wordWrap()); // the whole sentence, never cut off
        QVERIFY2(said->text().contains(saying), qPrintable(said->text()));
        auto *offer = dialog.findChild<QPushButton *>(u"serverSecretsFile"_s);
        QCOMPARE(offer->isVisible(), offersFile);
        if (offersFile) {
            grab(&dialog, u"server-dialog-secrets-session"_s);
            QSignalSpy asked(&dialog, &ServerDialog::encryptedFileRequested);
            QTest::mouseClick(offer, Qt::LeftButton);
            QCOMPARE(asked.size(), 1);
        }
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
        // added (RunRecording::followServers, as the window application connects it).
        const QString db = dir.filePath(u"h.sqlite"_s);
        {
            HistoryRecorder recorder;
            QSignalSpy opened(&recorder, &HistoryRecorder::opened);
            recorder.start(db, u"test"_s);
            ServerStore servers;
            RunRecording::followServers(&servers, &recorder);
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
    // value an edit gives it from the edit on (RunRecording::followServers, as the window
    // application connects it). The values look like no secret: only the configuration says they
    // are one.
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
            RunRecording::followServers(&servers, &recorder);
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
