// SPDX-License-Identifier: MIT
#pragma once

#include "transcript/exportsource.h"
#include "transcript/exporttally.h"
#include "transcript/redactor.h"
#include "transcript/transcriptexport.h"

#include <QIODevice>

#include <optional>

namespace Sonde {

class ExportOutput;

// An export's view of its source: the records of one server or all (the scope), prepared as
// the options say (secrets redacted, session ids masked, payloads left out), read as often as
// the format needs. The session ids to mask are found first, in a pass over the lifecycle
// events (the only records with details, TranscriptEvent::toJson), so a record that names
// an id before the event that says it is one is masked too. Counts what it reads, tells
// `progress` every few thousand records (false from it cancels) and stops at the first
// failure, which error() then names. Its first whole pass over the scope is tallied
// (ExportTally), so the caller learns what was exported without a pass of its own. Thread: the
// one that reads the source.
class ExportReader
{
public:
    using Progress = std::function<bool(qint64 recordsRead)>;

    ExportReader(const ExportSource &source, const TranscriptExport::Options &options,
                 const QString &scope = {}, Progress progress = {});
    // The records as they are (the formats' list entry points take records prepared already);
    // `options` only says what the file's header tells.
    static ExportReader asIs(const ExportSource &source, const TranscriptExport::Options &options);
    // What a streamed writer makes of records prepared already, in memory: the formats' list
    // entry points.
    static QByteArray
    documentAsIs(const QList<QJsonObject> &records, const TranscriptExport::Options &options,
                 const std::function<bool(ExportReader &, ExportOutput &)> &write);

    // Every record of `server` (the scope when empty) whose dir is one of `directions` (any
    // when empty), prepared. False when the reading failed or was cancelled.
    bool read(const QString &server, const QStringList &directions, const ExportSource::Each &each);
    bool read(const ExportSource::Each &each) { return read({}, {}, each); }

    const TranscriptExport::Options &options() const { return m_options; }
    QString error() const { return m_error; }
    qint64 recordsRead() const { return m_read; }
    // What the scope holds, once a read of all its records (no server, no directions) has
    // gone through to the end; nothing before.
    std::optional<TranscriptExport::Counts> counts() const;
    // The record as the options say, with the session ids found so far (after the first read:
    // all of them).
    QJsonObject prepared(const QJsonObject &record) const;
    // The MCP session ids a record holds (Mcp-Session-Id headers, transport details).
    static void addSessionIds(const QJsonObject &record, QStringList *ids);

private:
    bool findSessionIds();
    bool pass(const QString &server, const QStringList &directions, const ExportSource::Each &each);

    const ExportSource &m_source;
    TranscriptExport::Options m_options;
    QString m_scope;
    Progress m_progress;
    bool m_prepare = true;
    bool m_idsFound = false;
    QStringList m_ids;
    Redactor m_redactor;
    QString m_error;
    qint64 m_read = 0;
    ExportTally m_tally;
    bool m_tallied = false;
};

// Writes what a format produces to a device and remembers the first failure, so a writer can
// stream many pieces and ask once at the end.
class ExportOutput
{
public:
    explicit ExportOutput(QIODevice &device) : m_device(device) {}
    void put(const QByteArray &bytes);
    bool ok(QString *error) const;

private:
    QIODevice &m_device;
    bool m_failed = false;
};

// A JSON document (QJsonDocument::Indented) written around one array streamed in element by
// element, byte for byte what QJsonDocument writes when the array is whole: the document is
// given with the array holding one placeholder string, and is cut there.
class IndentedJsonSplice
{
public:
    static constexpr auto Placeholder = "@@sonde-spliced-array@@";

    IndentedJsonSplice(const QJsonObject &documentWithPlaceholder, ExportOutput &out);
    void append(const QJsonObject &element);
    void finish();

private:
    ExportOutput &m_out;
    QByteArray m_tail;
    QByteArray m_indent;
    bool m_first = true;
};

} // namespace Sonde
