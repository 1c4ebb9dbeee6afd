// SPDX-License-Identifier: MIT
#pragma once

#include "proxy/clientjudge.h"
#include "transcript/transcriptevent.h"

#include <QObject>
#include <QSet>
#include <QString>
#include <QTimer>

#include <memory>

namespace Sonde {

class HistoryRecorder;
class ProxySession;

// Records a proxied session into the history (`sonde-cli proxy --history DB`, by default the
// window's file), so it can be browsed, searched and exported like a session Sonde made:
// the client's frames as outgoing, the server's as incoming, each fault as a fault event
// (the timeline's mark) and each verdict as a `proxy-verdict` event. The server is named
// "CLIENT → SERVER" (the client's clientInfo name, once its initialize is seen), and an HTTP
// client's new session is a new generation. Headers are not recorded, so no Authorization,
// cookie or session id is written. Frames are batched (100 ms, or 256 events) and written on
// the recorder's own thread. Thread: the proxy's.
class ProxyRecording : public QObject
{
    Q_OBJECT
public:
    ProxyRecording(ProxySession &session, QString serverLabel, QObject *parent = nullptr);
    ~ProxyRecording() override;

    void start(const QString &path);
    // Writes what is pending and ends the writer thread (before the process exits).
    void stop();
    QString firstError() const;
    // While paused (a window records the session), what passes is not recorded here.
    void setPaused(bool paused);

    static constexpr int FlushMs = 100;
    static constexpr qsizetype FlushEvents = 256;
    // The most events handed to the writer and not yet written. A flood faster than SQLite
    // writes would otherwise grow the proxy without bound (measured: +3.5 MiB per 10,000
    // pipelined pings); past it, frames are counted instead of kept, and the history says
    // how many (a `proxy-history-dropped` event, at most once a second, and at the end).
    static constexpr qint64 MaxUnwrittenEvents = 4096;
    static constexpr int PageCacheKiB = 256;

Q_SIGNALS:
    void failed(const QString &message);

private:
    void add(TranscriptEvent event);
    void noteDropped(qint64 timeMs); // a proxy-history-dropped event with the count so far
    void flush();
    QString serverName() const;

    ProxySession &m_session;
    QString m_label;
    std::unique_ptr<HistoryRecorder> m_recorder;
    TranscriptBatch m_pending;
    QTimer m_timer;
    bool m_paused = false;
    qint64 m_submitted = 0; // events handed to the recorder
    qint64 m_dropped = 0;   // frames not recorded since the writer fell behind
    qint64 m_droppedNoteMs = 0;
    // Requests not recorded, by direction and id: their answers are not recorded either. An
    // answer without its request costs the history a backward search of the session for it
    // (HistoryStore::pairWithRequest), which a flood of them turns quadratic.
    QSet<QString> m_droppedRequests;
    static constexpr qsizetype MaxDroppedRequests = 100'000;
};

} // namespace Sonde
