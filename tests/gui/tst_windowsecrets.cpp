// SPDX-License-Identifier: MIT
// Secrets without a keyring, in the real window: the Add dialog says they are kept for this
// session only and offers the encrypted file; chosen there, the secrets (a stdio server's
// GITHUB_TOKEN among them) go into it, never into the settings, and come back after a
// restart; the passphrase of the file the settings name is asked once, a wrong one said in
// the dialog; and the "enter it again" notice goes once the secret is entered again, for the
// selected server and after switching to another one.
#include "application/servers/serverstore.h"
#include "application/workspace/workspacesecrets.h"
#include "engine/corehost.h"
#include "secrets/encryptedfilesecretstore.h"
#include "secrets/memorysecretstore.h"
#include "servers/namevalueeditor.h"
#include "servers/secretsfileprompt.h"
#include "testpaths.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {
constexpr int Cheap = 1000; // key derivation iterations for a test's new file
const QString NoKeyring = u"No keyring: there is no D-Bus session bus"_s;

QByteArray fileContents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QAction *action(MainWindow &w, const QString &name)
{
    return w.findChild<QAction *>(u"action:"_s + name);
}

QString hint(MainWindow &w)
{
    auto *bar = w.findChild<QWidget *>(u"firstRunHintBar"_s);
    return bar && bar->isVisible() ? w.findChild<QLabel *>(u"firstRunHint"_s)->text() : QString();
}

QDialog *openDialog(MainWindow &w, const QString &name)
{
    for (auto *d : w.findChildren<QDialog *>(name))
        if (d->isVisible())
            return d;
    return nullptr;
}

void clickOk(QDialog *dialog)
{
    QTest::mouseClick(dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok),
                      Qt::LeftButton);
}

void grab(QWidget *w, const QString &name)
{
    if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty()) {
        QTest::qWait(50); // the layout as the user sees it, after its pending requests
        w->grab().save(dir + u'/' + name + u".png"_s);
    }
}

void shutDown(CoreHost &host)
{
    QSignalSpy down(&host, &CoreHost::shutdownFinished);
    host.shutdown();
    QVERIFY(down.wait(5000));
}

bool loadAndWait(MainWindow &window, QSettings &settings)
{
    QSignalSpy loaded(&window, &MainWindow::workspaceLoaded);
    window.loadWorkspace(settings);
    return loaded.size() == 1 || loaded.wait(5000);
}
} // namespace

class TestWindowSecrets : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aFileChosenInTheAddDialogKeepsSecretsOverARestart()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath(u"sonde.ini"_s);
        const QString file = dir.filePath(u"secrets.sonde"_s);
        MemorySecretStore memory;
        {
            CoreHost host;
            MainWindow window(host);
            window.setSecretStore(&memory, NoKeyring);
            window.secretsFilePrompt()->setIterations(Cheap);
            QSettings settings(ini, QSettings::IniFormat);
            window.autosaveTo(&settings);
            window.resize(1100, 700);
            window.show();
            QVERIFY2(hint(window).contains(u"for this session only"_s), qPrintable(hint(window)));
            QSignalSpy chosen(&window, &MainWindow::secretsFileChosen);

            action(window, u"add"_s)->trigger();
            QDialog *server = nullptr;
            QTRY_VERIFY((server = openDialog(window, u"serverDialog"_s)));
            auto *storage = server->findChild<QLabel *>(u"serverSecretStorage"_s);
            QVERIFY2(storage->text().startsWith(NoKeyring) &&
                         storage->text().contains(u"for this session only"_s),
                     qPrintable(storage->text()));
            QTest::mouseClick(server->findChild<QPushButton *>(u"serverSecretsFile"_s),
                              Qt::LeftButton);
            QDialog *ask = nullptr;
            QTRY_VERIFY((ask = openDialog(window, u"secretsFileDialog"_s)));
            ask->findChild<QLineEdit *>(u"secretsFilePath"_s)->setText(file);
            QTest::keyClicks(ask->findChild<QLineEdit *>(u"secretsFilePassphrase"_s),
                             u"correct horse"_s);
            QTest::keyClicks(ask->findChild<QLineEdit *>(u"secretsFileConfirmation"_s),
                             u"correct hose"_s);
            clickOk(ask);
            auto *problem = ask->findChild<QLabel *>(u"secretsFileProblem"_s);
            QVERIFY(problem->isVisible() && problem->text().contains(u"differ"_s));
            grab(ask, u"secrets-file-dialog"_s);
            ask->findChild<QLineEdit *>(u"secretsFileConfirmation"_s)->setText(u"correct horse"_s);
            clickOk(ask);
            QTRY_VERIFY(!openDialog(window, u"secretsFileDialog"_s));
            QCOMPARE(chosen.size(), 1);
            QCOMPARE(chosen.first().at(0).toString(), file);
            QVERIFY2(storage->text().contains(u"encrypted file"_s) &&
                         storage->text().contains(u"secrets.sonde"_s),
                     qPrintable(storage->text()));
            QVERIFY(!server->findChild<QPushButton *>(u"serverSecretsFile"_s)->isVisible());
            QVERIFY(!hint(window).contains(u"for this session only"_s));

            server->findChild<QLineEdit *>(u"serverName"_s)->setText(u"github"_s);
            server->findChild<QLineEdit *>(u"serverProgram"_s)
                ->setText(QString::fromUtf8(SONDE_DEMO_SERVER_PATH));
            auto *env = server->findChild<NameValueEditor *>(u"serverEnv"_s);
            QTest::mouseClick(env->findChild<QPushButton *>(u"add"_s), Qt::LeftButton);
            QTest::keyClicks(env->findChild<QLineEdit *>(u"name"_s), u"GITHUB_TOKEN"_s);
            QTest::keyClicks(env->findChild<QLineEdit *>(u"value"_s), u"ghp_window0123456"_s);
            QCOMPARE(env->findChild<QLineEdit *>(u"value"_s)->echoMode(), QLineEdit::Password);
            grab(server, u"server-dialog-secrets-file"_s);
            clickOk(server);
            QTRY_VERIFY(!openDialog(window, u"serverDialog"_s));
            QCOMPARE(window.serverStore()->names(), QStringList{u"github"_s});
            settings.sync();
            const QByteArray written = fileContents(ini);
            QVERIFY(!written.contains("ghp_window0123456"));
            QVERIFY(written.contains("sonde-secret:env/github/GITHUB_TOKEN"));
            QVERIFY(!fileContents(file).contains("ghp_window0123456")); // encrypted
            window.autosaveTo(nullptr);
            shutDown(host);
        }
        // The next run: the file opened with its passphrase gives the value back.
        EncryptedFileSecretStore reopened(file, "correct horse", Cheap);
        CoreHost host;
        MainWindow restored(host);
        restored.setSecretStore(&reopened);
        QSettings settings(ini, QSettings::IniFormat);
        QVERIFY(loadAndWait(restored, settings));
        const ServerStore *servers = restored.serverStore();
        QCOMPARE(servers->config(servers->indexOf(u"github"_s)).environment,
                 (QMap<QString, QString>{{u"GITHUB_TOKEN"_s, u"ghp_window0123456"_s}}));
        QVERIFY(hint(restored).isEmpty());
        shutDown(host);
    }

    void thePassphraseOfTheFileIsAskedOnce_data()
    {
        QTest::addColumn<QString>("passphrase"); // empty: "Not now"
        QTest::addColumn<bool>("opened");
        QTest::newRow("the right passphrase opens the file") << u"correct horse"_s << true;
        QTest::newRow("not now keeps secrets for this session") << QString() << false;
    }
    void thePassphraseOfTheFileIsAskedOnce()
    {
        QFETCH(QString, passphrase);
        QFETCH(bool, opened);
        QTemporaryDir dir;
        const QString file = dir.filePath(u"secrets.sonde"_s);
        {
            EncryptedFileSecretStore make(file, "correct horse", Cheap);
            bool written = false;
            make.write(u"header/remote/Authorization"_s, "Bearer x",
                       [&](QString e) { written = e.isEmpty(); });
            QTRY_VERIFY(written);
        }
        CoreHost host;
        MainWindow window(host);
        window.show();
        int answers = 0;
        std::unique_ptr<SecretStore> got;
        window.unlockSecretsFile(file, [&](std::unique_ptr<SecretStore> store, QByteArray) {
            ++answers;
            got = std::move(store);
        });
        QDialog *ask = nullptr;
        QTRY_VERIFY((ask = openDialog(window, u"secretsFileDialog"_s)));
        QVERIFY(ask->findChild<QLineEdit *>(u"secretsFilePath"_s)->isReadOnly());
        QVERIFY(!ask->findChild<QLineEdit *>(u"secretsFileConfirmation"_s)->isVisible());
        // A wrong one is said where it was typed, and the dialog stays for another try.
        QTest::keyClicks(ask->findChild<QLineEdit *>(u"secretsFilePassphrase"_s), u"wrong"_s);
        clickOk(ask);
        auto *problem = ask->findChild<QLabel *>(u"secretsFileProblem"_s);
        QTRY_VERIFY(problem->isVisible());
        QVERIFY2(problem->text().contains(u"wrong passphrase"_s), qPrintable(problem->text()));
        QCOMPARE(answers, 0);
        grab(ask, u"secrets-file-unlock-wrong"_s);
        if (opened) {
            ask->findChild<QLineEdit *>(u"secretsFilePassphrase"_s)->setText(passphrase);
            clickOk(ask);
        } else {
            QTest::mouseClick(
                ask->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Cancel),
                Qt::LeftButton);
        }
        QTRY_COMPARE(answers, 1);
        QCOMPARE(bool(got), opened);
        QTRY_VERIFY(!openDialog(window, u"secretsFileDialog"_s));
        if (opened) {
            std::optional<QByteArray> value;
            got->read(u"header/remote/Authorization"_s,
                      [&](std::optional<QByteArray> v, QString) { value = v; });
            QTRY_COMPARE(value, std::optional<QByteArray>("Bearer x"));
        }
        shutDown(host);
    }

    // The notice stayed after the header was entered again.
    void theEnterItAgainNoticeGoesOnceEachSecretIsEnteredAgain()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath(u"sonde.ini"_s);
        {
            QSettings old(ini, QSettings::IniFormat);
            old.setValue(u"workspace/servers"_s,
                         QByteArray("{\"mcpServers\":{"
                                    "\"alpha\":{\"headers\":{\"Authorization\":"
                                    "\"sonde-secret:header/alpha/Authorization\"},"
                                    "\"type\":\"http\",\"url\":\"http://127.0.0.1:9/mcp\"},"
                                    "\"beta\":{\"command\":\"/bin/true\",\"env\":{\"GITHUB_TOKEN\":"
                                    "\"sonde-secret:env/beta/GITHUB_TOKEN\"}}}}"));
        }
        MemorySecretStore empty; // a run after a quit with no keyring: nothing in it
        CoreHost host;
        MainWindow window(host);
        window.setSecretStore(&empty, NoKeyring);
        window.resize(1100, 700);
        window.show();
        QSettings settings(ini, QSettings::IniFormat);
        QVERIFY(loadAndWait(window, settings));
        QVERIFY2(hint(window).contains(u"alpha"_s) && hint(window).contains(u"beta"_s) &&
                     hint(window).contains(u"enter it again"_s),
                 qPrintable(hint(window)));
        grab(&window, u"window-secrets-missing"_s);

        const auto enterAgain = [&](const QString &server, const QString &editorName,
                                    const QString &value) {
            window.selectServer(server);
            action(window, u"edit"_s)->trigger();
            QDialog *dialog = nullptr;
            QTRY_VERIFY((dialog = openDialog(window, u"serverDialog"_s)));
            auto *editor = dialog->findChild<NameValueEditor *>(editorName);
            auto *field = editor->findChild<QLineEdit *>(u"value"_s);
            QVERIFY(field->text().isEmpty());
            QVERIFY(field->placeholderText().contains(u"enter it again"_s));
            for (auto *e : dialog->findChildren<QLineEdit *>())
                QVERIFY2(!e->text().contains(u"sonde-secret:"_s), qPrintable(e->text()));
            QTest::keyClicks(field, value);
            clickOk(dialog);
            QTRY_VERIFY(!openDialog(window, u"serverDialog"_s));
        };
        enterAgain(u"alpha"_s, u"serverHeaders"_s, u"Bearer again-123"_s);
        // One left: the notice names it only.
        QVERIFY2(!hint(window).contains(u"alpha"_s) && hint(window).contains(u"beta"_s),
                 qPrintable(hint(window)));
        enterAgain(u"beta"_s, u"serverEnv"_s, u"ghp_again-456"_s);
        QVERIFY2(hint(window).isEmpty(), qPrintable(hint(window)));
        QCOMPARE(window.statusBar()->currentMessage(), u"Every secret is entered again"_s);
        grab(&window, u"window-secrets-entered"_s);
        const ServerStore *servers = window.serverStore();
        QCOMPARE(servers->config(servers->indexOf(u"alpha"_s)).headers.value(0).second,
                 QByteArray("Bearer again-123"));
        QCOMPARE(servers->config(servers->indexOf(u"beta"_s)).environment.value(u"GITHUB_TOKEN"_s),
                 u"ghp_again-456"_s);
        shutDown(host);
    }
};

QTEST_MAIN(TestWindowSecrets)
#include "tst_windowsecrets.moc"
