// SPDX-License-Identifier: MIT
// sonde-cli's one way to run: every command line becomes a CliCommand (history, run, a
// session command, or the answer to --help, --version and refused arguments), and the
// dispatcher runs each the same way: its exit status the first code it finishes with,
// whether inside start() or later, SIGINT or SIGTERM handed to its interrupt(), and a command
// that does not end within the bound it gives abandoned.
#include "clicommand.h"
#include "clidispatcher.h"
#include "usagecommand.h"

#include <QCoreApplication>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <csignal>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

// A command that finishes as the row says, and records what the dispatcher told it.
class FakeCommand : public CliCommand
{
public:
    enum class Ends
    {
        InsideStart,
        Later,
        TwiceLater,
        OnInterrupt,
        WithinItsBound,
        NotAtAll
    };

    FakeCommand(Ends ends, int code) : m_ends(ends), m_code(code) {}

    void start() override
    {
        ++started;
        switch (m_ends) {
        case Ends::InsideStart:
            Q_EMIT finished(m_code);
            break;
        case Ends::Later:
            QTimer::singleShot(10, this, [this] { Q_EMIT finished(m_code); });
            break;
        case Ends::TwiceLater:
            QTimer::singleShot(10, this, [this] {
                Q_EMIT finished(m_code);
                Q_EMIT finished(m_code + 1);
            });
            break;
        case Ends::OnInterrupt:
        case Ends::WithinItsBound:
        case Ends::NotAtAll:
            // The signal comes from outside, as a user's Ctrl-C: through SignalWatcher.
            QTimer::singleShot(10, this, [this] { ::raise(m_code); });
            break;
        }
    }
    void interrupt(int signo) override
    {
        interruptedBy = signo;
        if (m_ends == Ends::OnInterrupt)
            Q_EMIT finished(128 + signo);
        if (m_ends == Ends::WithinItsBound)
            QTimer::singleShot(10, this, [this, signo] { Q_EMIT finished(128 + signo); });
    }
    int stopBoundMs() const override { return m_ends == Ends::OnInterrupt ? 0 : 300; }
    void abandon(int signo) override
    {
        abandonedBy = signo;
        CliCommand::abandon(signo);
    }

    int started = 0;
    int interruptedBy = 0;
    int abandonedBy = 0;

private:
    Ends m_ends;
    int m_code;
};

} // namespace

class TestCliDispatcher : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyCommandLineIsACommand_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("command");
        QTest::addColumn<int>("usage"); // UsageCommand::Kind, or -1
        const int none = -1;
        QTest::newRow("history import is the history command")
            << QStringList{u"history"_s, u"import"_s, u"t.jsonl"_s, u"--db"_s, u"h.db"_s}
            << QByteArray("Sonde::HistoryCommand") << none;
        QTest::newRow("history with no subcommand is still the history command, which refuses")
            << QStringList{u"history"_s} << QByteArray("Sonde::HistoryCommand") << none;
        QTest::newRow("run with a collection is the collection command")
            << QStringList{u"run"_s, u"c.json"_s, u"--quiet"_s}
            << QByteArray("Sonde::CollectionCommand") << none;
        QTest::newRow("run without a collection is refused")
            << QStringList{u"run"_s} << QByteArray("Sonde::UsageCommand")
            << int(UsageCommand::Kind::Refused);
        QTest::newRow("a tool call is a session command")
            << QStringList{u"--command"_s, u"server"_s, u"tools"_s, u"call"_s, u"echo"_s}
            << QByteArray("Sonde::SessionCommand") << none;
        QTest::newRow("exec is a session command")
            << QStringList{u"--url"_s, u"http://127.0.0.1:1/mcp"_s, u"exec"_s, u"-"_s}
            << QByteArray("Sonde::SessionCommand") << none;
        QTest::newRow("--help is answered with the usage")
            << QStringList{u"--help"_s} << QByteArray("Sonde::UsageCommand")
            << int(UsageCommand::Kind::Help);
        QTest::newRow("--version is answered with the version")
            << QStringList{u"--version"_s} << QByteArray("Sonde::UsageCommand")
            << int(UsageCommand::Kind::Version);
        QTest::newRow("an unknown option is refused")
            << QStringList{u"--frobnicate"_s} << QByteArray("Sonde::UsageCommand")
            << int(UsageCommand::Kind::Refused);
    }

    void everyCommandLineIsACommand()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, command);
        QFETCH(int, usage);
        const std::unique_ptr<CliCommand> made = CliDispatcher::commandFor(args);
        QVERIFY(made);
        QCOMPARE(QByteArray(made->metaObject()->className()), command);
        if (usage >= 0)
            QCOMPARE(int(qobject_cast<UsageCommand *>(made.get())->kind()), usage);
    }

    void theExitStatusIsTheFirstCodeTheCommandFinishesWith_data()
    {
        QTest::addColumn<int>("ends");
        QTest::addColumn<int>("code");
        QTest::addColumn<int>("status");
        QTest::newRow("a command that finishes inside start() needs no event loop")
            << int(FakeCommand::Ends::InsideStart) << 2 << 2;
        QTest::newRow("a command that finishes later ends the event loop with its code")
            << int(FakeCommand::Ends::Later) << 1 << 1;
        QTest::newRow("a command that finishes twice exits with the first code")
            << int(FakeCommand::Ends::TwiceLater) << 0 << 0;
        QTest::newRow("Ctrl-C reaches the command, which exits 130")
            << int(FakeCommand::Ends::OnInterrupt) << int(SIGINT) << 130;
        QTest::newRow("SIGTERM reaches the command, which exits 143")
            << int(FakeCommand::Ends::OnInterrupt) << int(SIGTERM) << 143;
        QTest::newRow("a command that ends within its bound after Ctrl-C is not abandoned")
            << int(FakeCommand::Ends::WithinItsBound) << int(SIGINT) << 130;
        QTest::newRow("a command that does not end within its bound is abandoned, exit 130")
            << int(FakeCommand::Ends::NotAtAll) << int(SIGINT) << 130;
    }

    void theExitStatusIsTheFirstCodeTheCommandFinishesWith()
    {
        QFETCH(int, ends);
        QFETCH(int, code);
        QFETCH(int, status);
        FakeCommand command(FakeCommand::Ends(ends), code);
        // A dispatcher that never ends the run is a failure here, not a hung test.
        QTimer guard;
        guard.setSingleShot(true);
        connect(&guard, &QTimer::timeout, qApp, [] { QCoreApplication::exit(-1); });
        guard.start(5000);
        QCOMPARE(CliDispatcher::exec(command), status);
        QCOMPARE(command.started, 1);
        const bool signalled = ends >= int(FakeCommand::Ends::OnInterrupt);
        QCOMPARE(command.interruptedBy, signalled ? code : 0);
        QCOMPARE(command.abandonedBy,
                 FakeCommand::Ends(ends) == FakeCommand::Ends::NotAtAll ? code : 0);
    }

    void theHistoryCommandRunsThroughTheDispatcher_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("status");
        QTest::newRow("a history subcommand missing exits 2") << QStringList{u"history"_s} << 2;
        QTest::newRow("a history that is not there exits 1")
            << QStringList{u"history"_s, u"sessions"_s, u"--db"_s, u"$DIR/missing.db"_s} << 1;
        QTest::newRow("a transcript imported exits 0")
            << QStringList{u"history"_s, u"import"_s, u"$DIR/one.jsonl"_s, u"--db"_s,
                           u"$DIR/h.db"_s}
            << 0;
    }

    void theHistoryCommandRunsThroughTheDispatcher()
    {
        QFETCH(QStringList, args);
        QFETCH(int, status);
        QTemporaryDir dir;
        QFile one(dir.filePath(u"one.jsonl"_s));
        QVERIFY(one.open(QIODevice::WriteOnly));
        one.write("{\"dir\":\"stderr\",\"line\":\"a\",\"server\":\"s\",\"t_ms\":1}\n");
        one.close();
        for (QString &a : args)
            a.replace(u"$DIR"_s, dir.path());
        const std::unique_ptr<CliCommand> command = CliDispatcher::commandFor(args);
        QCOMPARE(CliDispatcher::exec(*command), status);
    }
};

QTEST_GUILESS_MAIN(TestCliDispatcher)
#include "tst_clidispatcher.moc"
