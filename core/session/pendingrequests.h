// SPDX-License-Identifier: MIT
#pragma once

#include <QHash>
#include <QJsonValue>
#include <QList>
#include <QSet>
#include <QString>

#include <optional>

namespace Sonde {

// The requests a session has sent and not yet seen answered, with their deadlines.
// Pure bookkeeping on an injected notion of "now" (milliseconds): the session asks for the
// next deadline to arm one timer, and for the expired requests when it fires, so timeout
// and progress logic is tested without sleeping. Thread: the owning session's.
class PendingRequests
{
public:
    struct Entry
    {
        QJsonValue id;
        QString method;
        QString progressToken; // empty when none was sent
        qint64 sentMs = 0;
        qint64 lastActivityMs = 0;
        qint64 timeoutMs = 0;
        qint64 maxTotalMs = 0;
        quint64 tag = 0; // the owner's handle for the callback
    };

    void add(const Entry &entry);
    // Removes and returns the entry answered by `id`; nullopt for an unknown id.
    std::optional<Entry> take(const QJsonValue &id);
    // True when `id` belonged to a request that timed out or was cancelled: its late answer
    // is expected and ignored rather than reported as a protocol violation.
    bool wasRetired(const QJsonValue &id) const;
    // Marks a request as abandoned by the client (cancel); returns it.
    std::optional<Entry> retire(const QJsonValue &id);
    // A progress notification restarts the request's timeout; false for unknown tokens.
    bool touchProgress(const QString &token, qint64 nowMs);
    // Removes and returns every request whose timeout or total cap has passed at `nowMs`.
    QList<Entry> takeExpired(qint64 nowMs);
    // The earliest moment a request expires, if any is pending.
    std::optional<qint64> nextDeadline() const;
    QList<Entry> takeAll();

    int size() const { return int(m_entries.size()); }
    bool isEmpty() const { return m_entries.isEmpty(); }
    bool contains(const QJsonValue &id) const;
    // The progress token the request carried (empty: none, or not pending).
    QString progressTokenOf(const QJsonValue &id) const;

    static qint64 deadlineOf(const Entry &e);

private:
    QHash<QString, Entry> m_entries;   // idKey -> entry
    QHash<QString, QString> m_byToken; // progress token -> idKey
    QSet<QString> m_retired;           // idKeys whose answers no longer matter
    QList<QString> m_retiredOrder;     // bounded memory of retired ids
};

} // namespace Sonde
