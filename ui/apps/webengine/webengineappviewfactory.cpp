// SPDX-License-Identifier: MIT
#include "apps/webengine/webengineappviewfactory.h"

#include "apps/webengine/webengineappview.h"

#include <QWebEngineUrlScheme>

#include <unistd.h>

namespace Sonde {

WebEngineAppViewFactory::WebEngineAppViewFactory()
{
    // Before any QtWebEngine object exists (the plugin is loaded at the first App): the host
    // page's scheme, secure so the App's frame is a secure context. Not CORS-enabled and not
    // local: the App, whose origin is opaque, can fetch nothing from it.
    QWebEngineUrlScheme scheme(HostScheme);
    scheme.setSyntax(QWebEngineUrlScheme::Syntax::Host);
    scheme.setFlags(QWebEngineUrlScheme::SecureScheme);
    QWebEngineUrlScheme::registerScheme(scheme);
    // Chromium refuses to start its sandbox as root (it needs an unprivileged user for its
    // namespaces), and without it refuses to start at all. Only then, and said where the user
    // and the snapshot look; a normal user keeps the sandbox, and the environment variable
    // someone set on purpose is respected and said too.
    if (geteuid() == 0) {
        qputenv("QTWEBENGINE_DISABLE_SANDBOX", "1");
        m_sandbox = false;
        m_note = QStringLiteral("Chromium's sandbox cannot run as root: this App runs without "
                                "it (the frame's own sandbox and policy still apply)");
    } else if (qEnvironmentVariableIntValue("QTWEBENGINE_DISABLE_SANDBOX") == 1) {
        m_sandbox = false;
        m_note = QStringLiteral("QTWEBENGINE_DISABLE_SANDBOX is set: this App runs without "
                                "Chromium's sandbox");
    }
}

std::unique_ptr<AppView> WebEngineAppViewFactory::create(QWidget *parent,
                                                         AppView::Callbacks callbacks)
{
    return std::make_unique<WebEngineAppView>(parent, std::move(callbacks));
}

} // namespace Sonde
