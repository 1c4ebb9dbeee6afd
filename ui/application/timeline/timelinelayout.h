// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>

namespace Sonde {

class TranscriptStore;

// What the timeline draws, computed from a TranscriptStore without painting anything: one
// lane per server, holding the session generations as bands, the requests as spans from
// the request to its paired response (with their outcome), and the recovery events as
// markers, each list in time order so a view can find what it shows by binary search.
// The layout follows the store incrementally (rowsAppended, rowsDropped, reset): an append
// costs O(1) per row, a drop O(remaining items) once per drop chunk, like the store itself.
// Thread: GUI (the store's). Does not own the store; usually owned by the TimelineWidget.
// Emits changed() after each store change it has taken in, and lanesChanged() when a
// server got its lane.
class TimelineLayout : public QObject
{
    Q_OBJECT
public:
    // How a request ended. Ok, ToolError and RpcError come from a response; HttpError,
    // Cancelled and TimedOut from what the session recorded instead of one (request-failed,
    // notifications/cancelled, request-timed-out); Uncertain and Replayed from the verdict
    // the supervisor gave about the request (outcome-uncertain, sent-again); Unanswered when
    // its session ended without a word about it.
    enum class Outcome : quint8
    {
        Ok,         // a result
        ToolError,  // a result with "isError": true
        RpcError,   // a JSON-RPC error response
        HttpError,  // an HTTP error status instead of an answer
        Cancelled,  // notifications/cancelled was sent for it
        TimedOut,   // no answer within its timeout
        Uncertain,  // the session failed after it was sent; not sent again
        Replayed,   // the session failed after it was sent; sent again (another span)
        Unanswered, // no response, and the session ended (closed, failed, replaced)
        Open,       // still waiting: drawn up to "now"
    };
    // The outcomes a user looks for after a fault (not plain answers or open calls): a call
    // with one of these keeps a visible mark at any zoom.
    // The 2026-07-28 subscriptions/listen stream is the session's, not a call: its span lives
    // on this track, drawn as a line along the lane's foot, never in a call's row.
    static constexpr quint8 StreamTrack = 0xff;
    static bool isNotable(Outcome outcome)
    {
        return outcome != Outcome::Ok && outcome != Outcome::Open;
    }
    enum class MarkerKind : quint8
    {
        ReconnectOk,
        ReconnectFailed,
        BreakerOpen,
        BreakerHalfOpen,
        BreakerClosed,
        Fault,
        Classification,        // classified, not expired
        ClassificationExpired, // classified as an expired session
        BreakerRefused,        // a call the open breaker refused: never sent
        InputRequired,         // a leg of a multi round-trip call answered input_required
        Warning, // keepalive failed, recovery budget spent, connection lost, violations
    };

    struct Band
    {
        int generation = 0;
        qint64 startMs = 0;
        qint64 endMs = 0;  // when !open
        int startRow = -1; // the "ready"/"session-start" row; -1 if dropped or inferred
        int endRow = -1;   // the row that ended it, while it is still in the store
        bool open = true;  // the current generation: drawn up to "now"
    };

    struct Span
    {
        qint64 startMs = 0;
        qint64 endMs = 0; // the response's time; the verdict's time for Uncertain; start while Open
        int requestRow = -1;
        int responseRow = -1;
        int generation = 0;
        Outcome outcome = Outcome::Open;
        // The event that ended it when no response did (request-failed, request-timed-out,
        // the cancel sent), and the verdict about it (outcome-uncertain, sent-again; on the
        // request sent again, the sent-again that names it). -1: none.
        int causeRow = -1;
        int verdictRow = -1;
        int replayRow = -1; // Replayed: the request row it was sent again as (drawn linked)
        // A multi round-trip call (2026-07-28, input_required) is one call with several legs,
        // each its own request and response: the request row of the next leg (-1: none, or
        // not sent yet), the first leg's request row on a later leg, and which leg this is.
        // The call is drawn on one track with its legs joined, in its last leg's outcome.
        int nextLegRow = -1;
        int firstLegRow = -1;
        quint8 leg = 0;
        quint8 track = 0;        // concurrent requests stack on up to MaxTracks tracks
        bool fromServer = false; // a server-to-client request (sampling, elicitation, ...)
    };
    static constexpr int MaxTracks = 3;

    struct Marker
    {
        qint64 timeMs = 0;
        qint64 durationMs = 0; // a reconnect: how long the attempt took
        int row = -1;
        MarkerKind kind = MarkerKind::Warning;
    };

    enum class HitType
    {
        None,
        Span,
        Marker,
        Band
    };
    struct Hit
    {
        HitType type = HitType::None;
        int lane = -1;
        int index = -1; // into spans(), markers() or bands() of that lane
        int row = -1;   // the store row to jump to (a span's request row); -1 for bands
    };

    explicit TimelineLayout(QObject *parent = nullptr);
    ~TimelineLayout() override;

    // Rebuilds from the store's current rows, then follows it. nullptr detaches.
    void setStore(TranscriptStore *store);
    // A removed server's lane goes, and so do the events its closing session still sends.
    // When a server of that name is added again, only what comes after shows.
    void setServerRemoved(const QString &server, bool removed);
    TranscriptStore *store() const;

    int laneCount() const { return int(m_lanes.size()); }
    int laneOf(const QString &server) const { return m_laneIndex.value(server, -1); }
    QString laneName(int lane) const { return m_lanes.at(lane).server; }
    const QList<Band> &bands(int lane) const { return m_lanes.at(lane).bands; }
    const QList<Span> &spans(int lane) const { return m_lanes.at(lane).spans; }
    const QList<Marker> &markers(int lane) const { return m_lanes.at(lane).markers; }

    // The time covered by the store's rows (0, 0 when empty).
    qint64 firstTimeMs() const { return m_firstMs; }
    qint64 lastTimeMs() const { return m_lastMs; }
    bool isEmpty() const { return m_lanes.isEmpty(); }
    bool hasOpenSpans() const { return m_openCount > 0; }

    // Where a span ends on screen: open spans reach "now" (never before their start).
    static qint64 spanEndMs(const Span &span, qint64 nowMs)
    {
        return span.outcome == Outcome::Open ? qMax(span.startMs, nowMs) : span.endMs;
    }
    static qint64 bandEndMs(const Band &band, qint64 nowMs)
    {
        return band.open ? qMax(band.startMs, nowMs) : band.endMs;
    }

    // The items of a lane that intersect [fromMs, toMs], in time order (spans: the closed ones
    // by start, then the open ones), found by binary search so a paint costs what it shows.
    void forEachSpan(int lane, qint64 fromMs, qint64 toMs, qint64 nowMs,
                     const std::function<void(int index, const Span &)> &visit) const;
    void forEachMarker(int lane, qint64 fromMs, qint64 toMs,
                       const std::function<void(int index, const Marker &)> &visit) const;
    void forEachBand(int lane, qint64 fromMs, qint64 toMs, qint64 nowMs,
                     const std::function<void(int index, const Band &)> &visit) const;

    // The outcome of the whole call a span is a leg of: its last leg's (Open while the call
    // waits for the input its next leg carries). A span that is no MRTR leg: its own.
    Outcome callOutcome(int lane, int index) const;
    // The index of the last leg of the call `index` is a leg of (itself when it is the last).
    int lastLegIndex(int lane, int index) const;

    // Hit testing in time: the marker nearest to timeMs within toleranceMs, the span covering
    // timeMs (widened by toleranceMs; on `track` unless it is -1; the shortest wins), or the
    // band covering timeMs. -1 when nothing is there.
    int markerAt(int lane, qint64 timeMs, qint64 toleranceMs) const;
    int spanAt(int lane, qint64 timeMs, qint64 toleranceMs, qint64 nowMs, int track = -1) const;
    int bandAt(int lane, qint64 timeMs, qint64 nowMs) const;
    // Markers first (they are small and drawn on top), then spans, then bands.
    Hit hitTest(int lane, qint64 timeMs, qint64 toleranceMs, qint64 nowMs, int track = -1) const;
    // The span or marker that shows a store row (a span shows its request and its response).
    Hit find(int storeRow) const;

    // Multi-line plain text for a tooltip: method, id, times, latency, outcome; or the event
    // and its details; or the generation.
    QString describe(const Hit &hit, qint64 nowMs) const;

    static QColor outcomeColor(Outcome outcome);
    static QString outcomeName(Outcome outcome);
    static QColor markerColor(MarkerKind kind);
    static QString markerName(MarkerKind kind);

Q_SIGNALS:
    void changed();
    void lanesChanged();

private:
    struct Lane
    {
        QString server;
        QList<Band> bands;
        QList<Span> spans;
        // Running maximum of the spans' ends (an open span counts with its start): it never
        // decreases, so the first span that may reach into a time range is a binary search.
        QList<qint64> maxEnd;
        int maxEndDirtyFrom = -1;
        QList<Marker> markers;
        // The request rows of the open spans (what "now" stretches).
        QList<int> unresolved;
        int trackLastRow[MaxTracks] = {-1, -1, -1};
        // MRTR legs answered input_required whose next leg was not seen yet: the next leg's
        // generation and id -> the answered leg's request row.
        QHash<QString, int> awaitingLeg;
        qint64 lastMs = 0;
    };

    void rebuild();
    void onRowsAppended(int first, int last);
    void onRowsDropped(int count);
    void onReset();
    void take(int row);
    void takeLifecycle(Lane &lane, int row, qint64 t);
    void startBand(Lane &lane, int generation, int row, qint64 t);
    void endBand(Lane &lane, int row, qint64 t);
    void settleOpenSpans(Lane &lane, qint64 t);
    void takeCancel(Lane &lane, int row, qint64 t);
    void takeRequestEnd(Lane &lane, int row, qint64 t);
    void takeVerdict(Lane &lane, int row, qint64 t);
    void takeInputRequired(Lane &lane, int row, qint64 t);
    void linkLegs(Lane &lane, int index, int nextIndex);
    void close(Lane &lane, int index, Outcome outcome, qint64 t);
    // The client request of this generation with this JSON-RPC id (-1: none in the store).
    int findRequest(const Lane &lane, int generation, qint64 id, bool fromServer = false) const;
    int spanIndexOf(const Lane &lane, int requestRow) const;
    int pickTrack(const Lane &lane, qint64 t) const;
    void markDirty(Lane &lane, int spanIndex);
    void refreshMaxEnd(Lane &lane);

    QPointer<TranscriptStore> m_store;
    QList<Lane> m_lanes;
    QHash<QString, int> m_laneIndex;
    QHash<QString, qint64> m_hiddenUpTo; // server -> its events up to this time are not shown
    qint64 m_firstMs = 0;
    qint64 m_lastMs = 0;
    bool m_hasTime = false;
    int m_openCount = 0;
};

} // namespace Sonde
