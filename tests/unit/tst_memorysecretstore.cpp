// SPDX-License-Identifier: MIT
// MemorySecretStore: what is written reads back, a removed or unknown key reads as absent,
// and every answer comes later from the event loop, never inside the call.
#include "secrets/memorysecretstore.h"

#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestMemorySecretStore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aWrittenSecretReadsBackUntilItIsRemoved()
    {
        MemorySecretStore store;
        QString writeError = u"unset"_s;
        store.write(u"oauth/demo"_s, "tok-1", [&](QString e) { writeError = e; });
        QTRY_VERIFY(writeError.isEmpty());

        std::optional<QByteArray> value;
        bool answered = false;
        store.read(u"oauth/demo"_s, [&](std::optional<QByteArray> v, QString e) {
            QVERIFY(e.isEmpty());
            value = v;
            answered = true;
        });
        QTRY_VERIFY(answered);
        QCOMPARE(value, std::optional<QByteArray>("tok-1"));

        bool removed = false;
        store.remove(u"oauth/demo"_s, [&](QString e) { removed = e.isEmpty(); });
        QTRY_VERIFY(removed);
        answered = false;
        store.read(u"oauth/demo"_s, [&](std::optional<QByteArray> v, QString e) {
            QVERIFY(e.isEmpty());
            value = v;
            answered = true;
        });
        QTRY_VERIFY(answered);
        QVERIFY(!value);
        QCOMPARE(store.kind(), u"memory"_s);
    }

    void anAnswerNeverComesInsideTheCall()
    {
        MemorySecretStore store;
        int answers = 0;
        store.write(u"k"_s, "v", [&](QString) { ++answers; });
        store.read(u"k"_s, [&](std::optional<QByteArray>, QString) { ++answers; });
        store.remove(u"k"_s, [&](QString) { ++answers; });
        QCOMPARE(answers, 0);
        QTRY_COMPARE(answers, 3);
        QTest::qWait(20);
        QCOMPARE(answers, 3); // exactly once each
    }
};

QTEST_GUILESS_MAIN(TestMemorySecretStore)
#include "tst_memorysecretstore.moc"
