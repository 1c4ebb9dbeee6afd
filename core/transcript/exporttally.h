// SPDX-License-Identifier: MIT
#pragma once

#include "transcript/harexport.h"
#include "transcript/transcriptexport.h"

#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace Sonde {

// Counts transcript records as they go by, for every server and for each: what the export
// dialog says a file will hold (TranscriptExport::Counts) for "all servers" and for "only
// this one", learned in one pass, and what a streamed export learns on its first whole pass
// so that no separate count pass is needed. Holds a few numbers and leg keys per server.
class ExportTally
{
public:
    void add(const QJsonObject &record);
    // Every server's records together; servers in the order they first appear.
    TranscriptExport::Counts all() const;
    // One server's (empty Counts when it has none).
    TranscriptExport::Counts of(const QString &server) const;
    QStringList servers() const { return m_order; }

private:
    struct Server
    {
        qint64 events = 0;
        HarExport::Legs legs; // legs are per server and generation, so they add up
    };
    QStringList m_order;
    QHash<QString, Server> m_servers;
};

} // namespace Sonde
