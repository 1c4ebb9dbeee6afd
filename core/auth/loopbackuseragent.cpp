// SPDX-License-Identifier: MIT
#include "auth/loopbackuseragent.h"

#include "auth/redirectlistener.h"

#include "util/clock.h"
#include "util/clocktimer.h"

using namespace Qt::StringLiterals;

namespace Sonde {

LoopbackUserAgent::LoopbackUserAgent(std::function<void(QUrl)> open, const Clock &clock,
                                     int timeoutMs, QString kind, QObject *parent)
    : QObject(parent), m_open(std::move(open)), m_clock(clock), m_timeoutMs(timeoutMs),
      m_kind(std::move(kind))
{
    m_timer = m_clock.createTimer(this);
    connect(m_timer, &ClockTimer::timeout, this, [this] {
        Response r;
        r.error = u"agent_error"_s;
        r.errorDescription =
            u"no redirect came back within %1 s: the listener is closed"_s.arg(m_timeoutMs / 1000);
        answer(r);
    });
}

LoopbackUserAgent::~LoopbackUserAgent()
{
    finish();
}

quint16 LoopbackUserAgent::listeningPort() const
{
    return m_listener ? m_listener->port() : 0;
}

void LoopbackUserAgent::prepare(std::function<void(QUrl, QString)> done)
{
    finish();
    QString error;
    m_listener = RedirectListenerModule::listen(
        u"Sonde received the authorization answer. You can close this page."_s,
        [this](const QVariantMap &values) {
            // Qt 6.4 hands the query values over half-decoded (QUrl::PrettyDecoded: "%2B"
            // stays, '+' is not a space); decoded here as the form encoding they are in
            // (RFC 9207 §2.4 compares the decoded iss).
            const auto value = [&values](const QString &key) {
                QString v = values.value(key).toString();
                v.replace(u'+', u' ');
                return QUrl::fromPercentEncoding(v.toUtf8());
            };
            Response r;
            r.code = value(u"code"_s);
            r.state = value(u"state"_s);
            r.issPresent = values.contains(u"iss"_s);
            r.iss = value(u"iss"_s);
            r.error = value(u"error"_s);
            r.errorDescription = value(u"error_description"_s);
            answer(r);
        },
        &error);
    if (!m_listener) {
        done({}, error);
        return;
    }
    done(m_listener->callback(), {});
}

void LoopbackUserAgent::authorize(const QUrl &authorizeUrl, std::function<void(Response)> done)
{
    m_done = std::move(done);
    m_timer->start(m_timeoutMs);
    if (m_open)
        m_open(authorizeUrl);
}

void LoopbackUserAgent::answer(const Response &response)
{
    m_timer->stop();
    // One answer only: nothing more is accepted once it is in. The listener itself stays until
    // finish(): it is still writing its page to the browser.
    if (m_listener)
        m_listener->close();
    if (auto done = std::exchange(m_done, nullptr))
        done(response);
}

void LoopbackUserAgent::finish()
{
    m_timer->stop();
    m_done = nullptr;
    m_listener.reset();
}

} // namespace Sonde
