// SPDX-License-Identifier: MIT
#include "proxy/proxysession.h"

#include "protocol/jsonrpcmessage.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
// Requests still open are remembered to pair answers with; a client that never gets answers
// must not grow this without bound.
constexpr qsizetype MaxOpenRequests = 10'000;
} // namespace

ProxySession::ProxySession(bool http, const Clock &clock, qint64 verdictWindowMs, QObject *parent)
    : QObject(parent), m_http(http), m_clock(clock), m_judge(clock, verdictWindowMs)
{
}

ProxySession::~ProxySession() = default;

int ProxySession::arm(const ProxyFault &fault)
{
    const int id = m_judge.armed(fault);
    if (fault.kind == ProxyFault::Kind::Clear) {
        qsizetype waiting = 0;
        for (const Armed &a : std::as_const(m_armed)) {
            if (!a.acted)
                m_judge.disarmed(a.id);
            ++waiting;
        }
        m_armed.clear();
        m_judge.unable(id, u"disarmed %1 waiting fault(s)"_s.arg(waiting));
        return id;
    }
    using K = ProxyFault::Kind;
    if (fault.kind == K::ExpireSession || fault.kind == K::KillServer || fault.kind == K::Notify) {
        Q_EMIT actNow(id, fault);
        return id;
    }
    m_armed.append({id, fault, fault.count});
    return id;
}

std::optional<std::pair<int, ProxyFault>> ProxySession::take(ProxyFault::Kind kind)
{
    for (qsizetype i = 0; i < m_armed.size(); ++i) {
        Armed &a = m_armed[i];
        if (a.fault.kind != kind)
            continue;
        const std::pair<int, ProxyFault> taken{a.id, a.fault};
        if (--a.left == 0)
            m_armed.removeAt(i);
        return taken;
    }
    return std::nullopt;
}

bool ProxySession::armedFor(ProxyFault::Kind kind) const
{
    for (const Armed &a : m_armed) {
        if (a.fault.kind == kind)
            return true;
    }
    return false;
}

void ProxySession::fired(int id, const ObservedRequest &request, const QString &lastEventId,
                         const QString &detail)
{
    bool first = true;
    for (Armed &a : m_armed) {
        if (a.id == id) {
            first = !a.acted;
            a.acted = true;
        }
    }
    if (first)
        Q_EMIT faultActed(id, m_judge.verdict(id).kind, detail);
    m_judge.fired(id, request, lastEventId, detail);
}

void ProxySession::failed(int id, const QString &why)
{
    m_armed.removeIf([id](const Armed &a) { return a.id == id; });
    m_judge.unable(id, why);
}

QList<ObservedRequest> ProxySession::clientFrame(const QByteArray &frame, const QString &sessionId)
{
    QList<ObservedRequest> requests;
    const JsonRpcMessage::Parsed parsed = JsonRpcMessage::parse(frame);
    // The client's name first: whoever sees the initialize frame sees it under that name.
    for (const JsonRpcMessage &m : parsed.messages) {
        if (m.isRequest() && m.method() == "initialize"_L1)
            m_clientName = m.params()
                               .value(u"clientInfo"_s)
                               .toObject()
                               .value(u"name"_s)
                               .toString(m_clientName);
    }
    Q_EMIT frameSeen(true, frame);
    for (const JsonRpcMessage &m : parsed.messages) {
        ++m_clientMessages;
        if (m.isNotification()) {
            if (m.method() == "notifications/cancelled"_L1)
                m_judge.clientCancelled(JsonRpcMessage::idKey(m.params().value(u"requestId"_s)));
            continue;
        }
        if (!m.isRequest())
            continue;
        ObservedRequest r;
        r.method = m.method();
        r.idKey = JsonRpcMessage::idKey(m.id());
        r.sessionId = sessionId;
        if (r.method == "tools/call"_L1) {
            r.tool = m.params().value(u"name"_s).toString();
            r.argsKey = QJsonDocument(m.params().value(u"arguments"_s).toObject())
                            .toJson(QJsonDocument::Compact);
        }
        if (m_open.size() < MaxOpenRequests)
            m_open.insert(r.idKey, r);
        m_judge.clientRequest(r);
        requests.append(r);
    }
    return requests;
}

void ProxySession::serverFrame(const QByteArray &frame)
{
    Q_EMIT frameSeen(false, frame);
    const JsonRpcMessage::Parsed parsed = JsonRpcMessage::parse(frame);
    for (const JsonRpcMessage &m : parsed.messages) {
        ++m_serverMessages;
        if (!m.isResponse())
            continue;
        const ObservedRequest r = m_open.take(JsonRpcMessage::idKey(m.id()));
        if (r.method != "tools/list"_L1)
            continue;
        QHash<QString, bool> readOnly;
        for (const QJsonValue &t : m.result().toObject().value(u"tools"_s).toArray()) {
            const QJsonObject tool = t.toObject();
            readOnly.insert(
                tool.value(u"name"_s).toString(),
                tool.value(u"annotations"_s).toObject().value(u"readOnlyHint"_s).toBool(false));
        }
        m_judge.toolsListed(readOnly);
    }
}

void ProxySession::sessionIdSeen(const QByteArray &sessionId)
{
    if (sessionId.isEmpty() || sessionId == m_sessionId)
        return;
    if (!m_sessionId.isEmpty())
        ++m_generation;
    m_sessionId = sessionId;
}

QJsonObject ProxySession::status() const
{
    QJsonArray armed;
    for (const Armed &a : m_armed)
        armed.append(
            QJsonObject{{u"id"_s, a.id}, {u"kind"_s, a.fault.name()}, {u"left"_s, a.left}});
    return QJsonObject{
        {u"transport"_s, m_http ? u"http"_s : u"stdio"_s}, {u"client"_s, m_clientName},
        {u"client_messages"_s, m_clientMessages},          {u"generation"_s, m_generation},
        {u"server_messages"_s, m_serverMessages},          {u"armed"_s, armed}};
}

} // namespace Sonde
