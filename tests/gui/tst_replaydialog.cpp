// SPDX-License-Identifier: MIT
// Replay: a recorded request sent again to the live server, the two answers compared; from
// the History tab and from the Transcript tab's row menu and key, whether that tab shows the
// in-memory store or pages this run's events from the history.
#include "application/history/historycatalog.h"
#include "application/servers/serverviewstore.h"
#include "application/transcript/transcriptmodel.h"
#include "application/transcript/transcriptpagesource.h"
#include "application/transcript/transcriptstore.h"
#include "engine/corehost.h"
#include "history/historypanel.h"
#include "historyrecorder.h"
#include "historystore.h"
#include "testpaths.h"
#include "transcript/replaydialog.h"
#include "transcript/replaylauncher.h"
#include "transcript/transcriptpanel.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace Qt::StringLiterals;
using namespace Sonde;

namespace {

QJsonObject sendRecord(int id, const QString &method, const QJsonObject &params, int gen = 1)
{
    return {{"t_ms"_L1, qint64(1796165312018)},
            {"server"_L1, u"demo"_s},
            {"gen"_L1, gen},
            {"dir"_L1, u"send"_s},
            {"msg"_L1, QJsonObject{{"jsonrpc"_L1, u"2.0"_s},
                                   {"id"_L1, id},
                                   {"method"_L1, method},
                                   {"params"_L1, params}}}};
}

QJsonObject recvRecord(const QJsonValue &id, const QJsonObject &frame, int gen = 1)
{
    QJsonObject msg = frame;
    msg.insert("jsonrpc"_L1, u"2.0"_s);
    msg.insert("id"_L1, id);
    return {{"server"_L1, u"demo"_s}, {"gen"_L1, gen}, {"dir"_L1, u"recv"_s}, {"msg"_L1, msg}};
}

QJsonObject textResult(const QString &text, bool isError = false)
{
    return {{"content"_L1, QJsonArray{QJsonObject{{"type"_L1, u"text"_s}, {"text"_L1, text}}}},
            {"isError"_L1, isError}};
}

QJsonObject toolParams(const QString &tool, const QJsonObject &args)
{
    return {{"name"_L1, tool},
            {"arguments"_L1, args},
            {"_meta"_L1, QJsonObject{{"progressToken"_L1, u"sonde-3"_s}}}};
}

QJsonObject parse(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object();
}

// The History tab's catalog, in memory: one session holding the given records.
class ListSource : public TranscriptPageSource
{
public:
    explicit ListSource(QList<QJsonObject> records) : m_records(std::move(records)) {}
    qint64 count() const override { return m_records.size(); }
    TranscriptBatch page(qint64 offset, int limit) const override
    {
        TranscriptBatch events;
        for (const QJsonObject &r : m_records.mid(offset, limit))
            events.append(TranscriptEvent::fromJson(r));
        return events;
    }

private:
    QList<QJsonObject> m_records;
};

class ListCatalog : public HistoryCatalog
{
public:
    QList<QJsonObject> records;
    QStringList servers() const override { return {u"demo"_s}; }
    QList<RecordedSession> sessions(const QString &server) const override
    {
        RecordedSession s;
        s.id = 1;
        s.server = server;
        s.generation = 1;
        s.startedMs = 1796165312000;
        s.endedMs = 1796165313000;
        s.events = records.size();
        return {s};
    }
    std::unique_ptr<TranscriptPageSource> sessionEvents(qint64) const override
    {
        return std::make_unique<ListSource>(records);
    }
    std::unique_ptr<TranscriptPageSource> search(const QString &, const QString &) const override
    {
        return std::make_unique<ListSource>(QList<QJsonObject>());
    }
    bool clear(QString *) override { return true; }
};

// The real window on one demo server that keeps its counter in a file.
struct CounterWindow
{
    QTemporaryDir dir;
    CoreHost host;
    MainWindow window{host};

    CounterWindow()
    {
        ServerConfig c;
        c.name = u"demo"_s;
        c.program = QString::fromUtf8(SONDE_DEMO_SERVER_PATH);
        c.arguments = {u"--state-file"_s, stateFile()};
        window.addServer(c);
        window.show();
        window.selectServer(c.name);
    }
    ~CounterWindow()
    {
        QSignalSpy down(&host, &CoreHost::shutdownFinished);
        host.shutdown();
        down.wait(5000);
    }
    QString stateFile() const { return dir.filePath(u"state.json"_s); }
    qint64 counter() const
    {
        QFile f(stateFile());
        return f.open(QIODevice::ReadOnly) ? parse(f.readAll()).value("counter"_L1).toInteger() : 0;
    }
    // What the server answers get-counter, whole: answered after anything sent before it.
    QJsonObject askCounter()
    {
        QSignalSpy done(&host, &CoreHost::callFinished);
        const quint64 ticket =
            host.call(u"demo"_s, u"tools/call"_s,
                      QJsonObject{{"name"_L1, u"get-counter"_s}, {"arguments"_L1, QJsonObject()}});
        for (int i = 0; i < 50; ++i) {
            for (const QList<QVariant> &args : std::as_const(done))
                if (const auto o = args.at(0).value<CallOutcome>(); o.ticket == ticket)
                    return o.result.toObject();
            done.wait(200);
        }
        return {};
    }
    static QString textOf(const QJsonObject &result)
    {
        return result.value("content"_L1).toArray().at(0).toObject().value("text"_L1).toString();
    }
    // A real answer of this server (its _meta, resultType, era), with another text.
    QJsonObject answerSaying(const QString &text)
    {
        QJsonObject result = askCounter();
        result.insert("content"_L1,
                      QJsonArray{QJsonObject{{"type"_L1, u"text"_s}, {"text"_L1, text}}});
        return result;
    }
    QMessageBox *box(const QString &name) const
    {
        QMessageBox *b = window.findChild<QMessageBox *>(name);
        return b && b->isVisible() ? b : nullptr;
    }
};

ReplayRequest recorded(const QJsonObject &send, const QJsonObject &answer)
{
    QString error;
    std::optional<ReplayRequest> r =
        ReplayRequest::fromEvent(TranscriptEvent::fromJson(send), &error);
    if (!r)
        qFatal("not a request: %s", qPrintable(error));
    r->take(TranscriptEvent::fromJson(answer));
    return *r;
}

// A record as the event the engine would have put in the transcript.
TranscriptEvent eventOf(const QJsonObject &record)
{
    TranscriptEvent e;
    e.timeMs = record.value("t_ms"_L1).toInteger(1796165312018);
    e.server = record.value("server"_L1).toString();
    e.generation = record.value("gen"_L1).toInt();
    e.direction = record.value("dir"_L1).toString() == "send"_L1
                      ? TranscriptEvent::Direction::Outgoing
                      : TranscriptEvent::Direction::Incoming;
    e.raw = QJsonDocument(record.value("msg"_L1).toObject()).toJson(QJsonDocument::Compact);
    return e;
}

QJsonObject notificationRecord(const QString &method)
{
    QJsonObject record = sendRecord(0, method, {});
    QJsonObject msg = record.value("msg"_L1).toObject();
    msg.remove("id"_L1);
    record.insert("msg"_L1, msg);
    return record;
}

// The Transcript tab's rows in either of its modes: the window's in-memory store, or (paged)
// this run's events read back from a history they are recorded into, as the app does when
// it records.
class TranscriptRows
{
public:
    TranscriptRows(TranscriptPanel *panel, TranscriptStore *store, bool paged)
        : m_panel(panel), m_store(store), m_paged(paged)
    {
        if (!paged)
            return;
        const QString path = m_dir.filePath(u"history.sqlite"_s);
        m_recorder.start(path, u"window"_s);
        QString error;
        if (!QTest::qWaitFor([this] { return m_recorder.runId() != 0; }, 5000) ||
            !m_reader->open(path, &error))
            qFatal("the history did not open: %s", qPrintable(error));
        panel->showRecording(m_reader, m_recorder.runId());
        QObject::connect(&m_recorder, &HistoryRecorder::recorded, panel,
                         &TranscriptPanel::followRecording);
    }
    // The records as events; true once the table has them.
    bool add(const QList<QJsonObject> &records)
    {
        TranscriptBatch batch;
        for (const QJsonObject &r : records)
            batch.append(eventOf(r));
        m_added += batch.size();
        if (!m_paged) {
            m_store->append(batch);
            return true;
        }
        m_recorder.record(batch);
        return QTest::qWaitFor([this] { return m_panel->tableModel()->rowCount() >= m_added; },
                               5000);
    }
    // The table row of the record of direction `dir` with JSON-RPC id `id` (-1: none).
    int rowOf(const QString &dir, int id, const QString &method = {}) const
    {
        for (int row = 0; row < m_panel->tableModel()->rowCount(); ++row) {
            const TranscriptEvent *e = m_panel->eventAt(row);
            const QJsonObject r = e ? e->toJson() : QJsonObject();
            const QJsonObject msg = r.value("msg"_L1).toObject();
            if (r.value("dir"_L1).toString() == dir && msg.value("id"_L1).toInt(-1) == id &&
                (method.isEmpty() || msg.value("method"_L1).toString() == method))
                return row;
        }
        return -1;
    }

private:
    TranscriptPanel *m_panel;
    TranscriptStore *m_store;
    bool m_paged;
    int m_added = 0;
    QTemporaryDir m_dir;
    HistoryRecorder m_recorder;
    std::shared_ptr<HistoryStore> m_reader = std::make_shared<HistoryStore>();
};

QTableView *transcriptTable(const TranscriptPanel *panel)
{
    return panel->findChild<QTableView *>(u"transcriptTable"_s);
}

// A right click on the row: the row menu, shown (null if it did not show).
QMenu *openRowMenu(TranscriptPanel *panel, int row)
{
    QTableView *table = transcriptTable(panel);
    const QModelIndex index = table->model()->index(row, 0);
    table->scrollTo(index);
    const QPoint pos = table->visualRect(index).center();
    QContextMenuEvent click(QContextMenuEvent::Mouse, pos, table->viewport()->mapToGlobal(pos));
    QApplication::sendEvent(table->viewport(), &click);
    auto *menu = panel->findChild<QMenu *>(u"transcriptRowMenu"_s);
    return menu && menu->isVisible() ? menu : nullptr;
}

QAction *menuAction(QMenu *menu, const QString &name)
{
    for (QAction *a : menu->actions())
        if (a->objectName() == name)
            return a;
    return nullptr;
}

QStringList pointers(const ReplayDialog &d)
{
    QStringList out;
    const auto *tree = d.findChild<QTreeWidget *>(u"replayDifferences"_s);
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        out.append(tree->topLevelItem(i)->text(0) + u' ' + tree->topLevelItem(i)->text(1));
    return out;
}

} // namespace

class TestReplayDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void requestFromRecord_data()
    {
        QTest::addColumn<QJsonObject>("record");
        QTest::addColumn<QString>("method");
        QTest::addColumn<QJsonObject>("params");
        QTest::addColumn<QString>("refusal");

        const QJsonObject args{{"by"_L1, 2}};
        QTest::newRow("a tool call loses its old _meta and keeps its arguments")
            << sendRecord(7, u"tools/call"_s, toolParams(u"increment-counter"_s, args))
            << u"tools/call"_s
            << QJsonObject{{"name"_L1, u"increment-counter"_s}, {"arguments"_L1, args}}
            << QString();
        QTest::newRow("a read keeps its params")
            << sendRecord(3, u"resources/read"_s, {{"uri"_L1, u"demo://notes/1"_s}})
            << u"resources/read"_s << QJsonObject{{"uri"_L1, u"demo://notes/1"_s}} << QString();
        QTest::newRow("an answer is not a request")
            << recvRecord(3, {{"result"_L1, QJsonObject()}}) << QString() << QJsonObject()
            << u"only a request Sonde sent can be sent again"_s;
        QJsonObject note = sendRecord(0, u"notifications/initialized"_s, {});
        QJsonObject msg = note.value("msg"_L1).toObject();
        msg.remove("id"_L1);
        note.insert("msg"_L1, msg);
        QTest::newRow("a notification has no answer to compare")
            << note << QString() << QJsonObject()
            << u"notifications/initialized is a notification: it has no answer to compare"_s;
        QTest::newRow("initialize cannot be sent into a live session")
            << sendRecord(0, u"initialize"_s, {}) << QString() << QJsonObject()
            << u"initialize is the session's handshake: it cannot be sent into a live session"_s;
    }
    void requestFromRecord()
    {
        QFETCH(QJsonObject, record);
        QFETCH(QString, method);
        QFETCH(QJsonObject, params);
        QFETCH(QString, refusal);
        QString error;
        const std::optional<ReplayRequest> r =
            ReplayRequest::fromEvent(TranscriptEvent::fromJson(record), &error);
        QCOMPARE(error, refusal);
        QCOMPARE(r.has_value(), refusal.isEmpty());
        if (r) {
            QCOMPARE(r->method, method);
            QCOMPARE(r->params, params);
            QCOMPARE(r->server, u"demo"_s);
        }
    }

    void theAnswerIsFollowedThroughSentAgain()
    {
        const QJsonObject send =
            sendRecord(4, u"tools/call"_s, toolParams(u"get-counter"_s, {}), 1);
        QList<QJsonObject> later = {
            recvRecord(9, {{"result"_L1, textResult(u"another call's answer"_s)}}, 1),
            {{"server"_L1, u"demo"_s},
             {"gen"_L1, 2},
             {"dir"_L1, u"event"_s},
             {"event"_L1, u"sent-again"_s},
             {"details"_L1, QJsonObject{{"type"_L1, u"sent-again"_s},
                                        {"t_ms"_L1, 5},
                                        {"request_id"_L1, 4},
                                        {"generation"_L1, 1},
                                        {"new_request_id"_L1, 1},
                                        {"new_generation"_L1, 2}}}},
            // The same id in the old generation is not it; the new one is.
            recvRecord(4, {{"result"_L1, textResult(u"not this"_s)}}, 3),
            recvRecord(1, {{"result"_L1, textResult(u"counter = 3"_s)}}, 2),
            recvRecord(1, {{"result"_L1, textResult(u"too late"_s)}}, 2),
        };
        std::optional<ReplayRequest> r =
            ReplayRequest::fromEvent(TranscriptEvent::fromJson(send), nullptr);
        QVERIFY(r);
        TranscriptBatch events;
        for (const QJsonObject &record : later)
            events.append(TranscriptEvent::fromJson(record));
        r->collect([&events](qint64 row) { return &events.at(row); }, 0, events.size());
        QVERIFY(r->answered());
        QCOMPARE(r->recordedAnswer(), QJsonValue(textResult(u"counter = 3"_s)));
        QCOMPARE(r->verdicts.size(), 1);
        const QString told = r->recordedOutcomeText();
        QVERIFY2(told.contains("with isError false: \"counter = 3\""_L1), qPrintable(told));
        QVERIFY2(told.contains("sent again as request 1 in generation 2"_L1), qPrintable(told));
    }

    void theDialogCountsTheDifferences_data()
    {
        QTest::addColumn<QJsonObject>("answer");
        QTest::addColumn<QJsonValue>("live");
        QTest::addColumn<QString>("count");
        QTest::addColumn<QStringList>("listed");

        QTest::newRow("the same answer is identical")
            << QJsonObject{{"result"_L1, textResult(u"counter = 1"_s)}}
            << QJsonValue(textResult(u"counter = 1"_s)) << u"Identical"_s << QStringList();
        QTest::newRow("another text is one difference at its pointer")
            << QJsonObject{{"result"_L1, textResult(u"counter = 1"_s)}}
            << QJsonValue(textResult(u"counter = 2"_s)) << u"1 difference"_s
            << QStringList{u"/content/0/text changed"_s};
        QJsonObject more = textResult(u"counter = 2"_s, true);
        more.insert("structuredContent"_L1, QJsonObject{{"n"_L1, 2}});
        QTest::newRow("an error flag and an added field are two more")
            << QJsonObject{{"result"_L1, textResult(u"counter = 1"_s)}} << QJsonValue(more)
            << u"3 differences"_s
            << QStringList{u"/content/0/text changed"_s, u"/isError changed"_s,
                           u"/structuredContent added"_s};
        QTest::newRow("an error recorded, a result now: the whole answer differs")
            << QJsonObject{{"error"_L1, QJsonObject{{"code"_L1, -32603}, {"message"_L1, u"x"_s}}}}
            << QJsonValue(textResult(u"ok"_s)) << u"3 differences"_s
            << QStringList{u"/content added"_s, u"/error removed"_s, u"/isError added"_s};
    }
    void theDialogCountsTheDifferences()
    {
        QFETCH(QJsonObject, answer);
        QFETCH(QJsonValue, live);
        QFETCH(QString, count);
        QFETCH(QStringList, listed);
        ReplayDialog dialog(recorded(sendRecord(5, u"tools/call"_s, toolParams(u"echo"_s, {})),
                                     recvRecord(5, answer)));
        QCOMPARE(dialog.countText(), u"Waiting for the answer…"_s);
        dialog.showAnswer(live);
        QCOMPARE(dialog.countText(), count);
        QCOMPARE(pointers(dialog).mid(0, listed.size()), listed);
    }

    void nothingRecordedIsSaid()
    {
        std::optional<ReplayRequest> r = ReplayRequest::fromEvent(
            TranscriptEvent::fromJson(sendRecord(5, u"ping"_s, {})), nullptr);
        ReplayDialog dialog(*r);
        dialog.showAnswer(QJsonObject());
        QCOMPARE(dialog.countText(), u"Nothing recorded to compare with"_s);
    }

    void aWriteAsksFirstAndCancelSendsNothing()
    {
        CounterWindow w;
        QTRY_VERIFY_WITH_TIMEOUT(!w.window.viewStore()->tools(u"demo"_s).isEmpty(), 10000);
        ReplayLauncher *launcher = w.window.replayLauncher();
        QSignalSpy sent(launcher, &ReplayLauncher::sent);
        const ReplayRequest request = recorded(
            sendRecord(7, u"tools/call"_s, toolParams(u"increment-counter"_s, {{"by"_L1, 1}})),
            recvRecord(7, {{"result"_L1, w.answerSaying(u"counter = 5"_s)}}));

        launcher->replay(request);
        QMessageBox *ask = nullptr;
        QTRY_VERIFY((ask = w.box(u"replayWriteConfirm"_s)));
        QVERIFY2(ask->text().contains("The tool increment-counter is not known to be read-only"_L1),
                 qPrintable(ask->text()));
        QVERIFY2(ask->text().contains("with isError false: \"counter = 5\""_L1),
                 qPrintable(ask->text()));
        QTest::mouseClick(ask->button(QMessageBox::Cancel), Qt::LeftButton);
        // Anything sent before it would be answered first.
        QCOMPARE(CounterWindow::textOf(w.askCounter()), u"counter = 0"_s);
        QCOMPARE(sent.size(), 0);
        QCOMPARE(w.counter(), 0);
        QVERIFY(!launcher->dialog());

        launcher->replay(request);
        QTRY_VERIFY((ask = w.box(u"replayWriteConfirm"_s)));
        QTest::mouseClick(ask->button(QMessageBox::Yes), Qt::LeftButton);
        QTRY_COMPARE(sent.size(), 1);
        ReplayDialog *dialog = launcher->dialog();
        QVERIFY(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->answered(), 10000);
        QCOMPARE(w.counter(), 1);
        // For looking at: SONDE_SCREENSHOT_DIR=dir saves the dialog as dir/replay-dialog.png.
        if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty())
            dialog->grab().save(dir + u"/replay-dialog.png"_s);
        QCOMPARE(dialog->countText(), u"1 difference"_s);
        QCOMPARE(pointers(*dialog), QStringList{u"/content/0/text changed"_s});
        QCOMPARE(dialog->diff().differences.first().newValue.toString(), u"counter = 1"_s);
        dialog->close();
        QTRY_VERIFY(!launcher->dialog());
    }

    void aReadIsSentWithoutAsking()
    {
        CounterWindow w;
        QTRY_VERIFY_WITH_TIMEOUT(!w.window.viewStore()->tools(u"demo"_s).isEmpty(), 10000);
        ReplayLauncher *launcher = w.window.replayLauncher();
        QSignalSpy sent(launcher, &ReplayLauncher::sent);
        launcher->replay(
            recorded(sendRecord(2, u"tools/call"_s, toolParams(u"get-counter"_s, {})),
                     recvRecord(2, {{"result"_L1, w.answerSaying(u"counter = 0"_s)}})));
        QCOMPARE(sent.size(), 1);
        QVERIFY(!w.box(u"replayWriteConfirm"_s));
        QTRY_VERIFY_WITH_TIMEOUT(launcher->dialog() && launcher->dialog()->answered(), 10000);
        QCOMPARE(launcher->dialog()->countText(), u"Identical"_s);
    }

    void aServerNotConnectedIsSaidAndNothingSent()
    {
        CounterWindow w;
        QTRY_VERIFY_WITH_TIMEOUT(!w.window.viewStore()->tools(u"demo"_s).isEmpty(), 10000);
        ReplayLauncher *launcher = w.window.replayLauncher();
        QSignalSpy sent(launcher, &ReplayLauncher::sent);
        QJsonObject send = sendRecord(2, u"tools/call"_s, toolParams(u"get-counter"_s, {}));
        send.insert("server"_L1, u"gone"_s);
        launcher->replay(*ReplayRequest::fromEvent(TranscriptEvent::fromJson(send), nullptr));
        QMessageBox *told = nullptr;
        QTRY_VERIFY((told = w.box(u"replayNotConnected"_s)));
        QCOMPARE(told->text(), u"gone is not connected: connect it first. Nothing was sent."_s);
        QCOMPARE(sent.size(), 0);
        QVERIFY(!launcher->dialog());
    }

    void theHistoryTabReplaysTheSelectedRequest()
    {
        CounterWindow w;
        QTRY_VERIFY_WITH_TIMEOUT(!w.window.viewStore()->tools(u"demo"_s).isEmpty(), 10000);
        ListCatalog catalog;
        catalog.records = {
            sendRecord(7, u"tools/call"_s, toolParams(u"increment-counter"_s, {{"by"_L1, 2}})),
            recvRecord(7, {{"result"_L1, w.answerSaying(u"counter = 2"_s)}}),
        };
        w.window.setHistoryCatalog(&catalog);
        auto *replay = w.window.historyPanel()->findChild<QPushButton *>(u"replayRequest"_s);
        auto *table = w.window.historyPanel()->findChild<QTableView *>(u"historyEvents"_s);
        QTRY_COMPARE(table->model()->rowCount(), 2);
        table->setCurrentIndex(table->model()->index(1, 0));
        QVERIFY(!replay->isEnabled()); // an answer
        table->setCurrentIndex(table->model()->index(0, 0));
        QVERIFY(replay->isEnabled());
        QTest::mouseClick(replay, Qt::LeftButton);
        QMessageBox *ask = nullptr;
        QTRY_VERIFY((ask = w.box(u"replayWriteConfirm"_s)));
        QVERIFY2(ask->text().contains("\"counter = 2\""_L1), qPrintable(ask->text()));
        QTest::mouseClick(ask->button(QMessageBox::Yes), Qt::LeftButton);
        ReplayDialog *dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (dialog = w.window.replayLauncher()->dialog()) && dialog->answered(), 10000);
        QCOMPARE(w.counter(), 2);
        // The same call on a counter at 0 answers as it did then.
        QCOMPARE(dialog->countText(), u"Identical"_s);
        w.window.setHistoryCatalog(nullptr);
    }

    void theTranscriptTabReplaysARead_data()
    {
        QTest::addColumn<bool>("paged");
        QTest::newRow("a read replayed from the transcript tab opens the dialog with both "
                      "answers, its answer hidden by a filter")
            << false;
        QTest::newRow("a read replayed from the recorded transcript tab opens the dialog with "
                      "both answers, its answer hidden by a filter")
            << true;
    }
    void theTranscriptTabReplaysARead()
    {
        QFETCH(bool, paged);
        CounterWindow w;
        QTRY_VERIFY_WITH_TIMEOUT(!w.window.viewStore()->tools(u"demo"_s).isEmpty(), 10000);
        TranscriptPanel *panel = w.window.transcriptPanel();
        TranscriptRows rows(panel, w.window.transcriptStore(), paged);
        QVERIFY(rows.add({sendRecord(9001, u"tools/call"_s, toolParams(u"get-counter"_s, {})),
                          recvRecord(9001, {{"result"_L1, w.answerSaying(u"counter = 0"_s)}})}));
        QCOMPARE(panel->showsRecording(), paged);
        QVERIFY(rows.rowOf(u"recv"_s, 9001) >= 0);
        // The answer is looked for among all the events, not only the rows shown.
        panel->findChild<QCheckBox *>(u"dir:recv"_s)->setChecked(false);
        QTRY_COMPARE(rows.rowOf(u"recv"_s, 9001), -1);
        const int row = rows.rowOf(u"send"_s, 9001);
        QVERIFY(row >= 0);
        ReplayLauncher *launcher = w.window.replayLauncher();
        QSignalSpy sent(launcher, &ReplayLauncher::sent);

        QMenu *menu = openRowMenu(panel, row);
        QVERIFY(menu);
        QCOMPARE(transcriptTable(panel)->currentIndex().row(), row);
        QAction *replay = menuAction(menu, u"transcriptReplay"_s);
        QVERIFY(replay && replay->isEnabled());
        QCOMPARE(replay->text(), u"Replay…"_s);
        // For looking at: SONDE_SCREENSHOT_DIR=dir saves the menu as dir/transcript-row-menu.png.
        if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR"); !dir.isEmpty())
            menu->grab().save(dir + u"/transcript-row-menu"_s + (paged ? u"-paged"_s : QString()) +
                              u".png"_s);
        QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(replay).center());
        QTRY_COMPARE(sent.size(), 1);
        QVERIFY(!w.box(u"replayWriteConfirm"_s));
        ReplayDialog *dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = launcher->dialog()) && dialog->answered(), 10000);
        // "Nothing recorded to compare with" had the recorded answer not been found.
        QCOMPARE(dialog->countText(), u"Identical"_s);
        QCOMPARE(w.counter(), 0);
        dialog->close();
    }

    void theTranscriptTabAsksBeforeAWrite_data()
    {
        QTest::addColumn<bool>("paged");
        QTest::newRow("a write replayed from the transcript tab asks first and Cancel sends "
                      "nothing")
            << false;
        QTest::newRow("a write replayed from the recorded transcript tab asks first and Cancel "
                      "sends nothing")
            << true;
    }
    void theTranscriptTabAsksBeforeAWrite()
    {
        QFETCH(bool, paged);
        CounterWindow w;
        QVERIFY(QTest::qWaitForWindowActive(&w.window));
        QTRY_VERIFY_WITH_TIMEOUT(!w.window.viewStore()->tools(u"demo"_s).isEmpty(), 10000);
        TranscriptPanel *panel = w.window.transcriptPanel();
        TranscriptRows rows(panel, w.window.transcriptStore(), paged);
        QVERIFY(rows.add(
            {sendRecord(9002, u"tools/call"_s, toolParams(u"increment-counter"_s, {{"by"_L1, 1}})),
             recvRecord(9002, {{"result"_L1, w.answerSaying(u"counter = 1"_s)}})}));
        ReplayLauncher *launcher = w.window.replayLauncher();
        QSignalSpy sent(launcher, &ReplayLauncher::sent);
        w.window.tabs()->setCurrentWidget(panel);
        QTableView *table = transcriptTable(panel);
        const int row = rows.rowOf(u"send"_s, 9002);
        QVERIFY(row >= 0);
        table->setCurrentIndex(table->model()->index(row, 0));
        table->setFocus();
        QTRY_VERIFY(table->hasFocus());
        // The keyboard's way: the row menu's Replay… has its key while the table has focus.
        QTest::keyClick(table, Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
        QMessageBox *ask = nullptr;
        QTRY_VERIFY((ask = w.box(u"replayWriteConfirm"_s)));
        QVERIFY2(ask->text().contains("The tool increment-counter is not known to be read-only"_L1),
                 qPrintable(ask->text()));
        QVERIFY2(ask->text().contains("with isError false: \"counter = 1\""_L1),
                 qPrintable(ask->text()));
        QTest::mouseClick(ask->button(QMessageBox::Cancel), Qt::LeftButton);
        QCOMPARE(CounterWindow::textOf(w.askCounter()), u"counter = 0"_s);
        QCOMPARE(sent.size(), 0);
        QCOMPARE(w.counter(), 0);
        QVERIFY(!launcher->dialog());
    }

    void aRowThatIsNoRequestOffersNoReplay_data()
    {
        QTest::addColumn<bool>("paged");
        QTest::addColumn<QJsonObject>("record");
        QTest::addColumn<QString>("why");
        const QJsonObject note = notificationRecord(u"notifications/initialized"_s);
        const QString noteWhy =
            u"notifications/initialized is a notification: it has no answer to compare"_s;
        const QJsonObject answer = recvRecord(5, {{"result"_L1, QJsonObject()}});
        const QString answerWhy = u"only a request Sonde sent can be sent again"_s;
        QTest::newRow("a notification row offers no replay and says why")
            << false << note << noteWhy;
        QTest::newRow("a notification row of the recorded transcript offers no replay and says "
                      "why")
            << true << note << noteWhy;
        QTest::newRow("an answer's row offers no replay and says why")
            << false << answer << answerWhy;
        QTest::newRow("an answer's row of the recorded transcript offers no replay and says why")
            << true << answer << answerWhy;
    }
    void aRowThatIsNoRequestOffersNoReplay()
    {
        QFETCH(bool, paged);
        QFETCH(QJsonObject, record);
        QFETCH(QString, why);
        TranscriptStore store;
        TranscriptPanel panel(&store);
        panel.resize(900, 500);
        panel.show();
        QVERIFY(QTest::qWaitForWindowActive(&panel));
        TranscriptRows rows(&panel, &store, paged);
        const QJsonObject request = sendRecord(6, u"resources/read"_s, {{"uri"_L1, u"x://1"_s}});
        QVERIFY(rows.add({record, request}));
        QSignalSpy asked(&panel, &TranscriptPanel::replayRequested);

        QMenu *menu = openRowMenu(&panel, 0);
        QVERIFY(menu);
        QAction *replay = menuAction(menu, u"transcriptReplay"_s);
        QVERIFY(!replay->isEnabled());
        QCOMPARE(replay->text(), u"Replay… (%1)"_s.arg(why));
        QCOMPARE(replay->toolTip(), u"Not a request to replay: %1"_s.arg(why));
        // And as dir/transcript-row-menu-refused.png.
        if (const QString dir = qEnvironmentVariable("SONDE_SCREENSHOT_DIR");
            !dir.isEmpty() && !paged && record.value("dir"_L1) == "send"_L1)
            menu->grab().save(dir + u"/transcript-row-menu-refused.png"_s);
        menu->close();
        QTableView *table = transcriptTable(&panel);
        table->setFocus();
        QTRY_VERIFY(table->hasFocus());
        QTest::keyClick(table, Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(asked.size(), 0);

        // The request beside it is offered, by the same key.
        table->setCurrentIndex(table->model()->index(1, 0));
        QVERIFY(replay->isEnabled());
        QTest::keyClick(table, Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked.first().first().value<ReplayRequest>().method, u"resources/read"_s);
    }

    void theMenuKeyOpensTheMenuOnTheCurrentRow()
    {
        TranscriptStore store;
        TranscriptPanel panel(&store);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        TranscriptRows rows(&panel, &store, false);
        QVERIFY(rows.add({notificationRecord(u"notifications/initialized"_s),
                          sendRecord(6, u"resources/read"_s, {{"uri"_L1, u"x://1"_s}}),
                          notificationRecord(u"notifications/cancelled"_s)}));
        QTableView *table = transcriptTable(&panel);
        table->setCurrentIndex(table->model()->index(1, 0));
        // As the window delivers the menu key: to the focus widget, with the mouse elsewhere.
        const QPoint mouse = table->viewport()->geometry().bottomRight() - QPoint(2, 2);
        QContextMenuEvent key(QContextMenuEvent::Keyboard, mouse, table->mapToGlobal(mouse));
        QApplication::sendEvent(table, &key);
        auto *menu = panel.findChild<QMenu *>(u"transcriptRowMenu"_s);
        QVERIFY(menu->isVisible());
        QCOMPARE(table->currentIndex().row(), 1);
        QVERIFY(menuAction(menu, u"transcriptReplay"_s)->isEnabled());
        QVERIFY(menu->geometry().contains(
            table->viewport()->mapToGlobal(table->visualRect(table->currentIndex()).center())));
        menu->close();
    }

    void copyJsonMasksSecretsUnlessTheBoxSaysNot()
    {
        TranscriptStore store;
        TranscriptPanel panel(&store);
        panel.show();
        QVERIFY(QTest::qWaitForWindowActive(&panel));
        const QString secret = u"sk-live-0123456789abcdefghij"_s;
        store.append({eventOf(
            sendRecord(8, u"tools/call"_s, toolParams(u"echo"_s, {{"api_key"_L1, secret}})))});
        QTableView *table = transcriptTable(&panel);
        table->setCurrentIndex(table->model()->index(0, 0));
        table->setFocus();
        QTRY_VERIFY(table->hasFocus());
        QGuiApplication::clipboard()->clear();
        QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
        QString copied = QGuiApplication::clipboard()->text();
        QCOMPARE(QJsonDocument::fromJson(copied.toUtf8())
                     .object()
                     .value("msg"_L1)
                     .toObject()
                     .value("method"_L1),
                 u"tools/call"_s);
        QVERIFY2(!copied.contains(secret), qPrintable(copied));
        QVERIFY2(copied.contains("[REDACTED]"_L1), qPrintable(copied));
        panel.findChild<QCheckBox *>(u"exportSecrets"_s)->setChecked(true);
        QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
        copied = QGuiApplication::clipboard()->text();
        QVERIFY2(copied.contains(secret), qPrintable(copied));
    }
};

QTEST_MAIN(TestReplayDialog)
#include "tst_replaydialog.moc"
