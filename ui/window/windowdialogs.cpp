// SPDX-License-Identifier: MIT
#include "window/windowdialogs.h"

#include "servers/importdialog.h"
#include "servers/serverdialog.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>

using namespace Qt::StringLiterals;

namespace Sonde {

WindowDialogs::WindowDialogs(QWidget *window) : QObject(window), m_window(window)
{
}

void WindowDialogs::warn(const QString &title, const QString &text)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, m_window);
    box->setObjectName(u"warning"_s);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

ServerDialog *
WindowDialogs::editServer(const ServerConfig *config, const QStringList &roots,
                          std::function<void(const ServerConfig &, const QStringList &)> accepted)
{
    auto *dialog = new ServerDialog(m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (config)
        dialog->setConfig(*config, roots);
    connect(dialog, &QDialog::accepted, this, [dialog, accepted = std::move(accepted)] {
        accepted(dialog->config(), dialog->roots());
    });
    dialog->open();
    return dialog;
}

void WindowDialogs::confirmRemove(const QString &name, std::function<void()> yes)
{
    auto *ask = new QMessageBox(
        QMessageBox::Question, tr("Remove server"),
        tr("Remove the server \"%1\"? Its session is closed and its settings are forgotten.")
            .arg(name),
        QMessageBox::Yes | QMessageBox::No, m_window);
    ask->setObjectName(u"confirmRemove"_s);
    ask->setDefaultButton(QMessageBox::No);
    ask->setAttribute(Qt::WA_DeleteOnClose);
    ask->button(QMessageBox::Yes)->setAccessibleName(tr("Remove %1").arg(name));
    ask->button(QMessageBox::No)->setAccessibleName(tr("Keep %1").arg(name));
    connect(ask, &QMessageBox::finished, this, [yes = std::move(yes)](int answer) {
        if (answer == QMessageBox::Yes)
            yes();
    });
    ask->open();
}

void WindowDialogs::chooseImportFile(std::function<void(const QString &)> chosen)
{
    auto *dialog = new QFileDialog(m_window, tr("Import servers"), QString(),
                                   tr("MCP configurations (*.json);;All files (*)"));
    dialog->setObjectName(u"importFileDialog"_s);
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, std::move(chosen));
    dialog->open();
}

void WindowDialogs::exportTranscript(ExportDialog::Source source, const Redactor &secrets,
                                     const QString &server,
                                     std::function<void(const QString &)> saved)
{
    auto *dialog = new ExportDialog(std::move(source), secrets, server, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ExportDialog::saved, this, std::move(saved));
    dialog->open();
}

void WindowDialogs::askForInputs(const QString &path, const QList<ConfigInput> &inputs,
                                 std::function<void(const QHash<QString, QString> &)> given)
{
    askNext(path, inputs, {}, std::move(given));
}

void WindowDialogs::askNext(const QString &path, QList<ConfigInput> inputs,
                            QHash<QString, QString> given,
                            std::function<void(const QHash<QString, QString> &)> done)
{
    if (inputs.isEmpty()) {
        done(given);
        return;
    }
    const ConfigInput input = inputs.takeFirst();
    auto *dialog = new QInputDialog(m_window);
    dialog->setObjectName(u"importInput"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Import: input needed"));
    const QString file = QFileInfo(path).fileName();
    dialog->setLabelText(
        input.description.isEmpty()
            ? tr("Value for \"%1\" (asked by %2):").arg(input.id, file)
            : tr("%1\n(\"%2\", asked by %3)").arg(input.description, input.id, file));
    dialog->setTextEchoMode(input.password ? QLineEdit::Password : QLineEdit::Normal);
    connect(dialog, &QInputDialog::textValueSelected, this,
            [this, path, inputs, given, done, id = input.id](const QString &value) mutable {
                given.insert(id, value);
                askNext(path, inputs, given, done);
            });
    dialog->open();
}

void WindowDialogs::chooseServers(const QMap<QString, ServerConfig> &servers,
                                  std::function<void(const QList<ServerConfig> &)> chosen)
{
    auto *dialog = new ImportDialog(servers, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this,
            [dialog, chosen = std::move(chosen)] { chosen(dialog->chosen()); });
    dialog->open();
}

} // namespace Sonde
