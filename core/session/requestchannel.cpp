// SPDX-License-Identifier: MIT
#include "session/requestchannel.h"

#include "util/clock.h"
#include "util/clocktimer.h"

namespace Sonde {

RequestChannel::RequestChannel(const Clock &clock, QObject *parent)
    : QObject(parent), m_clock(clock), m_timer(clock.createTimer(this))
{
    connect(m_timer, &ClockTimer::timeout, this, &RequestChannel::deadlinePassed);
}

QJsonValue RequestChannel::add(const QString &method, qint64 timeoutMs, qint64 maxTotalMs,
                               const QString &progressToken, Handler handler)
{
    const QJsonValue id = nextId();
    const qint64 now = m_clock.nowMs();
    PendingRequests::Entry entry;
    entry.id = id;
    entry.method = method;
    entry.progressToken = progressToken;
    entry.sentMs = now;
    entry.lastActivityMs = now;
    entry.timeoutMs = timeoutMs;
    entry.maxTotalMs = maxTotalMs;
    m_pending.add(entry);
    m_handlers.insert(JsonRpcMessage::idKey(id), std::move(handler));
    arm();
    return id;
}

std::optional<RequestChannel::Taken> RequestChannel::take(const QJsonValue &id)
{
    std::optional<PendingRequests::Entry> entry = m_pending.take(id);
    if (!entry)
        return std::nullopt;
    arm();
    return Taken{*entry, m_handlers.take(JsonRpcMessage::idKey(id))};
}

std::optional<RequestChannel::Taken> RequestChannel::retire(const QJsonValue &id)
{
    std::optional<PendingRequests::Entry> entry = m_pending.retire(id);
    if (!entry)
        return std::nullopt;
    arm();
    return Taken{*entry, m_handlers.take(JsonRpcMessage::idKey(id))};
}

bool RequestChannel::touchProgress(const QString &token)
{
    if (!m_pending.touchProgress(token, m_clock.nowMs()))
        return false;
    arm();
    return true;
}

QList<RequestChannel::Taken> RequestChannel::takeExpired()
{
    const QList<PendingRequests::Entry> expired = m_pending.takeExpired(m_clock.nowMs());
    QList<Taken> taken;
    taken.reserve(expired.size());
    for (const PendingRequests::Entry &e : expired)
        taken.append(Taken{e, m_handlers.take(JsonRpcMessage::idKey(e.id))});
    arm();
    return taken;
}

QList<RequestChannel::Taken> RequestChannel::takeAll()
{
    const QList<PendingRequests::Entry> all = m_pending.takeAll();
    QList<Taken> taken;
    taken.reserve(all.size());
    for (const PendingRequests::Entry &e : all)
        taken.append(Taken{e, m_handlers.take(JsonRpcMessage::idKey(e.id))});
    m_timer->stop();
    return taken;
}

void RequestChannel::restore(Taken taken)
{
    m_handlers.insert(JsonRpcMessage::idKey(taken.entry.id), std::move(taken.handler));
    m_pending.add(taken.entry);
    arm();
}

void RequestChannel::arm()
{
    // Re-arming a QTimer costs a timer (un)registration; doing it twice per request is a
    // measurable share of a local round trip. So the timer is only moved earlier: a timer
    // armed for a deadline that went away fires once, finds nothing, and re-arms.
    const std::optional<qint64> next = m_pending.nextDeadline();
    if (!next)
        return;
    if (m_timer->isActive() && m_armedForMs <= *next)
        return;
    const qint64 in = std::max<qint64>(0, *next - m_clock.nowMs());
    m_armedForMs = *next;
    m_timer->start(in);
}

} // namespace Sonde
