// SPDX-License-Identifier: MIT
#pragma once

#include "values/recoveryvalues.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

#include <memory>
#include <optional>

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
    QByteArray raw; // the exact frame (wire), the line (stderr, violation)
    // Lifecycle: what happened, as a kind to switch on; `event` is its name (the one a kind
    // this build does not know keeps). Violation: `event` says what broke.
    EventKind kind = EventKind::Other;
    QString event;
    QJsonObject details; // lifecycle extras, as written to the transcript
    // The supervisor's history entries also carry their typed form (details is its JSON).
    std::shared_ptr<const HistoryEvent> history;

    // A lifecycle event of a session or a transport.
    static TranscriptEvent lifecycle(qint64 timeMs, const QString &server, int generation,
                                     EventKind kind, const QJsonObject &details = {});
    // One entry of the server's history, as the supervisor records it.
    static TranscriptEvent fromHistory(const HistoryEvent &history, const QString &server,
                                       int generation);
    static QString directionName(Direction d);
    // One JSON Lines record: {"t","server","gen","dir", "msg" (parsed JSON) | "line" | ...}
    QJsonObject toJson() const;
    // The event a record (toJson's, as the history and transcript files keep it) stands for,
    // so what reads a recording works on the same type as what watches a live session. The
    // frame comes back compact (the record holds it parsed, not as sent); a history entry's
    // details get their typed form again.
    static TranscriptEvent fromJson(const QJsonObject &record);
    static std::optional<Direction> directionFromName(QStringView name);
};

using TranscriptBatch = QList<TranscriptEvent>;

} // namespace Sonde

// Relocatable: every member is (Qt's implicitly shared types, and std::shared_ptr, two
// pointers with no pointer into itself), so a growing transcript is moved with memmove/
// realloc instead of 100,000 move constructions on the GUI thread in one go.
Q_DECLARE_TYPEINFO(Sonde::TranscriptEvent, Q_RELOCATABLE_TYPE);
Q_DECLARE_METATYPE(Sonde::TranscriptEvent)
Q_DECLARE_METATYPE(Sonde::TranscriptBatch)
