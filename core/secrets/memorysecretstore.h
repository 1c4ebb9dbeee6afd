// SPDX-License-Identifier: MIT
#pragma once

#include "secrets/secretstore.h"

#include <QHash>

namespace Sonde {

// A SecretStore that forgets everything when the process ends: the fallback when no keyring
// answers (CI, containers, SSH sessions), and the store tests use. Callbacks are posted to
// the caller's event loop (never run inside the call), as the keyring's are, so a caller
// written against one behaves the same against the other. Thread: the one that calls it.
class MemorySecretStore final : public SecretStore
{
public:
    void read(const QString &key,
              std::function<void(std::optional<QByteArray> value, QString error)> done) override;
    void write(const QString &key, const QByteArray &value,
               std::function<void(QString error)> done) override;
    void remove(const QString &key, std::function<void(QString error)> done) override;
    QString kind() const override;

private:
    QHash<QString, QByteArray> m_values;
};

} // namespace Sonde
