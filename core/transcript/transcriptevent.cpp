// SPDX-License-Identifier: MIT
#include "transcript/transcriptevent.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Sonde {

QString TranscriptEvent::directionName(Direction d)
{
    switch (d) {
    case Direction::Outgoing:
        return u"send"_s;
    case Direction::Incoming:
        return u"recv"_s;
    case Direction::Stderr:
        return u"stderr"_s;
    case Direction::Lifecycle:
        return u"event"_s;
    case Direction::Violation:
        return u"violation"_s;
    }
    return {};
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
