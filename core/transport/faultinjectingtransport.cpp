// SPDX-License-Identifier: MIT
#include "transport/faultinjectingtransport.h"
#include "protocol/mcp.h"

#include "protocol/jsonrpcmessage.h"
#include "transport/httpcontrol.h"
#include "transport/httpexchange.h"
#include "transport/processcontrol.h"
#include "util/clock.h"
#include "util/clocktimer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>
#include <QUuid>

using namespace Qt::StringLiterals;

namespace Sonde {

static bool isRequest(const Transport::Outgoing &out);

FaultInjectingTransport::FaultInjectingTransport(std::unique_ptr<Transport> inner,
                                                 const Clock &clock,
                                                 std::shared_ptr<Standing> standing,
                                                 QObject *parent)
    : ForwardingTransport(parent), m_clock(clock), m_standing(std::move(standing))
{
    Transport *route = inner.release();
    setNext(route);
    connect(route, &Transport::opened, this, &Transport::opened);
    connect(route, &Transport::frameReceived, this, &FaultInjectingTransport::onFrame);
    connect(route, &Transport::requestFailed, this, &Transport::requestFailed);
    connect(route, &Transport::closed, this, &FaultInjectingTransport::onClosed);
}

static bool isRequest(const Transport::Outgoing &out)
{
    return !out.method.isEmpty() && !out.requestId.isUndefined() && !out.requestId.isNull();
}

static Error notApplicable(const Fault &fault)
{
    return Error::protocol(
        u"the fault %1 does not apply to this transport"_s.arg(fault.describe()));
}

std::optional<Error> FaultInjectingTransport::applyStanding(Standing &standing, const Fault &fault)
{
    switch (fault.kind) {
    case Fault::Kind::ExpireAfterDispatch:
        standing.expireNextAnswer = true;
        return Error();
    case Fault::Kind::Delay:
        if (fault.ms < 0 || fault.ms > 3'600'000)
            return Error::protocol(u"delay wants 0 to 3600000 ms"_s);
        standing.delayMs = fault.ms;
        return Error();
    case Fault::Kind::Clear:
        standing = Standing();
        return Error();
    default:
        return std::nullopt;
    }
}

Error FaultInjectingTransport::injectRev20260728Fault(const Fault &fault)
{
    switch (fault.kind) {
    case Fault::Kind::DropStream:
        // stdio has no stream per request: a broken channel there is a dead process.
        if (!next()->httpControl())
            return Error::protocol(
                u"drop-stream is for HTTP, where each request has its own response stream; over stdio use kill-during-next-call"_s);
        m_dropNextStream = true;
        return {};
    case Fault::Kind::UnsupportedVersion:
        m_refuseNextVersion = true;
        return {};
    case Fault::Kind::InputRequiredTwice:
        m_inputRequiredLeft = 2;
        return {};
    case Fault::Kind::DropListen: {
        if (m_listenId.isUndefined())
            return Error::protocol(u"drop-listen needs an open subscriptions/listen stream"_s);
        const QJsonValue id = std::exchange(m_listenId, QJsonValue(QJsonValue::Undefined));
        next()->abandon(id);
        Q_EMIT lifecycleEvent(
            LifecycleDetails::FaultRev20260728{.fault = u"drop-listen"_s, .id = id});
        QTimer::singleShot(0, this, [this, id] {
            Q_EMIT requestFailed(
                id, Error::transport(u"the subscriptions/listen stream broke (fault drop-listen)"_s,
                                     Error::Condition::Closed));
        });
        return {};
    }
    default:
        return notApplicable(fault);
    }
}

bool FaultInjectingTransport::answerLocally(const Outgoing &out)
{
    if (m_refuseNextVersion) {
        m_refuseNextVersion = false;
        deliverLocally(
            out.requestId,
            {{"error"_L1,
              QJsonObject{
                  {"code"_L1, -32022},
                  {"message"_L1, u"Unsupported protocol version (fault unsupported-version)"_s},
                  {"data"_L1, QJsonObject{{"supported"_L1, QJsonArray{u"1999-01-01"_s}},
                                          {"requested"_L1, u"2026-07-28"_s}}}}}},
            u"unsupported-version"_s);
        return true;
    }
    if (m_inputRequiredLeft > 0 &&
        (out.method == "tools/call"_L1 || out.method == "resources/read"_L1 ||
         out.method == "prompts/get"_L1)) {
        --m_inputRequiredLeft;
        // No requestState: the retry that finally goes out carries only inputResponses,
        // which a server ignores when it did not ask (mrtr.mdx, "Error Handling").
        const QJsonObject ask{
            {"method"_L1, u"elicitation/create"_s},
            {"params"_L1,
             QJsonObject{
                 {"mode"_L1, u"form"_s},
                 {"message"_L1,
                  u"Asked by Sonde's input-required-twice fault, not by the server: any answer goes on"_s},
                 {"requestedSchema"_L1,
                  QJsonObject{{"type"_L1, u"object"_s}, {"properties"_L1, QJsonObject{}}}}}}};
        deliverLocally(out.requestId,
                       {{"result"_L1,
                         QJsonObject{{"resultType"_L1, u"input_required"_s},
                                     {"inputRequests"_L1, QJsonObject{{"sonde-fault"_L1, ask}}}}}},
                       u"input-required-twice"_s);
        return true;
    }
    return false;
}

void FaultInjectingTransport::deliverLocally(const QJsonValue &id, const QJsonObject &answer,
                                             const QString &fault)
{
    QJsonObject frame = answer;
    frame.insert("jsonrpc"_L1, u"2.0"_s);
    frame.insert("id"_L1, id);
    Q_EMIT lifecycleEvent(LifecycleDetails::FaultRev20260728{
        .fault = fault, .id = id, .note = u"answered by Sonde, never sent"_s});
    const QByteArray bytes = QJsonDocument(frame).toJson(QJsonDocument::Compact);
    QTimer::singleShot(0, this, [this, bytes] { Q_EMIT frameReceived(bytes); });
}

QStringList FaultInjectingTransport::armedOnce() const
{
    QStringList armed;
    if (m_killOnNextRequest)
        armed.append(u"kill-during-next-call"_s);
    if (m_statusToFake)
        armed.append(u"http-status %1"_s.arg(m_statusToFake));
    if (m_holding)
        armed.append(u"expire-session (its DELETE is under way)"_s);
    if (m_dropNextStream)
        armed.append(u"drop-stream"_s);
    if (m_refuseNextVersion)
        armed.append(u"unsupported-version"_s);
    if (m_inputRequiredLeft > 0)
        armed.append(u"input-required-twice (%1 round(s) left)"_s.arg(m_inputRequiredLeft));
    return armed;
}

QStringList FaultInjectingTransport::describeStanding(const Standing &standing)
{
    QStringList armed;
    if (standing.delayMs > 0)
        armed.append(u"delay %1 ms (each answer, until cleared)"_s.arg(standing.delayMs));
    if (standing.expireNextAnswer)
        armed.append(u"expire-after-dispatch"_s);
    return armed;
}

Error FaultInjectingTransport::injectFault(const Fault &fault)
{
    if (fault.kind == Fault::Kind::DropStream || fault.kind == Fault::Kind::UnsupportedVersion ||
        fault.kind == Fault::Kind::InputRequiredTwice || fault.kind == Fault::Kind::DropListen)
        return injectRev20260728Fault(fault);
    if (std::optional<Error> e = applyStanding(*m_standing, fault)) {
        if (fault.kind == Fault::Kind::Clear) {
            m_statusToFake = 0;
            m_killOnNextRequest = false;
            m_dropNextStream = m_refuseNextVersion = false;
            m_inputRequiredLeft = 0;
        }
        return *e;
    }
    ProcessControl *process = next()->processControl();
    HttpControl *http = next()->httpControl();
    const bool forProcess =
        fault.kind == Fault::Kind::KillProcess || fault.kind == Fault::Kind::KillDuringNextCall;
    if (forProcess ? !process : !http)
        return notApplicable(fault);
    switch (fault.kind) {
    case Fault::Kind::KillProcess:
        if (!next()->isOpen())
            return Error::transport(u"no server process is running"_s,
                                    Error::Condition::NotConnected);
        // Dead before the fault is answered, so that is what the next command sees (the point
        // of this fault is a child that is already gone when a call comes), without blocking
        // the engine thread until the child is reaped.
        process->kill();
        Q_EMIT lifecycleEvent(
            LifecycleDetails::FaultKill{.pid = process->processId(), .when = u"now"_s});
        process->declareKilled(
            Error::transport(u"server process %1 was killed by signal 9 (fault kill-process)"_s.arg(
                                 process->processId()),
                             Error::Condition::Closed));
        return {};
    case Fault::Kind::KillDuringNextCall:
        m_killOnNextRequest = true;
        return {};
    case Fault::Kind::ExpireSession:
        m_holding = true;
        if (!http->endSessionOnServer([this](int status) { releaseHeld(status); })) {
            m_holding = false;
            return Error::protocol(u"expire-session needs a Streamable HTTP session with an id"_s);
        }
        return {};
    case Fault::Kind::CorruptSessionId:
        if (http->sessionId().isEmpty())
            return Error::protocol(
                u"corrupt-session-id needs a Streamable HTTP session with an id"_s);
        http->setSessionId(QUuid::createUuid().toString(QUuid::WithoutBraces));
        Q_EMIT lifecycleEvent(LifecycleDetails::FaultCorruptSessionId{});
        return {};
    case Fault::Kind::DropConnection:
        Q_EMIT lifecycleEvent(
            LifecycleDetails::FaultDropConnection{.openStreams = http->openExchanges()});
        http->dropConnections();
        return {};
    case Fault::Kind::HttpStatus:
        if (fault.status < 100 || fault.status > 599)
            return Error::protocol(u"http-status wants a status between 100 and 599"_s);
        m_statusToFake = fault.status;
        return {};
    default:
        return notApplicable(fault);
    }
}

void FaultInjectingTransport::releaseHeld(int deleteStatus)
{
    Q_EMIT lifecycleEvent(LifecycleDetails::FaultExpireSession{
        .status = deleteStatus,
        .outcome = deleteStatus >= 200 && deleteStatus < 300
                       ? u"the server ended the session; the client keeps its id"_s
                       : u"the server answered HTTP %1"_s.arg(deleteStatus)});
    m_holding = false;
    const QList<QByteArray> held = std::exchange(m_held, {});
    for (const QByteArray &frame : held)
        route(frame);
}

void FaultInjectingTransport::send(const QByteArray &frame)
{
    const Outgoing out = outgoing(frame);
    if (out.method == "subscriptions/listen"_L1) {
        m_listenId = out.requestId;
    } else if (isRequest(out) && !Mcp::isHandshake(out.method)) {
        if (answerLocally(out))
            return;
        if (std::exchange(m_dropNextStream, false))
            m_dropAnswerOf.insert(JsonRpcMessage::idKey(out.requestId));
    }
    if (m_standing->expireNextAnswer) {
        // Marked when the session sends it, as the request it is, even if held below.
        if (isRequest(out) && !Mcp::isHandshake(out.method)) {
            m_standing->expireNextAnswer = false;
            m_expireAnswerOf.insert(JsonRpcMessage::idKey(out.requestId));
        }
    }
    route(frame);
}

void FaultInjectingTransport::route(const QByteArray &frame)
{
    if (!next()->isOpen()) {
        next()->send(frame);
        return;
    }
    if (m_holding) {
        m_held.append(frame);
        return;
    }
    const Outgoing out = m_statusToFake || m_killOnNextRequest ? outgoing(frame) : Outgoing();
    if (m_statusToFake && fakeStatus(out))
        return;
    next()->send(frame);
    if (m_killOnNextRequest && isRequest(out))
        killAfterWrite();
}

bool FaultInjectingTransport::fakeStatus(const Outgoing &out)
{
    // Only a route that answers each POST by itself can answer this one with a status.
    HttpControl *http = next()->httpControl();
    if (!http || !http->answersEachPost() || Mcp::isHandshake(out.method))
        return false;
    // The request never leaves: its answer is the injected status, as if the server sent it.
    const int status = std::exchange(m_statusToFake, 0);
    const Error e = HttpExchange::httpError(u"POST %1 (injected)"_s.arg(http->url()), status, {},
                                            http->sessionId());
    QTimer::singleShot(0, this, [this, id = out.requestId, status, e] {
        Q_EMIT lifecycleEvent(LifecycleDetails::FaultHttpStatus{status});
        if (id.isUndefined())
            Q_EMIT frameDropped(e.message());
        else
            Q_EMIT requestFailed(id, e);
    });
    return true;
}

void FaultInjectingTransport::killAfterWrite()
{
    ProcessControl *process = next()->processControl();
    if (!process)
        return;
    // The request is in the pipe: the server may or may not have read it.
    m_killOnNextRequest = false;
    process->kill();
    // Declared dead on the next posted event (not inside this send, which is inside the
    // session's own bookkeeping): commands queued after this one must find the child gone
    // rather than write into a pipe nobody reads. Posted, not a timer: posted events keep
    // their order, so no command can come in between.
    QMetaObject::invokeMethod(
        this,
        [this, process] {
            if (m_innerClosed)
                return;
            Q_EMIT lifecycleEvent(LifecycleDetails::FaultKill{
                .pid = process->processId(), .when = u"right after a request was written"_s});
            process->declareKilled(Error::transport(
                u"server process %1 was killed by signal 9 (fault kill-process)"_s.arg(
                    process->processId()),
                Error::Condition::Closed));
        },
        Qt::QueuedConnection);
}

void FaultInjectingTransport::onFrame(const QByteArray &frame)
{
    if (m_standing->delayMs <= 0) {
        pass(frame);
        return;
    }
    // Every answer waits the same time, so their order is kept.
    ++m_delayed;
    ClockTimer *timer = m_clock.createTimer(this);
    connect(timer, &ClockTimer::timeout, this, [this, timer, frame] {
        timer->deleteLater();
        --m_delayed;
        if (!m_innerClosed)
            pass(frame);
        if (m_delayed == 0 && m_closeAfterDelayed) {
            m_innerClosed = true;
            Q_EMIT closed(*std::exchange(m_closeAfterDelayed, std::nullopt));
        }
    });
    timer->start(m_standing->delayMs);
}

void FaultInjectingTransport::pass(const QByteArray &frame)
{
    if (!m_dropAnswerOf.isEmpty()) {
        const auto e = JsonRpcMessage::peekEnvelope(frame);
        if (e && !e->hasMethod && m_dropAnswerOf.remove(JsonRpcMessage::idKey(e->id))) {
            // The server ran the request and answered; the stream is cut before the answer
            // reaches the session, as a broken connection would.
            Q_EMIT frameWithheld(frame);
            Q_EMIT lifecycleEvent(LifecycleDetails::FaultRev20260728{
                .fault = u"drop-stream"_s,
                .id = e->id,
                .note = u"the server ran the request; its stream broke before the answer"_s});
            Q_EMIT requestFailed(
                e->id, Error::transport(
                           u"the response stream broke before the answer (fault drop-stream)"_s,
                           Error::Condition::Closed));
            return;
        }
    }
    if (!m_expireAnswerOf.isEmpty()) {
        const auto e = JsonRpcMessage::peekEnvelope(frame);
        if (e && !e->hasMethod && m_expireAnswerOf.remove(JsonRpcMessage::idKey(e->id))) {
            // The server ran the request; the session gets an expiry instead of its answer,
            // and the transcript still shows what the server said.
            Q_EMIT frameWithheld(frame);
            Q_EMIT lifecycleEvent(LifecycleDetails::FaultExpireAfterDispatch{
                .id = e->id, .note = u"the server ran the request; its answer is replaced"_s});
            Q_EMIT requestFailed(
                e->id,
                Error(
                    Error::Kind::Injected,
                    u"Invalid or expired session (injected fault expire-after-dispatch: the server ran the request and its answer was replaced)"_s));
            return;
        }
    }
    Q_EMIT frameReceived(frame);
}

void FaultInjectingTransport::onClosed(const Error &reason)
{
    // A drained route closes once its last answer came: answers still held by the delay
    // fault go first. Otherwise what is held goes with the transport.
    if (m_draining && m_delayed > 0) {
        m_closeAfterDelayed = reason;
        return;
    }
    m_innerClosed = true;
    Q_EMIT closed(reason);
}

void FaultInjectingTransport::close()
{
    m_expireAnswerOf.clear();
    next()->close();
}

void FaultInjectingTransport::abort()
{
    m_expireAnswerOf.clear();
    next()->abort();
}

void FaultInjectingTransport::drain()
{
    // The answers still to come belong to requests the session keeps: none is replaced.
    m_expireAnswerOf.clear();
    m_draining = true;
    next()->drain();
}

void FaultInjectingTransport::abandon(const QJsonValue &id)
{
    m_expireAnswerOf.remove(JsonRpcMessage::idKey(id));
    next()->abandon(id);
}

} // namespace Sonde
