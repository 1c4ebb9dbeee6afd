// SPDX-License-Identifier: MIT
#include "transcript/otlpexport.h"
#include "protocol/jsonrpcmessage.h"

#include "transcript/exportcalls.h"
#include "transcript/exportreader.h"
#include "values/transportdetails.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

constexpr int SpanKindClient = 3;
constexpr int StatusError = 2;
constexpr int StatusOk = 1;

QJsonObject attribute(const QString &key, const QString &value)
{
    return {{"key"_L1, key}, {"value"_L1, QJsonObject{{"stringValue"_L1, value}}}};
}

QString nanos(qint64 ms)
{
    return QString::number(ms * 1'000'000);
}

// What is known of each leg (server, generation): its transport, protocol version and
// session id, and the reconnects of each server.
struct Legs
{
    QHash<QString, QString> transport;
    QHash<QString, QString> protocolVersion;
    QHash<QString, QString> sessionId;
    QHash<QString, QList<QJsonObject>> recoveries; // by server
};

QString legKey(const QString &server, int gen)
{
    return server + u'\x1f' + QString::number(gen);
}

bool isRecovery(const QString &event)
{
    return event == "reconnect"_L1 || event == "connection-lost"_L1 || event == "restarting"_L1 ||
           event == "reconnect-attempt"_L1 || event == "session-end"_L1;
}

void readLeg(Legs &legs, const QJsonObject &r)
{
    const QString server = r.value("server"_L1).toString();
    const QString key = legKey(server, r.value("gen"_L1).toInt());
    const QString event = r.value("event"_L1).toString();
    const QJsonObject d = r.value("details"_L1).toObject();
    if (event == "http-exchange"_L1) {
        legs.transport.insert(key, u"tcp"_s);
        for (const auto list : {"request_headers"_L1, "response_headers"_L1})
            for (const QJsonValue &h : d.value(list).toArray())
                if (h["name"_L1].toString().compare("mcp-session-id"_L1, Qt::CaseInsensitive) == 0)
                    legs.sessionId.insert(key, h["value"_L1].toString());
    } else if (r.value("dir"_L1).toString() == "stderr"_L1) {
        legs.transport.insert(key, u"pipe"_s);
    } else if (event == "transport-open"_L1) {
        const TransportDetails opened = TransportDetails::fromJson(d);
        legs.transport.insert(key,
                              opened.route == ServerConfig::Route::Stdio ? u"pipe"_s : u"tcp"_s);
        if (opened.sessionId)
            legs.sessionId.insert(key, *opened.sessionId);
    } else if (event == "ready"_L1 || event == "era-chosen"_L1) {
        if (d.contains("protocol_version"_L1))
            legs.protocolVersion.insert(key, d.value("protocol_version"_L1).toString());
    } else if (isRecovery(event)) {
        legs.recoveries[server].append(r);
    }
}

QJsonObject spanEvent(const QJsonObject &r)
{
    QJsonArray attributes;
    const QJsonObject d = r.value("details"_L1).toObject();
    for (auto it = d.begin(); it != d.end(); ++it) {
        const QJsonValue v = it.value();
        const QString text =
            v.isString() ? v.toString()
            : v.isDouble()
                ? QString::number(v.toDouble(), 'g', 17)
                : QString::fromUtf8(
                      QJsonDocument(QJsonObject{{"v"_L1, v}}).toJson(QJsonDocument::Compact));
        attributes.append(attribute(u"sonde."_s + it.key(), text));
    }
    return {{"timeUnixNano"_L1, nanos(r.value("t_ms"_L1).toInteger())},
            {"name"_L1, r.value("event"_L1).toString()},
            {"attributes"_L1, attributes}};
}

QByteArray spanSeed(const ExportedCall &c)
{
    return (c.server + u'\x1f' + QString::number(c.generation) + u'\x1f' +
            JsonRpcMessage::idText(c.id) + u'\x1f' + QString::number(c.startMs))
        .toUtf8();
}

// The span of a call; `repeated`: the span of the request it sends again, if it does.
QJsonObject spanOf(const ExportedCall &c, const QString &spanId, const Legs &legs,
                   const QString &repeated)
{
    const QString key = legKey(c.server, c.generation);
    const QString traceId = OtlpExport::idFor(c.server.toUtf8(), 16);
    QJsonArray attributes{attribute(u"mcp.method.name"_s, c.method),
                          attribute(u"jsonrpc.request.id"_s, JsonRpcMessage::idText(c.id)),
                          attribute(u"network.transport"_s, legs.transport.value(key, u"pipe"_s))};
    if (c.targetKind == "tool"_L1) {
        attributes.append(attribute(u"gen_ai.tool.name"_s, c.target));
        attributes.append(attribute(u"gen_ai.operation.name"_s, u"execute_tool"_s));
    } else if (c.targetKind == "prompt"_L1) {
        attributes.append(attribute(u"gen_ai.prompt.name"_s, c.target));
    } else if (c.targetKind == "resource"_L1) {
        attributes.append(attribute(u"mcp.resource.uri"_s, c.target));
    }
    if (legs.sessionId.contains(key))
        attributes.append(attribute(u"mcp.session.id"_s, legs.sessionId.value(key)));
    if (legs.protocolVersion.contains(key))
        attributes.append(attribute(u"mcp.protocol.version"_s, legs.protocolVersion.value(key)));
    if (c.isError)
        attributes.append(attribute(u"error.type"_s, c.errorType));
    // A call that got no answer ends where the last word about it was said.
    qint64 endMs = c.endMs.value_or(c.startMs);
    if (!c.endMs)
        for (const QJsonObject &r : c.related)
            endMs = qMax(endMs, r.value("t_ms"_L1).toInteger());
    QList<QJsonObject> told = c.related;
    QJsonArray links;
    if (!repeated.isEmpty())
        links.append(QJsonObject{
            {"traceId"_L1, traceId},
            {"spanId"_L1, repeated},
            {"attributes"_L1, QJsonArray{attribute(u"sonde.link"_s, u"sent-again of"_s)}}});
    for (const QJsonObject &r : legs.recoveries.value(c.server)) {
        const qint64 t = r.value("t_ms"_L1).toInteger();
        if (t >= c.startMs && t <= endMs)
            told.append(r);
    }
    std::stable_sort(told.begin(), told.end(), [](const QJsonObject &a, const QJsonObject &b) {
        return a.value("t_ms"_L1).toInteger() < b.value("t_ms"_L1).toInteger();
    });
    QJsonArray events;
    for (const QJsonObject &r : std::as_const(told))
        events.append(spanEvent(r));
    QJsonObject status{{"code"_L1, c.isError ? StatusError : StatusOk}};
    if (c.isError)
        status.insert("message"_L1, c.outcome);
    else if (!c.endMs)
        status = QJsonObject{{"code"_L1, 0}, {"message"_L1, c.outcome}};
    QJsonObject span{{"traceId"_L1, traceId},
                     {"spanId"_L1, spanId},
                     {"name"_L1, c.target.isEmpty() ? c.method : c.method + u' ' + c.target},
                     {"kind"_L1, SpanKindClient},
                     {"startTimeUnixNano"_L1, nanos(c.startMs)},
                     {"endTimeUnixNano"_L1, nanos(endMs)},
                     {"attributes"_L1, attributes},
                     {"status"_L1, status}};
    if (!events.isEmpty())
        span.insert("events"_L1, events);
    if (!links.isEmpty())
        span.insert("links"_L1, links);
    return span;
}

} // namespace

QString OtlpExport::idFor(const QByteArray &seed, int bytes)
{
    QByteArray id = QCryptographicHash::hash(seed, QCryptographicHash::Sha256).left(bytes);
    if (id.count('\0') == id.size())
        id[id.size() - 1] = 1; // all-zero ids are invalid in OTLP
    return QString::fromLatin1(id.toHex());
}

QByteArray OtlpExport::write(const QList<QJsonObject> &records)
{
    return ExportReader::documentAsIs(records, {}, [](ExportReader &in, ExportOutput &out) {
        return write(in, out, OtlpExport::Window);
    });
}

bool OtlpExport::write(ExportReader &in, ExportOutput &out, qsizetype window)
{
    Legs legs;
    if (!in.read([&legs](const QJsonObject &r) {
            readLeg(legs, r);
            return true;
        }))
        return false;
    const QString version = QCoreApplication::applicationVersion();
    const QJsonObject scope{{"name"_L1, u"sonde"_s},
                            {"version"_L1, version.isEmpty() ? u"unknown"_s : version}};
    const QJsonObject resource{
        {"attributes"_L1, QJsonArray{attribute(u"service.name"_s, u"sonde"_s)}}};
    const QJsonObject doc{
        {"resourceSpans"_L1,
         QJsonArray{QJsonObject{
             {"resource"_L1, resource},
             {"scopeSpans"_L1,
              QJsonArray{QJsonObject{{"scope"_L1, scope},
                                     {"spans"_L1, QJsonArray{QLatin1StringView(
                                                      IndentedJsonSplice::Placeholder)}}}}}}}}};
    IndentedJsonSplice spans(doc, out);
    // A request sent again names the id and generation it was sent under: its span links to
    // the span of the request it repeats, which was sent (and handed on) before it.
    QHash<QString, QString> repeats; // the call sent again -> the span of the one it repeats
    CallPairer pairer(window, false, [&](ExportedCall &&c) {
        const QString spanId = idFor(spanSeed(c), 8);
        for (const QJsonObject &r : std::as_const(c.related)) {
            const QJsonObject d = r.value("details"_L1).toObject();
            if (r.value("event"_L1).toString() == "sent-again"_L1 &&
                d.contains("new_request_id"_L1))
                repeats.insert(legKey(c.server, d.value("new_generation"_L1).toInt(c.generation)) +
                                   u'\x1f' + JsonRpcMessage::idText(d.value("new_request_id"_L1)),
                               spanId);
        }
        const QString self =
            legKey(c.server, c.generation) + u'\x1f' + JsonRpcMessage::idText(c.id);
        spans.append(spanOf(c, spanId, legs, repeats.take(self)));
    });
    if (!in.read([&pairer](const QJsonObject &r) {
            pairer.add(r);
            return true;
        }))
        return false;
    pairer.finish();
    spans.finish();
    return true;
}

} // namespace Sonde
