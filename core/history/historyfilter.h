// SPDX-License-Identifier: MIT
#pragma once

#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

namespace Sonde {

// Which recorded events a query is about; every field left empty matches everything.
struct HistoryFilter
{
    QString server;
    qint64 sessionId = 0;
    std::optional<int> generation;
    QString direction; // "send", "recv", "stderr", "event", "violation"
    QString method;    // exact: "tools/call"
    std::optional<bool> isError;
    qint64 fromMs = 0; // inclusive; 0: no bound
    qint64 toMs = 0;   // inclusive; 0: no bound
    QString text;      // full-text: method, tool or payload text holds it
    // For the live transcript (TranscriptHistorySource):
    qint64 runId = 0;       // one recording process's events (HistoryStore::runId)
    QStringList directions; // any of these; empty: every direction
    QString methodContains; // a part of the method, any case (a response has its request's)
    qint64 afterId = 0;     // rows recorded after this one (the events table's id)
    qint64 untilId = 0;     // rows up to this one, inclusive; 0: no bound
};

// How much history is kept: forever (both 0), or the newest events within an age and/or a
// total size of their records.
struct RetentionPolicy
{
    qint64 maxAgeMs = 0;
    qint64 maxBytes = 0;
};

} // namespace Sonde

Q_DECLARE_METATYPE(Sonde::HistoryFilter)
Q_DECLARE_METATYPE(Sonde::RetentionPolicy)
