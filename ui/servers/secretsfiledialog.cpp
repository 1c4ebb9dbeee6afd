// SPDX-License-Identifier: MIT
#include "servers/secretsfiledialog.h"

#include "secretstorage.h"
#include "window/formlabels.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Sonde {

SecretsFileDialog::SecretsFileDialog(Mode mode, const QString &path, QWidget *parent)
    : QDialog(parent), m_mode(mode)
{
    setObjectName(u"secretsFileDialog"_s);
    setMinimumWidth(480);
    setWindowTitle(mode == Mode::Unlock ? tr("Open the secrets file")
                                        : tr("Keep secrets in an encrypted file"));
    m_what = new QLabel(this);
    m_what->setObjectName(u"secretsFileWhat"_s);
    m_what->setWordWrap(true);
    m_path = new QLineEdit(QDir::toNativeSeparators(path), this);
    m_path->setObjectName(u"secretsFilePath"_s);
    m_path->setReadOnly(mode == Mode::Unlock);
    m_passphrase = new QLineEdit(this);
    m_passphrase->setObjectName(u"secretsFilePassphrase"_s);
    m_passphrase->setEchoMode(QLineEdit::Password);
    m_confirmation = new QLineEdit(this);
    m_confirmation->setObjectName(u"secretsFileConfirmation"_s);
    m_confirmation->setEchoMode(QLineEdit::Password);
    m_problem = new QLabel(this);
    m_problem->setObjectName(u"secretsFileProblem"_s);
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(u"color: #b00020"_s);
    m_problem->hide();
    auto *form = new QFormLayout;
    form->addRow(tr("File"), m_path);
    form->addRow(tr("Passphrase"), m_passphrase);
    form->addRow(tr("Again"), m_confirmation);
    FormLabels::nameFields(form);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)
        ->setText(mode == Mode::Unlock ? tr("Open") : tr("Keep secrets in this file"));
    buttons->button(QDialogButtonBox::Cancel)
        ->setText(mode == Mode::Unlock ? tr("Not now: this session only") : tr("Cancel"));
    connect(buttons, &QDialogButtonBox::accepted, this, &SecretsFileDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_what);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    connect(m_path, &QLineEdit::textChanged, this, &SecretsFileDialog::updateFields);
    updateFields();
    m_passphrase->setFocus();
}

bool SecretsFileDialog::creating() const
{
    return !QFileInfo::exists(path());
}

QString SecretsFileDialog::path() const
{
    return QDir::fromNativeSeparators(m_path->text().trimmed());
}

void SecretsFileDialog::updateFields()
{
    auto *form = qobject_cast<QFormLayout *>(layout()->itemAt(1)->layout());
    form->setRowVisible(m_confirmation, creating());
    if (m_mode == Mode::Unlock)
        m_what->setText(tr("Sonde keeps its secrets (secret headers, environment values, "
                           "tokens) in this encrypted file. Its passphrase is asked once per "
                           "run."));
    else if (creating())
        m_what->setText(tr("Secrets kept for this session only are forgotten when Sonde "
                           "quits. A new encrypted file keeps them; its passphrase is asked "
                           "once per run from the next start, and nothing else protects it."));
    else
        m_what->setText(tr("This file exists: it is opened with its passphrase, and the "
                           "secrets of this session are added to it."));
    FormLabels::fitHeight(this);
}

void SecretsFileDialog::accept()
{
    const QString problem = SecretsFileOpener::problem(path(), m_passphrase->text().toUtf8(),
                                                       m_confirmation->text().toUtf8(), creating());
    if (!problem.isEmpty()) {
        refuse(problem);
        return;
    }
    m_problem->hide();
    Q_EMIT passphraseEntered(path(), m_passphrase->text().toUtf8());
}

void SecretsFileDialog::succeed()
{
    m_passphrase->clear();
    m_confirmation->clear();
    QDialog::accept();
}

void SecretsFileDialog::refuse(const QString &why)
{
    m_problem->setText(why);
    m_problem->show();
    FormLabels::fitHeight(this);
    m_passphrase->selectAll();
    m_passphrase->setFocus();
}

} // namespace Sonde
