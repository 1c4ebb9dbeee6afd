// SPDX-License-Identifier: MIT
// RefreshSchedule: 60 s before expiry, never before 80% of the lifetime.
#include "auth/refreshschedule.h"

#include <QTest>

using namespace Sonde;

class TestAuthRefreshTiming : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theRefreshComesBeforeExpiry_data()
    {
        QTest::addColumn<qint64>("lifetimeSeconds");
        QTest::addColumn<qint64>("refreshAfterMs");
        QTest::newRow("an hour's token is refreshed a minute before it ends")
            << qint64(3600) << qint64(3'540'000);
        QTest::newRow("a minute's token is refreshed at 80%, not at issue")
            << qint64(60) << qint64(48'000);
        QTest::newRow("a two-minute token is refreshed at 96 s (80%), not at 60 s")
            << qint64(120) << qint64(96'000);
        QTest::newRow("five minutes: a minute before equals 80%") << qint64(300) << qint64(240'000);
        QTest::newRow("a one-second token is refreshed after 800 ms") << qint64(1) << qint64(800);
        QTest::newRow("no expiry given: no refresh") << qint64(0) << qint64(-1);
    }
    void theRefreshComesBeforeExpiry()
    {
        QFETCH(qint64, lifetimeSeconds);
        QFETCH(qint64, refreshAfterMs);
        const qint64 issued = 1'700'000'000'000;
        const qint64 at = RefreshSchedule::refreshAtMs(issued, lifetimeSeconds);
        QCOMPARE(at < 0 ? -1 : at - issued, refreshAfterMs);
    }
};

QTEST_GUILESS_MAIN(TestAuthRefreshTiming)
#include "tst_authrefreshtiming.moc"
