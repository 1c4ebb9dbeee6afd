// SPDX-License-Identifier: MIT
#pragma once
// One leg of a recorded tools/call as the transcript writes it (TranscriptEvent::toJson): the
// request out, or its answer in, `t` ms after the tests' epoch.

#include "transcript/transcriptevent.h"

namespace SondeTest {

constexpr qint64 RecordedEpochMs = 1760000000000;

inline QJsonObject recordedCall(const QString &server, int gen, qint64 t, int id, bool answer)
{
    Sonde::TranscriptEvent e;
    e.timeMs = RecordedEpochMs + t;
    e.server = server;
    e.generation = gen;
    e.direction = answer ? Sonde::TranscriptEvent::Direction::Incoming
                         : Sonde::TranscriptEvent::Direction::Outgoing;
    const QByteArray head = "{\"jsonrpc\":\"2.0\",\"id\":" + QByteArray::number(id);
    e.raw =
        head + (answer ? QByteArray(",\"result\":{\"content\":[]}}")
                       : QByteArray(",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\"}}"));
    return e.toJson();
}

} // namespace SondeTest
