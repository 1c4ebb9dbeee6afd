// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "session/sessionsnapshot.h"

#include <QList>
#include <QObject>
#include <QStringList>

namespace Sonde {

// The workspace's servers: each one's configuration and its latest session snapshot, in the
// order the user chose (added at the end, moved with moveServer). A store, not a view: the window
// and the list model read it. Thread: the GUI thread; owned by the window. Emits row-level signals
// the model forwards.
class ServerStore : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    int size() const { return int(m_rows.size()); }
    int indexOf(const QString &name) const;
    const ServerConfig &config(int row) const { return m_rows.at(row).config; }
    const SessionSnapshot &snapshot(int row) const { return m_rows.at(row).snapshot; }
    QStringList names() const;
    // The built-in HTTP demo Sonde starts itself (its URL is only this run's): kept with the
    // server while its configuration is replaced, gone with it.
    bool isBuiltInHttpDemo(int row) const { return m_rows.at(row).builtInHttpDemo; }
    void setBuiltInHttpDemo(const QString &name, bool builtIn);
    QStringList builtInHttpDemos() const;
    // A session a `sonde-cli proxy` stands in the path of (ProxiedSessions): shown like a
    // server, never configured, connected by the engine or saved with the workspace.
    bool isProxied(int row) const { return m_rows.at(row).proxied; }
    bool isProxied(const QString &name) const;
    // The rows the user configured (the proxied ones left out).
    int configuredCount() const;
    // Adds a proxied session's row, marked before serverAdded so whoever saves or connects
    // on that signal already sees the mark.
    void addProxiedServer(const ServerConfig &config);

    // Adds or replaces a server's configuration.
    void addServer(const ServerConfig &config);
    void removeServer(const QString &name);
    // Moves a server to another place in the order; false when either row is out of range
    // or they are the same.
    bool moveServer(int from, int to);
    void updateSnapshot(const SessionSnapshot &snapshot);

Q_SIGNALS:
    void serverAboutToBeAdded(int row);
    void serverAdded(int row);
    void serverAboutToBeRemoved(int row);
    void serverRemoved(int row);
    void serverChanged(int row);
    void serverAboutToBeMoved(int from, int to);
    void serverMoved(int from, int to);

private:
    // A new row at the end, its snapshot naming it; serverAdded once it is there.
    void appendRow(const ServerConfig &config, bool proxied);
    struct Row
    {
        ServerConfig config;
        SessionSnapshot snapshot;
        bool builtInHttpDemo = false;
        bool proxied = false;
    };
    QList<Row> m_rows;
};

} // namespace Sonde
