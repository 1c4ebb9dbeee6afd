// SPDX-License-Identifier: MIT
#include "session/pendingrequests.h"

#include "protocol/jsonrpcmessage.h"

namespace Sonde {

static constexpr qsizetype MaxRetired = 4096;

void PendingRequests::add(const Entry &entry)
{
    const QString key = JsonRpcMessage::idKey(entry.id);
    m_entries.insert(key, entry);
    if (!entry.progressToken.isEmpty())
        m_byToken.insert(entry.progressToken, key);
}

std::optional<PendingRequests::Entry> PendingRequests::take(const QJsonValue &id)
{
    const auto it = m_entries.find(JsonRpcMessage::idKey(id));
    if (it == m_entries.end())
        return std::nullopt;
    Entry e = it.value();
    m_entries.erase(it);
    if (!e.progressToken.isEmpty())
        m_byToken.remove(e.progressToken);
    return e;
}

bool PendingRequests::wasRetired(const QJsonValue &id) const
{
    return m_retired.contains(JsonRpcMessage::idKey(id));
}

std::optional<PendingRequests::Entry> PendingRequests::retire(const QJsonValue &id)
{
    std::optional<Entry> e = take(id);
    if (e) {
        const QString key = JsonRpcMessage::idKey(id);
        m_retired.insert(key);
        m_retiredOrder.append(key);
        if (m_retiredOrder.size() > MaxRetired)
            m_retired.remove(m_retiredOrder.takeFirst());
    }
    return e;
}

bool PendingRequests::touchProgress(const QString &token, qint64 nowMs)
{
    const auto key = m_byToken.constFind(token);
    if (key == m_byToken.constEnd())
        return false;
    auto it = m_entries.find(key.value());
    if (it == m_entries.end())
        return false;
    it->lastActivityMs = nowMs;
    return true;
}

qint64 PendingRequests::deadlineOf(const Entry &e)
{
    return std::min(e.lastActivityMs + e.timeoutMs, e.sentMs + e.maxTotalMs);
}

QList<PendingRequests::Entry> PendingRequests::takeExpired(qint64 nowMs)
{
    QList<QJsonValue> ids;
    for (const Entry &e : std::as_const(m_entries))
        if (deadlineOf(e) <= nowMs)
            ids.append(e.id);
    QList<Entry> out;
    for (const QJsonValue &id : std::as_const(ids))
        if (auto e = retire(id))
            out.append(*e);
    std::sort(out.begin(), out.end(),
              [](const Entry &a, const Entry &b) { return a.sentMs < b.sentMs; });
    return out;
}

std::optional<qint64> PendingRequests::nextDeadline() const
{
    std::optional<qint64> next;
    for (const Entry &e : std::as_const(m_entries)) {
        const qint64 d = deadlineOf(e);
        if (!next || d < *next)
            next = d;
    }
    return next;
}

QList<PendingRequests::Entry> PendingRequests::takeAll()
{
    QList<Entry> out = m_entries.values();
    m_entries.clear();
    m_byToken.clear();
    std::sort(out.begin(), out.end(),
              [](const Entry &a, const Entry &b) { return a.sentMs < b.sentMs; });
    return out;
}

bool PendingRequests::contains(const QJsonValue &id) const
{
    return m_entries.contains(JsonRpcMessage::idKey(id));
}

QString PendingRequests::progressTokenOf(const QJsonValue &id) const
{
    return m_entries.value(JsonRpcMessage::idKey(id)).progressToken;
}

} // namespace Sonde
