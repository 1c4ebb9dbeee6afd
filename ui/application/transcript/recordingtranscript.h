// SPDX-License-Identifier: MIT
#pragma once

#include "historyfilter.h"
#include "transcript/transcriptevent.h"

#include <QList>
#include <QObject>
#include <QString>

#include <memory>

namespace Sonde {

class Clock;
class ClockTimer;
class HistoryStore;
class ReplayRequest;
class TranscriptModel;
class TranscriptFilterQuery;
class TranscriptStore;
struct TranscriptFilterAnswer;

// What the Transcript tab's filter boxes ask, in the transcript's own terms.
struct TranscriptViewFilter
{
    QString server;                               // empty: all
    QList<TranscriptEvent::Direction> directions; // the ones shown
    QString methodContains;
    QString text;
};

// This run's transcript as the Transcript tab shows it once the window records: its rows read
// from the SQLite history (a read connection of its own) through a TranscriptModel, so the
// tab's memory stays the same however long the recording. It holds every read of the history
// the tab needs, so no widget runs a query: the filters counted off the GUI thread
// (TranscriptFilterQuery), the rows recorded since followed at most every FollowIntervalMs,
// a store row found among the recorded ones (the timeline's jumps), and a request's recorded
// answer looked for after it (Replay…). Thread: GUI.
class RecordingTranscript : public QObject
{
    Q_OBJECT
public:
    // A flood commits a batch every 50 ms; each follow counts the new rows and the view reads
    // the last page again, on this thread. So the table follows at most this often, and the
    // last batch is never left out (a follow is due at the end of the interval).
    static constexpr int FollowIntervalMs = 200;

    RecordingTranscript(std::shared_ptr<const HistoryStore> reader, qint64 runId,
                        QObject *parent = nullptr);
    ~RecordingTranscript() override;

    TranscriptModel *model() const { return m_model; }
    QString path() const;

    // The rows the filter selects, counted off the GUI thread: the old rows stay until the
    // answer (filtered() then). `tail`: the view follows the newest rows, so the last screen
    // is read first. A change of the method or text alone waits for the next keystroke.
    void setFilter(const TranscriptViewFilter &filter, bool tail);
    // A batch was committed (HistoryRecorder::recorded): its rows are inserted now, or at the
    // end of the FollowIntervalMs since the last follow.
    void follow();
    // The time line the following is throttled on (not owned; it outlives this). Until it is
    // set, a steady clock of its own.
    void setFollowClock(const Clock *clock);

    // The row of the model that shows the store's row `storeRow` (the same event recorded);
    // -1 when the filters hide it or it is not recorded.
    int rowOf(const TranscriptStore &store, int storeRow) const;
    // Gathers a request's recorded answer and verdicts from everything recorded after it,
    // whatever the filters hide.
    void collectAnswer(ReplayRequest &request) const;
    // What an export of the rows shown reads: the filter, up to the newest row counted (rows
    // recorded while it writes are not in it). False before the first count.
    bool shownFilter(HistoryFilter *filter) const;

Q_SIGNALS:
    // The filter's rows replaced the old ones.
    void filtered();
    // A count is under way (the view says "Filtering…").
    void pendingChanged(bool pending);

private:
    void followNow();
    void show(const TranscriptFilterAnswer &answer);

    std::shared_ptr<const HistoryStore> m_reader;
    TranscriptModel *m_model;
    HistoryFilter m_filter; // what the model's rows are
    HistoryFilter m_asked;  // what the query was asked last
    TranscriptFilterQuery *m_query = nullptr;
    std::unique_ptr<Clock> m_ownClock;
    const Clock *m_followClock = nullptr;
    ClockTimer *m_followTimer = nullptr;
    qint64 m_lastFollowMs = 0;
    bool m_followedOnce = false;
};

} // namespace Sonde
