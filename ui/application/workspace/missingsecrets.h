// SPDX-License-Identifier: MIT
#pragma once

#include <QCoreApplication>
#include <QMap>
#include <QStringList>

namespace Sonde {

struct ServerConfig;

// The secret values the store could not give back, by server, from the workspace's load until
// each is entered again (Edit server) or its server goes; and the lines that ask for them.
// The window shows the lines and says when the last one is entered. Thread: GUI.
class MissingSecrets
{
    Q_DECLARE_TR_FUNCTIONS(MissingSecrets)
public:
    // What an update changed for the window to say.
    enum class Change
    {
        None,         // nothing was missing for this server, and nothing is
        AllEntered,   // the last missing secret, of any server, is there again
        StillMissing, // some are missing: show lines()
    };
    // The server's secrets as its configuration stands now; none when the server is gone.
    Change update(const QString &server, const ServerConfig *config);
    bool isEmpty() const { return m_missing.isEmpty(); }
    // One line a server: "demo: the secret header Authorization is not in the keyring secret
    // store; enter it again (Edit server)".
    QStringList lines(const QString &storeKind) const;

private:
    QMap<QString, QStringList> m_missing; // server -> what it names that the store lacks
};

} // namespace Sonde
