// SPDX-License-Identifier: MIT
// The verdicts a front end shows ("outcome uncertain", "sent again", "not sent: breaker
// open") are lines of sonde-cli's --transcript, tied to the original request: driven through
// sonde-cli exec against sonde-demo-server with the faults that cause each of them, and read
// back from the JSON Lines file next to the frames they name.
#include "clifixtures.h"
#include "testpaths.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace SondeTest;

#define JSON_TEXT(...) #__VA_ARGS__

namespace {

QList<QJsonObject> readTranscript(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return jsonLines(f.readAll());
}

// The tools/call frames that were sent, in order.
QList<QJsonObject> sentToolCalls(const QList<QJsonObject> &lines)
{
    QList<QJsonObject> out;
    for (const QJsonObject &l : lines) {
        if (l.value("dir"_L1).toString() == "send"_L1 &&
            l.value("msg"_L1).toObject().value("method"_L1).toString() == "tools/call"_L1)
            out.append(l);
    }
    return out;
}

QList<QJsonObject> eventsNamed(const QList<QJsonObject> &lines, const QString &name)
{
    QList<QJsonObject> out;
    for (const QJsonObject &l : lines) {
        if (l.value("dir"_L1).toString() == "event"_L1 && l.value("event"_L1).toString() == name)
            out.append(l);
    }
    return out;
}

} // namespace

class TestCliVerdicts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void eachVerdictIsATranscriptEventTiedToTheOriginalRequest_data()
    {
        QTest::addColumn<QByteArray>("setup");
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("event");
        QTest::addColumn<int>("sends"); // tools/call frames on the wire
        QTest::newRow("a write whose answer was lost after it ran is outcome-uncertain")
            << QByteArray(JSON_TEXT({"op" : "fault", "kind" : "expire-after-dispatch"}))
            << u"increment-counter"_s << u"outcome-uncertain"_s << 1;
        QTest::newRow("a read whose answer was lost after it ran is sent-again")
            << QByteArray(JSON_TEXT({"op" : "fault", "kind" : "expire-after-dispatch"}))
            << u"get-counter"_s << u"sent-again"_s << 2;
        QTest::newRow("a call refused by the tripped breaker is breaker-refused")
            << QByteArray(JSON_TEXT({"op" : "breaker", "action" : "trip"})) << u"echo"_s
            << u"breaker-refused"_s << 0;
    }
    void eachVerdictIsATranscriptEventTiedToTheOriginalRequest()
    {
        QFETCH(QByteArray, setup);
        QFETCH(QString, tool);
        QFETCH(QString, event);
        QFETCH(int, sends);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"t.jsonl"_s);
        const QByteArray call =
            "{\"op\":\"call\",\"tool\":\"" + tool.toUtf8() + "\",\"args\":{}}\n";
        const Run r = cli({u"--command"_s, QString::fromUtf8(SONDE_DEMO_SERVER_PATH), u"--quiet"_s,
                           u"--transcript"_s, path, u"exec"_s, u"-"_s},
                          setup + '\n' + call);
        const QList<QJsonObject> answers = jsonLines(r.out);
        QCOMPARE(answers.size(), 2);
        const QList<QJsonObject> lines = readTranscript(path);
        QVERIFY(!lines.isEmpty());
        const QList<QJsonObject> sent = sentToolCalls(lines);
        QCOMPARE(sent.size(), sends);

        const QList<QJsonObject> verdicts = eventsNamed(lines, event);
        QVERIFY2(verdicts.size() == 1, qPrintable(u"%1 \"%2\" events in %3"_s.arg(verdicts.size())
                                                      .arg(event, QString::fromUtf8(r.out))));
        const QJsonObject v = verdicts.first();
        const QJsonObject d = v.value("details"_L1).toObject();
        QCOMPARE(d.value("type"_L1).toString(), event);
        QCOMPARE(d.value("method"_L1).toString(), u"tools/call"_s);
        QCOMPARE(d.value("tool"_L1).toString(), tool);
        QCOMPARE(v.value("server"_L1).toString(), u"sonde-demo-server"_s);
        // The link every frame of the call carries, also where none was sent.
        const QString token = d.value("progress_token"_L1).toString();
        QCOMPARE(token, u"sonde-%1"_s.arg(d.value("ticket"_L1).toInteger()));

        if (sends == 0) {
            // Never on the wire: no JSON-RPC id, but why it was refused and for how long.
            QVERIFY(!d.contains("request_id"_L1));
            QCOMPARE(answers.last().value("kind"_L1).toString(), u"refused"_s);
            QVERIFY2(d.value("cause"_L1).toString().contains("tripped by hand"_L1),
                     qPrintable(d.value("cause"_L1).toString()));
            QCOMPARE(d.value("retry_in_s"_L1).toInteger(),
                     answers.last().value("retry_in_s"_L1).toInteger());
            return;
        }
        // The original request: its id, its generation, and the token it carried.
        const QJsonObject first = sent.first();
        const QJsonObject firstMsg = first.value("msg"_L1).toObject();
        QCOMPARE(d.value("request_id"_L1), firstMsg.value("id"_L1));
        QCOMPARE(d.value("generation"_L1).toInt(), first.value("gen"_L1).toInt());
        QCOMPARE(firstMsg.value("params"_L1)
                     .toObject()
                     .value("_meta"_L1)
                     .toObject()
                     .value("progressToken"_L1),
                 QJsonValue(token));
        QCOMPARE(d.value("rule"_L1).toString(), u"text-marker"_s);
        if (sends == 2) {
            // The replay: a new id on the new generation, the same progress token.
            const QJsonObject again = sent.last();
            const QJsonObject againMsg = again.value("msg"_L1).toObject();
            QCOMPARE(d.value("new_request_id"_L1), againMsg.value("id"_L1));
            QCOMPARE(d.value("new_generation"_L1).toInt(), again.value("gen"_L1).toInt());
            QVERIFY(d.value("new_generation"_L1).toInt() > d.value("generation"_L1).toInt());
            QCOMPARE(againMsg.value("params"_L1)
                         .toObject()
                         .value("_meta"_L1)
                         .toObject()
                         .value("progressToken"_L1),
                     QJsonValue(token));
            QCOMPARE(answers.last().value("replayed"_L1).toBool(), true);
        } else {
            QCOMPARE(answers.last().value("outcome_uncertain"_L1).toBool(), true);
            QCOMPARE(d.value("reconnect"_L1).toString(),
                     answers.last().value("reconnect"_L1).toString());
        }
    }
};

QTEST_GUILESS_MAIN(TestCliVerdicts)
#include "tst_cli_verdicts.moc"
