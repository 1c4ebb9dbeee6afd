// SPDX-License-Identifier: MIT
#include "auth/refreshschedule.h"

#include <algorithm>

namespace Sonde {

qint64 RefreshSchedule::refreshAtMs(qint64 issuedAtMs, qint64 expiresInSeconds)
{
    if (expiresInSeconds <= 0)
        return -1;
    const qint64 lifetimeMs = expiresInSeconds * 1000;
    const qint64 atFraction = lifetimeMs * 8 / 10;
    const qint64 beforeEnd = lifetimeMs - 60'000;
    return issuedAtMs + std::max(atFraction, beforeEnd);
}

} // namespace Sonde
