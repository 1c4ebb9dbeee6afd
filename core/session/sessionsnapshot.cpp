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

QString SessionSnapshot::eraName() const
{
    return era ? ServerConfig::eraName(*era) : QString();
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
    if (era) {
        o.insert("era"_L1, ServerConfig::eraName(*era));
        o.insert("era_reason"_L1, eraReason);
        o.insert("sessionless"_L1, sessionless);
    }
    if (subscriptions)
        o.insert("subscriptions"_L1, subscriptions->toJson());
    if (!cacheHints.isEmpty())
        o.insert("cache_hints"_L1, cacheHintsToJson(cacheHints));
    const QJsonObject details = transport.toJson();
    for (auto it = details.begin(); it != details.end(); ++it)
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
