// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace Sonde {

// What a 2026-07-28 session tells the front ends beside its state (the session snapshot's
// `subscriptions` and `cache_hints`), as values: a renamed key breaks the build, not a panel.
// JSON exists only in toJson(), where the snapshot leaves the program (the CLI, the
// transcript). Values only; any thread.

// Where the subscriptions/listen stream stands (basic/patterns/subscriptions.mdx). The two
// filters are the protocol's own objects, what the request asked for and what the server's
// acknowledgment granted, kept as the wire has them: a server may grant keys this build does
// not know.
struct ListenStatus
{
    enum class State
    {
        None,         // nothing to listen for (no listChanged, no subscription)
        Open,         // sent, not acknowledged yet
        Acknowledged, // the server said what it grants
        Ended,        // the server closed it gracefully (a complete result)
        Dropped,      // the stream broke without an answer: opened again after a delay
        Refused       // the server refused it (an error): not retried
    };

    State state = State::None;
    // The open stream's request id; undefined while none is open.
    QJsonValue id = QJsonValue(QJsonValue::Undefined);
    // Every member has an initializer, so a designated initializer may name only some of them.
    QJsonObject requested = {};
    QJsonObject granted = {}; // what the last acknowledgment granted; shown only while acknowledged
    QString reason = {};      // why it ended, dropped or was refused

    // What was asked for and not granted, in words ("promptsListChanged", or a resource's URI).
    QStringList notGranted() const;
    QJsonObject toJson() const;

    static QString stateName(State state);
    friend bool operator==(const ListenStatus &, const ListenStatus &) = default;
};

// The caching hint of one list or read (CacheableResult's ttlMs and cacheScope), and when
// the answer that carried it arrived.
struct CacheHint
{
    qint64 fetchedMs = 0;
    std::optional<qint64> ttlMs = {};
    std::optional<QString> cacheScope = {}; // the server's word ("private", "public"), as sent

    // Stale by the server's own word: read longer ago than its time to live.
    bool isStaleAt(qint64 nowMs) const { return ttlMs && nowMs > fetchedMs + *ttlMs; }
    QJsonObject toJson() const;

    friend bool operator==(const CacheHint &, const CacheHint &) = default;
};

// The hints by the method whose answer carried them ("tools/list", "server/discover"...).
using CacheHints = QMap<QString, CacheHint>;
QJsonObject cacheHintsToJson(const CacheHints &hints);

} // namespace Sonde
