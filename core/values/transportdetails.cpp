// SPDX-License-Identifier: MIT
#include "values/transportdetails.h"

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

// The JSON keys, once for both directions.
constexpr auto ProgramKey = "program"_L1;
constexpr auto PidKey = "pid"_L1;
constexpr auto UptimeKey = "uptime_ms"_L1;
constexpr auto ExitCodeKey = "exit_code"_L1;
constexpr auto ExitSignalKey = "exit_signal"_L1;
constexpr auto RouteKey = "route"_L1;
constexpr auto RouteReasonKey = "route_reason"_L1;
constexpr auto UrlKey = "url"_L1;
constexpr auto EndpointKey = "endpoint"_L1;
constexpr auto GetStreamKey = "get_stream"_L1;
constexpr auto SessionIdKey = "session_id"_L1;
constexpr auto DeleteKey = "delete"_L1;

template <typename T> void put(QJsonObject &o, QLatin1StringView key, const std::optional<T> &value)
{
    if (value)
        o.insert(key, *value);
}

std::optional<QString> text(const QJsonObject &o, QLatin1StringView key)
{
    const QJsonValue v = o.value(key);
    return v.isString() ? std::optional<QString>(v.toString()) : std::nullopt;
}

std::optional<qint64> integer(const QJsonObject &o, QLatin1StringView key)
{
    const QJsonValue v = o.value(key);
    return v.isDouble() ? std::optional<qint64>(v.toInteger()) : std::nullopt;
}

} // namespace

QJsonObject TransportDetails::toJson() const
{
    QJsonObject o;
    put(o, ProgramKey, program);
    put(o, PidKey, pid);
    put(o, UptimeKey, uptimeMs);
    put(o, ExitCodeKey, exitCode);
    put(o, ExitSignalKey, exitSignal);
    if (route)
        o.insert(RouteKey, ServerConfig::routeName(*route));
    put(o, RouteReasonKey, routeReason);
    put(o, UrlKey, url);
    put(o, EndpointKey, endpoint);
    put(o, GetStreamKey, getStream);
    put(o, SessionIdKey, sessionId);
    put(o, DeleteKey, deleteOutcome);
    return o;
}

TransportDetails TransportDetails::fromJson(const QJsonObject &json)
{
    TransportDetails d;
    d.program = text(json, ProgramKey);
    d.pid = integer(json, PidKey);
    d.uptimeMs = integer(json, UptimeKey);
    if (const std::optional<qint64> code = integer(json, ExitCodeKey))
        d.exitCode = int(*code);
    if (const std::optional<qint64> signal = integer(json, ExitSignalKey))
        d.exitSignal = int(*signal);
    if (const std::optional<QString> route = text(json, RouteKey))
        d.route = ServerConfig::routeFromName(*route);
    d.routeReason = text(json, RouteReasonKey);
    d.url = text(json, UrlKey);
    d.endpoint = text(json, EndpointKey);
    d.getStream = text(json, GetStreamKey);
    d.sessionId = text(json, SessionIdKey);
    d.deleteOutcome = text(json, DeleteKey);
    return d;
}

} // namespace Sonde
