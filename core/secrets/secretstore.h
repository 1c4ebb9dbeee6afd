// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

#include <functional>
#include <optional>

namespace Sonde {

// Where secrets live (tokens, refresh tokens, client secrets, header values the user marked
// secret): the OS keyring through qtkeychain in the front ends, memory-only when no keyring
// answers, or an encrypted file the user opted into. Never QSettings. Asynchronous because
// the keyring answers over D-Bus; each callback runs exactly once on the caller's thread.
// Keys are "<purpose>/<server>", e.g. "oauth/demo-http" (docs/auth.md).
class SecretStore
{
public:
    virtual ~SecretStore() = default;
    // value nullopt and error empty: no such secret.
    virtual void read(const QString &key,
                      std::function<void(std::optional<QByteArray> value, QString error)> done) = 0;
    virtual void write(const QString &key, const QByteArray &value,
                       std::function<void(QString error)> done) = 0;
    virtual void remove(const QString &key, std::function<void(QString error)> done) = 0;
    // "keyring", "memory" or "encrypted-file": shown with the token, so the user knows.
    virtual QString kind() const = 0;
};

} // namespace Sonde
