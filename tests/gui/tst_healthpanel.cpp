// SPDX-License-Identifier: MIT
// The Health tab's fault buttons are offered where the fault means something: the session
// faults not on stdio, nor on a modern (2026-07-28) connection, which has no session.
#include "servers/healthpanel.h"
#include "servers/proxyfaultpanel.h"

#include <QJsonObject>
#include <QPushButton>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestHealthPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void eachFaultIsOfferedWhereItMeansSomething_data()
    {
        QTest::addColumn<QString>("route");
        QTest::addColumn<QString>("era");
        QTest::addColumn<QStringList>("enabled");
        QTest::addColumn<QStringList>("disabled");
        QTest::newRow("a legacy HTTP session can be expired and its id corrupted")
            << u"streamable-http"_s << u"initialize"_s
            << QStringList{u"fault:expire-session"_s, u"fault:corrupt-session-id"_s,
                           u"fault:expire-after-dispatch"_s, u"fault:drop-connection"_s}
            << QStringList{u"fault:kill-process"_s};
        QTest::newRow("a modern HTTP connection has no session to expire")
            << u"streamable-http"_s << u"2026-07-28"_s
            << QStringList{u"fault:drop-connection"_s, u"fault:http-status"_s, u"fault:delay"_s}
            << QStringList{u"fault:expire-session"_s, u"fault:corrupt-session-id"_s,
                           u"fault:expire-after-dispatch"_s, u"fault:kill-process"_s};
        QTest::newRow("a modern stdio connection can still lose its process")
            << u"stdio"_s << u"2026-07-28"_s
            << QStringList{u"fault:kill-process"_s, u"fault:kill-during-next-call"_s}
            << QStringList{u"fault:expire-after-dispatch"_s, u"fault:expire-session"_s};
        QTest::newRow("the 2026-07-28 faults are offered to a modern connection only")
            << u"streamable-http"_s << u"2026-07-28"_s
            << QStringList{u"fault:drop-stream"_s, u"fault:unsupported-version"_s,
                           u"fault:input-required-twice"_s, u"fault:drop-listen"_s}
            << QStringList{};
        QTest::newRow("a legacy session has none of the 2026-07-28 faults")
            << u"streamable-http"_s << u"initialize"_s << QStringList{}
            << QStringList{u"fault:drop-stream"_s, u"fault:unsupported-version"_s,
                           u"fault:input-required-twice"_s, u"fault:drop-listen"_s};
        QTest::newRow("over stdio a stream cannot be dropped, only the process")
            << u"stdio"_s << u"2026-07-28"_s << QStringList{u"fault:unsupported-version"_s}
            << QStringList{u"fault:drop-stream"_s};
        QTest::newRow("an undecided era keeps the session faults")
            << u"streamable-http"_s << QString() << QStringList{u"fault:expire-after-dispatch"_s}
            << QStringList{};
    }
    void eachFaultIsOfferedWhereItMeansSomething()
    {
        QFETCH(QString, route);
        QFETCH(QString, era);
        QFETCH(QStringList, enabled);
        QFETCH(QStringList, disabled);
        HealthPanel panel;
        SessionSnapshot s;
        s.server = u"x"_s;
        s.state = SessionSnapshot::State::Ready;
        s.route = *ServerConfig::routeFromName(route);
        s.era = ServerConfig::eraFromName(era);
        s.sessionless = era == "2026-07-28"_L1;
        if (s.sessionless)
            s.subscriptions = ListenStatus{.state = ListenStatus::State::Acknowledged, .id = 2};
        panel.setSnapshot(s);
        for (const QString &name : enabled) {
            auto *b = panel.findChild<QPushButton *>(name);
            QVERIFY2(b && b->isEnabled(), qPrintable(name));
        }
        for (const QString &name : disabled) {
            auto *b = panel.findChild<QPushButton *>(name);
            QVERIFY2(b && !b->isEnabled(), qPrintable(name));
        }
    }

    // Selecting a proxied session and then a server of Sonde's own: the tab shows the
    // proxy's faults, then the engine's again, with the engine's buttons back as the
    // snapshot allows (the window calls setSnapshot, then setProxied, on each selection).
    void aProxiedSessionsPageGivesWayToTheEnginesOnTheNextServer()
    {
        HealthPanel panel;
        SessionSnapshot s;
        s.server = u"x"_s;
        s.state = SessionSnapshot::State::Ready;
        s.route = ServerConfig::Route::StreamableHttp;
        auto enabled = [&](const QString &name) {
            auto *b = panel.findChild<QPushButton *>(name);
            return b && b->isEnabled();
        };
        panel.setSnapshot(s);
        panel.setProxied(true);
        QVERIFY(panel.proxyFaults()->isVisibleTo(&panel));
        QVERIFY(enabled(u"proxyFault:expire-session"_s));
        QVERIFY(!enabled(u"proxyFault:kill-server"_s));
        QVERIFY(!enabled(u"fault:expire-session"_s));
        QVERIFY(!enabled(u"breakerTrip"_s));

        panel.setSnapshot(s);
        panel.setProxied(std::nullopt);
        QVERIFY(!panel.proxyFaults()->isVisibleTo(&panel));
        QVERIFY(enabled(u"fault:expire-session"_s));
        QVERIFY(enabled(u"breakerTrip"_s));
        QVERIFY(!enabled(u"proxyFault:expire-session"_s)); // the menu mirrors it: off too
    }
};

QTEST_MAIN(TestHealthPanel)
#include "tst_healthpanel.moc"
