// SPDX-License-Identifier: MIT
#pragma once
// A recording as the window makes it, for the tests of the live transcript: a HistoryRecorder
// on its own thread writing into a temporary history, a read connection to the same file,
// and the four events of exchange `id` (a call, its answer, a stderr line of another server,
// a notification), all at its millisecond (the live view orders by id, not time).

#include "application/history/transcripthistorysource.h"
#include "historyfilter.h"
#include "historyrecorder.h"
#include "historystore.h"

#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace SondeTest {

using namespace Qt::StringLiterals;

inline Sonde::TranscriptEvent liveWire(qint64 id, Sonde::TranscriptEvent::Direction dir,
                                       const QByteArray &raw, const QString &server = u"alpha"_s)
{
    Sonde::TranscriptEvent e;
    e.timeMs = 1700000000000 + id;
    e.server = server;
    e.generation = 1;
    e.direction = dir;
    e.raw = raw;
    return e;
}

// Events as the records they are written as, to compare with what the history reads.
inline QList<QJsonObject> recordsOf(const Sonde::TranscriptBatch &events)
{
    QList<QJsonObject> out;
    for (const Sonde::TranscriptEvent &e : events)
        out.append(e.toJson());
    return out;
}

inline Sonde::TranscriptBatch exchange(int id)
{
    using D = Sonde::TranscriptEvent::Direction;
    const QByteArray n = QByteArray::number(id);
    return {liveWire(id, D::Outgoing,
                     "{\"jsonrpc\":\"2.0\",\"id\":" + n +
                         ",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{"
                         "\"message\":\"needle " +
                         n + "\"}}}"),
            liveWire(id, D::Incoming, "{\"jsonrpc\":\"2.0\",\"id\":" + n + ",\"result\":{}}"),
            liveWire(id, D::Stderr, "beta says " + n, u"beta"_s),
            liveWire(id, D::Incoming,
                     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}")};
}

struct LiveRecording
{
    QTemporaryDir dir;
    Sonde::HistoryRecorder recorder;
    std::shared_ptr<Sonde::HistoryStore> reader = std::make_shared<Sonde::HistoryStore>();
    QString path() const { return dir.filePath(u"h.db"_s); }
    // The recorder has opened the file and started its run; the reader is open.
    bool start()
    {
        recorder.start(path(), u"window"_s);
        QString error;
        return QTest::qWaitFor([this] { return recorder.runId() != 0; }, 5000) &&
               reader->open(path(), &error);
    }
    // `count` exchanges of four events each, committed before it returns.
    bool recordExchanges(int count)
    {
        const qint64 before = recorder.eventsRecorded();
        for (int b = 0; b < count; b += 50) {
            Sonde::TranscriptBatch batch;
            for (int i = b; i < qMin(count, b + 50); ++i)
                batch += exchange(i);
            recorder.record(batch);
        }
        return QTest::qWaitFor(
            [&] { return recorder.eventsRecorded() == before + qint64(4) * count; }, 10000);
    }
    // This run's events (of `server`, if given).
    Sonde::HistoryFilter filter(const QString &server = {}) const
    {
        Sonde::HistoryFilter f;
        f.runId = recorder.runId();
        f.server = server;
        return f;
    }
    std::unique_ptr<Sonde::TranscriptHistorySource> source(Sonde::HistoryFilter f) const
    {
        f.runId = recorder.runId();
        return std::make_unique<Sonde::TranscriptHistorySource>(reader, f);
    }
};

} // namespace SondeTest
