// SPDX-License-Identifier: MIT
#include "application/servers/serverregistry.h"

#include "application/auth/authstatestore.h"
#include "application/servers/serverstore.h"
#include "application/servers/serverviewstore.h"
#include "engine/corehost.h"

namespace Sonde {

ServerRegistry::ServerRegistry(CoreHost &host, QObject *parent)
    : QObject(parent), m_host(host), m_servers(new ServerStore(this)),
      m_views(new ServerViewStore(this)), m_auth(new AuthStateStore(this))
{
}

void ServerRegistry::add(const ServerConfig &config, const QStringList &roots, bool connectNow)
{
    m_servers->addServer(config);
    m_views->addServer(config.name, roots);
    m_auth->addServer(config.name, config.auth.agent == ServerConfig::Auth::Agent::Browser);
    Q_EMIT serverAdded(config);
    m_host.addServer(config, connectNow);
}

void ServerRegistry::remove(const QString &name)
{
    m_host.removeServer(name);
    m_servers->removeServer(name);
    m_views->removeServer(name);
    m_auth->removeServer(name);
    Q_EMIT serverRemoved(name);
}

} // namespace Sonde
