// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringView>

#include <cstddef>
#include <optional>

namespace Sonde {

// Names of a dense enum (values 0..N-1 in declaration order) kept in one table per enum,
// e.g. `static const char *const kNames[] = {"idle", "starting", ...};`. A table instead of
// a switch per enum: adding a value is one word, and the same table reads the name back
// (fromJson), so the two directions cannot disagree.
template <typename Enum, std::size_t N> QString enumName(const char *const (&names)[N], Enum value)
{
    const auto i = static_cast<std::size_t>(value);
    return i < N ? QString::fromUtf8(names[i]) : QString();
}

template <typename Enum, std::size_t N>
std::optional<Enum> enumFromName(const char *const (&names)[N], QStringView name)
{
    for (std::size_t i = 0; i < N; ++i) {
        if (name == QLatin1StringView(names[i]))
            return static_cast<Enum>(i);
    }
    return std::nullopt;
}

// An enum whose table sits beside its declaration, for code that reads a name by the type
// alone (the JSON key table, a template):
//   template <> struct EnumNames<BreakerPhase>
//   {
//       static constexpr const char *const names[] = {"closed", "open", "half-open"};
//   };
// and then enumName(BreakerPhase::Open), enumFromName<BreakerPhase>(u"open").
template <typename Enum> struct EnumNames;

template <typename Enum>
concept HasEnumNames = requires
{
    EnumNames<Enum>::names;
};

template <HasEnumNames Enum> QString enumName(Enum value)
{
    return enumName(EnumNames<Enum>::names, value);
}

template <HasEnumNames Enum> std::optional<Enum> enumFromName(QStringView name)
{
    return enumFromName<Enum>(EnumNames<Enum>::names, name);
}

} // namespace Sonde
