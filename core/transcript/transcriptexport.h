// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QIODevice>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

#include <optional>

namespace Sonde {

class ExportSource;
class ExportTally;

// The one door to the exports of transcript records (TranscriptEvent::toJson): JSON Lines
// (JsonlExport), a Markdown bug report (MarkdownReport), HAR 1.2 (HarExport) and OTLP/JSON
// (OtlpExport). It prepares the records as the options say (secrets redacted, session ids
// masked, payloads left out), then hands them to the format. Pure functions; any thread.
class TranscriptExport
{
public:
    enum class Format
    {
        Jsonl,
        Markdown,
        Har,
        Otlp
    };
    struct Options
    {
        bool redact = true;             // everything redacted by default
        bool includeSessionIds = false; // mcp.session.id etc. masked unless asked
        bool includePayloads = true;
        QString collectorUrl; // OTLP only: the caller may POST there (not here)
    };

    // What an export would hold, counted in one pass whatever the options: for the dialog's
    // text and its choice of servers, without holding the records.
    struct Counts
    {
        qint64 events = 0;
        QStringList servers;     // in the order they first appear
        qint64 exchanges = 0;    // HTTP exchanges (HAR entries)
        qsizetype stdioLegs = 0; // legs HAR leaves out
    };
    // Told the records read so far, now and then; false cancels.
    using Progress = std::function<bool(qint64 recordsRead)>;

    static std::optional<Format> formatFromName(const QString &name); // jsonl md har otlp
    static QString formatName(Format f);
    // What the export will include, in words, for the export dialog.
    static QString describe(Format f, const QList<QJsonObject> &records, const Options &o);
    static QString describe(Format f, const Counts &counts, const Options &o);
    static Counts count(const QList<QJsonObject> &records);
    // The records of `server` (every server's when empty) counted; false when the reading
    // failed or was cancelled (`error` says which).
    static bool count(const ExportSource &source, const QString &server, Counts *counts,
                      QString *error, const Progress &progress = {});
    // Every server's records counted in one pass, all together and each on its own.
    static bool count(const ExportSource &source, ExportTally *tally, QString *error,
                      const Progress &progress = {});
    static QByteArray write(Format f, const QList<QJsonObject> &records, const Options &o);
    // The same document streamed to `out` from a source read two or three times, a record at
    // a time (ExportReader): what is held is a format's summary and a window of calls, not
    // the records. False when reading or writing failed or was cancelled, with the reason.
    // `counts`, when given, gets what was exported, learned on the way (ExportReader::counts).
    static bool write(Format f, const ExportSource &source, const Options &o, QIODevice &out,
                      QString *error, const QString &server = {}, const Progress &progress = {},
                      Counts *counts = nullptr);

    // The records as the options say (ExportReader, the one place redaction is applied).
    static QList<QJsonObject> prepare(const QList<QJsonObject> &records, const Options &o);
    // The MCP session ids the records hold (Mcp-Session-Id headers, transport details).
    static QStringList sessionIds(const QList<QJsonObject> &records);
};

} // namespace Sonde
