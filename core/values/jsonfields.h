// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "protocol/error.h"
#include "values/recoveryvalues.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QLatin1StringView>
#include <QList>
#include <QStringList>

#include <optional>
#include <type_traits>
#include <variant>

// Internal to values/: the one key table of the typed events (HistoryEvent's bodies,
// LifecycleDetails' alternatives and the TransportDetails they carry) and the conversions
// that walk it in both directions. Only their .cpp files include it; nothing here is part of
// an interface.
namespace Sonde::JsonFields {

using namespace Qt::StringLiterals;

// How an unset optional field is written: left out, or (for the few the docs name) a null.
enum class Unset
{
    Omitted,
    Null
};

template <typename T> struct IsList : std::false_type
{
};
template <typename T> struct IsList<QList<T>> : std::true_type
{
};

template <typename S> QJsonObject structJson(const S &s);
template <typename S> S structFromJson(const QJsonObject &o);
template <typename T> std::optional<T> fromPresent(const QJsonValue &j);

// One conversion per field type, used by the key table below in both directions. A field
// that is itself a struct of the table (an HTTP header, an SSE frame) nests as an object.
template <typename T> QJsonValue toValue(const T &v)
{
    if constexpr (HasEnumNames<T>)
        return enumName(v);
    else if constexpr (std::is_same_v<T, Error::Kind>)
        return Error::kindName(v);
    else if constexpr (std::is_same_v<T, ServerConfig::Route>)
        return ServerConfig::routeName(v);
    else if constexpr (std::is_same_v<T, quint64>)
        return QJsonValue(qint64(v));
    else if constexpr (std::is_same_v<T, QStringList>)
        return QJsonArray::fromStringList(v);
    else if constexpr (IsList<T>::value) {
        QJsonArray a;
        for (const auto &item : v)
            a.append(toValue(item));
        return a;
    } else if constexpr (std::is_class_v<T> && !std::is_constructible_v<QJsonValue, T>)
        return structJson(v);
    else
        return QJsonValue(v);
}

// Absent and null both read as unset (and a name this build does not know, for an enum),
// but for a JSON-RPC id, which may be null.
template <typename T> std::optional<T> fromValue(const QJsonValue &j)
{
    if constexpr (std::is_same_v<T, QJsonValue>) {
        return j.isUndefined() ? std::nullopt : std::optional<T>(j);
    } else {
        if (j.isUndefined() || j.isNull())
            return std::nullopt;
        return fromPresent<T>(j);
    }
}

// A value of another JSON type than the field's reads as unset, as a key it does not know.
template <typename T> std::optional<T> fromPresent(const QJsonValue &j)
{
    if constexpr (std::is_same_v<T, int> || std::is_same_v<T, qint64> ||
                  std::is_same_v<T, quint64> || std::is_same_v<T, double>) {
        if (!j.isDouble())
            return std::nullopt;
        if constexpr (std::is_same_v<T, int>)
            return j.toInt();
        else if constexpr (std::is_same_v<T, qint64>)
            return j.toInteger();
        else if constexpr (std::is_same_v<T, quint64>)
            return quint64(j.toInteger());
        else
            return j.toDouble();
    } else if constexpr (std::is_same_v<T, bool>) {
        return j.isBool() ? std::optional<bool>(j.toBool()) : std::nullopt;
    } else if constexpr (std::is_same_v<T, QJsonObject>) {
        return j.isObject() ? std::optional<QJsonObject>(j.toObject()) : std::nullopt;
    } else if constexpr (std::is_same_v<T, QStringList> || IsList<T>::value) {
        if (!j.isArray())
            return std::nullopt;
        T list;
        for (const QJsonValue &item : j.toArray())
            if (auto read = fromValue<typename T::value_type>(item))
                list.append(*read);
        return list;
    } else if constexpr (std::is_class_v<T> && !std::is_same_v<T, QString>) {
        return j.isObject() ? std::optional<T>(structFromJson<T>(j.toObject())) : std::nullopt;
    } else {
        // A string, or an enum by its name (nullopt for a name this build does not know).
        if (!j.isString())
            return std::nullopt;
        if constexpr (HasEnumNames<T>)
            return enumFromName<T>(j.toString());
        else if constexpr (std::is_same_v<T, Error::Kind>)
            return Error::kindFromName(j.toString());
        else if constexpr (std::is_same_v<T, ServerConfig::Route>)
            return ServerConfig::routeFromName(j.toString());
        else
            return j.toString();
    }
}

template <typename T>
void put(QJsonObject &o, QLatin1StringView key, const std::optional<T> &v,
         Unset unset = Unset::Omitted)
{
    if (v)
        o.insert(key, toValue(*v));
    else if (unset == Unset::Null)
        o.insert(key, QJsonValue::Null);
}

// A field every entry of its kind has: always written; read as its default when missing.
template <typename T> void put(QJsonObject &o, QLatin1StringView key, const T &v)
{
    o.insert(key, toValue(v));
}

template <typename T> void take(const QJsonObject &o, QLatin1StringView key, std::optional<T> &v)
{
    v = fromValue<T>(o.value(key));
}

template <typename T> void take(const QJsonObject &o, QLatin1StringView key, T &v)
{
    if (std::optional<T> read = fromValue<T>(o.value(key)))
        v = *read;
}

// Every field's JSON key, once: a name means one thing in whichever kind has it ("method",
// "generation", "cause", "id"), as it always has. structJson and structFromJson walk this
// for a kind's struct, which has some of these members.
template <typename F, typename S> void fields(F &&f, S &e)
{
    if constexpr (requires { e.call; }) // a verdict: the call it is about
        fields(f, e.call);
    if constexpr (requires { e.ticket; })
        f("ticket"_L1, e.ticket);
    if constexpr (requires { e.method; })
        f("method"_L1, e.method);
    if constexpr (requires { e.tool; })
        f("tool"_L1, e.tool);
    if constexpr (requires { e.progressToken; })
        f("progress_token"_L1, e.progressToken);
    if constexpr (requires { e.requestId; })
        f("request_id"_L1, e.requestId);
    if constexpr (requires { e.generation; })
        f("generation"_L1, e.generation);
    if constexpr (requires { e.newRequestId; })
        f("new_request_id"_L1, e.newRequestId);
    if constexpr (requires { e.newGeneration; })
        f("new_generation"_L1, e.newGeneration);
    if constexpr (requires { e.fromGeneration; })
        f("from_generation"_L1, e.fromGeneration);
    if constexpr (requires { e.attempt; })
        f("attempt"_L1, e.attempt);
    if constexpr (requires { e.trigger; })
        f("trigger"_L1, e.trigger);
    if constexpr (requires { e.durationMs; })
        f("duration_ms"_L1, e.durationMs);
    if constexpr (requires { e.outcome; })
        f("outcome"_L1, e.outcome);
    if constexpr (requires { e.inMs; })
        f("in_ms"_L1, e.inMs);
    if constexpr (requires { e.parked; })
        f("parked"_L1, e.parked);
    if constexpr (requires { e.from; })
        f("from"_L1, e.from);
    if constexpr (requires { e.to; })
        f("to"_L1, e.to);
    if constexpr (requires { e.strikes; })
        f("strikes"_L1, e.strikes);
    if constexpr (requires { e.threshold; })
        f("threshold"_L1, e.threshold);
    if constexpr (requires { e.rule; })
        f("rule"_L1, e.rule);
    if constexpr (requires { e.detail; })
        f("detail"_L1, e.detail);
    if constexpr (requires { e.expired; })
        f("expired"_L1, e.expired);
    if constexpr (requires { e.source; })
        f("source"_L1, e.source);
    if constexpr (requires { e.protocolVersion; })
        f("protocol_version"_L1, e.protocolVersion);
    if constexpr (requires { e.transport; })
        f("transport"_L1, e.transport);
    if constexpr (requires { e.state; })
        f("state"_L1, e.state);
    if constexpr (requires { e.cause; })
        f("cause"_L1, e.cause);
    if constexpr (requires { e.budgetMs; })
        f("budget_ms"_L1, e.budgetMs);
    if constexpr (requires { e.reconnect; })
        f("reconnect"_L1, e.reconnect);
    if constexpr (requires { e.description; }) // a fault, as the user named it
        f("kind"_L1, e.description);
    if constexpr (requires { e.errorKind; }) // Error::Kind's name
        f("kind"_L1, e.errorKind);
    if constexpr (requires { e.applied; })
        f("applied"_L1, e.applied);
    if constexpr (requires { e.verdict; })
        f("verdict"_L1, e.verdict);
    if constexpr (requires { e.retryInS; })
        f("retry_in_s"_L1, e.retryInS);
    // A session's and a transport's lifecycle events (LifecycleDetails).
    if constexpr (requires { e.id; }) // a JSON-RPC id (an SSE frame's: its event id)
        f("id"_L1, e.id);
    if constexpr (requires { e.nextId; })
        f("next_id"_L1, e.nextId);
    if constexpr (requires { e.round; })
        f("round"_L1, e.round);
    if constexpr (requires { e.name; })
        f("name"_L1, e.name);
    if constexpr (requires { e.value; })
        f("value"_L1, e.value);
    if constexpr (requires { e.requests; })
        f("requests"_L1, e.requests);
    if constexpr (requires { e.era; })
        f("era"_L1, e.era);
    if constexpr (requires { e.reason; })
        f("reason"_L1, e.reason);
    if constexpr (requires { e.supported; })
        f("supported"_L1, e.supported);
    if constexpr (requires { e.serverInfo; })
        f("server_info"_L1, e.serverInfo);
    if constexpr (requires { e.route; })
        f("route"_L1, e.route);
    if constexpr (requires { e.command; })
        f("command"_L1, e.command);
    if constexpr (requires { e.dropped; })
        f("dropped"_L1, e.dropped);
    if constexpr (requires { e.why; })
        f("why"_L1, e.why);
    if constexpr (requires { e.message; })
        f("message"_L1, e.message);
    if constexpr (requires { e.httpStatus; })
        f("http_status"_L1, e.httpStatus);
    if constexpr (requires { e.afterMs; })
        f("after_ms"_L1, e.afterMs);
    if constexpr (requires { e.graceful; })
        f("graceful"_L1, e.graceful);
    if constexpr (requires { e.requested; })
        f("requested"_L1, e.requested);
    if constexpr (requires { e.granted; })
        f("granted"_L1, e.granted);
    if constexpr (requires { e.retryInMs; })
        f("retry_in_ms"_L1, e.retryInMs);
    if constexpr (requires { e.taskId; })
        f("task_id"_L1, e.taskId);
    if constexpr (requires { e.status; })
        f("status"_L1, e.status);
    if constexpr (requires { e.pollMs; })
        f("poll_ms"_L1, e.pollMs);
    if constexpr (requires { e.wwwAuthenticate; })
        f("www_authenticate"_L1, e.wwwAuthenticate);
    if constexpr (requires { e.lastEventId; })
        f("last_event_id"_L1, e.lastEventId);
    if constexpr (requires { e.delayMs; })
        f("delay_ms"_L1, e.delayMs);
    if constexpr (requires { e.deleteNote; }) // what became of the closing DELETE
        f("delete"_L1, e.deleteNote);
    if constexpr (requires { e.requestsInFlight; })
        f("requests_in_flight"_L1, e.requestsInFlight);
    if constexpr (requires { e.fault; })
        f("fault"_L1, e.fault);
    if constexpr (requires { e.note; })
        f("note"_L1, e.note);
    if constexpr (requires { e.pid; })
        f("pid"_L1, e.pid);
    if constexpr (requires { e.when; })
        f("when"_L1, e.when);
    if constexpr (requires { e.openStreams; })
        f("open_streams"_L1, e.openStreams);
    if constexpr (requires { e.reconnectInMs; })
        f("reconnect_in_ms"_L1, e.reconnectInMs);
    if constexpr (requires { e.endpoint; })
        f("endpoint"_L1, e.endpoint);
    // What a route says of itself (TransportDetails).
    if constexpr (requires { e.program; })
        f("program"_L1, e.program);
    if constexpr (requires { e.uptimeMs; })
        f("uptime_ms"_L1, e.uptimeMs);
    if constexpr (requires { e.exitCode; })
        f("exit_code"_L1, e.exitCode);
    if constexpr (requires { e.exitSignal; })
        f("exit_signal"_L1, e.exitSignal);
    if constexpr (requires { e.routeReason; })
        f("route_reason"_L1, e.routeReason);
    if constexpr (requires { e.getStream; })
        f("get_stream"_L1, e.getStream);
    if constexpr (requires { e.sessionId; })
        f("session_id"_L1, e.sessionId);
    if constexpr (requires { e.deleteOutcome; })
        f("delete"_L1, e.deleteOutcome);
    // An HTTP exchange (LifecycleDetails::HttpExchange) and its SSE frames.
    if constexpr (requires { e.url; })
        f("url"_L1, e.url);
    if constexpr (requires { e.requestHeaders; })
        f("request_headers"_L1, e.requestHeaders);
    if constexpr (requires { e.requestBytes; })
        f("request_bytes"_L1, e.requestBytes);
    if constexpr (requires { e.requestBody; })
        f("request_body"_L1, e.requestBody);
    if constexpr (requires { e.requestBodyTruncatedAt; })
        f("request_body_truncated_at"_L1, e.requestBodyTruncatedAt);
    if constexpr (requires { e.statusText; })
        f("status_text"_L1, e.statusText);
    if constexpr (requires { e.responseHeaders; })
        f("response_headers"_L1, e.responseHeaders);
    if constexpr (requires { e.firstByteUs; })
        f("first_byte_us"_L1, e.firstByteUs);
    if constexpr (requires { e.totalUs; })
        f("total_us"_L1, e.totalUs);
    if constexpr (requires { e.responseBytes; })
        f("response_bytes"_L1, e.responseBytes);
    if constexpr (requires { e.contentType; })
        f("content_type"_L1, e.contentType);
    if constexpr (requires { e.sse; })
        f("sse"_L1, e.sse);
    if constexpr (requires { e.sseFramesKeptMax; })
        f("sse_frames_kept_max"_L1, e.sseFramesKeptMax);
    if constexpr (requires { e.sseFramesDropped; })
        f("sse_frames_dropped"_L1, e.sseFramesDropped);
    if constexpr (requires { e.responseBody; })
        f("response_body"_L1, e.responseBody);
    if constexpr (requires { e.responseBodyTruncatedAt; })
        f("response_body_truncated_at"_L1, e.responseBodyTruncatedAt);
    if constexpr (requires { e.tUs; })
        f("t_us"_L1, e.tUs);
    if constexpr (requires { e.event; })
        f("event"_L1, e.event);
    if constexpr (requires { e.data; })
        f("data"_L1, e.data);
    if constexpr (requires { e.dataTruncatedAt; })
        f("data_truncated_at"_L1, e.dataTruncatedAt);
    // The two nulls the docs name: a failed reconnect reached no generation, and an applied
    // fault has no error.
    if constexpr (requires { e.toGeneration; })
        f("to_generation"_L1, e.toGeneration, Unset::Null);
    if constexpr (std::is_same_v<std::remove_const_t<S>, HistoryEvent::Fault>)
        f("error"_L1, e.error, Unset::Null);
    else if constexpr (requires { e.error; })
        f("error"_L1, e.error);
}

template <typename S> QJsonObject structJson(const S &s)
{
    QJsonObject o;
    fields([&o](QLatin1StringView key, const auto &v, auto... unset) { put(o, key, v, unset...); },
           s);
    return o;
}

template <typename S> S structFromJson(const QJsonObject &o)
{
    S s;
    fields([&o](QLatin1StringView key, auto &v, auto...) { take(o, key, v); }, s);
    return s;
}

// A body's JSON: an Untyped one's keys as they were read, a struct that converts itself
// (a value type written whole) by its own toJson, any other by the key table.
template <typename S> QJsonObject bodyJson(const S &body)
{
    if constexpr (requires { body.type, body.fields; })
        return body.fields;
    else if constexpr (requires { body.toJson(); })
        return body.toJson();
    else
        return structJson(body);
}

// The alternative whose Kind is `kind`, read from `o`; nullopt when none has it (the caller
// keeps the record as its Untyped). An alternative without a Kind is chosen by its caller.
template <typename Untyped, typename... Typed>
std::optional<std::variant<Untyped, Typed...>> bodyFromJson(const QJsonObject &o, EventKind kind,
                                                            std::variant<Untyped, Typed...> *)
{
    std::optional<std::variant<Untyped, Typed...>> body;
    const auto read = [&]<typename S>(S *) {
        if constexpr (requires { S::Kind; }) {
            if (S::Kind != kind)
                return false;
            if constexpr (requires { S::fromJson(o); })
                body = S::fromJson(o);
            else
                body = structFromJson<S>(o);
            return true;
        } else {
            return false;
        }
    };
    (read(static_cast<Typed *>(nullptr)) || ...);
    return body;
}

} // namespace Sonde::JsonFields
