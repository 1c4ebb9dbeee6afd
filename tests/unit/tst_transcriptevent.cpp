// SPDX-License-Identifier: MIT
// A transcript record read back (TranscriptEvent::fromJson) is the event that wrote it: what
// reads a recording (the History tab, the Transcript tab over the history, the Timeline,
// replay) works on the same typed event as what watches a live session.
#include "transcript/transcriptevent.h"

#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

TranscriptEvent wire(TranscriptEvent::Direction d, const QByteArray &raw)
{
    TranscriptEvent e;
    e.timeMs = 1700000000123;
    e.server = u"demo"_s;
    e.generation = 3;
    e.direction = d;
    e.raw = raw;
    return e;
}

} // namespace

class TestTranscriptEvent : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aRecordReadBackIsTheEventThatWroteIt_data()
    {
        using D = TranscriptEvent::Direction;
        QTest::addColumn<TranscriptEvent>("event");
        QTest::newRow("a sent request keeps its frame")
            << wire(D::Outgoing, R"({"id":1,"jsonrpc":"2.0","method":"tools/list"})");
        QTest::newRow("a received batch keeps its array")
            << wire(D::Incoming, R"([{"id":1,"jsonrpc":"2.0","result":{}}])");
        QTest::newRow("a frame that is not JSON keeps its text")
            << wire(D::Incoming, "<html>not json</html>");
        QTest::newRow("a stderr line keeps its line") << wire(D::Stderr, "listening on 3000");
        TranscriptEvent violation = wire(D::Violation, "garbage");
        violation.event = u"non-json-stdout"_s;
        QTest::newRow("a violation keeps what broke and the line") << violation;
        QTest::newRow("a lifecycle event keeps its kind and details") << TranscriptEvent::lifecycle(
            1700000000123, u"demo"_s, 2, LifecycleDetails::TransportOpen{{.pid = 4242}});
        const HistoryEvent h{1700000000200, HistoryEvent::SentAgain{
                                                .call = {.method = u"tools/call"_s, .requestId = 7},
                                                .newRequestId = 9,
                                                .newGeneration = 4}};
        QTest::newRow("a history entry gets its typed form again")
            << TranscriptEvent::fromHistory(h, u"demo"_s, 3);
    }
    void aRecordReadBackIsTheEventThatWroteIt()
    {
        QFETCH(TranscriptEvent, event);
        const TranscriptEvent back = TranscriptEvent::fromJson(event.toJson());
        QCOMPARE(back.toJson(), event.toJson());
        QCOMPARE(back.timeMs, event.timeMs);
        QCOMPARE(back.server, event.server);
        QCOMPARE(back.generation, event.generation);
        QCOMPARE(back.direction, event.direction);
        QCOMPARE(back.kind, event.kind);
        QCOMPARE(back.event, event.event);
        QCOMPARE(bool(back.details), bool(event.details));
        if (event.details)
            QCOMPARE(back.details->toJson(), event.details->toJson());
        QCOMPARE(bool(back.history()), bool(event.history()));
        if (event.history())
            QVERIFY(*back.history() == *event.history());
        if (event.direction != TranscriptEvent::Direction::Lifecycle)
            QCOMPARE(back.raw, event.raw);
    }

    void aDirectionThisBuildDoesNotKnowReadsAsALifecycleEvent()
    {
        const TranscriptEvent e = TranscriptEvent::fromJson(
            {{"t_ms"_L1, 5}, {"dir"_L1, u"sideways"_s}, {"event"_L1, u"x"_s}});
        QCOMPARE(e.direction, TranscriptEvent::Direction::Lifecycle);
        QCOMPARE(e.event, u"x"_s);
        QCOMPARE(e.kind, EventKind::Other);
        QVERIFY(!e.history());
    }
};

QTEST_MAIN(TestTranscriptEvent)
#include "tst_transcriptevent.moc"
