// SPDX-License-Identifier: MIT
// The doctor's pieces that decide on their own: the arguments it builds from a tool's
// schema, the state shots that tell a read-only tool's doing from the server's own motion,
// the catalog every finding quotes, and the reports CI reads.
#include "doctor/doctorformats.h"
#include "doctor/schemaarguments.h"
#include "doctor/stateshot.h"
#include "transcript/redactor.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Sonde;

namespace {

QJsonObject obj(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

DoctorReport sampleReport()
{
    DoctorReport r;
    r.server = u"s"_s;
    r.target = u"http://127.0.0.1:9/mcp"_s;
    r.connected = true;
    r.durationMs = 1200;
    r.ran = {u"jsonrpc.envelope-invalid"_s, u"http.unknown-session-status"_s,
             u"tools.duplicate-name"_s};
    r.skipped.insert(u"ping.not-answered"_s, u"not probed"_s);
    DoctorFinding error;
    error.checkId = u"http.unknown-session-status"_s;
    error.severity = DoctorSeverity::Error;
    error.message = u"got 400"_s;
    error.evidence.request = "POST /mcp HTTP/1.1\r\nMcp-Session-Id: sess-secret-77\r\n\r\n{}";
    error.evidence.response = "HTTP/1.1 400\r\n\r\n{}";
    DoctorFinding warning;
    warning.checkId = u"tools.duplicate-name"_s;
    warning.severity = DoctorSeverity::Warning;
    warning.message = u"a twice"_s;
    r.findings = {error, warning};
    return r;
}

} // namespace

class TestDoctorParts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void argumentsComeFromTheSchema_data();
    void argumentsComeFromTheSchema();
    void shotsCompareWhatBothRead();
    void volatileKeysAreTheServersOwnMotion();
    void everyCheckQuotesARuleAndALink();
    void docsListEveryCheck();
    void exitStatusFollowsTheWorstFinding();
    void junitFailsErrorsOnly();
    void sarifNamesRulesAndLevels();
    void reportsAreRedacted();
};

void TestDoctorParts::argumentsComeFromTheSchema_data()
{
    QTest::addColumn<QJsonObject>("schema");
    QTest::addColumn<QJsonObject>("expected");
    QTest::addColumn<bool>("valid");
    QTest::newRow("a default is taken")
        << obj(R"({"type":"object","properties":{"city":{"type":"string","default":"Paris"}}})")
        << obj(R"({"city":"Paris"})") << true;
    QTest::newRow("the first example is taken for a required property")
        << obj(R"({"type":"object","properties":{"n":{"type":"integer","examples":[7,8]}},"required":["n"]})")
        << obj(R"({"n":7})") << true;
    QTest::newRow("an optional property without a value is left out")
        << obj(R"({"type":"object","properties":{"a":{"type":"string"}}})") << QJsonObject{}
        << true;
    QTest::newRow("a required string gets its shortest allowed length")
        << obj(R"({"type":"object","properties":{"s":{"type":"string","minLength":3}},"required":["s"]})")
        << obj(R"({"s":"aaa"})") << true;
    QTest::newRow("a required integer gets its minimum")
        << obj(R"({"type":"object","properties":{"i":{"type":"integer","minimum":5}},"required":["i"]})")
        << obj(R"({"i":5})") << true;
    QTest::newRow("an exclusive minimum is stepped over")
        << obj(R"({"type":"object","properties":{"i":{"type":"integer","exclusiveMinimum":0}},"required":["i"]})")
        << obj(R"({"i":1})") << true;
    QTest::newRow("an enum gives its first value")
        << obj(R"({"type":"object","properties":{"e":{"enum":["x","y"]}},"required":["e"]})")
        << obj(R"({"e":"x"})") << true;
    QTest::newRow("a nested object is built too")
        << obj(R"({"type":"object","properties":{"o":{"type":"object","properties":{"b":{"type":"boolean"}},"required":["b"]}},"required":["o"]})")
        << obj(R"({"o":{"b":false}})") << true;
    QTest::newRow("an array gets its minimum number of items")
        << obj(R"({"type":"object","properties":{"a":{"type":"array","minItems":2,"items":{"type":"integer"}}},"required":["a"]})")
        << obj(R"({"a":[0,0]})") << true;
    QTest::newRow("a uri format gets a URL")
        << obj(R"({"type":"object","properties":{"u":{"type":"string","format":"uri"}},"required":["u"]})")
        << obj(R"({"u":"https://example.com/"})") << true;
    QTest::newRow("a default that breaks the schema is said invalid, not sent")
        << obj(R"({"type":"object","properties":{"n":{"type":"integer","default":"x"}},"required":["n"]})")
        << obj(R"({"n":"x"})") << false;
}

void TestDoctorParts::argumentsComeFromTheSchema()
{
    QFETCH(QJsonObject, schema);
    QFETCH(QJsonObject, expected);
    QFETCH(bool, valid);
    const SchemaArguments::Built b = SchemaArguments::build(schema);
    QCOMPARE(b.arguments, expected);
    QCOMPARE(b.valid, valid);
}

void TestDoctorParts::shotsCompareWhatBothRead()
{
    StateShot before, after;
    before.add(u"tools/list"_s, QJsonArray{obj(R"({"name":"a"})")});
    before.add(u"resource note://a"_s, QJsonArray{obj(R"({"text":"1","_meta":{"t":1}})")});
    after.add(u"tools/list"_s, QJsonArray{obj(R"({"name":"a"})")});
    // _meta may change on any answer; the text did not.
    after.add(u"resource note://a"_s, QJsonArray{obj(R"({"text":"1","_meta":{"t":2}})")});
    QCOMPARE(StateShot::differences(before, after), QStringList{});
    after.add(u"tools/list"_s, QJsonArray{obj(R"({"name":"a"})"), obj(R"({"name":"b"})")});
    QCOMPARE(StateShot::differences(before, after), QStringList{u"tools/list"_s});
    // A read that failed in one shot (absent there) says nothing.
    StateShot partial;
    partial.add(u"tools/list"_s, QJsonArray{obj(R"({"name":"a"})")});
    QCOMPARE(StateShot::differences(before, partial), QStringList{});
}

void TestDoctorParts::volatileKeysAreTheServersOwnMotion()
{
    StateShot first, second, third;
    first.add(u"resource clock://now"_s, QJsonArray{obj(R"({"text":"10:00"})")});
    first.add(u"resources/list"_s, QJsonArray{});
    second.add(u"resource clock://now"_s, QJsonArray{obj(R"({"text":"10:01"})")});
    second.add(u"resources/list"_s, QJsonArray{});
    third.add(u"resource clock://now"_s, QJsonArray{obj(R"({"text":"10:02"})")});
    third.add(u"resources/list"_s, QJsonArray{obj(R"({"uri":"note://new"})")});
    const QSet<QString> moving = StateShot::volatileKeys(first, second);
    QCOMPARE(moving, QSet<QString>{u"resource clock://now"_s});
    QCOMPARE(StateShot::differences(second, third, moving), QStringList{u"resources/list"_s});
}

void TestDoctorParts::everyCheckQuotesARuleAndALink()
{
    QSet<QString> ids;
    for (const DoctorCheck &c : DoctorCatalog::all()) {
        QVERIFY2(!ids.contains(c.id), qPrintable(c.id));
        ids.insert(c.id);
        QVERIFY2(QRegularExpression(u"^[a-z0-9]+\\.[a-z0-9-]+$"_s).match(c.id).hasMatch(),
                 qPrintable(c.id));
        QVERIFY2(!c.rule.isEmpty() && !c.title.isEmpty() && !c.fix.isEmpty(), qPrintable(c.id));
        QVERIFY2(c.url.startsWith(u"https://"_s), qPrintable(c.id));
        QVERIFY2(c.revision == "2025-11-25"_L1 || c.revision == "2026-07-28"_L1, qPrintable(c.id));
    }
    // The ids the issue names, which users' CI filters on.
    for (const char *id :
         {"http.unknown-session-status", "http.origin-not-validated", "http.session-id-charset",
          "stdio.non-jsonrpc-stdout", "lifecycle.request-before-initialized",
          "capabilities.undeclared-notification", "tools.output-schema-violation",
          "tools.structured-content-missing", "tools.read-only-changed-state",
          "tools.input-schema-invalid", "tools.duplicate-name", "pagination.cursor-repeats",
          "jsonrpc.response-id-mismatch", "progress.not-increasing", "jsonrpc.envelope-invalid"})
        QVERIFY2(ids.contains(QString::fromLatin1(id)), id);
}

void TestDoctorParts::docsListEveryCheck()
{
    QFile doc(QStringLiteral(SONDE_SOURCE_DIR "/docs/doctor.md"));
    QVERIFY(doc.open(QIODevice::ReadOnly));
    const QByteArray text = doc.readAll();
    for (const DoctorCheck &c : DoctorCatalog::all())
        QVERIFY2(text.contains(QByteArray("| `" + c.id.toUtf8() + "` |")), qPrintable(c.id));
}

void TestDoctorParts::exitStatusFollowsTheWorstFinding()
{
    DoctorReport r = sampleReport();
    QCOMPARE(r.exitCode(), 1);
    r.findings.removeFirst();
    QCOMPARE(r.exitCode(), 0); // a warning does not fail CI
    r.connected = false;
    QCOMPARE(r.exitCode(), 2);
}

void TestDoctorParts::junitFailsErrorsOnly()
{
    Redactor redactor;
    const QByteArray xml = DoctorFormats::junit(sampleReport(), redactor);
    QCOMPARE(xml.count("<testcase "), 4); // three ran, one skipped
    QCOMPARE(xml.count("<failure "), 1);
    QVERIFY(xml.contains("<failure type=\"http.unknown-session-status\""));
    QVERIFY(xml.contains("<system-out>warning: a twice"));
    QVERIFY(xml.contains("<skipped message=\"not probed\""));
}

void TestDoctorParts::sarifNamesRulesAndLevels()
{
    Redactor redactor;
    const QJsonObject log =
        QJsonDocument::fromJson(DoctorFormats::sarif(sampleReport(), redactor, u"mcp.json"_s))
            .object();
    const QJsonObject run = log.value("runs"_L1).toArray().first().toObject();
    const QJsonArray rules =
        run.value("tool"_L1).toObject().value("driver"_L1).toObject().value("rules"_L1).toArray();
    QCOMPARE(rules.size(), DoctorCatalog::all().size());
    const QJsonArray results = run.value("results"_L1).toArray();
    QCOMPARE(results.size(), 2);
    QCOMPARE(results[0].toObject().value("level"_L1).toString(), u"error"_s);
    QCOMPARE(results[1].toObject().value("level"_L1).toString(), u"warning"_s);
    const int index = results[1].toObject().value("ruleIndex"_L1).toInt();
    QCOMPARE(rules[index].toObject().value("id"_L1).toString(), u"tools.duplicate-name"_s);
    QCOMPARE(results[0]
                 .toObject()
                 .value("locations"_L1)
                 .toArray()
                 .first()
                 .toObject()
                 .value("physicalLocation"_L1)
                 .toObject()
                 .value("artifactLocation"_L1)
                 .toObject()
                 .value("uri"_L1)
                 .toString(),
             u"mcp.json"_s);
}

void TestDoctorParts::reportsAreRedacted()
{
    Redactor redactor;
    redactor.addSessionId(u"sess-secret-77"_s);
    const DoctorReport r = sampleReport();
    for (DoctorFormats::Format f : {DoctorFormats::Format::Text, DoctorFormats::Format::Json,
                                    DoctorFormats::Format::JUnit, DoctorFormats::Format::Sarif}) {
        const QByteArray out = DoctorFormats::render(f, r, redactor, u"x"_s);
        QVERIFY2(!out.contains("sess-secret-77"), out.constData());
        QVERIFY(out.contains("[REDACTED]"));
    }
}

QTEST_GUILESS_MAIN(TestDoctorParts)
#include "tst_doctorparts.moc"
