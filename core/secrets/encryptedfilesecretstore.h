// SPDX-License-Identifier: MIT
#pragma once

#include "secrets/secretstore.h"

#include <QByteArray>
#include <QHash>
#include <QString>

namespace Sonde {

// A SecretStore in one file encrypted under a passphrase: what the user opts into where no
// keyring answers and secrets must outlive the process (the window's setting; the CLI's
// --secrets-file with SONDE_SECRETS_PASSPHRASE). Qt has no cipher and no crypto library is
// added, so the construction is built from HMAC-SHA256, which Qt has:
// - PBKDF2-HMAC-SHA256 (QPasswordDigestor) stretches the passphrase with the file's random
//   16-byte salt into a master key, once per process (it costs about a second through Qt);
// - every write draws a new random 16-byte write salt and nonce; HMAC(master, label || write
//   salt) gives that write's own encryption and authentication keys (HKDF's expand step),
//   so no key or keystream is ever used twice;
// - the cipher is HMAC-SHA256(encKey, nonce || counter) as a keystream (counter mode over a
//   PRF), XORed with the plaintext;
// - encrypt-then-MAC: HMAC-SHA256(macKey, header || ciphertext) is checked, in constant
//   time, before anything is decrypted, so a tampered file is an error, never garbage;
// - a passphrase check value (HMAC of a fixed label under the master key) tells a wrong
//   passphrase from a tampered file, for a clear message.
// Layout: "SONDESEC" 0x01 | iterations u32 BE | passphrase salt 16 | write salt 16 | nonce
// 16 | check 32 | ciphertext | tag 32. The plaintext is a JSON object of key -> base64 value.
// Written whole through QSaveFile (a new file renamed over the old: a crash leaves the old
// one) with mode 0600. Every call reads the file again under a process-wide lock, so a store
// on the engine's thread and one on the window's share the file without losing each other's
// writes. The first use blocks the calling thread for the key derivation; callbacks are
// posted to the caller's event loop. Thread: the one that calls it.
class EncryptedFileSecretStore final : public SecretStore
{
public:
    static constexpr int DefaultIterations = 100'000;

    EncryptedFileSecretStore(const QString &path, const QByteArray &passphrase,
                             int iterations = DefaultIterations);

    void read(const QString &key,
              std::function<void(std::optional<QByteArray> value, QString error)> done) override;
    void write(const QString &key, const QByteArray &value,
               std::function<void(QString error)> done) override;
    void remove(const QString &key, std::function<void(QString error)> done) override;
    QString kind() const override;

    QString path() const { return m_path; }

private:
    struct Keys
    {
        QByteArray check;
        QByteArray encKey;
        QByteArray macKey;
    };
    // The file's entries (none when it does not exist yet), or an error.
    QHash<QString, QByteArray> load(QString *error);
    QString save(const QHash<QString, QByteArray> &entries);
    Keys keysFor(const QByteArray &kdfSalt, int iterations, const QByteArray &writeSalt);

    QString m_path;
    QByteArray m_passphrase;
    int m_iterations;     // for a new file
    QByteArray m_kdfSalt; // the file's, as last read (empty: no file yet)
    int m_fileIterations = 0;
};

} // namespace Sonde
