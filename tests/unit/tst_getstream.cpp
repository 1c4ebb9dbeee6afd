// SPDX-License-Identifier: MIT
// GetStream: what becomes of Streamable HTTP's optional GET stream after its reply ends.
#include "transport/getstream.h"

#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Sonde;

class TestGetStream : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theEndOfTheStreamDecidesWhatFollows_data()
    {
        QTest::addColumn<bool>("wasOpen");
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("sessionIdSent");
        QTest::addColumn<int>("retryMs"); // the server's retry: field, -1 for none
        QTest::addColumn<int>("verdict");
        QTest::addColumn<QString>("event");
        QTest::addColumn<QString>("state");
        QTest::addColumn<int>("reconnectMs");
        const int lost = int(GetStream::Verdict::SessionLost);
        const int gaveUp = int(GetStream::Verdict::GivenUp);
        const int reopening = int(GetStream::Verdict::Reopening);
        QTest::newRow("405 means the server offers no stream")
            << false << 405 << true << -1 << gaveUp << u"get-stream-unavailable"_s
            << u"none (the server answered HTTP 405)"_s << 0;
        QTest::newRow("404 before it was ever open means no stream either")
            << false << 404 << true << -1 << gaveUp << u"get-stream-unavailable"_s
            << u"none (the server answered HTTP 404)"_s << 0;
        QTest::newRow("404 once it worked for this session means the session is gone")
            << true << 404 << true << -1 << lost << QString() << u"refused (HTTP 404)"_s << 0;
        QTest::newRow("400 once it worked for this session means the session is gone")
            << true << 400 << true << -1 << lost << QString() << u"refused (HTTP 400)"_s << 0;
        QTest::newRow("404 without a session id is not an expiry")
            << true << 404 << false << -1 << gaveUp << u"get-stream-unavailable"_s
            << u"none (the server answered HTTP 404)"_s << 0;
        QTest::newRow("another error status gives the stream up")
            << false << 500 << true << -1 << gaveUp << u"get-stream-failed"_s
            << u"failed (HTTP 500)"_s << 0;
        QTest::newRow("a dropped stream reopens after the server's retry delay")
            << true << 200 << true << 500 << reopening << u"get-stream-closed"_s
            << u"reconnecting"_s << 500;
        QTest::newRow("a dropped stream without a retry field waits a second")
            << true << 0 << true << -1 << reopening << u"get-stream-closed"_s << u"reconnecting"_s
            << 1000;
    }
    void theEndOfTheStreamDecidesWhatFollows()
    {
        QFETCH(bool, wasOpen);
        QFETCH(int, status);
        QFETCH(bool, sessionIdSent);
        QFETCH(int, retryMs);
        QFETCH(int, verdict);
        QFETCH(QString, event);
        QFETCH(QString, state);
        QFETCH(int, reconnectMs);
        GetStream g;
        QCOMPARE(g.describe(), u"not opened"_s);
        g.connecting();
        QCOMPARE(g.describe(), u"connecting"_s);
        if (wasOpen) {
            g.setLastEventId(u"e-3"_s);
            QCOMPARE(g.opened().lastEventId, u"e-3"_s);
            QCOMPARE(g.describe(), u"open"_s);
        }
        LifecycleDetails details;
        QCOMPARE(int(g.finished(status, sessionIdSent, retryMs, &details, u"closed"_s)), verdict);
        QCOMPARE(details.kind() == EventKind::Other ? QString() : details.name(), event);
        QCOMPARE(g.describe(), state);
        const auto *closed = details.as<LifecycleDetails::GetStreamClosed>();
        QCOMPARE(closed ? closed->reconnectInMs : 0, reconnectMs);
    }

    void failuresBackOffUntilTheStreamOpensAgain()
    {
        GetStream g;
        QSignalSpy reopen(&g, &GetStream::reopenDue);
        LifecycleDetails details;
        const auto delay = [&details] {
            return details.as<LifecycleDetails::GetStreamClosed>()->reconnectInMs;
        };
        QList<int> delays;
        for (int i = 0; i < 7; ++i) {
            g.finished(0, true, -1, &details, {});
            delays.append(delay());
        }
        QCOMPARE(delays, (QList<int>{1000, 2000, 4000, 8000, 16000, 30000, 30000}));
        g.opened();
        g.finished(0, true, 1, &details, {});
        QCOMPARE(delay(), 1);
        QVERIFY(reopen.wait(1000)); // the 1 ms one; the others are seconds away
        QCOMPARE(reopen.size(), 1);
        g.finished(0, true, -1, &details, {});
        QCOMPARE(delay(), 2000); // the second since it opened
    }
};

QTEST_GUILESS_MAIN(TestGetStream)
#include "tst_getstream.moc"
