// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace Sonde {

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

    static std::optional<Format> formatFromName(const QString &name); // jsonl md har otlp
    static QString formatName(Format f);
    // What the export will include, in words, for the export dialog.
    static QString describe(Format f, const QList<QJsonObject> &records, const Options &o);
    static QByteArray write(Format f, const QList<QJsonObject> &records, const Options &o);

    // The records as the options say: the one place redaction is applied for every format.
    static QList<QJsonObject> prepare(const QList<QJsonObject> &records, const Options &o);
    // The MCP session ids the records hold (Mcp-Session-Id headers, transport details).
    static QStringList sessionIds(const QList<QJsonObject> &records);
};

} // namespace Sonde
