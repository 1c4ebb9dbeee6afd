// SPDX-License-Identifier: MIT
#include "transcript/transcriptexport.h"

#include "transcript/exportreader.h"
#include "transcript/exportsource.h"
#include "transcript/harexport.h"
#include "transcript/jsonlexport.h"
#include "transcript/markdownreport.h"
#include "transcript/otlpexport.h"

#include <QBuffer>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

const char *const FormatNames[] = {"jsonl", "md", "har", "otlp"};

} // namespace

std::optional<TranscriptExport::Format> TranscriptExport::formatFromName(const QString &name)
{
    for (int i = 0; i < int(std::size(FormatNames)); ++i)
        if (name == QLatin1StringView(FormatNames[i]))
            return Format(i);
    return std::nullopt;
}

QString TranscriptExport::formatName(Format f)
{
    return QString::fromLatin1(FormatNames[int(f)]);
}

QStringList TranscriptExport::sessionIds(const QList<QJsonObject> &records)
{
    QStringList ids;
    for (const QJsonObject &r : records)
        ExportReader::addSessionIds(r, &ids);
    return ids;
}

QList<QJsonObject> TranscriptExport::prepare(const QList<QJsonObject> &records, const Options &o)
{
    const ListExportSource source(records);
    ExportReader in(source, o);
    QList<QJsonObject> out;
    out.reserve(records.size());
    in.read([&out](const QJsonObject &r) {
        out.append(r);
        return true;
    });
    return out;
}

TranscriptExport::Counts TranscriptExport::count(const QList<QJsonObject> &records)
{
    Counts counts;
    QString error;
    count(ListExportSource(records), {}, &counts, &error);
    return counts;
}

bool TranscriptExport::count(const ExportSource &source, const QString &server, Counts *counts,
                             QString *error, const Progress &progress)
{
    HarExport::Legs legs;
    Counts c;
    bool cancelled = false;
    const bool whole = source.read(
        server, {},
        [&](const QJsonObject &r) {
            legs.add(r);
            const QString s = r.value("server"_L1).toString();
            if (!c.servers.contains(s))
                c.servers.append(s);
            if (++c.events % 4096 == 0 && progress && !progress(c.events)) {
                cancelled = true;
                return false;
            }
            return true;
        },
        error);
    if (cancelled)
        *error = u"cancelled"_s;
    if (!whole)
        return false;
    c.exchanges = legs.exchanges();
    c.stdioLegs = legs.stdioLegs();
    *counts = c;
    return true;
}

QString TranscriptExport::describe(Format f, const QList<QJsonObject> &records, const Options &o)
{
    return describe(f, count(records), o);
}

QString TranscriptExport::describe(Format f, const Counts &counts, const Options &o)
{
    QStringList parts;
    switch (f) {
    case Format::Jsonl:
        parts << u"all %1 events, verdicts included"_s.arg(counts.events);
        break;
    case Format::Markdown:
        parts << u"a report of %1 events: versions, calls, errors, recovery"_s.arg(counts.events);
        break;
    case Format::Har:
        parts << HarExport::describeLegs(counts.exchanges, counts.stdioLegs);
        break;
    case Format::Otlp:
        parts << u"one span per request (%1 events read)"_s.arg(counts.events);
        if (!o.collectorUrl.isEmpty())
            parts << u"to be sent to %1"_s.arg(o.collectorUrl);
        break;
    }
    parts << (o.redact ? u"secrets redacted"_s : u"secrets NOT redacted"_s);
    parts << (o.includeSessionIds ? u"session ids included"_s : u"session ids masked"_s);
    parts << (o.includePayloads ? u"payloads included"_s : u"payloads left out"_s);
    return parts.join("; "_L1);
}

QByteArray TranscriptExport::write(Format f, const QList<QJsonObject> &records, const Options &o)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QString error;
    write(f, ListExportSource(records), o, buffer, &error);
    return buffer.data();
}

bool TranscriptExport::write(Format f, const ExportSource &source, const Options &o,
                             QIODevice &device, QString *error, const QString &server,
                             const Progress &progress)
{
    ExportReader in(source, o, server, progress);
    ExportOutput out(device);
    bool read = false;
    switch (f) {
    case Format::Jsonl:
        read = JsonlExport::write(in, out);
        break;
    case Format::Markdown:
        read = MarkdownReport::write(in, out);
        break;
    case Format::Har:
        read = HarExport::write(in, out);
        break;
    case Format::Otlp:
        read = OtlpExport::write(in, out);
        break;
    }
    if (!read) {
        *error = in.error();
        return false;
    }
    return out.ok(error);
}

} // namespace Sonde
