// SPDX-License-Identifier: MIT
#include "application/workspace/workspacecontroller.h"

#include "application/servers/builtindemos.h"
#include "application/servers/serverregistry.h"
#include "application/servers/serverstore.h"
#include "application/servers/serverviewstore.h"
#include "application/workspace/workspacesettings.h"

#include <QSettings>

namespace Sonde {

WorkspaceController::WorkspaceController(ServerRegistry *registry, BuiltInDemos *demos,
                                         WorkspaceSecrets *secrets, QObject *parent)
    : QObject(parent), m_registry(registry), m_demos(demos), m_secrets(secrets)
{
}

Workspace WorkspaceController::workspace() const
{
    Workspace w;
    const ServerStore *servers = m_registry->servers();
    for (int i = 0; i < servers->size(); ++i) {
        if (servers->isProxied(i))
            continue; // a live session a proxy stands in, not a server to keep
        const ServerConfig &c = servers->config(i);
        w.servers.append({c, m_registry->views()->roots(c.name), servers->isBuiltInHttpDemo(i)});
    }
    if (m_fillLayout)
        m_fillLayout(&w);
    return w;
}

void WorkspaceController::load(QSettings &settings)
{
    Error error;
    const Workspace stored = WorkspaceSettings::load(settings, &error);
    m_secrets->resolve(stored, [this, &settings, error](const WorkspaceSecrets::Loaded &read) {
        // One write at the end, not one per server (and none with half the servers).
        m_loading = true;
        for (const Workspace::Server &s : read.workspace.servers) {
            if (s.builtInHttpDemo)
                m_demos->addHttpDemo(s.config.name, s.roots, s.config.era);
            else // without its secret a server would only be refused: it waits for the user
                m_registry->add(s.config, s.roots, !read.unresolved.contains(s.config.name));
        }
        m_loading = false;
        Q_EMIT applied(read, error);
        if (read.migrated) // the plaintext values are in the store now: out of the file
            WorkspaceSettings::saveNow(settings, workspace());
        Q_EMIT loaded();
    });
}

void WorkspaceController::autosaveTo(QSettings *settings)
{
    m_autosave = settings;
    changed();
}

void WorkspaceController::changed()
{
    if (!m_autosave || m_loading)
        return;
    const Workspace w = workspace();
    m_secrets->keep(w);
    if (!WorkspaceSettings::saveNow(*m_autosave, w))
        Q_EMIT saveFailed(tr("The workspace could not be saved to %1").arg(m_autosave->fileName()));
}

void WorkspaceController::save(QSettings &settings) const
{
    const Workspace w = workspace();
    m_secrets->keep(w);
    WorkspaceSettings::save(settings, w);
}

} // namespace Sonde
