// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QString>

#include <functional>
#include <memory>

namespace Sonde {

class SecretStore;

// Where the window's secrets (secret headers, environment values) live, as the server dialog
// says it: the system keyring, an encrypted file, or this session only (no keyring answered,
// or the user did not open the file), with why. A value.
struct SecretStorage
{
    enum class Kind
    {
        Keyring,
        EncryptedFile,
        Session
    };
    Kind kind = Kind::Session;
    QString file; // EncryptedFile
    QString why;  // Session: why secrets do not outlive the run

    static SecretStorage of(const SecretStore *store, const QString &why = {});
    // One sentence for the dialog, naming the place.
    QString sentence() const;
    // Only where secrets would be lost at quit is the encrypted file offered.
    bool offersFile() const { return kind == Kind::Session; }
    bool operator==(const SecretStorage &) const = default;
};

// Opens an encrypted secrets file (EncryptedFileSecretStore) with a passphrase, and checks it
// before anything is kept in it: an existing file must open with it (a wrong passphrase, a
// file that is not one, an altered one are said in words); a new one is created at once, so
// a folder it cannot be written to is said now and not at the first secret. The key
// derivation blocks the calling thread for about a second, once per file and passphrase.
// Thread: the caller's; `done` comes from its event loop.
class SecretsFileOpener
{
    Q_DECLARE_TR_FUNCTIONS(SecretsFileOpener)
public:
    static constexpr int MinimumNewPassphrase = 8;
    // Empty when the fields may be tried, else what is wrong in words. `creating`: no file
    // is there yet, so the confirmation must match and the passphrase be long enough.
    static QString problem(const QString &path, const QByteArray &passphrase,
                           const QByteArray &confirmation, bool creating);
    using Done = std::function<void(std::unique_ptr<SecretStore> store, const QString &error)>;
    static void open(const QString &path, const QByteArray &passphrase, QObject *context, Done done,
                     int iterations = 0);
    // Where a new file goes when the user has no other idea: the application's data folder.
    static QString defaultPath();
};

} // namespace Sonde
