// SPDX-License-Identifier: MIT
#include "keyringmodule.h"

#include "secrets/secretstore.h"
#include "util/modulesymbol.h"

#include <QCoreApplication>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

using Create = SecretStore *(*)(const QString &service);

// Loaded once per process; QLibrary keeps it loaded (the stores made from it outlive any one
// caller).
Create resolve(QString *error)
{
    static QString loadError;
    static const Create create = [] {
        QStringList candidates;
        const QString env = qEnvironmentVariable("SONDE_KEYRING_MODULE");
        if (!env.isEmpty())
            candidates << env;
        if (QCoreApplication::instance())
            candidates << QCoreApplication::applicationDirPath() + u"/../" SONDE_INSTALL_LIBDIR
                                                                   "/sonde/libsonde-keyring.so"_s;
        candidates << QStringLiteral(SONDE_KEYRING_MODULE_BUILT);
        QStringList tried;
        if (auto f = reinterpret_cast<Create>(
                resolveModuleSymbol(candidates, "sonde_keyring_create", &tried)))
            return f;
        loadError = u"the keyring module could not be loaded (%1)"_s.arg(tried.join(u"; "_s));
        return Create(nullptr);
    }();
    if (!create && error)
        *error = loadError;
    return create;
}

} // namespace

std::unique_ptr<SecretStore> KeyringModule::create(const QString &service, QString *error)
{
    const Create f = resolve(error);
    return f ? std::unique_ptr<SecretStore>(f(service)) : nullptr;
}

} // namespace Sonde
