// SPDX-License-Identifier: MIT
// The verdicts the window shows ("outcome uncertain", "sent again", "not sent: breaker
// open") are rows of the transcript view, from the real engine against sonde-demo-server,
// and lines of both exports, naming the original request; and the timeline over what the
// real engine recorded tells each outcome (over stdio, and an HTTP 503 over HTTP).
#include "application/timeline/timelinelayout.h"
#include "application/transcript/transcriptexporter.h"
#include "application/transcript/transcriptfilterproxymodel.h"
#include "application/transcript/transcriptmodel.h"
#include "application/transcript/transcriptstore.h"
#include "demohttpfixture.h"
#include "engine/corehost.h"
#include "testpaths.h"
#include "transcript/transcriptpanel.h"
#include "transport/fault.h"

#include <QJsonDocument>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 T0 = 1796131880000;

TranscriptEvent verdict(qint64 t, const QJsonObject &details)
{
    TranscriptEvent e;
    e.timeMs = T0 + t;
    e.server = u"sonde-demo-server"_s;
    e.generation = 2;
    e.direction = TranscriptEvent::Direction::Lifecycle;
    QJsonObject d = details;
    d.insert("t_ms"_L1, T0 + t);
    e.details = std::make_shared<const LifecycleDetails>(HistoryEvent::fromJson(d));
    e.kind = e.history()->kind();
    e.event = eventKindName(e.kind);
    return e;
}

// The three verdicts as a real run writes them (sonde-cli --transcript, the demo server).
TranscriptBatch verdicts()
{
    return {verdict(10, {{"type"_L1, "outcome-uncertain"_L1},
                         {"request_id"_L1, 2},
                         {"generation"_L1, 1},
                         {"method"_L1, "tools/call"_L1},
                         {"tool"_L1, "increment-counter"_L1},
                         {"rule"_L1, "text-marker"_L1},
                         {"reconnect"_L1, "ok"_L1},
                         {"ticket"_L1, 2},
                         {"progress_token"_L1, "sonde-2"_L1}}),
            verdict(20, {{"type"_L1, "sent-again"_L1},
                         {"request_id"_L1, 3},
                         {"generation"_L1, 2},
                         {"new_request_id"_L1, 9},
                         {"new_generation"_L1, 3},
                         {"method"_L1, "tools/call"_L1},
                         {"tool"_L1, "get-counter"_L1},
                         {"rule"_L1, "text-marker"_L1},
                         {"ticket"_L1, 4},
                         {"progress_token"_L1, "sonde-4"_L1}}),
            verdict(30, {{"type"_L1, "breaker-refused"_L1},
                         {"method"_L1, "tools/call"_L1},
                         {"tool"_L1, "echo"_L1},
                         {"cause"_L1, "sonde-demo-server's circuit breaker is open because it "
                                      "was tripped by hand (user)"_L1},
                         {"retry_in_s"_L1, 60},
                         {"ticket"_L1, 6},
                         {"progress_token"_L1, "sonde-6"_L1}})};
}

// Every command answers with its ticket (a fault too): each step waits for its own.
bool answered(const QSignalSpy &finished, quint64 ticket)
{
    return std::any_of(finished.cbegin(), finished.cend(), [ticket](const QList<QVariant> &args) {
        return args.at(0).value<CallOutcome>().ticket == ticket;
    });
}

ServerConfig demo()
{
    ServerConfig c;
    c.name = u"demo"_s;
    c.program = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
    c.era = ServerConfig::Era::Initialize; // the verdicts of a session expiry (docs/recovery.md §7)
    return c;
}

} // namespace

class TestTranscriptVerdicts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theExportsWriteEachVerdictWithItsRequest_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<QByteArray>("jsonl");    // in the JSON Lines record
        QTest::addColumn<QString>("markdownRow"); // in the Markdown table's row
        QTest::newRow("outcome uncertain names request 2 of generation 1")
            << 0 << QByteArray("\"event\":\"outcome-uncertain\"")
            << u"| outcome-uncertain |  | outcome uncertain: tools/call increment-counter #2 "
               "(generation 1) was not sent again (text-marker); reconnect ok **error** |"_s;
        QTest::newRow("sent again names the original and the new request")
            << 1 << QByteArray("\"new_request_id\":9")
            << u"| sent-again |  | sent again: tools/call get-counter #3 (generation 2) as #9 on "
               "generation 3 (text-marker) |"_s;
        QTest::newRow("a breaker refusal names the call, its cause and the wait")
            << 2 << QByteArray("\"event\":\"breaker-refused\"")
            << u"| breaker-refused |  | not sent, breaker open: tools/call echo; retry in 60 s"_s;
    }
    void theExportsWriteEachVerdictWithItsRequest()
    {
        QFETCH(int, row);
        QFETCH(QByteArray, jsonl);
        QFETCH(QString, markdownRow);
        TranscriptStore store;
        store.append(verdicts());
        const QList<QByteArray> lines =
            TranscriptExporter::toJsonLines(store, true, {}).split('\n');
        QCOMPARE(lines.size(), 4); // three lines and the last newline
        const QByteArray line = lines.at(row);
        QVERIFY2(line.contains(jsonl), line.constData());
        // The same record sonde-cli writes, read back to the same verdict.
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        QCOMPARE(o.value("dir"_L1).toString(), u"event"_s);
        const HistoryEvent back = HistoryEvent::fromJson(o.value("details"_L1).toObject());
        QCOMPARE(back, *store.event(row).history());
        const QString md = QString::fromUtf8(TranscriptExporter::toMarkdown(store, true, {}));
        QVERIFY2(md.contains(markdownRow), qPrintable(md));
    }

    void filteringByTheMethodKeepsTheVerdictsBesideTheCalls()
    {
        TranscriptStore store;
        store.append(verdicts());
        TranscriptModel model(&store);
        TranscriptFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setMethodFilter(u"tools/call"_s);
        QCOMPARE(proxy.rowCount(), 3);
        proxy.setMethodFilter(u"resources/read"_s);
        QCOMPARE(proxy.rowCount(), 0);
    }

    void theTimelineTellsTheOutcomesTheRealEngineRecorded()
    {
        SondeTest::DemoHttpServer http;
        QVERIFY2(http.start(), "sonde-demo-server --http did not start");
        const QUrl url(http.url());

        CoreHost host;
        TranscriptStore store;
        connect(&host, &CoreHost::transcriptBatch, &store, &TranscriptStore::append);
        TimelineLayout layout;
        layout.setStore(&store);
        QSignalSpy finished(&host, &CoreHost::callFinished);
        host.addServer(demo());
        ServerConfig web;
        web.name = u"web"_s;
        web.route = ServerConfig::Route::StreamableHttp;
        web.url = url;
        web.era = ServerConfig::Era::Initialize;
        host.addServer(web);
        const auto call = [&](const QString &server, const QString &tool, int timeoutMs = 0,
                              const QJsonObject &args = {}) {
            CallRequest r;
            r.server = server;
            r.method = u"tools/call"_s;
            r.params = {{"name"_L1, tool}, {"arguments"_L1, args}};
            r.timeoutMs = timeoutMs;
            return host.call(r);
        };
        const auto waitFor = [&](quint64 ticket) {
            QTRY_VERIFY_WITH_TIMEOUT(answered(finished, ticket), 20000);
        };
        const auto fault = [&](const QString &server, Fault::Kind kind, int ms = 0,
                               int status = 0) {
            Fault f;
            f.kind = kind;
            f.ms = ms;
            f.status = status;
            host.injectFault(server, f);
        };
        fault(u"demo"_s, Fault::Kind::ExpireAfterDispatch);
        waitFor(call(u"demo"_s, u"increment-counter"_s));
        fault(u"demo"_s, Fault::Kind::ExpireAfterDispatch);
        waitFor(call(u"demo"_s, u"get-counter"_s));
        const quint64 slow = call(u"demo"_s, u"slow-task"_s, 0, {{"duration_ms"_L1, 5000}});
        // Cancelled once it is on the wire (the cancel is then a notifications/cancelled).
        const auto sent = [&](const QByteArray &tool) {
            const QByteArray quoted = QByteArray("\"") + tool + QByteArray("\"");
            for (int r = 0; r < store.size(); ++r)
                if (store.event(r).direction == TranscriptEvent::Direction::Outgoing &&
                    store.event(r).raw.contains(quoted))
                    return true;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(sent("slow-task"), 5000);
        host.cancel(slow);
        waitFor(slow);
        fault(u"demo"_s, Fault::Kind::Delay, 1500);
        waitFor(call(u"demo"_s, u"echo"_s, 300, {{"message"_L1, "late"_L1}}));
        fault(u"demo"_s, Fault::Kind::Clear);
        host.breaker(u"demo"_s, BreakerAction::Trip);
        waitFor(call(u"demo"_s, u"echo"_s));
        QTRY_VERIFY_WITH_TIMEOUT(layout.laneOf(u"web"_s) >= 0, 10000);
        fault(u"web"_s, Fault::Kind::HttpStatus, 0, 503);
        waitFor(call(u"web"_s, u"echo"_s, 0, {{"message"_L1, "x"_L1}}));

        // The tools/call spans of each lane by tool name, in order, with their outcomes.
        const auto outcomes = [&](const QString &server) {
            QStringList out;
            const int lane = layout.laneOf(server);
            for (const auto &span : layout.spans(lane)) {
                const QString tool = QJsonDocument::fromJson(store.event(span.requestRow).raw)
                                         .object()
                                         .value("params"_L1)
                                         .toObject()
                                         .value("name"_L1)
                                         .toString();
                if (!tool.isEmpty())
                    out << tool + u": "_s + TimelineLayout::outcomeName(span.outcome);
            }
            return out;
        };
        QTRY_COMPARE_WITH_TIMEOUT(
            outcomes(u"demo"_s),
            (QStringList{u"increment-counter: outcome uncertain"_s, u"get-counter: sent again"_s,
                         u"get-counter: ok"_s, u"slow-task: cancelled"_s, u"echo: timed out"_s}),
            5000);
        QCOMPARE(outcomes(u"web"_s), QStringList{u"echo: HTTP error"_s});
        bool refused = false;
        for (const auto &m : layout.markers(layout.laneOf(u"demo"_s)))
            refused = refused || m.kind == TimelineLayout::MarkerKind::BreakerRefused;
        QVERIFY(refused);

        QSignalSpy done(&host, &CoreHost::shutdownFinished);
        host.shutdown();
        QTRY_VERIFY_WITH_TIMEOUT(done.size() > 0, 10000);
    }

    void theTranscriptViewShowsTheVerdictsOfTheRealEngine()
    {
        CoreHost host;
        TranscriptStore store;
        connect(&host, &CoreHost::transcriptBatch, &store, &TranscriptStore::append);
        TranscriptPanel panel(&store);
        panel.resize(1000, 500);
        panel.show();
        QSignalSpy finished(&host, &CoreHost::callFinished);
        host.addServer(demo());
        const auto callAndWait = [&](const QString &tool) {
            const quint64 ticket = host.call(u"demo"_s, u"tools/call"_s,
                                             {{"name"_L1, tool}, {"arguments"_L1, QJsonObject()}});
            QTRY_VERIFY_WITH_TIMEOUT(answered(finished, ticket), 15000);
        };
        Fault expire;
        expire.kind = Fault::Kind::ExpireAfterDispatch;
        host.injectFault(u"demo"_s, expire);
        callAndWait(u"increment-counter"_s);
        host.injectFault(u"demo"_s, expire);
        callAndWait(u"get-counter"_s);
        host.breaker(u"demo"_s, BreakerAction::Trip);
        callAndWait(u"echo"_s);

        auto *table = panel.findChild<QTableView *>(u"transcriptTable"_s);
        QVERIFY(table);
        const QAbstractItemModel *model = table->model();
        const auto rowsSaying = [&](const QString &method, const QString &summary) {
            QStringList found;
            for (int r = 0; r < model->rowCount(); ++r) {
                const QString m = model->index(r, TranscriptModel::MethodColumn).data().toString();
                const QString s = model->index(r, TranscriptModel::SummaryColumn).data().toString();
                if (m == method && s.contains(summary))
                    found << s;
            }
            return found;
        };
        QTRY_COMPARE_WITH_TIMEOUT(
            rowsSaying(u"outcome-uncertain"_s, u"tools/call increment-counter #"_s).size(), 1,
            5000);
        QCOMPARE(rowsSaying(u"sent-again"_s, u"sent again: tools/call get-counter #"_s).size(), 1);
        QCOMPARE(
            rowsSaying(u"breaker-refused"_s, u"not sent, breaker open: tools/call echo"_s).size(),
            1);
        // The uncertain row names the id the write went out with.
        const QString uncertain =
            rowsSaying(u"outcome-uncertain"_s, u"increment-counter"_s).constFirst();
        int sentId = -1;
        for (int r = 0; r < store.size(); ++r) {
            const TranscriptEvent &e = store.event(r);
            if (e.direction == TranscriptEvent::Direction::Outgoing &&
                e.raw.contains("\"increment-counter\""))
                sentId = store.entry(r).id.toInt();
        }
        QVERIFY(sentId > 0);
        QVERIFY2(uncertain.contains(u"#%1 "_s.arg(sentId)), qPrintable(uncertain));

        QSignalSpy done(&host, &CoreHost::shutdownFinished);
        host.shutdown();
        QTRY_VERIFY_WITH_TIMEOUT(done.size() > 0, 10000);
    }
};

QTEST_MAIN(TestTranscriptVerdicts)
#include "tst_transcriptverdicts.moc"
