// SPDX-License-Identifier: MIT
// SecretStoreChooser where no keyring can answer (no session bus, as in CI, a container or
// an SSH session): memory only with one notice, at once; the keyring store itself fails
// instead of writing a plaintext file (qtkeychain's insecure fallback is off); the user's
// encrypted file is taken without asking any keyring.
#include "keyringmodule.h"
#include "secrets/secretstore.h"
#include "secretstorechooser.h"

#include <QCoreApplication>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestSecretStoreChooser : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qunsetenv("DBUS_SESSION_BUS_ADDRESS");
        qputenv("XDG_RUNTIME_DIR", QFile::encodeName(m_home.filePath(u"runtime"_s)));
        qputenv("HOME", QFile::encodeName(m_home.path()));
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_home.filePath(u"config"_s)));
        qunsetenv("DISPLAY"); // no X11 autolaunch of a bus either
        QCoreApplication::setOrganizationName(u"SondeTest"_s);
        QCoreApplication::setApplicationName(u"SecretStoreChooser"_s);
    }

    void withoutASessionBusItIsMemoryOnlyWithOneNoticeAtOnce()
    {
        QVERIFY(!SecretStoreChooser::sessionBusReachable());
        SecretStoreChooser chooser({});
        QSignalSpy chosen(&chooser, &SecretStoreChooser::chosen);
        QElapsedTimer elapsed;
        elapsed.start();
        chooser.choose();
        QCOMPARE(chosen.size(), 0); // never inside choose()
        QVERIFY(chosen.wait(3000));
        QVERIFY(elapsed.elapsed() < 1000); // nothing is waited for when there is no bus
        const auto choice = chosen.at(0).at(0).value<SecretStoreChooser::Choice>();
        QCOMPARE(choice.kind, SecretStoreChooser::Choice::Kind::Memory);
        QVERIFY2(choice.notice.contains(u"no D-Bus session bus"_s), qPrintable(choice.notice));
        QVERIFY(choice.notice.contains(u"memory only"_s));
        QVERIFY(choice.notice.contains(u"encrypted secrets file"_s));
        QCOMPARE(SecretStoreChooser::create(choice)->kind(), u"memory"_s);
        QTest::qWait(50);
        QCOMPARE(chosen.size(), 1); // one notice, once
    }

    void theKeyringStoreFailsRatherThanWritingPlainText()
    {
        std::unique_ptr<SecretStore> storeMade = KeyringModule::create(u"sonde"_s, nullptr);
        QVERIFY(storeMade);
        SecretStore &store = *storeMade;
        QString error;
        bool answered = false;
        store.write(u"oauth/plain"_s, "a-secret-that-must-not-land-on-disk", [&](QString e) {
            error = e;
            answered = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(answered, 10000);
        QVERIFY2(!error.isEmpty(), "a write with no keyring must fail");
        QVERIFY(error.startsWith(u"keyring: "_s));
        // qtkeychain's insecure fallback would have put it in a QSettings file in the home.
        QDirIterator it(m_home.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile f(it.next());
            QVERIFY(f.open(QIODevice::ReadOnly));
            QVERIFY2(!f.readAll().contains("a-secret-that-must-not-land-on-disk"),
                     qPrintable(f.fileName()));
        }
    }

    void theUsersEncryptedFileIsTakenWithoutAskingAKeyring()
    {
        QTemporaryDir dir;
        SecretStoreChooser::Options options;
        options.encryptedFile = dir.filePath(u"secrets.bin"_s);
        options.passphrase = "pass";
        SecretStoreChooser chooser(options);
        QSignalSpy chosen(&chooser, &SecretStoreChooser::chosen);
        chooser.choose();
        QCOMPARE(chosen.size(), 0);
        QVERIFY(chosen.wait(3000));
        const auto choice = chosen.at(0).at(0).value<SecretStoreChooser::Choice>();
        QCOMPARE(choice.kind, SecretStoreChooser::Choice::Kind::EncryptedFile);
        QCOMPARE(choice.notice, QString());
        QCOMPARE(choice.encryptedFile, options.encryptedFile);
        QCOMPARE(SecretStoreChooser::create(choice)->kind(), u"encrypted-file"_s);
    }

private:
    QTemporaryDir m_home;
};

QTEST_GUILESS_MAIN(TestSecretStoreChooser)
#include "tst_secretstorechooser.moc"
