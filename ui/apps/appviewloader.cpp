// SPDX-License-Identifier: MIT
#include "apps/appviewloader.h"

#include "apps/appview.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPluginLoader>

using namespace Qt::StringLiterals;

namespace Sonde::AppViewLoader {

namespace {
AppViewFactory *s_factory = nullptr;
} // namespace

AppViewFactory *factory(QString *error)
{
    if (s_factory)
        return s_factory;
    // QtWebEngine takes Qt's global shared OpenGL context, which exists only when this was set
    // before the application object; without it Chromium's start dereferences nothing.
    if (!QCoreApplication::testAttribute(Qt::AA_ShareOpenGLContexts)) {
        if (error)
            *error = u"the App view (QtWebEngine) needs Qt::AA_ShareOpenGLContexts set before "
                     u"the application starts"_s;
        return nullptr;
    }
    // As the keyring module is found: SONDE_APPVIEW_MODULE, then installed beside the
    // programs (their libdir's sonde/), then the build tree's own copy.
    QStringList candidates;
    if (const QString env = qEnvironmentVariable("SONDE_APPVIEW_MODULE"); !env.isEmpty())
        candidates << env;
    candidates << QCoreApplication::applicationDirPath() + u"/../" SONDE_INSTALL_LIBDIR
                                                           "/sonde/libsonde-appview.so"_s
               << QStringLiteral(SONDE_APPVIEW_MODULE_BUILT);
    QStringList tried;
    for (const QString &path : candidates) {
        if (!QFileInfo::exists(path)) {
            tried << u"%1 (missing)"_s.arg(QDir::cleanPath(path));
            continue;
        }
        QPluginLoader loader(path);
        QObject *root = loader.instance();
        if (auto *f = qobject_cast<AppViewFactory *>(root)) {
            s_factory = f;
            return f;
        }
        tried << u"%1 (%2)"_s.arg(QDir::cleanPath(path), loader.errorString());
    }
    if (error)
        *error = u"the App view (QtWebEngine) could not be loaded: "_s + tried.join(u"; "_s);
    return nullptr;
}

bool isLoaded()
{
    return s_factory != nullptr;
}

} // namespace Sonde::AppViewLoader
