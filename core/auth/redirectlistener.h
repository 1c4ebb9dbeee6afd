// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QUrl>
#include <QVariantMap>

#include <functional>
#include <memory>

namespace Sonde {

// The OAuth redirect listener on 127.0.0.1 (QtNetworkAuth's QOAuthHttpServerReplyHandler),
// behind a plain interface so that it can live in a module loaded on first use
// (RedirectListenerModule): QtNetworkAuth is needed only while a browser flow runs, and linking
// it cost every sonde-cli start about half a millisecond of the cold one-shot's budget.
// Not a QObject: the module then needs no moc output of the core's.
class RedirectListener
{
public:
    virtual ~RedirectListener() = default;
    // The redirect URI the authorization server is given: http://127.0.0.1:<port>/...
    virtual QUrl callback() const = 0;
    // 0 once closed.
    virtual quint16 port() const = 0;
    // No more answers are accepted; the page already being written is finished.
    virtual void close() = 0;
};

// The query values of the one redirect, as the handler hands them over.
using RedirectReceived = std::function<void(const QVariantMap &)>;

class RedirectListenerModule
{
public:
    // Listens on 127.0.0.1, a free port. Null with the reason in `error` when the module is
    // missing or nothing can listen. SONDE_OAUTH_LISTENER_MODULE, when set, is the only
    // place looked at (so a missing module can be tested); otherwise next to the programs
    // (../<libdir>/sonde when installed), then where this build put it.
    static std::unique_ptr<RedirectListener> listen(const QString &pageText,
                                                    RedirectReceived received, QString *error);
};

} // namespace Sonde
