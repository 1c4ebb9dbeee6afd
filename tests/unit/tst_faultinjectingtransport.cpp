// SPDX-License-Identifier: MIT
// FaultInjectingTransport over a FakeTransport: one row per fault kind, each checking what
// the decorator lets through to the route and back to the session.
#include "faketransport.h"
#include "transport/faultinjectingtransport.h"
#include "util/clock.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Sonde;

namespace {

const QByteArray Call = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{}}";
const QByteArray Answer = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}";

QStringList eventNames(const QSignalSpy &spy)
{
    QStringList names;
    for (const QList<QVariant> &args : spy)
        names.append(args.at(0).value<LifecycleDetails>().name());
    return names;
}

} // namespace

class TestFaultInjectingTransport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void eachFaultActsOnWhatPassesThrough_data()
    {
        QTest::addColumn<QString>("fault");
        QTest::addColumn<QString>("route");      // "stdio" or "http"
        QTest::addColumn<int>("sentAtOnce");     // frames the route got right away
        QTest::addColumn<int>("sent");           // ... and in the end
        QTest::addColumn<int>("heldMs");         // how long the answer was held back
        QTest::addColumn<int>("received");       // answers passed to the session
        QTest::addColumn<int>("withheld");       // answers only recorded
        QTest::addColumn<QString>("failedKind"); // the error the request got instead
        QTest::addColumn<QStringList>("events");
        QTest::addColumn<bool>("closed");
        const QStringList none;
        QTest::newRow("expire-session holds the request until the server ended the session")
            << u"expire-session"_s << u"http"_s << 0 << 1 << 0 << 1 << 0 << QString()
            << QStringList{u"fault-expire-session"_s} << false;
        QTest::newRow("corrupt-session-id replaces the id and lets everything through")
            << u"corrupt-session-id"_s << u"http"_s << 1 << 1 << 0 << 1 << 0 << QString()
            << QStringList{u"fault-corrupt-session-id"_s} << false;
        QTest::newRow("expire-after-dispatch sends the request and replaces its answer")
            << u"expire-after-dispatch"_s << u"stdio"_s << 1 << 1 << 0 << 0 << 1 << u"injected"_s
            << QStringList{u"fault-expire-after-dispatch"_s} << false;
        QTest::newRow("kill-process kills the child and closes at once")
            << u"kill-process"_s << u"stdio"_s << 1 << 1 << 0 << 0 << 0 << QString()
            << QStringList{u"fault-kill"_s} << true;
        QTest::newRow("kill-during-next-call kills right after the request was written")
            << u"kill-during-next-call"_s << u"stdio"_s << 1 << 1 << 0 << 0 << 0 << QString()
            << QStringList{u"fault-kill"_s} << true;
        QTest::newRow("drop-connection aborts what is open and lets the request through")
            << u"drop-connection"_s << u"http"_s << 1 << 1 << 0 << 1 << 0 << QString()
            << QStringList{u"fault-drop-connection"_s} << false;
        QTest::newRow("delay holds the answer the given time")
            << u"delay"_s << u"stdio"_s << 1 << 1 << 250 << 1 << 0 << QString() << none << false;
        QTest::newRow("http-status answers the request locally; it never reaches the route")
            << u"http-status"_s << u"http"_s << 0 << 0 << 0 << 0 << 0 << u"transport"_s
            << QStringList{u"fault-http-status"_s} << false;
        QTest::newRow("clear leaves everything as it is")
            << u"clear"_s << u"http"_s << 1 << 1 << 0 << 1 << 0 << QString() << none << false;
    }
    void eachFaultActsOnWhatPassesThrough()
    {
        QFETCH(QString, fault);
        QFETCH(QString, route);
        QFETCH(int, sentAtOnce);
        QFETCH(int, sent);
        QFETCH(int, heldMs);
        QFETCH(int, received);
        QFETCH(int, withheld);
        QFETCH(QString, failedKind);
        QFETCH(QStringList, events);
        QFETCH(bool, closed);

        ManualClock clock;
        auto owned = std::make_unique<FakeTransport>();
        FakeTransport *fake = owned.get();
        fake->process.transport = fake;
        fake->playsProcess = route == "stdio"_L1;
        fake->playsHttp = route == "http"_L1;
        FaultInjectingTransport t(std::move(owned), clock,
                                  std::make_shared<FaultInjectingTransport::Standing>());
        QSignalSpy receivedSpy(&t, &Transport::frameReceived);
        QSignalSpy withheldSpy(&t, &Transport::frameWithheld);
        QSignalSpy failedSpy(&t, &Transport::requestFailed);
        QSignalSpy eventSpy(&t, &Transport::lifecycleEvent);
        QSignalSpy closedSpy(&t, &Transport::closed);
        t.open();

        Fault f;
        f.kind = *Fault::parseKind(fault);
        f.ms = 250;
        f.status = 404;
        QVERIFY(!t.injectFault(f).isError());
        t.send(Call);
        QCOMPARE(fake->sent.size(), sentAtOnce);
        if (fake->http.deleted)
            fake->http.deleted(200);       // the server answered the DELETE
        QCoreApplication::processEvents(); // what the decorator posted (a kill, a status)
        QCOMPARE(fake->sent.size(), sent);
        if (fake->isOpen() && sent > 0)
            fake->deliver(Answer);
        if (heldMs > 0) {
            clock.advance(heldMs - 1);
            QCOMPARE(receivedSpy.size(), 0);
            clock.advance(1);
        }

        QCOMPARE(receivedSpy.size(), received);
        QCOMPARE(withheldSpy.size(), withheld);
        QCOMPARE(failedSpy.isEmpty()
                     ? QString()
                     : Error::kindName(failedSpy.first().at(1).value<Error>().kind()),
                 failedKind);
        QCOMPARE(eventNames(eventSpy), events);
        QCOMPARE(!closedSpy.isEmpty(), closed);
        const bool kills = fault.startsWith("kill"_L1);
        QCOMPARE(fake->process.kills, kills ? 1 : 0);
        QCOMPARE(fake->http.drops, fault == "drop-connection"_L1 ? 1 : 0);
        QCOMPARE(fake->http.session != u"s-1"_s, fault == "corrupt-session-id"_L1);
    }

    void aFaultForAnotherRouteSaysSoAndChangesNothing_data()
    {
        QTest::addColumn<QString>("fault");
        QTest::addColumn<QString>("route");
        QTest::newRow("kill-process over HTTP") << u"kill-process"_s << u"http"_s;
        QTest::newRow("kill-during-next-call over HTTP") << u"kill-during-next-call"_s << u"http"_s;
        QTest::newRow("expire-session over stdio") << u"expire-session"_s << u"stdio"_s;
        QTest::newRow("drop-connection over stdio") << u"drop-connection"_s << u"stdio"_s;
        QTest::newRow("http-status over stdio") << u"http-status"_s << u"stdio"_s;
    }
    void aFaultForAnotherRouteSaysSoAndChangesNothing()
    {
        QFETCH(QString, fault);
        QFETCH(QString, route);
        ManualClock clock;
        auto owned = std::make_unique<FakeTransport>();
        FakeTransport *fake = owned.get();
        fake->playsProcess = route == "stdio"_L1;
        fake->playsHttp = route == "http"_L1;
        FaultInjectingTransport t(std::move(owned), clock,
                                  std::make_shared<FaultInjectingTransport::Standing>());
        t.open();
        Fault f;
        f.kind = *Fault::parseKind(fault);
        f.status = 500;
        const Error e = t.injectFault(f);
        QVERIFY(e.isError());
        QVERIFY2(e.message().contains("does not apply to this transport"_L1),
                 qPrintable(e.message()));
        t.send(Call);
        QCOMPARE(fake->sent.size(), 1);
    }

    void answersHeldByTheDelayGoBeforeADrainedRouteCloses_data()
    {
        QTest::addColumn<bool>("drain");
        QTest::addColumn<int>("received");
        QTest::newRow("a drained route's last answer still reaches the session") << true << 1;
        QTest::newRow("a closed route takes what is held with it") << false << 0;
    }
    void answersHeldByTheDelayGoBeforeADrainedRouteCloses()
    {
        QFETCH(bool, drain);
        QFETCH(int, received);
        ManualClock clock;
        auto standing = std::make_shared<FaultInjectingTransport::Standing>();
        standing->delayMs = 100;
        auto owned = std::make_unique<FakeTransport>();
        FakeTransport *fake = owned.get();
        FaultInjectingTransport t(std::move(owned), clock, standing);
        QList<QString> order;
        connect(&t, &Transport::frameReceived, this, [&] { order.append(u"answer"_s); });
        connect(&t, &Transport::closed, this, [&] { order.append(u"closed"_s); });
        t.open();
        fake->deliver(Answer);
        if (drain)
            t.drain(); // the fake closes at once: its last answer is already in
        else
            t.close();
        clock.advance(100);
        QCOMPARE(order.count(u"answer"_s), received);
        QCOMPARE(order.last(), u"closed"_s);
    }

    void standingFaultsOutliveTheTransportTheyWereSetOn()
    {
        ManualClock clock;
        auto standing = std::make_shared<FaultInjectingTransport::Standing>();
        Fault delay;
        delay.kind = Fault::Kind::Delay;
        delay.ms = 100;
        QVERIFY(!FaultInjectingTransport::applyStanding(*standing, delay)->isError());
        auto owned = std::make_unique<FakeTransport>();
        FakeTransport *fake = owned.get();
        FaultInjectingTransport t(std::move(owned), clock, standing);
        QSignalSpy receivedSpy(&t, &Transport::frameReceived);
        t.open();
        fake->deliver(Answer);
        QCOMPARE(receivedSpy.size(), 0);
        clock.advance(100);
        QCOMPARE(receivedSpy.size(), 1);
        delay.ms = -1;
        QVERIFY(FaultInjectingTransport::applyStanding(*standing, delay)->isError());
        Fault kill;
        kill.kind = Fault::Kind::KillProcess;
        QVERIFY(!FaultInjectingTransport::applyStanding(*standing, kill).has_value());
    }
};

QTEST_GUILESS_MAIN(TestFaultInjectingTransport)
#include "tst_faultinjectingtransport.moc"
