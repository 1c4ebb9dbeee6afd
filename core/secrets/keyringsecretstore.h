// SPDX-License-Identifier: MIT
#pragma once

#include "secrets/secretstore.h"

namespace Sonde {

// The system keyring as a SecretStore: one qtkeychain job per call, under the service name
// "sonde" and the store's key (Secret Service or KWallet over D-Bus on Linux). qtkeychain's
// insecure fallback (a plaintext QSettings file when no keyring answers) is switched off on
// every job: a keyring that fails is an error here, and SecretStoreChooser decides what to
// use instead. A job outliving the store still answers. Thread: the one that calls it (its
// event loop delivers the answers).
class KeyringSecretStore final : public SecretStore
{
public:
    static constexpr auto DefaultService = "sonde";

    explicit KeyringSecretStore(const QString &service = QString::fromLatin1(DefaultService));

    void read(const QString &key,
              std::function<void(std::optional<QByteArray> value, QString error)> done) override;
    void write(const QString &key, const QByteArray &value,
               std::function<void(QString error)> done) override;
    void remove(const QString &key, std::function<void(QString error)> done) override;
    QString kind() const override;

private:
    QString m_service;
};

} // namespace Sonde
