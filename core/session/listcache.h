// SPDX-License-Identifier: MIT
#pragma once

#include "session/listfetcher.h"
#include "values/sessionvalues.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QSet>
#include <QString>

namespace Sonde {

class SessionHost;

// The lists a session has read (tools, prompts, resources, templates): the items, the
// server's caching hints (ttlMs, cacheScope), and the refresh a list_changed notification
// starts. Only lists someone fetched are kept, and any number of changes during a refresh cost
// one more fetch. Thread: the session's.
class ListCache
{
public:
    explicit ListCache(SessionHost &host) : m_host(host) {}

    // Empty when the server's caching hint says the list has gone stale, unless `justRead`:
    // a list read to answer a question answers it, whatever its ttlMs (0 means "read again
    // next time", not "what was just read is wrong").
    QJsonArray cached(const QString &method, bool justRead = false) const;
    void store(const QString &method, const QJsonArray &items) { m_items.insert(method, items); }
    // A list result's ttlMs and cacheScope, when it has them.
    void noteHints(const QString &method, const QJsonObject &result);
    const CacheHints &hints() const { return m_hints; }
    // A new connection: the hints were the old server's word.
    void forgetHints() { m_hints = {}; }
    // The server said the list changed: read it again, if it was ever read.
    void refresh(const QString &method);

private:
    void sendRefreshPage(const QString &method);

    SessionHost &m_host;
    QHash<QString, QJsonArray> m_items;      // list method -> items
    QHash<QString, ListFetcher> m_refreshes; // list method -> its refresh in flight
    QSet<QString> m_refreshAgain;            // changed again while being refreshed
    CacheHints m_hints;
};

} // namespace Sonde
