// SPDX-License-Identifier: MIT
#include "auth/loopbackuseragent.h"

#include "auth/redirectlistener.h"

#include "util/clock.h"
#include "util/clocktimer.h"

#include <QUrlQuery>

using namespace Qt::StringLiterals;

namespace Sonde {

LoopbackUserAgent::LoopbackUserAgent(std::function<void(QUrl)> open, const Clock &clock,
                                     int timeoutMs, QString kind, QString server, QObject *parent)
    : QObject(parent), m_open(std::move(open)), m_clock(clock), m_timeoutMs(timeoutMs),
      m_kind(std::move(kind)), m_server(std::move(server))
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
    using Request = RedirectListener::Request;
    auto listener = std::make_unique<RedirectListener>(
        [this](const Request &request) -> RedirectListener::Answer {
            // Only while a flow waits, and only the answer to its own authorize URL.
            if (!m_done || request.value(u"state"_s) != m_expectedState)
                return {RedirectPage::wrongState(m_server)};
            const QString error = request.value(u"error"_s);
            if (!error.isEmpty())
                return {
                    RedirectPage::refused(m_server, error, request.value(u"error_description"_s)),
                    true};
            return {RedirectPage::signedIn(m_server), true};
        },
        [this](const Request &request) {
            Response r;
            r.code = request.value(u"code"_s);
            r.state = request.value(u"state"_s);
            r.issPresent = request.contains(u"iss"_s);
            r.iss = request.value(u"iss"_s);
            r.error = request.value(u"error"_s);
            r.errorDescription = request.value(u"error_description"_s);
            answer(r);
        });
    QString error;
    if (!listener->listen(&error)) {
        done({}, error);
        return;
    }
    m_listener = std::move(listener);
    done(m_listener->callback(), {});
}

void LoopbackUserAgent::authorize(const QUrl &authorizeUrl, std::function<void(Response)> done)
{
    m_done = std::move(done);
    m_expectedState = QUrlQuery(authorizeUrl).queryItemValue(u"state"_s, QUrl::FullyDecoded);
    m_timer->start(m_timeoutMs);
    if (m_open)
        m_open(authorizeUrl);
}

void LoopbackUserAgent::answer(const Response &response)
{
    m_timer->stop();
    // One answer only: the listener took no more after it, and its page to the browser is
    // finished even when finish() deletes the listener from inside `done`.
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
