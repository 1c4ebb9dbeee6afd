// SPDX-License-Identifier: MIT
#pragma once

#include "transcript/transcriptexport.h"

namespace Sonde {

class ExportOutput;
class ExportReader;

// The versioned JSON Lines export (docs/transcript-format.md): one header line
// {"format":"sonde-transcript","version":Version,...}, then every record as
// TranscriptEvent::toJson wrote it, verdicts and http-exchange events included. Pure.
class JsonlExport
{
public:
    static constexpr int Version = 2;
    static constexpr auto FormatName = "sonde-transcript";

    static QByteArray write(const QList<QJsonObject> &records,
                            const TranscriptExport::Options &options);
    // The same, streamed: a pass for the header's counts, then one line per record.
    static bool write(ExportReader &in, ExportOutput &out);
    // The header of a file, or nullopt for a line that is an event (a version 1 file has
    // no header: its first line is an event).
    static std::optional<QJsonObject> headerOf(const QJsonObject &firstLine);
    // Why a reader of this build cannot read the file `header` starts (empty when it can): a
    // version it does not know (newer than Version, or none), named with the one it reads.
    static QString unreadableVersion(const QJsonObject &header);
};

} // namespace Sonde
