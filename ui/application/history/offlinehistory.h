// SPDX-License-Identifier: MIT
#pragma once

#include "historyimporter.h"
#include "transcriptfilereader.h"

#include <QObject>
#include <QString>

#include <memory>

class QTemporaryDir;
class QThread;

namespace Sonde {

class HistoryCatalog;
class StoreHistoryCatalog;

// A transcript file opened offline (Sonde's JSONL or the MCP Inspector's export): read on a
// thread of its own into a history of its own, a SQLite file in a temporary folder that goes
// with this object, then read like the workspace's through a StoreHistoryCatalog. Nothing is
// connected, nothing is sent, and the workspace's history is never opened. Secrets are
// redacted before the temporary file, as for the workspace. Thread: GUI; the reader thread
// touches only its own store and the file. Emits finished() once, with the outcome.
class OfflineHistory : public QObject
{
    Q_OBJECT
public:
    explicit OfflineHistory(QObject *parent = nullptr);
    ~OfflineHistory() override; // cancels a read under way and waits for its thread

    // Starts reading `path`; false with the reason when it cannot start (unreadable, of no
    // format Sonde reads), before anything was written.
    bool start(const QString &path, QString *error);
    // Stops the read between lines or batches; finished(false, ...) follows.
    void cancel();
    bool isReading() const { return m_thread != nullptr; }

    QString path() const { return m_path; }
    QString name() const; // the file's name, as the History tab lists it
    TranscriptFileReader::Format format() const { return m_format; }
    qint64 fileSize() const { return m_size; }
    qint64 bytesRead() const; // while reading, for a progress bar
    const HistoryImporter::Result &result() const;
    // Null until the read finished well.
    HistoryCatalog *catalog() const;
    // The temporary SQLite file it reads into (deleted with this object, its folder too);
    // empty before start().
    QString databasePath() const;

Q_SIGNALS:
    // ok: the catalog is ready; `message` says what was read (and skipped), or why not.
    void finished(bool ok, const QString &message);

public:
    // What the reader thread shares with this object (defined in the .cpp).
    struct Shared;

private:
    void onThreadFinished();

    std::shared_ptr<Shared> m_shared;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<StoreHistoryCatalog> m_catalog;
    QThread *m_thread = nullptr;
    QString m_path;
    TranscriptFileReader::Format m_format = TranscriptFileReader::Format::SondeJsonl;
    qint64 m_size = 0;
};

} // namespace Sonde
