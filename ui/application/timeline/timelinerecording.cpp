// SPDX-License-Identifier: MIT
#include "application/timeline/timelinerecording.h"

#include "application/transcript/transcriptpagesource.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Sonde {

TimelineRecording TimelineRecording::read(const TranscriptPageSource &source, int maxEvents)
{
    constexpr int Page = 2000;
    TimelineRecording r;
    r.total = source.count();
    const qint64 wanted = qMin<qint64>(r.total, maxEvents);
    r.events.reserve(wanted);
    while (r.events.size() < wanted) {
        const QList<QJsonObject> page =
            source.page(r.events.size(), int(qMin<qint64>(Page, wanted - r.events.size())));
        if (page.isEmpty())
            break; // fewer than counted (a retention pass in between): what there is
        for (const QJsonObject &record : page)
            r.events.append(eventOf(record));
    }
    return r;
}

TranscriptEvent TimelineRecording::eventOf(const QJsonObject &o)
{
    using D = TranscriptEvent::Direction;
    TranscriptEvent e;
    e.timeMs = o.value("t_ms"_L1).toInteger();
    e.server = o.value("server"_L1).toString();
    e.generation = o.value("gen"_L1).toInt();
    const QString dir = o.value("dir"_L1).toString();
    const QJsonValue msg = o.value("msg"_L1);
    const auto frame = [&] {
        if (msg.isObject())
            return QJsonDocument(msg.toObject()).toJson(QJsonDocument::Compact);
        if (msg.isArray())
            return QJsonDocument(msg.toArray()).toJson(QJsonDocument::Compact);
        return o.value("raw"_L1).toString().toUtf8();
    };
    if (dir == "send"_L1 || dir == "recv"_L1) {
        e.direction = dir == "send"_L1 ? D::Outgoing : D::Incoming;
        e.raw = frame();
    } else if (dir == "stderr"_L1) {
        e.direction = D::Stderr;
        e.raw = o.value("line"_L1).toString().toUtf8();
    } else if (dir == "violation"_L1) {
        e.direction = D::Violation;
        e.event = o.value("event"_L1).toString();
        e.raw = o.value("raw"_L1).toString().toUtf8();
    } else {
        e.direction = D::Lifecycle;
        e.event = o.value("event"_L1).toString();
        e.kind = eventKindFromName(e.event);
        e.details = o.value("details"_L1).toObject();
        // The supervisor's entries were written from their typed form (their "type" is the
        // event's kind): the timeline's glyphs read that form.
        if (e.details.contains("type"_L1) &&
            eventKindFromName(e.details.value("type"_L1).toString()) == e.kind)
            e.history = std::make_shared<const HistoryEvent>(HistoryEvent::fromJson(e.details));
    }
    return e;
}

} // namespace Sonde
