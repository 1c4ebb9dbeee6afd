// SPDX-License-Identifier: MIT
#include "demoserver.h"
#include "demostate.h"
#include "replaybook.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

using namespace Sonde;
using namespace Qt::StringLiterals;

#define JSON_TEXT(...) #__VA_ARGS__

namespace {

// One transcript record as TranscriptEvent::toJson() writes it.
QByteArray record(const char *dir, int gen, const QByteArray &msg, const char *server = "demo")
{
    return "{\"t\":\"2026-12-01T10:00:00.000Z\",\"t_ms\":1,\"server\":\"" + QByteArray(server) +
           "\",\"gen\":" + QByteArray::number(gen) + ",\"dir\":\"" + dir + "\",\"msg\":" + msg +
           "}\n";
}

QByteArray echoCall(int id, const char *message, const QByteArray &extraParams = {})
{
    return "{\"jsonrpc\":\"2.0\",\"id\":" + QByteArray::number(id) +
           ",\"method\":\"tools/call\",\"params\":{" + extraParams +
           "\"name\":\"echo\",\"arguments\":{\"message\":\"" + message + "\"}}}";
}

QByteArray answer(int id, const char *text)
{
    return "{\"jsonrpc\":\"2.0\",\"id\":" + QByteArray::number(id) +
           ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"" + text + "\"}]}}";
}

QString textOf(const std::optional<ReplayBook::Answer> &a)
{
    return a ? a->result.value("content"_L1).toArray().at(0).toObject().value("text"_L1).toString()
             : u"(none)"_s;
}

QJsonObject params(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object();
}

// What the book answers to a live echo call with `message`.
QString echoed(ReplayBook &book, const QString &message)
{
    return textOf(book.take(u"tools/call"_s,
                            QJsonObject{{"name"_L1, "echo"_L1},
                                        {"arguments"_L1, QJsonObject{{"message"_L1, message}}}}));
}

} // namespace

class TestReplayBook : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pairsRequestsWithAnswersByIdPerGeneration()
    {
        // Generation 2 reuses id 1: its answer must not be taken for generation 1's.
        const QByteArray jsonl =
            record("send", 1, echoCall(1, "a")) + record("send", 2, echoCall(1, "b")) +
            record("recv", 2, answer(1, "B")) + record("recv", 1, answer(1, "A"));
        ReplayBook book;
        QString error;
        QVERIFY2(book.parse(jsonl, u"s.jsonl"_s, &error), qPrintable(error));
        QCOMPARE(book.answerCount(), 2);
        QCOMPARE(echoed(book, u"a"_s), u"A"_s);
        QCOMPARE(echoed(book, u"b"_s), u"B"_s);
    }

    void matchesParamsWithoutMetaAndInAnyKeyOrder()
    {
        ReplayBook book;
        QString error;
        QVERIFY(book.parse(
            record("send", 0, echoCall(7, "x", "\"_meta\":{\"progressToken\":\"p1\"},")) +
                record("recv", 0, answer(7, "X")),
            u"s.jsonl"_s, &error));
        const QJsonObject live = params(JSON_TEXT(
            {"arguments" : {"message" : "x"}, "_meta" : {"progressToken" : 99}, "name" : "echo"}));
        QCOMPARE(textOf(book.take(u"tools/call"_s, live)), u"X"_s);
        QCOMPARE(echoed(book, u"y"_s), u"(none)"_s);
    }

    void servesSeveralAnswersInOrderThenTheLastAgain()
    {
        ReplayBook book;
        QString error;
        QVERIFY(book.parse(
            record("send", 0, echoCall(1, "n")) + record("send", 0, echoCall(2, "n")) +
                record("recv", 0, answer(2, "second")) + record("recv", 0, answer(1, "first")),
            u"s.jsonl"_s, &error));
        const QJsonObject p = params(JSON_TEXT({"name" : "echo", "arguments" : {"message" : "n"}}));
        QCOMPARE(textOf(book.take(u"tools/call"_s, p)), u"first"_s);
        QCOMPARE(textOf(book.take(u"tools/call"_s, p)), u"second"_s);
        QCOMPARE(textOf(book.take(u"tools/call"_s, p)), u"second"_s);
    }

    void keepsRecordedErrorsAndDropsUnansweredRequests()
    {
        ReplayBook book;
        QString error;
        QVERIFY(book.parse(record("send", 0, JSON_TEXT({
                                      "jsonrpc" : "2.0",
                                      "id" : 3,
                                      "method" : "resources/read",
                                      "params" : {"uri" : "demo://x"}
                                  })) +
                               record("recv", 0, JSON_TEXT({
                                          "jsonrpc" : "2.0",
                                          "id" : 3,
                                          "error" : {"code" : -32002, "message" : "gone"}
                                      })) +
                               record("send", 0, echoCall(4, "cut")) +
                               "{\"dir\":\"stderr\",\"line\":\"x\"}\n",
                           u"s.jsonl"_s, &error));
        const auto a = book.take(u"resources/read"_s, params(JSON_TEXT({"uri" : "demo://x"})));
        QVERIFY(a && a->error);
        QCOMPARE(a->error->value("code"_L1).toInt(), -32002);
        QVERIFY(
            !book.take(u"tools/call"_s,
                       params(JSON_TEXT({"name" : "echo", "arguments" : {"message" : "cut"}}))));
        QCOMPARE(book.answerCount(), 1);
    }

    void refusesALineThatIsNotARecordNamingIt()
    {
        ReplayBook book;
        QString error;
        QVERIFY(
            !book.parse(record("send", 0, echoCall(1, "a")) + "\n[1,2]\n", u"s.jsonl"_s, &error));
        QCOMPARE(error, u"s.jsonl:3: not a transcript record (a record is a JSON object)"_s);
    }

    void aDemoServerOnAReplayAnswersFromItWithTheLiveId()
    {
        auto state = std::make_shared<DemoState>();
        auto book = std::make_shared<ReplayBook>();
        QString error;
        QVERIFY(
            book->parse(record("send", 0, echoCall(1, "hi")) + record("recv", 0, answer(1, "Hi!")),
                        u"rec.jsonl"_s, &error));
        state->setReplay(book);
        DemoServer server(state);
        QSignalSpy frames(&server, &DemoServer::frameReady);
        QSignalSpy lines(&server, &DemoServer::stderrLine);
        server.handleFrame(echoCall(42, "hi"));
        server.handleFrame(echoCall(43, "other"));
        server.handleFrame(JSON_TEXT({"jsonrpc" : "2.0", "id" : 44, "method" : "prompts/list"}));
        server.handleFrame(JSON_TEXT({
            "jsonrpc" : "2.0",
            "id" : 45,
            "method" : "initialize",
            "params" : {"protocolVersion" : "2025-11-25"}
        }));
        QCOMPARE(frames.size(), 4);
        auto frame = [&](int i) {
            return QJsonDocument::fromJson(frames.at(i).at(0).toByteArray()).object();
        };
        QCOMPARE(frame(0).value("id"_L1).toInt(), 42);
        QCOMPARE(frame(0).value("result"_L1)["content"_L1][0]["text"_L1].toString(), u"Hi!"_s);
        const QJsonObject unseen = frame(1).value("error"_L1).toObject();
        QCOMPARE(unseen.value("code"_L1).toInt(), -32601);
        QCOMPARE(unseen.value("message"_L1).toString(),
                 u"tools/call of \"echo\" was recorded, but never with these params: this server "
                 u"is a replay of rec.jsonl and answers only what it recorded"_s);
        QCOMPARE(frame(2).value("error"_L1)["message"_L1].toString(),
                 u"prompts/list was never recorded: this server is a replay of rec.jsonl and "
                 u"answers only what it recorded"_s);
        // No initialize in the recording: a default one, and a line saying so.
        QCOMPARE(frame(3).value("result"_L1)["protocolVersion"_L1].toString(), u"2025-11-25"_s);
        QCOMPARE(frame(3).value("result"_L1)["serverInfo"_L1]["name"_L1].toString(),
                 u"sonde-demo-server (replay)"_s);
        QVERIFY(!lines.isEmpty());
        QVERIFY(lines.last().at(0).toString().contains("holds no initialize"_L1));
    }
};

QTEST_GUILESS_MAIN(TestReplayBook)
#include "tst_replaybook.moc"
