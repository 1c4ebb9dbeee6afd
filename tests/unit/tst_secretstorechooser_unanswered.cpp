// SPDX-License-Identifier: MIT
// SecretStoreChooser on a session bus whose Secret Service never answers (D-Bus starts a
// program for org.freedesktop.secrets that never takes the name, as a wedged daemon does):
// the probe's bound, on a ManualClock, ends the wait with memory only and one notice.
#include "secretservicebus.h"
#include "secretstorechooser.h"
#include "util/clock.h"

#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestSecretStoreChooserUnanswered : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aKeyringThatDoesNotAnswerIsGivenUpAfterTheBound()
    {
        SecretServiceBus bus;
        const QString sleep = QStandardPaths::findExecutable(u"sleep"_s);
        QVERIFY(!sleep.isEmpty());
        const QString busError = bus.startBus(sleep + u" 15"_s);
        QVERIFY2(busError.isEmpty(), qPrintable(busError));

        ManualClock clock;
        SecretStoreChooser::Options options;
        options.clock = &clock;
        options.probeTimeoutMs = 3000;
        SecretStoreChooser chooser(options);
        QSignalSpy chosen(&chooser, &SecretStoreChooser::chosen);
        chooser.choose();
        // Time for the probe to reach the bus and the activation to start; nothing answers.
        QTest::qWait(300);
        clock.advance(2999);
        QCOMPARE(chosen.size(), 0);
        clock.advance(1);
        QCOMPARE(chosen.size(), 1);
        const auto choice = chosen.at(0).at(0).value<SecretStoreChooser::Choice>();
        QCOMPARE(choice.kind, SecretStoreChooser::Choice::Kind::Memory);
        QVERIFY2(choice.notice.contains(u"did not answer within 3 s"_s), qPrintable(choice.notice));
        QTest::qWait(50);
        QCOMPARE(chosen.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestSecretStoreChooserUnanswered)
#include "tst_secretstorechooser_unanswered.moc"
