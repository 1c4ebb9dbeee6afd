// SPDX-License-Identifier: MIT
#pragma once

#include <QtGlobal>

namespace Sonde::SessionLimits {

// How far a session follows a server's pagination before it stops and says so.
inline constexpr int MaxPages = 10'000;
// The session's own cache stops there: a user's list call takes what it asked for.
inline constexpr qsizetype MaxCachedItems = 1'000'000;
// How many input rounds in a row a 2026-07-28 call may ask for.
inline constexpr int MaxInputRounds = 8;

} // namespace Sonde::SessionLimits
