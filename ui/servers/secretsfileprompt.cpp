// SPDX-License-Identifier: MIT
#include "servers/secretsfileprompt.h"

#include "secrets/secretstore.h"
#include "secretstorage.h"
#include "servers/secretsfiledialog.h"

#include <QPointer>

using namespace Qt::StringLiterals;

namespace Sonde {

SecretsFilePrompt::SecretsFilePrompt(QWidget *window) : QObject(window), m_window(window)
{
}

void SecretsFilePrompt::unlock(const QString &path, Unlocked done)
{
    auto *dialog = new SecretsFileDialog(SecretsFileDialog::Mode::Unlock, path, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto answer = std::make_shared<Unlocked>(std::move(done));
    connect(dialog, &SecretsFileDialog::passphraseEntered, this,
            [this, dialog, answer](const QString &file, const QByteArray &passphrase) {
                QPointer<SecretsFileDialog> guard(dialog);
                SecretsFileOpener::open(
                    file, passphrase, dialog,
                    [guard, answer, passphrase](std::unique_ptr<SecretStore> store,
                                                const QString &error) {
                        if (!store) {
                            guard->refuse(error);
                            return;
                        }
                        if (auto answered = std::exchange(*answer, nullptr))
                            answered(std::move(store), passphrase);
                        guard->succeed();
                    },
                    m_iterations);
            });
    connect(dialog, &QDialog::rejected, this, [answer] {
        if (auto answered = std::exchange(*answer, nullptr))
            answered(nullptr, {});
    });
    dialog->open();
}

void SecretsFilePrompt::choose(const QString &suggestedPath, Chosen done)
{
    auto *dialog = new SecretsFileDialog(SecretsFileDialog::Mode::Choose, suggestedPath, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(
        dialog, &SecretsFileDialog::passphraseEntered, this,
        [this, dialog, done = std::move(done)](const QString &file, const QByteArray &passphrase) {
            QPointer<SecretsFileDialog> guard(dialog);
            SecretsFileOpener::open(
                file, passphrase, dialog,
                [guard, done, file](std::unique_ptr<SecretStore> store, const QString &error) {
                    if (!store) {
                        guard->refuse(error);
                        return;
                    }
                    done(std::move(store), file);
                    guard->succeed();
                },
                m_iterations);
        });
    dialog->open();
}

} // namespace Sonde
