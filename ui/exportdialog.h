// SPDX-License-Identifier: MIT
#pragma once

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
class QPushButton;

namespace Sonde {

// Exports a transcript to a file: the format (JSON Lines, Markdown report, HAR 1.2,
// OTLP/JSON), which servers, and the opt-ins (secrets, session ids: both off; payloads: on),
// with a text that says what the file will hold for the choices made, updated as they change
// (TranscriptExport::describe). Save writes the file atomically; for OTLP, a collector URL,
// if one is given, gets the same document in one POST (OtlpSender) and its answer is shown:
// a failed send leaves the file as written. Opened with open(); closes itself after a save
// that sends nothing. Thread: GUI.
class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    // What is exported: the records (TranscriptEvent::toJson's shape) and what they are.
    struct Source
    {
        QString title; // "the live transcript", "the events shown in the History tab"
        QList<QJsonObject> records;
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
    // The records the choices take (all servers or the selected one).
    const QList<QJsonObject> &chosenRecords() const { return m_chosen; }
    OtlpSender *sender() const { return m_sender; }

    // Writes the file at `path` and starts the collector's POST when there is one; false with
    // the reason when the file could not be written (nothing is sent then).
    bool save(const QString &path, QString *error);

Q_SIGNALS:
    void saved(const QString &path);
    void sendFinished(const Sonde::OtlpSender::Result &result);

private:
    void update();
    void chooseFile();
    void saveClicked();
    void sendDone(const OtlpSender::Result &result);

    Source m_source;
    Redactor m_secrets;
    QList<QJsonObject> m_chosen;
    QString m_savedPath;
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
    QPushButton *m_save;
    OtlpSender *m_sender;
};

} // namespace Sonde
