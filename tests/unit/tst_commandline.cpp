// SPDX-License-Identifier: MIT
// The one argument parser of sonde-cli and sonde-demo-server: options wherever they stand,
// the first problem in the command line said in the programs' words, --help and --version
// answered where they stand.
#include "util/commandline.h"

#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(CommandLine::Outcome)
Q_DECLARE_METATYPE(CommandLine::Problem)

namespace {

// A small table like sonde-cli's: a flag, a free value, a checked value, --help, --version.
struct Table
{
    CommandLine line;
    bool quiet = false;
    QString timeout;

    Table()
    {
        line.addHelpOption();
        line.addVersionOption();
        line.addFlag(u"--quiet"_s, [this] { quiet = true; });
        line.addValueOption(u"--transcript"_s);
        line.addValueOption(u"--timeout"_s, [this](const QString &v) {
            bool ok = false;
            if (v.toDouble(&ok) <= 0 || !ok)
                return u"--timeout wants seconds, got \"%1\""_s.arg(v);
            timeout = v;
            return QString();
        });
    }
};

} // namespace

class TestCommandLine : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsOrRefuses_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<CommandLine::Outcome>("outcome");
        QTest::addColumn<CommandLine::Problem>("problem");
        QTest::addColumn<QString>("error");
        QTest::addColumn<QStringList>("positional");
        using O = CommandLine::Outcome;
        using P = CommandLine::Problem;
        QTest::newRow("options before and after the command are all read")
            << QStringList{u"--quiet"_s, u"tools"_s, u"call"_s, u"--timeout"_s, u"2"_s} << O::Parsed
            << P::None << QString() << QStringList{u"tools"_s, u"call"_s};
        QTest::newRow("a value that starts with a dash is still the option's value")
            << QStringList{u"--transcript"_s, u"-"_s, u"ping"_s} << O::Parsed << P::None
            << QString() << QStringList{u"ping"_s};
        QTest::newRow("a value that starts with two dashes is still the option's value")
            << QStringList{u"--transcript"_s, u"--quiet"_s} << O::Parsed << P::None << QString()
            << QStringList{};
        QTest::newRow("a single dash is a positional word (stdin)")
            << QStringList{u"exec"_s, u"-"_s} << O::Parsed << P::None << QString()
            << QStringList{u"exec"_s, u"-"_s};
        QTest::newRow("an unknown option is named")
            << QStringList{u"--bogus"_s, u"ping"_s} << O::Refused << P::UnknownOption
            << u"unknown option --bogus"_s << QStringList{};
        QTest::newRow("a lone double dash is an unknown option, not an end of options")
            << QStringList{u"ping"_s, u"--"_s, u"--quiet"_s} << O::Refused << P::UnknownOption
            << u"unknown option --"_s << QStringList{u"ping"_s};
        QTest::newRow("a misspelt flag before a value is unknown, not short of a value")
            << QStringList{u"--quiett"_s} << O::Refused << P::UnknownOption
            << u"unknown option --quiett"_s << QStringList{};
        QTest::newRow("an option that takes a value, last, needs one")
            << QStringList{u"ping"_s, u"--timeout"_s} << O::Refused << P::MissingValue
            << u"--timeout needs a value"_s << QStringList{u"ping"_s};
        QTest::newRow("a refused value is said in the handler's words")
            << QStringList{u"--timeout"_s, u"soon"_s} << O::Refused << P::BadValue
            << u"--timeout wants seconds, got \"soon\""_s << QStringList{};
        QTest::newRow("the first problem in the command line is the one said")
            << QStringList{u"--timeout"_s, u"soon"_s, u"--bogus"_s} << O::Refused << P::BadValue
            << u"--timeout wants seconds, got \"soon\""_s << QStringList{};
        QTest::newRow("an unknown option before a bad value is said first")
            << QStringList{u"--bogus"_s, u"--timeout"_s, u"soon"_s} << O::Refused
            << P::UnknownOption << u"unknown option --bogus"_s << QStringList{};
        QTest::newRow("help stops the reading where it stands")
            << QStringList{u"ping"_s, u"--help"_s, u"--bogus"_s} << O::Help << P::None << QString()
            << QStringList{u"ping"_s};
        QTest::newRow("a problem before help is still said")
            << QStringList{u"--bogus"_s, u"--help"_s} << O::Refused << P::UnknownOption
            << u"unknown option --bogus"_s << QStringList{};
        QTest::newRow("version stops the reading where it stands")
            << QStringList{u"--version"_s, u"--timeout"_s} << O::Version << P::None << QString()
            << QStringList{};
    }
    void readsOrRefuses()
    {
        QFETCH(QStringList, args);
        QFETCH(CommandLine::Outcome, outcome);
        QFETCH(CommandLine::Problem, problem);
        QFETCH(QString, error);
        QFETCH(QStringList, positional);
        Table t;
        QCOMPARE(t.line.parse(args), outcome);
        QCOMPARE(t.line.problem(), problem);
        QCOMPARE(t.line.errorText(), error);
        QCOMPARE(t.line.positionalArguments(), positional);
    }

    void handlersRunAndTheLastValueIsKept()
    {
        Table t;
        QCOMPARE(t.line.parse({u"--timeout"_s, u"1"_s, u"ping"_s, u"--quiet"_s, u"--timeout"_s,
                               u"3"_s, u"--transcript"_s, u"t.jsonl"_s}),
                 CommandLine::Outcome::Parsed);
        QVERIFY(t.quiet);
        QCOMPARE(t.timeout, u"3"_s);
        QCOMPARE(t.line.value(u"--timeout"_s), u"3"_s);
        QCOMPARE(t.line.value(u"--transcript"_s), u"t.jsonl"_s);
        QVERIFY(t.line.isSet(u"--quiet"_s));
        QVERIFY(!t.line.isSet(u"--help"_s));
    }

    void withoutHelpInTheTableHelpIsUnknown()
    {
        // sonde-demo-server and `sonde-cli run` answer --help with their usage error.
        CommandLine line;
        QCOMPARE(line.parse({u"--help"_s}), CommandLine::Outcome::Refused);
        QCOMPARE(line.problem(), CommandLine::Problem::UnknownOption);
        QCOMPARE(line.problemOption(), u"--help"_s);
    }

    void aPositionalHandlerRefusesAWordInOrder()
    {
        CommandLine line;
        line.addFlag(u"--quiet"_s);
        QString path;
        line.setPositionalHandler([&path](const QString &word) {
            if (!path.isEmpty())
                return u"one collection, got \"%1\" too"_s.arg(word);
            path = word;
            return QString();
        });
        QCOMPARE(line.parse({u"a.json"_s, u"b.json"_s, u"--bogus"_s}),
                 CommandLine::Outcome::Refused);
        QCOMPARE(line.problem(), CommandLine::Problem::BadPositional);
        QCOMPARE(line.errorText(), u"one collection, got \"b.json\" too"_s);
        QCOMPARE(line.problemOption(), u"b.json"_s);
        QCOMPARE(path, u"a.json"_s);
    }

    // The window's --help is generated from what each option documents.
    void theHelpTextListsEachDocumentedOptionInTwoColumns()
    {
        CommandLine line;
        line.addHelpOption({u"--help"_s, u"-h"_s});
        line.addVersionOption();
        line.addValueOption(u"--tab"_s);
        line.document(u"--tab"_s, u"Open on this tab."_s, u"index"_s);
        line.addFlag(u"--dark"_s);
        line.document(u"--dark"_s, u"Use a dark palette."_s);
        const QString help = line.helpText(u"prog [options]"_s, u"A program"_s);
        QCOMPARE(help, u"Usage: prog [options]\n"
                       "A program\n"
                       "\n"
                       "Options:\n"
                       "  --help, -h     Displays help on commandline options.\n"
                       "  --version      Displays version information.\n"
                       "  --tab <index>  Open on this tab.\n"
                       "  --dark         Use a dark palette.\n"_s);
    }

    void aLongDescriptionWrapsUnderItsColumnWithin79Characters()
    {
        CommandLine line;
        line.addFlag(u"--long"_s);
        QString text;
        for (int i = 0; i < 40; ++i)
            text += u"word%1 "_s.arg(i);
        line.document(u"--long"_s, text.trimmed());
        const QStringList lines = line.helpText(u"p"_s, u"d"_s).split(u'\n');
        const qsizetype first = lines.indexOf(lines.filter(u"--long"_s).first());
        QVERIFY(lines.size() > first + 3);
        for (qsizetype i = first; i < lines.size() && !lines[i].isEmpty(); ++i) {
            QVERIFY2(lines[i].size() <= 79, qPrintable(lines[i]));
            if (i > first)
                QVERIFY2(lines[i].startsWith(QString(10, u' ') + u"word"_s), qPrintable(lines[i]));
        }
        QVERIFY(lines.join(u' ').simplified().endsWith(u"word39"_s));
    }

    void anExtraHelpNameStopsTheReadingLikeHelp()
    {
        CommandLine line;
        line.addHelpOption({u"--help"_s, u"-h"_s});
        line.addFlag(u"--dark"_s);
        QCOMPARE(line.parse({u"--dark"_s, u"-h"_s, u"--nonsense"_s}), CommandLine::Outcome::Help);
        QVERIFY(line.isSet(u"--dark"_s));
        CommandLine cli; // sonde-cli's: "-h" is a word like any other
        cli.addHelpOption();
        QCOMPARE(cli.parse({u"-h"_s}), CommandLine::Outcome::Parsed);
        QCOMPARE(cli.positionalArguments(), QStringList{u"-h"_s});
    }
};

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_commandline.moc"
