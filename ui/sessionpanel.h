// SPDX-License-Identifier: MIT
#pragma once

#include "session/sessionsnapshot.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace Sonde {

class JsonView;

// One server's session as an object: id (copyable), protocol version, transport and why,
// generation, server info and instructions, capabilities, GET stream, process facts, and
// its stderr; with Reconnect now, Disconnect and Ping. Thread: GUI. Fed by the window.
class SessionPanel : public QWidget
{
    Q_OBJECT
public:
    explicit SessionPanel(QWidget *parent = nullptr);
    void setSnapshot(const SessionSnapshot &snapshot);
    void clearStderr();
    void appendStderr(const QString &line);
    QString sessionIdText() const;
    int shownGeneration() const { return m_generation; }

Q_SIGNALS:
    void reconnectRequested();
    void disconnectRequested();
    void connectRequested();
    void pingRequested();
    void logLevelRequested(const QString &level);

private:
    QLabel *m_state = nullptr;
    QLabel *m_sessionId = nullptr;
    QLabel *m_protocol = nullptr;
    QLabel *m_transport = nullptr;
    QLabel *m_generationLabel = nullptr;
    QLabel *m_server = nullptr;
    QLabel *m_getStream = nullptr;
    QLabel *m_process = nullptr;
    QLabel *m_error = nullptr;
    QPlainTextEdit *m_instructions = nullptr;
    QString m_shownInstructions; // what m_instructions was given (it may show less)
    JsonView *m_capabilities = nullptr;
    QPlainTextEdit *m_stderr = nullptr;
    QPushButton *m_connect = nullptr;
    int m_generation = 0;
};

} // namespace Sonde
