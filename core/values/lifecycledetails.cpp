// SPDX-License-Identifier: MIT
#include "values/lifecycledetails.h"

#include "values/jsonfields.h"

using namespace Qt::StringLiterals;

namespace Sonde {

using namespace JsonFields;

QJsonObject LifecycleDetails::Closed::toJson() const
{
    QJsonObject o = transport.toJson();
    if (reason)
        o.insert("reason"_L1, reason->toJson());
    return o;
}

LifecycleDetails::Closed LifecycleDetails::Closed::fromJson(const QJsonObject &o)
{
    Closed c{TransportDetails::fromJson(o)};
    if (o.value("reason"_L1).isObject())
        c.reason = Error::fromJson(o.value("reason"_L1).toObject());
    return c;
}

QJsonObject LifecycleDetails::AuthState::toJson() const
{
    QJsonObject o = value.toJson();
    o.remove("steps"_L1); // each was recorded as it happened
    return o;
}

LifecycleDetails::AuthState LifecycleDetails::AuthState::fromJson(const QJsonObject &o)
{
    return {Sonde::AuthState::fromJson(o)};
}

EventKind LifecycleDetails::kind() const
{
    return std::visit(
        []<typename S>(const S &b) {
            if constexpr (std::is_same_v<S, Untyped>)
                return eventKindFromName(b.type);
            else if constexpr (std::is_same_v<S, HistoryEvent>)
                return b.kind();
            else
                return S::Kind;
        },
        body);
}

QString LifecycleDetails::name() const
{
    const Untyped *untyped = as<Untyped>();
    return untyped ? untyped->type : eventKindName(kind());
}

QJsonObject LifecycleDetails::toJson() const
{
    return std::visit([](const auto &b) { return bodyJson(b); }, body);
}

LifecycleDetails LifecycleDetails::fromJson(const QString &event, const QJsonObject &details)
{
    if (details.value("type"_L1).toString() == event && details.contains("t_ms"_L1))
        return HistoryEvent::fromJson(details);
    if (std::optional<Body> typed =
            bodyFromJson(details, eventKindFromName(event), static_cast<Body *>(nullptr)))
        return std::move(*typed);
    return Untyped{event, details};
}

} // namespace Sonde
