// SPDX-License-Identifier: MIT
#include "transcript/transcriptexport.h"

#include "transcript/exportreader.h"
#include "transcript/exportsource.h"
#include "transcript/exporttally.h"
#include "transcript/harexport.h"
#include "transcript/jsonlexport.h"
#include "transcript/markdownreport.h"
#include "transcript/otlpexport.h"

#include <QBuffer>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

// The records of `server` (all when empty) through a tally, in one pass.
bool tallyOf(const ExportSource &source, const QString &server, ExportTally *tally, QString *error,
             const TranscriptExport::Progress &progress)
{
    ExportTally t;
    qint64 read = 0;
    bool cancelled = false;
    const bool whole = source.read(
        server, {},
        [&](const QJsonObject &r) {
            t.add(r);
            if (++read % 4096 == 0 && progress && !progress(read)) {
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
    *tally = std::move(t);
    return true;
}

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
    ExportTally tally;
    if (!tallyOf(source, server, &tally, error, progress))
        return false;
    *counts = server.isEmpty() ? tally.all() : tally.of(server);
    return true;
}

bool TranscriptExport::count(const ExportSource &source, ExportTally *tally, QString *error,
                             const Progress &progress)
{
    return tallyOf(source, {}, tally, error, progress);
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
                             const Progress &progress, Counts *counts)
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
    if (!out.ok(error))
        return false;
    if (counts) {
        // Every format reads the whole scope once; a format that did not is counted here.
        if (const std::optional<Counts> learned = in.counts())
            *counts = *learned;
        else if (!count(source, server, counts, error, progress))
            return false;
    }
    return true;
}

} // namespace Sonde
