// SPDX-License-Identifier: MIT
#include "transcript/transcriptevent.h"

#include "util/enumnames.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {
const char *const DirectionNames[] = {"send", "recv", "stderr", "event", "violation"};
}

TranscriptEvent TranscriptEvent::lifecycle(qint64 timeMs, const QString &server, int generation,
                                           LifecycleDetails details)
{
    TranscriptEvent e;
    e.timeMs = timeMs;
    e.server = server;
    e.generation = generation;
    e.direction = Direction::Lifecycle;
    e.kind = details.kind();
    e.event = details.name();
    e.details = std::make_shared<const LifecycleDetails>(std::move(details));
    return e;
}

TranscriptEvent TranscriptEvent::fromHistory(const HistoryEvent &history, const QString &server,
                                             int generation)
{
    return lifecycle(history.timeMs, server, generation, history);
}

QString TranscriptEvent::directionName(Direction d)
{
    return enumName(DirectionNames, d);
}

std::optional<TranscriptEvent::Direction> TranscriptEvent::directionFromName(QStringView name)
{
    return enumFromName<Direction>(DirectionNames, name);
}

TranscriptEvent TranscriptEvent::fromJson(const QJsonObject &record)
{
    TranscriptEvent e;
    e.timeMs = record.value("t_ms"_L1).toInteger();
    e.server = record.value("server"_L1).toString();
    e.generation = record.value("gen"_L1).toInt();
    e.direction =
        directionFromName(record.value("dir"_L1).toString()).value_or(Direction::Lifecycle);
    switch (e.direction) {
    case Direction::Outgoing:
    case Direction::Incoming: {
        const QJsonValue msg = record.value("msg"_L1);
        e.raw = msg.isObject()  ? QJsonDocument(msg.toObject()).toJson(QJsonDocument::Compact)
                : msg.isArray() ? QJsonDocument(msg.toArray()).toJson(QJsonDocument::Compact)
                                : record.value("raw"_L1).toString().toUtf8();
        break;
    }
    case Direction::Stderr:
        e.raw = record.value("line"_L1).toString().toUtf8();
        break;
    case Direction::Violation:
        e.event = record.value("event"_L1).toString();
        e.raw = record.value("raw"_L1).toString().toUtf8();
        break;
    case Direction::Lifecycle:
        e.event = record.value("event"_L1).toString();
        e.kind = eventKindFromName(e.event);
        e.details = std::make_shared<const LifecycleDetails>(
            LifecycleDetails::fromJson(e.event, record.value("details"_L1).toObject()));
        break;
    }
    return e;
}

QJsonObject TranscriptEvent::toJson() const
{
    QJsonObject o{
        {"t"_L1, QDateTime::fromMSecsSinceEpoch(timeMs, Qt::UTC).toString(Qt::ISODateWithMs)},
        {"t_ms"_L1, timeMs},
        {"server"_L1, server},
        {"gen"_L1, generation},
        {"dir"_L1, directionName(direction)}};
    switch (direction) {
    case Direction::Outgoing:
    case Direction::Incoming: {
        const QJsonDocument doc = QJsonDocument::fromJson(raw);
        if (doc.isObject())
            o.insert("msg"_L1, doc.object());
        else if (doc.isArray())
            o.insert("msg"_L1, doc.array());
        else
            o.insert("raw"_L1, QString::fromUtf8(raw));
        break;
    }
    case Direction::Stderr:
        o.insert("line"_L1, QString::fromUtf8(raw));
        break;
    case Direction::Violation:
        o.insert("event"_L1, event);
        o.insert("raw"_L1, QString::fromUtf8(raw.left(4096)));
        if (raw.size() > 4096)
            o.insert("raw_bytes"_L1, raw.size());
        break;
    case Direction::Lifecycle:
        o.insert("event"_L1, event);
        if (const QJsonObject d = details ? details->toJson() : QJsonObject(); !d.isEmpty())
            o.insert("details"_L1, d);
        break;
    }
    return o;
}

} // namespace Sonde
