// SPDX-License-Identifier: MIT
#include "application/servers/serverstore.h"

#include <algorithm>

namespace Sonde {

int ServerStore::indexOf(const QString &name) const
{
    for (qsizetype i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].config.name == name)
            return int(i);
    return -1;
}

QStringList ServerStore::names() const
{
    QStringList out;
    for (const Row &r : m_rows)
        out.append(r.config.name);
    return out;
}

void ServerStore::setBuiltInHttpDemo(const QString &name, bool builtIn)
{
    if (const int row = indexOf(name); row >= 0)
        m_rows[row].builtInHttpDemo = builtIn;
}

QStringList ServerStore::builtInHttpDemos() const
{
    QStringList out;
    for (const Row &r : m_rows)
        if (r.builtInHttpDemo)
            out.append(r.config.name);
    return out;
}

bool ServerStore::isProxied(const QString &name) const
{
    const int row = indexOf(name);
    return row >= 0 && m_rows.at(row).proxied;
}

int ServerStore::configuredCount() const
{
    return int(
        std::count_if(m_rows.begin(), m_rows.end(), [](const Row &r) { return !r.proxied; }));
}

void ServerStore::addProxiedServer(const ServerConfig &config)
{
    if (indexOf(config.name) < 0)
        appendRow(config, true);
}

void ServerStore::addServer(const ServerConfig &config)
{
    const int existing = indexOf(config.name);
    if (existing >= 0) {
        m_rows[existing].config = config;
        Q_EMIT serverChanged(existing);
        return;
    }
    appendRow(config, false);
}

void ServerStore::appendRow(const ServerConfig &config, bool proxied)
{
    const int row = size();
    Q_EMIT serverAboutToBeAdded(row);
    Row r;
    r.config = config;
    r.snapshot.server = config.name;
    r.snapshot.route = config.route;
    r.proxied = proxied;
    m_rows.append(r);
    Q_EMIT serverAdded(row);
}

void ServerStore::removeServer(const QString &name)
{
    const int row = indexOf(name);
    if (row < 0)
        return;
    Q_EMIT serverAboutToBeRemoved(row);
    m_rows.removeAt(row);
    Q_EMIT serverRemoved(row);
}

bool ServerStore::moveServer(int from, int to)
{
    if (from == to || from < 0 || to < 0 || from >= size() || to >= size())
        return false;
    Q_EMIT serverAboutToBeMoved(from, to);
    m_rows.move(from, to);
    Q_EMIT serverMoved(from, to);
    return true;
}

void ServerStore::updateSnapshot(const SessionSnapshot &snapshot)
{
    const int row = indexOf(snapshot.server);
    if (row < 0)
        return;
    m_rows[row].snapshot = snapshot;
    Q_EMIT serverChanged(row);
}

} // namespace Sonde
