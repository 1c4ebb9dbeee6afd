// SPDX-License-Identifier: MIT
#include "transcript/exportcalls.h"
#include "protocol/jsonrpcmessage.h"

#include <QHash>
#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

QString callKey(const QString &server, int generation, const QJsonValue &id)
{
    return server + u'\x1f' + QString::number(generation) + u'\x1f' + JsonRpcMessage::idText(id);
}

void describeResponse(ExportedCall &c)
{
    if (c.response.contains("error"_L1)) {
        const QJsonObject e = c.response.value("error"_L1).toObject();
        const int code = e.value("code"_L1).toInt();
        c.isError = true;
        c.errorType = QString::number(code);
        c.outcome = u"error %1: %2"_s.arg(code).arg(e.value("message"_L1).toString());
        return;
    }
    const QJsonObject result = c.response.value("result"_L1).toObject();
    if (result.value("isError"_L1).toBool()) {
        c.isError = true;
        c.errorType = u"tool_error"_s;
        const QJsonArray content = result.value("content"_L1).toArray();
        const QString text =
            content.isEmpty() ? QString() : content.first().toObject().value("text"_L1).toString();
        c.outcome = u"tool error: %1"_s.arg(text.left(200));
        return;
    }
    c.outcome = u"ok"_s;
}

void targetOf(ExportedCall &c)
{
    const QJsonObject params = c.request.value("params"_L1).toObject();
    if (c.method == "tools/call"_L1) {
        c.target = params.value("name"_L1).toString();
        c.targetKind = u"tool"_s;
    } else if (c.method == "prompts/get"_L1) {
        c.target = params.value("name"_L1).toString();
        c.targetKind = u"prompt"_s;
    } else if (params.contains("uri"_L1)) {
        c.target = params.value("uri"_L1).toString();
        c.targetKind = u"resource"_s;
    }
}

} // namespace

QJsonValue ExportCalls::requestIdOf(const QJsonObject &record)
{
    const QJsonObject d = record.value("details"_L1).toObject();
    if (d.contains("request_id"_L1))
        return d.value("request_id"_L1);
    if (d.contains("id"_L1))
        return d.value("id"_L1);
    return QJsonValue::Undefined;
}

QList<ExportedCall> ExportCalls::pair(const QList<QJsonObject> &records)
{
    QList<ExportedCall> calls;
    CallPairer pairer(0, true, [&calls](ExportedCall &&c) { calls.append(std::move(c)); });
    for (const QJsonObject &r : records)
        pairer.add(r);
    pairer.finish();
    return calls;
}

CallPairer::CallPairer(qsizetype window, bool keepMessages, Settled settled)
    : m_window(window), m_keepMessages(keepMessages), m_settled(std::move(settled))
{
}

ExportedCall *CallPairer::callAt(qint64 index)
{
    return index < m_first ? nullptr : &m_calls[size_t(index - m_first)];
}

void CallPairer::handOnFirst()
{
    ExportedCall c = std::move(m_calls.front());
    m_calls.pop_front();
    const auto it = m_open.constFind(callKey(c.server, c.generation, c.id));
    if (it != m_open.constEnd() && *it == m_first)
        m_open.erase(it);
    ++m_first;
    if (!c.endMs && m_window > 0) {
        ++m_early;
        if (c.outcome == "no answer"_L1)
            c.outcome = u"no answer within the export's window of %1 calls"_s.arg(m_window);
    }
    m_settled(std::move(c));
}

void CallPairer::finish()
{
    const qsizetype window = m_window;
    m_window = 0; // what is left waited until the end: no answer is "within the window"
    while (!m_calls.empty())
        handOnFirst();
    m_window = window;
}

void CallPairer::add(const QJsonObject &r)
{
    const QString dir = r.value("dir"_L1).toString();
    if (dir != "send"_L1 && dir != "recv"_L1 && dir != "event"_L1)
        return;
    const QString server = r.value("server"_L1).toString();
    const int gen = r.value("gen"_L1).toInt();
    const qint64 t = r.value("t_ms"_L1).toInteger();
    const QJsonObject msg = r.value("msg"_L1).toObject();
    // The 2026-07-28 listen stream is a request on the wire but the session's stream, not a
    // call: it stays out of the calls tables (it is "no answer" for as long as it is open).
    if (dir == "send"_L1 && msg.contains("method"_L1) && msg.contains("id"_L1) &&
        msg.value("method"_L1).toString() != "subscriptions/listen"_L1) {
        ExportedCall c;
        c.server = server;
        c.generation = gen;
        c.id = msg.value("id"_L1);
        c.method = msg.value("method"_L1).toString();
        c.startMs = t;
        c.request = msg;
        c.outcome = u"no answer"_s;
        targetOf(c);
        if (!m_keepMessages)
            c.request = {};
        m_open.insert(callKey(server, gen, c.id), m_first + qint64(m_calls.size()));
        m_calls.push_back(std::move(c));
        if (m_window > 0 && qsizetype(m_calls.size()) > m_window)
            handOnFirst();
    } else if (dir == "recv"_L1 && !msg.contains("method"_L1) && msg.contains("id"_L1)) {
        const auto it = m_open.constFind(callKey(server, gen, msg.value("id"_L1)));
        ExportedCall *c = it == m_open.constEnd() ? nullptr : callAt(*it);
        if (!c || c->endMs)
            return;
        c->response = msg;
        c->endMs = t;
        describeResponse(*c);
        if (!m_keepMessages)
            c->response = {};
    } else if (dir == "event"_L1) {
        const QJsonValue id = ExportCalls::requestIdOf(r);
        if (id.isUndefined())
            return;
        const QJsonObject d = r.value("details"_L1).toObject();
        const int callGen = d.contains("generation"_L1) ? d.value("generation"_L1).toInt() : gen;
        const auto it = m_open.constFind(callKey(server, callGen, id));
        ExportedCall *c = it == m_open.constEnd() ? nullptr : callAt(*it);
        if (!c)
            return;
        c->related.append(r);
        const QString event = r.value("event"_L1).toString();
        if (!c->endMs && (event == "request-failed"_L1 || event == "request-timed-out"_L1)) {
            c->endMs = t;
            c->isError = true;
            c->errorType = d.value("kind"_L1).toString(event);
            c->outcome = u"%1: %2"_s.arg(event, d.value("message"_L1).toString());
        } else if (!c->endMs && event == "outcome-uncertain"_L1) {
            c->outcome = u"outcome uncertain (%1)"_s.arg(d.value("rule"_L1).toString());
        } else if (!c->endMs && event == "sent-again"_L1) {
            c->outcome = u"sent again as id %1 in generation %2"_s
                             .arg(JsonRpcMessage::idText(d.value("new_request_id"_L1)))
                             .arg(d.value("new_generation"_L1).toInt());
        } else if (!c->endMs && event == "breaker-refused"_L1) {
            c->endMs = t;
            c->isError = true;
            c->errorType = event;
            c->outcome =
                u"refused by the circuit breaker: %1"_s.arg(d.value("cause"_L1).toString());
        }
    }
}

} // namespace Sonde
