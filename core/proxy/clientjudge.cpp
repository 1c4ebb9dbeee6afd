// SPDX-License-Identifier: MIT
#include "proxy/clientjudge.h"

#include "util/clock.h"
#include "util/clocktimer.h"

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
QString seconds(qint64 ms)
{
    return QString::number(double(ms) / 1000.0, 'f', ms % 1000 == 0 ? 0 : 1);
}

// The list a list_changed notification asks the client to fetch again.
QString listFor(const QString &notification)
{
    if (notification == "notifications/tools/list_changed"_L1)
        return u"tools/list"_s;
    if (notification == "notifications/resources/list_changed"_L1)
        return u"resources/list"_s;
    if (notification == "notifications/prompts/list_changed"_L1)
        return u"prompts/list"_s;
    return {};
}
} // namespace

QString ProxyVerdict::stateName(State s)
{
    return enumName(s);
}

ClientJudge::ClientJudge(const Clock &clock, qint64 verdictWindowMs, QObject *parent)
    : QObject(parent), m_clock(clock), m_windowMs(verdictWindowMs)
{
}

ClientJudge::~ClientJudge() = default;

int ClientJudge::armed(const ProxyFault &fault)
{
    const int id = m_nextId++;
    Case &c = m_cases[id];
    c.fault = fault;
    c.verdict.faultId = id;
    c.verdict.kind = fault.kind;
    c.verdict.summary = u"armed: waiting for a message to act on"_s;
    return id;
}

void ClientJudge::disarmed(int id)
{
    auto it = m_cases.find(id);
    if (it != m_cases.end() && it->second.verdict.state == ProxyVerdict::State::Armed)
        settle(it->second, ProxyVerdict::State::Note, u"disarmed before it acted"_s);
}

void ClientJudge::unable(int id, const QString &why)
{
    auto it = m_cases.find(id);
    if (it != m_cases.end() && !it->second.verdict.known())
        settle(it->second, ProxyVerdict::State::Note, why);
}

void ClientJudge::fired(int id, const ObservedRequest &request, const QString &lastEventId,
                        const QString &detail)
{
    auto it = m_cases.find(id);
    if (it == m_cases.end() || it->second.verdict.state != ProxyVerdict::State::Armed)
        return;
    Case &c = it->second;
    c.request = request;
    c.lastEventId = lastEventId;
    c.detail = detail;
    c.firedMs = m_clock.nowMs();
    c.verdict.state = ProxyVerdict::State::Pending;
    c.verdict.summary =
        detail.isEmpty() ? u"acted; watching the client"_s : detail + u"; watching the client"_s;
    using K = ProxyFault::Kind;
    if (c.fault.kind == K::KillServer) {
        settle(c, ProxyVerdict::State::Note,
               u"the server was killed; the proxy ends with it, so the client sees its server "
               "exit (a restart by the client is a new proxy session)"_s);
        return;
    }
    if (c.fault.kind == K::Notify && listFor(c.fault.method).isEmpty()) {
        settle(c, ProxyVerdict::State::Note, u"delivered %1"_s.arg(c.fault.method));
        return;
    }
    c.timer = m_clock.createTimer(this);
    connect(c.timer, &ClockTimer::timeout, this, [this, id] { windowEnded(id); });
    c.timer->start(m_windowMs);
}

bool ClientJudge::isWrite(const ObservedRequest &r) const
{
    // docs/recovery.md §2: only tools/call writes, and only a tool its server marked
    // readOnlyHint: true is a read.
    return r.method == "tools/call"_L1 && !m_readOnlyTools.contains(r.tool);
}

void ClientJudge::toolsListed(const QHash<QString, bool> &readOnly)
{
    for (auto it = readOnly.begin(); it != readOnly.end(); ++it) {
        m_knownTools.insert(it.key());
        if (it.value())
            m_readOnlyTools.insert(it.key());
        else
            m_readOnlyTools.remove(it.key());
    }
}

void ClientJudge::clientRequest(const ObservedRequest &request)
{
    using K = ProxyFault::Kind;
    using S = ProxyVerdict::State;
    const qint64 now = m_clock.nowMs();
    for (auto &[id, c] : m_cases) {
        if (c.verdict.state != S::Pending)
            continue;
        const qint64 after = now - c.firedMs;
        if (c.fault.kind == K::ExpireSession) {
            if (request.method == "initialize"_L1) {
                const qint64 from = c.refusedMs >= 0 ? c.refusedMs : c.firedMs;
                settle(c, S::Pass,
                       c.deadRequests == 0
                           ? u"initialized again %1 ms after the session was expired, before "
                             "using the dead session"_s.arg(now - from)
                           : u"initialized again %1 ms after its first 404, after %2 request(s) "
                             "on the dead session"_s.arg(now - from)
                                 .arg(c.deadRequests),
                       now - from);
            } else if (!request.sessionId.isEmpty() && request.sessionId == c.request.sessionId) {
                if (c.deadRequests++ == 0)
                    c.refusedMs = now;
            }
            continue;
        }
        if (c.fault.kind == K::Notify) {
            if (request.method == listFor(c.fault.method))
                settle(
                    c, S::Pass,
                    u"sent %1 %2 ms after %3"_s.arg(request.method).arg(after).arg(c.fault.method),
                    after);
            continue;
        }
        if (!c.request.method.isEmpty() && request.sameCallAs(c.request)) {
            const QString what = c.request.tool.isEmpty() ? c.request.method
                                                          : u"tools/call %1"_s.arg(c.request.tool);
            if (c.fault.kind == K::Status) {
                // Answered by the proxy: the server never saw it, so a retry is safe; only
                // its timing can be wrong.
                if (c.fault.retryAfterS >= 0 && after < qint64(c.fault.retryAfterS) * 1000)
                    settle(c, S::Fail,
                           u"retried %1 after %2 ms, before the Retry-After of %3 s"_s.arg(what)
                               .arg(after)
                               .arg(c.fault.retryAfterS),
                           after);
                else
                    settle(
                        c, S::Pass,
                        u"retried %1 after %2 ms (safe: the server never received it)"_s.arg(what)
                            .arg(after),
                        after);
            } else if (isWrite(c.request)) {
                settle(c, S::Fail,
                       u"sent the write %1 again %2 ms later: it may have run twice (RFC 9110 "
                       "§9.2.2; docs/recovery.md §2)"_s.arg(what)
                           .arg(after),
                       after);
            } else {
                settle(c, S::Pass, u"retried the read %1 %2 ms later"_s.arg(what).arg(after),
                       after);
            }
            continue;
        }
        if (c.fault.kind == K::CorruptResponse)
            settle(c, S::Pass,
                   u"kept the session after the malformed line: its next request (%1) came "
                   "%2 ms later"_s.arg(request.method)
                       .arg(after),
                   after);
    }
}

void ClientJudge::clientCancelled(const QString &requestIdKey)
{
    using K = ProxyFault::Kind;
    const qint64 now = m_clock.nowMs();
    for (auto &[id, c] : m_cases) {
        if (c.verdict.state != ProxyVerdict::State::Pending || c.request.idKey != requestIdKey)
            continue;
        if (c.fault.kind == K::DropResponse || c.fault.kind == K::Delay ||
            c.fault.kind == K::CorruptResponse)
            settle(c, ProxyVerdict::State::Pass,
                   u"gave up on the request after %1 ms and cancelled it "
                   "(notifications/cancelled)"_s.arg(now - c.firedMs),
                   now - c.firedMs);
    }
}

void ClientJudge::clientResumed(const QString &lastEventId)
{
    const qint64 now = m_clock.nowMs();
    for (auto &[id, c] : m_cases) {
        if (c.verdict.state != ProxyVerdict::State::Pending ||
            c.fault.kind != ProxyFault::Kind::CutStream)
            continue;
        const qint64 after = now - c.firedMs;
        settle(c, ProxyVerdict::State::Pass,
               lastEventId == c.lastEventId || c.lastEventId.isEmpty()
                   ? u"resumed the stream with Last-Event-ID %1 ms later"_s.arg(after)
                   : u"resumed the stream with Last-Event-ID %1 ms later, from an earlier "
                     "event than the last it received"_s.arg(after),
               after);
    }
}

void ClientJudge::clientEnded()
{
    const qint64 now = m_clock.nowMs();
    for (auto &[id, c] : m_cases) {
        if (c.verdict.state != ProxyVerdict::State::Pending)
            continue;
        settle(c, ProxyVerdict::State::Note,
               u"the client ended the session %1 ms after the fault"_s.arg(now - c.firedMs),
               now - c.firedMs);
    }
}

void ClientJudge::windowEnded(int id)
{
    using K = ProxyFault::Kind;
    using S = ProxyVerdict::State;
    auto it = m_cases.find(id);
    if (it == m_cases.end() || it->second.verdict.state != S::Pending)
        return;
    Case &c = it->second;
    const QString window = seconds(m_windowMs);
    const QString what =
        c.request.tool.isEmpty() ? c.request.method : u"tools/call %1"_s.arg(c.request.tool);
    switch (c.fault.kind) {
    case K::ExpireSession:
        if (c.deadRequests > 0)
            settle(
                c, S::Fail,
                u"never initialized again: %1 request(s) on the dead session in %2 s, each "
                "answered 404 (the spec: a client MUST start a new session)"_s.arg(c.deadRequests)
                    .arg(window));
        else
            settle(c, S::Note, u"sent nothing in %1 s: nothing to grade"_s.arg(window));
        return;
    case K::DropConnection:
        if (isWrite(c.request))
            settle(c, S::Pass,
                   u"did not send the write %1 again in %2 s (its outcome is uncertain: the "
                   "client should say so)"_s.arg(what, window));
        else
            settle(c, S::Note, u"did not retry the read %1 in %2 s"_s.arg(what, window));
        return;
    case K::CutStream:
        if (c.lastEventId.isEmpty())
            settle(c, S::Note,
                   u"the cut stream carried no event ids, so there was nothing to resume; the "
                   "client did not send %1 again in %2 s"_s.arg(what, window));
        else
            settle(c, S::Fail,
                   u"did not resume the stream with Last-Event-ID in %1 s: the answer to %2 "
                   "is lost to it"_s.arg(window, what));
        return;
    case K::Status:
        settle(c, S::Note, u"did not retry %1 in %2 s"_s.arg(what, window));
        return;
    case K::LoseResume:
        settle(c, S::Note,
               u"its resumption got no replay: what the server sent after event %1 never "
               "reached it; it did not send %2 again in %3 s"_s.arg(c.lastEventId, what, window));
        return;
    case K::DropResponse:
        settle(c, S::Note,
               u"still waiting for the answer to %1 after %2 s: no cancel, no retry (the SDKs' "
               "default request timeout is 60 s)"_s.arg(what, window));
        return;
    case K::CorruptResponse:
        settle(c, S::Note, u"sent nothing after the malformed line in %1 s"_s.arg(window));
        return;
    case K::Delay:
        settle(c, S::Note, u"waited for the delayed answer: no cancel, no retry"_s);
        return;
    case K::Notify:
        settle(c, S::Note,
               u"did not send %1 in %2 s after %3"_s.arg(listFor(c.fault.method), window,
                                                         c.fault.method));
        return;
    case K::KillServer:
    case K::Clear:
        return;
    }
}

void ClientJudge::settle(Case &c, ProxyVerdict::State state, const QString &summary, qint64 atMs)
{
    c.verdict.state = state;
    c.verdict.summary = summary;
    c.verdict.afterMs = atMs;
    if (c.timer)
        c.timer->stop();
    Q_EMIT judged(c.verdict);
}

ProxyVerdict ClientJudge::verdict(int id) const
{
    const auto it = m_cases.find(id);
    return it == m_cases.end() ? ProxyVerdict{} : it->second.verdict;
}

QList<ProxyVerdict> ClientJudge::verdicts() const
{
    QList<ProxyVerdict> all;
    for (const auto &[id, c] : m_cases)
        all.append(c.verdict);
    return all;
}

} // namespace Sonde
