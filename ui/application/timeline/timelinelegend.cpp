// SPDX-License-Identifier: MIT
#include "application/timeline/timelinelegend.h"
#include "util/durationtext.h"

#include "application/transcript/rev20260728eventsummary.h"
#include "application/transcript/transcriptstore.h"
#include "util/enumnames.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

using Direction = TranscriptEvent::Direction;
using Outcome = TimelineLayout::Outcome;
using MarkerKind = TimelineLayout::MarkerKind;

// One row per enum value, in declaration order (util/enumnames.h): the colours and names
// cannot fall out of step with the enums.
const char *const OutcomeNames[] = {"ok",          "tool error", "JSON-RPC error",    "HTTP error",
                                    "cancelled",   "timed out",  "outcome uncertain", "sent again",
                                    "no response", "open"};
const char *const OutcomeDescriptions[] = {
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend", "The server answered with a result."),
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend",
                      "The server answered, and the tool reported a failure (isError)."),
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend", "The server answered with a JSON-RPC error."),
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend",
                      "The server answered the request with an HTTP error status."),
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend",
                      "Cancelled: notifications/cancelled was sent; the bar ends there."),
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend",
                      "No answer within the call's timeout; the bar ends at the timeout."),
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend",
                      "The session failed after the call was sent, and it was not sent again: "
                      "it may or may not have taken effect."),
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend",
                      "The session failed after the call was sent; it was sent again on a new "
                      "generation (the tooltip names the new request)."),
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend",
                      "No response: the session ended (closed, failed or replaced) first."),
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend", "Still waiting for the answer."),
};
// Mid-tones, each at least 3:1 against a white and a dark base and apart from each other
// (tst_timelineoutcomes checks both), so bars read in the light and the dark palette.
constexpr QRgb OutcomeColors[] = {
    qRgb(0x2e, 0x85, 0x40), qRgb(0xc9, 0x6a, 0x00), qRgb(0xd4, 0x2f, 0x2f), qRgb(0xc0, 0x2e, 0xc0),
    qRgb(0x8a, 0x6d, 0x5a), qRgb(0x00, 0x85, 0x8f), qRgb(0x9a, 0x82, 0x00), qRgb(0x85, 0x60, 0xd8),
    qRgb(0x7d, 0x87, 0x90), qRgb(0x2f, 0x6f, 0xd6)};
const char *const MarkerNames[] = {
    "reconnected",       "reconnect failed", "breaker opened",
    "breaker half-open", "breaker closed",   "fault injected",
    "error classified",  "session expired",  "refused by the breaker",
    "input required",    "warning"};
const char *const MarkerDescriptions[] = {
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend",
                      "A reconnect that worked; the bracket is how long it took."),
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend", "A reconnect attempt that failed."),
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend", "The circuit breaker opened."),
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend",
                      "The circuit breaker is half-open: one probe call may go."),
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend", "The circuit breaker closed."),
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend", "A fault was injected."),
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend", "A failure was classified (not an expiry)."),
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend", "A failure was classified as an expired session."),
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend",
                      "A call the open breaker refused: it was never sent."),
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend",
                      "A call answered input_required: its next leg, joined to it on the same "
                      "row, carries the input."),
    QT_TRANSLATE_NOOP("Sonde::TimelineLegend",
                      "A warning: keepalive failed, recovery budget spent, connection lost, a "
                      "protocol violation."),
};
constexpr QRgb MarkerColors[] = {
    qRgb(0x22, 0xa3, 0x4a), qRgb(0xdc, 0x26, 0x26), qRgb(0x99, 0x1b, 0x1b), qRgb(0xd9, 0x77, 0x06),
    qRgb(0x15, 0x80, 0x3d), qRgb(0x93, 0x33, 0xea), qRgb(0x64, 0x74, 0x8b), qRgb(0xea, 0xb3, 0x08),
    qRgb(0xd1, 0x37, 0x6e), qRgb(0x08, 0x91, 0xb2), qRgb(0xea, 0x58, 0x0c)};
static_assert(std::size(OutcomeNames) == std::size(OutcomeColors));
static_assert(std::size(MarkerNames) == std::size(MarkerColors));
static_assert(std::size(OutcomeNames) == std::size(OutcomeDescriptions));
static_assert(std::size(MarkerNames) == std::size(MarkerDescriptions));
static_assert(std::size(OutcomeNames) == std::size_t(Outcome::Open) + 1);
static_assert(std::size(MarkerNames) == std::size_t(MarkerKind::Warning) + 1);

template <typename Enum, std::size_t N> QColor colorOf(const QRgb (&colors)[N], Enum value)
{
    const auto i = static_cast<std::size_t>(value);
    return i < N ? QColor(colors[i]) : QColor();
}

QString timeText(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(u"hh:mm:ss.zzz"_s);
}

QString valueText(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Bool:
        return v.toBool() ? u"true"_s : u"false"_s;
    case QJsonValue::Double: {
        const double d = v.toDouble();
        return d == double(qint64(d)) ? QString::number(qint64(d)) : QString::number(d);
    }
    case QJsonValue::String:
        return v.toString();
    case QJsonValue::Null:
        return u"null"_s;
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    case QJsonValue::Undefined:
        break;
    }
    return {};
}

} // namespace

QColor TimelineLegend::outcomeColor(Outcome outcome)
{
    return colorOf(OutcomeColors, outcome);
}

QString TimelineLegend::outcomeName(Outcome outcome)
{
    return enumName(OutcomeNames, outcome);
}

QString TimelineLegend::outcomeDescription(Outcome outcome)
{
    return tr(enumName(OutcomeDescriptions, outcome).toUtf8().constData());
}

QString TimelineLegend::markerDescription(MarkerKind kind)
{
    return tr(enumName(MarkerDescriptions, kind).toUtf8().constData());
}

QColor TimelineLegend::markerColor(MarkerKind kind)
{
    return colorOf(MarkerColors, kind);
}

QString TimelineLegend::markerName(MarkerKind kind)
{
    return enumName(MarkerNames, kind);
}

QString TimelineLegend::describe(const TimelineLayout &layout, const TimelineLayout::Hit &hit,
                                 qint64 nowMs)
{
    const TranscriptStore *store = layout.store();
    if (!store || hit.lane < 0 || hit.lane >= layout.laneCount() || hit.index < 0)
        return {};
    const QString server = layout.laneName(hit.lane);
    QStringList lines;
    switch (hit.type) {
    case TimelineLayout::HitType::None:
        return {};
    case TimelineLayout::HitType::Span: {
        const TimelineLayout::Span &s = layout.spans(hit.lane).at(hit.index);
        const TranscriptStore::Entry &request = store->entry(s.requestRow);
        if (s.track == TimelineLayout::StreamTrack) {
            // A stream, not a call: when it was open, and how it ended.
            lines << u"the session's listen stream (subscriptions/listen, id "_s + request.id +
                         u')';
            if (s.outcome == Outcome::Open)
                lines << timeText(s.startMs) + u" → open for "_s +
                             durationText(TimelineLayout::spanEndMs(s, nowMs) - s.startMs);
            else
                lines << timeText(s.startMs) + u" → "_s + timeText(s.endMs) +
                             (s.outcome == Outcome::Ok ? u" (the server ended it)"_s
                                                       : u" (broken)"_s);
            break;
        }
        // An MCP App's own call says so, as its transcript rows do.
        lines << (s.fromServer ? u"server request: "_s : QString()) + request.method + "  id "_L1 +
                     request.id +
                     (store->isAppCall(server, request) ? u"  (the MCP App's call)"_s : QString());
        if (!request.summary.isEmpty())
            lines << request.summary;
        const qint64 end = TimelineLayout::spanEndMs(s, nowMs);
        const QString range = timeText(s.startMs) + u" → "_s + timeText(s.endMs);
        const TranscriptEvent *cause = s.causeRow >= 0 ? &store->event(s.causeRow) : nullptr;
        const HistoryEvent *verdict =
            s.verdictRow >= 0 ? store->event(s.verdictRow).history() : nullptr;
        // The session's record of how the request ended without an answer.
        const auto *failed = cause ? cause->detailsAs<LifecycleDetails::RequestFailed>() : nullptr;
        const auto *timedOut =
            cause ? cause->detailsAs<LifecycleDetails::RequestTimedOut>() : nullptr;
        const auto *uncertain = verdict ? verdict->as<HistoryEvent::OutcomeUncertain>() : nullptr;
        const auto *again = verdict ? verdict->as<HistoryEvent::SentAgain>() : nullptr;
        QString detail; // the error, the reason, the cause: after the outcome's name
        switch (s.outcome) {
        case Outcome::Open:
            lines << timeText(s.startMs) + u" → (waiting)"_s;
            lines << u"open for "_s + durationText(end - s.startMs);
            break;
        case Outcome::Ok:
        case Outcome::ToolError:
        case Outcome::RpcError:
            lines << range;
            lines << u"latency "_s + durationText(s.endMs - s.startMs);
            if (s.outcome != Outcome::Ok && s.responseRow >= 0)
                detail = store->entry(s.responseRow).summary;
            break;
        case Outcome::HttpError:
            lines << range;
            if (failed) {
                lines << u"HTTP "_s + QString::number(failed->httpStatus.value_or(0)) +
                             " after "_L1 + durationText(s.endMs - s.startMs);
                detail = failed->message;
            }
            break;
        case Outcome::Cancelled: {
            lines << range;
            lines << u"cancelled after "_s + durationText(s.endMs - s.startMs);
            if (cause)
                detail = QJsonDocument::fromJson(cause->raw)
                             .object()
                             .value("params"_L1)
                             .toObject()
                             .value("reason"_L1)
                             .toString();
            break;
        }
        case Outcome::TimedOut: {
            lines << range;
            const qint64 after = timedOut ? timedOut->afterMs : -1;
            lines << u"timed out after "_s + durationText(after >= 0 ? after : s.endMs - s.startMs);
            break;
        }
        case Outcome::Uncertain:
            lines << range + (s.responseRow >= 0 ? " (its answer was not taken)"_L1
                                                 : " (no response)"_L1);
            break;
        case Outcome::Replayed:
            lines << range + (s.responseRow >= 0 ? " (its answer was not taken)"_L1
                                                 : " (no response)"_L1);
            if (again && again->newRequestId)
                lines << u"sent again as id "_s + QString::number(*again->newRequestId) +
                             " on generation "_L1 + QString::number(again->newGeneration);
            break;
        case Outcome::Unanswered:
            lines << range + " (no response)"_L1;
            if (failed)
                detail = failed->message;
            break;
        }
        // A multi round-trip call: which leg this is, how it went on, and the call's outcome.
        const int last = layout.lastLegIndex(hit.lane, hit.index);
        const TimelineLayout::Span &lastLeg = layout.spans(hit.lane).at(last);
        const bool waitsForInput = s.outcome == Outcome::Open && s.responseRow >= 0;
        if (s.leg > 0 || s.nextLegRow >= 0 || waitsForInput) {
            lines << u"multi round-trip call: leg %1 of %2%3"_s.arg(s.leg + 1)
                         .arg(lastLeg.leg + 1)
                         .arg(waitsForInput ||
                                      (lastLeg.outcome == Outcome::Open && lastLeg.responseRow >= 0)
                                  ? u" so far"_s
                                  : QString());
            if (s.nextLegRow >= 0)
                lines << u"answered input_required; the input went as id "_s +
                             store->entry(s.nextLegRow).id;
            else if (waitsForInput)
                lines << u"answered input_required; waiting for the input"_s;
        }
        QString outcome = u"outcome: "_s + outcomeName(s.outcome);
        if (last != hit.index) {
            outcome = u"outcome of the call: "_s + outcomeName(lastLeg.outcome) +
                      " (its last leg, id "_L1 + store->entry(lastLeg.requestRow).id + u')';
            detail.clear();
        } else if (waitsForInput) {
            outcome = u"outcome: open (waiting for the input)"_s;
        }
        if (!detail.isEmpty())
            outcome += u" — "_s + detail.left(TranscriptStore::SummaryMaxChars);
        lines << outcome;
        if (uncertain || again) {
            const std::optional<QString> &why = uncertain ? uncertain->detail : again->detail;
            const std::optional<QString> &ruleName = uncertain ? uncertain->rule : again->rule;
            const QString rule = ruleName ? u" ("_s + *ruleName + u')' : QString();
            if (uncertain)
                lines << u"outcome uncertain: the session failed after it was sent"_s + rule +
                             "; not sent again"_L1;
            else if (again->newRequestId && QString::number(*again->newRequestId) == request.id &&
                     again->newGeneration == s.generation)
                lines << u"sent again for id "_s +
                             QString::number(again->call.requestId.value_or(0)) +
                             " of generation "_L1 +
                             QString::number(again->call.generation.value_or(0)) + rule;
            else
                lines << u"the session failed after it was sent"_s + rule;
            if (why && !why->isEmpty())
                lines << u"why: "_s + *why;
        }
        lines << server + ", generation "_L1 + QString::number(s.generation);
        break;
    }
    case TimelineLayout::HitType::Marker: {
        const TimelineLayout::Marker &m = layout.markers(hit.lane).at(hit.index);
        const TranscriptEvent &e = store->event(m.row);
        lines << markerName(m.kind) + "  ("_L1 +
                     (e.event.isEmpty() ? TranscriptEvent::directionName(e.direction) : e.event) +
                     u')';
        lines << timeText(m.timeMs) + "  "_L1 + server + ", generation "_L1 +
                     QString::number(e.generation);
        if (e.direction == Direction::Violation)
            lines << store->entry(m.row).summary;
        if (const std::optional<Rev20260728EventSummary> modern = Rev20260728EventSummary::of(e))
            lines << modern->summary;
        if (const auto *refused = m.kind == MarkerKind::BreakerRefused
                                      ? e.detailsAs<HistoryEvent::BreakerRefused>()
                                      : nullptr) {
            lines << u"not sent: "_s + refused->call.method +
                         (refused->call.tool ? u' ' + *refused->call.tool : QString()) +
                         ", the breaker is open"_L1;
            lines << u"retry in "_s + QString::number(refused->retryInS) + " s"_L1;
        }
        // Every key, as the transcript writes it: the listing needs no kind's struct.
        const QJsonObject details = e.details ? e.details->toJson() : QJsonObject();
        for (auto it = details.begin(); it != details.end(); ++it) {
            // The supervisor stamps its own copy with these; the row already says them.
            if (it.key() == "type"_L1 || it.key() == "t_ms"_L1)
                continue;
            lines << it.key() + ": "_L1 +
                         valueText(it.value()).left(TranscriptStore::SummaryMaxChars);
        }
        break;
    }
    case TimelineLayout::HitType::Band: {
        const TimelineLayout::Band &b = layout.bands(hit.lane).at(hit.index);
        lines << u"generation "_s + QString::number(b.generation) + "  ("_L1 + server + u')';
        const qint64 end = TimelineLayout::bandEndMs(b, nowMs);
        lines << timeText(b.startMs) + u" → "_s + (b.open ? u"now"_s : timeText(end)) + "  ("_L1 +
                     durationText(end - b.startMs) + u')';
        if (b.startRow >= 0) {
            const QString protocol =
                detailText(store->event(b.startRow), &HistoryEvent::SessionStart::protocolVersion,
                           &LifecycleDetails::Ready::protocolVersion);
            if (!protocol.isEmpty())
                lines << u"protocol "_s + protocol;
        }
        if (!b.open && b.endRow >= 0) {
            const TranscriptEvent &ender = store->event(b.endRow);
            const QString cause = detailText(ender, &HistoryEvent::SessionEnd::cause);
            lines << u"ended: "_s + ender.event + (cause.isEmpty() ? QString() : ", "_L1 + cause);
        }
        break;
    }
    }
    return lines.join(u'\n');
}

} // namespace Sonde
