// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "protocol/error.h"
#include "protocol/rev20260728.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace Sonde {

class JsonRpcMessage;

// What the answer to the server/discover probe says about the server's era
// (basic/versioning.mdx, "Backward Compatibility"): a DiscoverResult or a recognised
// 2026-07-28 error means that revision; any other error, an HTTP 4xx without such an error
// body, or no answer in time means the initialize handshake. The fallback is never keyed to
// one error code. What the setting allows decides the rest: `2026-07-28` never falls back,
// and says why it cannot go on;
// neither does a probe sent after the handshake was refused (auto over stdio).
// Pure function; any thread.
class EraProbe
{
public:
    struct Decision
    {
        enum class Next
        {
            Revision,   // the era speaking `version`; the discover result is in `discover`
            Initialize, // run the initialize handshake
            Fail        // `error` says why, naming the versions on both sides
        };
        Next next = Next::Fail;
        QString version;
        QString reason;
        QStringList offered; // what the server said it supports, when it said
        QJsonObject discover;
        Error error;
    };

    // `initializeRefusal`: the server already refused the initialize handshake (auto over
    // stdio asks it first), so there is nothing to fall back to. `revisions`: the versions
    // the probe may choose, in Sonde's order of preference (the session's eras say which).
    static Decision decide(ServerConfig::Era setting, const JsonRpcMessage &response,
                           const Error &error, const Error &initializeRefusal = {},
                           const QStringList &revisions = Rev20260728::supportedProtocolVersions());
};

} // namespace Sonde
