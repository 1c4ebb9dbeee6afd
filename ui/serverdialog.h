// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QDoubleSpinBox;

namespace Sonde {

// Adds or edits one server: stdio (program, arguments, environment, working directory) or
// HTTP (URL, headers), its protocol era, with its timeouts, breaker policy, keepalive and
// roots, and whether the history records its payloads. What it does not show of an edited server
// (per-tool replay choices, other timeouts) is kept as it was. Thread: GUI.
class ServerDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ServerDialog(QWidget *parent = nullptr);
    void setConfig(const ServerConfig &config, const QStringList &roots);
    ServerConfig config() const;
    QStringList roots() const;
    void accept() override;

private:
    void updateVisibility();

    QLineEdit *m_name = nullptr;
    QComboBox *m_route = nullptr;
    QComboBox *m_era = nullptr;
    QLineEdit *m_program = nullptr;
    QPlainTextEdit *m_arguments = nullptr;
    QPlainTextEdit *m_environment = nullptr;
    QLineEdit *m_cwd = nullptr;
    QLineEdit *m_url = nullptr;
    QPlainTextEdit *m_headers = nullptr;
    QLineEdit *m_secretHeaders = nullptr; // names beyond those that are secret anyway
    QDoubleSpinBox *m_timeout = nullptr;
    QSpinBox *m_threshold = nullptr;
    QDoubleSpinBox *m_cooldown = nullptr;
    QDoubleSpinBox *m_ping = nullptr;
    QPlainTextEdit *m_roots = nullptr;
    QCheckBox *m_recordPayloads = nullptr;
    ServerConfig m_base; // the edited server, or a new one's defaults
    QList<QWidget *> m_stdioRows;
    QList<QWidget *> m_httpRows;
};

} // namespace Sonde
