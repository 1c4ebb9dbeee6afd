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
                                           EventKind kind, const QJsonObject &details)
{
    TranscriptEvent e;
    e.timeMs = timeMs;
    e.server = server;
    e.generation = generation;
    e.direction = Direction::Lifecycle;
    e.kind = kind;
    e.event = eventKindName(kind);
    e.details = details;
    return e;
}

TranscriptEvent TranscriptEvent::fromHistory(const HistoryEvent &history, const QString &server,
                                             int generation)
{
    TranscriptEvent e =
        lifecycle(history.timeMs, server, generation, history.kind, history.toJson());
    e.history = std::make_shared<const HistoryEvent>(history);
    return e;
}

QString TranscriptEvent::directionName(Direction d)
{
    return enumName(DirectionNames, d);
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
        if (!details.isEmpty())
            o.insert("details"_L1, details);
        break;
    }
    return o;
}

} // namespace Sonde
