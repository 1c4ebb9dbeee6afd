// SPDX-License-Identifier: MIT
#include "transcript/exportdialog.h"

#include "window/formlabels.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

namespace {

using Format = TranscriptExport::Format;

struct FormatChoice
{
    Format format;
    const char *label;
    const char *suffix;
    const char *filter;
};

const FormatChoice Formats[] = {
    {Format::Jsonl, QT_TRANSLATE_NOOP("Sonde::ExportDialog", "JSON Lines"), "jsonl",
     QT_TRANSLATE_NOOP("Sonde::ExportDialog", "JSON Lines (*.jsonl)")},
    {Format::Markdown, QT_TRANSLATE_NOOP("Sonde::ExportDialog", "Markdown report"), "md",
     QT_TRANSLATE_NOOP("Sonde::ExportDialog", "Markdown (*.md)")},
    {Format::Har, QT_TRANSLATE_NOOP("Sonde::ExportDialog", "HAR 1.2"), "har",
     QT_TRANSLATE_NOOP("Sonde::ExportDialog", "HAR (*.har)")},
    {Format::Otlp, QT_TRANSLATE_NOOP("Sonde::ExportDialog", "OTLP/JSON"), "json",
     QT_TRANSLATE_NOOP("Sonde::ExportDialog", "OTLP/JSON (*.json)")},
};

const FormatChoice &choiceOf(Format f)
{
    return Formats[int(f)];
}

} // namespace

ExportDialog::ExportDialog(Source source, const Redactor &secrets, const QString &selectedServer,
                           QWidget *parent)
    : QDialog(parent), m_title(source.title), m_error(source.error),
      m_selectedServer(selectedServer), m_secrets(secrets),
      m_job(new TranscriptExportJob(std::move(source.input), this))
{
    setWindowTitle(tr("Export"));
    setObjectName(u"exportDialog"_s);
    auto *form = new QFormLayout;

    m_format = new QComboBox(this);
    m_format->setObjectName(u"exportFormat"_s);
    for (const FormatChoice &c : Formats)
        m_format->addItem(tr(c.label), int(c.format));
    m_format->setToolTip(tr("JSON Lines holds every event; HAR only the HTTP exchanges; OTLP one "
                            "span per request"));
    form->addRow(tr("Format"), m_format);

    m_scope = new QComboBox(this);
    m_scope->setObjectName(u"exportScope"_s);
    m_scope->addItem(tr("All servers"), QString()); // "Only <selected>" once counted
    form->addRow(tr("Servers"), m_scope);

    m_showSecrets = new QCheckBox(tr("Show secrets (tokens, keys, configured env and header "
                                     "values)"),
                                  this);
    m_showSecrets->setObjectName(u"exportShowSecrets"_s);
    m_secretsWarning =
        new QLabel(tr("⚠ The file will hold secrets in clear: do not share it."), this);
    m_secretsWarning->setObjectName(u"exportSecretsWarning"_s);
    m_secretsWarning->setStyleSheet(u"color: #b3261e; font-weight: bold"_s);
    m_secretsWarning->setVisible(false);
    m_showSessionIds = new QCheckBox(tr("Show MCP session ids"), this);
    m_showSessionIds->setObjectName(u"exportShowSessionIds"_s);
    m_payloads = new QCheckBox(tr("Include payloads (params, results, bodies)"), this);
    m_payloads->setObjectName(u"exportPayloads"_s);
    m_payloads->setChecked(true);
    auto *optIns = new QVBoxLayout;
    optIns->addWidget(m_showSecrets);
    optIns->addWidget(m_secretsWarning);
    optIns->addWidget(m_showSessionIds);
    optIns->addWidget(m_payloads);
    form->addRow(tr("Include"), optIns);

    m_collector = new QLineEdit(this);
    m_collector->setObjectName(u"exportCollector"_s);
    m_collector->setPlaceholderText(u"http://localhost:4318/v1/traces"_s);
    m_collector->setToolTip(tr("Optional: also POST the spans, once, to this OTLP/HTTP collector"));
    m_collectorLabel = new QLabel(tr("Send to collector"), this);
    form->addRow(m_collectorLabel, m_collector);

    m_path = new QLineEdit(this);
    m_path->setObjectName(u"exportPath"_s);
    m_path->setText(QDir::home().filePath(u"transcript.jsonl"_s));
    auto *browse = new QPushButton(tr("Browse…"), this);
    browse->setAccessibleName(tr("Choose the file"));
    auto *file = new QHBoxLayout;
    file->addWidget(m_path, 1);
    file->addWidget(browse);
    form->addRow(tr("File"), file);
    FormLabels::nameFields(form);
    m_path->setAccessibleName(tr("File"));

    m_summary = new QPlainTextEdit(this);
    m_summary->setObjectName(u"exportSummary"_s);
    m_summary->setAccessibleName(tr("What the export will include"));
    m_summary->setReadOnly(true);
    m_summary->setMaximumHeight(fontMetrics().height() * 6);
    m_status = new QLabel(this);
    m_status->setObjectName(u"exportStatus"_s);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(u"exportProgress"_s);
    m_progress->setAccessibleName(tr("Export progress"));
    m_progress->setRange(0, 0); // how many passes a format makes is its own business
    m_progress->setTextVisible(false);
    m_progress->setVisible(false);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Close, this);
    m_save = buttons->button(QDialogButtonBox::Save);
    m_save->setObjectName(u"exportSave"_s);
    m_save->setAccessibleName(tr("Save the export"));
    m_stop = buttons->addButton(tr("Stop"), QDialogButtonBox::ActionRole);
    m_stop->setObjectName(u"exportStop"_s);
    m_stop->setAccessibleName(tr("Stop the export"));
    m_stop->setToolTip(tr("Stop writing: the file is left as it was"));
    m_stop->setVisible(false);
    connect(m_save, &QPushButton::clicked, this, &ExportDialog::saveClicked);
    connect(m_stop, &QPushButton::clicked, this, &ExportDialog::stop);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    auto *what = new QLabel(tr("From %1").arg(m_title), this);
    what->setObjectName(u"exportSource"_s);
    layout->addWidget(what);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("The file will hold:"), this));
    layout->addWidget(m_summary);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(buttons);

    m_sender = new OtlpSender(this);
    connect(m_sender, &OtlpSender::finished, this, &ExportDialog::sendDone);
    connect(browse, &QPushButton::clicked, this, &ExportDialog::chooseFile);
    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        // The file's suffix follows the format, unless the user named another one.
        const QFileInfo info(m_path->text());
        for (const FormatChoice &c : Formats)
            if (info.suffix() == QLatin1StringView(c.suffix)) {
                m_path->setText(info.dir().filePath(info.completeBaseName() + u'.' +
                                                    QLatin1StringView(choiceOf(format()).suffix)));
                break;
            }
        update();
    });
    for (QCheckBox *box : {m_showSecrets, m_showSessionIds, m_payloads})
        connect(box, &QCheckBox::toggled, this, &ExportDialog::update);
    connect(m_scope, &QComboBox::currentIndexChanged, this, &ExportDialog::update);
    connect(m_collector, &QLineEdit::textChanged, this, &ExportDialog::update);
    connect(m_job, &TranscriptExportJob::counted, this, &ExportDialog::countDone);
    connect(m_job, &TranscriptExportJob::progressed, this, &ExportDialog::writeProgressed);
    connect(m_job, &TranscriptExportJob::written, this, &ExportDialog::writeDone);
    if (m_error.isEmpty())
        m_job->count();
    else
        m_counted = true;
    update();
    resize(620, sizeHint().height());
}

TranscriptExport::Format ExportDialog::format() const
{
    return Format(m_format->currentData().toInt());
}

void ExportDialog::choose(TranscriptExport::Format f, bool showSecrets)
{
    m_format->setCurrentIndex(m_format->findData(int(f)));
    m_showSecrets->setChecked(showSecrets);
}

TranscriptExport::Options ExportDialog::options() const
{
    TranscriptExport::Options o;
    o.redact = !m_showSecrets->isChecked();
    o.includeSessionIds = m_showSessionIds->isChecked();
    o.includePayloads = m_payloads->isChecked();
    if (format() == Format::Otlp)
        o.collectorUrl = m_collector->text().trimmed();
    return o;
}

QString ExportDialog::description() const
{
    return m_summary->toPlainText();
}

void ExportDialog::countDone(const ExportCountAnswer &answer)
{
    m_counted = true;
    if (!answer.ok())
        m_error = answer.error;
    m_tally = answer.tally;
    if (!m_selectedServer.isEmpty() && m_tally.of(m_selectedServer).events > 0)
        m_scope->addItem(tr("Only %1").arg(m_selectedServer), m_selectedServer);
    update();
    Q_EMIT counted();
}

void ExportDialog::update()
{
    const QString server = m_scope->currentData().toString();
    const bool otlp = format() == Format::Otlp;
    m_collector->setVisible(otlp);
    m_collectorLabel->setVisible(otlp);
    m_secretsWarning->setVisible(m_showSecrets->isChecked());
    if (!m_error.isEmpty()) {
        m_summary->setPlainText(tr("Nothing can be exported: %1").arg(m_error));
        m_save->setEnabled(false);
        return;
    }
    if (!m_counted) {
        m_summary->setPlainText(tr("Counting the events…"));
        m_save->setEnabled(false);
        return;
    }
    const TranscriptExport::Counts counts = server.isEmpty() ? m_tally.all() : m_tally.of(server);
    QString text = tr("%1: %2").arg(tr(choiceOf(format()).label),
                                    TranscriptExport::describe(format(), counts, options()));
    if (const QString url = options().collectorUrl; !url.isEmpty()) {
        if (const QString why = OtlpSender::checkUrl(QUrl(url, QUrl::StrictMode)); !why.isEmpty())
            text += u'\n' + tr("Not sent: %1 (the file is written).").arg(why);
    }
    if (server.isEmpty() && m_scope->count() > 1)
        text += u'\n' + tr("Every server's events.");
    else if (!server.isEmpty())
        text += u'\n' + tr("Only %1's events.").arg(server);
    m_summary->setPlainText(text);
    m_save->setEnabled(!m_writing && !m_sender->isBusy());
}

void ExportDialog::chooseFile()
{
    auto *dialog =
        new QFileDialog(this, tr("Export to"), m_path->text(), tr(choiceOf(format()).filter));
    dialog->setObjectName(u"exportFileDialog"_s);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, m_path, &QLineEdit::setText);
    dialog->open();
}

bool ExportDialog::save(const QString &path, QString *error)
{
    if (!m_error.isEmpty()) {
        *error = m_error;
        return false;
    }
    if (!m_counted || m_writing || m_sender->isBusy()) {
        *error = !m_counted ? tr("the events are still being counted")
                            : tr("an export is already under way");
        return false;
    }
    ExportWriteRequest request;
    request.format = format();
    request.options = options();
    request.secrets = m_secrets;
    request.server = m_scope->currentData().toString();
    request.path = path;
    // Read back on the job's thread: a large document costs the window nothing.
    if (request.format == Format::Otlp && !request.options.collectorUrl.isEmpty())
        request.readBackBytes = m_maxSendBytes;
    m_writingCounted =
        (request.server.isEmpty() ? m_tally.all() : m_tally.of(request.server)).events;
    m_writingPath = path;
    setWriting(true);
    m_status->setText(tr("Writing %1…").arg(path));
    m_job->write(request);
    return true;
}

void ExportDialog::stop()
{
    if (m_writing)
        m_job->cancel();
}

void ExportDialog::setWriting(bool writing)
{
    m_writing = writing;
    m_progress->setVisible(writing);
    m_stop->setVisible(writing);
    for (QWidget *w : std::initializer_list<QWidget *>{
             m_format, m_scope, m_showSecrets, m_showSessionIds, m_payloads, m_collector, m_path})
        w->setEnabled(!writing);
    update();
}

void ExportDialog::writeProgressed(qint64 recordsRead, qint64 bytesWritten)
{
    // Formats read the records two or three times: the figure is reads, not events.
    m_status->setText(tr("Writing %1… %2 records read, %3 written")
                          .arg(m_writingPath, QLocale().toString(recordsRead),
                               QLocale().formattedDataSize(bytesWritten)));
}

void ExportDialog::writeDone(const ExportWriteAnswer &answer)
{
    setWriting(false);
    const bool close = std::exchange(m_closeWhenWritten, false);
    if (!answer.ok()) {
        m_status->setText(answer.error == "cancelled"_L1
                              ? tr("Stopped: %1 is left as it was.").arg(answer.path)
                              : tr("Not written to %1: %2").arg(answer.path, answer.error));
        Q_EMIT failed(answer.path, answer.error);
        return;
    }
    m_savedPath = answer.path;
    // The rows were pinned at the count; only a deletion (the history's retention, or Clear
    // in another window) can have made fewer of them since: said, not hidden.
    m_savedNote.clear();
    if (const qint64 fewer = m_writingCounted - answer.counts.events; fewer > 0)
        m_savedNote =
            u' ' + tr("%1 of the %2 events counted were deleted from the history before "
                      "the writing (its retention, or Clear).")
                       .arg(QLocale().toString(fewer), QLocale().toString(m_writingCounted));
    Q_EMIT saved(answer.path);
    const QString url = options().collectorUrl;
    if (url.isEmpty()) {
        m_status->setText(
            tr("Written to %1 (%2).").arg(answer.path, QLocale().formattedDataSize(answer.bytes)) +
            m_savedNote);
        if (close && m_savedNote.isEmpty())
            accept();
        return;
    }
    // The collector takes the document whole, in one POST: the job read it back.
    if (!answer.readBackError.isEmpty()) {
        m_status->setText(tr("Written to %1; not sent: %2").arg(answer.path, answer.readBackError) +
                          m_savedNote);
        return;
    }
    m_save->setEnabled(false);
    m_status->setText(tr("Written to %1. Sending to %2…").arg(answer.path, url) + m_savedNote);
    m_sender->send(QUrl(url, QUrl::StrictMode), answer.document);
}

void ExportDialog::saveClicked()
{
    const QString path = m_path->text().trimmed();
    if (path.isEmpty()) {
        m_status->setText(tr("Choose a file to write first."));
        return;
    }
    QString error;
    if (!save(path, &error)) {
        m_status->setText(tr("Not written to %1: %2").arg(path, error));
        return;
    }
    m_closeWhenWritten = true;
}

void ExportDialog::reject()
{
    // Closing while writing stops the writing (the job waits for it to end, a few ms).
    stop();
    QDialog::reject();
}

void ExportDialog::sendDone(const OtlpSender::Result &result)
{
    m_status->setText(tr("Written to %1; %2.").arg(m_savedPath, result.describe()) + m_savedNote);
    m_save->setEnabled(true);
    Q_EMIT sendFinished(result);
}

} // namespace Sonde
