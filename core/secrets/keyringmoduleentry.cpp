// SPDX-License-Identifier: MIT
// The one symbol of the keyring module (KeyringModule loads it).
#include "keyringsecretstore.h"

extern "C" Q_DECL_EXPORT Sonde::SecretStore *sonde_keyring_create(const QString &service)
{
    return new Sonde::KeyringSecretStore(service);
}
