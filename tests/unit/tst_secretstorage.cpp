// SPDX-License-Identifier: MIT
// Where the window's secrets live, as the server dialog says it (SecretStorage), and the
// encrypted secrets file opened from the window (SecretsFileOpener): what the passphrase
// fields must hold, a new file created at once, a wrong passphrase said in words and no store
// handed over for it.
#include "secrets/encryptedfilesecretstore.h"
#include "secrets/memorysecretstore.h"
#include "secretstorage.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {
constexpr int Cheap = 1000; // iterations: the tests do not need a second per file

struct Opened
{
    std::unique_ptr<SecretStore> store;
    QString error;
    bool done = false;
};

Opened openNow(const QString &path, const QByteArray &passphrase)
{
    Opened o;
    QObject context;
    SecretsFileOpener::open(
        path, passphrase, &context,
        [&o](std::unique_ptr<SecretStore> store, const QString &error) {
            o.store = std::move(store);
            o.error = error;
            o.done = true;
        },
        Cheap);
    if (!QTest::qWaitFor([&o] { return o.done; }, 10000))
        o.error = u"the file was never opened"_s;
    return o;
}
} // namespace

class TestSecretStorage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void eachStoreIsSaidInWords_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("saying");
        QTest::addColumn<bool>("offersFile");
        QTest::newRow("a memory store keeps secrets for this session only and says why")
            << 0 << u"No keyring: no bus. Secret values are kept for this session only"_s << true;
        QTest::newRow("an encrypted file store names its file")
            << 1 << u"kept in the encrypted file"_s << false;
    }
    void eachStoreIsSaidInWords()
    {
        QFETCH(int, kind);
        QFETCH(QString, saying);
        QFETCH(bool, offersFile);
        QTemporaryDir dir;
        MemorySecretStore memory;
        EncryptedFileSecretStore file(dir.filePath(u"s.sonde"_s), "passphrase", Cheap);
        const SecretStorage s = kind == 0 ? SecretStorage::of(&memory, u"No keyring: no bus"_s)
                                          : SecretStorage::of(&file);
        QVERIFY2(s.sentence().contains(saying), qPrintable(s.sentence()));
        QCOMPARE(s.offersFile(), offersFile);
        if (kind == 1)
            QVERIFY(s.sentence().contains(u"s.sonde"_s));
    }

    void thePassphraseFieldsAreChecked_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("passphrase");
        QTest::addColumn<QByteArray>("confirmation");
        QTest::addColumn<bool>("creating");
        QTest::addColumn<QString>("problem");
        QTest::newRow("a new file with a long passphrase typed twice is fine")
            << u"/tmp/x.sonde"_s << QByteArray("correct horse") << QByteArray("correct horse")
            << true << QString();
        QTest::newRow("a new file needs the passphrase twice alike")
            << u"/tmp/x.sonde"_s << QByteArray("correct horse") << QByteArray("correct hose")
            << true << u"differ"_s;
        QTest::newRow("a new file needs a passphrase of eight characters")
            << u"/tmp/x.sonde"_s << QByteArray("short") << QByteArray("short") << true
            << u"at least 8"_s;
        QTest::newRow("an existing file only needs its passphrase")
            << u"/tmp/x.sonde"_s << QByteArray("s") << QByteArray() << false << QString();
        QTest::newRow("no passphrase is asked for")
            << u"/tmp/x.sonde"_s << QByteArray() << QByteArray() << false << u"Enter"_s;
        QTest::newRow("no file is asked for")
            << QString() << QByteArray("correct horse") << QByteArray("correct horse") << true
            << u"Choose where"_s;
    }
    void thePassphraseFieldsAreChecked()
    {
        QFETCH(QString, path);
        QFETCH(QByteArray, passphrase);
        QFETCH(QByteArray, confirmation);
        QFETCH(bool, creating);
        QFETCH(QString, problem);
        const QString said = SecretsFileOpener::problem(path, passphrase, confirmation, creating);
        if (problem.isEmpty())
            QVERIFY2(said.isEmpty(), qPrintable(said));
        else
            QVERIFY2(said.contains(problem), qPrintable(said));
    }

    void aNewFileIsCreatedAtOnceAndOpensAgainWithItsPassphraseOnly()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"sub/secrets.sonde"_s);
        Opened created = openNow(path, "correct horse");
        QVERIFY2(created.store, qPrintable(created.error));
        QVERIFY(QFileInfo::exists(path));
        bool written = false;
        created.store->write(u"header/remote/Authorization"_s, "Bearer kept-42",
                             [&](QString e) { written = e.isEmpty(); });
        QTRY_VERIFY(written);

        Opened wrong = openNow(path, "wrong horse");
        QVERIFY(!wrong.store);
        QVERIFY2(wrong.error.contains(u"wrong passphrase"_s), qPrintable(wrong.error));

        Opened again = openNow(path, "correct horse");
        QVERIFY2(again.store, qPrintable(again.error));
        std::optional<QByteArray> value;
        again.store->read(u"header/remote/Authorization"_s,
                          [&](std::optional<QByteArray> v, QString) { value = v; });
        QTRY_COMPARE(value, std::optional<QByteArray>("Bearer kept-42"));
    }
};

QTEST_GUILESS_MAIN(TestSecretStorage)
#include "tst_secretstorage.moc"
