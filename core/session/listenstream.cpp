// SPDX-License-Identifier: MIT
#include "session/listenstream.h"

#include "config/serverconfig.h"
#include "protocol/rev20260728.h"
#include "session/sessionera.h"
#include "session/sessionhost.h"
#include "transport/faultinjectingtransport.h"
#include "util/clock.h"
#include "util/clocktimer.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Sonde {

ListenStream::ListenStream(SessionHost &host)
    : m_host(host), m_timer(host.clock().createTimer(host.context()))
{
    QObject::connect(m_timer, &ClockTimer::timeout, host.context(), [this] {
        m_timer->stop();
        openNow();
    });
}

void ListenStream::open()
{
    if (!isOpen())
        openNow();
}

void ListenStream::openNow()
{
    if (!m_host.isReady() || !m_host.transport())
        return;
    const QJsonObject filter =
        ListenSubscription::filterFor(m_host.serverCapabilities(), m_resources);
    if (filter.isEmpty()) {
        m_subscription.reset();
        return;
    }
    // Marked open before it is sent: a transport may fail it before send() returns.
    const QJsonValue id = m_host.nextId();
    m_subscription.opened(id, filter);
    const QString method = u"subscriptions/listen"_s;
    m_host.sendFrame(JsonRpcMessage::request(
        id, method, m_host.era().requestParams(method, {{"notifications"_L1, filter}})));
    m_host.publishSnapshot();
}

void ListenStream::close()
{
    const QJsonValue id = m_subscription.id();
    if (id.isUndefined())
        return;
    m_subscription.reset();
    FaultInjectingTransport *transport = m_host.transport();
    if (!transport)
        return;
    transport->abandon(id);
    if (m_host.config().route == ServerConfig::Route::Stdio)
        m_host.sendFrame(JsonRpcMessage::notification(
            u"notifications/cancelled"_s,
            {{"requestId"_L1, id}, {"reason"_L1, u"the subscriptions changed"_s}}));
}

void ListenStream::reset()
{
    m_subscription.reset();
    m_timer->stop();
    m_reopened = false;
}

void ListenStream::failed(const Error &error)
{
    const QJsonValue id = m_subscription.id();
    if (error.httpStatus() && *error.httpStatus() >= 400) {
        // Refused, not broken: asking again would be refused again.
        m_subscription.ended(ListenStatus::State::Refused, error.message());
        m_host.record(
            LifecycleDetails::ListenEnded{.id = id, .graceful = false, .reason = error.message()});
        m_host.publishSnapshot();
        return;
    }
    const int delay = m_subscription.dropped(error.message());
    m_reopened = true;
    m_host.record(
        LifecycleDetails::ListenDropped{.id = id, .retryInMs = delay, .reason = error.message()});
    m_host.publishSnapshot();
    if (m_host.isReady())
        m_timer->start(delay);
}

void ListenStream::answered(const JsonRpcMessage &response)
{
    const QJsonValue id = m_subscription.id();
    if (response.type() == JsonRpcMessage::Type::ErrorResponse) {
        m_subscription.ended(ListenStatus::State::Refused, response.toError().message());
        m_host.record(LifecycleDetails::ListenEnded{
            .id = id, .graceful = false, .reason = response.toError().message()});
    } else {
        m_subscription.ended(ListenStatus::State::Ended, u"the server ended it"_s);
        m_host.record(LifecycleDetails::ListenEnded{.id = id, .graceful = true});
    }
    m_host.publishSnapshot();
}

bool ListenStream::takeNotification(const JsonRpcMessage &message)
{
    const QJsonValue subscription = message.params()
                                        .value("_meta"_L1)
                                        .toObject()
                                        .value(QLatin1StringView(Rev20260728::MetaSubscriptionId));
    if (subscription.isUndefined())
        return false; // request-scoped (progress, log messages): the session's
    if (!m_subscription.isCurrent(subscription)) {
        m_host.recordViolation(u"a notification for subscription %1, which is not open"_s.arg(
                                   subscription.isString()
                                       ? subscription.toString()
                                       : QString::number(subscription.toInteger())),
                               message.toCompactJson());
        return true;
    }
    if (message.method() != "notifications/subscriptions/acknowledged"_L1)
        return false; // list_changed, resources/updated: the session's
    const QJsonObject granted = message.params().value("notifications"_L1).toObject();
    const bool reopened = m_subscription.state() == ListenStatus::State::Open && m_reopened;
    m_subscription.acknowledged(granted);
    m_host.record(
        LifecycleDetails::ListenAcknowledged{.id = m_subscription.id(),
                                             .requested = m_subscription.status().requested,
                                             .granted = granted});
    if (reopened && m_host.config().route != ServerConfig::Route::Stdio) {
        // A re-established stream is a new generation on HTTP (docs/recovery.md §8): what was
        // said on the old one may have been missed.
        m_reopened = false;
        m_host.startGeneration();
    }
    m_host.publishSnapshot();
    m_host.notify(ServerNotification{m_host.config().name, m_host.generation(),
                                     m_host.clock().nowMs(), message.method(), message.params()});
    return true;
}

} // namespace Sonde
