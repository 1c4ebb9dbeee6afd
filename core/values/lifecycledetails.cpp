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
            bodyFromJson(details, eventKindFromName(event), static_cast<Body *>(nullptr))) {
        LifecycleDetails read;
        read.body = std::move(*typed);
        return read;
    }
    return Untyped{event, details};
}

LifecycleDetails::LifecycleDetails() = default;
LifecycleDetails::LifecycleDetails(const LifecycleDetails &other) = default;
LifecycleDetails::LifecycleDetails(LifecycleDetails &&other) noexcept = default;
LifecycleDetails &LifecycleDetails::operator=(const LifecycleDetails &other) = default;
LifecycleDetails &LifecycleDetails::operator=(LifecycleDetails &&other) noexcept = default;
LifecycleDetails::~LifecycleDetails() = default;

template <typename T> LifecycleDetails LifecycleDetails::Slot<T>::make(T &&alternative)
{
    LifecycleDetails d;
    d.body.template emplace<T>(std::move(alternative));
    return d;
}

template <typename T> const T *LifecycleDetails::Slot<T>::get(const Body &body)
{
    return std::get_if<T>(&body);
}

// Every alternative of Body, in its order: one missing here is an undefined reference to its
// Slot at link time.
template struct LifecycleDetails::Slot<LifecycleDetails::Untyped>;
template struct LifecycleDetails::Slot<HistoryEvent>;
template struct LifecycleDetails::Slot<LifecycleDetails::Starting>;
template struct LifecycleDetails::Slot<LifecycleDetails::TransportOpen>;
template struct LifecycleDetails::Slot<LifecycleDetails::InitializeFailed>;
template struct LifecycleDetails::Slot<LifecycleDetails::ConnectionLost>;
template struct LifecycleDetails::Slot<LifecycleDetails::Ready>;
template struct LifecycleDetails::Slot<LifecycleDetails::Closing>;
template struct LifecycleDetails::Slot<LifecycleDetails::Restarting>;
template struct LifecycleDetails::Slot<LifecycleDetails::Drained>;
template struct LifecycleDetails::Slot<LifecycleDetails::Fault>;
template struct LifecycleDetails::Slot<LifecycleDetails::Closed>;
template struct LifecycleDetails::Slot<LifecycleDetails::LateResponseIgnored>;
template struct LifecycleDetails::Slot<LifecycleDetails::ReplyDropped>;
template struct LifecycleDetails::Slot<LifecycleDetails::RequestFailed>;
template struct LifecycleDetails::Slot<LifecycleDetails::RequestTimedOut>;
template struct LifecycleDetails::Slot<LifecycleDetails::EraChosen>;
template struct LifecycleDetails::Slot<LifecycleDetails::InputRequired>;
template struct LifecycleDetails::Slot<LifecycleDetails::ListenAcknowledged>;
template struct LifecycleDetails::Slot<LifecycleDetails::ListenEnded>;
template struct LifecycleDetails::Slot<LifecycleDetails::ListenDropped>;
template struct LifecycleDetails::Slot<LifecycleDetails::TaskStatus>;
template struct LifecycleDetails::Slot<LifecycleDetails::AuthChallenge>;
template struct LifecycleDetails::Slot<LifecycleDetails::StreamResume>;
template struct LifecycleDetails::Slot<LifecycleDetails::StreamResumeFailed>;
template struct LifecycleDetails::Slot<LifecycleDetails::TornDown>;
template struct LifecycleDetails::Slot<LifecycleDetails::Draining>;
template struct LifecycleDetails::Slot<LifecycleDetails::SessionDelete>;
template struct LifecycleDetails::Slot<LifecycleDetails::FaultExpireSession>;
template struct LifecycleDetails::Slot<LifecycleDetails::GetStreamOpen>;
template struct LifecycleDetails::Slot<LifecycleDetails::GetStreamUnavailable>;
template struct LifecycleDetails::Slot<LifecycleDetails::GetStreamFailed>;
template struct LifecycleDetails::Slot<LifecycleDetails::GetStreamClosed>;
template struct LifecycleDetails::Slot<LifecycleDetails::LegacySse>;
template struct LifecycleDetails::Slot<LifecycleDetails::LegacyEndpoint>;
template struct LifecycleDetails::Slot<LifecycleDetails::HttpExchange>;
template struct LifecycleDetails::Slot<LifecycleDetails::FaultKill>;
template struct LifecycleDetails::Slot<LifecycleDetails::FaultCorruptSessionId>;
template struct LifecycleDetails::Slot<LifecycleDetails::FaultDropConnection>;
template struct LifecycleDetails::Slot<LifecycleDetails::FaultHttpStatus>;
template struct LifecycleDetails::Slot<LifecycleDetails::FaultExpireAfterDispatch>;
template struct LifecycleDetails::Slot<LifecycleDetails::FaultRev20260728>;
template struct LifecycleDetails::Slot<LifecycleDetails::AuthStep>;
template struct LifecycleDetails::Slot<LifecycleDetails::AuthState>;
static_assert(std::variant_size_v<LifecycleDetails::Body> == 44);

} // namespace Sonde
