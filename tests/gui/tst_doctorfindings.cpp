// SPDX-License-Identifier: MIT
// The doctor in the window, headless (docs/doctor.md, "Live, in the window"): every session
// the registry adds is linted as the window's transcript takes its batches, off the GUI
// thread. A message that breaks a rule becomes a finding in its severity's group
// (DoctorFindingModel, under QAbstractItemModelTester) and a count on the server's row
// (ServerListModel); a clean exchange finds nothing. A finding keeps pointing at its event's
// row while the transcript drops its front. A proxied session is linted too, but has no
// configuration to Run the probes with. A server removed takes its findings with it, and
// what was still being linted for it never lands on a server added again under its name.
#include "application/doctor/doctorcontroller.h"
#include "application/doctor/doctorfindingmodel.h"
#include "application/doctor/doctorfindingstore.h"
#include "application/doctor/livelinter.h"
#include "application/servers/serverlistmodel.h"
#include "application/servers/serverregistry.h"
#include "application/servers/serverstore.h"
#include "application/transcript/transcriptstore.h"
#include "engine/corehost.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;
using Direction = TranscriptEvent::Direction;

namespace {

const QString Server = u"srv"_s;

TranscriptEvent frame(Direction direction, const QByteArray &raw, const QString &server = Server)
{
    static qint64 t = 1000;
    TranscriptEvent e;
    e.timeMs = ++t;
    e.server = server;
    e.generation = 1;
    e.direction = direction;
    e.raw = raw;
    return e;
}

TranscriptEvent sent(const QByteArray &raw)
{
    return frame(Direction::Outgoing, raw);
}

TranscriptEvent got(const QByteArray &raw)
{
    return frame(Direction::Incoming, raw);
}

TranscriptEvent stderrLine(int n)
{
    return frame(Direction::Stderr, "log line " + QByteArray::number(n));
}

// A handshake and a tool list that break nothing.
TranscriptBatch cleanExchange()
{
    return {
        sent(
            R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"),
        got(R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}})"),
        sent(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"),
        sent(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})"),
        got(R"({"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}})"),
    };
}

} // namespace

class TestDoctorFindings : public QObject
{
    Q_OBJECT

    // The window's parts the doctor hangs off, as MainWindow composes them.
    struct Window
    {
        explicit Window(int transcriptCapacity = TranscriptStore::DefaultCapacity)
            : transcript(transcriptCapacity)
        {
        }
        ~Window()
        {
            QSignalSpy down(&host, &CoreHost::shutdownFinished);
            host.shutdown();
            down.wait(5000);
        }
        CoreHost host;
        ServerRegistry registry{host};
        TranscriptStore transcript;
        DoctorController doctor{&registry, &transcript};
        ServerListModel servers{registry.servers()};

        void add(const QString &name, ServerConfig::Route route)
        {
            ServerConfig c;
            c.name = name;
            c.route = route;
            if (route == ServerConfig::Route::Stdio)
                c.program = u"/bin/false"_s; // never started: added unconnected
            else
                c.url = QUrl(u"http://127.0.0.1:9/mcp"_s);
            registry.add(c, {}, false);
        }
        // Appends the batch to the transcript and waits until it is linted.
        bool feed(const TranscriptBatch &batch)
        {
            QSignalSpy linted(doctor.linter(), &LiveLinter::linted);
            const qint64 end = transcript.sequence(transcript.size()) + batch.size();
            transcript.append(batch);
            return linted.wait(5000) && linted.last().at(0).toLongLong() == end;
        }
        QString rowText(const QString &name) const
        {
            return servers.index(registry.servers()->indexOf(name)).data().toString();
        }
        int rowCount(const QString &name) const
        {
            return servers.index(registry.servers()->indexOf(name))
                .data(ServerListModel::DoctorCountRole)
                .toInt();
        }
    };

    static DoctorFinding finding(const QString &check, DoctorSeverity severity, bool live = true)
    {
        DoctorFinding f;
        f.checkId = check;
        f.severity = severity;
        f.message = check;
        f.live = live;
        return f;
    }

private Q_SLOTS:
    void initTestCase()
    {
        qRegisterMetaType<DoctorFinding>();
        qRegisterMetaType<TranscriptBatch>();
    }

    void aBrokenRuleIsAFindingInItsSeverityGroup_data()
    {
        QTest::addColumn<bool>("stdio");
        QTest::addColumn<TranscriptBatch>("batch");
        QTest::addColumn<QString>("check");
        QTest::addColumn<int>("severity");
        QTest::addColumn<QByteArray>("evidence"); // the frame the finding opens

        const QByteArray garbage = "Server listening on stdio";
        QTest::newRow("a stdout line that is not JSON is an error of a stdio server")
            << true << TranscriptBatch{cleanExchange() << got(garbage)}
            << u"stdio.non-jsonrpc-stdout"_s << int(DoctorSeverity::Error) << garbage;
        QTest::newRow("the same line from an HTTP server is an invalid envelope")
            << false << TranscriptBatch{got(garbage)} << u"jsonrpc.envelope-invalid"_s
            << int(DoctorSeverity::Error) << garbage;
        const QByteArray noVersion = R"({"id":7,"result":{}})";
        QTest::newRow("an answer without \"jsonrpc\" is an invalid envelope")
            << true
            << TranscriptBatch{sent(R"({"jsonrpc":"2.0","id":7,"method":"ping"})"), got(noVersion)}
            << u"jsonrpc.envelope-invalid"_s << int(DoctorSeverity::Error) << noVersion;
        const QByteArray badName =
            R"({"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"get weather","inputSchema":{"type":"object"}}]}})";
        QTest::newRow("a tool name with a space in it is a warning")
            << false
            << TranscriptBatch{sent(R"({"jsonrpc":"2.0","id":3,"method":"tools/list"})"),
                               got(badName)}
            << u"tools.name-invalid"_s << int(DoctorSeverity::Warning) << badName;
        QTest::newRow("a clean handshake and tool list find nothing")
            << true << cleanExchange() << QString() << -1 << QByteArray();
    }
    void aBrokenRuleIsAFindingInItsSeverityGroup()
    {
        QFETCH(bool, stdio);
        QFETCH(TranscriptBatch, batch);
        QFETCH(QString, check);
        QFETCH(int, severity);
        QFETCH(QByteArray, evidence);

        Window w;
        w.add(Server, stdio ? ServerConfig::Route::Stdio : ServerConfig::Route::StreamableHttp);
        w.servers.watchDoctor(w.doctor.findings());
        DoctorFindingModel model(w.doctor.findings());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setServer(Server);
        QSignalSpy rowChanged(&w.servers, &QAbstractItemModel::dataChanged);
        QVERIFY(w.feed(batch));

        const QList<DoctorFinding> &found = w.doctor.findings()->findings(Server);
        if (check.isEmpty()) {
            QVERIFY2(found.isEmpty(), qPrintable(found.value(0).checkId));
            for (const DoctorSeverity s :
                 {DoctorSeverity::Error, DoctorSeverity::Warning, DoctorSeverity::Info})
                QCOMPARE(model.rowCount(model.groupIndex(s)), 0);
            QCOMPARE(w.rowCount(Server), 0);
            QVERIFY2(!w.rowText(Server).section(u'\n', 0, 0).contains(u'·'),
                     qPrintable(w.rowText(Server)));
            QVERIFY(rowChanged.isEmpty());
            return;
        }
        QCOMPARE(found.size(), 1);
        const DoctorFinding &f = found.first();
        QCOMPARE(f.checkId, check);
        QCOMPARE(int(f.severity), severity);
        QVERIFY(f.live);

        // Under its group, which counts it; the other groups stay empty.
        const QModelIndex group = model.groupIndex(DoctorSeverity(severity));
        QCOMPARE(model.rowCount(group), 1);
        QVERIFY(group.data().toString().endsWith(u"(1)"_s));
        const QModelIndex row = model.index(0, DoctorFindingModel::Finding, group);
        QCOMPARE(row.data(DoctorFindingModel::FindingRole).value<DoctorFinding>().checkId, check);
        QCOMPARE(model.index(0, DoctorFindingModel::Check, group).data().toString(), check);
        QCOMPARE(model.index(0, DoctorFindingModel::From, group).data().toString(), u"live"_s);
        int others = 0;
        for (int g = 0; g < model.rowCount(); ++g)
            others += g == severity ? 0 : model.rowCount(model.index(g, 0));
        QCOMPARE(others, 0);

        // The server's row counts it, and its view heard so.
        QCOMPARE(w.rowCount(Server), 1);
        QVERIFY(!rowChanged.isEmpty());
        const QString expected =
            severity == int(DoctorSeverity::Error) ? u"srv · 1 error"_s : u"srv · 1 warning"_s;
        QCOMPARE(w.rowText(Server).section(u'\n', 0, 0), expected);
        const QString tip = w.servers.index(0).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(u"Doctor tab"_s), qPrintable(tip));

        // Its evidence is the frame at its transcript row.
        const int at = w.transcript.rowOfSequence(
            row.data(DoctorFindingModel::TranscriptIndexRole).toLongLong());
        QVERIFY(at >= 0);
        QCOMPARE(w.transcript.event(at).raw, evidence);
        QCOMPARE(f.evidence.response, evidence);
    }

    void aFindingPointsAtItsRowWhileTheTranscriptDropsItsFront()
    {
        Window w(20); // drops 2 at a time once full
        w.add(Server, ServerConfig::Route::Stdio);
        TranscriptBatch before;
        for (int i = 0; i < 15; ++i)
            before << stderrLine(i);
        QVERIFY(w.feed(before));
        QVERIFY(w.feed({got("not json")}));
        TranscriptBatch after;
        for (int i = 0; i < 10; ++i)
            after << stderrLine(100 + i);
        QVERIFY(w.feed(after));
        QVERIFY(w.transcript.droppedCount() > 0);
        const QList<DoctorFinding> &found = w.doctor.findings()->findings(Server);
        QCOMPARE(found.size(), 1);
        const int index = found.first().evidence.transcriptIndex;
        QCOMPARE(index, 15);
        const int row = w.transcript.rowOfSequence(index);
        QVERIFY(row >= 0);
        QCOMPARE(w.transcript.event(row).raw, QByteArray("not json"));

        // Once the line is dropped, its index opens nothing rather than another row.
        TranscriptBatch more;
        for (int i = 0; i < 20; ++i)
            more << stderrLine(200 + i);
        QVERIFY(w.feed(more));
        QCOMPARE(w.transcript.rowOfSequence(index), -1);

        // Nor does a cleared transcript start the numbers again: no old finding opens a new row.
        const qint64 next = w.transcript.sequence(w.transcript.size());
        w.transcript.clear();
        QVERIFY(w.feed({stderrLine(300)}));
        QCOMPARE(w.transcript.sequence(0), next);
        QCOMPARE(w.transcript.rowOfSequence(index), -1);
    }

    void aBatchLargerThanTheTranscriptIsLintedWhole()
    {
        Window w(10);
        w.add(Server, ServerConfig::Route::Stdio);
        TranscriptBatch batch{got("not json")};
        for (int i = 0; i < 30; ++i)
            batch << stderrLine(i);
        QVERIFY(w.feed(batch));
        // The store never held the line; the linter saw it all the same.
        QCOMPARE(w.transcript.size(), 10);
        const QList<DoctorFinding> &found = w.doctor.findings()->findings(Server);
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().checkId, u"stdio.non-jsonrpc-stdout"_s);
        QCOMPARE(w.transcript.rowOfSequence(found.first().evidence.transcriptIndex), -1);
        // The rows it did hold keep their own numbers.
        QCOMPARE(w.transcript.sequence(0), qint64(21));
        QCOMPARE(w.transcript.event(w.transcript.rowOfSequence(30)).raw, QByteArray("log line 29"));
    }

    void aProxiedSessionIsLintedButHasNothingToRunWith()
    {
        Window w;
        ServerConfig c;
        c.name = u"client → srv"_s;
        c.route = ServerConfig::Route::Stdio;
        w.registry.addProxied(c);
        TranscriptBatch batch{frame(Direction::Incoming, "banner", c.name)};
        QVERIFY(w.feed(batch));
        QCOMPARE(w.doctor.findings()->problemCount(c.name), 1);

        const QString why = w.doctor.whyNoRun(c.name);
        QVERIFY2(why.contains(u"sonde-cli proxy"_s), qPrintable(why));
        QVERIFY(!w.doctor.start(c.name));
        QVERIFY(!w.doctor.isRunning(c.name));
        QCOMPARE(w.doctor.findings()->run(c.name).phase, DoctorFindingStore::Run::Phase::None);
        // A server Sonde connects to itself can.
        w.add(Server, ServerConfig::Route::Stdio);
        QCOMPARE(w.doctor.whyNoRun(Server), QString());
    }

    void aRemovedServerTakesItsFindingsAndNoneComeLate()
    {
        Window w;
        w.add(Server, ServerConfig::Route::Stdio);
        QVERIFY(w.feed({got("not json")}));
        QCOMPARE(w.doctor.findings()->problemCount(Server), 1);
        w.registry.remove(Server);
        QVERIFY(!w.doctor.findings()->holds(Server));

        // Linted while the server went and came back under its name: nothing of it lands.
        w.add(Server, ServerConfig::Route::Stdio);
        QSignalSpy linted(w.doctor.linter(), &LiveLinter::linted);
        w.transcript.append({got("another banner")});
        w.registry.remove(Server);
        w.add(Server, ServerConfig::Route::Stdio);
        QVERIFY(linted.wait(5000));
        QCOMPARE(w.doctor.findings()->findings(Server).size(), 0);
        // Its new linter starts afresh: the same rule broken again is said again.
        QVERIFY(w.feed({got("a third banner")}));
        QCOMPARE(w.doctor.findings()->findings(Server).size(), 1);
    }

    void theModelFollowsTheStoreThroughRunsAndServers()
    {
        DoctorFindingStore store;
        store.addServer(u"a"_s);
        store.addServer(u"b"_s);
        DoctorFindingModel model(&store);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setServer(u"a"_s);
        store.addFindings(u"a"_s, {finding(u"stdio.non-jsonrpc-stdout"_s, DoctorSeverity::Error),
                                   finding(u"tools.name-invalid"_s, DoctorSeverity::Warning)});
        store.addFindings(u"b"_s, {finding(u"tools.duplicate-name"_s, DoctorSeverity::Warning)});
        QCOMPARE(model.rowCount(model.groupIndex(DoctorSeverity::Error)), 1);
        QCOMPARE(model.rowCount(model.groupIndex(DoctorSeverity::Warning)), 1);
        QCOMPARE(model.groupIndex(DoctorSeverity::Warning).data().toString(), u"Warnings (1)"_s);

        // A run: its findings beside the live ones, marked; the next run takes them away.
        store.runStarted(u"a"_s);
        store.runStep(u"a"_s, u"tools/list"_s);
        QCOMPARE(store.run(u"a"_s).step, u"tools/list"_s);
        store.addFindings(u"a"_s, {finding(u"tools.call-no-answer"_s, DoctorSeverity::Info, false),
                                   finding(u"ping.not-answered"_s, DoctorSeverity::Error, false)});
        const QModelIndex info = model.groupIndex(DoctorSeverity::Info);
        QCOMPARE(model.rowCount(info), 1);
        QCOMPARE(model.index(0, DoctorFindingModel::From, info).data().toString(), u"run"_s);
        QCOMPARE(model.rowCount(model.groupIndex(DoctorSeverity::Error)), 2);
        QCOMPARE(store.problemCount(u"a"_s), 3);
        DoctorReport report;
        report.connected = true;
        store.runFinished(u"a"_s, report, false);
        QCOMPARE(store.run(u"a"_s).phase, DoctorFindingStore::Run::Phase::Finished);

        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        store.runStarted(u"a"_s);
        QCOMPARE(reset.size(), 1);
        QCOMPARE(model.rowCount(info), 0);
        QCOMPARE(model.rowCount(model.groupIndex(DoctorSeverity::Error)), 1);
        QVERIFY(model.index(0, 0, model.groupIndex(DoctorSeverity::Error))
                    .data(DoctorFindingModel::LiveRole)
                    .toBool());
        QCOMPARE(store.problemCount(u"a"_s), 2);

        // Another server's findings are its own.
        model.setServer(u"b"_s);
        QCOMPARE(model.rowCount(model.groupIndex(DoctorSeverity::Error)), 0);
        QCOMPARE(model.rowCount(model.groupIndex(DoctorSeverity::Warning)), 1);
        store.removeServer(u"b"_s);
        QCOMPARE(model.rowCount(model.groupIndex(DoctorSeverity::Warning)), 0);
        store.addFindings(u"b"_s, {finding(u"tools.duplicate-name"_s, DoctorSeverity::Warning)});
        QCOMPARE(model.rowCount(model.groupIndex(DoctorSeverity::Warning)), 0);
    }

    void aServersFindingsAreBounded()
    {
        DoctorFindingStore store;
        store.addServer(u"a"_s);
        QList<DoctorFinding> many;
        for (int i = 0; i < DoctorFindingStore::MaxFindings + 5; ++i)
            many << finding(u"progress.unknown-token"_s, DoctorSeverity::Error);
        store.addFindings(u"a"_s, many);
        QCOMPARE(store.findings(u"a"_s).size(), DoctorFindingStore::MaxFindings);
        QCOMPARE(store.unkept(u"a"_s), 5);
        QCOMPARE(store.count(u"a"_s, DoctorSeverity::Error), DoctorFindingStore::MaxFindings);
    }
};

QTEST_MAIN(TestDoctorFindings)
#include "tst_doctorfindings.moc"
