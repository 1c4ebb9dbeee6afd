// SPDX-License-Identifier: MIT
#include "secrets/encryptedfilesecretstore.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageAuthenticationCode>
#include <QMutex>
#include <QPasswordDigestor>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QTimer>
#include <QtEndian>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

constexpr QByteArrayView Magic = "SONDESEC\x01";
constexpr int SaltSize = 16;
constexpr int NonceSize = 16;
constexpr int MacSize = 32;
constexpr int HeaderSize = Magic.size() + 4 + SaltSize + SaltSize + NonceSize + MacSize;
constexpr QByteArrayView CheckLabel = "sonde secrets passphrase check";

// The stretched passphrases of this process, by passphrase, salt and cost: PBKDF2 through
// Qt costs about a second, so each file's is derived once per process (not once per store
// or per write; the window's and the engine's stores share it). Under fileLock().
QHash<QByteArray, QByteArray> &masterKeys()
{
    static QHash<QByteArray, QByteArray> keys;
    return keys;
}

// One lock for every store in the process: two stores on one file (the engine's and the
// window's) must not interleave their read-modify-write.
QMutex &fileLock()
{
    static QMutex lock;
    return lock;
}

QByteArray hmac(const QByteArray &key, QByteArrayView data)
{
    return QMessageAuthenticationCode::hash(data.toByteArray(), key, QCryptographicHash::Sha256);
}

QByteArray randomBytes(int size)
{
    QByteArray out(size, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(out.data()), size / 4);
    return out;
}

// XOR with HMAC-SHA256(key, nonce || counter): encrypts and decrypts alike.
QByteArray keystreamXor(const QByteArray &key, const QByteArray &nonce, const QByteArray &data)
{
    QByteArray out = data;
    QMessageAuthenticationCode mac(QCryptographicHash::Sha256, key);
    for (qsizetype block = 0; block * MacSize < out.size(); ++block) {
        char counter[8];
        qToBigEndian<quint64>(quint64(block), counter);
        mac.reset();
        mac.addData(nonce);
        mac.addData(counter, 8);
        const QByteArray stream = mac.result();
        const qsizetype from = block * MacSize;
        for (qsizetype i = 0; i < MacSize && from + i < out.size(); ++i)
            out[from + i] = char(out[from + i] ^ stream[i]);
    }
    return out;
}

bool equalInConstantTime(QByteArrayView a, QByteArrayView b)
{
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

} // namespace

EncryptedFileSecretStore::EncryptedFileSecretStore(const QString &path,
                                                   const QByteArray &passphrase, int iterations)
    : m_path(path), m_passphrase(passphrase), m_iterations(iterations)
{
}

EncryptedFileSecretStore::Keys EncryptedFileSecretStore::keysFor(const QByteArray &kdfSalt,
                                                                 int iterations,
                                                                 const QByteArray &writeSalt)
{
    const QByteArray id = QCryptographicHash::hash(
        QByteArray(m_passphrase + '\0' + kdfSalt + '\0' + QByteArray::number(iterations)),
        QCryptographicHash::Sha256);
    QByteArray master = masterKeys().value(id);
    if (master.isEmpty()) {
        master = QPasswordDigestor::deriveKeyPbkdf2(QCryptographicHash::Sha256, m_passphrase,
                                                    kdfSalt, iterations, MacSize);
        masterKeys().insert(id, master);
    }
    // Per write: keys of their own from the master key and the write's random salt (HMAC as
    // the PRF, as HKDF's expand step), so no two writes share a key or a keystream.
    return {hmac(master, CheckLabel), hmac(master, QByteArray("encrypt" + writeSalt)),
            hmac(master, QByteArray("authenticate" + writeSalt))};
}

QHash<QString, QByteArray> EncryptedFileSecretStore::load(QString *error)
{
    QHash<QString, QByteArray> entries;
    QFile file(m_path);
    m_kdfSalt.clear(); // what the file on disk says, read below
    if (!file.exists())
        return entries;
    if (!file.open(QIODevice::ReadOnly)) {
        *error = u"cannot read the secrets file %1: %2"_s.arg(m_path, file.errorString());
        return entries;
    }
    const QByteArray data = file.readAll();
    if (data.size() < HeaderSize + MacSize || !data.startsWith(Magic)) {
        *error = u"%1 is not a Sonde secrets file"_s.arg(m_path);
        return entries;
    }
    qsizetype at = Magic.size();
    const int iterations = int(qFromBigEndian<quint32>(data.constData() + at));
    at += 4;
    const QByteArray kdfSalt = data.mid(at, SaltSize);
    const QByteArray writeSalt = data.mid(at += SaltSize, SaltSize);
    const QByteArray nonce = data.mid(at += SaltSize, NonceSize);
    const QByteArray check = data.mid(at += NonceSize, MacSize);
    // A count no write of ours makes: refuse it rather than hang on a crafted header.
    if (iterations < 1 || iterations > 10'000'000) {
        *error =
            u"%1 is not a Sonde secrets file (its key derivation cost is %2)"_s.arg(m_path).arg(
                iterations);
        return entries;
    }
    m_kdfSalt = kdfSalt;
    m_fileIterations = iterations;
    const Keys keys = keysFor(kdfSalt, iterations, writeSalt);
    if (!equalInConstantTime(check, keys.check)) {
        *error = u"wrong passphrase for the secrets file %1"_s.arg(m_path);
        return entries;
    }
    const QByteArrayView authenticated(data.constData(), data.size() - MacSize);
    if (!equalInConstantTime(QByteArrayView(data).last(MacSize),
                             hmac(keys.macKey, authenticated))) {
        *error = u"the secrets file %1 was altered (its authentication failed); nothing in it "
                 u"is used"_s.arg(m_path);
        return entries;
    }
    const QByteArray plain =
        keystreamXor(keys.encKey, nonce, data.mid(HeaderSize, data.size() - HeaderSize - MacSize));
    const QJsonObject object = QJsonDocument::fromJson(plain).object();
    for (auto it = object.begin(); it != object.end(); ++it)
        entries.insert(it.key(), QByteArray::fromBase64(it.value().toString().toLatin1()));
    return entries;
}

QString EncryptedFileSecretStore::save(const QHash<QString, QByteArray> &entries)
{
    QJsonObject object;
    for (auto it = entries.cbegin(); it != entries.cend(); ++it)
        object.insert(it.key(), QString::fromLatin1(it.value().toBase64()));
    const QByteArray plain = QJsonDocument(object).toJson(QJsonDocument::Compact);

    // The file's passphrase salt stays with the file (a new file gets a random one); the
    // write salt and the nonce are new on every write.
    if (m_kdfSalt.isEmpty()) {
        m_kdfSalt = randomBytes(SaltSize);
        m_fileIterations = m_iterations;
    }
    const QByteArray writeSalt = randomBytes(SaltSize);
    const QByteArray nonce = randomBytes(NonceSize);
    const Keys keys = keysFor(m_kdfSalt, m_fileIterations, writeSalt);
    char iterations[4];
    qToBigEndian<quint32>(quint32(m_fileIterations), iterations);
    QByteArray data = Magic.toByteArray() + QByteArray(iterations, 4) + m_kdfSalt + writeSalt +
                      nonce + keys.check + keystreamXor(keys.encKey, nonce, plain);
    data += hmac(keys.macKey, data);

    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly))
        return u"cannot write the secrets file %1: %2"_s.arg(m_path, file.errorString());
    // Before a byte is written: the new file is the user's alone from the start.
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (file.write(data) != data.size() || !file.commit())
        return u"cannot write the secrets file %1: %2"_s.arg(m_path, file.errorString());
    return {};
}

void EncryptedFileSecretStore::read(
    const QString &key, std::function<void(std::optional<QByteArray> value, QString error)> done)
{
    QString error;
    std::optional<QByteArray> value;
    if (m_passphrase.isEmpty()) {
        error = u"no passphrase for the secrets file %1"_s.arg(m_path);
    } else {
        QMutexLocker locker(&fileLock());
        const QHash<QString, QByteArray> entries = load(&error);
        if (error.isEmpty() && entries.contains(key))
            value = entries.value(key);
    }
    QTimer::singleShot(0, [done = std::move(done), value, error] { done(value, error); });
}

void EncryptedFileSecretStore::write(const QString &key, const QByteArray &value,
                                     std::function<void(QString error)> done)
{
    QString error;
    if (m_passphrase.isEmpty()) {
        error = u"no passphrase for the secrets file %1"_s.arg(m_path);
    } else {
        QMutexLocker locker(&fileLock());
        // A file that cannot be read is never overwritten: that would lose its secrets.
        QHash<QString, QByteArray> entries = load(&error);
        if (error.isEmpty()) {
            entries.insert(key, value);
            error = save(entries);
        }
    }
    QTimer::singleShot(0, [done = std::move(done), error] { done(error); });
}

void EncryptedFileSecretStore::remove(const QString &key, std::function<void(QString error)> done)
{
    QString error;
    if (m_passphrase.isEmpty()) {
        error = u"no passphrase for the secrets file %1"_s.arg(m_path);
    } else {
        QMutexLocker locker(&fileLock());
        QHash<QString, QByteArray> entries = load(&error);
        if (error.isEmpty() && entries.remove(key))
            error = save(entries);
    }
    QTimer::singleShot(0, [done = std::move(done), error] { done(error); });
}

QString EncryptedFileSecretStore::kind() const
{
    return u"encrypted-file"_s;
}

} // namespace Sonde
