// SPDX-License-Identifier: MIT
#pragma once

#include "historyfilter.h"
#include "transcript/exporttally.h"
#include "transcript/redactor.h"
#include "transcript/transcriptevent.h"
#include "transcript/transcriptexport.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

class QThread;

namespace Sonde {

class HistoryStore;

// What an export reads: the events of the live transcript (or records), or what a filter matches
// in a history file (a recorded session, a search's hits, this run), read there a page at a
// time so that a million events are never held.
struct ExportInput
{
    QList<QJsonObject> records; // used when historyPath is empty and there are no events
    TranscriptBatch events;     // the live store's, made records on the job's thread
    QString historyPath;
    HistoryFilter filter;
    bool isHistory() const { return !historyPath.isEmpty(); }
};

// What the input holds, for every server and for each (the dialog's text and its scope).
struct ExportCountAnswer
{
    ExportTally tally;
    QString error; // the history did not open or could not be read; "cancelled"
    bool ok() const { return error.isEmpty(); }
};

// One file to write: the format, the options, the configured values to mask when the options
// redact, the server (all when empty) and where. For a collector, the written file is read
// back on the job's thread too, up to readBackBytes (0: it is not read back).
struct ExportWriteRequest
{
    TranscriptExport::Format format = TranscriptExport::Format::Jsonl;
    TranscriptExport::Options options;
    Redactor secrets;
    QString server;
    QString path;
    qint64 readBackBytes = 0;
};

struct ExportWriteAnswer
{
    QString path;
    QString error;                   // empty when the file was written; "cancelled" after cancel()
    TranscriptExport::Counts counts; // what the file holds
    qint64 bytes = 0;
    QByteArray document;   // the file's bytes, when asked to read it back
    QString readBackError; // why they were not read (the file is written)
    bool ok() const { return error.isEmpty(); }
};

// Runs on the job's thread, over a history connection of its own (a HistoryStore is used on
// the thread that opened it). Internal to TranscriptExportJob; declared here for moc.
class TranscriptExportWorker : public QObject
{
    Q_OBJECT
public:
    TranscriptExportWorker(ExportInput input, std::shared_ptr<const std::atomic<bool>> cancelled);
    ~TranscriptExportWorker() override;

    void count();
    void write(const Sonde::ExportWriteRequest &request);

Q_SIGNALS:
    void counted(const Sonde::ExportCountAnswer &answer);
    void progressed(qint64 recordsRead, qint64 bytesWritten);
    void written(const Sonde::ExportWriteAnswer &answer);

private:
    // The input as an export source, or null with the reason.
    std::unique_ptr<ExportSource> source(QString *error);

    ExportInput m_input;
    std::shared_ptr<const std::atomic<bool>> m_cancelled;
    std::unique_ptr<HistoryStore> m_store;
};

// Counts and writes an export off the GUI thread, so that exporting a million recorded
// events costs the window nothing while it runs (about a minute for JSON Lines, holding a
// page of records: TranscriptExport's streamed writers): progressed() says how far it got,
// cancel() stops it and the file is then left as it was (QSaveFile). One count or write at a
// time; the destructor cancels what runs and waits for it to stop. Thread: GUI.
class TranscriptExportJob : public QObject
{
    Q_OBJECT
public:
    explicit TranscriptExportJob(ExportInput input, QObject *parent = nullptr);
    ~TranscriptExportJob() override;

    void count();
    void write(const ExportWriteRequest &request);
    void cancel();
    bool isBusy() const { return m_busy; }
    const ExportInput &input() const { return m_input; }

Q_SIGNALS:
    void counted(const Sonde::ExportCountAnswer &answer);
    void progressed(qint64 recordsRead, qint64 bytesWritten);
    void written(const Sonde::ExportWriteAnswer &answer);

private:
    void start();

    ExportInput m_input;
    std::shared_ptr<std::atomic<bool>> m_cancelled = std::make_shared<std::atomic<bool>>(false);
    QThread *m_thread = nullptr;
    TranscriptExportWorker *m_worker = nullptr;
    bool m_busy = false;
};

} // namespace Sonde

Q_DECLARE_METATYPE(Sonde::ExportCountAnswer)
Q_DECLARE_METATYPE(Sonde::ExportWriteRequest)
Q_DECLARE_METATYPE(Sonde::ExportWriteAnswer)
