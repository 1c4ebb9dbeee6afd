// SPDX-License-Identifier: MIT
#include "doctorformats.h"

#include "transcript/redactor.h"
#include "util/version.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QXmlStreamWriter>

using namespace Qt::StringLiterals;

namespace Sonde::DoctorFormats {

namespace {

QString severityName(DoctorSeverity s)
{
    return enumName(EnumNames<DoctorSeverity>::names, s);
}

QString sarifLevel(DoctorSeverity s)
{
    return s == DoctorSeverity::Error     ? u"error"_s
           : s == DoctorSeverity::Warning ? u"warning"_s
                                          : u"note"_s;
}

QString isoTime(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

// A frame as a terminal shows it: its first lines, redacted, indented under its label.
QByteArray excerpt(const QByteArray &frame, const Redactor &redactor, const char *label)
{
    if (frame.isEmpty())
        return {};
    QString text = redactor.apply(QString::fromUtf8(frame.left(2000)));
    QStringList lines = text.split(u'\n');
    if (lines.size() > 12)
        lines = lines.mid(0, 12) << u"…"_s;
    if (frame.size() > 2000)
        lines.last() += u" … (%1 bytes in all)"_s.arg(frame.size());
    QByteArray out = "      " + QByteArray(label) + ":\n";
    for (const QString &l : std::as_const(lines))
        out += "        " + l.trimmed().toUtf8() + '\n';
    return out;
}

} // namespace

std::optional<Format> formatFromName(const QString &name)
{
    if (name == "text"_L1)
        return Format::Text;
    if (name == "json"_L1)
        return Format::Json;
    if (name == "junit"_L1)
        return Format::JUnit;
    if (name == "sarif"_L1)
        return Format::Sarif;
    return std::nullopt;
}

QJsonObject toJson(const DoctorReport &report, const Redactor &redactor)
{
    QJsonArray findings;
    for (const DoctorFinding &f : report.findings)
        findings.append(f.toJson(&redactor));
    QJsonArray checks;
    for (const DoctorCheck &c : DoctorCatalog::all()) {
        const DoctorReport::CheckStatus status = report.statusOf(c.id);
        if (status == DoctorReport::CheckStatus::Skipped && !report.skipped.contains(c.id))
            continue; // not asked for (--only)
        QJsonObject o{{"id"_L1, c.id},
                      {"severity"_L1, severityName(c.severity)},
                      {"status"_L1, status == DoctorReport::CheckStatus::Passed   ? "passed"_L1
                                    : status == DoctorReport::CheckStatus::Failed ? "failed"_L1
                                                                                  : "skipped"_L1}};
        if (status == DoctorReport::CheckStatus::Skipped)
            o.insert("skipped_because"_L1, report.skipped.value(c.id));
        checks.append(o);
    }
    QJsonArray calls;
    for (const DoctorReport::ToolCall &c : report.toolCalls)
        calls.append(QJsonObject{{"tool"_L1, c.name},
                                 {"read_only"_L1, c.readOnly},
                                 {"outcome"_L1, c.outcome},
                                 {"ms"_L1, c.ms}});
    return {{"doctor"_L1, 1},
            {"sonde_version"_L1, QStringLiteral(SONDE_VERSION)},
            {"server"_L1, report.server},
            {"target"_L1, redactor.apply(report.target)},
            {"transport"_L1, report.transport},
            {"era"_L1, report.era},
            {"protocol_version"_L1, report.protocolVersion},
            {"server_info"_L1, report.serverInfo},
            {"connected"_L1, report.connected},
            {"allow_writes"_L1, report.allowWrites},
            {"stopped"_L1, report.stopped},
            {"started_at"_L1, isoTime(report.startedMs)},
            {"duration_ms"_L1, report.durationMs},
            {"summary"_L1, QJsonObject{{"errors"_L1, report.count(DoctorSeverity::Error)},
                                       {"warnings"_L1, report.count(DoctorSeverity::Warning)},
                                       {"infos"_L1, report.count(DoctorSeverity::Info)},
                                       {"checks_ran"_L1, report.ran.size()},
                                       {"checks_skipped"_L1, report.skipped.size()}}},
            {"exit_code"_L1, report.exitCode()},
            {"findings"_L1, findings},
            {"checks"_L1, checks},
            {"tool_calls"_L1, calls}};
}

QByteArray text(const DoctorReport &report, const Redactor &redactor)
{
    QByteArray out;
    out += "sonde doctor: " + report.server.toUtf8() + " (" +
           redactor.apply(report.target).toUtf8() + ")\n";
    if (report.connected) {
        const QString info = report.serverInfo.value("name"_L1).toString() + u' ' +
                             report.serverInfo.value("version"_L1).toString();
        out += "  " + report.transport.toUtf8() + ", era " + report.era.toUtf8() + ", protocol " +
               report.protocolVersion.toUtf8() + ", server " + info.trimmed().toUtf8() + '\n';
    }
    out += u"  %1 checks ran, %2 skipped; %3 errors, %4 warnings, %5 info; %6 s\n"_s
               .arg(report.ran.size())
               .arg(report.skipped.size())
               .arg(report.count(DoctorSeverity::Error))
               .arg(report.count(DoctorSeverity::Warning))
               .arg(report.count(DoctorSeverity::Info))
               .arg(double(report.durationMs) / 1000.0, 0, 'f', 2)
               .toUtf8();
    for (DoctorSeverity s :
         {DoctorSeverity::Error, DoctorSeverity::Warning, DoctorSeverity::Info}) {
        if (report.count(s) == 0)
            continue;
        out += '\n' + severityName(s).toUpper().toUtf8() + "S\n";
        for (const DoctorFinding &f : report.findings) {
            if (f.severity != s)
                continue;
            const DoctorCheck *c = DoctorCatalog::find(f.checkId);
            out += "  " + f.checkId.toUtf8() + "\n    " + redactor.apply(f.message).toUtf8() + '\n';
            if (c) {
                out += "    spec " + c->revision.toUtf8() + ", " + c->section.toUtf8() + ":\n";
                out += "      \"" + c->rule.toUtf8() + "\"\n      " + c->url.toUtf8() + '\n';
                out += "    fix: " + c->fix.toUtf8() + '\n';
            }
            out += excerpt(f.evidence.request, redactor, "request");
            out += excerpt(f.evidence.response, redactor, "response");
            if (f.evidence.transcriptIndex >= 0)
                out += "      transcript event " + QByteArray::number(f.evidence.transcriptIndex) +
                       '\n';
        }
    }
    if (!report.toolCalls.isEmpty()) {
        out += "\nTOOLS CALLED\n";
        for (const DoctorReport::ToolCall &c : report.toolCalls)
            out += "  " + c.name.toUtf8() + (c.readOnly ? " (read-only): " : " (write): ") +
                   c.outcome.toUtf8() +
                   (c.ms > 0 ? " in " + QByteArray::number(c.ms) + " ms" : QByteArray()) + '\n';
    }
    if (!report.skipped.isEmpty()) {
        out += "\nSKIPPED\n";
        for (auto it = report.skipped.begin(); it != report.skipped.end(); ++it)
            out += "  " + it.key().toUtf8() + ": " + it.value().toUtf8() + '\n';
    }
    if (report.count(DoctorSeverity::Error) == 0 && report.connected)
        out += "\nNo rule broken that is a MUST of the spec.\n";
    return out;
}

QByteArray junit(const DoctorReport &report, const Redactor &redactor)
{
    QByteArray xml;
    QXmlStreamWriter w(&xml);
    w.setAutoFormatting(true);
    w.writeStartDocument();
    w.writeStartElement(u"testsuites"_s);
    w.writeStartElement(u"testsuite"_s);
    w.writeAttribute(u"name"_s, u"sonde doctor: "_s + report.server);
    w.writeAttribute(u"tests"_s, QString::number(report.ran.size() + report.skipped.size()));
    w.writeAttribute(u"failures"_s, QString::number(report.count(DoctorSeverity::Error)));
    w.writeAttribute(u"errors"_s, u"0"_s);
    w.writeAttribute(u"skipped"_s, QString::number(report.skipped.size()));
    w.writeAttribute(u"time"_s, QString::number(double(report.durationMs) / 1000.0, 'f', 3));
    w.writeAttribute(u"timestamp"_s, isoTime(report.startedMs));
    for (const DoctorCheck &c : DoctorCatalog::all()) {
        const DoctorReport::CheckStatus status = report.statusOf(c.id);
        if (status == DoctorReport::CheckStatus::Skipped && !report.skipped.contains(c.id))
            continue;
        w.writeStartElement(u"testcase"_s);
        w.writeAttribute(u"classname"_s, u"doctor."_s + c.id.section(u'.', 0, 0));
        w.writeAttribute(u"name"_s, c.id);
        w.writeAttribute(u"time"_s, u"0"_s);
        QStringList details;
        for (const DoctorFinding &f : report.findings) {
            if (f.checkId != c.id)
                continue;
            QString d = redactor.apply(f.message);
            if (!f.evidence.request.isEmpty())
                d += u"\nrequest: "_s +
                     redactor.apply(QString::fromUtf8(f.evidence.request.left(4000)));
            if (!f.evidence.response.isEmpty())
                d += u"\nresponse: "_s +
                     redactor.apply(QString::fromUtf8(f.evidence.response.left(4000)));
            details << d;
        }
        const QString body = details.join(u"\n\n"_s) + u"\n\nspec "_s + c.revision + u", "_s +
                             c.section + u": \""_s + c.rule + u"\"\n"_s + c.url;
        if (status == DoctorReport::CheckStatus::Skipped) {
            w.writeStartElement(u"skipped"_s);
            w.writeAttribute(u"message"_s, report.skipped.value(c.id));
            w.writeEndElement();
        } else if (status == DoctorReport::CheckStatus::Failed &&
                   c.severity == DoctorSeverity::Error) {
            w.writeStartElement(u"failure"_s);
            w.writeAttribute(u"type"_s, c.id);
            w.writeAttribute(u"message"_s, c.title);
            w.writeCharacters(body);
            w.writeEndElement();
        } else if (status == DoctorReport::CheckStatus::Failed) {
            // A warning or information: reported, not failed, as the exit status says.
            w.writeTextElement(u"system-out"_s, severityName(c.severity) + u": "_s + body);
        }
        w.writeEndElement();
    }
    w.writeEndElement();
    w.writeEndElement();
    w.writeEndDocument();
    return xml;
}

QByteArray sarif(const DoctorReport &report, const Redactor &redactor, const QString &artifactUri)
{
    QJsonArray rules;
    QHash<QString, int> ruleIndex;
    for (const DoctorCheck &c : DoctorCatalog::all()) {
        ruleIndex.insert(c.id, int(rules.size()));
        rules.append(QJsonObject{
            {"id"_L1, c.id},
            {"name"_L1, c.id},
            {"shortDescription"_L1, QJsonObject{{"text"_L1, c.title}}},
            {"fullDescription"_L1, QJsonObject{{"text"_L1, c.rule}}},
            {"helpUri"_L1, c.url},
            {"help"_L1,
             QJsonObject{{"text"_L1, QString(c.fix + u"\n\nSpec "_s + c.revision + u", "_s +
                                             c.section + u": \""_s + c.rule + u"\" "_s + c.url)},
                         {"markdown"_L1,
                          QString(c.fix + u"\n\n> "_s + c.rule + u"\n\n[MCP "_s + c.revision +
                                  u", "_s + c.section + u"]("_s + c.url + u")"_s)}}},
            {"defaultConfiguration"_L1, QJsonObject{{"level"_L1, sarifLevel(c.severity)}}},
            {"properties"_L1,
             QJsonObject{{"tags"_L1, QJsonArray{u"mcp"_s, c.id.section(u'.', 0, 0)}},
                         {"revision"_L1, c.revision}}}});
    }
    QJsonArray results;
    for (const DoctorFinding &f : report.findings) {
        const QJsonObject finding = f.toJson(&redactor);
        results.append(QJsonObject{
            {"ruleId"_L1, f.checkId},
            {"ruleIndex"_L1, ruleIndex.value(f.checkId)},
            {"level"_L1, sarifLevel(f.severity)},
            {"message"_L1, QJsonObject{{"text"_L1, redactor.apply(f.message)}}},
            {"locations"_L1,
             QJsonArray{QJsonObject{
                 {"physicalLocation"_L1,
                  QJsonObject{{"artifactLocation"_L1,
                               QJsonObject{{"uri"_L1, redactor.apply(artifactUri)}}}}},
                 {"logicalLocations"_L1,
                  QJsonArray{QJsonObject{{"name"_L1, report.server}, {"kind"_L1, "module"_L1}}}}}}},
            {"properties"_L1, QJsonObject{{"evidence"_L1, finding.value("evidence"_L1)}}}});
    }
    const QJsonObject run{
        {"tool"_L1,
         QJsonObject{{"driver"_L1,
                      QJsonObject{{"name"_L1, "sonde-doctor"_L1},
                                  {"semanticVersion"_L1, QStringLiteral(SONDE_VERSION)},
                                  {"informationUri"_L1,
                                   "https://modelcontextprotocol.io/specification/2025-11-25"_L1},
                                  {"rules"_L1, rules}}}}},
        {"invocations"_L1,
         QJsonArray{QJsonObject{{"executionSuccessful"_L1, report.connected},
                                {"startTimeUtc"_L1, isoTime(report.startedMs)},
                                {"endTimeUtc"_L1, isoTime(report.startedMs + report.durationMs)}}}},
        {"results"_L1, results}};
    const QJsonObject log{{"$schema"_L1,
                           "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
                           "sarif-schema-2.1.0.json"_L1},
                          {"version"_L1, "2.1.0"_L1},
                          {"runs"_L1, QJsonArray{run}}};
    return QJsonDocument(log).toJson(QJsonDocument::Indented);
}

QByteArray render(Format format, const DoctorReport &report, const Redactor &redactor,
                  const QString &artifactUri)
{
    switch (format) {
    case Format::Text:
        return text(report, redactor);
    case Format::Json:
        return QJsonDocument(toJson(report, redactor)).toJson(QJsonDocument::Indented);
    case Format::JUnit:
        return junit(report, redactor);
    case Format::Sarif:
        return sarif(report, redactor, artifactUri);
    }
    return {};
}

} // namespace Sonde::DoctorFormats
