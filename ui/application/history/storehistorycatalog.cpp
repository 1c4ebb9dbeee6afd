// SPDX-License-Identifier: MIT
#include "application/history/storehistorycatalog.h"

#include "application/history/transcripthistorysource.h"
#include "application/transcript/transcriptfilterquery.h"

namespace Sonde {

namespace {

// One filter's events; the count is taken once, when the view is made (refresh() makes a
// new one), so rows do not move under a scrolling view.
class FilteredPageSource final : public TranscriptPageSource
{
public:
    FilteredPageSource(std::shared_ptr<HistoryStore> store, HistoryFilter filter)
        : m_store(std::move(store)), m_filter(std::move(filter)), m_count(m_store->count(m_filter))
    {
    }
    qint64 count() const override { return m_count; }
    TranscriptBatch page(qint64 offset, int limit) const override
    {
        TranscriptBatch events;
        for (const QJsonObject &r : m_store->records(m_filter, offset, limit))
            events.append(TranscriptEvent::fromJson(r));
        return events;
    }

private:
    std::shared_ptr<HistoryStore> m_store;
    HistoryFilter m_filter;
    qint64 m_count;
};

} // namespace

bool StoreHistoryCatalog::open(const QString &path, QString *error)
{
    auto store = std::make_shared<HistoryStore>();
    if (!store->open(path, error))
        return false;
    m_store = std::move(store);
    return true;
}

QStringList StoreHistoryCatalog::servers() const
{
    return m_store ? m_store->servers() : QStringList();
}

QList<RecordedSession> StoreHistoryCatalog::sessions(const QString &server) const
{
    QList<RecordedSession> out;
    if (!m_store)
        return out;
    for (const HistoryStore::Session &s : m_store->sessions(server))
        out.append({s.id, s.server, s.generation, s.startedMs, s.endedMs, s.events, s.era,
                    s.protocolVersion});
    return out;
}

std::unique_ptr<TranscriptPageSource> StoreHistoryCatalog::source(const HistoryFilter &f) const
{
    return m_store ? std::make_unique<FilteredPageSource>(m_store, f) : nullptr;
}

std::unique_ptr<TranscriptPageSource> StoreHistoryCatalog::sessionEvents(qint64 sessionId) const
{
    return source(sessionFilter(sessionId));
}

HistoryFilter HistoryCatalog::sessionFilter(qint64 sessionId)
{
    HistoryFilter f;
    f.sessionId = sessionId;
    return f;
}

HistoryFilter HistoryCatalog::searchFilter(const QString &text, const QString &server)
{
    HistoryFilter f;
    f.text = text;
    f.server = server;
    return f;
}

std::unique_ptr<TranscriptPageSource> StoreHistoryCatalog::search(const QString &text,
                                                                  const QString &server) const
{
    return source(searchFilter(text, server));
}

std::unique_ptr<TranscriptPageSource>
StoreHistoryCatalog::pagesOf(const TranscriptFilterAnswer &answer) const
{
    // The same pages as a live Transcript tab's filter: each seeks by id from the answer's
    // page starts. It is not followed (the History tab reads again when it is shown).
    return m_store ? std::make_unique<TranscriptHistorySource>(m_store, answer) : nullptr;
}

bool StoreHistoryCatalog::clear(QString *error)
{
    return m_store && m_store->clear(error);
}

} // namespace Sonde
