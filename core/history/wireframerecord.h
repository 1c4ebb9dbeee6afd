// SPDX-License-Identifier: MIT
#pragma once

#include "transcript/transcriptevent.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <optional>

namespace Sonde {

class Redactor;

// What the history keeps of one wire frame (a message sent or received), read off its bytes
// in one pass by JsonScanner's rules, without a QJsonObject. The general path
// (TranscriptEvent::toJson, Redactor::apply, QJsonDocument::toJson) parses the frame, builds
// the record, looks at every string and writes it all again: two thirds of what a batch cost
// in sonde-bench-history. read() answers only for a frame whose record that path would keep
// as it is, and says no (nullopt) to every other, which then takes the general path:
// - not one JSON object as QJsonDocument reads it (a batch, an array, a broken frame);
// - a byte below 0x20 (a line break between tokens would split a JSON Lines record, one
//   inside a string is written escaped by the general path);
// - an escape QJsonDocument writes another way (\u, \/, ...) so the full-text index sees the
//   same words either way;
// - a string value a secret rule might match (Redactor::mayHoldSecret), keys left alone as
//   Redactor::apply leaves them;
// - a top-level method, id, params, result or error twice (which one Qt keeps is its own).
// The record it makes is the general path's, byte for byte, except that "msg" is the frame
// as it came (its key order, its numbers as written): tst_wireframerecord compares them.
class WireFrameRecord
{
public:
    QString method;          // "method", when a string
    QString requestId;       // "id": a string as it is, a number as HistoryStore's idText makes it
    QString tool;            // params.name (tools/call, prompts/get) or params.uri (resources/read)
    QString protocolVersion; // result.protocolVersion, when a string
    bool isError = false;    // an "error" member, or result.isError true
    bool isResponse = false; // an id, no method, and a result or an error
    QByteArray record;       // the JSON Lines record

    // `redactor` null: nothing would be masked.
    static std::optional<WireFrameRecord> read(const TranscriptEvent &event,
                                               const Redactor *redactor);

    // The wire event a JSON Lines record of today's shape holds, read without parsing it:
    // exactly the keys dir (send or recv), gen, msg (an object), server, t and t_ms, with t
    // the ISO form of t_ms, so that TranscriptEvent::toJson of the event is the record as
    // QJsonDocument reads it. nullopt for any other line (the importer parses those).
    static std::optional<TranscriptEvent> eventOfRecordLine(QByteArrayView line);

    // QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs), without
    // QDateTime's calendar machinery for the years 1970 to 9999.
    static QByteArray isoTime(qint64 ms);
    // A JSON string as QJsonDocument writes it (quotes included).
    static QByteArray jsonString(const QString &text);
};

} // namespace Sonde
