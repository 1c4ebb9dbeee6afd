// SPDX-License-Identifier: MIT
#pragma once

#include "transcript/transcriptevent.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>

namespace Sonde {

// The transcript the window shows: a bounded, append-only log of TranscriptEvent values with
// a small summary per event, computed once when it arrives, so models and filters never
// parse JSON again. JSON-RPC requests are paired with their responses here (per server,
// generation and id, in the right direction) and the response gets the latency.
// When full, the oldest events are dropped in chunks (capacity / 10) so an append stays O(1)
// amortized. It is bounded in bytes too (the raw frames it holds): 200,000 events of a few
// hundred bytes fit, 200,000 answers of 50 MB would not; the newest event is always kept. Thread:
// GUI (asserted). Owned by whoever owns the transcript view; models only observe it. Emits
// rowsDropped (from the front) before rowsAppended for the same batch, and reset after clear().
// Its bounds can change at run time (setCapacity): a window whose transcript pages from the
// history keeps only a short tail here.
class TranscriptStore : public QObject
{
    Q_OBJECT
public:
    static constexpr int DefaultCapacity = 200000;
    static constexpr qint64 DefaultCapacityBytes = qint64(256) * 1024 * 1024;

    // What the views need to know about one event without parsing it again.
    struct Entry
    {
        QString method;  // request/notification method, "response #id", "batch"; empty otherwise
        QString id;      // JSON-RPC id as text, empty for notifications and non-wire events
        QString summary; // one line, at most SummaryMaxChars
        bool isError = false;  // an error response, or a result with "isError": true
        qint64 latencyMs = -1; // on a paired response: its time minus its request's
        int pairedRow = -1;    // the row of the request (on a response) or response (on a request)
        bool isRequest = false;
        bool isResponse = false;
    };
    static constexpr int SummaryMaxChars = 160;
    // Frames larger than this are summarized from a copy with each string cut to
    // SummaryStringBytes (JsonSpan::shortened): more than a summary line shows even of a
    // string written as \u escapes.
    static constexpr qsizetype SummaryWholeParseBytes = 64 * 1024;
    static constexpr qsizetype SummaryStringBytes = 4096;

    explicit TranscriptStore(int capacity = DefaultCapacity, QObject *parent = nullptr,
                             qint64 capacityBytes = DefaultCapacityBytes);

    int capacity() const { return m_capacity; }
    qint64 capacityBytes() const { return m_capacityBytes; }
    // The raw bytes held (frames, stderr lines): what the byte bound counts.
    qint64 bytes() const { return m_bytes; }
    int size() const { return int(m_events.size()); }
    // Events dropped from the front since the last clear(), and those of a batch larger than
    // the store it never held: what the store does not hold.
    qint64 droppedCount() const { return m_dropped; }
    // The event in `row`'s number, unique for the store's life: it stays the event's while
    // the front is dropped, and clear() does not start the count again. So what points at an
    // event later (a doctor finding) keeps a number and finds its row with rowOfSequence().
    qint64 sequence(int row) const { return m_cleared + m_dropped + row; }
    // The row of the event numbered `sequence`; -1 once it is dropped or cleared (or before it
    // came).
    int rowOfSequence(qint64 sequence) const;
    // New bounds from now on; when lower than what is held, the oldest events go at once
    // (rowsDropped, pairs fixed), the newest always kept.
    void setCapacity(int capacity, qint64 capacityBytes);
    const TranscriptEvent &event(int row) const { return m_events.at(row); }
    // Every event held, oldest first. Implicitly shared: a copy handed to another thread (an
    // export) costs nothing here; the next change copies the list once, not its payloads.
    const TranscriptBatch &events() const { return m_events; }
    const Entry &entry(int row) const { return m_entries.at(row); }
    // The row of the newest tools/call request of `tool` sent to `server`; -1 when none is held.
    int lastToolCall(const QString &server, const QString &tool) const;
    // The servers seen since the last clear(), in order of first appearance.
    QStringList servers() const { return m_servers; }

    void append(const TranscriptBatch &batch);
    void clear();

    // The one-line summary the store would keep for `e` (e.g. for a masked copy of an event:
    // masking the kept summary would miss a secret that its cut at SummaryMaxChars split).
    static QString summaryOf(const TranscriptEvent &e);
    // The entry the store would keep for `e`, unpaired (no latency, no paired row): what a
    // row read from a recording shows.
    static Entry entryOf(const TranscriptEvent &e);

    // The request `id` (its text, as Entry::id) of `server` was an MCP App's, not the user's:
    // its request and answer say so. Kept for the last MaxAppCalls such calls.
    void markAppCall(const QString &server, const QString &id);
    bool isAppCall(const QString &server, const Entry &entry) const;
    static constexpr int MaxAppCalls = 10000;

Q_SIGNALS:
    void rowsAppended(int first, int last);
    void appCallsMarked();
    // After rowsAppended: the whole batch as it came, batch[i] numbered firstSequence + i.
    // For what must see every event (the doctor's live lints), even those of a batch larger
    // than the store, which it never held (their numbers have no row). The batch is the
    // caller's, shared: a receiver that keeps it copies nothing.
    void batchAppended(const Sonde::TranscriptBatch &batch, qint64 firstSequence);
    void rowsDropped(int count);
    void reset();
    void serversChanged();

private:
    void dropFront(int count);
    int overBytes(qint64 incomingBytes) const;
    static Entry summarize(const TranscriptEvent &e, QString *pairKey);
    void pair(int row, const QString &pairKey);

    QSet<QString> m_appCalls; // server + '\n' + id
    QList<QString> m_appCallOrder;
    int m_capacity;
    int m_dropChunk;
    qint64 m_capacityBytes;
    qint64 m_bytes = 0;
    QList<TranscriptEvent> m_events;
    QList<Entry> m_entries;
    // Rows shift when the front is dropped; pending requests are kept by sequence number
    // (row + m_dropped) so the map needs no rewrite on a drop, only pruning.
    qint64 m_dropped = 0;
    qint64 m_cleared = 0; // events before the last clear(), for sequence()
    QHash<QString, qint64> m_pending;
    QStringList m_servers;
    QSet<QString> m_serverSet;
};

} // namespace Sonde
