// SPDX-License-Identifier: MIT
#include "exportdialog.h"

#include "formlabels.h"
#include "transcriptexporter.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
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
    : QDialog(parent), m_source(std::move(source)), m_secrets(secrets)
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
    m_scope->addItem(tr("All servers"), QString());
    const bool hasSelected =
        !selectedServer.isEmpty() &&
        std::any_of(m_source.records.cbegin(), m_source.records.cend(), [&](const QJsonObject &r) {
            return r.value("server"_L1).toString() == selectedServer;
        });
    if (hasSelected)
        m_scope->addItem(tr("Only %1").arg(selectedServer), selectedServer);
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

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Close, this);
    m_save = buttons->button(QDialogButtonBox::Save);
    m_save->setObjectName(u"exportSave"_s);
    m_save->setAccessibleName(tr("Save the export"));
    connect(m_save, &QPushButton::clicked, this, &ExportDialog::saveClicked);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    auto *what = new QLabel(tr("From %1").arg(m_source.title), this);
    what->setObjectName(u"exportSource"_s);
    layout->addWidget(what);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("The file will hold:"), this));
    layout->addWidget(m_summary);
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
    update();
    resize(620, sizeHint().height());
}

TranscriptExport::Format ExportDialog::format() const
{
    return Format(m_format->currentData().toInt());
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

void ExportDialog::update()
{
    const QString server = m_scope->currentData().toString();
    m_chosen.clear();
    for (const QJsonObject &r : std::as_const(m_source.records))
        if (server.isEmpty() || r.value("server"_L1).toString() == server)
            m_chosen.append(r);
    const bool otlp = format() == Format::Otlp;
    m_collector->setVisible(otlp);
    m_collectorLabel->setVisible(otlp);
    m_secretsWarning->setVisible(m_showSecrets->isChecked());
    if (!m_source.error.isEmpty()) {
        m_summary->setPlainText(tr("Nothing can be exported: %1").arg(m_source.error));
        m_save->setEnabled(false);
        return;
    }
    QString text = tr("%1: %2").arg(tr(choiceOf(format()).label),
                                    TranscriptExport::describe(format(), m_chosen, options()));
    if (const QString url = options().collectorUrl; !url.isEmpty()) {
        if (const QString why = OtlpSender::checkUrl(QUrl(url, QUrl::StrictMode)); !why.isEmpty())
            text += u'\n' + tr("Not sent: %1 (the file is written).").arg(why);
    }
    if (server.isEmpty() && m_scope->count() > 1)
        text += u'\n' + tr("Every server's events.");
    else if (!server.isEmpty())
        text += u'\n' + tr("Only %1's events.").arg(server);
    m_summary->setPlainText(text);
    m_save->setEnabled(!m_sender->isBusy());
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
    if (!m_source.error.isEmpty()) {
        *error = m_source.error;
        return false;
    }
    const TranscriptExport::Options o = options();
    const QByteArray document = TranscriptExporter::document(format(), m_chosen, o, m_secrets);
    if (!TranscriptExporter::write(path, document, error))
        return false;
    m_savedPath = path;
    Q_EMIT saved(path);
    if (!o.collectorUrl.isEmpty()) {
        m_save->setEnabled(false);
        m_status->setText(tr("Written to %1. Sending to %2…").arg(path, o.collectorUrl));
        m_sender->send(QUrl(o.collectorUrl, QUrl::StrictMode), document);
    } else {
        m_status->setText(tr("Written to %1.").arg(path));
    }
    return true;
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
    if (options().collectorUrl.isEmpty())
        accept();
}

void ExportDialog::sendDone(const OtlpSender::Result &result)
{
    m_status->setText(tr("Written to %1; %2.").arg(m_savedPath, result.describe()));
    m_save->setEnabled(true);
    Q_EMIT sendFinished(result);
}

} // namespace Sonde
