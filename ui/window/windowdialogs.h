// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "transcript/exportdialog.h"

#include <QHash>
#include <QMap>
#include <QObject>

#include <functional>

class QWidget;

namespace Sonde {

class ServerDialog;

// The window's dialogs, each opened with open() and never exec(), so the engine's answers
// keep flowing while one is up; what the user chose comes back through the callback (not
// called when the dialog is cancelled). Tests find them by object name and click their
// buttons. Thread: GUI; owned by the window, the dialogs are its children.
class WindowDialogs : public QObject
{
    Q_OBJECT
public:
    explicit WindowDialogs(QWidget *window);

    void warn(const QString &title, const QString &text);
    // Add (config null) or edit a server ("serverDialog"); the dialog, open, for the caller
    // to tell where secrets are kept and to hear its request for an encrypted file.
    ServerDialog *
    editServer(const ServerConfig *config, const QStringList &roots,
               std::function<void(const ServerConfig &, const QStringList &)> accepted);
    // "Remove the server "NAME"?", Yes/No, No by default ("confirmRemove").
    void confirmRemove(const QString &name, std::function<void()> yes);
    void chooseImportFile(std::function<void(const QString &path)> chosen);
    // The export dialog ("exportDialog") over `source`; `saved` gets each file written.
    void exportTranscript(ExportDialog::Source source, const Redactor &secrets,
                          const QString &server, std::function<void(const QString &path)> saved);
    // The ${input:...} values a configuration asks for, one dialog after the other
    // ("importInput"; a password input hides what is typed): id → value, once all are given.
    void askForInputs(const QString &path, const QList<ConfigInput> &inputs,
                      std::function<void(const QHash<QString, QString> &)> given);
    // Which of an imported file's servers to add ("importDialog").
    void chooseServers(const QMap<QString, ServerConfig> &servers,
                       std::function<void(const QList<ServerConfig> &)> chosen);

private:
    void askNext(const QString &path, QList<ConfigInput> inputs, QHash<QString, QString> given,
                 std::function<void(const QHash<QString, QString> &)> done);

    QWidget *m_window;
};

} // namespace Sonde
