// SPDX-License-Identifier: MIT
#include "transcript/exportsource.h"

using namespace Qt::StringLiterals;

namespace Sonde {

bool ListExportSource::read(const QString &server, const QStringList &directions, const Each &each,
                            QString *) const
{
    for (const QJsonObject &r : m_records) {
        if (!server.isEmpty() && r.value("server"_L1).toString() != server)
            continue;
        if (!directions.isEmpty() && !directions.contains(r.value("dir"_L1).toString()))
            continue;
        if (!each(r))
            return false;
    }
    return true;
}

bool EventListExportSource::read(const QString &server, const QStringList &directions,
                                 const Each &each, QString *) const
{
    for (const TranscriptEvent &e : m_events) {
        if (!server.isEmpty() && e.server != server)
            continue;
        if (!directions.isEmpty() &&
            !directions.contains(TranscriptEvent::directionName(e.direction)))
            continue;
        if (!each(e.toJson()))
            return false;
    }
    return true;
}

bool MaskedExportSource::read(const QString &server, const QStringList &directions,
                              const Each &each, QString *error) const
{
    if (m_secrets.knownValues().isEmpty())
        return m_inner.read(server, directions, each, error);
    return m_inner.read(
        server, directions, [&](const QJsonObject &r) { return each(m_secrets.apply(r)); }, error);
}

} // namespace Sonde
