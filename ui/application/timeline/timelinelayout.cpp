// SPDX-License-Identifier: MIT
// About 800 lines, on purpose: what is left after the names, colours and tooltips moved to
// TimelineLegend is the incremental building (append, drop, reset; how a request ends: its
// response, a cancel, a failure, a timeout, a verdict; the legs of a multi round-trip call)
// and the binary-search queries, and both keep one private invariant, each lane's running
// maximum of span ends (maxEnd, maxEndDirtyFrom). Splitting them would expose that index to
// a second class.
#include "application/timeline/timelinelayout.h"

#include "application/timeline/timelinelegend.h"
#include "application/transcript/transcriptstore.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>

#include <algorithm>
#include <limits>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

using Direction = TranscriptEvent::Direction;

// Only error responses are parsed again (they are rare): the store's Entry says "error" for
// both a JSON-RPC error and a tool result with isError, and the timeline colours them apart.
bool isRpcError(const QByteArray &raw)
{
    return QJsonDocument::fromJson(raw).object().value("error"_L1).isObject();
}

// The supervisor's entries carry their typed form: its body when it is a T, else null.
template <typename T> const T *historyAs(const TranscriptEvent &e)
{
    return e.detailsAs<T>();
}

QString legKey(int generation, qint64 id)
{
    return QString::number(generation) + u'#' + QString::number(id);
}

QString faultOf(const TranscriptEvent &e)
{
    return TimelineLegend::detailText(e, &HistoryEvent::Fault::description,
                                      &LifecycleDetails::Fault::description);
}

} // namespace

TimelineLayout::TimelineLayout(QObject *parent) : QObject(parent)
{
}

TimelineLayout::~TimelineLayout() = default;

void TimelineLayout::setStore(TranscriptStore *store)
{
    if (m_store == store)
        return;
    if (m_store)
        disconnect(m_store, nullptr, this, nullptr);
    m_store = store;
    if (m_store) {
        Q_ASSERT(QThread::currentThread() == m_store->thread());
        connect(m_store, &TranscriptStore::rowsAppended, this, &TimelineLayout::onRowsAppended);
        connect(m_store, &TranscriptStore::rowsDropped, this, &TimelineLayout::onRowsDropped);
        connect(m_store, &TranscriptStore::reset, this, &TimelineLayout::onReset);
        // A store destroyed under us leaves nothing to show.
        connect(m_store, &QObject::destroyed, this, &TimelineLayout::onReset);
    }
    rebuild();
}

TranscriptStore *TimelineLayout::store() const
{
    return m_store;
}

void TimelineLayout::rebuild()
{
    const bool hadLanes = !m_lanes.isEmpty();
    m_lanes.clear();
    m_laneIndex.clear();
    m_firstMs = m_lastMs = 0;
    m_hasTime = false;
    m_openCount = 0;
    if (m_store && m_store->size() > 0) {
        onRowsAppended(0, m_store->size() - 1);
        return; // it emitted changed() (and lanesChanged())
    }
    if (hadLanes)
        Q_EMIT lanesChanged();
    Q_EMIT changed();
}

void TimelineLayout::setServerRemoved(const QString &server, bool removed)
{
    if (removed) {
        m_hiddenUpTo.insert(server, std::numeric_limits<qint64>::max());
        if (m_laneIndex.contains(server))
            rebuild();
    } else if (m_hiddenUpTo.contains(server)) {
        const qint64 last = m_store && m_store->size() > 0
                                ? m_store->event(m_store->size() - 1).timeMs
                                : std::numeric_limits<qint64>::min();
        m_hiddenUpTo.insert(server, last);
    }
}

void TimelineLayout::onReset()
{
    rebuild();
}

void TimelineLayout::onRowsAppended(int first, int last)
{
    if (!m_store)
        return;
    const int lanesBefore = laneCount();
    for (int row = first; row <= last; ++row)
        take(row);
    for (Lane &lane : m_lanes)
        refreshMaxEnd(lane);
    if (laneCount() != lanesBefore)
        Q_EMIT lanesChanged();
    Q_EMIT changed();
}

void TimelineLayout::take(int row)
{
    const TranscriptEvent &e = m_store->event(row);
    if (const auto hidden = m_hiddenUpTo.constFind(e.server);
        hidden != m_hiddenUpTo.cend() && e.timeMs <= *hidden)
        return;
    auto laneIt = m_laneIndex.constFind(e.server);
    int laneNo;
    if (laneIt == m_laneIndex.cend()) {
        laneNo = laneCount();
        m_laneIndex.insert(e.server, laneNo);
        m_lanes.append(Lane{});
        m_lanes.last().server = e.server;
    } else {
        laneNo = laneIt.value();
    }
    Lane &lane = m_lanes[laneNo];
    // Items are kept in row order and searched by time, so time must not go backwards within a
    // lane. One server's events come from one clock in order; the clamp only guards against a
    // store fed from elsewhere (an imported file) and costs nothing otherwise.
    const qint64 t = qMax(e.timeMs, lane.lastMs);
    lane.lastMs = t;
    if (!m_hasTime) {
        m_firstMs = m_lastMs = t;
        m_hasTime = true;
    }
    m_firstMs = qMin(m_firstMs, t);
    m_lastMs = qMax(m_lastMs, t);

    if (e.direction == Direction::Lifecycle) {
        takeLifecycle(lane, row, t);
        return;
    }
    // The "ready" that opened this generation was dropped with the front of the store (or
    // never recorded): the band starts at the first sign of it. The initialize exchange of a
    // restart still carries the old generation, so a closed band is not reopened by it.
    if (e.generation > 0 &&
        (lane.bands.isEmpty() ||
         (!lane.bands.last().open && lane.bands.last().generation != e.generation)))
        startBand(lane, e.generation, -1, t);

    if (e.direction == Direction::Violation) {
        lane.markers.append({t, 0, row, MarkerKind::Warning});
        return;
    }
    if (e.direction != Direction::Outgoing && e.direction != Direction::Incoming)
        return;
    const TranscriptStore::Entry &entry = m_store->entry(row);
    if (!entry.isRequest && entry.method == "notifications/cancelled"_L1) {
        takeCancel(lane, row, t);
        return;
    }
    if (entry.isRequest) {
        Span span;
        span.startMs = span.endMs = t;
        span.requestRow = row;
        span.generation = e.generation;
        span.fromServer = e.direction == Direction::Incoming;
        // The next leg of a call waiting for its input goes on the call's track.
        int previousLeg = -1;
        if (!span.fromServer && !lane.awaitingLeg.isEmpty()) {
            const auto it = lane.awaitingLeg.constFind(legKey(e.generation, entry.id.toLongLong()));
            if (it != lane.awaitingLeg.cend()) {
                previousLeg = spanIndexOf(lane, it.value());
                lane.awaitingLeg.erase(it);
            }
        }
        const bool stream = !span.fromServer && entry.method == "subscriptions/listen"_L1;
        span.track = stream ? StreamTrack
                            : quint8(previousLeg >= 0 ? lane.spans.at(previousLeg).track
                                                      : pickTrack(lane, t));
        if (!stream)
            lane.trackLastRow[span.track] = row;
        lane.maxEnd.append(lane.maxEnd.isEmpty() ? t : qMax(lane.maxEnd.last(), t));
        lane.spans.append(span);
        lane.unresolved.append(row);
        ++m_openCount;
        if (previousLeg >= 0)
            linkLegs(lane, previousLeg, int(lane.spans.size() - 1));
        return;
    }
    if (!entry.isResponse || entry.pairedRow < 0)
        return;
    const int index = spanIndexOf(lane, entry.pairedRow);
    if (index < 0)
        return;
    Span &span = lane.spans[index];
    // A late answer overrides a guess (the session ended, so no answer was expected): it is
    // what really happened. It does not undo what Sonde did instead of waiting (a cancel, a
    // timeout) or an HTTP error: the call had ended there.
    if (span.outcome != Outcome::Open && span.outcome != Outcome::Unanswered)
        return;
    if (span.outcome == Outcome::Open)
        --m_openCount;
    span.endMs = qMax(span.startMs, t);
    span.responseRow = row;
    span.outcome = !entry.isError      ? Outcome::Ok
                   : isRpcError(e.raw) ? Outcome::RpcError
                                       : Outcome::ToolError;
    lane.unresolved.removeOne(span.requestRow);
    markDirty(lane, index);
}

void TimelineLayout::takeLifecycle(Lane &lane, int row, qint64 t)
{
    const TranscriptEvent &e = m_store->event(row);
    switch (e.kind) {
    case EventKind::Ready:
    case EventKind::SessionStart: {
        // The session's "ready" and the supervisor's "session-start" announce the same
        // generation; the second one finds its band already open.
        const auto *start = historyAs<HistoryEvent::SessionStart>(e);
        startBand(lane, start ? start->generation : e.generation, row, t);
        break;
    }
    case EventKind::SessionEnd:
    case EventKind::Closed:
        endBand(lane, row, t);
        settleOpenSpans(lane, t);
        break;
    case EventKind::Reconnect: {
        const auto *r = historyAs<HistoryEvent::Reconnect>(e);
        const bool ok = r && r->outcome == ReconnectOutcome::Ok;
        lane.markers.append({t, r ? qMax<qint64>(0, r->durationMs) : 0, row,
                             ok ? MarkerKind::ReconnectOk : MarkerKind::ReconnectFailed});
        break;
    }
    case EventKind::Breaker: {
        const auto *b = historyAs<HistoryEvent::Breaker>(e);
        const MarkerKind kind = b && b->to == BreakerPhase::Open     ? MarkerKind::BreakerOpen
                                : b && b->to == BreakerPhase::Closed ? MarkerKind::BreakerClosed
                                                                     : MarkerKind::BreakerHalfOpen;
        lane.markers.append({t, 0, row, kind});
        break;
    }
    case EventKind::Fault: {
        // The session records the fault as it applies it and the supervisor again with the
        // verdict ("applied"): one glyph, pointing at the fuller record.
        const QString fault = faultOf(e);
        if (!lane.markers.isEmpty()) {
            Marker &previous = lane.markers.last();
            if (previous.kind == MarkerKind::Fault && t - previous.timeMs <= 50 &&
                faultOf(m_store->event(previous.row)) == fault) {
                previous.row = row;
                previous.timeMs = t;
                return;
            }
        }
        lane.markers.append({t, 0, row, MarkerKind::Fault});
        break;
    }
    case EventKind::Classification: {
        // Only a mark: what became of the calls is said by the verdicts, one per request.
        const auto *c = historyAs<HistoryEvent::Classification>(e);
        lane.markers.append(
            {t, 0, row,
             c && c->expired ? MarkerKind::ClassificationExpired : MarkerKind::Classification});
        break;
    }
    case EventKind::RequestFailed:
    case EventKind::RequestTimedOut:
        takeRequestEnd(lane, row, t);
        break;
    case EventKind::OutcomeUncertain:
    case EventKind::SentAgain:
        takeVerdict(lane, row, t);
        break;
    case EventKind::BreakerRefused:
        lane.markers.append({t, 0, row, MarkerKind::BreakerRefused});
        break;
    case EventKind::InputRequired:
        takeInputRequired(lane, row, t);
        break;
    case EventKind::ListenDropped:
    case EventKind::RecoveryBudgetSpent:
    case EventKind::KeepaliveFailed:
    case EventKind::ConnectionLost:
    case EventKind::InitializeFailed:
        lane.markers.append({t, 0, row, MarkerKind::Warning});
        break;
    default:
        break;
    }
}

void TimelineLayout::startBand(Lane &lane, int generation, int row, qint64 t)
{
    if (!lane.bands.isEmpty()) {
        Band &last = lane.bands.last();
        // Generations only grow: the same number again is the second announcement of it (or a
        // late one after its end), never a new band.
        if (last.generation == generation)
            return;
        if (last.open) {
            last.open = false;
            last.endMs = t;
            last.endRow = row;
        }
    }
    // A new generation cannot answer the old one's requests (pairing is per generation), and
    // a verdict about the old session has been given by now.
    settleOpenSpans(lane, t);
    lane.unresolved.clear();
    Band band;
    band.generation = generation;
    band.startMs = t;
    band.startRow = row;
    lane.bands.append(band);
}

void TimelineLayout::endBand(Lane &lane, int row, qint64 t)
{
    if (lane.bands.isEmpty() || !lane.bands.last().open)
        return;
    Band &band = lane.bands.last();
    band.open = false;
    band.endMs = t;
    band.endRow = row;
}

void TimelineLayout::settleOpenSpans(Lane &lane, qint64 t)
{
    for (int requestRow : std::as_const(lane.unresolved)) {
        const int index = spanIndexOf(lane, requestRow);
        if (index < 0 || lane.spans.at(index).outcome != Outcome::Open)
            continue;
        Span &span = lane.spans[index];
        span.outcome = Outcome::Unanswered;
        span.endMs = qMax(span.startMs, t);
        --m_openCount;
        markDirty(lane, index);
    }
    lane.unresolved.clear();
}

void TimelineLayout::close(Lane &lane, int index, Outcome outcome, qint64 t)
{
    Span &span = lane.spans[index];
    if (span.outcome == Outcome::Open) {
        --m_openCount;
        span.endMs = qMax(span.startMs, t);
        lane.unresolved.removeOne(span.requestRow);
    }
    span.outcome = outcome;
    markDirty(lane, index);
}

int TimelineLayout::findRequest(const Lane &lane, int generation, qint64 id, bool fromServer) const
{
    // What a verdict or a cancel names is recent: back from the newest span, within its
    // generation (pairing is per generation, and generations only grow along a lane).
    const QString idText = QString::number(id);
    for (qsizetype i = lane.spans.size() - 1; i >= 0; --i) {
        const Span &s = lane.spans.at(i);
        if (s.generation < generation)
            break;
        if (s.generation == generation && s.fromServer == fromServer &&
            m_store->entry(s.requestRow).id == idText)
            return int(i);
    }
    return -1;
}

void TimelineLayout::takeCancel(Lane &lane, int row, qint64 t)
{
    // Cancels are rare: their frame is parsed again here. One we sent ends our request; one
    // the server sent ends its own request to us, or (as the session reads it) ours.
    const TranscriptEvent &e = m_store->event(row);
    const QJsonValue id =
        QJsonDocument::fromJson(e.raw).object().value("params"_L1).toObject().value("requestId"_L1);
    if (!id.isDouble())
        return;
    const bool sentByUs = e.direction == Direction::Outgoing;
    int index = findRequest(lane, e.generation, id.toInteger(), !sentByUs);
    if (index < 0 && !sentByUs)
        index = findRequest(lane, e.generation, id.toInteger(), false);
    if (index < 0 || lane.spans.at(index).outcome != Outcome::Open)
        return;
    lane.spans[index].causeRow = row;
    close(lane, index, Outcome::Cancelled, t);
}

void TimelineLayout::takeRequestEnd(Lane &lane, int row, qint64 t)
{
    const TranscriptEvent &e = m_store->event(row);
    const auto *failed = e.detailsAs<LifecycleDetails::RequestFailed>();
    const auto *timedOut = e.detailsAs<LifecycleDetails::RequestTimedOut>();
    const QJsonValue id = failed ? failed->id : timedOut ? timedOut->id : QJsonValue();
    if (!id.isDouble())
        return;
    const int index = findRequest(lane, e.generation, id.toInteger());
    if (index < 0 || lane.spans.at(index).outcome != Outcome::Open)
        return;
    lane.spans[index].causeRow = row;
    if (timedOut)
        close(lane, index, Outcome::TimedOut, t);
    else
        close(lane, index, failed->httpStatus ? Outcome::HttpError : Outcome::Unanswered, t);
}

void TimelineLayout::takeVerdict(Lane &lane, int row, qint64 t)
{
    const TranscriptEvent &e = m_store->event(row);
    const HistoryEvent::VerdictCall *call = e.history() ? e.history()->verdictCall() : nullptr;
    if (!call)
        return;
    const auto *again = e.history()->as<HistoryEvent::SentAgain>();
    int original = -1;
    if (call->requestId && call->generation) {
        if (const int index = findRequest(lane, *call->generation, *call->requestId); index >= 0) {
            original = index;
            Span &span = lane.spans[index];
            span.verdictRow = row;
            // A cancel or a timeout is what the user met; the verdict is added to its words.
            if (span.outcome != Outcome::Cancelled && span.outcome != Outcome::TimedOut)
                close(lane, index, again ? Outcome::Replayed : Outcome::Uncertain, t);
        }
    }
    if (again && again->newRequestId) {
        if (const int index = findRequest(lane, again->newGeneration, *again->newRequestId);
            index >= 0) {
            lane.spans[index].verdictRow = row;
            if (original >= 0)
                lane.spans[original].replayRow = lane.spans.at(index).requestRow;
        }
    }
}

void TimelineLayout::takeInputRequired(Lane &lane, int row, qint64 t)
{
    const TranscriptEvent &e = m_store->event(row);
    lane.markers.append({t, 0, row, MarkerKind::InputRequired});
    const auto *input = e.detailsAs<LifecycleDetails::InputRequired>();
    const QJsonValue id = input ? input->id : QJsonValue();
    const QJsonValue next = input ? input->nextId : QJsonValue();
    if (!id.isDouble())
        return;
    const int index = findRequest(lane, e.generation, id.toInteger());
    if (index < 0 || !next.isDouble())
        return;
    // The retry may already be on the wire (the event is written as it goes out) or come
    // later (written when the answer came, the retry once the user answered).
    const int nextIndex = findRequest(lane, e.generation, next.toInteger());
    if (nextIndex > index) {
        Span &later = lane.spans[nextIndex];
        const int oldTrack = later.track;
        later.track = lane.spans.at(index).track;
        if (lane.trackLastRow[oldTrack] == later.requestRow)
            lane.trackLastRow[oldTrack] = -1;
        lane.trackLastRow[later.track] = qMax(lane.trackLastRow[later.track], later.requestRow);
        linkLegs(lane, index, nextIndex);
        return;
    }
    // Answered, and still the call is not over: it waits (drawn up to now) for its next leg.
    Span &span = lane.spans[index];
    if (span.outcome != Outcome::Open) {
        span.outcome = Outcome::Open;
        ++m_openCount;
        lane.unresolved.append(span.requestRow);
        markDirty(lane, index);
    }
    lane.awaitingLeg.insert(legKey(e.generation, next.toInteger()), span.requestRow);
}

void TimelineLayout::linkLegs(Lane &lane, int index, int nextIndex)
{
    Span &span = lane.spans[index];
    Span &next = lane.spans[nextIndex];
    span.nextLegRow = next.requestRow;
    next.firstLegRow = span.firstLegRow >= 0 ? span.firstLegRow : span.requestRow;
    next.leg = quint8(qMin(255, span.leg + 1));
    if (span.outcome == Outcome::Open) {
        // Its answer (input_required) had come: the leg ends there, as a result.
        span.outcome = Outcome::Ok;
        span.endMs = span.responseRow >= 0
                         ? qMax(span.startMs, m_store->event(span.responseRow).timeMs)
                         : span.startMs;
        --m_openCount;
        lane.unresolved.removeOne(span.requestRow);
    }
    markDirty(lane, index);
}

TimelineLayout::Outcome TimelineLayout::callOutcome(int lane, int index) const
{
    return spans(lane).at(lastLegIndex(lane, index)).outcome;
}

int TimelineLayout::lastLegIndex(int lane, int index) const
{
    const Lane &l = m_lanes.at(lane);
    // Legs are few (one per round); a leg dropped with the store's front ends the chain.
    for (int guard = 0; guard < 256 && l.spans.at(index).nextLegRow >= 0; ++guard) {
        const int next = spanIndexOf(l, l.spans.at(index).nextLegRow);
        if (next < 0)
            break;
        index = next;
    }
    return index;
}

int TimelineLayout::spanIndexOf(const Lane &lane, int requestRow) const
{
    const auto it = std::lower_bound(lane.spans.cbegin(), lane.spans.cend(), requestRow,
                                     [](const Span &s, int r) { return s.requestRow < r; });
    if (it == lane.spans.cend() || it->requestRow != requestRow)
        return -1;
    return int(it - lane.spans.cbegin());
}

int TimelineLayout::pickTrack(const Lane &lane, qint64 t) const
{
    for (int k = 0; k < MaxTracks; ++k) {
        const int index = lane.trackLastRow[k] < 0 ? -1 : spanIndexOf(lane, lane.trackLastRow[k]);
        if (index < 0)
            return k;
        const Span &last = lane.spans.at(index);
        if (last.outcome != Outcome::Open && last.endMs <= t)
            return k;
    }
    // More concurrent calls than tracks: the last track takes the overflow (drawn overlapping).
    return MaxTracks - 1;
}

void TimelineLayout::markDirty(Lane &lane, int spanIndex)
{
    lane.maxEndDirtyFrom =
        lane.maxEndDirtyFrom < 0 ? spanIndex : qMin(lane.maxEndDirtyFrom, spanIndex);
}

void TimelineLayout::refreshMaxEnd(Lane &lane)
{
    if (lane.maxEndDirtyFrom < 0)
        return;
    // A response usually closes a recent request, so this pass is short; a call that stayed
    // open for long pays once for the spans that started after it.
    const qsizetype n = lane.spans.size();
    lane.maxEnd.resize(n);
    qint64 running = lane.maxEndDirtyFrom > 0 ? lane.maxEnd.at(lane.maxEndDirtyFrom - 1)
                                              : std::numeric_limits<qint64>::min();
    for (qsizetype i = lane.maxEndDirtyFrom; i < n; ++i) {
        const Span &s = lane.spans.at(i);
        running = qMax(running, s.outcome == Outcome::Open ? s.startMs : s.endMs);
        lane.maxEnd[i] = running;
    }
    lane.maxEndDirtyFrom = -1;
}

void TimelineLayout::onRowsDropped(int count)
{
    if (!m_store || count <= 0)
        return;
    // The store dropped its oldest `count` rows: what they started goes, what remains moves
    // up by `count` rows. Rows only ever grow along each list, so each drop is a prefix.
    m_firstMs = m_store->size() > 0 ? m_store->event(0).timeMs : 0;
    if (m_store->size() == 0) {
        m_lastMs = 0;
        m_hasTime = false;
    }
    const auto shift = [count](int &row) { row = row >= count ? row - count : -1; };
    for (Lane &lane : m_lanes) {
        auto spanEnd = std::lower_bound(lane.spans.begin(), lane.spans.end(), count,
                                        [](const Span &s, int r) { return s.requestRow < r; });
        for (auto it = lane.spans.begin(); it != spanEnd; ++it) {
            if (it->outcome == Outcome::Open)
                --m_openCount;
        }
        lane.spans.erase(lane.spans.begin(), spanEnd);
        for (Span &s : lane.spans) {
            shift(s.requestRow);
            shift(s.responseRow);
            shift(s.causeRow);
            shift(s.verdictRow);
            shift(s.replayRow);
            shift(s.nextLegRow);
            shift(s.firstLegRow);
        }
        lane.maxEndDirtyFrom = 0;
        refreshMaxEnd(lane);

        auto markerEnd = std::lower_bound(lane.markers.begin(), lane.markers.end(), count,
                                          [](const Marker &m, int r) { return m.row < r; });
        lane.markers.erase(lane.markers.begin(), markerEnd);
        for (Marker &m : lane.markers)
            shift(m.row);

        // A band goes when its end went; one that started in the dropped part stays, from
        // the oldest time still in the store.
        // (A band closed by an inferred successor has no end row; its time tells.)
        const qint64 firstMs = m_firstMs;
        lane.bands.removeIf([count, firstMs](const Band &b) {
            return !b.open && ((b.endRow >= 0 && b.endRow < count) || b.endMs < firstMs);
        });
        for (Band &b : lane.bands) {
            if (b.startRow >= 0 && b.startRow < count)
                b.startMs = qMax(b.startMs, m_firstMs);
            shift(b.startRow);
            shift(b.endRow);
        }

        lane.unresolved.removeIf([count](int r) { return r < count; });
        for (int &r : lane.unresolved)
            r -= count;
        for (int &r : lane.trackLastRow)
            shift(r);
        for (auto it = lane.awaitingLeg.begin(); it != lane.awaitingLeg.end();) {
            if (it.value() < count) {
                it = lane.awaitingLeg.erase(it);
            } else {
                it.value() -= count;
                ++it;
            }
        }
    }
    Q_EMIT changed();
}

void TimelineLayout::forEachSpan(int lane, qint64 fromMs, qint64 toMs, qint64 nowMs,
                                 const std::function<void(int, const Span &)> &visit) const
{
    const Lane &l = m_lanes.at(lane);
    const auto first = std::lower_bound(l.maxEnd.cbegin(), l.maxEnd.cend(), fromMs);
    for (qsizetype i = first - l.maxEnd.cbegin(); i < l.spans.size(); ++i) {
        const Span &s = l.spans.at(i);
        if (s.startMs > toMs)
            break;
        if (s.outcome != Outcome::Open && s.endMs >= fromMs)
            visit(int(i), s);
    }
    // Open spans all reach "now", so they are kept aside rather than in the running maximum.
    for (int requestRow : l.unresolved) {
        const int index = spanIndexOf(l, requestRow);
        if (index < 0)
            continue;
        const Span &s = l.spans.at(index);
        if (s.outcome == Outcome::Open && s.startMs <= toMs && spanEndMs(s, nowMs) >= fromMs)
            visit(index, s);
    }
}

void TimelineLayout::forEachMarker(int lane, qint64 fromMs, qint64 toMs,
                                   const std::function<void(int, const Marker &)> &visit) const
{
    const QList<Marker> &markers = m_lanes.at(lane).markers;
    // Searched by the glyph's time only: a reconnect's bracket (its duration, drawn to the
    // left) whose glyph is past the right edge is not drawn, which costs little.
    auto it = std::lower_bound(markers.cbegin(), markers.cend(), fromMs,
                               [](const Marker &m, qint64 t) { return m.timeMs < t; });
    for (; it != markers.cend() && it->timeMs <= toMs; ++it)
        visit(int(it - markers.cbegin()), *it);
}

void TimelineLayout::forEachBand(int lane, qint64 fromMs, qint64 toMs, qint64 nowMs,
                                 const std::function<void(int, const Band &)> &visit) const
{
    const QList<Band> &bands = m_lanes.at(lane).bands;
    // Bands do not overlap and only the last one can be open, so their ends are sorted too.
    auto it =
        std::lower_bound(bands.cbegin(), bands.cend(), fromMs,
                         [nowMs](const Band &b, qint64 t) { return bandEndMs(b, nowMs) < t; });
    for (; it != bands.cend() && it->startMs <= toMs; ++it)
        visit(int(it - bands.cbegin()), *it);
}

int TimelineLayout::markerAt(int lane, qint64 timeMs, qint64 toleranceMs) const
{
    if (lane < 0 || lane >= laneCount())
        return -1;
    int best = -1;
    qint64 bestDistance = std::numeric_limits<qint64>::max();
    // Ties go to the later marker: it is drawn on top.
    forEachMarker(lane, timeMs - toleranceMs, timeMs + toleranceMs,
                  [&](int index, const Marker &m) {
                      const qint64 d = qAbs(m.timeMs - timeMs);
                      if (d <= bestDistance) {
                          bestDistance = d;
                          best = index;
                      }
                  });
    return best;
}

int TimelineLayout::spanAt(int lane, qint64 timeMs, qint64 toleranceMs, qint64 nowMs,
                           int track) const
{
    if (lane < 0 || lane >= laneCount())
        return -1;
    int best = -1;
    qint64 bestLength = std::numeric_limits<qint64>::max();
    qint64 bestDistance = std::numeric_limits<qint64>::max();
    forEachSpan(
        lane, timeMs - toleranceMs, timeMs + toleranceMs, nowMs, [&](int index, const Span &s) {
            if (track >= 0 && s.track != track)
                return;
            const qint64 end = spanEndMs(s, nowMs);
            // Inside beats near; among those, the shortest (a quick call inside a slow one's time).
            const qint64 distance = timeMs < s.startMs ? s.startMs - timeMs
                                    : timeMs > end     ? timeMs - end
                                                       : 0;
            const qint64 length = end - s.startMs;
            if (distance < bestDistance || (distance == bestDistance && length < bestLength)) {
                best = index;
                bestDistance = distance;
                bestLength = length;
            }
        });
    return best;
}

int TimelineLayout::bandAt(int lane, qint64 timeMs, qint64 nowMs) const
{
    if (lane < 0 || lane >= laneCount())
        return -1;
    int found = -1;
    forEachBand(lane, timeMs, timeMs, nowMs, [&](int index, const Band &) { found = index; });
    return found;
}

TimelineLayout::Hit TimelineLayout::hitTest(int lane, qint64 timeMs, qint64 toleranceMs,
                                            qint64 nowMs, int track) const
{
    Hit hit;
    if (lane < 0 || lane >= laneCount())
        return hit;
    hit.lane = lane;
    if ((hit.index = markerAt(lane, timeMs, toleranceMs)) >= 0) {
        hit.type = HitType::Marker;
        hit.row = markers(lane).at(hit.index).row;
    } else if ((hit.index = spanAt(lane, timeMs, toleranceMs, nowMs, track)) >= 0) {
        hit.type = HitType::Span;
        hit.row = spans(lane).at(hit.index).requestRow;
    } else if ((hit.index = bandAt(lane, timeMs, nowMs)) >= 0) {
        hit.type = HitType::Band;
    } else {
        hit.lane = -1;
    }
    return hit;
}

TimelineLayout::Hit TimelineLayout::find(int storeRow) const
{
    Hit hit;
    if (!m_store || storeRow < 0 || storeRow >= m_store->size())
        return hit;
    const int lane = laneOf(m_store->event(storeRow).server);
    if (lane < 0)
        return hit;
    const Lane &l = m_lanes.at(lane);
    const TranscriptStore::Entry &entry = m_store->entry(storeRow);
    const int requestRow = entry.isResponse ? entry.pairedRow : storeRow;
    if (const int index = spanIndexOf(l, requestRow); index >= 0)
        return {HitType::Span, lane, index, requestRow};
    const auto it = std::lower_bound(l.markers.cbegin(), l.markers.cend(), storeRow,
                                     [](const Marker &m, int r) { return m.row < r; });
    if (it != l.markers.cend() && it->row == storeRow)
        return {HitType::Marker, lane, int(it - l.markers.cbegin()), storeRow};
    return hit;
}

QString TimelineLayout::describe(const Hit &hit, qint64 nowMs) const
{
    return TimelineLegend::describe(*this, hit, nowMs);
}

QColor TimelineLayout::outcomeColor(Outcome outcome)
{
    return TimelineLegend::outcomeColor(outcome);
}

QString TimelineLayout::outcomeName(Outcome outcome)
{
    return TimelineLegend::outcomeName(outcome);
}

QColor TimelineLayout::markerColor(MarkerKind kind)
{
    return TimelineLegend::markerColor(kind);
}

QString TimelineLayout::markerName(MarkerKind kind)
{
    return TimelineLegend::markerName(kind);
}

} // namespace Sonde
