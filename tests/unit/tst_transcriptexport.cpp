// SPDX-License-Identifier: MIT
// The exports of transcript records (TranscriptExport and its formats) over records written
// here in the shape TranscriptEvent::toJson gives them: a stdio server with a reconnect and
// the verdicts of one call, and an HTTP server with an SSE answer.
#include "transcript/exportcalls.h"
#include "transcript/exportreader.h"
#include "transcript/exportsource.h"
#include "transcript/harexport.h"
#include "transcript/jsonlexport.h"
#include "transcript/markdownreport.h"
#include "transcript/otlpexport.h"
#include "transcript/transcriptevent.h"
#include "transcript/transcriptexport.h"

#include <QBuffer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Sonde;

namespace {

const qint64 T0 = 1'800'000'000'000;
const auto Secret = "sk-abcdefghijklmnopqrstuvwx0123"_L1;
const auto SessionId = "a1b2c3d4e5f60718293a4b5c6d7e8f90"_L1;

QJsonObject rec(const char *server, int gen, qint64 dt, const char *dir)
{
    return {{"server"_L1, QString::fromLatin1(server)},
            {"gen"_L1, gen},
            {"t_ms"_L1, T0 + dt},
            {"t"_L1, u"x"_s},
            {"dir"_L1, QString::fromLatin1(dir)}};
}

QJsonObject msg(const char *server, int gen, qint64 dt, const char *dir, const QJsonObject &m)
{
    QJsonObject r = rec(server, gen, dt, dir);
    r.insert("msg"_L1, m);
    return r;
}

QJsonObject event(const char *server, int gen, qint64 dt, const char *name,
                  const QJsonObject &details = {})
{
    QJsonObject r = rec(server, gen, dt, "event");
    r.insert("event"_L1, QString::fromLatin1(name));
    if (!details.isEmpty())
        r.insert("details"_L1, details);
    return r;
}

QJsonObject request(int id, const QString &method, const QJsonObject &params)
{
    return {{"jsonrpc"_L1, u"2.0"_s}, {"id"_L1, id}, {"method"_L1, method}, {"params"_L1, params}};
}

QJsonObject result(int id, const QJsonObject &result)
{
    return {{"jsonrpc"_L1, u"2.0"_s}, {"id"_L1, id}, {"result"_L1, result}};
}

QList<QJsonObject> records()
{
    QList<QJsonObject> r;
    // stdio: initialize, a call answered, a call that fails, a call sent again after a reconnect
    r << event("local", 0, 0, "transport-open", {{"route"_L1, u"stdio"_s}});
    r << msg("local", 0, 1, "send",
             request(1, u"initialize"_s,
                     {{"clientInfo"_L1,
                       QJsonObject{{"name"_L1, u"sonde"_s}, {"version"_L1, u"0.9.1"_s}}}}));
    r << event("local", 1, 3, "ready",
               {{"protocol_version"_L1, u"2025-11-25"_s},
                {"server_info"_L1, QJsonObject{{"name"_L1, u"demo"_s}, {"version"_L1, u"4.2"_s}}}});
    r << event("local", 1, 3, "era-chosen", {{"era"_L1, u"legacy"_s}, {"reason"_L1, u"asked"_s}});
    r << msg(
        "local", 1, 10, "send",
        request(2, u"tools/call"_s,
                {{"name"_L1, u"echo"_s},
                 {"arguments"_L1, QJsonObject{{"token"_L1, QString(u"Bearer "_s + Secret)}}}}));
    r << msg("local", 1, 14, "recv",
             result(2, {{"content"_L1, QJsonArray{QJsonObject{{"type"_L1, u"text"_s},
                                                              {"text"_L1, u"Echo: hi"_s}}}}}));
    r << msg("local", 1, 20, "send", request(3, u"prompts/get"_s, {{"name"_L1, u"greet"_s}}));
    r << msg("local", 1, 22, "recv",
             QJsonObject{{"jsonrpc"_L1, u"2.0"_s},
                         {"id"_L1, 3},
                         {"error"_L1,
                          QJsonObject{{"code"_L1, -32601}, {"message"_L1, u"no such prompt"_s}}}});
    r << msg("local", 1, 30, "send", request(4, u"tools/call"_s, {{"name"_L1, u"increment"_s}}));
    r << rec("local", 1, 31, "stderr");
    r.last().insert("line"_L1, QString(u"fatal error: lost Bearer "_s + Secret));
    r << event("local", 1, 32, "connection-lost", {{"message"_L1, u"the process exited"_s}});
    r << event("local", 1, 33, "outcome-uncertain",
               {{"type"_L1, u"outcome-uncertain"_s},
                {"request_id"_L1, 4},
                {"generation"_L1, 1},
                {"method"_L1, u"tools/call"_s},
                {"rule"_L1, u"idempotent"_s}});
    r << event("local", 2, 40, "reconnect", {{"from_generation"_L1, 1}, {"to_generation"_L1, 2}});
    r << event("local", 1, 41, "sent-again",
               {{"type"_L1, u"sent-again"_s},
                {"request_id"_L1, 4},
                {"generation"_L1, 1},
                {"new_request_id"_L1, 5},
                {"new_generation"_L1, 2}});
    r << msg("local", 2, 41, "send", request(5, u"tools/call"_s, {{"name"_L1, u"increment"_s}}));
    r << msg("local", 2, 45, "recv", result(5, {{"isError"_L1, true}}));
    r << msg("local", 2, 50, "send", request(6, u"tools/list"_s, {}));
    r << event("local", 2, 51, "breaker-refused",
               {{"type"_L1, u"breaker-refused"_s},
                {"request_id"_L1, 6},
                {"generation"_L1, 2},
                {"cause"_L1, u"too many failures"_s}});
    // HTTP: one call answered on an SSE stream
    r << event("web", 1, 100, "transport-open",
               {{"route"_L1, u"streamable-http"_s}, {"session_id"_L1, SessionId}});
    r << msg("web", 1, 101, "send",
             request(7, u"resources/read"_s, {{"uri"_L1, u"demo://notes/1"_s}}));
    r << msg("web", 1, 109, "recv", result(7, {{"contents"_L1, QJsonArray()}}));
    const QJsonObject body = request(7, u"resources/read"_s, {{"uri"_L1, u"demo://notes/1"_s}});
    r << event(
        "web", 1, 110, "http-exchange",
        {{"method"_L1, u"POST"_s},
         {"url"_L1, u"http://127.0.0.1:9/mcp?x=1"_s},
         {"request_headers"_L1,
          QJsonArray{
              QJsonObject{{"name"_L1, u"Content-Type"_s}, {"value"_L1, u"application/json"_s}},
              QJsonObject{{"name"_L1, u"Mcp-Session-Id"_s}, {"value"_L1, SessionId}}}},
         {"request_body"_L1, QString::fromUtf8(QJsonDocument(body).toJson(QJsonDocument::Compact))},
         {"request_bytes"_L1, 80},
         {"status"_L1, 200},
         {"status_text"_L1, u"OK"_s},
         {"response_headers"_L1, QJsonArray{QJsonObject{{"name"_L1, u"Content-Type"_s},
                                                        {"value"_L1, u"text/event-stream"_s}}}},
         {"content_type"_L1, u"text/event-stream"_s},
         {"first_byte_us"_L1, 2000},
         {"total_us"_L1, 9000},
         {"response_bytes"_L1, 120},
         {"sse"_L1, QJsonArray{QJsonObject{{"t_us"_L1, 8000},
                                           {"event"_L1, u"message"_s},
                                           {"id"_L1, u"e-1"_s},
                                           {"data"_L1, u"{\"id\":7}"_s}}}}});
    return r;
}

QJsonObject json(const QByteArray &bytes)
{
    QJsonParseError e;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &e);
    if (e.error != QJsonParseError::NoError)
        qWarning("not JSON: %s", qPrintable(e.errorString()));
    return doc.object();
}

QJsonArray spans(const QByteArray &otlp)
{
    return json(otlp)["resourceSpans"_L1][0]["scopeSpans"_L1][0]["spans"_L1].toArray();
}

QString attr(const QJsonValue &span, const QString &key)
{
    for (const QJsonValue &a : span["attributes"_L1].toArray())
        if (a["key"_L1].toString() == key)
            return a["value"_L1]["stringValue"_L1].toString();
    return u"(none)"_s;
}

QJsonValue spanNamed(const QJsonArray &all, const QString &name, const QString &id)
{
    for (const QJsonValue &s : all)
        if (s["name"_L1].toString() == name && attr(s, u"jsonrpc.request.id"_s) == id)
            return s;
    return {};
}

} // namespace

class TestTranscriptExport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void formatNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("format");
        QTest::newRow("jsonl is JSON Lines") << u"jsonl"_s << int(TranscriptExport::Format::Jsonl);
        QTest::newRow("md is the Markdown report")
            << u"md"_s << int(TranscriptExport::Format::Markdown);
        QTest::newRow("har is HAR") << u"har"_s << int(TranscriptExport::Format::Har);
        QTest::newRow("otlp is OpenTelemetry") << u"otlp"_s << int(TranscriptExport::Format::Otlp);
        QTest::newRow("an unknown name is none") << u"xml"_s << -1;
    }
    void formatNames()
    {
        QFETCH(QString, name);
        QFETCH(int, format);
        const auto f = TranscriptExport::formatFromName(name);
        QCOMPARE(f ? int(*f) : -1, format);
        if (f)
            QCOMPARE(TranscriptExport::formatName(*f), name);
    }

    void jsonlHasAHeaderAndEveryEvent()
    {
        const QList<QJsonObject> in = records();
        const QByteArray out = TranscriptExport::write(TranscriptExport::Format::Jsonl, in, {});
        const QList<QByteArray> lines = out.trimmed().split('\n');
        QCOMPARE(lines.size(), in.size() + 1);
        const auto header = JsonlExport::headerOf(json(lines.first()));
        QVERIFY(header);
        QCOMPARE(header->value("version"_L1).toInt(), JsonlExport::Version);
        QCOMPARE(header->value("events"_L1).toInt(), in.size());
        QVERIFY(!JsonlExport::headerOf(json(lines.at(1))));
        QStringList events;
        for (qsizetype i = 1; i < lines.size(); ++i)
            events << json(lines.at(i)).value("event"_L1).toString();
        for (const auto verdict : {"outcome-uncertain"_L1, "sent-again"_L1, "breaker-refused"_L1})
            QVERIFY2(events.contains(verdict), QByteArray(verdict.data()).constData());
    }

    void secretsAreRedactedUnlessAsked_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<bool>("redact");
        for (int f = 0; f < 2; ++f) {
            const QByteArray name =
                TranscriptExport::formatName(TranscriptExport::Format(f)).toLatin1();
            QTest::newRow(QByteArray(name + " masks the token by default").constData())
                << f << true;
            QTest::newRow(QByteArray(name + " keeps the token when asked").constData())
                << f << false;
        }
    }
    void secretsAreRedactedUnlessAsked()
    {
        QFETCH(int, format);
        QFETCH(bool, redact);
        TranscriptExport::Options o;
        o.redact = redact;
        const QByteArray out =
            TranscriptExport::write(TranscriptExport::Format(format), records(), o);
        QCOMPARE(out.contains(QByteArray(Secret.data())), !redact);
    }

    void sessionIdsAreMaskedUnlessAsked_data()
    {
        QTest::addColumn<bool>("redact");
        QTest::addColumn<bool>("include");
        QTest::newRow("masked by default") << true << false;
        QTest::newRow("masked even when nothing else is redacted") << false << false;
        QTest::newRow("included when asked") << true << true;
    }
    void sessionIdsAreMaskedUnlessAsked()
    {
        QFETCH(bool, redact);
        QFETCH(bool, include);
        TranscriptExport::Options o;
        o.redact = redact;
        o.includeSessionIds = include;
        const QByteArray otlp =
            TranscriptExport::write(TranscriptExport::Format::Otlp, records(), o);
        const QJsonValue span = spanNamed(spans(otlp), u"resources/read demo://notes/1"_s, u"7"_s);
        QCOMPARE(attr(span, u"mcp.session.id"_s), include ? QString(SessionId) : u"[REDACTED]"_s);
        const QByteArray har = TranscriptExport::write(TranscriptExport::Format::Har, records(), o);
        QCOMPARE(har.contains(QByteArray(SessionId.data())), include);
    }

    void payloadsCanBeLeftOut()
    {
        TranscriptExport::Options o;
        o.includePayloads = false;
        const QByteArray out =
            TranscriptExport::write(TranscriptExport::Format::Jsonl, records(), o);
        QVERIFY(!out.contains("Echo: hi"));
        QVERIFY(!out.contains("demo://notes/1"));
        QVERIFY(out.contains("\"method\":\"tools/call\""));
        QVERIFY(TranscriptExport::write(TranscriptExport::Format::Jsonl, records(), {})
                    .contains("Echo: hi"));
    }

    // Each entry's _mcp.era is the era chosen on its leg (server and generation).
    void aHarEntrySaysTheEraOfItsLeg()
    {
        QList<QJsonObject> r = records();
        qsizetype open = -1;
        for (qsizetype i = 0; i < r.size() && open < 0; ++i)
            if (r.at(i).value("server"_L1).toString() == "web"_L1)
                open = i;
        QVERIFY(open >= 0);
        r.insert(open + 1, ::event("web", 1, 100, "era-chosen",
                                   {{"era"_L1, u"modern"_s}, {"reason"_L1, u"probed"_s}}));
        const QJsonArray entries = json(TranscriptExport::write(TranscriptExport::Format::Har, r,
                                                                {}))["log"_L1]["entries"_L1]
                                       .toArray();
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries.first()["_mcp"_L1]["era"_L1].toString(), u"modern"_s);
    }

    void harHasTheHttpLegsOnly()
    {
        const QJsonObject log =
            json(TranscriptExport::write(TranscriptExport::Format::Har, records(), {}))["log"_L1]
                .toObject();
        QCOMPARE(log["version"_L1].toString(), u"1.2"_s);
        QCOMPARE(log["creator"_L1]["name"_L1].toString(), u"Sonde"_s);
        const QJsonArray entries = log["entries"_L1].toArray();
        QCOMPARE(entries.size(), 1);
        QVERIFY2(log["comment"_L1].toString().contains("3 stdio legs left out"_L1),
                 qPrintable(log["comment"_L1].toString()));
        const QJsonValue e = entries.first();
        QCOMPARE(e["startedDateTime"_L1].toString(), u"2027-01-15T08:00:00.101Z"_s);
        QCOMPARE(e["time"_L1].toDouble(), 9.0);
        QCOMPARE(e["timings"_L1]["wait"_L1].toDouble(), 2.0);
        QCOMPARE(e["timings"_L1]["receive"_L1].toDouble(), 7.0);
        QCOMPARE(e["request"_L1]["queryString"_L1][0]["name"_L1].toString(), u"x"_s);
        QCOMPARE(e["response"_L1]["status"_L1].toInt(), 200);
        QCOMPARE(e["_mcp"_L1]["method"_L1].toString(), u"resources/read"_s);
        QCOMPARE(e["_mcp"_L1]["id"_L1].toInt(), 7);
        QCOMPARE(e["_mcp"_L1]["generation"_L1].toInt(), 1);
        QCOMPARE(e["_mcp"_L1]["era"_L1].toString(), u"initialize"_s); // no era chosen on the leg
        const QJsonValue m = e["_eventSourceMessages"_L1][0];
        QCOMPARE(m["eventName"_L1].toString(), u"message"_s);
        QCOMPARE(m["eventId"_L1].toString(), u"e-1"_s);
        QCOMPARE(m["data"_L1].toString(), u"{\"id\":7}"_s);
        QCOMPARE(m["time"_L1].toDouble(), double(T0 + 101) / 1000.0 + 0.008);
    }

    void otlpHasOneClientSpanPerRequest()
    {
        const QByteArray out =
            TranscriptExport::write(TranscriptExport::Format::Otlp, records(), {});
        QCOMPARE(out, TranscriptExport::write(TranscriptExport::Format::Otlp, records(), {}));
        const QJsonArray all = spans(out);
        QCOMPARE(all.size(), 7); // initialize, echo, greet, increment twice, tools/list, read
        const QRegularExpression traceId(u"^[0-9a-f]{32}$"_s), spanId(u"^[0-9a-f]{16}$"_s);
        for (const QJsonValue &s : all) {
            QVERIFY(traceId.match(s["traceId"_L1].toString()).hasMatch());
            QVERIFY(spanId.match(s["spanId"_L1].toString()).hasMatch());
            QCOMPARE(s["kind"_L1].toInt(), 3);
        }
        const QJsonValue echo = spanNamed(all, u"tools/call echo"_s, u"2"_s);
        QCOMPARE(attr(echo, u"mcp.method.name"_s), u"tools/call"_s);
        QCOMPARE(attr(echo, u"gen_ai.tool.name"_s), u"echo"_s);
        QCOMPARE(attr(echo, u"network.transport"_s), u"pipe"_s);
        QCOMPARE(attr(echo, u"mcp.protocol.version"_s), u"2025-11-25"_s);
        QCOMPARE(attr(echo, u"error.type"_s), u"(none)"_s);
        QCOMPARE(echo["startTimeUnixNano"_L1].toString(), QString::number((T0 + 10) * 1'000'000));
        QCOMPARE(echo["endTimeUnixNano"_L1].toString(), QString::number((T0 + 14) * 1'000'000));
        const QJsonValue greet = spanNamed(all, u"prompts/get greet"_s, u"3"_s);
        QCOMPARE(greet["status"_L1]["code"_L1].toInt(), 2);
        QCOMPARE(attr(greet, u"error.type"_s), u"-32601"_s);
        const QJsonValue first = spanNamed(all, u"tools/call increment"_s, u"4"_s);
        const QJsonValue again = spanNamed(all, u"tools/call increment"_s, u"5"_s);
        QStringList events;
        for (const QJsonValue &ev : first["events"_L1].toArray())
            events << ev["name"_L1].toString();
        QCOMPARE(events, (QStringList{u"connection-lost"_s, u"outcome-uncertain"_s, u"reconnect"_s,
                                      u"sent-again"_s}));
        QCOMPARE(again["links"_L1][0]["spanId"_L1].toString(), first["spanId"_L1].toString());
        QCOMPARE(attr(again, u"error.type"_s), u"tool_error"_s);
        const QJsonValue refused = spanNamed(all, u"tools/list"_s, u"6"_s);
        QCOMPARE(attr(refused, u"error.type"_s), u"breaker-refused"_s);
        const QJsonValue read = spanNamed(all, u"resources/read demo://notes/1"_s, u"7"_s);
        QCOMPARE(attr(read, u"network.transport"_s), u"tcp"_s);
        QCOMPARE(attr(read, u"mcp.resource.uri"_s), u"demo://notes/1"_s);
    }

    void idsAreNeverZero()
    {
        QCOMPARE(OtlpExport::idFor("x", 8).size(), 16);
        QCOMPARE(OtlpExport::idFor("x", 16).size(), 32);
        QVERIFY(OtlpExport::idFor("x", 8) != OtlpExport::idFor("y", 8));
    }

    void markdownTellsTheStory()
    {
        const QString md = QString::fromUtf8(
            TranscriptExport::write(TranscriptExport::Format::Markdown, records(), {}));
        for (const auto part :
             {"## Server `local`"_L1, "| Client | sonde 0.9.1 |"_L1, "| Server | demo 4.2 |"_L1,
              "| Protocol version | 2025-11-25 |"_L1, "legacy (generation 1): asked"_L1,
              "| tools/call | echo | ok |"_L1, "error -32601: no such prompt"_L1,
              "refused by the circuit breaker: too many failures"_L1, "**sent-again**"_L1,
              "**reconnect**"_L1, "stderr: `fatal error: lost Bearer [REDACTED]`"_L1,
              "| increment | sent again as id 5 in generation 2 |"_L1, "## Server `web`"_L1})
            QVERIFY2(md.contains(part),
                     QByteArray(part.data() + "\n"_ba + md.toUtf8()).constData());
    }

    // The streamed formats write the array an element at a time: the bytes must be what
    // QJsonDocument writes for the array whole, at any depth and for any length.
    void splicedArraysAreWhatQtWrites_data()
    {
        QTest::addColumn<int>("elements");
        QTest::addColumn<bool>("deep");
        QTest::newRow("an empty array at the top") << 0 << false;
        QTest::newRow("one element at the top") << 1 << false;
        QTest::newRow("three elements three levels down") << 3 << true;
        QTest::newRow("an empty array three levels down") << 0 << true;
    }
    void splicedArraysAreWhatQtWrites()
    {
        QFETCH(int, elements);
        QFETCH(bool, deep);
        const auto documentWith = [deep](const QJsonArray &array) {
            const QJsonObject inner{{"a"_L1, 1}, {"list"_L1, array}, {"z"_L1, u"end"_s}};
            return deep ? QJsonObject{{"outer"_L1,
                                       QJsonArray{QJsonObject{{"mid"_L1, QJsonArray{inner}}}}}}
                        : inner;
        };
        QJsonArray whole;
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        ExportOutput out(buffer);
        IndentedJsonSplice splice(
            documentWith(QJsonArray{QLatin1StringView(IndentedJsonSplice::Placeholder)}), out);
        for (int i = 0; i < elements; ++i) {
            const QJsonObject e{{"n"_L1, i},
                                {"text"_L1, u"line\nbreak"_s},
                                {"nested"_L1, QJsonObject{{"k"_L1, QJsonArray{1, 2}}}}};
            whole.append(e);
            splice.append(e);
        }
        splice.finish();
        QCOMPARE(buffer.data(), QJsonDocument(documentWith(whole)).toJson(QJsonDocument::Indented));
    }

    // Each format read from a source page by page (the history's way) gives the bytes the
    // whole list gives, with the options applied on the way.
    void aStreamedExportIsTheDocumentOfTheList_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<bool>("payloads");
        for (const auto &[f, name] : {std::pair{TranscriptExport::Format::Jsonl, "JSON Lines"},
                                      std::pair{TranscriptExport::Format::Markdown, "Markdown"},
                                      std::pair{TranscriptExport::Format::Har, "HAR"},
                                      std::pair{TranscriptExport::Format::Otlp, "OTLP"}}) {
            QTest::addRow("%s with payloads", name) << int(f) << true;
            QTest::addRow("%s without payloads", name) << int(f) << false;
        }
    }
    void aStreamedExportIsTheDocumentOfTheList()
    {
        QFETCH(int, format);
        QFETCH(bool, payloads);
        const auto f = TranscriptExport::Format(format);
        TranscriptExport::Options o;
        o.includePayloads = payloads;
        // The list's way, as it was: every record prepared, then the format over the list.
        const QList<QJsonObject> prepared = TranscriptExport::prepare(records(), o);
        QByteArray expected;
        switch (f) {
        case TranscriptExport::Format::Jsonl:
            expected = JsonlExport::write(prepared, o);
            break;
        case TranscriptExport::Format::Markdown:
            expected = MarkdownReport::write(prepared);
            break;
        case TranscriptExport::Format::Har:
            expected = HarExport::write(prepared);
            break;
        case TranscriptExport::Format::Otlp:
            expected = OtlpExport::write(prepared);
            break;
        }
        const QList<QJsonObject> all = records();
        const ListExportSource source(all);
        QBuffer streamed;
        streamed.open(QIODevice::WriteOnly);
        QString error;
        qint64 reads = 0;
        TranscriptExport::Counts learned;
        QVERIFY2(TranscriptExport::write(
                     f, source, o, streamed, &error, {}, [&reads](qint64) { return ++reads, true; },
                     &learned),
                 qPrintable(error));
        QCOMPARE(streamed.data(), expected);
        // What was exported is learned on the way: the counts of a pass of their own.
        const TranscriptExport::Counts counted = TranscriptExport::count(all);
        QCOMPARE(learned.events, counted.events);
        QCOMPARE(learned.servers, counted.servers);
        QCOMPARE(learned.exchanges, counted.exchanges);
        QCOMPARE(learned.stdioLegs, counted.stdioLegs);
        QVERIFY(counted.events > 0 && counted.exchanges > 0);
        // Learned by the reader on the format's own pass, not by a pass of its own.
        ExportReader in(source, o);
        QBuffer again;
        again.open(QIODevice::WriteOnly);
        ExportOutput sink(again);
        QVERIFY(!in.counts());
        switch (f) {
        case TranscriptExport::Format::Jsonl:
            QVERIFY(JsonlExport::write(in, sink));
            break;
        case TranscriptExport::Format::Markdown:
            QVERIFY(MarkdownReport::write(in, sink));
            break;
        case TranscriptExport::Format::Har:
            QVERIFY(HarExport::write(in, sink));
            break;
        case TranscriptExport::Format::Otlp:
            QVERIFY(OtlpExport::write(in, sink));
            break;
        }
        QVERIFY(in.counts());
        QCOMPARE(in.counts()->events, counted.events);
        QCOMPARE(in.counts()->exchanges, counted.exchanges);
        // The session id of the HTTP leg is masked though only a later record says it is one.
        QVERIFY(!streamed.data().contains(QByteArray(SessionId.data())));
    }

    void anEventListIsReadAsItsRecords_data()
    {
        QTest::addColumn<QString>("server");
        QTest::addColumn<QStringList>("directions");
        QTest::addColumn<QList<int>>("expected"); // the events' rows
        QTest::newRow("every event") << QString() << QStringList() << QList<int>{0, 1, 2, 3};
        QTest::newRow("one server's") << u"b"_s << QStringList() << QList<int>{1, 3};
        QTest::newRow("some directions")
            << QString() << QStringList{u"send"_s, u"stderr"_s} << QList<int>{0, 3};
        QTest::newRow("a server and a direction")
            << u"a"_s << QStringList{u"recv"_s} << QList<int>{2};
    }
    void anEventListIsReadAsItsRecords()
    {
        QFETCH(QString, server);
        QFETCH(QStringList, directions);
        QFETCH(QList<int>, expected);
        using D = TranscriptEvent::Direction;
        TranscriptBatch events;
        const auto add = [&](const QString &s, D d, const QByteArray &raw) {
            TranscriptEvent e;
            e.timeMs = 1'796'119'200'000 + events.size();
            e.server = s;
            e.generation = 1;
            e.direction = d;
            e.raw = raw;
            events.append(e);
        };
        add(u"a"_s, D::Outgoing, QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"));
        add(u"b"_s, D::Incoming, QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"));
        add(u"a"_s, D::Incoming, QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"));
        add(u"b"_s, D::Stderr, QByteArray("a line"));
        const EventListExportSource source(events);
        QList<QJsonObject> read;
        QString error;
        QVERIFY(source.read(
            server, directions,
            [&](const QJsonObject &r) {
                read.append(r);
                return true;
            },
            &error));
        QList<QJsonObject> want;
        for (int row : expected)
            want.append(events.at(row).toJson());
        QCOMPARE(read, want);
        // The same export as the records' list.
        QList<QJsonObject> all;
        for (const TranscriptEvent &e : std::as_const(events))
            all.append(e.toJson());
        QBuffer fromEvents;
        fromEvents.open(QIODevice::WriteOnly);
        QVERIFY(TranscriptExport::write(TranscriptExport::Format::Jsonl, source, {}, fromEvents,
                                        &error, server));
        QBuffer fromRecords;
        fromRecords.open(QIODevice::WriteOnly);
        QVERIFY(TranscriptExport::write(TranscriptExport::Format::Jsonl, ListExportSource(all), {},
                                        fromRecords, &error, server));
        QCOMPARE(fromEvents.data(), fromRecords.data());
    }

    void aCancelledExportSaysSo()
    {
        QList<QJsonObject> many;
        for (int i = 0; i < 10'000; ++i)
            many << records();
        const ListExportSource source(many);
        QBuffer out;
        out.open(QIODevice::WriteOnly);
        QString error;
        qint64 told = 0;
        QVERIFY(!TranscriptExport::write(TranscriptExport::Format::Jsonl, source, {}, out, &error,
                                         {}, [&told](qint64 read) {
                                             told = read;
                                             return read < 50'000;
                                         }));
        QCOMPARE(error, u"cancelled"_s);
        QVERIFY2(told >= 50'000 && told < 60'000, qPrintable(QString::number(told)));
    }

    // The streamed reports hold a window of calls: a call still unanswered when the window
    // moves on says so, and one answered inside it is paired as in the whole list.
    void aCallPastTheWindowSaysItHadNoAnswerYet()
    {
        QList<QJsonObject> r;
        r << msg("s", 1, 0, "send", request(1, u"tools/call"_s, {{"name"_L1, u"slow"_s}}));
        for (int id = 2; id <= 4; ++id) {
            r << msg("s", 1, id, "send", request(id, u"tools/call"_s, {{"name"_L1, u"fast"_s}}));
            r << msg("s", 1, id, "recv", result(id, {}));
        }
        r << msg("s", 1, 9, "recv", result(1, {}));
        QList<ExportedCall> windowed;
        CallPairer pairer(2, false, [&](ExportedCall &&c) { windowed.append(std::move(c)); });
        for (const QJsonObject &x : std::as_const(r))
            pairer.add(x);
        pairer.finish();
        QCOMPARE(windowed.size(), 4);
        QCOMPARE(windowed[0].outcome, u"no answer within the export's window of 2 calls"_s);
        QCOMPARE(pairer.handedOnEarly(), 1);
        for (int i = 1; i < 4; ++i)
            QCOMPARE(windowed[i].outcome, u"ok"_s);
        const QList<ExportedCall> whole = ExportCalls::pair(r);
        QCOMPARE(whole.size(), 4);
        QCOMPARE(whole[0].outcome, u"ok"_s);
        QCOMPARE(*whole[0].endMs, T0 + 9);
    }

    void describeSaysWhatIsIncluded_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<bool>("includeSessionIds");
        QTest::addColumn<QString>("expected");
        QTest::newRow("HAR counts the legs left out")
            << int(TranscriptExport::Format::Har) << false
            << u"1 HTTP exchanges; 3 stdio legs left out (they have no HTTP requests to show); "
               u"secrets redacted; session ids masked; payloads included"_s;
        QTest::newRow("JSONL with session ids")
            << int(TranscriptExport::Format::Jsonl) << true
            << u"all 22 events, verdicts included; secrets redacted; session ids included; "
               u"payloads included"_s;
    }
    void describeSaysWhatIsIncluded()
    {
        QFETCH(int, format);
        QFETCH(bool, includeSessionIds);
        QFETCH(QString, expected);
        TranscriptExport::Options o;
        o.includeSessionIds = includeSessionIds;
        QCOMPARE(TranscriptExport::describe(TranscriptExport::Format(format), records(), o),
                 expected);
    }
};

QTEST_GUILESS_MAIN(TestTranscriptExport)
#include "tst_transcriptexport.moc"
