// SPDX-License-Identifier: MIT
// The Log tab: one line per notification, appended in batches, and a flood shown as its
// newest lines plus a count of the ones left out.
#include "window/notificationlog.h"

#include <QJsonObject>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestNotificationLog : public QObject
{
    Q_OBJECT

    static ServerNotification message(int i)
    {
        ServerNotification n;
        n.server = u"demo"_s;
        n.method = u"notifications/message"_s;
        n.params = {{"level"_L1, "info"_L1}, {"data"_L1, u"line %1"_s.arg(i)}};
        return n;
    }

private Q_SLOTS:
    void aLogMessageIsOneLineWithItsLevel()
    {
        NotificationLog log;
        log.append(message(1));
        QVERIFY(log.toPlainText().isEmpty()); // not before the batch is due
        QTRY_VERIFY(!log.toPlainText().isEmpty());
        QVERIFY2(log.toPlainText().endsWith(u"demo notifications/message [info] line 1"_s),
                 qPrintable(log.toPlainText()));
    }

    void anyOtherNotificationShowsItsParams()
    {
        NotificationLog log;
        ServerNotification n;
        n.server = u"demo"_s;
        n.method = u"notifications/resources/updated"_s;
        n.params = {{"uri"_L1, "demo://notes/1"_L1}};
        log.append(n);
        QTRY_VERIFY(log.toPlainText().endsWith(
            u"demo notifications/resources/updated {\"uri\":\"demo://notes/1\"}"_s));
    }

    void aLogMessageWhoseDataIsNotTextShowsItsParamsAfterTheLevel()
    {
        NotificationLog log;
        ServerNotification n = message(1);
        n.params.insert("data"_L1, QJsonObject{{"rows"_L1, 3}});
        log.append(n);
        QTRY_VERIFY2(
            log.toPlainText().endsWith(
                u"demo notifications/message [info] {\"data\":{\"rows\":3},\"level\":\"info\"}"_s),
            qPrintable(log.toPlainText()));
    }

    void aFloodKeepsTheNewestLinesAndCountsTheRest()
    {
        NotificationLog log;
        const int sent = NotificationLog::MaxBatch + 120;
        for (int i = 0; i < sent; ++i)
            log.append(message(i));
        QTRY_VERIFY(!log.toPlainText().isEmpty());
        const QStringList lines = log.toPlainText().split(u'\n');
        QCOMPARE(lines.size(), NotificationLog::MaxBatch + 1);
        QVERIFY2(lines.first().contains(u"120 more notification"_s), qPrintable(lines.first()));
        QVERIFY(lines.at(1).endsWith(u"line 120"_s));
        QVERIFY(lines.last().endsWith(u"line %1"_s.arg(sent - 1)));
    }
};

QTEST_MAIN(TestNotificationLog)
#include "tst_notificationlog.moc"
