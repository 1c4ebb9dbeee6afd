// SPDX-License-Identifier: MIT
// The one list of fault kinds: every kind is in it with a name, a label and what it does;
// names parse back; where each applies; and the man page and the docs name every kind, so a
// new kind cannot be left out of them.
#include "transport/fault.h"

#include "testpaths.h"

#include <QFile>
#include <QSet>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

using Kind = Fault::Kind;
Q_DECLARE_METATYPE(Fault::Target)

namespace {

// Every enumerator, from the first to the last the enum declares.
QList<Kind> everyKind()
{
    QList<Kind> kinds;
    for (int k = int(Kind::ExpireSession); k <= int(Kind::DropListen); ++k)
        kinds << Kind(k);
    return kinds;
}

Fault::Target target(bool http, bool streamable, bool sessions, bool listening = false)
{
    Fault::Target t;
    t.http = http;
    t.streamableHttp = streamable;
    t.sessions = sessions;
    t.listening = listening;
    return t;
}

} // namespace

class TestFault : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyKindIsListedOnceWithItsWords()
    {
        QSet<QString> names;
        QCOMPARE(Fault::all().size(), everyKind().size());
        for (Kind k : everyKind()) {
            const Fault::Info &i = Fault::info(k);
            QCOMPARE(i.kind, k);
            QVERIFY(!i.name.isEmpty() && !i.label.isEmpty() && !i.description.isEmpty());
            QVERIFY2(!names.contains(i.name), qPrintable(i.name));
            names.insert(i.name);
            QCOMPARE(Fault::parseKind(i.name), std::optional<Kind>(k));
            QCOMPARE(Fault::kindName(k), i.name);
            QVERIFY2(Fault::nameList().contains(i.name), qPrintable(i.name));
        }
        QCOMPARE(Fault::all().constLast().kind, Kind::Clear);
        QVERIFY(!Fault::parseKind(u"expire"_s));
    }

    void aFaultAppliesWhereItCanDoWhatItSays_data()
    {
        QTest::addColumn<Kind>("kind");
        QTest::addColumn<Fault::Target>("target");
        QTest::addColumn<bool>("applies");
        const auto stdio = target(false, false, true);
        const auto streamable = target(true, true, true);
        const auto legacySse = target(true, false, true);
        const auto modernHttp = target(true, true, false);
        const auto modernListening = target(true, true, false, true);
        QTest::newRow("a session expires on Streamable HTTP")
            << Kind::ExpireSession << streamable << true;
        QTest::newRow("legacy SSE has no session header to expire")
            << Kind::ExpireSession << legacySse << false;
        QTest::newRow("2026-07-28 has no session to corrupt")
            << Kind::CorruptSessionId << modernHttp << false;
        QTest::newRow("an expiry after dispatch needs a session")
            << Kind::ExpireAfterDispatch << stdio << true;
        QTest::newRow("only a stdio server's process can be killed")
            << Kind::KillProcess << streamable << false;
        QTest::newRow("a stdio server dies during the next call")
            << Kind::KillDuringNextCall << stdio << true;
        QTest::newRow("stdio has no HTTP status to fake") << Kind::HttpStatus << stdio << false;
        QTest::newRow("a 2026-07-28 response stream drops over HTTP")
            << Kind::DropStream << modernHttp << true;
        QTest::newRow("the initialize era has no response stream to drop so")
            << Kind::DropStream << streamable << false;
        QTest::newRow("a version is refused only in 2026-07-28")
            << Kind::UnsupportedVersion << stdio << false;
        QTest::newRow("a listen stream drops only while one is open")
            << Kind::DropListen << modernHttp << false;
        QTest::newRow("an open listen stream can be dropped")
            << Kind::DropListen << modernListening << true;
        QTest::newRow("a delay applies anywhere") << Kind::Delay << stdio << true;
        QTest::newRow("clearing applies anywhere") << Kind::Clear << modernHttp << true;
    }
    void aFaultAppliesWhereItCanDoWhatItSays()
    {
        QFETCH(Kind, kind);
        QFETCH(Fault::Target, target);
        QFETCH(bool, applies);
        QCOMPARE(Fault::appliesTo(kind, target), applies);
    }

    void theManPageAndTheDocsNameEveryKind_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("sonde-cli's man page") << u"docs/man/sonde-cli.1"_s;
        QTest::newRow("the CLI reference") << u"docs/cli.md"_s;
    }
    void theManPageAndTheDocsNameEveryKind()
    {
        QFETCH(QString, path);
        QFile f(QStringLiteral(SONDE_SOURCE_DIR) + u'/' + path);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
        // The man page escapes its hyphens (\-).
        const QString text = QString::fromUtf8(f.readAll()).replace(u"\\-"_s, u"-"_s);
        for (const Fault::Info &i : Fault::all())
            QVERIFY2(text.contains(i.name), qPrintable(path + u" does not name "_s + i.name));
    }
};

QTEST_GUILESS_MAIN(TestFault)
#include "tst_fault.moc"
