// SPDX-License-Identifier: MIT
#pragma once

#include "application/workspace/workspacesecrets.h"
#include "config/workspace.h"
#include "protocol/error.h"

#include <QObject>

#include <functional>

class QSettings;

namespace Sonde {

class BuiltInDemos;
class ServerRegistry;

// The workspace's life in QSettings: load() reads it, its secret values from the store first
// (WorkspaceSecrets), and adds its servers (a built-in HTTP demo as such; a server whose
// secret could not be read waits for the user, unconnected); with autosaveTo() every
// changed() is on disk at once (a crash loses nothing), except while a load adds its servers
// one by one; save() writes it whole on a clean exit. The servers are the registry's; what
// is the window's (geometry, splitter, tab, columns, dark mode, the selected server) the
// window fills in (setLayoutSource) and restores (applied). No Widgets. Thread: GUI.
class WorkspaceController : public QObject
{
    Q_OBJECT
public:
    WorkspaceController(ServerRegistry *registry, BuiltInDemos *demos, WorkspaceSecrets *secrets,
                        QObject *parent = nullptr);

    void setLayoutSource(std::function<void(Workspace *)> fill) { m_fillLayout = std::move(fill); }
    // The workspace as it stands: the registry's servers, in order, and the window's layout.
    Workspace workspace() const;

    // `settings` must live until loaded() (plaintext secrets of an older Sonde are moved out
    // of it then).
    void load(QSettings &settings);
    // Not owned; null stops it.
    void autosaveTo(QSettings *settings);
    bool autosaves() const { return m_autosave != nullptr; }
    void changed();
    void save(QSettings &settings) const;

Q_SIGNALS:
    // The loaded servers are in the registry: the window restores its layout from
    // `loaded.workspace` and says what could not be read (`error`, `loaded.errors`).
    void applied(const Sonde::WorkspaceSecrets::Loaded &loaded, const Sonde::Error &error);
    // load() is done (after applied()).
    void loaded();
    void saveFailed(const QString &message);

private:
    ServerRegistry *m_registry = nullptr;
    BuiltInDemos *m_demos = nullptr;
    WorkspaceSecrets *m_secrets = nullptr;
    std::function<void(Workspace *)> m_fillLayout;
    QSettings *m_autosave = nullptr;
    bool m_loading = false;
};

} // namespace Sonde
