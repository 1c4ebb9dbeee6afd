// SPDX-License-Identifier: MIT
#include "proxy/proxyrecording.h"

#include "historyrecorder.h"
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
}

void ProxyRecording::stop()
{
    if (!m_recorder)
        return;
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
    // Frames only: a fault or a verdict is always kept.
    if (unwritten > MaxUnwrittenEvents &&
        event.direction != TranscriptEvent::Direction::Lifecycle) {
        ++m_dropped;
        return;
    }
    if (m_dropped > 0 && unwritten < MaxUnwrittenEvents / 2) {
        TranscriptEvent note = TranscriptEvent::lifecycle(
            event.timeMs, QString(), 0,
            LifecycleDetails::Untyped{
                u"proxy-history-dropped"_s,
                QJsonObject{{u"events"_s, std::exchange(m_dropped, 0)},
                            {u"why"_s, u"the history's writer fell behind"_s}}});
        note.generation = m_session.generation();
        m_pending.append(std::move(note));
    }
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
