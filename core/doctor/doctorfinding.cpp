// SPDX-License-Identifier: MIT
#include "doctorfinding.h"

#include "transcript/redactor.h"

#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

// A frame as the report shows it: parsed JSON when it is JSON (so a reader need not unescape
// it), else its text; redacted either way, cut at the evidence limit.
QJsonValue evidenceValue(const QByteArray &frame, const Redactor *redactor)
{
    if (frame.isEmpty())
        return QJsonValue::Null;
    const QByteArray shown = frame.left(DoctorEvidenceLimit);
    const QJsonDocument doc = QJsonDocument::fromJson(shown);
    if (doc.isObject())
        return redactor ? redactor->apply(doc.object()) : doc.object();
    const QString text = QString::fromUtf8(shown);
    return redactor ? redactor->apply(text) : text;
}

} // namespace

QJsonObject DoctorFinding::toJson(const Redactor *redactor) const
{
    QJsonObject o{{"check"_L1, checkId},
                  {"severity"_L1, enumName(EnumNames<DoctorSeverity>::names, severity)},
                  {"message"_L1, redactor ? redactor->apply(message) : message},
                  {"live"_L1, live}};
    if (const DoctorCheck *check = DoctorCatalog::find(checkId)) {
        o.insert("title"_L1, check->title);
        o.insert("rule"_L1, check->rule);
        o.insert("revision"_L1, check->revision);
        o.insert("section"_L1, check->section);
        o.insert("url"_L1, check->url);
    }
    QJsonObject shown{{"request"_L1, evidenceValue(evidence.request, redactor)},
                      {"response"_L1, evidenceValue(evidence.response, redactor)}};
    if (evidence.transcriptIndex >= 0)
        shown.insert("transcript_index"_L1, evidence.transcriptIndex);
    o.insert("evidence"_L1, shown);
    return o;
}

DoctorReport::CheckStatus DoctorReport::statusOf(const QString &checkId) const
{
    for (const DoctorFinding &f : findings)
        if (f.checkId == checkId)
            return CheckStatus::Failed;
    return ran.contains(checkId) ? CheckStatus::Passed : CheckStatus::Skipped;
}

int DoctorReport::count(DoctorSeverity severity) const
{
    return int(
        std::count_if(findings.cbegin(), findings.cend(),
                      [severity](const DoctorFinding &f) { return f.severity == severity; }));
}

int DoctorReport::exitCode() const
{
    if (!connected)
        return 2;
    return count(DoctorSeverity::Error) > 0 ? 1 : 0;
}

} // namespace Sonde
