// SPDX-License-Identifier: MIT
// Recovery end to end through sonde-cli exec: every fault of the matrix (fault kind x
// transport x tool hint, before and after dispatch) against sonde-demo-server, whose counter
// survives restarts, so side effects are counted; the reference server over HTTP with its
// session deleted behind the client's back; the circuit breaker seen from outside.
#include "clifixtures.h"
#include "testpaths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace Qt::StringLiterals;
using namespace SondeTest;

#define JSON_TEXT(...) #__VA_ARGS__

namespace {

Run exec(const QStringList &connection, const QList<QByteArray> &steps)
{
    QByteArray input;
    for (const QByteArray &step : steps)
        input += step + '\n';
    Run r = cli(connection + QStringList{u"--quiet"_s, u"exec"_s}, input);
    r.lines = jsonLines(r.out);
    return r;
}

// The demo server's counter as it wrote it to its state file: what really happened on the
// server, not what Sonde says happened.
int counterOnServer(const QString &stateFile)
{
    QFile f(stateFile);
    if (!f.open(QIODevice::ReadOnly))
        return 0; // never written: nothing was ever incremented
    return int(QJsonDocument::fromJson(f.readAll()).object().value("counter"_L1).toInteger(-1));
}

int counterIn(const QJsonObject &answer)
{
    static const QRegularExpression re(u"counter = (\\d+)"_s);
    const auto m = re.match(answer.value("result"_L1).toString());
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

} // namespace

class TestRecoveryCli : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aFaultedCallHasItsSideEffectAtMostOnceAndSaysSo_data()
    {
        QTest::addColumn<QString>("transport");
        QTest::addColumn<QByteArray>("fault");
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("expect");    // "ok", "uncertain" or "error"
        QTest::addColumn<int>("attempts");      // how many times an "ok" answer was sent
        QTest::addColumn<int>("effects");       // side effects on the server's counter
        QTest::addColumn<QStringList>("rules"); // the classification rule(s) allowed ("": none)
        QTest::addColumn<bool>("replayed");
        QTest::addColumn<QStringList>("flags");
        const QStringList writeish = {u"increment-counter"_s, u"bump-unannotated"_s,
                                      u"bump-string-true"_s};
        struct Fault
        {
            const char *transport;
            const char *name;
            QByteArray step;
            bool afterDispatch;
            int attemptsWhenOk;
            QStringList rules;
        };
        const QList<Fault> faults = {
            {"stdio",
             "kill-process (before dispatch)",
             R"({"op":"fault","kind":"kill-process"})",
             false,
             1,
             {QString()}},
            {"stdio",
             "kill-during-next-call (after dispatch)",
             R"({"op":"fault","kind":"kill-during-next-call"})",
             true,
             1,
             {u"transport-closed"_s}},
            {"stdio",
             "expire-after-dispatch",
             R"({"op":"fault","kind":"expire-after-dispatch"})",
             true,
             2,
             {u"text-marker"_s}},
            // The GET stream meets the 404 first and Sonde reconnects before the call (the
            // sleep makes that the path): the call goes out once, on the new session. The
            // call meeting the 404 itself is the corrupt-session-id and 404 rows' path.
            {"http",
             "expire-session (noticed by the GET stream before the call)",
             R"({"op":"fault","kind":"expire-session"})"
             "\n"
             R"({"op":"sleep","ms":1000})",
             false,
             1,
             {QString()}},
            {"http",
             "corrupt-session-id (before dispatch)",
             R"({"op":"fault","kind":"corrupt-session-id"})",
             false,
             2,
             {u"http-404-with-session"_s}},
            {"http",
             "http-status 404 (before dispatch)",
             R"({"op":"fault","kind":"http-status","status":404})",
             false,
             2,
             {u"http-404-with-session"_s}},
            {"http",
             "drop-connection (before dispatch)",
             R"({"op":"fault","kind":"drop-connection"})",
             false,
             1,
             {QString()}},
            {"http",
             "expire-after-dispatch",
             R"({"op":"fault","kind":"expire-after-dispatch"})",
             true,
             2,
             {u"text-marker"_s}},
        };
        for (const Fault &f : faults) {
            for (const QString &tool : writeish + QStringList{u"get-counter"_s}) {
                const bool readOnly = tool == "get-counter"_L1;
                // A kill right after the write comes before the server can answer (it is
                // SIGKILLed as the request leaves). A tools/call whose process died after the
                // write is never sent again, read-only or not (ReplayPolicy): it is uncertain.
                const bool diedAfterWrite = QByteArray(f.name).startsWith("kill-during");
                const QString expect =
                    f.afterDispatch && (!readOnly || diedAfterWrite) ? u"uncertain"_s : u"ok"_s;
                // Sent again once: a read that met the fault after dispatch, or any call the
                // server refused before running it.
                const bool replayed = (f.afterDispatch && readOnly && !diedAfterWrite) ||
                                      (!f.afterDispatch && f.attemptsWhenOk == 2);
                const QString row = u"%1, %2, %3"_s.arg(QString::fromLatin1(f.transport),
                                                        QString::fromLatin1(f.name), tool);
                QTest::newRow(qPrintable(row)) << QString::fromLatin1(f.transport) << f.step << tool
                                               << expect << (replayed ? 2 : 1) << (readOnly ? 0 : 1)
                                               << f.rules << replayed << QStringList();
            }
        }
        const QStringList none;
        QTest::newRow("http, a tool that runs and then drops the session")
            << u"http"_s << QByteArray() << u"increment-then-expire"_s << u"uncertain"_s << 1 << 1
            << QStringList{u"transport-closed"_s} << false << none;
        QTest::newRow("stdio, a tool that runs and then exits")
            << u"stdio"_s << QByteArray() << u"increment-then-expire"_s << u"uncertain"_s << 1 << 1
            << QStringList{u"transport-closed"_s} << false << none;
        QTest::newRow("http, a write whose connection drops after dispatch, the session kept")
            << u"http"_s << QByteArray() << u"increment-then-drop"_s << u"uncertain"_s << 1 << 1
            << QStringList{u"transport-closed"_s} << false << none;
        QTest::newRow("http, a 400 for a write is not sent again and has no side effect")
            << u"http"_s << QByteArray(R"({"op":"fault","kind":"http-status","status":400})")
            << u"increment-counter"_s << u"error"_s << 1 << 0 << QStringList{QString()} << false
            << none;
        QTest::newRow("http, a JSON-RPC error in a 200 answer is the answer, not a recovery")
            << u"http"_s << QByteArray() << u"no-such-tool"_s << u"error"_s << 1 << 0
            << QStringList{QString()} << false << none;
        QTest::newRow("stdio, a write that times out ran once and is uncertain")
            << u"stdio"_s << QByteArray(R"({"op":"fault","kind":"delay","ms":3000})")
            << u"increment-counter"_s << u"uncertain"_s << 1 << 1 << QStringList{u"timeout"_s}
            << false << QStringList{u"--timeout"_s, u"1"_s};
        QTest::newRow("stdio, --read-only makes an unannotated write replayable, and it runs twice")
            << u"stdio"_s << QByteArray(R"({"op":"fault","kind":"expire-after-dispatch"})")
            << u"bump-unannotated"_s << u"ok"_s << 2 << 2 << QStringList{u"text-marker"_s} << true
            << QStringList{u"--read-only"_s, u"bump-unannotated"_s};
        QTest::newRow("http, --write-capable keeps a read-only tool from being replayed")
            << u"http"_s << QByteArray(R"({"op":"fault","kind":"expire-after-dispatch"})")
            << u"get-counter"_s << u"uncertain"_s << 1 << 0 << QStringList{u"text-marker"_s}
            << false << QStringList{u"--write-capable"_s, u"get-counter"_s};
    }
    void aFaultedCallHasItsSideEffectAtMostOnceAndSaysSo()
    {
        QFETCH(QString, transport);
        QFETCH(QByteArray, fault);
        QFETCH(QString, tool);
        QFETCH(QString, expect);
        QFETCH(int, attempts);
        QFETCH(int, effects);
        QFETCH(QStringList, rules);
        QFETCH(bool, replayed);
        QFETCH(QStringList, flags);
        QTemporaryDir dir;
        const QString stateFile = dir.filePath(u"state.json"_s);
        DemoHttpServer http;
        QStringList connection;
        if (transport == "http"_L1) {
            QVERIFY(http.start(stateFile));
            connection = {u"--url"_s, http.url()};
        } else {
            connection = {u"--command"_s, QString::fromUtf8(SONDE_DEMO_SERVER_PATH),
                          u"--arg"_s,     u"--state-file"_s,
                          u"--arg"_s,     stateFile};
        }
        QList<QByteArray> steps = {R"({"op":"ping"})"};
        if (!fault.isEmpty())
            steps.append(fault.split('\n')); // a fault, and what lets it take its path
        steps.append(QByteArray("{\"op\":\"call\",\"tool\":\"") + tool.toUtf8() + "\"}");
        const Run r = exec(connection + flags, steps);
        QVERIFY2(r.lines.size() == steps.size(), r.err.constData());
        const QJsonObject answer = r.lines.last();
        const QByteArray shown = QJsonDocument(answer).toJson();
        const int after = counterOnServer(stateFile);
        QVERIFY2(rules.contains(answer.value("rule"_L1).toString()), shown.constData());
        if (expect == "ok"_L1) {
            QVERIFY2(!answer.contains("error"_L1), shown.constData());
            // The path the row names, and no other: sent once, or sent again exactly once.
            QCOMPARE(answer.value("attempts"_L1).toInt(), attempts);
            QCOMPARE(answer.value("replayed"_L1).toBool(), replayed);
            QCOMPARE(after, replayed ? effects : std::min(effects, 1));
        } else if (expect == "uncertain"_L1) {
            QVERIFY2(answer.value("outcome_uncertain"_L1).toBool(), shown.constData());
            QCOMPARE(answer.value("replayed"_L1).toBool(true), false);
            QCOMPARE(answer.value("reconnect"_L1).toString(), u"ok"_s);
            QVERIFY(answer.value("error"_L1)
                        .toString()
                        .contains(u"may or may not have taken effect"_s));
            QCOMPARE(answer.value("attempts"_L1).toInt(), 1);
            // Never twice; once, unless the process was killed before it read the request
            // (the same path: uncertain either way).
            QVERIFY2(after <= effects, qPrintable(u"%1 side effects"_s.arg(after)));
            if (!fault.contains("kill-during"))
                QCOMPARE(after, effects);
        } else {
            QVERIFY2(answer.contains("error"_L1), shown.constData());
            QVERIFY2(!answer.value("outcome_uncertain"_L1).toBool(), shown.constData());
            QCOMPARE(answer.value("replayed"_L1).toBool(), false);
            QCOMPARE(answer.value("attempts"_L1).toInt(), 1);
            QCOMPARE(after, effects);
        }
        QCOMPARE(answer.value("replayed"_L1).toBool(), replayed);
    }

    void twoCallsInFlightWhenTheSessionExpiresAreEachAnsweredByTheServer()
    {
        // Both POSTs meet the expired session (404: neither ran). The first 404 starts the
        // reconnect; the second call is not torn down with the old session (which would make
        // the write "uncertain") but gets its own 404, so both are sent again once.
        QTemporaryDir dir;
        const QString stateFile = dir.filePath(u"state.json"_s);
        DemoHttpServer http;
        QVERIFY(http.start(stateFile));
        const Run r = exec({u"--url"_s, http.url()},
                           {R"({"op":"ping"})", R"({"op":"fault","kind":"expire-session"})",
                            R"({"op":"call","tool":"get-counter","async":true})",
                            R"({"op":"call","tool":"increment-counter"})"});
        QVERIFY2(r.lines.size() == 4, r.err.constData());
        for (const QJsonObject &a : r.lines.mid(2)) {
            const QByteArray shown = QJsonDocument(a).toJson();
            QVERIFY2(!a.contains("error"_L1), shown.constData());
            QCOMPARE(a.value("rule"_L1).toString(), u"http-404-with-session"_s);
            QVERIFY(a.value("replayed"_L1).toBool());
            QCOMPARE(a.value("generation"_L1).toInt(), 2); // one reconnect for both
        }
        QCOMPARE(counterOnServer(stateFile), 1);
    }

    void readsRecoverTransparentlyAfterTheReferenceServerLosesTheSession()
    {
        EverythingServer server(u"streamableHttp"_s);
        QVERIFY2(server.start(), server.log().constData());
        const QByteArray expire = JSON_TEXT({"op" : "fault", "kind" : "expire-session"});
        const Run r = exec(
            {u"--url"_s, server.url(u"/mcp"_s)},
            {expire, JSON_TEXT({"op" : "resources/list"}), expire,
             JSON_TEXT({"op" : "resources/read", "uri" : "demo://resource/dynamic/text/1"}), expire,
             JSON_TEXT({"op" : "prompts/list"}), expire,
             JSON_TEXT({"op" : "prompts/get", "name" : "simple-prompt"}), expire,
             JSON_TEXT({"op" : "call", "tool" : "echo", "args" : {"message" : "after expiry"}}),
             JSON_TEXT({"op" : "state"})});
        QVERIFY2(r.lines.size() == 11, r.err.constData());
        int previous = 1;
        for (int i = 1; i < 10; i += 2) {
            const QJsonObject a = r.lines[i];
            QVERIFY2(!a.contains("error"_L1), QJsonDocument(a).toJson().constData());
            // Every read was answered by a session newer than the one that was deleted:
            // never the stale session.
            QVERIFY(a.value("generation"_L1).toInt() > previous);
            previous = a.value("generation"_L1).toInt();
            if (a.value("attempts"_L1).toInt() == 2) {
                // The read met the expiry: server-everything answers 400 "No valid session ID
                // provided" (not the spec's 404) and the read was sent again once.
                QVERIFY(a.value("replayed"_L1).toBool());
                QCOMPARE(a.value("rule"_L1).toString(), u"http-400-invalid-session"_s);
                const QJsonArray gens = a.value("generations"_L1).toArray();
                QVERIFY(gens[1].toInt() > gens[0].toInt());
            } else {
                // Or the closed GET stream gave the expiry away first and the client had already
                // reconnected.
                QCOMPARE(a.value("attempts"_L1).toInt(), 1);
            }
        }
        QCOMPARE(r.lines[9].value("result"_L1).toString(), u"Echo: after expiry"_s);
        QCOMPARE(r.lines[10].value("generation"_L1).toInt(), 6);
        int reconnects = 0;
        for (const QJsonValue &h : r.lines[10].value("history"_L1).toArray())
            reconnects += h.toObject().value("type"_L1).toString() == "reconnect"_L1 &&
                          h.toObject().value("outcome"_L1).toString() == "ok"_L1;
        QCOMPARE(reconnects, 5);
    }

    void aBreakerTrippedByHandRefusesNamingTheTripNotFailures()
    {
        const Run r =
            exec({u"--command"_s, QString::fromUtf8(SONDE_DEMO_SERVER_PATH)},
                 {JSON_TEXT({"op" : "breaker", "action" : "trip"}),
                  JSON_TEXT({"op" : "call", "tool" : "echo", "args" : {"message" : "x"}})});
        QVERIFY2(r.lines.size() == 2, r.err.constData());
        const QJsonObject refused = r.lines[1];
        QCOMPARE(refused.value("breaker"_L1).toString(), u"open"_s);
        QCOMPARE(refused.value("attempts"_L1).toInt(), 0);
        const QString error = refused.value("error"_L1).toString();
        QVERIFY2(error.contains(u"tripped by hand"_s) && !error.contains(u"consecutive"_s),
                 qPrintable(error));
    }

    void theBreakerOpensAfterThreeFailuresAndRefusesTheFourthUnsent()
    {
        QTemporaryDir dir;
        const Run r =
            exec({u"--command"_s, QString::fromUtf8(SONDE_DEMO_SERVER_PATH), u"--arg"_s,
                  u"--state-file"_s, u"--arg"_s, dir.filePath(u"state.json"_s),
                  u"--breaker-cooldown"_s, u"30"_s},
                 {JSON_TEXT({"op" : "call", "tool" : "fail"}),
                  JSON_TEXT({"op" : "call", "tool" : "fail"}),
                  JSON_TEXT({"op" : "call", "tool" : "fail"}),
                  JSON_TEXT({"op" : "call", "tool" : "increment-counter"}),
                  JSON_TEXT({"op" : "resources/read", "uri" : "demo://counter"}),
                  JSON_TEXT({"op" : "state"}), JSON_TEXT({"op" : "breaker", "action" : "reset"}),
                  JSON_TEXT({"op" : "call", "tool" : "increment-counter"})});
        QVERIFY2(r.lines.size() == 8, r.err.constData());
        const QJsonObject refused = r.lines[3];
        QCOMPARE(refused.value("breaker"_L1).toString(), u"open"_s);
        QCOMPARE(refused.value("retry_in_s"_L1).toInt(), 30);
        QCOMPARE(refused.value("attempts"_L1).toInt(), 0);
        QVERIFY(refused.value("error"_L1).toString().contains(u"3 consecutive failures"_s));
        // The server never saw the refused call: its counter did not move.
        QVERIFY(r.lines[4]
                    .value("contents"_L1)
                    .toArray()
                    .at(0)
                    .toObject()
                    .value("text"_L1)
                    .toString()
                    .contains(u"\"counter\":0"_s));
        const QJsonObject state = r.lines[5];
        QCOMPARE(state.value("breaker"_L1).toObject().value("state"_L1).toString(), u"open"_s);
        QCOMPARE(state.value("breaker"_L1).toObject().value("strikes"_L1).toInt(), 3);
        bool transition = false;
        for (const QJsonValue &h : state.value("history"_L1).toArray())
            transition |= h.toObject().value("type"_L1).toString() == "breaker"_L1 &&
                          h.toObject().value("to"_L1).toString() == "open"_L1;
        QVERIFY(transition);
        QCOMPARE(r.lines[6].value("state"_L1).toString(), u"closed"_s);
        QCOMPARE(counterIn(r.lines[7]), 1);
    }

    // docs/recovery.md §10: the demo server is down for a few seconds while the developer
    // keeps calling (each call waits its budget and strikes: the breaker opens), then it is
    // back. The next call reconnects at once and runs, instead of being refused for the rest
    // of a 60 s cooldown while the reconnects are parked.
    void aCallAfterAnOutageIsAnsweredAsSoonAsTheServerIsBack()
    {
        QTemporaryDir dir;
        const QString state = dir.filePath(u"state.json"_s);
        DemoHttpServer demo;
        QVERIFY(demo.start(state));
        const quint16 port = demo.port();
        QTimer::singleShot(500, [&] { demo.kill(); });
        QTimer::singleShot(4500, [&, port] { QVERIFY(demo.start(state, port)); });
        const QByteArray write = JSON_TEXT({"op" : "call", "tool" : "increment-counter"});
        const Run r =
            exec({u"--url"_s, demo.url(), u"--recovery-budget"_s, u"1"_s},
                 {JSON_TEXT({"op" : "call", "tool" : "get-counter"}),
                  JSON_TEXT({"op" : "sleep", "ms" : 700}), write, write, write,
                  JSON_TEXT({"op" : "state"}), JSON_TEXT({"op" : "sleep", "ms" : 2500}), write});
        QVERIFY2(r.lines.size() == 8, r.out.constData());
        for (int i = 2; i <= 4; ++i) // during the outage: not sent, and said so
            QVERIFY2(r.lines[i].value("error"_L1).toString().contains("not sent"_L1),
                     QJsonDocument(r.lines[i]).toJson().constData());
        QCOMPARE(r.lines[5].value("breaker"_L1).toObject().value("state"_L1).toString(), u"open"_s);
        const QJsonObject after = r.lines[7];
        QVERIFY2(!after.contains("breaker"_L1) && !after.contains("error"_L1),
                 QJsonDocument(after).toJson().constData());
        QCOMPARE(counterIn(after), 1);
        QVERIFY2(after.value("elapsed_ms"_L1).toInt() < 3000,
                 QJsonDocument(after).toJson().constData());
        QCOMPARE(counterOnServer(state), 1);
    }

    void aLostSessionIsNoticedWithoutAnyCall_data()
    {
        QTest::addColumn<QByteArray>("trigger");
        QTest::addColumn<QString>("pingInterval");
        QTest::addColumn<bool>("reconnects");
        QTest::addColumn<QString>("noticedBy");
        QTest::newRow("the closed GET stream gives away a dropped session")
            << QByteArray(JSON_TEXT({"op" : "call", "tool" : "admin-expire-session"})) << u"0"_s
            << true << u"connection lost"_s;
        QTest::newRow("a keepalive ping finds a session the server no longer knows")
            << QByteArray(JSON_TEXT({"op" : "fault", "kind" : "corrupt-session-id"})) << u"0.1"_s
            << true << u"keepalive"_s;
        QTest::newRow("without keepalive nothing notices it until a call")
            << QByteArray(JSON_TEXT({"op" : "fault", "kind" : "corrupt-session-id"})) << u"0"_s
            << false << QString();
    }
    void aLostSessionIsNoticedWithoutAnyCall()
    {
        QFETCH(QByteArray, trigger);
        QFETCH(QString, pingInterval);
        QFETCH(bool, reconnects);
        QFETCH(QString, noticedBy);
        DemoHttpServer http;
        QVERIFY(http.start());
        const Run r =
            exec({u"--url"_s, http.url(), u"--ping-interval"_s, pingInterval},
                 {trigger, JSON_TEXT({"op" : "sleep", "ms" : 1500}), JSON_TEXT({"op" : "state"})});
        QVERIFY2(r.lines.size() == 3, r.err.constData());
        const QJsonObject state = r.lines[2];
        QCOMPARE(state.value("generation"_L1).toInt(), reconnects ? 2 : 1);
        QString trigger2;
        for (const QJsonValue &h : state.value("history"_L1).toArray())
            if (h.toObject().value("type"_L1).toString() == "reconnect"_L1 &&
                h.toObject().value("outcome"_L1).toString() == "ok"_L1)
                trigger2 = h.toObject().value("trigger"_L1).toString();
        if (reconnects)
            QVERIFY2(trigger2.contains(noticedBy), qPrintable(trigger2));
        else
            QVERIFY(trigger2.isEmpty());
    }

    void aReconnectByHandStartsANewGeneration()
    {
        const Run r = exec({u"--command"_s, QString::fromUtf8(SONDE_DEMO_SERVER_PATH)},
                           {JSON_TEXT({"op" : "reconnect"}), JSON_TEXT({"op" : "reconnect"}),
                            JSON_TEXT({"op" : "state"})});
        QVERIFY2(r.lines.size() == 3, r.err.constData());
        QCOMPARE(r.lines[0].value("generation"_L1).toInt(), 2);
        QCOMPARE(r.lines[1].value("generation"_L1).toInt(), 3);
        QCOMPARE(r.lines[2].value("restart_count"_L1).toInt(), 2);
    }
};

QTEST_GUILESS_MAIN(TestRecoveryCli)
#include "tst_recovery_cli.moc"
