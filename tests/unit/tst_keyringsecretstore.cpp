// SPDX-License-Identifier: MIT
// KeyringSecretStore against a real Secret Service (gnome-keyring on a private session bus):
// the chooser finds it, and a secret is written, read back, replaced and removed.
#include "keyringmodule.h"
#include "secrets/secretstore.h"
#include "secretservicebus.h"
#include "secretstorechooser.h"
#include "secretstorewait.h"

#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;
using namespace SecretStoreWait;

class TestKeyringSecretStore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        const QString busError = m_bus.startBus();
        QVERIFY2(busError.isEmpty(), qPrintable(busError));
        const QString keyringError = m_bus.startKeyring();
        QVERIFY2(keyringError.isEmpty(), qPrintable(keyringError));
    }

    void theChooserFindsTheKeyringWithoutANotice()
    {
        // The daemon takes a moment to own its name: ask until it answers.
        SecretStoreChooser::Choice choice;
        QVERIFY(QTest::qWaitFor(
            [&] {
                SecretStoreChooser chooser({});
                QSignalSpy chosen(&chooser, &SecretStoreChooser::chosen);
                chooser.choose();
                if (!chosen.wait(5000))
                    return false;
                choice = chosen.at(0).at(0).value<SecretStoreChooser::Choice>();
                return choice.kind == SecretStoreChooser::Choice::Kind::Keyring;
            },
            20000));
        QCOMPARE(choice.notice, QString());
        QCOMPARE(SecretStoreChooser::create(choice)->kind(), u"keyring"_s);
    }

    void aSecretIsWrittenReadReplacedAndRemoved()
    {
        std::unique_ptr<SecretStore> storeMade = KeyringModule::create(u"sonde"_s, nullptr);
        QVERIFY(storeMade);
        SecretStore &store = *storeMade;
        QCOMPARE(store.kind(), u"keyring"_s);
        const auto absent = readNow(store, u"oauth/demo-http"_s);
        QCOMPARE(absent.second, QString());
        QVERIFY(!absent.first);

        QCOMPARE(writeNow(store, u"oauth/demo-http"_s, "refresh-token-\x01\xff-bytes"), QString());
        QCOMPARE(readNow(store, u"oauth/demo-http"_s).first,
                 std::optional<QByteArray>("refresh-token-\x01\xff-bytes"));
        QCOMPARE(writeNow(store, u"oauth/demo-http"_s, "second"), QString());
        // Another store object (the engine's) sees the same keyring.
        std::unique_ptr<SecretStore> otherMade = KeyringModule::create(u"sonde"_s, nullptr);
        QVERIFY(otherMade);
        SecretStore &other = *otherMade;
        QCOMPARE(readNow(other, u"oauth/demo-http"_s).first, std::optional<QByteArray>("second"));

        QCOMPARE(removeNow(store, u"oauth/demo-http"_s), QString());
        QVERIFY(!readNow(store, u"oauth/demo-http"_s).first);
    }

    void aStoreUnderAnotherServiceSeesNothingOfSondes()
    {
        std::unique_ptr<SecretStore> sondeMade = KeyringModule::create(u"sonde"_s, nullptr);
        QVERIFY(sondeMade);
        SecretStore &sonde = *sondeMade;
        std::unique_ptr<SecretStore> otherMade = KeyringModule::create(u"not-sonde"_s, nullptr);
        QVERIFY(otherMade);
        SecretStore &other = *otherMade;
        QCOMPARE(writeNow(sonde, u"header/x/Authorization"_s, "Bearer k"), QString());
        QVERIFY(!readNow(other, u"header/x/Authorization"_s).first);
        QCOMPARE(readNow(sonde, u"header/x/Authorization"_s).first,
                 std::optional<QByteArray>("Bearer k"));
    }

private:
    SecretServiceBus m_bus;
};

QTEST_GUILESS_MAIN(TestKeyringSecretStore)
#include "tst_keyringsecretstore.moc"
