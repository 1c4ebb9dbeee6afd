// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "secretstorage.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QPlainTextEdit;
class QSpinBox;
class QDoubleSpinBox;

namespace Sonde {

class NameValueEditor;

// Adds or edits one server: stdio (program, arguments, environment, working directory) or
// HTTP (URL, headers), its protocol era, with its timeouts, breaker policy, keepalive and
// roots, and whether the history records its payloads. What it does not show of an edited server
// (per-tool replay choices, other timeouts) is kept as it was. Environment values and headers
// are rows with a Secret switch (NameValueEditor): a secret is shown masked, as it was
// entered; one the secret store could not give back asks to be entered again, and stays a
// reference when left empty. Below them it says where secrets are kept (setSecretStorage);
// where they would be lost at quit it offers an encrypted file (encryptedFileRequested).
// Thread: GUI.
class ServerDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ServerDialog(QWidget *parent = nullptr);
    void setConfig(const ServerConfig &config, const QStringList &roots);
    ServerConfig config() const;
    QStringList roots() const;
    void accept() override;
    void setSecretStorage(const SecretStorage &storage);

Q_SIGNALS:
    // "Keep them in an encrypted file…": the window asks for the file and its passphrase.
    void encryptedFileRequested();

private:
    void updateVisibility();

    QLineEdit *m_name = nullptr;
    QComboBox *m_route = nullptr;
    QComboBox *m_era = nullptr;
    QLineEdit *m_program = nullptr;
    QPlainTextEdit *m_arguments = nullptr;
    NameValueEditor *m_environment = nullptr;
    QLineEdit *m_cwd = nullptr;
    QLineEdit *m_url = nullptr;
    NameValueEditor *m_headers = nullptr;
    QLabel *m_storage = nullptr;
    QPushButton *m_useFile = nullptr;
    QDoubleSpinBox *m_timeout = nullptr;
    QSpinBox *m_threshold = nullptr;
    QDoubleSpinBox *m_cooldown = nullptr;
    QDoubleSpinBox *m_ping = nullptr;
    QPlainTextEdit *m_roots = nullptr;
    QCheckBox *m_recordPayloads = nullptr;
    QCheckBox *m_mcpApps = nullptr;
    ServerConfig m_base; // the edited server, or a new one's defaults
    QList<QWidget *> m_stdioRows;
    QList<QWidget *> m_httpRows;
};

} // namespace Sonde
