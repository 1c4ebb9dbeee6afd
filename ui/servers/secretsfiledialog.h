// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;

namespace Sonde {

// Asks for the encrypted secrets file and its passphrase: to open the file the settings name
// at start (Unlock: the path is fixed, "Not now" keeps secrets for this session), or to keep
// secrets in a file from now on (Choose: a path, and for a new file the passphrase twice).
// OK emits passphraseEntered() and leaves the dialog open: the owner tries the file
// (SecretsFileOpener) and calls succeed() or refuse(why). Opened with open(). Thread: GUI.
class SecretsFileDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Mode
    {
        Unlock,
        Choose
    };
    SecretsFileDialog(Mode mode, const QString &path, QWidget *parent = nullptr);

    void succeed();
    void refuse(const QString &why);
    QString path() const;

    void accept() override;

Q_SIGNALS:
    void passphraseEntered(const QString &path, const QByteArray &passphrase);

private:
    bool creating() const;
    void updateFields();

    Mode m_mode;
    QLineEdit *m_path = nullptr;
    QLineEdit *m_passphrase = nullptr;
    QLineEdit *m_confirmation = nullptr;
    QLabel *m_problem = nullptr;
    QLabel *m_what = nullptr;
};

} // namespace Sonde
