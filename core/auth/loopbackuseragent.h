// SPDX-License-Identifier: MIT
#pragma once

#include "auth/authorizationuseragent.h"

#include <QObject>

#include <functional>
#include <memory>

namespace Sonde {

class Clock;
class ClockTimer;
class RedirectListener;

// The user agent with a browser: a redirect listener (RedirectListener) bound to 127.0.0.1
// on a free port, which exists only from prepare() to finish() and closes after one answer
// or the timeout. The answer is the redirect on the callback path whose `state` is the one
// in the authorize URL: the browser's tab then says it is signed in to `server`, or names
// the authorization server's error; a request with another state gets a 400 page and the
// flow goes on waiting (an old tab, a forged request cannot end it). `open` gets the
// authorize URL: the window opens it with QDesktopServices, the CLI prints it. Engine thread.
class LoopbackUserAgent final : public QObject, public AuthorizationUserAgent
{
    Q_OBJECT
public:
    LoopbackUserAgent(std::function<void(QUrl)> open, const Clock &clock, int timeoutMs,
                      QString kind = QStringLiteral("browser"), QString server = {},
                      QObject *parent = nullptr);
    ~LoopbackUserAgent() override;

    void prepare(std::function<void(QUrl, QString)> done) override;
    void authorize(const QUrl &authorizeUrl, std::function<void(Response)> done) override;
    void finish() override;
    QString kind() const override { return m_kind; }
    // 0 when nothing listens (before prepare(), after the answer or finish()).
    quint16 listeningPort() const;

private:
    void answer(const Response &response);

    std::function<void(QUrl)> m_open;
    const Clock &m_clock;
    int m_timeoutMs;
    QString m_kind;
    QString m_server;
    QString m_expectedState; // the authorize URL's
    std::unique_ptr<RedirectListener> m_listener;
    ClockTimer *m_timer = nullptr;
    std::function<void(Response)> m_done;
};

} // namespace Sonde
