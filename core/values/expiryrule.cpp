// SPDX-License-Identifier: MIT
#include "values/expiryrule.h"

#include <array>
#include <utility>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
constexpr std::array<std::pair<ExpiryRule, QLatin1StringView>, 10> kNames{{
    {ExpiryRule::Http404WithSession, "http-404-with-session"_L1},
    {ExpiryRule::Http400InvalidSession, "http-400-invalid-session"_L1},
    {ExpiryRule::ConnectionRefused, "connection-refused"_L1},
    {ExpiryRule::TransportClosed, "transport-closed"_L1},
    {ExpiryRule::StreamBroken, "stream-broken"_L1},
    {ExpiryRule::TextMarker, "text-marker"_L1},
    {ExpiryRule::Timeout, "timeout"_L1},
    {ExpiryRule::NoSignal, "no-signal"_L1},
    {ExpiryRule::CancelledByUser, "cancelled-by-user"_L1},
    {ExpiryRule::BudgetExhausted, "budget-exhausted"_L1},
}};
} // namespace

QString ExpiryRules::name(ExpiryRule rule)
{
    for (const auto &[r, n] : kNames)
        if (r == rule)
            return n;
    return {};
}

std::optional<ExpiryRule> ExpiryRules::fromName(QStringView name)
{
    if (name.isEmpty())
        return ExpiryRule::None;
    for (const auto &[r, n] : kNames)
        if (name == n)
            return r;
    return std::nullopt;
}

} // namespace Sonde
