// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "protocol/error.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariantMap>

namespace Sonde {

// The GUI's saved workspace as a value: the servers in the user's order with their roots,
// the selected one, and the window's layout as the opaque blobs Qt saves. read() and write()
// are its only serializer. The servers go in the same "mcpServers" JSON other clients write
// (workspace/servers) plus Sonde's own per-server settings (workspace/sonde), so a workspace
// written by any earlier Sonde loads. It converts to and from settings keys and values; the
// front end stores them (QSettings: WorkspaceSettings in ui/application/workspace/), since the
// core never touches QSettings. Thread: any (a plain value).
class Workspace
{
public:
    struct Server
    {
        ServerConfig config;
        QStringList roots;
        // The HTTP demo Sonde starts itself: its URL changes with every run, so what is
        // kept is that it is the built-in one, and the next start launches it again.
        bool builtInHttpDemo = false;
    };

    QList<Server> servers; // as the user ordered them
    QString current;
    QByteArray geometry;
    QByteArray windowState;
    QByteArray splitter;
    QByteArray transcriptColumns;
    int tab = 1; // the Tools tab, on a first start
    bool darkMode = false;

    // Every settings key the workspace uses.
    static QStringList keys();
    QVariantMap toValues() const;
    // From the stored keys (absent ones keep their defaults). What could not be read is left
    // out and said in `error` (the rest still loads).
    static Workspace fromValues(const QVariantMap &values, Error *error = nullptr);
};

} // namespace Sonde
