// SPDX-License-Identifier: MIT
#pragma once

#include "application/transcript/transcriptexportjob.h"
#include "transcript/redactor.h"
#include "transcript/transcriptexport.h"
#include "transport/otlpsender.h"

#include <QDialog>
#include <QJsonObject>
#include <QList>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace Sonde {

// Exports a transcript to a file: the format (JSON Lines, Markdown report, HAR 1.2,
// OTLP/JSON), which servers, and the opt-ins (secrets, session ids: both off; payloads: on),
// with a text that says what the file will hold for the choices made, updated as they change
// (TranscriptExport::describe). The records are counted, then written, off the GUI thread
// (TranscriptExportJob), read a page at a time from a history: a million events cost the
// window nothing, a bar shows how far the writing got and Stop leaves the file as it was.
// For OTLP, a collector URL, if one is given, gets the written document in one POST
// (OtlpSender) and its answer is shown: a failed send leaves the file as written. Opened
// with open(); closes itself after a save that sends nothing. Thread: GUI.
class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    // What is exported: the records (a list, or a history file and a filter) and what they are.
    struct Source
    {
        QString title; // "the live transcript", "the events shown in the History tab"
        ExportInput input;
        QString error; // why they could not be read: shown, and Save is off
    };

    // `secrets`: the configured values to mask unless the user opts in (session ids are found
    // in the records). `selectedServer`: offered as "only this server" when it has events.
    ExportDialog(Source source, const Redactor &secrets, const QString &selectedServer,
                 QWidget *parent = nullptr);

    // What the file will hold, as the text area shows it.
    QString description() const;
    TranscriptExport::Options options() const;
    TranscriptExport::Format format() const;
    // The choices a caller starts the dialog with (the Transcript tab's buttons).
    void choose(TranscriptExport::Format format, bool showSecrets);
    OtlpSender *sender() const { return m_sender; }
    TranscriptExportJob *job() const { return m_job; }
    // The records have been counted (or could not be): the text says what the file holds.
    bool isCounted() const { return m_counted; }
    bool isWriting() const { return m_writing; }
    // The largest document sent to a collector (OtlpSender::DefaultMaxDocumentBytes); one
    // over it is written and not sent, and the status names the limit.
    void setMaxSendBytes(qint64 bytes) { m_maxSendBytes = bytes; }

    // Starts writing the file at `path` (saved() or failed() says how it ended), then the
    // collector's POST when there is one; false with the reason when it cannot start (still
    // counting, already writing, nothing to export).
    bool save(const QString &path, QString *error);
    // Stops the writing under way: failed() then says "cancelled" and the file is as it was.
    void stop();
    // Closing while writing stops the writing too.
    void reject() override;

Q_SIGNALS:
    void counted();
    void saved(const QString &path);
    void failed(const QString &path, const QString &error);
    void sendFinished(const Sonde::OtlpSender::Result &result);

private:
    void update();
    void chooseFile();
    void saveClicked();
    void countDone(const ExportCountAnswer &answer);
    void writeProgressed(qint64 recordsRead, qint64 bytesWritten);
    void writeDone(const ExportWriteAnswer &answer);
    void sendDone(const OtlpSender::Result &result);
    void setWriting(bool writing);

    QString m_title;
    QString m_error;
    QString m_selectedServer;
    Redactor m_secrets;
    TranscriptExportJob *m_job;
    ExportTally m_tally;
    bool m_counted = false;
    bool m_writing = false;
    bool m_closeWhenWritten = false;
    qint64 m_maxSendBytes = OtlpSender::DefaultMaxDocumentBytes;
    qint64 m_writingCounted = 0; // the events counted for what is being written
    QString m_savedPath;
    QString m_savedNote; // what the saved file lacks of what was counted, if anything
    QString m_writingPath;
    QComboBox *m_format;
    QComboBox *m_scope;
    QCheckBox *m_showSecrets;
    QLabel *m_secretsWarning;
    QCheckBox *m_showSessionIds;
    QCheckBox *m_payloads;
    QLabel *m_collectorLabel;
    QLineEdit *m_collector;
    QLineEdit *m_path;
    QPlainTextEdit *m_summary;
    QLabel *m_status;
    QProgressBar *m_progress;
    QPushButton *m_save;
    QPushButton *m_stop;
    OtlpSender *m_sender;
};

} // namespace Sonde
