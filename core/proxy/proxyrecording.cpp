// SPDX-License-Identifier: MIT
#include "proxy/proxyrecording.h"

#include "historyrecorder.h"
#include "protocol/jsonrpcmessage.h"
#include "proxy/proxysession.h"
#include "util/clock.h"

#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace Sonde {

ProxyRecording::ProxyRecording(ProxySession &session, QString serverLabel, QObject *parent)
    : QObject(parent), m_session(session), m_label(std::move(serverLabel)),
      m_recorder(std::make_unique<HistoryRecorder>())
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &ProxyRecording::flush);
    connect(m_recorder.get(), &HistoryRecorder::failed, this, &ProxyRecording::failed);
    connect(&session, &ProxySession::frameSeen, this,
            [this](bool fromClient, const QByteArray &frame) {
                TranscriptEvent e;
                e.timeMs = m_session.clock().nowMs();
                e.direction = fromClient ? TranscriptEvent::Direction::Outgoing
                                         : TranscriptEvent::Direction::Incoming;
                e.raw = frame;
                add(std::move(e));
            });
    connect(&session, &ProxySession::faultActed, this,
            [this](int id, ProxyFault::Kind kind, const QString &detail) {
                add(TranscriptEvent::lifecycle(
                    m_session.clock().nowMs(), QString(), 0,
                    LifecycleDetails::Fault{.description = u"proxy fault %1 %2: %3"_s.arg(id).arg(
                                                ProxyFault::info(kind).name, detail)}));
            });
    connect(&session.judge(), &ClientJudge::judged, this, [this](const ProxyVerdict &v) {
        QJsonObject fields{{u"id"_s, v.faultId},
                           {u"kind"_s, ProxyFault::info(v.kind).name},
                           {u"state"_s, ProxyVerdict::stateName(v.state)},
                           {u"summary"_s, v.summary}};
        if (v.afterMs >= 0)
            fields.insert(u"after_ms"_s, v.afterMs);
        add(TranscriptEvent::lifecycle(m_session.clock().nowMs(), QString(), 0,
                                       LifecycleDetails::Untyped{u"proxy-verdict"_s, fields}));
    });
}

ProxyRecording::~ProxyRecording()
{
    stop();
}

void ProxyRecording::start(const QString &path)
{
    m_recorder->start(path, u"sonde-cli proxy"_s);
    // It only appends: a small cache keeps the proxy small beside its client (measured:
    // 2 MiB less over a long session than SQLite's default 2,000 KiB).
    m_recorder->setPageCacheKiB(PageCacheKiB);
}

void ProxyRecording::stop()
{
    if (!m_recorder)
        return;
    if (m_dropped > 0)
        noteDropped(m_session.clock().nowMs());
    flush();
    m_recorder->stop();
}

QString ProxyRecording::firstError() const
{
    return m_recorder->firstError();
}

QString ProxyRecording::serverName() const
{
    const QString client = m_session.clientName();
    return u"%1 → %2"_s.arg(client.isEmpty() ? u"client"_s : client, m_label);
}

void ProxyRecording::noteDropped(qint64 timeMs)
{
    m_droppedNoteMs = timeMs;
    TranscriptEvent note = TranscriptEvent::lifecycle(
        timeMs, QString(), 0,
        LifecycleDetails::Untyped{u"proxy-history-dropped"_s,
                                  QJsonObject{{u"events"_s, std::exchange(m_dropped, 0)},
                                              {u"why"_s, u"the history's writer fell behind"_s}}});
    note.generation = m_session.generation();
    m_pending.append(std::move(note));
}

void ProxyRecording::setPaused(bool paused)
{
    if (paused)
        flush();
    m_paused = paused;
}

void ProxyRecording::add(TranscriptEvent event)
{
    if (m_paused)
        return;
    const qint64 unwritten = m_submitted + m_pending.size() - m_recorder->eventsRecorded();
    const bool frame = event.direction != TranscriptEvent::Direction::Lifecycle;
    const bool behind = frame && unwritten > MaxUnwrittenEvents;
    // A request is keyed by the direction it went: its answer comes the other way. Read only
    // while frames are dropped or some answers are still to be: a scan of the frame.
    const auto envelope = frame && (behind || !m_droppedRequests.isEmpty())
                              ? JsonRpcMessage::peekEnvelope(event.raw)
                              : std::nullopt;
    const bool outgoing = event.direction == TranscriptEvent::Direction::Outgoing;
    const auto key = [&](bool requestOutgoing) {
        return (requestOutgoing ? u"c:"_s : u"s:"_s) + JsonRpcMessage::idKey(envelope->id);
    };
    const bool request = envelope && envelope->hasMethod && !envelope->id.isUndefined();
    const bool answer = envelope && !envelope->hasMethod && !envelope->id.isUndefined();
    // The answer to a request that was not recorded is not either (first: its key goes).
    if (answer && !m_droppedRequests.isEmpty() && m_droppedRequests.remove(key(!outgoing))) {
        ++m_dropped;
        return;
    }
    // Frames only: a fault or a verdict is always kept.
    // An answer to a recorded request is kept even then: left out, its request would wait in
    // the history's table of requests awaiting answers until pushed out (4,096 of them).
    if (behind && !answer) {
        ++m_dropped;
        if (request && m_droppedRequests.size() < MaxDroppedRequests)
            m_droppedRequests.insert(key(outgoing));
        return;
    }
    // What was left out is said, at most once a second while it goes on, and at the end.
    if (m_dropped > 0 && event.timeMs - m_droppedNoteMs >= 1000)
        noteDropped(event.timeMs);
    // Named when written, not when seen: the initialize that names the client is the
    // session's first frame, and it is in the same batch as what follows it.
    event.generation = m_session.generation();
    m_pending.append(std::move(event));
    if (m_pending.size() >= FlushEvents)
        flush();
    else if (!m_timer.isActive())
        m_timer.start(FlushMs);
}

void ProxyRecording::flush()
{
    m_timer.stop();
    if (m_pending.isEmpty())
        return;
    const QString server = serverName();
    for (TranscriptEvent &e : m_pending)
        e.server = server;
    m_submitted += m_pending.size();
    m_recorder->record(std::exchange(m_pending, {}));
}

} // namespace Sonde
