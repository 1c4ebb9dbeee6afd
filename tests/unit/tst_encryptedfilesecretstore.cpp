// SPDX-License-Identifier: MIT
// EncryptedFileSecretStore: secrets survive a new store on the same file, the file holds no
// secret in clear, a wrong passphrase and a tampered file are clear errors (never garbage,
// never overwritten), each write replaces the file whole with new randomness, mode 0600.
#include "secrets/encryptedfilesecretstore.h"
#include "secretstorewait.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace Sonde;
using namespace Qt::StringLiterals;
using namespace SecretStoreWait;

namespace {

// Few iterations: the construction is the same, the test is fast.
constexpr int TestIterations = 1000;

QByteArray contents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void overwrite(const QString &path, const QByteArray &data)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(data);
}

} // namespace

class TestEncryptedFileSecretStore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void secretsComeBackThroughANewStoreOnTheSameFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"secrets.bin"_s);
        {
            EncryptedFileSecretStore store(path, "correct horse", TestIterations);
            QCOMPARE(writeNow(store, u"oauth/demo"_s, "access-token-value-1"), QString());
            QCOMPARE(writeNow(store, u"header/demo/Authorization"_s, "Bearer xyz-987"), QString());
            QCOMPARE(store.kind(), u"encrypted-file"_s);
        }
        EncryptedFileSecretStore again(path, "correct horse", TestIterations);
        QCOMPARE(readNow(again, u"oauth/demo"_s).first,
                 std::optional<QByteArray>("access-token-value-1"));
        QCOMPARE(readNow(again, u"header/demo/Authorization"_s).first,
                 std::optional<QByteArray>("Bearer xyz-987"));
        const auto absent = readNow(again, u"oauth/other"_s);
        QVERIFY(!absent.first);
        QCOMPARE(absent.second, QString());

        QCOMPARE(removeNow(again, u"oauth/demo"_s), QString());
        EncryptedFileSecretStore third(path, "correct horse", TestIterations);
        QVERIFY(!readNow(third, u"oauth/demo"_s).first);
        QCOMPARE(readNow(third, u"header/demo/Authorization"_s).first,
                 std::optional<QByteArray>("Bearer xyz-987"));
    }

    void theFileHoldsNoSecretInClear()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"secrets.bin"_s);
        EncryptedFileSecretStore store(path, "pass", TestIterations);
        QCOMPARE(writeNow(store, u"oauth/demo"_s, "very-secret-refresh-token"), QString());
        const QByteArray data = contents(path);
        QVERIFY(!data.isEmpty());
        QVERIFY(!data.contains("very-secret-refresh-token"));
        QVERIFY(!data.contains(QByteArray("very-secret-refresh-token").toBase64()));
        QVERIFY(!data.contains("oauth/demo"));
    }

    void aWrongPassphraseIsAClearErrorAndLeavesTheFileAlone()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"secrets.bin"_s);
        EncryptedFileSecretStore store(path, "right", TestIterations);
        QCOMPARE(writeNow(store, u"k"_s, "v1"), QString());
        const QByteArray before = contents(path);

        EncryptedFileSecretStore wrong(path, "wrong", TestIterations);
        const auto r = readNow(wrong, u"k"_s);
        QVERIFY(!r.first);
        QVERIFY2(r.second.contains(u"wrong passphrase"_s), qPrintable(r.second));
        const QString w = writeNow(wrong, u"k2"_s, "v2");
        QVERIFY2(w.contains(u"wrong passphrase"_s), qPrintable(w));
        QCOMPARE(contents(path), before);
    }

    void aTamperedFileIsAClearErrorNeverGarbage_data()
    {
        QTest::addColumn<int>("offsetFromEnd");
        QTest::newRow("a flipped bit in the ciphertext fails authentication") << 40;
        QTest::newRow("a flipped bit in the tag fails authentication") << 1;
        QTest::newRow("a flipped bit in the header's write salt fails authentication") << -30;
    }
    void aTamperedFileIsAClearErrorNeverGarbage()
    {
        QFETCH(int, offsetFromEnd);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"secrets.bin"_s);
        EncryptedFileSecretStore store(path, "pass", TestIterations);
        QCOMPARE(writeNow(store, u"a-long-enough-key"_s, "a value long enough to flip"), QString());
        QByteArray data = contents(path);
        // Negative: counted from the start (-30: inside the write salt, after the magic,
        // the cost and the passphrase salt).
        const qsizetype at = offsetFromEnd < 0 ? -offsetFromEnd : data.size() - offsetFromEnd;
        data[at] = char(data[at] ^ 0x01);
        overwrite(path, data);

        EncryptedFileSecretStore reader(path, "pass", TestIterations);
        const auto r = readNow(reader, u"a-long-enough-key"_s);
        QVERIFY(!r.first);
        QVERIFY2(r.second.contains(u"was altered"_s), qPrintable(r.second));
        // Not overwritten either: the user may still recover it.
        QVERIFY(writeNow(reader, u"x"_s, "y").contains(u"was altered"_s));
        QCOMPARE(contents(path), data);
    }

    void aFileThatIsNotOursIsAClearError()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"secrets.bin"_s);
        overwrite(path, "token=plain\n");
        EncryptedFileSecretStore store(path, "pass", TestIterations);
        const auto r = readNow(store, u"token"_s);
        QVERIFY(!r.first);
        QVERIFY2(r.second.contains(u"not a Sonde secrets file"_s), qPrintable(r.second));
    }

    void anEmptyPassphraseIsRefused()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"secrets.bin"_s);
        EncryptedFileSecretStore store(path, QByteArray(), TestIterations);
        QVERIFY(writeNow(store, u"k"_s, "v").contains(u"no passphrase"_s));
        QVERIFY(!QFileInfo::exists(path));
    }

    void eachWriteReplacesTheFileWholeWithNewRandomness()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"secrets.bin"_s);
        const QString oldCopy = dir.filePath(u"old-link"_s);
        EncryptedFileSecretStore store(path, "pass", TestIterations);
        QCOMPARE(writeNow(store, u"k"_s, "first"), QString());
        const QByteArray first = contents(path);
        // A hard link keeps the old inode: written in place, it would change under it.
        QCOMPARE(
            ::link(QFile::encodeName(path).constData(), QFile::encodeName(oldCopy).constData()), 0);
        struct stat before
        {
        };
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &before), 0);

        QCOMPARE(writeNow(store, u"k"_s, "first"), QString()); // the same entries again
        struct stat after
        {
        };
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &after), 0);
        QVERIFY(before.st_ino != after.st_ino);
        QCOMPARE(contents(oldCopy), first);
        // New salt and nonce: the same plaintext never gives the same bytes.
        QVERIFY(contents(path) != first);
        QCOMPARE(contents(path).size(), first.size());
        // Nothing left beside it (QSaveFile's temporary file was renamed).
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 2);
        EncryptedFileSecretStore reader(oldCopy, "pass", TestIterations);
        QCOMPARE(readNow(reader, u"k"_s).first, std::optional<QByteArray>("first"));
    }

    void theFileIsReadableByItsOwnerOnly()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"secrets.bin"_s);
        EncryptedFileSecretStore store(path, "pass", TestIterations);
        QCOMPARE(writeNow(store, u"k"_s, "v"), QString());
        struct stat st
        {
        };
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, mode_t(0600));
        QCOMPARE(writeNow(store, u"k"_s, "w"), QString());
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, mode_t(0600));
    }

    void twoStoresOnOneFileKeepEachOthersWrites()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"secrets.bin"_s);
        EncryptedFileSecretStore engineSide(path, "pass", TestIterations);
        EncryptedFileSecretStore windowSide(path, "pass", TestIterations);
        QCOMPARE(writeNow(engineSide, u"oauth/a"_s, "token-a"), QString());
        QCOMPARE(writeNow(windowSide, u"header/a/Authorization"_s, "Bearer h"), QString());
        QCOMPARE(readNow(engineSide, u"header/a/Authorization"_s).first,
                 std::optional<QByteArray>("Bearer h"));
        QCOMPARE(readNow(windowSide, u"oauth/a"_s).first, std::optional<QByteArray>("token-a"));
    }
};

QTEST_GUILESS_MAIN(TestEncryptedFileSecretStore)
#include "tst_encryptedfilesecretstore.moc"
