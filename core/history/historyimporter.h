// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QString>

#include <functional>

class QIODevice;

namespace Sonde {

class HistoryStore;

// Reads a JSON Lines transcript into a HistoryStore: every shape Sonde has written (the
// `{"t","t_ms","server","gen","dir", "msg"|"line"|"raw"|"event"...}` records since the first
// release, with or without the versioned header line of docs/transcript-format.md). A line
// that is not such a record is counted with its number and skipped; it never ends the import.
class HistoryImporter
{
public:
    static constexpr qint64 MaxLineBytes = qint64(16) * 1024 * 1024;
    static constexpr int BatchSize = 2000;

    struct Result
    {
        qint64 imported = 0;
        qint64 skipped = 0;
        QList<qint64> skippedLines; // the first 100 of them
        QStringList reasons;        // the same, in words
        QString error;              // set when the import stopped (the store refused a batch)
    };

    // `cancelled`, when given, is asked before each batch is written: true ends the import
    // there, keeping the batches written before it (each is a transaction of its own).
    static Result import(QIODevice &in, HistoryStore &store,
                         const std::function<bool()> &cancelled = {});
};

} // namespace Sonde
