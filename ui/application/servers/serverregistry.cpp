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
    // A proxied session's name is not a server's to take (an import of the same name).
    if (m_servers->isProxied(config.name))
        return;
    m_servers->addServer(config);
    m_views->addServer(config.name, roots);
    m_auth->addServer(config.name, config.auth.agent == ServerConfig::Auth::Agent::Browser);
    Q_EMIT serverAdded(config);
    m_host.addServer(config, connectNow);
}

void ServerRegistry::addProxied(const ServerConfig &config)
{
    if (m_servers->indexOf(config.name) >= 0)
        return;
    m_servers->addProxiedServer(config);
    m_views->addServer(config.name, {});
    m_auth->addServer(config.name, false);
    Q_EMIT serverAdded(config);
}

void ServerRegistry::remove(const QString &name)
{
    if (!m_servers->isProxied(name))
        m_host.removeServer(name);
    m_servers->removeServer(name);
    m_views->removeServer(name);
    m_auth->removeServer(name);
    Q_EMIT serverRemoved(name);
}

} // namespace Sonde
