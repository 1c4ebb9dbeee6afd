// SPDX-License-Identifier: MIT
#include "application/auth/authstatestore.h"

using namespace Qt::StringLiterals;

namespace Sonde {

AuthStateStore::AuthStateStore(QObject *parent) : QObject(parent)
{
}

void AuthStateStore::addServer(const QString &server, bool usesBrowser)
{
    m_entries[server].usesBrowser = usesBrowser;
}

void AuthStateStore::removeServer(const QString &server)
{
    m_entries.remove(server);
    m_pending.removeIf([&](const auto &it) { return it.value().server == server; });
}

bool AuthStateStore::holds(const QString &server) const
{
    return m_entries.contains(server);
}

void AuthStateStore::update(const AuthState &state)
{
    const auto it = m_entries.find(state.server);
    // A removed server's engine may still report while it closes.
    if (it == m_entries.end())
        return;
    const AuthState before = std::exchange(it->state, state);
    // A new flow waits at a new URL (its `state` differs); a flow's later updates repeat it.
    const bool opensBrowser = it->usesBrowser && state.status == AuthState::Status::AwaitingUser &&
                              !state.authorizationUrl.isEmpty() &&
                              !(before.status == AuthState::Status::AwaitingUser &&
                                before.authorizationUrl == state.authorizationUrl);
    Q_EMIT stateChanged(state.server);
    if (opensBrowser)
        Q_EMIT browserWanted(state.server, state.authorizationUrl);
}

AuthState AuthStateStore::state(const QString &server) const
{
    const auto it = m_entries.constFind(server);
    if (it != m_entries.cend() && !it->state.server.isEmpty())
        return it->state;
    AuthState none;
    none.server = server;
    return none;
}

void AuthStateStore::addPending(quint64 ticket, const QString &server, AuthAction action)
{
    const auto it = m_entries.find(server);
    if (it == m_entries.end())
        return;
    it->commandError.clear();
    m_pending.insert(ticket, {server, action});
    Q_EMIT stateChanged(server);
}

std::optional<AuthAction> AuthStateStore::pendingAction(const QString &server) const
{
    for (const Pending &p : m_pending)
        if (p.server == server)
            return p.action;
    return {};
}

std::optional<AuthAction> AuthStateStore::settle(const CallOutcome &outcome)
{
    const auto pending = m_pending.constFind(outcome.ticket);
    if (pending == m_pending.cend())
        return std::nullopt;
    const Pending p = *pending;
    m_pending.erase(pending);
    if (const auto it = m_entries.find(p.server); it != m_entries.end()) {
        it->commandError =
            outcome.ok() ? QString()
                         : tr("%1 failed: %2").arg(actionTitle(p.action), outcome.error.message());
        Q_EMIT stateChanged(p.server);
    }
    return p.action;
}

QString AuthStateStore::commandError(const QString &server) const
{
    const auto it = m_entries.constFind(server);
    return it == m_entries.cend() ? QString() : it->commandError;
}

QString AuthStateStore::actionTitle(AuthAction action)
{
    switch (action) {
    case AuthAction::Login:
        return tr("Sign in");
    case AuthAction::Refresh:
        return tr("Refresh");
    case AuthAction::SignOut:
        return tr("Sign out");
    case AuthAction::Status:
        break;
    }
    return tr("Status");
}

} // namespace Sonde
