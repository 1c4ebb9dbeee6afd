// SPDX-License-Identifier: MIT
#include "secretstorage.h"

#include "secrets/encryptedfilesecretstore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPointer>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
// Never read for its value: a read answers whether the passphrase opens the file, a write
// creates a new file (and says whether its folder can be written).
const QString FileProbeKey = u"sonde/secrets-file"_s;
} // namespace

SecretStorage SecretStorage::of(const SecretStore *store, const QString &why)
{
    SecretStorage s;
    if (const auto *file = dynamic_cast<const EncryptedFileSecretStore *>(store)) {
        s.kind = Kind::EncryptedFile;
        s.file = file->path();
    } else if (store && store->kind() == "keyring"_L1) {
        s.kind = Kind::Keyring;
    } else {
        s.why = why;
    }
    return s;
}

QString SecretStorage::sentence() const
{
    switch (kind) {
    case Kind::Keyring:
        return QCoreApplication::translate(
            "SecretStorage", "Secret values are kept in the system keyring, never in Sonde's "
                             "settings.");
    case Kind::EncryptedFile:
        return QCoreApplication::translate("SecretStorage",
                                           "Secret values are kept in the encrypted file %1 "
                                           "(its passphrase is asked once per run).")
            .arg(QDir::toNativeSeparators(file));
    case Kind::Session:
        break;
    }
    const QString because = why.isEmpty() ? QString() : why + u". "_s;
    return because + QCoreApplication::translate(
                         "SecretStorage",
                         "Secret values are kept for this session only: after Sonde quits they "
                         "must be entered again. Keep them in an encrypted file to have them "
                         "next time.");
}

QString SecretsFileOpener::problem(const QString &path, const QByteArray &passphrase,
                                   const QByteArray &confirmation, bool creating)
{
    if (path.trimmed().isEmpty())
        return tr("Choose where the file goes.");
    if (QFileInfo(path).isDir())
        return tr("%1 is a folder: name a file in it.").arg(path);
    if (passphrase.isEmpty())
        return tr("Enter the passphrase.");
    if (!creating)
        return {};
    if (passphrase.size() < MinimumNewPassphrase)
        return tr("A new file's passphrase needs at least %1 characters: it is all that "
                  "protects the file.")
            .arg(MinimumNewPassphrase);
    if (passphrase != confirmation)
        return tr("The two passphrases differ.");
    return {};
}

void SecretsFileOpener::open(const QString &path, const QByteArray &passphrase, QObject *context,
                             Done done, int iterations)
{
    const bool exists = QFileInfo::exists(path);
    if (!exists)
        QDir().mkpath(QFileInfo(path).absolutePath());
    auto store = std::make_shared<std::unique_ptr<SecretStore>>(
        iterations > 0 ? std::make_unique<EncryptedFileSecretStore>(path, passphrase, iterations)
                       : std::make_unique<EncryptedFileSecretStore>(path, passphrase));
    QPointer<QObject> guard(context);
    const auto finish = [store, guard, done](const QString &error) {
        if (!guard)
            return;
        if (error.isEmpty())
            done(std::move(*store), {});
        else
            done(nullptr, error);
    };
    if (exists)
        (*store)->read(FileProbeKey,
                       [finish](std::optional<QByteArray>, QString error) { finish(error); });
    else
        (*store)->write(FileProbeKey, "1", [finish](QString error) { finish(error); });
}

QString SecretsFileOpener::defaultPath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(u"secrets.sonde"_s);
}

} // namespace Sonde
