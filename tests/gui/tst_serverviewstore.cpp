// SPDX-License-Identifier: MIT
// The window's per-server view state: each server keeps its own selection, form values,
// answers, lists and stderr; one call removes everything a server had, tickets included.
#include "application/servers/serverviewstore.h"

#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

class TestServerViewStore : public QObject
{
    Q_OBJECT

    static CallOutcome answer(const QString &server, const QString &text)
    {
        CallOutcome o;
        o.server = server;
        o.method = u"tools/call"_s;
        o.result = QJsonObject{{"text"_L1, text}};
        return o;
    }

    static void fill(ServerViewStore &store, const QString &server)
    {
        store.addServer(server, {u"/tmp"_s});
        store.setTools(server, QJsonArray{QJsonObject{{"name"_L1, "echo"_L1}}});
        store.setListsFetchedForGeneration(server, 2);
        store.setSelectedTool(server, u"echo"_s);
        store.setFormValues(server, u"echo"_s, {{"message"_L1, server}});
        store.setToolOverride(server, u"echo"_s, true);
        store.setToolAnswer(server, u"echo"_s, answer(server, server));
        store.setList(server, u"prompts/list"_s, QJsonArray{QJsonObject{{"name"_L1, "p"_L1}}});
        store.setLastAnswer(server, PendingCommand::Kind::Read, answer(server, u"read"_s));
        store.setLastAnswer(server, PendingCommand::Kind::PromptGet, answer(server, u"prompt"_s));
        store.appendStderr(server, u"line"_s);
    }

private Q_SLOTS:
    void eachServerKeepsItsOwnState()
    {
        ServerViewStore store;
        fill(store, u"a"_s);
        fill(store, u"b"_s);
        store.setFormValues(u"b"_s, u"echo"_s, {{"message"_L1, "typed on b"_L1}});
        QCOMPARE(store.formValues(u"a"_s, u"echo"_s)->value("message"_L1).toString(), u"a"_s);
        QCOMPARE(store.formValues(u"b"_s, u"echo"_s)->value("message"_L1).toString(),
                 u"typed on b"_s);
        QCOMPARE(store.toolAnswer(u"a"_s, u"echo"_s)->server, u"a"_s);
        QVERIFY(!store.toolAnswer(u"a"_s, u"other"_s));
        QVERIFY(!store.formValues(u"a"_s, u"other"_s));
        QVERIFY(!store.toolAnswer(u"c"_s, u"echo"_s));
        QVERIFY(!store.lastAnswer(u"c"_s, PendingCommand::Kind::Read));
        QVERIFY(store.tools(u"c"_s).isEmpty());
        QCOMPARE(store.selectedTool(u"b"_s), u"echo"_s);
        store.setToolOverride(u"b"_s, u"echo"_s, std::nullopt);
        QVERIFY(store.toolOverrides(u"b"_s).isEmpty());
        QCOMPARE(store.toolOverrides(u"a"_s).value(u"echo"_s), true);
        QCOMPARE(store.listsFetchedForGeneration(u"b"_s), 2);
        QCOMPARE(store.listsFetchedForGeneration(u"c"_s), 0);
    }

    void removingAServerLeavesNothingOfIt()
    {
        ServerViewStore store;
        fill(store, u"a"_s);
        fill(store, u"b"_s);
        store.addPending(1, {u"a"_s, PendingCommand::Kind::ToolCall, u"echo"_s});
        store.addPending(2, {u"a"_s, PendingCommand::Kind::List, {}});
        store.addPending(3, {u"b"_s, PendingCommand::Kind::Command, u"ping"_s});
        store.removeServer(u"a"_s);
        QVERIFY(!store.holds(u"a"_s));
        QCOMPARE(store.pendingCount(u"a"_s), 0);
        QCOMPARE(store.pendingToolCall(), quint64(0));
        QVERIFY(!store.takePending(1));
        QVERIFY(store.roots(u"a"_s).isEmpty());
        QVERIFY(store.stderrLines(u"a"_s).isEmpty());
        QVERIFY(!store.toolAnswer(u"a"_s, u"echo"_s));
        QVERIFY(store.toolOverrides(u"a"_s).isEmpty());
        QVERIFY(store.list(u"a"_s, u"prompts/list"_s).isEmpty());
        // The other server is untouched.
        QVERIFY(store.holds(u"b"_s));
        QCOMPARE(store.pendingCount(u"b"_s), 1);
        QCOMPARE(store.takePending(3)->name, u"ping"_s);
        QCOMPARE(store.stderrLines(u"b"_s), QStringList{u"line"_s});
    }

    void whatComesForAServerNotAddedIsDropped()
    {
        ServerViewStore store;
        QSignalSpy tools(&store, &ServerViewStore::toolsChanged);
        QSignalSpy lines(&store, &ServerViewStore::stderrAppended);
        store.setTools(u"gone"_s, QJsonArray{QJsonObject{{"name"_L1, "echo"_L1}}});
        store.appendStderr(u"gone"_s, u"a last line while it closes"_s);
        store.setToolAnswer(u"gone"_s, u"echo"_s, answer(u"gone"_s, u"late"_s));
        store.addPending(9, {u"gone"_s, PendingCommand::Kind::Command, u"ping"_s});
        QVERIFY(!store.holds(u"gone"_s));
        QCOMPARE(tools.size(), 0);
        QCOMPARE(lines.size(), 0);
    }

    void aServerAddedAgainKeepsItsState()
    {
        ServerViewStore store;
        fill(store, u"a"_s);
        store.addServer(u"a"_s, {u"/new"_s});
        QCOMPARE(store.roots(u"a"_s), QStringList{u"/new"_s});
        QCOMPARE(store.selectedTool(u"a"_s), u"echo"_s);
        QVERIFY(store.toolAnswer(u"a"_s, u"echo"_s));
    }

    void aTicketIsTakenOnce()
    {
        ServerViewStore store;
        store.addServer(u"a"_s, {});
        store.addPending(7, {u"a"_s, PendingCommand::Kind::ToolCall, u"echo"_s});
        QCOMPARE(store.pendingToolCall(), quint64(7));
        const std::optional<PendingCommand> c = store.takePending(7);
        QVERIFY(c);
        QCOMPARE(c->kind, PendingCommand::Kind::ToolCall);
        QCOMPARE(c->name, u"echo"_s);
        QVERIFY(!store.takePending(7));
        QCOMPARE(store.pendingToolCall(), quint64(0));
    }

    void anAnswerSettlesIntoItsServersState_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("method");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("kept");
        using K = PendingCommand::Kind;
        QTest::newRow("a tools/list answer becomes the server's tools")
            << int(K::ToolList) << u"tools/list"_s << true << u"tools"_s;
        QTest::newRow("a failed tools/list leaves the tools as they were")
            << int(K::ToolList) << u"tools/list"_s << false << QString();
        QTest::newRow("a prompts/list answer becomes the server's prompts")
            << int(K::List) << u"prompts/list"_s << true << u"list"_s;
        QTest::newRow("a tool's answer is kept under the tool, failed or not")
            << int(K::ToolCall) << u"tools/call"_s << false << u"answer"_s;
        QTest::newRow("a read is the server's last read")
            << int(K::Read) << u"resources/read"_s << true << u"read"_s;
        QTest::newRow("a prompt fetched is the server's last prompt")
            << int(K::PromptGet) << u"prompts/get"_s << true << u"prompt"_s;
        QTest::newRow("a completion is not kept")
            << int(K::PromptCompletion) << u"completion/complete"_s << true << QString();
        QTest::newRow("a command's result is not kept")
            << int(K::Command) << u"ping"_s << true << QString();
    }
    void anAnswerSettlesIntoItsServersState()
    {
        QFETCH(int, kind);
        QFETCH(QString, method);
        QFETCH(bool, ok);
        QFETCH(QString, kept);
        ServerViewStore store;
        store.addServer(u"a"_s, {});
        store.addPending(5, {u"a"_s, PendingCommand::Kind(kind), u"echo"_s});
        CallOutcome o;
        o.ticket = 5;
        o.server = u"a"_s;
        o.method = method;
        const QJsonArray items{QJsonObject{{"name"_L1, "x"_L1}}};
        o.result = QJsonObject{{"tools"_L1, items}, {"prompts"_L1, items}};
        if (!ok)
            o.error = Error::timeout(u"no answer"_s);
        const std::optional<PendingCommand> settled = store.settle(o);
        QVERIFY(settled);
        QCOMPARE(int(settled->kind), kind);
        QCOMPARE(store.pendingCount(u"a"_s), 0);
        QCOMPARE(store.tools(u"a"_s), kept == "tools"_L1 ? items : QJsonArray());
        QCOMPARE(store.list(u"a"_s, u"prompts/list"_s), kept == "list"_L1 ? items : QJsonArray());
        QCOMPARE(bool(store.toolAnswer(u"a"_s, u"echo"_s)), kept == "answer"_L1);
        QCOMPARE(bool(store.lastAnswer(u"a"_s, PendingCommand::Kind::Read)), kept == "read"_L1);
        QCOMPARE(bool(store.lastAnswer(u"a"_s, PendingCommand::Kind::PromptGet)),
                 kept == "prompt"_L1);
        QVERIFY(!store.settle(o)); // once
    }

    void stderrIsBoundedAndEveryLineIsAnnounced()
    {
        ServerViewStore store;
        store.addServer(u"a"_s, {});
        QSignalSpy appended(&store, &ServerViewStore::stderrAppended);
        for (int i = 0; i < ServerViewStore::MaxStderrLines + 10; ++i)
            store.appendStderr(u"a"_s, QString::number(i));
        QCOMPARE(appended.size(), ServerViewStore::MaxStderrLines + 10);
        const QStringList lines = store.stderrLines(u"a"_s);
        QCOMPARE(lines.size(), ServerViewStore::MaxStderrLines);
        QCOMPARE(lines.first(), u"10"_s);
    }

    void changesAreAnnouncedWithTheirServer()
    {
        ServerViewStore store;
        for (const QString &server : {u"a"_s, u"b"_s, u"c"_s})
            store.addServer(server, {});
        QSignalSpy tools(&store, &ServerViewStore::toolsChanged);
        QSignalSpy answers(&store, &ServerViewStore::toolAnswerChanged);
        QSignalSpy lists(&store, &ServerViewStore::listChanged);
        store.setTools(u"a"_s, {});
        store.setToolAnswer(u"b"_s, u"echo"_s, answer(u"b"_s, u"x"_s));
        store.setList(u"c"_s, u"resources/list"_s, {});
        QCOMPARE(tools.value(0).value(0).toString(), u"a"_s);
        QCOMPARE(answers.value(0), (QVariantList{u"b"_s, u"echo"_s}));
        QCOMPARE(lists.value(0), (QVariantList{u"c"_s, u"resources/list"_s}));
    }

    void aClosedAnswerIsForgottenWithItsNoteAndOnlyThatOne()
    {
        ServerViewStore store;
        fill(store, u"a"_s);
        fill(store, u"b"_s);
        store.setToolAnswerNote(u"a"_s, u"echo"_s, u"reconnected before"_s);
        QSignalSpy answers(&store, &ServerViewStore::toolAnswerChanged);
        store.removeToolAnswer(u"a"_s, u"echo"_s);
        QCOMPARE(answers.size(), 1);
        QCOMPARE(answers.value(0), (QVariantList{u"a"_s, u"echo"_s}));
        QVERIFY(!store.toolAnswer(u"a"_s, u"echo"_s));
        QVERIFY(store.toolAnswerNote(u"a"_s, u"echo"_s).isEmpty());
        QVERIFY(store.toolAnswer(u"b"_s, u"echo"_s)); // another server's stays
        // Nothing to forget: nothing announced.
        store.removeToolAnswer(u"a"_s, u"echo"_s);
        store.removeToolAnswer(u"c"_s, u"echo"_s);
        QCOMPARE(answers.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestServerViewStore)
#include "tst_serverviewstore.moc"
