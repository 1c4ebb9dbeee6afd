// SPDX-License-Identifier: MIT
// MissingSecrets: which servers still name a secret the store could not give back, what each
// update changed for the window to say, and the lines asking for them.
#include "application/workspace/missingsecrets.h"
#include "application/workspace/workspacesecrets.h"
#include "config/serverconfig.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace Sonde;

namespace {

// A server whose Authorization header is still the store's reference (not read back), or
// has its value again.
ServerConfig server(const QString &name, bool tokenMissing)
{
    ServerConfig c;
    c.name = name;
    c.url = QUrl(u"http://127.0.0.1:9/mcp"_s);
    const QByteArray value = tokenMissing ? WorkspaceSecrets::referenceFor(name, "Authorization")
                                          : QByteArrayLiteral("Bearer entered-again");
    c.headers.append({QByteArrayLiteral("Authorization"), value});
    return c;
}

} // namespace

class TstMissingSecrets : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aServerThatHadAllItsSecretsChangesNothing()
    {
        MissingSecrets m;
        const ServerConfig c = server(u"demo"_s, false);
        QCOMPARE(m.update(u"demo"_s, &c), MissingSecrets::Change::None);
        QVERIFY(m.isEmpty());
        QVERIFY(m.lines(u"keyring"_s).isEmpty());
    }

    void aMissingSecretGivesALineNamingTheServerTheValueAndTheStore()
    {
        MissingSecrets m;
        const ServerConfig c = server(u"demo"_s, true);
        QCOMPARE(m.update(u"demo"_s, &c), MissingSecrets::Change::StillMissing);
        const QStringList lines = m.lines(u"keyring"_s);
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines.first().startsWith(u"demo: the secret header Authorization"_s),
                 qPrintable(lines.first()));
        QVERIFY(lines.first().contains(u"keyring secret store; enter it again"_s));
    }

    void enteringTheLastSecretAgainSaysAllAreEntered_data()
    {
        QTest::addColumn<bool>("serverRemoved");
        QTest::newRow("the secret is entered again") << false;
        QTest::newRow("the server is removed") << true;
    }

    void enteringTheLastSecretAgainSaysAllAreEntered()
    {
        QFETCH(bool, serverRemoved);
        MissingSecrets m;
        const ServerConfig a = server(u"a"_s, true);
        const ServerConfig b = server(u"b"_s, true);
        m.update(u"a"_s, &a);
        m.update(u"b"_s, &b);
        QCOMPARE(m.lines(u"keyring"_s).size(), 2);

        const ServerConfig aEntered = server(u"a"_s, false);
        QCOMPARE(m.update(u"a"_s, serverRemoved ? nullptr : &aEntered),
                 MissingSecrets::Change::StillMissing);
        QCOMPARE(m.lines(u"keyring"_s).size(), 1);
        QVERIFY(m.lines(u"keyring"_s).first().startsWith(u"b: "_s));

        const ServerConfig bEntered = server(u"b"_s, false);
        QCOMPARE(m.update(u"b"_s, serverRemoved ? nullptr : &bEntered),
                 MissingSecrets::Change::AllEntered);
        QVERIFY(m.isEmpty());
        // Said once: the next update of a server with all its secrets says nothing.
        QCOMPARE(m.update(u"b"_s, &bEntered), MissingSecrets::Change::None);
    }
};

QTEST_GUILESS_MAIN(TstMissingSecrets)
#include "tst_missingsecrets.moc"
