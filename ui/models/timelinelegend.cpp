// SPDX-License-Identifier: MIT
#include "timelinelegend.h"

#include "transcriptstore.h"
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
const char *const OutcomeNames[] = {"ok",
                                    "tool error",
                                    "JSON-RPC error",
                                    "uncertain (no answer; the session expired)",
                                    "unanswered (the session ended first)",
                                    "open"};
constexpr QRgb OutcomeColors[] = {qRgb(0x2e, 0x9e, 0x4f), qRgb(0xf0, 0x8c, 0x1a),
                                  qRgb(0xd8, 0x3a, 0x3a), qRgb(0xf5, 0xc4, 0x00),
                                  qRgb(0x9a, 0x9a, 0x9a), qRgb(0x3b, 0x82, 0xd6)};
const char *const MarkerNames[] = {"reconnected",       "reconnect failed", "breaker opened",
                                   "breaker half-open", "breaker closed",   "fault injected",
                                   "error classified",  "session expired",  "warning"};
constexpr QRgb MarkerColors[] = {
    qRgb(0x22, 0xa3, 0x4a), qRgb(0xdc, 0x26, 0x26), qRgb(0x99, 0x1b, 0x1b),
    qRgb(0xd9, 0x77, 0x06), qRgb(0x15, 0x80, 0x3d), qRgb(0x93, 0x33, 0xea),
    qRgb(0x64, 0x74, 0x8b), qRgb(0xea, 0xb3, 0x08), qRgb(0xea, 0x58, 0x0c)};
static_assert(std::size(OutcomeNames) == std::size(OutcomeColors));
static_assert(std::size(MarkerNames) == std::size(MarkerColors));
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

QString durationText(qint64 ms)
{
    if (ms < 1000)
        return QString::number(ms) + " ms"_L1;
    if (ms < 60'000)
        return QString::number(double(ms) / 1000.0, 'f', 1) + " s"_L1;
    return QString::number(ms / 60'000) + " min "_L1 + QString::number((ms % 60'000) / 1000) +
           " s"_L1;
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

QColor TimelineLegend::markerColor(MarkerKind kind)
{
    return colorOf(MarkerColors, kind);
}

QString TimelineLegend::markerName(MarkerKind kind)
{
    return enumName(MarkerNames, kind);
}

QString TimelineLegend::detailText(const TranscriptEvent &e,
                                   std::optional<QString> HistoryEvent::*field,
                                   QLatin1StringView key)
{
    if (e.history)
        return ((*e.history).*field).value_or(QString());
    return e.details.value(key).toString();
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
        lines << (s.fromServer ? u"server request: "_s : QString()) + request.method + "  id "_L1 +
                     request.id;
        if (!request.summary.isEmpty())
            lines << request.summary;
        const qint64 end = TimelineLayout::spanEndMs(s, nowMs);
        switch (s.outcome) {
        case TimelineLayout::Outcome::Open:
            lines << timeText(s.startMs) + u" → (waiting)"_s;
            lines << u"open for "_s + durationText(end - s.startMs);
            break;
        case TimelineLayout::Outcome::Ok:
        case TimelineLayout::Outcome::ToolError:
        case TimelineLayout::Outcome::RpcError:
            lines << timeText(s.startMs) + u" → "_s + timeText(s.endMs);
            lines << u"latency "_s + durationText(s.endMs - s.startMs);
            break;
        case TimelineLayout::Outcome::Uncertain:
        case TimelineLayout::Outcome::Unanswered:
            lines << timeText(s.startMs) + u" → "_s + timeText(s.endMs) + " (no response)"_L1;
            break;
        }
        QString outcome = u"outcome: "_s + outcomeName(s.outcome);
        if ((s.outcome == TimelineLayout::Outcome::ToolError ||
             s.outcome == TimelineLayout::Outcome::RpcError) &&
            s.responseRow >= 0)
            outcome += u" — "_s + store->entry(s.responseRow).summary;
        lines << outcome;
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
        for (auto it = e.details.begin(); it != e.details.end(); ++it) {
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
            const QString protocol = detailText(
                store->event(b.startRow), &HistoryEvent::protocolVersion, "protocol_version"_L1);
            if (!protocol.isEmpty())
                lines << u"protocol "_s + protocol;
        }
        if (!b.open && b.endRow >= 0) {
            const TranscriptEvent &ender = store->event(b.endRow);
            const QString cause = detailText(ender, &HistoryEvent::cause, "cause"_L1);
            lines << u"ended: "_s + ender.event + (cause.isEmpty() ? QString() : ", "_L1 + cause);
        }
        break;
    }
    }
    return lines.join(u'\n');
}

} // namespace Sonde
