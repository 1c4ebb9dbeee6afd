// SPDX-License-Identifier: MIT
#include "session/sessionsnapshot.h"

#include "util/enumnames.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Sonde {

QString SessionSnapshot::stateName(State state)
{
    static const char *const names[] = {"idle",    "starting", "initializing", "ready",
                                        "closing", "closed",   "failed"};
    return enumName(names, state);
}

QJsonObject SessionSnapshot::toJson() const
{
    QJsonObject o{{"server"_L1, server},
                  {"state"_L1, stateName(state)},
                  {"generation"_L1, generation},
                  {"transport"_L1, ServerConfig::routeName(route)},
                  {"transport_reason"_L1, routeReason},
                  {"protocol_version"_L1, protocolVersion},
                  {"restart_count"_L1, restartCount}};
    o.insert("session_id"_L1, sessionId.isEmpty() ? QJsonValue() : QJsonValue(sessionId));
    if (!era.isEmpty()) {
        o.insert("era"_L1, era);
        o.insert("era_reason"_L1, eraReason);
        o.insert("sessionless"_L1, sessionless);
    }
    if (!subscriptions.isEmpty())
        o.insert("subscriptions"_L1, subscriptions);
    if (!cacheHints.isEmpty())
        o.insert("cache_hints"_L1, cacheHints);
    for (auto it = transport.begin(); it != transport.end(); ++it)
        o.insert(it.key(), it.value());
    if (lastError.isError())
        o.insert("last_error"_L1, lastError.toJson());
    if (!armedFaults.isEmpty())
        o.insert("armed_faults"_L1, QJsonArray::fromStringList(armedFaults));
    if (!droppedFaults.isEmpty())
        o.insert("dropped_faults"_L1, QJsonArray::fromStringList(droppedFaults));
    if (recovery) {
        const QJsonObject r = recovery->toJson();
        for (auto it = r.begin(); it != r.end(); ++it)
            o.insert(it.key(), it.value());
    }
    return o;
}

} // namespace Sonde
