// SPDX-License-Identifier: MIT
#include "auth/redirectlistener.h"

#include "util/modulesymbol.h"

#include <QCoreApplication>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

using Listen = RedirectListener *(*)(const QString &pageText, RedirectReceived received,
                                     QString *error);

// Loaded once per process and kept loaded: a listener made from it may outlive its caller
// by the page it is still writing.
Listen resolve(QString *error)
{
    static QString loadError;
    static const Listen listen = [] {
        QStringList candidates;
        const QString env = qEnvironmentVariable("SONDE_OAUTH_LISTENER_MODULE");
        if (!env.isEmpty()) {
            candidates << env;
        } else {
            if (QCoreApplication::instance())
                candidates << QCoreApplication::applicationDirPath() +
                                  u"/../" SONDE_INSTALL_LIBDIR
                                  "/sonde/libsonde-oauth-listener.so"_s;
            candidates << QStringLiteral(SONDE_OAUTH_LISTENER_MODULE_BUILT);
        }
        QStringList tried;
        if (auto f = reinterpret_cast<Listen>(
                resolveModuleSymbol(candidates, "sonde_redirect_listen", &tried)))
            return f;
        loadError = u"the OAuth redirect listener module could not be loaded (%1)"_s.arg(
            tried.join(u"; "_s));
        return Listen(nullptr);
    }();
    if (!listen && error)
        *error = loadError;
    return listen;
}

} // namespace

std::unique_ptr<RedirectListener>
RedirectListenerModule::listen(const QString &pageText, RedirectReceived received, QString *error)
{
    const Listen f = resolve(error);
    return f ? std::unique_ptr<RedirectListener>(f(pageText, std::move(received), error)) : nullptr;
}

} // namespace Sonde
