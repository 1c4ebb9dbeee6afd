// SPDX-License-Identifier: MIT
#include "auth/redirectlistener.h"

#include <QCoreApplication>
#include <QLibrary>
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
        for (const QString &path : std::as_const(candidates)) {
            QLibrary library(path);
            if (!library.load()) {
                tried << library.errorString();
                continue;
            }
            if (auto f = reinterpret_cast<Listen>(library.resolve("sonde_redirect_listen")))
                return f;
            tried << u"%1 has no sonde_redirect_listen"_s.arg(path);
        }
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
