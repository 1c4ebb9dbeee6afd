// SPDX-License-Identifier: MIT
#pragma once

#include "values/lifecycledetails.h"
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
    // Lifecycle: what the event says beyond its kind, typed (a supervisor's history entry is
    // one of its alternatives); null for the other directions. Shared: a copy of the event
    // (the store's, a batch's) does not copy it, and an event stays small.
    std::shared_ptr<const LifecycleDetails> details;

    // The supervisor's history entry this event is, else null.
    const HistoryEvent *history() const { return details ? details->as<HistoryEvent>() : nullptr; }
    // The details when they are a T, else null. T is a LifecycleDetails alternative or a
    // HistoryEvent body (then the event is a history entry of that kind).
    template <typename T> const T *detailsAs() const
    {
        if constexpr (LifecycleDetails::Holds<T>) {
            return details ? details->as<T>() : nullptr;
        } else {
            const HistoryEvent *h = history();
            return h ? h->as<T>() : nullptr;
        }
    }

    // A lifecycle event of a session, a transport or the supervisor: its kind is its
    // details'.
    static TranscriptEvent lifecycle(qint64 timeMs, const QString &server, int generation,
                                     LifecycleDetails details);
    // One entry of the server's history, as the supervisor records it.
    static TranscriptEvent fromHistory(const HistoryEvent &history, const QString &server,
                                       int generation);
    static QString directionName(Direction d);
    // One JSON Lines record: {"t","server","gen","dir", "msg" (parsed JSON) | "line" | ...}
    QJsonObject toJson() const;
    // The event a record (toJson's, as the history and transcript files keep it) stands for,
    // so what reads a recording works on the same type as what watches a live session. The
    // frame comes back compact (the record holds it parsed, not as sent); the details get
    // their typed form again.
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
