// SPDX-License-Identifier: MIT
#include "transcript/exporttally.h"

using namespace Qt::StringLiterals;

namespace Sonde {

void ExportTally::add(const QJsonObject &record)
{
    const QString server = record.value("server"_L1).toString();
    auto it = m_servers.find(server);
    if (it == m_servers.end()) {
        m_order.append(server);
        it = m_servers.insert(server, {});
    }
    ++it->events;
    it->legs.add(record);
}

TranscriptExport::Counts ExportTally::all() const
{
    TranscriptExport::Counts c;
    c.servers = m_order;
    for (const Server &s : m_servers) {
        c.events += s.events;
        c.exchanges += s.legs.exchanges();
        c.stdioLegs += s.legs.stdioLegs();
    }
    return c;
}

TranscriptExport::Counts ExportTally::of(const QString &server) const
{
    TranscriptExport::Counts c;
    const auto it = m_servers.constFind(server);
    if (it == m_servers.cend())
        return c;
    c.servers = {server};
    c.events = it->events;
    c.exchanges = it->legs.exchanges();
    c.stdioLegs = it->legs.stdioLegs();
    return c;
}

} // namespace Sonde
