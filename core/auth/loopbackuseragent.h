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

// The user agent with a browser: a redirect listener (QtNetworkAuth's
// QOAuthHttpServerReplyHandler, in a module loaded on the first flow: RedirectListener) bound
// to 127.0.0.1 on a free port, which exists only from prepare() to finish() and closes after
// one answer or the timeout. `open` gets the authorize
// URL: the window opens it with QDesktopServices, the CLI prints it. Engine thread.
class LoopbackUserAgent final : public QObject, public AuthorizationUserAgent
{
    Q_OBJECT
public:
    LoopbackUserAgent(std::function<void(QUrl)> open, const Clock &clock, int timeoutMs,
                      QString kind = QStringLiteral("browser"), QObject *parent = nullptr);
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
    std::unique_ptr<RedirectListener> m_listener;
    ClockTimer *m_timer = nullptr;
    std::function<void(Response)> m_done;
};

} // namespace Sonde
