// SPDX-License-Identifier: MIT
#include "historyexportsource.h"

#include "historystore.h"

namespace Sonde {

HistoryExportSource::HistoryExportSource(HistoryStore &store, const HistoryFilter &filter)
    : m_store(store), m_filter(filter)
{
    // Begun before the newest id is read: the bound and the rows are of one moment.
    if (m_store.runId() == 0 && !m_store.holdsSnapshot()) {
        if (!m_store.beginSnapshot(&m_error))
            return;
        m_snapshot = true;
    }
    if (m_filter.untilId == 0) {
        QList<qint64> ids;
        const QString before = m_store.lastError();
        m_store.newestRecords({}, 1, &ids);
        // A failed read leaves it unbounded: the export's own reading then fails and says why,
        // instead of exporting nothing as if the history were empty.
        if (ids.isEmpty() && m_store.lastError() != before)
            return;
        // An empty history: nothing recorded yet; id 0 would mean "no bound", so -1 bounds it.
        m_filter.untilId = ids.isEmpty() ? -1 : ids.first();
    }
}

HistoryExportSource::~HistoryExportSource()
{
    if (m_snapshot)
        m_store.endSnapshot();
}

bool HistoryExportSource::read(const QString &server, const QStringList &directions,
                               const Each &each, QString *error) const
{
    if (!m_error.isEmpty()) {
        *error = m_error;
        return false;
    }
    HistoryFilter filter = m_filter;
    if (!server.isEmpty()) {
        if (!filter.server.isEmpty() && filter.server != server)
            return true; // the filter's server is another one: nothing of `server` matches
        filter.server = server;
    }
    if (!directions.isEmpty()) {
        QStringList both;
        const QStringList given = !filter.directions.isEmpty()  ? filter.directions
                                  : !filter.direction.isEmpty() ? QStringList{filter.direction}
                                                                : directions;
        for (const QString &d : given)
            if (directions.contains(d))
                both.append(d);
        if (both.isEmpty())
            return true;
        filter.direction.clear();
        filter.directions = both;
    }
    for (;;) {
        QList<qint64> ids;
        // The store's error stays until the next one: a new one is what this read failed on.
        const QString before = m_store.lastError();
        const QList<QJsonObject> page = m_store.records(filter, 0, Page, &ids);
        if (page.isEmpty() && m_store.lastError() != before) {
            *error = m_store.lastError();
            return false;
        }
        for (const QJsonObject &r : page)
            if (!each(r))
                return false;
        if (page.size() < Page)
            return true;
        filter.afterId = ids.last();
    }
}

} // namespace Sonde
