// SPDX-License-Identifier: MIT
#pragma once

#include "values/authvalues.h"
#include "values/callvalues.h"

#include <QHash>
#include <QObject>

#include <optional>

namespace Sonde {

// Every server's authorization as the window knows it: the last AuthState the engine sent
// (CoreHost::authChanged), the sonde/auth commands still waiting for their answer, and the
// last command's error in words (until the engine is wired, every command answers one).
// It decides when a flow wants the browser: once, when a state first waits for the user at
// a URL, not on the updates that follow. A store, not a model: the Authorization panel feeds
// its AuthStepModel from the shown server's state. States for a server not added (or
// removed) are dropped. Thread: GUI; owned by the window.
class AuthStateStore : public QObject
{
    Q_OBJECT
public:
    explicit AuthStateStore(QObject *parent = nullptr);

    // `usesBrowser`: the server's flows open the system browser (ServerConfig::Auth::Agent
    // Browser); for the others (no browser, headless) browserWanted never comes. Adding a
    // server again keeps its state and takes the new setting.
    void addServer(const QString &server, bool usesBrowser = true);
    void removeServer(const QString &server);
    bool holds(const QString &server) const;

    void update(const AuthState &state);
    // The server's last state; status None (and its name) for one that never asked.
    AuthState state(const QString &server) const;

    // A command sent with CoreHost::auth.
    void addPending(quint64 ticket, const QString &server, AuthAction action);
    // The action waiting for an answer on the server, if one is.
    std::optional<AuthAction> pendingAction(const QString &server) const;
    // Takes a sonde/auth answer: the action it answered, nothing for another ticket.
    std::optional<AuthAction> settle(const CallOutcome &outcome);
    // "Sign in failed: …" for the last command, when it failed; empty otherwise.
    QString commandError(const QString &server) const;
    // "Sign in", "Refresh", "Sign out", "Status"
    static QString actionTitle(AuthAction action);

Q_SIGNALS:
    void stateChanged(const QString &server);
    // The flow waits for the user at `url`: open it (once per flow).
    void browserWanted(const QString &server, const QUrl &url);

private:
    struct Entry
    {
        AuthState state;
        QString commandError;
        bool usesBrowser = true;
    };
    struct Pending
    {
        QString server;
        AuthAction action = AuthAction::Status;
    };

    QHash<QString, Entry> m_entries;
    QHash<quint64, Pending> m_pending;
};

} // namespace Sonde
