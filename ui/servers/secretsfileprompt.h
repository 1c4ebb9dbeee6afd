// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QWidget;

namespace Sonde {

class SecretStore;

// The window's two questions about the encrypted secrets file, each a SecretsFileDialog
// opened with open(), never exec(): the passphrase of the file the settings name, once at
// start (unlock), and where to keep secrets from now on when none would outlive the run
// (choose, from the server dialog). Each tries the file (SecretsFileOpener) before it
// closes: a wrong passphrase is said in the dialog, which stays up for another try.
// Thread: GUI; owned by the window.
class SecretsFilePrompt : public QObject
{
    Q_OBJECT
public:
    explicit SecretsFilePrompt(QWidget *window);

    // `done` once: the opened store and its passphrase, or a null store for "Not now".
    using Unlocked = std::function<void(std::unique_ptr<SecretStore> store, QByteArray passphrase)>;
    void unlock(const QString &path, Unlocked done);
    // `done` only when a file was opened or created; nothing on Cancel.
    using Chosen = std::function<void(std::unique_ptr<SecretStore> store, const QString &path)>;
    void choose(const QString &suggestedPath, Chosen done);
    // The key derivation's cost for a new file (tests make it cheap); 0: the store's default.
    void setIterations(int iterations) { m_iterations = iterations; }

private:
    QWidget *m_window;
    int m_iterations = 0;
};

} // namespace Sonde
