// SPDX-License-Identifier: MIT
#pragma once

#include "config/serverconfig.h"
#include "protocol/error.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

class QSettings;

namespace Sonde {

// The GUI's saved workspace as a value: the servers in the user's order with their roots,
// the selected one, and the window's layout as the opaque blobs Qt saves. read() and write()
// are its only serializer. The servers go in the same "mcpServers" JSON other clients write
// (workspace/servers) plus Sonde's own per-server settings (workspace/sonde), so a workspace
// written by any earlier Sonde loads. The QSettings is the front end's: it decides where the
// workspace lives, the core only reads and writes the keys. Thread: any (a plain value).
class Workspace
{
public:
    struct Server
    {
        ServerConfig config;
        QStringList roots;
    };

    QList<Server> servers; // as the user ordered them
    QString current;
    QByteArray geometry;
    QByteArray windowState;
    QByteArray splitter;
    QByteArray transcriptColumns;
    int tab = 1; // the Tools tab, on a first start

    void write(QSettings &settings) const;
    // What could not be read is left out and said in `error` (the rest still loads).
    static Workspace read(QSettings &settings, Error *error = nullptr);
};

} // namespace Sonde
