// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"

#include <QObject>
#include <QStringList>

namespace Sonde {

class AuthStateStore;
class CoreHost;
class ServerStore;
class ServerViewStore;

// The one place the window adds and removes a server. It owns the per-server stores (the
// servers' configs and list, what each server's tabs show, its sign-in state) and tells the
// core host; whatever else keeps something per server (the masking of exports, the timeline's
// lanes, the notice of secrets to enter again) subscribes to serverAdded and serverRemoved
// instead of being called by hand. GUI thread.
class ServerRegistry : public QObject
{
    Q_OBJECT
public:
    explicit ServerRegistry(CoreHost &host, QObject *parent = nullptr);

    ServerStore *servers() const { return m_servers; }
    ServerViewStore *views() const { return m_views; }
    AuthStateStore *auth() const { return m_auth; }

    // The stores first, then serverAdded (so its secrets are masked before any of its traffic
    // arrives), then the host, which connects unless `connectNow` is false.
    void add(const ServerConfig &config, const QStringList &roots, bool connectNow = true);
    // A proxied session's row (ProxiedSessions): the stores and serverAdded, never the host.
    void addProxied(const ServerConfig &config);
    // The host first (no more of its traffic), then the stores, then serverRemoved.
    void remove(const QString &name);

Q_SIGNALS:
    void serverAdded(const ServerConfig &config);
    void serverRemoved(const QString &name);

private:
    CoreHost &m_host;
    ServerStore *m_servers = nullptr;
    ServerViewStore *m_views = nullptr;
    AuthStateStore *m_auth = nullptr;
};

} // namespace Sonde
