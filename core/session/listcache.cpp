// SPDX-License-Identifier: MIT
#include "session/listcache.h"

#include "config/serverconfig.h"
#include "session/sessionera.h"
#include "session/sessionhost.h"
#include "session/sessionlimits.h"
#include "util/clock.h"

using namespace Qt::StringLiterals;

namespace Sonde {

QJsonArray ListCache::cached(const QString &method, bool justRead) const
{
    // Hints come from the 2026-07-28 era alone, and go with its connection.
    if (!justRead && m_hints.value(method).isStaleAt(m_host.clock().nowMs()))
        return {}; // stale by the server's own word: readers fetch it again
    return m_items.value(method);
}

void ListCache::noteHints(const QString &method, const QJsonObject &result)
{
    const QJsonValue ttl = result.value("ttlMs"_L1);
    const QJsonValue scope = result.value("cacheScope"_L1);
    if (ttl.isUndefined() && scope.isUndefined())
        return;
    CacheHint hint;
    hint.fetchedMs = m_host.clock().nowMs();
    if (ttl.isDouble())
        hint.ttlMs = ttl.toInteger();
    if (scope.isString())
        hint.cacheScope = scope.toString();
    m_hints.insert(method, hint);
}

void ListCache::refresh(const QString &method)
{
    // Only lists someone has fetched are cached; a change before that costs nothing.
    if (!m_items.contains(method) || !m_host.isReady())
        return;
    if (m_refreshes.contains(method)) {
        // The list in flight may predate this change: fetch once more when it is in.
        m_refreshAgain.insert(method);
        return;
    }
    m_refreshes.insert(method,
                       ListFetcher(method, method + u" refresh"_s, {}, true,
                                   {SessionLimits::MaxPages, SessionLimits::MaxCachedItems}));
    sendRefreshPage(method);
}

void ListCache::sendRefreshPage(const QString &method)
{
    m_host.sendRequest(method, m_refreshes.value(method).pageParams(),
                       m_host.config().requestTimeoutMs, {},
                       [this, method](const JsonRpcMessage &r, const Error &e) {
                           auto it = m_refreshes.find(method);
                           if (it == m_refreshes.end())
                               return;
                           if (e.isError()) {
                               m_refreshes.erase(it);
                               m_refreshAgain.remove(method);
                               return;
                           }
                           const ListFetcher::Step step = it->addPage(r.result().toObject());
                           if (step == ListFetcher::Step::NextPage) {
                               sendRefreshPage(method);
                               return;
                           }
                           // A misbehaving server: keep what came, say why it stopped.
                           if (step == ListFetcher::Step::Stopped)
                               m_host.recordViolation(it->error().message());
                           m_host.era().listRead(method, r.result().toObject());
                           const QJsonArray items = method == "tools/list"_L1
                                                        ? m_host.era().acceptTools(it->items())
                                                        : it->items();
                           m_refreshes.erase(it);
                           m_items.insert(method, items);
                           m_host.announceList(method, items);
                           if (m_refreshAgain.remove(method))
                               refresh(method);
                       });
}

} // namespace Sonde
