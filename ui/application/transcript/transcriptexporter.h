// SPDX-License-Identifier: MIT
#pragma once

#include "transcript/redactor.h"
#include "transcript/transcriptevent.h"
#include "transcript/transcriptexport.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace Sonde {

class TranscriptModel;
class TranscriptStore;

// Writes the transcript (or some of its rows) to a file a person can share: JSON Lines in
// the exact shape of `sonde-cli --transcript` (TranscriptEvent::toJson, one object a line),
// or a Markdown report with a section per server. Secrets are removed with `redactor` (the
// patterns plus the values it was told about) unless the caller opts out; the session ids
// that the store's own events name (details "session_id") are masked as well, so an id the
// caller no longer knows (a session that ended, a server removed) cannot slip through.
// `rows` are store rows in the order to write (e.g. a filter proxy's visibleStoreRows());
// std::nullopt means every row, an empty list means none. Files are written atomically
// (QSaveFile). Thread: the store's (GUI). Stateless.
class TranscriptExporter
{
public:
    using Rows = std::optional<QList<int>>;

    static bool writeJsonLines(const TranscriptStore &store, const QString &path,
                               bool redactSecrets, const Redactor &redactor, QString *error,
                               const Rows &rows = std::nullopt);
    static bool writeMarkdown(const TranscriptStore &store, const QString &path, bool redactSecrets,
                              const Redactor &redactor, QString *error,
                              const Rows &rows = std::nullopt);

    // The same documents in memory (for the clipboard, and what the writers write).
    static QByteArray toJsonLines(const TranscriptStore &store, bool redactSecrets,
                                  const Redactor &redactor, const Rows &rows = std::nullopt);
    static QByteArray toMarkdown(const TranscriptStore &store, bool redactSecrets,
                                 const Redactor &redactor, const Rows &rows = std::nullopt);

    // What the export dialog is given when its rows cannot be read from a history file (a
    // catalog of another kind): events in memory, so at most this many.
    static constexpr qint64 MaxDialogRecords = 1'000'000;
    // Every row of a table (a recorded session, a search's hits: read a page at a time);
    // nothing and the reason when it holds more than `limit` rows. Appended to a store of
    // their own, the writers above give them the same lines, report, pairs and masking as
    // the live store's.
    static TranscriptBatch modelEvents(const TranscriptModel &model, qint64 limit, QString *error);
};

} // namespace Sonde
