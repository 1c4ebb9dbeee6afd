// SPDX-License-Identifier: MIT
#pragma once

#include "historyimporter.h"

#include <QString>

#include <functional>
#include <optional>

class QIODevice;

namespace Sonde {

class HistoryStore;

// A transcript file of any format Sonde reads, told apart by its first bytes: Sonde's JSON
// Lines (every version HistoryImporter reads: a record a line, with or without the versioned
// header) or the official MCP Inspector's JSON export (one array; InspectorExportReader). Reads
// it into a HistoryStore. Pure functions on the caller's thread.
class TranscriptFileReader
{
public:
    enum class Format
    {
        SondeJsonl,
        InspectorJson
    };
    // How much of the start is read to tell the format.
    static constexpr qint64 SniffBytes = 64 * 1024;

    // The format of a file that starts with `head`; empty with the reason (an empty file, a
    // binary one, some other JSON or text).
    static std::optional<Format> sniff(const QByteArray &head, QString *why);
    // The same from an open device, which is only peeked at (nothing is consumed).
    static std::optional<Format> formatOf(QIODevice &in, QString *why);
    static QString formatName(Format format);

    // Reads `in` (from its position) into `store`. `fileName` names the Inspector's records'
    // server (InspectorExportReader::serverFromFileName, else the file's base name). A JSONL
    // file's bad lines are skipped and counted; an Inspector file is read whole or not at all
    // (Result::error says why). `cancelled`, when given, is asked between batches.
    static HistoryImporter::Result importInto(QIODevice &in, Format format, const QString &fileName,
                                              HistoryStore &store,
                                              const std::function<bool()> &cancelled = {});
};

} // namespace Sonde
