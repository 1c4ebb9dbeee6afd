// SPDX-License-Identifier: MIT
#pragma once

#include "session/sessionsnapshot.h"

#include <QWidget>

class QFormLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QToolButton;

namespace Sonde {

class JsonView;
class ServerViewStore;

// One server's session as an object: its protocol era and why, id (copyable; modern has
// none), protocol version, transport and why, generation, server info and instructions,
// capabilities, GET stream (legacy) or listen stream and cache hints (modern), process facts,
// and its stderr (kept per server in the ServerViewStore); with Reconnect now, Disconnect
// and Ping. Thread: GUI. Fed snapshots by the window.
class SessionPanel : public QWidget
{
    Q_OBJECT
public:
    SessionPanel(ServerViewStore *store, QWidget *parent = nullptr);
    // Shows this server's stderr, and the lines it writes from now on.
    void showServer(const QString &server);
    void setSnapshot(const SessionSnapshot &snapshot);
    QString sessionIdText() const;
    // The subscriptions/listen stream of a modern snapshot in words: its state, what the
    // server granted and what it was asked for but did not grant.
    static QString listenText(const ListenStatus &listen);
    // The caching hints of the lists and reads: "tools/list: fresh for 60 s, private".
    static QString cacheHintsText(const CacheHints &cacheHints);
    int shownGeneration() const { return m_generation; }

Q_SIGNALS:
    void reconnectRequested();
    void disconnectRequested();
    void connectRequested();
    void pingRequested();
    void logLevelRequested(const QString &level);

private:
    void appendStderr(const QString &line);

    ServerViewStore *m_store = nullptr;
    QString m_shownServer;
    QFormLayout *m_form = nullptr;
    QLabel *m_state = nullptr;
    QLabel *m_era = nullptr;
    QLabel *m_sessionId = nullptr;
    QToolButton *m_copyId = nullptr;
    QLabel *m_protocol = nullptr;
    QLabel *m_transport = nullptr;
    QLabel *m_generationLabel = nullptr;
    QLabel *m_server = nullptr;
    QLabel *m_getStream = nullptr;
    QLabel *m_listen = nullptr;
    QLabel *m_cacheHints = nullptr;
    QLabel *m_process = nullptr;
    QLabel *m_error = nullptr;
    QPlainTextEdit *m_instructions = nullptr;
    QString m_shownInstructions; // what m_instructions was given (it may show less)
    JsonView *m_capabilities = nullptr;
    QPlainTextEdit *m_stderr = nullptr;
    QPushButton *m_connect = nullptr;
    QPushButton *m_ping = nullptr;
    QWidget *m_logLevel = nullptr;
    int m_generation = 0;
};

} // namespace Sonde
