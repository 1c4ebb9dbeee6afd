// SPDX-License-Identifier: MIT
#pragma once

#include "proxy/proxyfault.h"

#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QString>

#include <deque>

namespace Sonde {

class ProxySession;
struct ProxyVerdict;

// What a watcher of a proxied session (the window) is told, as JSON lines, since the data
// leaves the process: each frame either way, each fault as it acts and each verdict, in
// order. The newest MaxBacklog events are kept, so a window that opens after the proxy
// started shows what came before it. A frame is kept as the bytes it was and becomes a line
// only when a watcher reads it. Thread: the proxy's.
//   {"event":"frame","from":"client"|"server","t_ms":…,"gen":…,"client":…,"frame":"…"}
//   {"event":"fault","id":…,"kind":…,"detail":…,"t_ms":…,"gen":…}
//   {"event":"verdict","id":…,"kind":…,"state":…,"summary":…,"after_ms":…,"t_ms":…}
class ProxyEventFeed : public QObject
{
    Q_OBJECT
public:
    static constexpr qsizetype MaxBacklog = 2000;

    explicit ProxyEventFeed(ProxySession &session, QObject *parent = nullptr);
    ~ProxyEventFeed() override;

    // The first line a watcher gets: who and what this proxy is.
    QJsonObject hello(const QString &serverLabel, qint64 pid) const;
    // The kept events, oldest first, as lines.
    QList<QByteArray> backlog() const;

Q_SIGNALS:
    void line(const QByteArray &line); // one event, as a line with its newline

private:
    struct Event
    {
        qint64 tMs;
        int generation;
        int kind;        // 0 frame from the client, 1 frame from the server, 2 other
        QByteArray data; // the frame, or the line of another event
    };
    void add(Event e);
    QByteArray lineOf(const Event &e) const;

    ProxySession &m_session;
    std::deque<Event> m_events;
};

} // namespace Sonde
