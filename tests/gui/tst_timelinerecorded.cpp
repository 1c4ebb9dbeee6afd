// SPDX-License-Identifier: MIT
// A past session on the Timeline tab: read from a real history through its catalog, drawn from
// the same TranscriptEvent values as a live one (the supervisor's entries with their typed form
// again), bounded with the cut named in the banner, and back to the live store on request.
#include "application/history/storehistorycatalog.h"
#include "application/timeline/timelinerecording.h"
#include "application/transcript/transcriptstore.h"
#include "historystore.h"
#include "recordedcall.h"
#include "timeline/timelinetab.h"
#include "timeline/timelinewidget.h"

#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 T0 = SondeTest::RecordedEpochMs;

QJsonObject wire(qint64 t, int id, bool answer, int gen = 2)
{
    return SondeTest::recordedCall(u"files"_s, gen, t, id, answer);
}

HistoryEvent reconnect(qint64 t)
{
    return {T0 + t, HistoryEvent::Reconnect{.trigger = u"transport closed"_s,
                                            .fromGeneration = 1,
                                            .toGeneration = 2,
                                            .outcome = ReconnectOutcome::Ok}};
}

} // namespace

class TestTimelineRecorded : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    StoreHistoryCatalog m_catalog;
    RecordedSession m_session;

private Q_SLOTS:
    void initTestCase()
    {
        HistoryStore store;
        QString error;
        const QString db = m_dir.filePath(u"h.sqlite"_s);
        QVERIFY2(store.open(db, &error, u"window"_s), qPrintable(error));
        // Generation 2 of "files": a reconnect glyph, then 40 answered calls.
        QList<QJsonObject> records{
            TranscriptEvent::fromHistory(reconnect(0), u"files"_s, 2).toJson()};
        for (int i = 0; i < 40; ++i)
            records << wire(10 + i * 100, i, false) << wire(10 + i * 100 + 30, i, true);
        QVERIFY2(store.appendRecords(records, &error), qPrintable(error));
        QVERIFY2(m_catalog.open(db, &error), qPrintable(error));
        const QList<RecordedSession> sessions = m_catalog.sessions(u"files"_s);
        QCOMPARE(sessions.size(), 1);
        m_session = sessions.first();
        QCOMPARE(m_session.events, 81);
    }

    void aRecordedEntryGetsItsTypedFormBack()
    {
        const HistoryEvent h = reconnect(5);
        const TranscriptEvent e =
            TranscriptEvent::fromJson(TranscriptEvent::fromHistory(h, u"files"_s, 2).toJson());
        QCOMPARE(e.direction, TranscriptEvent::Direction::Lifecycle);
        QCOMPARE(e.kind, EventKind::Reconnect);
        QVERIFY(e.history());
        QVERIFY(*e.history() == h);
        const TranscriptEvent w = TranscriptEvent::fromJson(wire(7, 3, false));
        QCOMPARE(w.direction, TranscriptEvent::Direction::Outgoing);
        QCOMPARE(w.timeMs, T0 + 7);
        QCOMPARE(w.raw, QByteArray("{\"id\":3,\"jsonrpc\":\"2.0\",\"method\":\"tools/"
                                   "call\",\"params\":{\"name\":\"echo\"}}"));
        QVERIFY(!w.history());
    }

    void thePastSessionIsDrawnWithItsBanner()
    {
        TranscriptStore live;
        TimelineTab tab(&live);
        tab.resize(1000, 400);
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        tab.showRecorded(m_session, m_catalog);
        QVERIFY(tab.isRecorded());
        QVERIFY(tab.timeline()->store() != &live);
        const QString banner = tab.bannerText();
        QVERIFY2(banner.startsWith("Recorded session: files, generation 2, "_L1),
                 qPrintable(banner));
        QVERIFY2(banner.contains(u"(not live) · 81 event(s)"_s), qPrintable(banner));
        const TimelineLayout *layout = tab.timeline()->timelineLayout();
        QCOMPARE(layout->laneCount(), 1);
        QCOMPARE(layout->spans(0).size(), 40);
        QVERIFY(!layout->markers(0).isEmpty()); // the reconnect
        // "Now" is the session's end, not the clock: nothing is drawn as still open.
        QCOMPARE(tab.timeline()->nowMs(), T0 + 39 * 100 + 40);
        QVERIFY(!layout->hasOpenSpans());
        if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty())
            tab.grab().save(dir + u"/timeline-recorded.png"_s);
    }

    void aLongSessionIsCutAndSaysSo()
    {
        TranscriptStore live;
        TimelineTab tab(&live);
        tab.showRecorded(m_session, m_catalog, 21);
        const QString banner = tab.bannerText();
        QVERIFY2(banner.contains("the first 21 of 81 events drawn"_L1), qPrintable(banner));
        QCOMPARE(tab.timeline()->store()->size(), 21);
        // The reconnect and ten answered calls.
        QCOMPARE(tab.timeline()->timelineLayout()->spans(0).size(), 10);
        QVERIFY(TimelineRecording::MaxEvents == 50'000);
    }

    void backToLiveShowsTheLiveStoreAgain()
    {
        TranscriptStore live;
        TranscriptEvent e = TranscriptEvent::fromJson(wire(0, 1, false, 1));
        e.server = u"live-server"_s;
        live.append({e});
        TimelineTab tab(&live);
        tab.show();
        tab.showRecorded(m_session, m_catalog);
        QCOMPARE(tab.timeline()->timelineLayout()->laneName(0), u"files"_s);
        QSignalSpy back(&tab, &TimelineTab::liveShown);
        tab.findChild<QPushButton *>(u"backToLive"_s)->click();
        QCOMPARE(back.count(), 1);
        QVERIFY(!tab.isRecorded());
        QCOMPARE(tab.timeline()->store(), &live);
        QCOMPARE(tab.timeline()->timelineLayout()->laneName(0), u"live-server"_s);
        QVERIFY(tab.bannerText().isEmpty());
        QVERIFY(!tab.findChild<QWidget *>(u"recordedBanner"_s)->isVisible());
    }
};

QTEST_MAIN(TestTimelineRecorded)
#include "tst_timelinerecorded.moc"
