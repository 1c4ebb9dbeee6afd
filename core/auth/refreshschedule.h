// SPDX-License-Identifier: MIT
#pragma once

#include <QtGlobal>

namespace Sonde {

// When an access token is refreshed ahead of its expiry: 60 s before it ends, but never before
// 80% of its lifetime has passed, i.e. the later of the two. 60 s covers a refresh round trip on
// any network and clock skew, so a one-hour token is used for 59 minutes (refreshing at 80%
// would throw away twelve); for a token of a minute or two, as test servers issue, "60 s
// before" would be at issue time or soon after and refresh in a loop, so 80% bounds it: a
// 60 s token is refreshed after 48 s. Stateless.
class RefreshSchedule
{
public:
    // The time to refresh, on the same time line as `issuedAtMs`; -1 without an expiry.
    static qint64 refreshAtMs(qint64 issuedAtMs, qint64 expiresInSeconds);
};

} // namespace Sonde
