// SPDX-License-Identifier: MIT
#include "values/sessionvalues.h"

#include "util/enumnames.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Sonde {

static const char *const kListenStateNames[] = {"none",  "open",    "acknowledged",
                                                "ended", "dropped", "refused"};

QString ListenStatus::stateName(State state)
{
    return enumName(kListenStateNames, state);
}

QStringList ListenStatus::notGranted() const
{
    QStringList missing;
    for (auto it = requested.begin(); it != requested.end(); ++it) {
        if (it.key() == "resourceSubscriptions"_L1) {
            const QJsonArray grantedUris = granted.value(it.key()).toArray();
            for (const QJsonValue &uri : it.value().toArray())
                if (!grantedUris.contains(uri))
                    missing.append(uri.toString());
        } else if (!granted.value(it.key()).toBool()) {
            missing.append(it.key());
        }
    }
    return missing;
}

QJsonObject ListenStatus::toJson() const
{
    QJsonObject o{{"state"_L1, stateName(state)}};
    if (!id.isUndefined())
        o.insert("id"_L1, id);
    if (!requested.isEmpty())
        o.insert("requested"_L1, requested);
    if (state == State::Acknowledged) {
        o.insert("granted"_L1, granted);
        if (const QStringList missing = notGranted(); !missing.isEmpty())
            o.insert("not_granted"_L1, QJsonArray::fromStringList(missing));
    }
    if (!reason.isEmpty())
        o.insert("reason"_L1, reason);
    return o;
}

QJsonObject CacheHint::toJson() const
{
    QJsonObject o{{"fetched_ms"_L1, fetchedMs}};
    if (ttlMs)
        o.insert("ttl_ms"_L1, *ttlMs);
    if (cacheScope)
        o.insert("cache_scope"_L1, *cacheScope);
    return o;
}

QJsonObject cacheHintsToJson(const CacheHints &hints)
{
    QJsonObject o;
    for (auto it = hints.begin(); it != hints.end(); ++it)
        o.insert(it.key(), it->toJson());
    return o;
}

} // namespace Sonde
