// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

namespace Sonde {

// One entry of the transcript: a wire message in either direction, a stderr line, a
// protocol violation or a lifecycle event, stamped on the engine's clock. Values only.
struct TranscriptEvent
{
    enum class Direction
    {
        Outgoing,
        Incoming,
        Stderr,
        Lifecycle,
        Violation
    };

    qint64 timeMs = 0;
    QString server;
    int generation = 0;
    Direction direction = Direction::Lifecycle;
    QByteArray raw;      // the exact frame (wire), the line (stderr, violation)
    QString event;       // lifecycle: "spawned", "ready", "closed"...; violation: what broke
    QJsonObject details; // lifecycle extras

    static QString directionName(Direction d);
    // One JSON Lines record: {"t","server","gen","dir", "msg" (parsed JSON) | "line" | ...}
    QJsonObject toJson() const;
};

using TranscriptBatch = QList<TranscriptEvent>;

} // namespace Sonde

Q_DECLARE_METATYPE(Sonde::TranscriptEvent)
Q_DECLARE_METATYPE(Sonde::TranscriptBatch)
