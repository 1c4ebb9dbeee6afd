// SPDX-License-Identifier: MIT
#include "session/pendingrequests.h"
#include "util/clock.h"

#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestPendingRequests : public QObject
{
    Q_OBJECT

    static PendingRequests::Entry entry(qint64 id, qint64 now, qint64 timeout, qint64 cap,
                                        const QString &token = {})
    {
        PendingRequests::Entry e;
        e.id = id;
        e.method = u"tools/call"_s;
        e.sentMs = e.lastActivityMs = now;
        e.timeoutMs = timeout;
        e.maxTotalMs = cap;
        e.progressToken = token;
        return e;
    }

private Q_SLOTS:
    void expiresOnlyAfterItsTimeout()
    {
        ManualClock clock;
        PendingRequests p;
        p.add(entry(1, clock.nowMs(), 60'000, 600'000));
        QCOMPARE(*p.nextDeadline(), clock.nowMs() + 60'000);
        clock.advance(59'999);
        QVERIFY(p.takeExpired(clock.nowMs()).isEmpty());
        clock.advance(1);
        const auto expired = p.takeExpired(clock.nowMs());
        QCOMPARE(expired.size(), 1);
        QCOMPARE(expired[0].id.toInteger(), 1);
        QVERIFY(p.isEmpty());
        QVERIFY(!p.nextDeadline());
    }

    void progressRestartsTheTimeout()
    {
        ManualClock clock;
        PendingRequests p;
        p.add(entry(1, clock.nowMs(), 1000, 10'000, u"tok"_s));
        clock.advance(900);
        QVERIFY(p.touchProgress(u"tok"_s, clock.nowMs()));
        clock.advance(900);
        QVERIFY(p.takeExpired(clock.nowMs()).isEmpty());
        clock.advance(100);
        QCOMPARE(p.takeExpired(clock.nowMs()).size(), 1);
    }

    void progressCannotExtendPastTheTotalCap()
    {
        ManualClock clock;
        PendingRequests p;
        p.add(entry(1, clock.nowMs(), 1000, 2500, u"tok"_s));
        for (int i = 0; i < 2; ++i) {
            clock.advance(900);
            QVERIFY(p.touchProgress(u"tok"_s, clock.nowMs()));
            QVERIFY(p.takeExpired(clock.nowMs()).isEmpty());
        }
        clock.advance(700); // 2500 ms after sending; the last progress was only 700 ms ago
        QCOMPARE(p.takeExpired(clock.nowMs()).size(), 1);
    }

    void progressForAnUnknownTokenChangesNothing()
    {
        ManualClock clock;
        PendingRequests p;
        p.add(entry(1, clock.nowMs(), 1000, 10'000, u"tok"_s));
        QVERIFY(!p.touchProgress(u"other"_s, clock.nowMs()));
        clock.advance(1000);
        QCOMPARE(p.takeExpired(clock.nowMs()).size(), 1);
    }

    void aTimedOutRequestsLateAnswerIsRecognisedAsLate()
    {
        ManualClock clock;
        PendingRequests p;
        p.add(entry(4, clock.nowMs(), 10, 100));
        clock.advance(10);
        QCOMPARE(p.takeExpired(clock.nowMs()).size(), 1);
        QVERIFY(!p.take(4));
        QVERIFY(p.wasRetired(4));
        QVERIFY(!p.wasRetired(5));
    }

    void responsesPairByIdWhateverTheOrder()
    {
        ManualClock clock;
        PendingRequests p;
        for (int id = 1; id <= 3; ++id)
            p.add(entry(id, clock.nowMs(), 1000, 1000));
        QCOMPARE(p.take(3)->id.toInteger(), 3);
        QCOMPARE(p.take(1)->id.toInteger(), 1);
        QVERIFY(!p.take(1));
        QCOMPARE(p.size(), 1);
        QVERIFY(p.contains(2));
    }

    void theEarliestDeadlineIsReported()
    {
        ManualClock clock;
        PendingRequests p;
        p.add(entry(1, clock.nowMs(), 5000, 50'000));
        p.add(entry(2, clock.nowMs(), 1000, 50'000));
        QCOMPARE(*p.nextDeadline(), clock.nowMs() + 1000);
    }
};

QTEST_APPLESS_MAIN(TestPendingRequests)
#include "tst_pendingrequests.moc"
