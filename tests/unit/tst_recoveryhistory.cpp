// SPDX-License-Identifier: MIT
// RecoveryHistory: bounded at MaxEvents (the oldest go first), and recent(n) is the tail.
#include "recovery/recoveryhistory.h"

#include <QTest>

using namespace Sonde;

namespace {
HistoryEvent at(qint64 t)
{
    return {.timeMs = t, .body = HistoryEvent::SessionStart{}};
}
} // namespace

class TestRecoveryHistory : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void recentIsTheTailOldestFirst_data()
    {
        QTest::addColumn<int>("appended");
        QTest::addColumn<int>("asked");
        QTest::addColumn<qint64>("firstTime");
        QTest::addColumn<int>("count");
        QTest::newRow("an empty history has nothing recent") << 0 << 50 << qint64(-1) << 0;
        QTest::newRow("fewer events than asked: all of them") << 3 << 50 << qint64(0) << 3;
        QTest::newRow("more events than asked: the last ones") << 80 << 50 << qint64(30) << 50;
    }
    void recentIsTheTailOldestFirst()
    {
        QFETCH(int, appended);
        QFETCH(int, asked);
        QFETCH(qint64, firstTime);
        QFETCH(int, count);
        RecoveryHistory h;
        for (int i = 0; i < appended; ++i)
            h.append(at(i));
        const QList<HistoryEvent> recent = h.recent(asked);
        QCOMPARE(recent.size(), count);
        if (count > 0) {
            QCOMPARE(recent.first().timeMs, firstTime);
            QCOMPARE(recent.last().timeMs, qint64(appended - 1));
        }
    }

    void theOldestGoFirstPastTheBound()
    {
        RecoveryHistory h;
        for (int i = 0; i < RecoveryHistory::MaxEvents + 10; ++i)
            h.append(at(i));
        QCOMPARE(h.size(), RecoveryHistory::MaxEvents);
        QCOMPARE(h.recent(RecoveryHistory::MaxEvents).first().timeMs, qint64(10));
    }
};

QTEST_GUILESS_MAIN(TestRecoveryHistory)
#include "tst_recoveryhistory.moc"
