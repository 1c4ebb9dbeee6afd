// SPDX-License-Identifier: MIT
// The one place servers are added and removed: the stores hold a server before anyone is told
// of it, and have let it go when they are told it went, so a subscriber never finds a server
// half there.
#include "application/auth/authstatestore.h"
#include "application/servers/serverregistry.h"
#include "application/servers/serverstore.h"
#include "application/servers/serverviewstore.h"
#include "engine/corehost.h"

#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestServerRegistry : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aServerIsInEveryStoreWhenItsAdditionIsSaidAndInNoneWhenItsRemovalIs()
    {
        CoreHost host;
        ServerRegistry registry(host);
        ServerConfig c;
        c.name = u"a"_s;
        c.program = u"/bin/true"_s;
        bool wholeWhenAdded = false;
        bool goneWhenRemoved = false;
        connect(&registry, &ServerRegistry::serverAdded, this, [&](const ServerConfig &added) {
            wholeWhenAdded = added.name == c.name && registry.servers()->indexOf(c.name) == 0 &&
                             registry.views()->holds(c.name) &&
                             registry.views()->roots(c.name) == QStringList{u"file:///r"_s};
        });
        connect(&registry, &ServerRegistry::serverRemoved, this, [&](const QString &name) {
            goneWhenRemoved = name == c.name && registry.servers()->indexOf(c.name) < 0 &&
                              !registry.views()->holds(c.name);
        });
        QSignalSpy added(&registry, &ServerRegistry::serverAdded);
        QSignalSpy removed(&registry, &ServerRegistry::serverRemoved);
        registry.add(c, {u"file:///r"_s}, false);
        QCOMPARE(added.count(), 1);
        QVERIFY(wholeWhenAdded);
        registry.remove(c.name);
        QCOMPARE(removed.count(), 1);
        QVERIFY(goneWhenRemoved);
        QCOMPARE(registry.servers()->size(), 0);
        QSignalSpy down(&host, &CoreHost::shutdownFinished);
        host.shutdown();
        QVERIFY(down.wait(5000));
    }
};

QTEST_MAIN(TestServerRegistry)
#include "tst_serverregistry.moc"
