// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <memory>

namespace Sonde {

class SecretStore;

// The keyring backend (KeyringSecretStore, qtkeychain) lives in a module loaded on first use,
// not linked into the programs: qtkeychain brings Qt D-Bus, GLib, libsecret and libgcrypt,
// whose loading cost every sonde-cli run 1.4 ms (--version: 3.7 -> 5.2 ms), a third of a
// one-shot call's budget, also for the servers that never need a secret. Found next to the
// programs (../<libdir>/sonde when installed), or where this build put it.
class KeyringModule
{
public:
    // A keyring store for `service`, or null with the reason in `error` (the module missing or
    // broken: the front end then keeps secrets in memory and says why).
    static std::unique_ptr<SecretStore> create(const QString &service, QString *error);
};

} // namespace Sonde
