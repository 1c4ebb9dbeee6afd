// SPDX-License-Identifier: MIT
// What the engine tells a front end is declared once, in EngineSignals: the Engine emits it
// and CoreHost says it again on the caller's thread. A signal declared on one side only would
// come from nowhere or reach no front end, so neither side declares one of its own.
#include "engine/corehost.h"
#include "engine/engine.h"
#include "engine/enginesignals.h"

#include <QMetaMethod>
#include <QTest>

using namespace Sonde;

class TestEngineSignals : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theEngineAndItsHostSayTheSameThings_data()
    {
        QTest::addColumn<bool>("engine");
        QTest::newRow("the engine emits every signal EngineSignals declares") << true;
        QTest::newRow("the host emits every signal EngineSignals declares") << false;
    }

    void theEngineAndItsHostSayTheSameThings()
    {
        QFETCH(bool, engine);
        const QMetaObject *side = engine ? &Engine::staticMetaObject : &CoreHost::staticMetaObject;
        QVERIFY(side->inherits(&EngineSignals::staticMetaObject));
        const QMetaObject &declared = EngineSignals::staticMetaObject;
        int signalsDeclared = 0;
        for (int i = declared.methodOffset(); i < declared.methodCount(); ++i) {
            const QMetaMethod m = declared.method(i);
            if (m.methodType() != QMetaMethod::Signal)
                continue;
            ++signalsDeclared;
            QCOMPARE(side->indexOfSignal(m.methodSignature().constData()), i);
        }
        QVERIFY(signalsDeclared > 0);
        for (int i = side->methodOffset(); i < side->methodCount(); ++i)
            QVERIFY2(side->method(i).methodType() != QMetaMethod::Signal,
                     side->method(i).methodSignature().constData());
    }
};

QTEST_GUILESS_MAIN(TestEngineSignals)
#include "tst_enginesignals.moc"
