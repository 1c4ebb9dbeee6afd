// SPDX-License-Identifier: MIT
#include "application/transcript/recordingtranscript.h"

#include "application/history/transcripthistorysource.h"
#include "application/transcript/replayrequest.h"
#include "application/transcript/transcriptfilterquery.h"
#include "application/transcript/transcriptmodel.h"
#include "application/transcript/transcriptstore.h"
#include "historystore.h"
#include "util/clock.h"
#include "util/clocktimer.h"

#include <limits>

using namespace Qt::StringLiterals;

namespace Sonde {

RecordingTranscript::RecordingTranscript(std::shared_ptr<const HistoryStore> reader, qint64 runId,
                                         QObject *parent)
    : QObject(parent), m_reader(std::move(reader)), m_model(new TranscriptModel(this))
{
    m_filter.runId = runId;
}

RecordingTranscript::~RecordingTranscript() = default;

QString RecordingTranscript::path() const
{
    return m_reader->path();
}

// The filter boxes as the history's query: the same server, directions and method part; the
// text as an FTS5 phrase (whole words, not any part of one).
void RecordingTranscript::setFilter(const TranscriptViewFilter &view, bool tail)
{
    HistoryFilter f;
    f.runId = m_filter.runId;
    f.server = view.server;
    constexpr int AllDirections = 5;
    if (view.directions.isEmpty())
        f.directions << u"none"_s; // every box unchecked shows nothing, as the proxy does
    else if (view.directions.size() < AllDirections)
        for (TranscriptEvent::Direction d : view.directions)
            f.directions << TranscriptEvent::directionName(d);
    f.methodContains = view.methodContains.trimmed();
    f.text = view.text.trimmed();
    // Counted on the query's thread (a second or so at a million events). A keystroke in the
    // method or text box waits for the next one; a box ticked or a server chosen goes at once.
    const bool typing = m_query && f.server == m_asked.server &&
                        f.directions == m_asked.directions &&
                        (f.methodContains != m_asked.methodContains || f.text != m_asked.text);
    if (!m_query) {
        m_query = new TranscriptFilterQuery(this);
        connect(m_query, &TranscriptFilterQuery::answered, this, &RecordingTranscript::show);
        connect(m_query, &TranscriptFilterQuery::pendingChanged, this,
                &RecordingTranscript::pendingChanged);
    }
    m_asked = f;
    if (typing)
        m_query->askSoon(path(), f, tail);
    else
        m_query->ask(path(), f, tail);
}

// The old rows stayed while the filter was counted (emptying the table on every keystroke
// would flash it and lose the reader's place); now the new ones replace them, the first
// screen already read.
void RecordingTranscript::show(const TranscriptFilterAnswer &answer)
{
    m_filter = answer.filter;
    if (answer.error.isEmpty()) {
        m_model->setSource(std::make_unique<TranscriptHistorySource>(m_reader, answer),
                           answer.firstRow, answer.events);
        m_model->followSource(); // rows committed since the count: those after its last id
    } else {
        // The query's thread could not open the file: counted here, as before it existed.
        m_model->setSource(std::make_unique<TranscriptHistorySource>(m_reader, answer.filter));
    }
    Q_EMIT filtered();
}

void RecordingTranscript::setFollowClock(const Clock *clock)
{
    delete m_followTimer;
    m_followClock = clock;
    m_followTimer = clock->createTimer(this);
    connect(m_followTimer, &ClockTimer::timeout, this, &RecordingTranscript::followNow);
    m_followedOnce = false;
}

void RecordingTranscript::follow()
{
    if (!m_followClock) {
        m_ownClock = std::make_unique<SteadyClock>();
        setFollowClock(m_ownClock.get());
    }
    if (m_followTimer->isActive())
        return; // the follow due then reads every row committed until then
    const qint64 since = m_followClock->nowMs() - m_lastFollowMs;
    if (!m_followedOnce || since >= FollowIntervalMs)
        followNow();
    else
        m_followTimer->start(FollowIntervalMs - since);
}

void RecordingTranscript::followNow()
{
    m_followedOnce = true;
    m_lastFollowMs = m_followClock->nowMs();
    m_model->followSource();
}

// The rows from the event's millisecond on are counted, not those before it: the store holds
// the newest events (the timeline's tail), so they are few and the time index finds them
// (counting every row before took seconds at a million events). Then that millisecond's rows
// are looked through for the event: the nth of its server, direction and generation, as it
// is in the store.
int RecordingTranscript::rowOf(const TranscriptStore &store, int storeRow) const
{
    const auto *source = dynamic_cast<const TranscriptHistorySource *>(m_model->source());
    if (!source || storeRow < 0 || storeRow >= store.size())
        return -1;
    const TranscriptEvent &event = store.event(storeRow);
    const auto same = [&event](const TranscriptEvent &e) {
        return e.timeMs == event.timeMs && e.server == event.server &&
               e.direction == event.direction && e.generation == event.generation;
    };
    int nth = 0;
    for (int r = storeRow - 1; r >= 0 && store.event(r).timeMs == event.timeMs; --r)
        nth += same(store.event(r)) ? 1 : 0;
    HistoryFilter from = m_filter;
    from.fromMs = event.timeMs;
    from.untilId = source->lastId();
    const qint64 first = source->count() - m_reader->count(from);
    const qint64 end = qMin<qint64>(first + TranscriptPageSource::PageSize, m_model->rowCount());
    for (qint64 row = qMax<qint64>(0, first); row < end; ++row) {
        const TranscriptEvent *e = m_model->event(int(row));
        if (!e || e->timeMs > event.timeMs)
            break;
        if (same(*e) && nth-- == 0)
            return int(row);
    }
    return -1;
}

// The request's own row first, among its server's sends of its millisecond (a few rows, by
// index), then every record after it by id, a page at a time: an id range is the one read
// that stays cheap at a million rows (a server or run filter sorts all that follows: seconds
// for 20,000 records). take() passes over the other servers' events.
void RecordingTranscript::collectAnswer(ReplayRequest &request) const
{
    constexpr int PageSize = TranscriptPageSource::PageSize;
    HistoryFilter at;
    at.runId = m_filter.runId;
    at.server = request.server;
    at.direction = u"send"_s;
    at.fromMs = at.toMs = request.recordedAtMs;
    QList<qint64> ids;
    const QList<QJsonObject> sends = m_reader->records(at, 0, PageSize, &ids);
    qint64 lastId = -1;
    for (qsizetype i = 0; i < sends.size() && lastId < 0; ++i) {
        const std::optional<ReplayRequest> sent =
            ReplayRequest::fromEvent(TranscriptEvent::fromJson(sends.at(i)), nullptr);
        if (sent && sent->generation == request.generation &&
            sent->recordedId == request.recordedId)
            lastId = ids.at(i);
    }
    if (lastId < 0)
        return; // gone from the history (a Clear): nothing recorded to compare with
    TranscriptBatch page;
    qint64 pageStart = 0;
    bool atEnd = false;
    request.collect(
        [&](qint64 r) -> const TranscriptEvent * {
            if (r >= pageStart + page.size() && !atEnd) {
                HistoryFilter next;
                next.afterId = lastId;
                QList<qint64> pageIds;
                pageStart += page.size();
                page.clear();
                for (const QJsonObject &record : m_reader->records(next, 0, PageSize, &pageIds))
                    page.append(TranscriptEvent::fromJson(record));
                atEnd = page.size() < PageSize;
                if (!pageIds.isEmpty())
                    lastId = pageIds.last();
            }
            const qint64 inPage = r - pageStart;
            return inPage >= 0 && inPage < page.size() ? &page.at(inPage) : nullptr;
        },
        0, std::numeric_limits<qint64>::max());
}

bool RecordingTranscript::shownFilter(HistoryFilter *filter) const
{
    const auto *source = dynamic_cast<const TranscriptHistorySource *>(m_model->source());
    if (!source)
        return false;
    *filter = source->filter();
    if (!filter->untilId && source->lastId() > 0)
        filter->untilId = source->lastId();
    return true;
}

} // namespace Sonde
